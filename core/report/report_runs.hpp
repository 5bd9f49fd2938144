// What the reporters (core/report/report.cpp, row_structure.cpp, summary.cpp,
// json_report.cpp) read from Google Benchmark's rows: their names as iobench
// writes them, their counters, their time per run. Internal to the reporters.
#pragma once

#include <benchmark/benchmark.h>

#include <optional>
#include <string_view>
#include <vector>

#include "core/os/os_counters.hpp"

namespace iobench::report_runs {

/// `runs` with names as iobench writes them: no "/manual_time",
/// "/repeats:N" or "/iterations:N" (iobench sets every benchmark's
/// repetitions and runs itself).
std::vector<benchmark::BenchmarkReporter::Run> without_time_suffix(
    const std::vector<benchmark::BenchmarkReporter::Run>& runs);

/// The counter `name` of `run`, or nothing when the row does not carry it.
std::optional<double> optional_counter(const benchmark::BenchmarkReporter::Run& run, std::string_view name);
/// The OS counter `counter` of `run`, or nothing when the row does not carry it.
std::optional<double> optional_counter(const benchmark::BenchmarkReporter::Run& run, OsCounter counter);

/// True for a repetition that did not run because its benchmark had met
/// the suite's stopping rule (an error with not_run_message,
/// core/measure/stopping_rule.hpp): no result, no failure.
bool not_run(const benchmark::BenchmarkReporter::Run& run);

/// One benchmark's repetitions as Google Benchmark reports them, without
/// those not run (not_run). Where some were dropped, every row kept says how
/// many ran in its `repetitions` (Google Benchmark: the most it was given).
std::vector<benchmark::BenchmarkReporter::Run> repetitions_that_ran(
    const std::vector<benchmark::BenchmarkReporter::Run>& runs);

/// Google Benchmark 1.7 computes a benchmark's aggregates (mean, median,
/// stddev, cv) over its repetitions without an error, so over those that
/// ran, but counts the repetitions not run in the aggregates' `iterations`,
/// gives its `repetitions` as the most, and drops the label that the
/// repetitions not run lack (statistics.cc, ComputeStats). Makes
/// `aggregates` say what `ran` (repetitions_that_ran of the same benchmark)
/// are: `repetitions` and `iterations` their count (a time aggregate's
/// accumulated times scaled with it, so its time per run is unchanged), the
/// label theirs when they share it.
void count_repetitions_that_ran(std::vector<benchmark::BenchmarkReporter::Run>& aggregates,
                                const std::vector<benchmark::BenchmarkReporter::Run>& ran);

/// Wall time per run of `run` in milliseconds.
double milliseconds(const benchmark::BenchmarkReporter::Run& run);

}  // namespace iobench::report_runs
