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
/// buffer_size (bytes; absent when unbuffered or the library's own default).
/// `cases` and `session` must outlive the run. Progress goes to stderr.
void register_benchmarks(const std::vector<Case>& cases, Session& session);

/// Number of registered benchmarks that reported an error so far.
int failed_benchmarks();

}  // namespace iobench
