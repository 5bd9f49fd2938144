// What the operating system counted while a run executed: read- and
// write-family system calls, user and system CPU time, page faults, context
// switches and storage traffic, taken from the OS's own accounting of the
// calling thread, or of the whole process for a method that does its I/O on
// threads of its own (OsScope; rule 7 of docs/design.md: every number is
// explained).
//
//  counter           Linux: thread (process)                Windows (process for the I/O counts)
//  read_calls        syscr of /proc/thread-self/io (self)   ReadOperationCount (GetProcessIoCounters)
//  write_calls       syscw of /proc/thread-self/io (self)   WriteOperationCount (GetProcessIoCounters)
//  user_time         ru_utime, getrusage(RUSAGE_THREAD      user time of GetThreadTimes
//                    (RUSAGE_SELF))                         (GetProcessTimes)
//  system_time       ru_stime, likewise                     kernel time of GetThreadTimes (GetProcessTimes)
//  page_faults       ru_minflt + ru_majflt                  PageFaultCount (GetProcessMemoryInfo)
//  context_switches  ru_nvcsw + ru_nivcsw                   (not provided)
//  read_bytes        read_bytes of /proc/thread-self/io     (not provided)
//  write_bytes       write_bytes of /proc/thread-self/io    (not provided)
//  steal_time        steal of /proc/stat's cpu line         (not provided)
//  cpu_wait          "some" total of /proc/pressure/cpu     (not provided)
//  run_queue_time    2nd field of /proc/thread-self/        (not provided)
//                    schedstat (process: not provided; a program's:
//                    summed over /proc/PID/task/*)
//
// steal_time and cpu_wait are the machine's, not the thread's: the CPU time
// the hypervisor gave to others while this VM had work (summed over its
// CPUs; USER_HZ ticks, so 10 ms steps), and the time some task of this
// machine waited for a CPU (pressure stall information, in microseconds).
// Non-zero values beside a run's spread say the host, not the method, moved
// the time. run_queue_time is the measured thread's (process's) own: the
// time it was ready to run and waited for a CPU (the scheduler's statistics,
// in nanoseconds); wall time less CPU time less it is time neither running
// nor ready (blocked, or stopped by SIGSTOP), which the summary's note of
// stopped repetitions reads.
//
// Windows counts I/O calls per process only (no per-thread count exists:
// GetProcessIoCounters, i.e. NtQueryInformationProcess(ProcessIoCounters), is
// the only source outside event tracing). ReadOperationCount and
// WriteOperationCount count ReadFile/WriteFile (NtReadFile/NtWriteFile) calls
// on any handle; OtherOperationCount (DeviceIoControl, the console's
// WriteConsole, ...) and the Transfer counts (bytes through those calls, not
// storage traffic) are not reported.
//
// A counter the platform does not provide, or that did not move when the
// first snapshot checked it against a real call, is unknown: it is left out
// of a row, never reported as 0, and calls_not_counted_here says why for the
// call counts (under wine: "not counted under wine: GetProcessIoCounters
// counted 0 writes and 0 reads for one WriteFile and one ReadFile": wine 8.0
// returns zeros for every count).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

namespace iobench {

/// The counters iobench reports on every row, in one list: X(name, unit,
/// meaning) for each, in the order of OsCounter. The name is the counter's in
/// the JSON rows and the reports; tests/data/os_counters.json holds the same
/// list, against which this one and the Python tools' (counters.py) are tested.
#define IOBENCH_OS_COUNTERS(X)                                                                                 \
    X(read_calls, "count", "read-family system calls (read, readv, pread, ...)")                             \
    X(write_calls, "count", "write-family system calls (write, writev, pwrite, ...)")                        \
    X(user_time, "seconds", "CPU time in user mode")                                                          \
    X(system_time, "seconds", "CPU time in the kernel")                                                       \
    X(page_faults, "count", "minor + major page faults")                                                      \
    X(context_switches, "count", "voluntary + involuntary context switches")                                  \
    X(read_bytes, "bytes", "bytes the thread caused to be fetched from storage")                             \
    X(write_bytes, "bytes", "bytes the thread caused to be sent to storage (page cache writeback included)") \
    X(steal_time, "seconds", "CPU time the hypervisor took from this machine (all CPUs)")                     \
    X(cpu_wait, "seconds", "time some task of this machine waited for a CPU (PSI \"some\")")                   \
    X(run_queue_time, "seconds", "time the measured thread (process) itself waited on a run queue for a CPU")

/// One value per entry of IOBENCH_OS_COUNTERS, which says its unit and meaning.
enum class OsCounter : unsigned {
#define IOBENCH_OS_COUNTER_ENUM(name, unit, meaning) name,
    IOBENCH_OS_COUNTERS(IOBENCH_OS_COUNTER_ENUM)
#undef IOBENCH_OS_COUNTER_ENUM
};

/// Number of OsCounter values.
inline constexpr std::size_t os_counter_count = 0
#define IOBENCH_OS_COUNTER_ONE(name, unit, meaning) +1
    IOBENCH_OS_COUNTERS(IOBENCH_OS_COUNTER_ONE)
#undef IOBENCH_OS_COUNTER_ONE
    ;

/// A counter as IOBENCH_OS_COUNTERS declares it.
struct OsCounterInfo {
    std::string_view name;     ///< in the JSON rows and the reports ("read_calls")
    std::string_view unit;     ///< "count", "seconds" or "bytes", per run
    std::string_view meaning;  ///< what it counts
};

/// Every counter, in the order of OsCounter.
inline constexpr std::array<OsCounterInfo, os_counter_count> os_counter_list{{
#define IOBENCH_OS_COUNTER_INFO(name, unit, meaning) {#name, unit, meaning},
    IOBENCH_OS_COUNTERS(IOBENCH_OS_COUNTER_INFO)
#undef IOBENCH_OS_COUNTER_INFO
}};

/// Whose counters a snapshot takes: the calling thread's, or the whole
/// process's (every thread, those that ended included: /proc/self/io and
/// RUSAGE_SELF on Linux, GetProcessTimes on Windows), for a method whose
/// writes and CPU time are partly on threads of its own
/// (Method::process_counters). The machine-wide steal_time and cpu_wait are
/// the same either way.
enum class OsScope { thread, process };

/// The counter's name in the JSON and the summary ("read_calls", ...).
constexpr std::string_view os_counter_name(OsCounter counter) {
    return os_counter_list[static_cast<std::size_t>(counter)].name;
}

/// Counter values (or differences of them) with a mask of the known ones.
/// Trivially copyable, so a child process can send it through a pipe.
struct OsCounters {
    std::array<double, os_counter_count> value{};  ///< units as OsCounter says
    std::uint32_t known = 0;                       ///< bit i set: value[i] is known
    static_assert(os_counter_count <= 32, "known is a mask of 32 bits");

