// The runner: puts every case onto Google Benchmark, timing each run by wall
// time (manual time: only Trial::run() is inside the measurement) and
// verifying every run.
#pragma once

#include <vector>

#include "core/session.hpp"
#include "core/suite.hpp"

namespace iobench {

/// Registers each case as a Google Benchmark benchmark of the same name.
/// Every iteration: reset (not timed), run (timed, wall clock), verify (not
/// timed). A failed call or a failed verification ends the benchmark with an
/// error naming what went wrong; it then reports no time. Rows that pass carry
/// the counters bytes_per_second, items_per_second, verified (1) and
/// buffer_size (bytes; absent when unbuffered or the library's own default),
/// plus the trial's own counters (Trial::counters, e.g. write_calls). A trial
/// that times its work itself (Trial::measured_seconds: the console workloads,
/// whose call runs in a child process) gives the iteration time instead of the
/// runner's clock around run().
/// Every row also carries what the operating system counted around run()
/// only (core/os_counters.hpp), per run: read_calls, write_calls, user_time,
/// system_time (seconds), page_faults, context_switches, read_bytes,
/// write_bytes (storage traffic), and bytes_per_call = bytes of the run /
/// read_calls (input workloads) or write_calls (output workloads). A counter
/// the platform does not provide is left out.
/// A method that turns out to be unavailable at run time (`unavailable_error`)
/// ends its benchmark with the message "skipped: <reason>", not a failure.
/// `repetitions` > 0 sets every benchmark's repetitions (and lets the progress
/// lines count them); 0 leaves them to --benchmark_repetitions.
/// `cases` and `session` must outlive the run. Progress goes to stderr: one
/// line per repetition started, with the repetitions done and an estimate of
/// the time left.
void register_benchmarks(const std::vector<Case>& cases, Session& session, int repetitions = 0);

/// Number of registered benchmarks that reported an error so far.
int failed_benchmarks();

}  // namespace iobench
