// Pinning the run to CPUs (`--cpus LIST`), as fio's cpus_allowed and logger
// benchmarks pin their threads: the process and every thread it starts
// afterwards run only there.
#pragma once

#include <string>
#include <vector>

namespace iobench {

/// Restricts the process to `cpus` (CPU numbers, sorted, none repeated) and
/// returns the context's `cpus`: "0,1 (sched_setaffinity; every thread
/// started afterwards inherits it; allowed before: 0-1)". Call it before any
/// thread starts: on Linux the mask is the calling thread's, which threads
/// created later inherit; on Windows SetProcessAffinityMask sets the whole
/// process's. Throws usage_error naming the CPUs the process may not run on
/// (or, on Windows, a number of 64 or more) and the ones it may, and
/// io_error when the system refuses.
std::string pin_to_cpus(const std::vector<int>& cpus);

/// "0-3,6": `cpus` (sorted) with runs of consecutive numbers as ranges.
std::string cpu_list_text(const std::vector<int>& cpus);

}  // namespace iobench
