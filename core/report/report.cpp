// The reporters' shared reading of Google Benchmark's rows (core/report/report_runs.hpp)
// and the reporter that hands a run to the console and the results file. The
// other parts of core/report/report.hpp: row_structure.cpp (what a row is, x_limit),
// summary.cpp (the console summary), json_report.cpp (the results file).
#include "core/report/report.hpp"
#include "core/report/report_runs.hpp"

#include <algorithm>
#include <string>

#include "core/measure/stopping_rule.hpp"

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

bool not_run(const Run& run) { return run.error_occurred && run.error_message == not_run_message; }

std::vector<Run> repetitions_that_ran(const std::vector<Run>& runs) {
    std::vector<Run> ran;
    std::copy_if(runs.begin(), runs.end(), std::back_inserter(ran), [](const Run& r) { return !not_run(r); });
    if (ran.size() != runs.size())
        for (Run& r : ran) r.repetitions = static_cast<std::int64_t>(ran.size());
    return ran;
}

void count_repetitions_that_ran(std::vector<Run>& aggregates, const std::vector<Run>& ran) {
    if (ran.empty()) return;
    const auto count = static_cast<std::int64_t>(ran.size());
    std::string label = ran.front().report_label;
    for (const Run& r : ran)
        if (r.report_label != label) label.clear();
    for (Run& a : aggregates) {
        // A time aggregate's time per run is its accumulated time / its
        // iterations, which Google Benchmark scaled for all the repetitions
        // (statistics.cc: times x repetitions / iterations of one): scaled
        // again for the count, so that the time per run stays the statistic
        // of those that ran (before, a median of 6 of 9 read 1.5x too long).
        if (a.aggregate_unit == benchmark::kTime && a.iterations > 0 && a.iterations != count) {
            const double rescale = static_cast<double>(count) / static_cast<double>(a.iterations);
            a.real_accumulated_time *= rescale;
            a.cpu_accumulated_time *= rescale;
        }
        a.repetitions = count;
        a.iterations = count;
        a.report_label = label;
    }
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

void TeeReporter::ReportRuns(const std::vector<Run>& given) {
    if (given.empty()) return;
    // Google Benchmark reports a benchmark's runs (every repetition at once),
    // then its aggregates if it has any.
    if (given.front().run_type == Run::RT_Aggregate) {
        held_.clear();  // an aggregates-only reporter gets these instead of the runs
        std::vector<Run> aggregates = given;
        if (ran_dropped_ && !ran_.empty() && aggregates.front().run_name.str() == ran_.front().run_name.str())
            report_runs::count_repetitions_that_ran(aggregates, ran_);
        display_.ReportRuns(aggregates);
        if (file_) file_->ReportRuns(aggregates);
        return;
    }
    show_held();
    ran_ = report_runs::repetitions_that_ran(given);
    ran_dropped_ = ran_.size() != given.size();
    if (ran_.empty()) return;
    // An aggregates-only reporter gets the runs only when no aggregates follow.
    if (!display_aggregates_only_) display_.ReportRuns(ran_);
    if (file_ && !file_aggregates_only_) file_->ReportRuns(ran_);
    if (display_aggregates_only_ || (file_ && file_aggregates_only_)) held_ = ran_;
}

void TeeReporter::Finalize() {
    show_held();
    display_.Finalize();
    if (file_) file_->Finalize();
}

void TeeReporter::show_held() {
    if (!held_.empty()) {
        if (display_aggregates_only_) display_.ReportRuns(held_);
        if (file_ && file_aggregates_only_) file_->ReportRuns(held_);
    }
    held_.clear();
}

}  // namespace iobench