    /// True when counter `c` is known.
    bool has(OsCounter c) const { return (known >> static_cast<unsigned>(c)) & 1u; }
    /// Sets counter `c` to `v` and marks it known.
    void set(OsCounter c, double v) {
        value[static_cast<unsigned>(c)] = v;
        known |= 1u << static_cast<unsigned>(c);
    }
    /// The value of counter `c` (0 when unknown: check `has` first).
    double operator[](OsCounter c) const { return value[static_cast<unsigned>(c)]; }
    /// Adds `other` counter by counter; a counter stays known only when both are.
    OsCounters& operator+=(const OsCounters& other);
};
static_assert(std::is_trivially_copyable_v<OsCounters>);

/// Reads the text of a Linux /proc/<pid>/io (or /proc/thread-self/io) file
/// into `s`: syscr and syscw as read_calls and write_calls, read_bytes and
/// write_bytes. A field the text lacks stays unknown. Makes no allocation
/// (safe in a forked child). POSIX builds only.
#ifndef _WIN32
void add_proc_io_counters(const char* text, OsCounters& s) noexcept;

/// Seconds every thread of process `pid` (a program method's) has waited on a
/// run queue for a CPU: the sum of the second field of
/// /proc/<pid>/task/*/schedstat (threads that ended are not counted);
/// std::nullopt where the system does not say (no schedstat). Linux only.
std::optional<double> run_queue_seconds_of_process(long pid);
#endif

/// The calling thread's (on Windows, for the I/O counts and page faults: the
/// process's) counters since it started, or the process's (`scope`).
/// Cheap (on Linux three preads of /proc files: the thread's or process's io,
/// the machine's stat and CPU pressure; and one getrusage), makes no
/// allocation, and safe in a forked child.
OsCounters take_os_snapshot(OsScope scope = OsScope::thread) noexcept;

/// What happened between two snapshots of the same thread (or process: the
/// `scope` both were taken with), `before` taken first: their difference,
/// less what taking the snapshot itself costs (the read of
/// /proc/thread-self/io counts as one read call). Known only where both are.
OsCounters os_counters_between(const OsCounters& before, const OsCounters& after,
                               OsScope scope = OsScope::thread) noexcept;

/// `counters` with only the machine-wide ones kept known (steal_time,
/// cpu_wait): what a process can say of work that ran in another process.
OsCounters machine_wide(OsCounters counters) noexcept;

/// The counters this platform provides, comma-separated ("read_calls,write_calls,..."),
/// for the JSON context; checked once against real calls (a counter that did
/// not move when it should have is not listed).
std::string available_os_counters();

/// Why snapshots of `scope` carry no read_calls or write_calls here, from the
/// check of available_os_counters (one real write and one real read must move
/// them by exactly one each): "" when they carry both. Otherwise "not
/// counted: <what the check found>", or "not counted under wine: ..." under
/// wine (wine_version, core/os/environment.hpp), e.g. "not counted under wine:
/// GetProcessIoCounters counted 0 writes and 0 reads for one WriteFile and
/// one ReadFile". The reason of every row whose method gives none of its own
/// (RowStructure::calls_not_counted, core/report/report.hpp).
std::string calls_not_counted_here(OsScope scope = OsScope::thread);

/// The wording of calls_not_counted_here, from what the check found:
/// `source` the counters read ("GetProcessIoCounters", "/proc/thread-self/io"),
/// `probe` the calls made ("one WriteFile and one ReadFile"), `readable`
/// whether the counters could be read at all, `writes` and `reads` how far
/// they moved for the probe, `wine` wine_version(). "" when both moved by
/// exactly one.
std::string calls_not_counted_reason(std::string_view source, std::string_view probe, bool readable, double writes,
                                     double reads, std::string_view wine);

}  // namespace iobench
