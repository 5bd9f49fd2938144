#include "core/os/cleanup.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/os/abrupt_exit.hpp"
#include "core/os/usage_error.hpp"

#ifdef _WIN32
#include <direct.h>
#include <fcntl.h>
#include <io.h>
#include <process.h>
#define IOBENCH_UNLINK _unlink
#define IOBENCH_RMDIR _rmdir
#define IOBENCH_WRITE(fd, p, n) _write(fd, p, static_cast<unsigned>(n))
#define IOBENCH_GETPID _getpid
#define IOBENCH_CREATE(path) _open(path, _O_WRONLY | _O_CREAT, 0600)
#define IOBENCH_CLOSE _close
#else
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#define IOBENCH_UNLINK unlink
#define IOBENCH_RMDIR rmdir
#define IOBENCH_WRITE(fd, p, n) write(fd, p, n)
#define IOBENCH_GETPID getpid
#define IOBENCH_CREATE(path) open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600)
#define IOBENCH_CLOSE close
#endif

namespace iobench {

namespace {

constexpr int max_paths = 256;
constexpr std::size_t max_path_bytes = 4096;

// Fixed storage, so the signal handler touches no allocator. A slot is in use
// while its first byte is non-zero.
char slots[max_paths][max_path_bytes];
std::atomic<int> used{0};
// The process that installed the handler: a forked child must not remove
// the parent's files.
std::atomic<long> owner{0};

/// The name of a working directory's lock file (core/os/workdir.cpp).
constexpr char lock_name[] = "lock";
constexpr std::size_t lock_name_length = sizeof lock_name - 1;

/// True when `path` is ".../lock" (async-signal-safe).
bool is_lock_file(const char* path) {
    const std::size_t n = std::strlen(path);
    if (n <= lock_name_length) return false;
    const char separator = path[n - lock_name_length - 1];
    return (separator == '/' || separator == '\\') && std::memcmp(path + n - lock_name_length, lock_name, lock_name_length) == 0;
}

/// Appends the decimal digits of `n` to `out` (async-signal-safe).
char* put_number(char* out, int n) {
    char digits[12];
    int len = 0;
    do {
        digits[len++] = static_cast<char>('0' + n % 10);
        n /= 10;
    } while (n > 0 && len < 12);
    while (len > 0) *out++ = digits[--len];
    return out;
}

extern "C" void on_signal(int sig) {
    if (static_cast<long>(IOBENCH_GETPID()) != owner.load()) {
        std::signal(sig, SIG_DFL);
        std::raise(sig);
        std::_Exit(128 + sig);
    }
    // Everything but the working directories' lock files, newest first.
    bool any = false;  // something was generated (--list, say, generates nothing)
    for (int i = used.load() - 1; i >= 0; --i) {
        any = any || slots[i][0] != '\0';
        if (slots[i][0] == '\0' || is_lock_file(slots[i])) continue;
        if (IOBENCH_UNLINK(slots[i]) != 0) IOBENCH_RMDIR(slots[i]);
    }
    // The lock goes last. When its directory cannot be removed (a file that
    // is not ours is in it: NFS's .nfsXXXX, another program's), an unlocked
    // lock file is left in it, so the next run knows the directory for a
    // stale one and removes it; without one it would be taken for a kept one.
    for (int i = used.load() - 1; i >= 0; --i) {
        if (slots[i][0] == '\0' || !is_lock_file(slots[i])) continue;
        IOBENCH_UNLINK(slots[i]);
        char dir[max_path_bytes];
        const std::size_t n = std::strlen(slots[i]) - lock_name_length - 1;
        std::memcpy(dir, slots[i], n);
        dir[n] = '\0';
        if (IOBENCH_RMDIR(dir) != 0) {
            const int fd = IOBENCH_CREATE(slots[i]);
            if (fd >= 0) IOBENCH_CLOSE(fd);
        }
    }
    char line[96];
    static const char prefix[] = "iobench: stopped by signal ";
    static const char suffix[] = "; generated files removed\n";
    char* p = line;
    std::memcpy(p, prefix, sizeof prefix - 1);
    p = put_number(p + sizeof prefix - 1, sig);
    if (any) {
        std::memcpy(p, suffix, sizeof suffix - 1);
        p += sizeof suffix - 1;
    } else {
        *p++ = '\n';
    }
    [[maybe_unused]] auto written = IOBENCH_WRITE(2, line, static_cast<std::size_t>(p - line));
    std::signal(sig, SIG_DFL);
    end_process(128 + sig);  // iobench's own end, not code from elsewhere's _Exit
}

}  // namespace

void remove_generated_and_end(int sig) noexcept { on_signal(sig); }

void install_interrupt_cleanup() {
    owner.store(static_cast<long>(IOBENCH_GETPID()));
    // A signal ignored when iobench started stays ignored: nohup ignores
    // SIGHUP, a shell ignores SIGINT and SIGQUIT for a background job, and
    // the run is meant to go on through them.
#ifdef _WIN32
    for (int sig : {SIGINT, SIGTERM, SIGBREAK})
        if (std::signal(sig, on_signal) == SIG_IGN) std::signal(sig, SIG_IGN);
#else
    // Every signal whose default action ends the process and that a
    // program may catch, except the ones a crash raises (SIGSEGV, SIGBUS,
    // SIGFPE, SIGILL, SIGABRT): those leave files that the next run removes.
    for (int sig : {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGALRM, SIGUSR1, SIGUSR2}) {
        struct sigaction current {};
        if (sigaction(sig, nullptr, &current) == 0 && current.sa_handler == SIG_IGN) continue;
        struct sigaction action {};
        action.sa_handler = on_signal;
        sigemptyset(&action.sa_mask);
        // Block the others while one is handled: one cleanup, one exit status.
        for (int other : {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGALRM, SIGUSR1, SIGUSR2})
            sigaddset(&action.sa_mask, other);
        sigaction(sig, &action, nullptr);
    }
    std::signal(SIGXFSZ, SIG_IGN);
#endif
}

namespace {
constexpr const char* standard_names[3] = {"standard input (descriptor 0)", "standard output (descriptor 1)",
                                           "standard error (descriptor 2)"};
}  // namespace

#ifdef _WIN32
namespace {
/// _get_osfhandle of `fd`, -1 when it is closed: without the invalid
/// parameter handler Microsoft's runtime calls for a closed descriptor
/// (whose default ends the process).
intptr_t os_handle_of(int fd) {
#ifdef _MSC_VER
    const _invalid_parameter_handler previous =
        _set_thread_local_invalid_parameter_handler([](const wchar_t*, const wchar_t*, const wchar_t*, unsigned,
                                                       uintptr_t) {});
    const intptr_t handle = _get_osfhandle(fd);
    _set_thread_local_invalid_parameter_handler(previous);
    return handle;
#else
    return _get_osfhandle(fd);
#endif
}
}  // namespace

StandardDescriptorGuard::StandardDescriptorGuard() {
    for (int fd = 0; fd <= 2; ++fd) saved_[fd] = os_handle_of(fd) == -1 ? -1 : _dup(fd);
}

StandardDescriptorGuard::~StandardDescriptorGuard() {
    for (int fd : saved_)
        if (fd >= 0) _close(fd);
}

std::vector<std::string> StandardDescriptorGuard::restore() {
    std::vector<std::string> touched;
    for (int fd = 0; fd <= 2; ++fd) {
        if (saved_[fd] < 0 || os_handle_of(fd) != -1) continue;
        _dup2(saved_[fd], fd);
        touched.emplace_back(standard_names[fd]);
    }
    return touched;
}
#else
StandardDescriptorGuard::StandardDescriptorGuard() {
    for (int fd = 0; fd <= 2; ++fd) {
        struct stat st {};
        if (fstat(fd, &st) != 0) continue;
        saved_[fd] = fcntl(fd, F_DUPFD_CLOEXEC, 3);
        device_[fd] = static_cast<unsigned long long>(st.st_dev);
        inode_[fd] = static_cast<unsigned long long>(st.st_ino);
    }
}

StandardDescriptorGuard::~StandardDescriptorGuard() {
    for (int fd : saved_)
        if (fd >= 0) close(fd);
}

std::vector<std::string> StandardDescriptorGuard::restore() {
    std::vector<std::string> touched;
    for (int fd = 0; fd <= 2; ++fd) {
        if (saved_[fd] < 0) continue;
        struct stat st {};
        if (fstat(fd, &st) == 0 && static_cast<unsigned long long>(st.st_dev) == device_[fd] &&
            static_cast<unsigned long long>(st.st_ino) == inode_[fd])
            continue;
        dup2(saved_[fd], fd);
        touched.emplace_back(standard_names[fd]);
    }
    return touched;
}
#endif

int ensure_standard_descriptors() {
    int opened = 0;
#ifdef _WIN32
    for (int fd = 0; fd <= 2; ++fd) {
        if (os_handle_of(fd) != -1) continue;
        const int null = _open("NUL", fd == 0 ? _O_RDONLY : _O_WRONLY);
        if (null < 0) continue;
        if (null != fd) {
            _dup2(null, fd);
            _close(null);
        }
        opened |= 1 << fd;
    }
    // The C streams of a program started without them are not connected.
    if (opened & 2) std::freopen("NUL", "w", stdout);
    if (opened & 4) std::freopen("NUL", "w", stderr);
#else
    for (int fd = 0; fd <= 2; ++fd) {
        if (fcntl(fd, F_GETFD) != -1) continue;
        // open returns the lowest free descriptor: this one.
        const int null = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
        if (null < 0) continue;
        if (null != fd) {
            dup2(null, fd);
            close(null);
        }
        opened |= 1 << fd;
    }
#endif
    return opened;
}

void ensure_resource_limits() {
#ifndef _WIN32
    struct Limit {
        int resource;
        rlim_t needed;
        rlim_t raise_to;
        const char* what;
        const char* ulimit;
        const char* unit;
        rlim_t per_unit;
    };
    const Limit limits[] = {
        {RLIMIT_NOFILE, static_cast<rlim_t>(needed_open_files), static_cast<rlim_t>(needed_open_files) * 16,
         "the open-file limit", "ulimit -n", "", 1},
        {RLIMIT_STACK, static_cast<rlim_t>(needed_stack_bytes), rlim_t{8} << 20, "the stack limit", "ulimit -s",
         " KiB", 1024},
    };
    for (const Limit& l : limits) {
        struct rlimit r {};
        if (getrlimit(l.resource, &r) != 0 || r.rlim_cur == RLIM_INFINITY || r.rlim_cur >= l.needed) continue;
        if (r.rlim_max != RLIM_INFINITY && r.rlim_max < l.needed)
            throw usage_error(fmt::format("{} is {}{} ({}), a run needs at least {}{}: raise it", l.what,
                                          r.rlim_max / l.per_unit, l.unit, l.ulimit, l.needed / l.per_unit, l.unit));
        struct rlimit raised = r;
        raised.rlim_cur = r.rlim_max == RLIM_INFINITY ? l.raise_to : std::min(r.rlim_max, l.raise_to);
        if (setrlimit(l.resource, &raised) != 0)
            throw usage_error(fmt::format("{} is {}{} ({}), a run needs at least {}{}, and raising it failed: {}",
                                          l.what, r.rlim_cur / l.per_unit, l.unit, l.ulimit, l.needed / l.per_unit,
                                          l.unit, std::strerror(errno)));
    }
#endif
}

void remove_on_interrupt(const std::filesystem::path& path) {
    const std::string s = path.string();
    if (s.empty() || s.size() >= max_path_bytes) return;
    int n = used.load();
    for (int i = 0; i < n; ++i)
        if (s == slots[i]) return;  // already registered
    if (n >= max_paths) return;
    std::memcpy(slots[n], s.c_str(), s.size() + 1);
    used.store(n + 1);
}

void forget_on_interrupt(const std::filesystem::path& path) {
    const std::string s = path.string();
    for (int i = used.load() - 1; i >= 0; --i) {
        if (s == slots[i]) {
            slots[i][0] = '\0';
            if (i == used.load() - 1) used.store(i);
            return;
        }
    }
}

}  // namespace iobench
