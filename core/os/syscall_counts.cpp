#include "core/os/syscall_counts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

#include "core/os/emulator.hpp"
#include "core/os/instructions.hpp"

#if defined(__linux__)
#include <fcntl.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

namespace iobench {

std::string_view to_string(SyscallKind kind) {
    switch (kind) {
        case SyscallKind::write: return "write";
        case SyscallKind::read: return "read";
        case SyscallKind::sync: return "sync";
        case SyscallKind::futex: return "futex";
        case SyscallKind::memory: return "memory";
        case SyscallKind::other: return "other";
    }
    return "?";
}

SyscallCounts counts_between(const SyscallCounts& before, const SyscallCounts& after) {
    SyscallCounts d;
    // The reads of the counters themselves: each read() counts at its entry,
    // so the reads after the first descriptor's in `before` and up to it in
    // `after` fall inside the interval: one read per descriptor in all.
    constexpr double own_reads = static_cast<double>(syscall_kind_count);
    d.all = std::max(0.0, after.all - before.all - own_reads);
    double named = 0;
    for (std::size_t k = 0; k < syscall_kind_count; ++k) {
        if (k == static_cast<std::size_t>(SyscallKind::other)) continue;
        d.by_kind[k] = after.by_kind[k] - before.by_kind[k];
        if (k == static_cast<std::size_t>(SyscallKind::read)) d.by_kind[k] = std::max(0.0, d.by_kind[k] - own_reads);
        named += d.by_kind[k];
    }
    d.by_kind[static_cast<std::size_t>(SyscallKind::other)] = std::max(0.0, d.all - named);
    return d;
}

SyscallCounter::SyscallCounter(SyscallCounter&& other) noexcept : fds_(std::exchange(other.fds_, {-1, -1, -1, -1, -1, -1})) {}

SyscallCounter& SyscallCounter::operator=(SyscallCounter&& other) noexcept {
    if (this != &other) {
        close();
        fds_ = std::exchange(other.fds_, {-1, -1, -1, -1, -1, -1});
    }
    return *this;
}

SyscallCounter::~SyscallCounter() { close(); }

#if defined(__linux__)

namespace {

/// The system call numbers of a kind on this architecture (a name the
/// architecture lacks, e.g. aarch64's missing legacy calls, is left out).
std::vector<long> numbers_of(SyscallKind kind) {
    switch (kind) {
        case SyscallKind::write:
            return {SYS_write, SYS_writev, SYS_pwrite64, SYS_pwritev,
#ifdef SYS_pwritev2
                    SYS_pwritev2
#endif
            };
        case SyscallKind::read:
            return {SYS_read, SYS_readv, SYS_pread64, SYS_preadv,
#ifdef SYS_preadv2
                    SYS_preadv2
#endif
            };
        case SyscallKind::sync:
            return {SYS_fsync, SYS_fdatasync, SYS_msync, SYS_syncfs, SYS_sync,
#ifdef SYS_sync_file_range
                    SYS_sync_file_range,
#endif
#ifdef SYS_sync_file_range2
                    SYS_sync_file_range2,
#endif
            };
        case SyscallKind::futex:
            return {SYS_futex,
#ifdef SYS_futex_waitv
                    SYS_futex_waitv
#endif
            };
        case SyscallKind::memory:
            return {SYS_mmap, SYS_munmap, SYS_mremap, SYS_brk, SYS_madvise, SYS_mprotect};
        case SyscallKind::other: break;
    }
    return {};
}

/// The tracepoint filter of a kind: "id == 1 || id == 20 || ...".
std::string filter_of(SyscallKind kind) {
    std::string f;
    for (long n : numbers_of(kind)) f += fmt::format("{}id == {}", f.empty() ? "" : " || ", n);
    return f;
}

constexpr const char* raw_syscalls_id_paths[] = {
    "/sys/kernel/tracing/events/raw_syscalls/sys_enter/id",
    "/sys/kernel/debug/tracing/events/raw_syscalls/sys_enter/id",
};

/// Reads a small decimal number from `path` (no allocation: safe in a
/// forked child). -1 when it cannot.
long read_number(const char* path) noexcept {
    const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    char buf[32] = {};
    const ssize_t n = ::read(fd, buf, sizeof buf - 1);
    ::close(fd);
    if (n <= 0) return -1;
    long v = 0;
    for (ssize_t i = 0; i < n && buf[i] >= '0' && buf[i] <= '9'; ++i) v = v * 10 + (buf[i] - '0');
    return v > 0 ? v : -1;
}

/// The number of the raw_syscalls:sys_enter tracepoint, or why it cannot be
/// had. From a mounted tracefs, else from one mounted by a child process in
/// a mount namespace of its own (root only).
std::pair<long, std::string> raw_syscalls_id() {
    for (const char* path : raw_syscalls_id_paths)
        if (const long id = read_number(path); id > 0) return {id, ""};
    int p[2];
    if (::pipe2(p, O_CLOEXEC) != 0) return {-1, fmt::format("pipe: {}", std::strerror(errno))};
    const pid_t child = ::fork();
    if (child < 0) {
        ::close(p[0]);
        ::close(p[1]);
        return {-1, fmt::format("fork: {}", std::strerror(errno))};
    }
    if (child == 0) {
        // Only system calls from here: the parent may have other threads.
        ::close(p[0]);
        long id = -1;
        if (::unshare(CLONE_NEWNS) == 0 && ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) == 0 &&
            ::mount("tracefs", "/sys/kernel/tracing", "tracefs", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr) == 0)
            id = read_number(raw_syscalls_id_paths[0]);
        const ssize_t w = ::write(p[1], &id, sizeof id);
        ::_exit(w == static_cast<ssize_t>(sizeof id) ? 0 : 1);
    }
    ::close(p[1]);
    long id = -1;
    ssize_t n;
    do n = ::read(p[0], &id, sizeof id);
    while (n < 0 && errno == EINTR);
    ::close(p[0]);
    int status = 0;
    while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    if (n == static_cast<ssize_t>(sizeof id) && id > 0) return {id, ""};
    return {-1, "tracefs is not mounted (/sys/kernel/tracing) and iobench could not mount it (that needs root)"};
}

int open_tracepoint(long id) noexcept {
    perf_event_attr attr{};
    attr.size = sizeof attr;
    attr.type = PERF_TYPE_TRACEPOINT;
    attr.config = static_cast<unsigned long long>(id);
    attr.inherit = 1;  // threads and processes started while open
    return static_cast<int>(::syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC));
}

}  // namespace

