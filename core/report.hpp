// Reporters: Google Benchmark's console and JSON formats, with benchmark names
// kept exactly `<workload>/<method>[/<param>:<value>]` (Google Benchmark would
// append "/manual_time"), plus a summary table at the end of the run.
#pragma once

#include <benchmark/benchmark.h>

#include <string>
#include <utility>
#include <vector>

namespace iobench {

/// Console reporter that also collects every run and, at the end, prints a
/// summary: per workload, methods from fastest to slowest with median wall
/// time, throughput, items per second, ratio to the fastest, the coefficient
/// of variation across repetitions, failures with their reason, and the
/// pairs skipped because their method is not built here.
class SummaryConsoleReporter : public benchmark::ConsoleReporter {
public:
    using benchmark::ConsoleReporter::ConsoleReporter;
    void ReportRuns(const std::vector<Run>& runs) override;
    void Finalize() override;
    /// Benchmarks of the suite that did not run because their method is not
    /// built on this platform or configuration: (name, reason), listed last.
    void set_skipped(std::vector<std::pair<std::string, std::string>> skipped) { skipped_ = std::move(skipped); }

private:
    std::vector<Run> runs_;
    std::vector<std::pair<std::string, std::string>> skipped_;
};

/// The skipped pairs as one line for the JSON context key "skipped":
/// "name: reason; name: reason" ("" when none).
std::string skipped_context(const std::vector<std::pair<std::string, std::string>>& skipped);

/// JSON reporter (Google Benchmark's own format) without the "/manual_time" suffix.
class NamedJSONReporter : public benchmark::JSONReporter {
public:
    void ReportRuns(const std::vector<Run>& runs) override;
};

/// Formats a rate in bytes per second with a decimal unit ("1.27 GB/s").
std::string format_throughput(double bytes_per_second);

}  // namespace iobench
