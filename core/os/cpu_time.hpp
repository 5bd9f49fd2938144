// CPU time of the calling thread and of the whole process, in nanoseconds:
// what a per-call row subtracts to find the CPU time of threads other than
// its callers (an asynchronous method's backend thread).
#pragma once

#include <cstdint>
#include <optional>

namespace iobench {

/// CPU time (user + system) the calling thread has used since it started,
/// ns: clock_gettime(CLOCK_THREAD_CPUTIME_ID) on POSIX, GetThreadTimes on
/// Windows (100 ns units, advanced by the scheduler's tick there). Nothing
/// when the system does not say.
std::optional<std::uint64_t> thread_cpu_ns() noexcept;

/// CPU time (user + system) every thread of the process has used, ns, the
/// threads that have ended included: CLOCK_PROCESS_CPUTIME_ID, or
/// GetProcessTimes. Nothing when the system does not say.
std::optional<std::uint64_t> process_cpu_ns() noexcept;

}  // namespace iobench
