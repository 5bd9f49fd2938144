// Reporters: Google Benchmark's console and JSON formats, with benchmark names
// kept exactly `<workload>/<method>[/<param>:<value>]` (Google Benchmark would
// append "/manual_time"), plus a summary table at the end of the run.
#pragma once

#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "core/number_format.hpp"
#include "core/outcome.hpp"
#include "core/suite.hpp"

namespace iobench {

/// The console report of a run: prints nothing while benchmarks run (the
/// runner's progress lines on stderr say what is running), then a summary
/// table per workload: methods from fastest to slowest with the median wall
/// time per run, a 95 % confidence interval of the median (order statistics,
/// distribution-free; needs 6 repetitions or more), throughput, ratio to the
/// fastest method and to the workload's `limit` reference row, the read or
/// write system calls per run and bytes per call, system CPU time as a share
/// of wall time, the coefficient of variation across repetitions; a row that
/// failed or was skipped at run time says so with the reason, from the
/// benchmark's Outcome (a row without a recorded outcome that reports an
/// error counts as failed); then the number of failed benchmarks
/// (Outcomes::failed) and the pairs skipped because their method is not
/// built here. Reference rows (Method::reference) are listed last and never
/// ranked. Google Benchmark's context block (and its "Library was built as
/// DEBUG" warning, which describes the library, not iobench's build:
/// iobench's own build type is in the JSON context) is not printed.
class SummaryConsoleReporter : public benchmark::ConsoleReporter {
public:
    /// `outcomes`: the runner's record of the run (register_benchmarks); it must outlive the reporter.
    SummaryConsoleReporter(const Outcomes& outcomes, OutputOptions options)
        : benchmark::ConsoleReporter(options), outcomes_(outcomes) {}
    bool ReportContext(const Context& context) override;
    void ReportRuns(const std::vector<Run>& runs) override;
    void Finalize() override;
    /// Benchmarks of the suite that did not run because their method is not
    /// built on this platform or configuration, listed last.
    void set_skipped(std::vector<Skipped> skipped) { skipped_ = std::move(skipped); }

private:
    const Outcomes& outcomes_;
    std::vector<Run> runs_;
    std::vector<Skipped> skipped_;
};

/// The skipped pairs as one line for the JSON context key "skipped":
/// "name: reason; name: reason" ("" when none).
std::string skipped_context(const std::vector<Skipped>& skipped);

/// JSON reporter (Google Benchmark's own format) without the "/manual_time"
/// suffix. It holds every row until Finalize, then adds `x_limit` (time per
/// run / the median time per run of the workload's `limit` reference row with
/// the same parameters but `buf`) to the iteration rows and the mean and
/// median aggregates of every row that has one, and writes them all.
class NamedJSONReporter : public benchmark::JSONReporter {
public:
    void ReportRuns(const std::vector<Run>& runs) override;
    void Finalize() override;

private:
    std::vector<Run> runs_;
};

/// The distribution-free confidence interval of the median of `n` samples:
/// the largest k such that [x_(k), x_(n+1-k)] (1-based order statistics)
/// covers the median with probability >= `level`, from the binomial(n, 1/2)
/// distribution (e.g. W. J. Conover, Practical Nonparametric Statistics,
/// 3rd ed., 1999, section 3.2). Returns k, or 0 when even [x_(1), x_(n)] falls
/// short of `level` (n < 6 for 95 %). `coverage` receives the interval's
/// exact coverage when k > 0.
int median_interval_rank(int n, double level, double* coverage = nullptr);

/// The key that pairs a row with its `limit` reference row: the workload and
/// every parameter but `buf` ("file_read/cache:cold" for
/// "file_read/read/buf:4096/cache:cold"), or "" for a name without a method.
std::string reference_key(const std::string& benchmark_name);

}  // namespace iobench
