#include "core/report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <ostream>

namespace iobench {

namespace {

std::vector<benchmark::BenchmarkReporter::Run> without_time_suffix(const std::vector<benchmark::BenchmarkReporter::Run>& runs) {
    auto copy = runs;
    for (auto& r : copy) r.run_name.time_type.clear();
    return copy;
}

double counter(const benchmark::BenchmarkReporter::Run& run, const char* name) {
    auto it = run.counters.find(name);
    return it == run.counters.end() ? 0.0 : static_cast<double>(it->second);
}

std::string format_rate(double per_second) {
    if (per_second >= 1e9) return fmt::format("{:.2f} G/s", per_second / 1e9);
    if (per_second >= 1e6) return fmt::format("{:.1f} M/s", per_second / 1e6);
    if (per_second >= 1e3) return fmt::format("{:.1f} k/s", per_second / 1e3);
    return fmt::format("{:.0f} /s", per_second);
}

std::string format_ms(double ms) {
    if (ms >= 100) return fmt::format("{:.0f} ms", ms);
    if (ms >= 1) return fmt::format("{:.2f} ms", ms);
    return fmt::format("{:.1f} us", ms * 1e3);
}

}  // namespace

std::string format_throughput(double bytes_per_second) {
    if (bytes_per_second >= 1e9) return fmt::format("{:.2f} GB/s", bytes_per_second / 1e9);
    if (bytes_per_second >= 1e6) return fmt::format("{:.1f} MB/s", bytes_per_second / 1e6);
    if (bytes_per_second >= 1e3) return fmt::format("{:.1f} kB/s", bytes_per_second / 1e3);
    return fmt::format("{:.0f} B/s", bytes_per_second);
}

void SummaryConsoleReporter::ReportRuns(const std::vector<Run>& runs) {
    auto named = without_time_suffix(runs);
    runs_.insert(runs_.end(), named.begin(), named.end());
    benchmark::ConsoleReporter::ReportRuns(named);
}

void SummaryConsoleReporter::Finalize() {
    struct Row {
        std::string method;
        double ms = 0;          // median wall time per run
        double bytes_ps = 0;
        double items_ps = 0;
        std::optional<double> cv;  // coefficient of variation across repetitions
        int repetitions = 1;
        std::string error;
    };
    // Rows by benchmark name, grouped by workload in the order benchmarks ran.
    std::map<std::string, Row> rows;
    std::vector<std::string> workload_order;
    std::map<std::string, std::vector<std::string>> names_by_workload;
    for (const Run& r : runs_) {
        const std::string name = r.run_name.str();
        if (rows.count(name)) continue;
        const auto slash = name.find('/');
        const std::string workload = name.substr(0, slash);
        rows[name].method = slash == std::string::npos ? name : name.substr(slash + 1);
        if (!names_by_workload.count(workload)) workload_order.push_back(workload);
        names_by_workload[workload].push_back(name);
    }
    for (const Run& r : runs_) {
        Row& row = rows[r.run_name.str()];
        if (r.error_occurred) {
            row.error = r.error_message;
            continue;
        }
        const double ms = r.GetAdjustedRealTime() * (r.time_unit == benchmark::kMillisecond ? 1.0
                                                     : r.time_unit == benchmark::kMicrosecond ? 1e-3
                                                     : r.time_unit == benchmark::kNanosecond ? 1e-6 : 1e3);
        if (r.run_type == Run::RT_Aggregate) {
            if (r.aggregate_name == "median") {
                row.ms = ms;
                row.bytes_ps = counter(r, "bytes_per_second");
                row.items_ps = counter(r, "items_per_second");
                row.repetitions = static_cast<int>(r.repetitions);
            } else if (r.aggregate_name == "cv") {
                row.cv = r.real_accumulated_time;  // a fraction, not a time
            }
        } else if (r.repetitions <= 1) {
            row.ms = ms;
            row.bytes_ps = counter(r, "bytes_per_second");
            row.items_ps = counter(r, "items_per_second");
        }
    }

    std::ostream& out = GetOutputStream();
    out << fmt::format("\nSummary: median wall time per run, every run verified; x fastest = time / fastest time\n");
    bool unstable = false;
    int failed = 0;
    for (const std::string& workload : workload_order) {
        std::vector<Row> list;
        for (const std::string& name : names_by_workload[workload]) list.push_back(rows[name]);
        std::stable_sort(list.begin(), list.end(), [](const Row& a, const Row& b) {
            if (a.error.empty() != b.error.empty()) return a.error.empty();
            return a.ms < b.ms;
        });
        const double fastest = list.front().error.empty() ? list.front().ms : 0;
        std::size_t width = 6;
        for (const Row& r : list) width = std::max(width, r.method.size());
        out << fmt::format("\n{}\n  {:<{}}  {:>10}  {:>11}  {:>10}  {:>9}  {:>6}\n", workload, "method", width, "time",
                   "throughput", "items", "x fastest", "cv");
        for (const Row& r : list) {
            if (r.error.rfind("skipped: ", 0) == 0) {  // unavailable here, found at run time
                out << fmt::format("  {:<{}}  {}\n", r.method, width, r.error);
                continue;
            }
            if (!r.error.empty()) {
                ++failed;
                out << fmt::format("  {:<{}}  FAILED: {}\n", r.method, width, r.error);
                continue;
            }
            std::string cv = r.cv ? fmt::format("{:.1f}%", *r.cv * 100) : "-";
            if (r.cv && *r.cv >= 0.05) {
                cv += " !";
                unstable = true;
            }
            out << fmt::format("  {:<{}}  {:>10}  {:>11}  {:>10}  {:>8.2f}x  {:>6}\n", r.method, width, format_ms(r.ms),
                       format_throughput(r.bytes_ps), format_rate(r.items_ps), fastest > 0 ? r.ms / fastest : 0.0,
                       cv);
        }
    }
    if (unstable)
        out << fmt::format(
                   "\n! cv >= 5%: the repetitions disagree; the machine was busy or the page cache was "
                   "writing back. Rerun with more --benchmark_repetitions, on an idle machine or a tmpfs --dir.\n");
    if (failed > 0) out << fmt::format("\n{} benchmark(s) FAILED; their rows carry the reason.\n", failed);
    if (!skipped_.empty()) {
        out << fmt::format("\nSkipped: {} benchmark(s) whose method is not built here\n", skipped_.size());
        for (const auto& [name, reason] : skipped_) out << fmt::format("  {}: {}\n", name, reason);
    }
    out.flush();
    benchmark::ConsoleReporter::Finalize();
}

std::string skipped_context(const std::vector<std::pair<std::string, std::string>>& skipped) {
    std::string text;
    for (const auto& [name, reason] : skipped) text += fmt::format("{}{}: {}", text.empty() ? "" : "; ", name, reason);
    return text;
}

void NamedJSONReporter::ReportRuns(const std::vector<Run>& runs) {
    auto named = without_time_suffix(runs);
    // The cv aggregate is stddev / mean; a quantity that was 0 in every
    // repetition makes it 0 / 0 = NaN, which Google Benchmark writes as the
    // invalid JSON literal NaN. That happens to cpu_time on Windows (and under
    // wine), whose process CPU clock ticks every 15.6 ms, so short runs measure
    // no CPU time at all. No variation is a cv of 0.
    for (auto& r : named) {
        if (r.run_type != Run::RT_Aggregate) continue;
        if (!std::isfinite(r.real_accumulated_time)) r.real_accumulated_time = 0;
        if (!std::isfinite(r.cpu_accumulated_time)) r.cpu_accumulated_time = 0;
        for (auto& entry : r.counters)
            if (!std::isfinite(entry.second.value)) entry.second.value = 0;
    }
    benchmark::JSONReporter::ReportRuns(named);
}

}  // namespace iobench