std::string SyscallCounter::open() {
    close();
    if (running_under_valgrind())
        return "not counted under valgrind: its own system calls (a read and a write on its scheduler's pipe for each "
               "of the program's) would be counted";
    if (!cpu_emulator().empty())
        return fmt::format("not counted under a CPU emulator ({}): the kernel would count the emulator's own system "
                           "calls, by the machine's numbers, not this program's",
                           cpu_emulator());
    static const std::pair<long, std::string> id = raw_syscalls_id();
    if (id.first <= 0) return "not counted: " + id.second;
    std::array<int, syscall_kind_count> fds{-1, -1, -1, -1, -1, -1};
    auto fail = [&](std::string why) {
        for (int& fd : fds)
            if (fd >= 0) ::close(fd);
        return "not counted: " + why;
    };
    for (std::size_t k = 0; k < syscall_kind_count; ++k) {
        fds[k] = open_tracepoint(id.first);
        if (fds[k] < 0)
            return fail(fmt::format("perf_event_open of the raw_syscalls:sys_enter tracepoint: {}{}",
                                    std::strerror(errno),
                                    errno == EACCES || errno == EPERM ? " (kernel.perf_event_paranoid, or not root)"
                                                                      : ""));
        if (k == 0) continue;  // [0]: every call
        const std::string filter = filter_of(static_cast<SyscallKind>(k - 1));
        if (::ioctl(fds[k], PERF_EVENT_IOC_SET_FILTER, filter.c_str()) != 0)
            return fail(fmt::format("the tracepoint's filter \"{}\": {}", filter, std::strerror(errno)));
    }
    fds_ = fds;
    return "";
}

std::optional<SyscallCounts> SyscallCounter::read() const {
    if (!is_open()) return std::nullopt;
    std::array<double, syscall_kind_count> raw{};
    for (std::size_t k = 0; k < syscall_kind_count; ++k) {
        unsigned long long v = 0;
        if (::read(fds_[k], &v, sizeof v) != static_cast<ssize_t>(sizeof v)) return std::nullopt;
        raw[k] = static_cast<double>(v);
    }
    SyscallCounts c;
    c.all = raw[0];
    // fds_[1 + kind] counts kind (other has no descriptor of its own).
    for (std::size_t k = 0; k + 1 < syscall_kind_count; ++k) c.by_kind[k] = raw[k + 1];
    return c;
}

void SyscallCounter::close() noexcept {
    for (int& fd : fds_)
        if (fd >= 0) {
            ::close(fd);
            fd = -1;
        }
}

std::string syscall_counts_unavailable() {
    static const std::string why = [] {
        SyscallCounter counter;
        if (std::string e = counter.open(); !e.empty()) return e;
        const auto before = counter.read();
        (void)::syscall(SYS_getppid);
        const auto after = counter.read();
        if (!before || !after) return std::string("not counted: the counters could not be read");
        const SyscallCounts d = counts_between(*before, *after);
        if (d.all < 1) return std::string("not counted: the counter saw no system call for one getppid");
        return std::string();
    }();
    return why;
}

std::string syscall_counter_description() {
    const std::string why = syscall_counts_unavailable();
    if (!why.empty()) return why;
    return "perf_event_open on the raw_syscalls:sys_enter tracepoint, one counter per kind (write, read, sync, futex, "
           "memory; other = every call less those), inherited by the threads and processes a run starts; counted in "
           "each benchmark's sizing run, not in the measured repetitions (a counted system call costs more)";
}

#else  // not Linux

std::string SyscallCounter::open() {
    return "not counted: no system-call counter on this platform (Windows would need event tracing as administrator)";
}

std::optional<SyscallCounts> SyscallCounter::read() const { return std::nullopt; }

void SyscallCounter::close() noexcept {}

std::string syscall_counts_unavailable() { return SyscallCounter().open(); }

std::string syscall_counter_description() { return syscall_counts_unavailable(); }

#endif

}  // namespace iobench
