// The reporters' shared reading of Google Benchmark's rows (core/report/report_runs.hpp)
// and the reporter that hands a run to the console and the results file. The
// other parts of core/report/report.hpp: row_structure.cpp (what a row is, x_limit),
// summary.cpp (the console summary), json_report.cpp (the results file).
#include "core/report/report.hpp"
#include "core/report/report_runs.hpp"

#include <string>

namespace iobench {

using Run = benchmark::BenchmarkReporter::Run;

namespace report_runs {

std::vector<Run> without_time_suffix(const std::vector<Run>& runs) {
    auto copy = runs;
    for (auto& r : copy) {
        r.run_name.time_type.clear();
        r.run_name.repetitions.clear();  // "/repeats:N": iobench sets every benchmark's repetitions itself
        r.run_name.iterations.clear();   // "/iterations:N": and its runs per repetition
    }
    return copy;
}

std::optional<double> optional_counter(const Run& run, std::string_view name) {
    auto it = run.counters.find(std::string(name));
    if (it == run.counters.end()) return std::nullopt;
    return static_cast<double>(it->second);
}

std::optional<double> optional_counter(const Run& run, OsCounter counter) {
    return optional_counter(run, os_counter_name(counter));
}

double milliseconds(const Run& r) {
    // GetTimeUnitMultiplier: the row's time units per second. 1e3 / it gives
    // the very doubles 1.0, 1e-3, 1e-6 and 1e3 our own table of units held,
    // so every time is the same to the bit.
    return r.GetAdjustedRealTime() * (1e3 / benchmark::GetTimeUnitMultiplier(r.time_unit));
}

}  // namespace report_runs

// --- the two reporters of a run ----------------------------------------------------

bool TeeReporter::ReportContext(const Context& context) {
    bool ok = display_.ReportContext(context);
    if (file_) ok = file_->ReportContext(context) && ok;
    return ok;
}

void TeeReporter::ReportRuns(const std::vector<Run>& runs) {
    if (file_) file_->ReportRuns(runs);
    if (!aggregates_only_) {
        display_.ReportRuns(runs);
        return;
    }
    // Google Benchmark reports a benchmark's runs, then its aggregates if it
    // has any: hold the runs until it is clear which to show.
    if (!runs.empty() && runs.front().run_type == Run::RT_Aggregate) {
        held_.clear();
        display_.ReportRuns(runs);
        return;
    }
    show_held();
    held_ = runs;
}

void TeeReporter::Finalize() {
    show_held();
    display_.Finalize();
    if (file_) file_->Finalize();
}

void TeeReporter::show_held() {
    if (!held_.empty()) display_.ReportRuns(held_);
    held_.clear();
}

}  // namespace iobench
