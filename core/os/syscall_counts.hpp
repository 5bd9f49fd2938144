// System calls by kind, counted exactly by the kernel: what a run asked of
// the kernel, where user-space instruction counts (--instructions) see
// nothing (a new fdatasync, a lock that now sleeps in futex, smaller writes).
//
// Linux: one perf_event_open(2) counter per kind on the raw_syscalls:sys_enter
// tracepoint, filtered by system call number (PERF_EVENT_IOC_SET_FILTER
// "id == N || ..."), plus one unfiltered counter for every system call;
// `other` is every call less the kinds'. The counters are the calling
// thread's with `inherit`: the threads and processes it starts while they are
// open are counted too (a per-call row's threads, a method's own writer
// thread, a program method's process), the threads that existed before (the
// run guard's watchdog) are not. The tracepoint's number is read from
// tracefs (/sys/kernel/tracing or /sys/kernel/debug/tracing); where tracefs
// is not mounted and iobench may mount it (root), a child process mounts it
// in a mount namespace of its own, reads the number and exits: nothing is
// mounted anywhere else.
//
// While the counters are open the kernel takes its slow system-call path on
// every task of the machine (~0.3 us more per call, measured on a 2-core VM:
// 766 -> 1,045 ns per 1-byte write to /dev/null beside a build), so the
// runner counts in each benchmark's sizing run, never in a measured
// repetition. Under valgrind every client call brings valgrind's own (a read
// and a write on its scheduler's pipe, signal masks): not counted there. No
// counter on Windows (event tracing would need administrator rights).
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace iobench {

/// The kinds of system call counted apart (the JSON counters syscalls_<kind>).
enum class SyscallKind : unsigned {
    write,   ///< write, writev, pwrite64, pwritev, pwritev2
    read,    ///< read, readv, pread64, preadv, preadv2
    sync,    ///< fsync, fdatasync, sync_file_range, msync, syncfs, sync
    futex,   ///< futex, futex_waitv: a lock or condition that slept or woke a sleeper
    memory,  ///< mmap, munmap, mremap, brk, madvise, mprotect
    other,   ///< every other system call (open, close, clone, io_uring_enter, ...)
};

/// Number of SyscallKind values.
inline constexpr std::size_t syscall_kind_count = 6;

/// "write", "read", "sync", "futex", "memory", "other".
std::string_view to_string(SyscallKind kind);

/// System calls counted over one interval: every call, and the calls of
/// each kind (other = all less the named kinds).
struct SyscallCounts {
    double all = 0;                                     ///< every system call
    std::array<double, syscall_kind_count> by_kind{};  ///< indexed by SyscallKind
    /// The calls of `kind`.
    double operator[](SyscallKind kind) const { return by_kind[static_cast<unsigned>(kind)]; }
};

/// Counters of the calling thread's system calls (and of the threads and
/// processes it starts while open), by kind. Move-only; closes its
/// descriptors when destroyed.
class SyscallCounter {
public:
    SyscallCounter() = default;
    SyscallCounter(const SyscallCounter&) = delete;
    SyscallCounter& operator=(const SyscallCounter&) = delete;
    SyscallCounter(SyscallCounter&& other) noexcept;
    SyscallCounter& operator=(SyscallCounter&& other) noexcept;
    ~SyscallCounter();

    /// Opens the counters on the calling thread. Returns "" on success, else
    /// why system calls cannot be counted here (a sentence for the user);
    /// the counter then stays closed.
    std::string open();
    /// True between a successful open() and the end.
    bool is_open() const { return fds_[0] >= 0; }
    /// The totals so far (since open()); std::nullopt when closed or a read
    /// failed. Take two and subtract (counts_between) for an interval.
    std::optional<SyscallCounts> read() const;

private:
    void close() noexcept;
    std::array<int, syscall_kind_count> fds_{-1, -1, -1, -1, -1, -1};  ///< [0] all, [1..5] the named kinds
};

/// The system calls between two reads of one SyscallCounter, `before` read
/// first: `after` less `before`, kind by kind, less the counter's own reads
/// (a read() of each descriptor falls inside the interval); `other`
/// recomputed as all less the named kinds. Never below 0.
SyscallCounts counts_between(const SyscallCounts& before, const SyscallCounts& after);

/// "" when system calls can be counted here (a counter opened and saw one
/// getppid call), else why not: "not counted: <reason>". Checked once per
/// process (the first call opens and closes a counter).
std::string syscall_counts_unavailable();

/// The JSON context's `syscall_counter`: how system calls are counted, or
/// "not counted: <reason>".
std::string syscall_counter_description();

}  // namespace iobench
