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

/// Wall time per run of `run` in milliseconds.
double milliseconds(const benchmark::BenchmarkReporter::Run& run);

}  // namespace iobench::report_runs
