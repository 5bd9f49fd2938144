#include "core/cleanup.hpp"

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#ifdef _WIN32
#include <direct.h>
#include <fcntl.h>
#include <io.h>
#include <process.h>
#define IOBENCH_UNLINK _unlink
#define IOBENCH_RMDIR _rmdir
#define IOBENCH_WRITE(fd, p, n) _write(fd, p, static_cast<unsigned>(n))
#define IOBENCH_GETPID _getpid
#else
#include <fcntl.h>
#include <unistd.h>
#define IOBENCH_UNLINK unlink
#define IOBENCH_RMDIR rmdir
#define IOBENCH_WRITE(fd, p, n) write(fd, p, n)
#define IOBENCH_GETPID getpid
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
    for (int i = used.load() - 1; i >= 0; --i) {
        if (slots[i][0] == '\0') continue;
        if (IOBENCH_UNLINK(slots[i]) != 0) IOBENCH_RMDIR(slots[i]);
    }
    char line[96];
    static const char prefix[] = "iobench: stopped by signal ";
    static const char suffix[] = "; generated files removed\n";
    char* p = line;
    std::memcpy(p, prefix, sizeof prefix - 1);
    p = put_number(p + sizeof prefix - 1, sig);
    std::memcpy(p, suffix, sizeof suffix - 1);
    p += sizeof suffix - 1;
    [[maybe_unused]] auto written = IOBENCH_WRITE(2, line, static_cast<std::size_t>(p - line));
    std::signal(sig, SIG_DFL);
    std::_Exit(128 + sig);
}

}  // namespace

void install_interrupt_cleanup() {
    owner.store(static_cast<long>(IOBENCH_GETPID()));
#ifdef _WIN32
    for (int sig : {SIGINT, SIGTERM, SIGBREAK}) std::signal(sig, on_signal);
#else
    // Every signal whose default action ends the process and that a
    // program may catch, except the ones a crash raises (SIGSEGV, SIGBUS,
    // SIGFPE, SIGILL, SIGABRT): those leave files that the next run removes.
    for (int sig : {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGALRM, SIGUSR1, SIGUSR2}) {
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

int ensure_standard_descriptors() {
    int opened = 0;
#ifdef _WIN32
    for (int fd = 0; fd <= 2; ++fd) {
        if (_get_osfhandle(fd) != -1) continue;
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
