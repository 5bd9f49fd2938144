#include "core/report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <ostream>

#include "core/method.hpp"
#include "core/number_format.hpp"

namespace iobench {

namespace {

std::vector<benchmark::BenchmarkReporter::Run> without_time_suffix(const std::vector<benchmark::BenchmarkReporter::Run>& runs) {
    auto copy = runs;
    for (auto& r : copy) {
        r.run_name.time_type.clear();
        r.run_name.repetitions.clear();  // "/repeats:N": iobench sets every benchmark's repetitions itself
    }
    return copy;
}

double counter(const benchmark::BenchmarkReporter::Run& run, const char* name) {
    auto it = run.counters.find(name);
    return it == run.counters.end() ? 0.0 : static_cast<double>(it->second);
}

std::optional<double> optional_counter(const benchmark::BenchmarkReporter::Run& run, const char* name) {
    auto it = run.counters.find(name);
    if (it == run.counters.end()) return std::nullopt;
    return static_cast<double>(it->second);
}

/// Wall time per run of `run` in milliseconds.
double milliseconds(const benchmark::BenchmarkReporter::Run& r) {
    return r.GetAdjustedRealTime() * (r.time_unit == benchmark::kMillisecond   ? 1.0
                                      : r.time_unit == benchmark::kMicrosecond ? 1e-3
                                      : r.time_unit == benchmark::kNanosecond  ? 1e-6
                                                                               : 1e3);
}

/// The method part of a benchmark name ("obuf" of "ints_out/obuf/buf:4096").
std::string method_of(const std::string& name) {
    const auto first = name.find('/');
    if (first == std::string::npos) return "";
    const auto second = name.find('/', first + 1);
    return name.substr(first + 1, second == std::string::npos ? std::string::npos : second - first - 1);
}

}  // namespace

bool SummaryConsoleReporter::ReportContext(const Context&) { return true; }

void SummaryConsoleReporter::ReportRuns(const std::vector<Run>& runs) {
    auto named = without_time_suffix(runs);
    runs_.insert(runs_.end(), named.begin(), named.end());
}

void SummaryConsoleReporter::Finalize() {
    struct Row {
        std::string name;
        std::string method;
        bool reference = false;
        double ms = 0;  // median wall time per run
        double bytes_ps = 0;
        std::optional<double> read_calls, write_calls, bytes_per_call, system_time;
        std::optional<double> steal_time;  // seconds per run the hypervisor took (all CPUs)
        std::optional<double> cv;  // coefficient of variation across repetitions
        std::vector<double> samples;  // wall time per run of each repetition, ms
        Outcome outcome;
    };
    // Rows by benchmark name, grouped by workload in the suite's order (the
    // lowest family_index, i.e. registration order, of the workload's
    // benchmarks): interleaved repetitions report benchmarks in random order.
    std::map<std::string, Row> rows;
    std::vector<std::string> workload_order;
    std::map<std::string, std::vector<std::string>> names_by_workload;
    std::map<std::string, std::int64_t> first_family;
    for (const Run& r : runs_) {
        const std::string name = r.run_name.str();
        const std::string workload = name.substr(0, name.find('/'));
        const auto family = static_cast<std::int64_t>(r.family_index);
        const auto [it, added] = first_family.emplace(workload, family);
        if (!added && family < it->second) it->second = family;
    }
    for (const Run& r : runs_) {
        const std::string name = r.run_name.str();
        if (rows.count(name)) continue;
        const auto slash = name.find('/');
        const std::string workload = name.substr(0, slash);
        Row& row = rows[name];
        row.name = name;
        if (const Outcome* o = outcomes_.find(name)) row.outcome = *o;
        row.method = slash == std::string::npos ? name : name.substr(slash + 1);
        const Method* m = find_method(method_of(name));
        row.reference = m != nullptr && m->reference;
        if (!names_by_workload.count(workload)) workload_order.push_back(workload);
        names_by_workload[workload].push_back(name);
    }
    std::stable_sort(workload_order.begin(), workload_order.end(),
                     [&](const std::string& a, const std::string& b) { return first_family[a] < first_family[b]; });
    auto take_counters = [](Row& row, const Run& r) {
        row.bytes_ps = counter(r, "bytes_per_second");
        row.read_calls = optional_counter(r, "read_calls");
        row.write_calls = optional_counter(r, "write_calls");
        row.bytes_per_call = optional_counter(r, "bytes_per_call");
        row.system_time = optional_counter(r, "system_time");
        row.steal_time = optional_counter(r, "steal_time");
    };
    for (const Run& r : runs_) {
        Row& row = rows[r.run_name.str()];
        if (r.error_occurred) {
            if (row.outcome.ok()) row.outcome = Outcome::failed(r.error_message);  // no outcome recorded
            continue;
        }
        const double ms = milliseconds(r);
        if (r.run_type == Run::RT_Aggregate) {
            if (r.aggregate_name == "median") {
                row.ms = ms;
                take_counters(row, r);
            } else if (r.aggregate_name == "cv") {
                row.cv = r.real_accumulated_time;  // a fraction, not a time
            }
        } else {
            row.samples.push_back(ms);
            if (r.repetitions <= 1) {
                row.ms = ms;
                take_counters(row, r);
            }
        }
    }
    // The median of the limit row of each reference key.
    std::map<std::string, double> limit_ms;
    for (const auto& [name, row] : rows)
        if (row.reference && row.outcome.ok() && row.ms > 0) limit_ms[reference_key(name)] = row.ms;

    std::ostream& out = GetOutputStream();
    std::size_t failed_rows = 0;
    for (const auto& [name, row] : rows) failed_rows += row.outcome.status == Status::failed;
    out << "\nSummary: median wall time per run, "
        << (failed_rows == 0 ? std::string("every run verified")
                             : fmt::format("verified runs only ({} benchmark(s) FAILED, below)", failed_rows))
        << "\n";
    bool unstable = false;
    bool any_limit = false;  // some workload has a limit row: its column and footnote are shown
    // Rows whose spread came with time stolen by the hypervisor: "name (n%)".
    std::vector<std::string> interfered;
    bool wide = false;
    bool no_interval = false;
    for (const std::string& workload : workload_order) {
        std::vector<Row> list;
        for (const std::string& name : names_by_workload[workload]) list.push_back(rows[name]);
        std::stable_sort(list.begin(), list.end(), [](const Row& a, const Row& b) {
            if (a.outcome.ok() != b.outcome.ok()) return a.outcome.ok();
            if (a.reference != b.reference) return !a.reference;
            return a.ms < b.ms;
        });
        double fastest = 0;
        double reads = 0, writes = 0;
        for (const Row& r : list) {
            if (!r.outcome.ok()) continue;
            if (!r.reference && (fastest == 0 || r.ms < fastest)) fastest = r.ms;
            reads += r.read_calls.value_or(0);
            writes += r.write_calls.value_or(0);
        }
        const bool input = reads > writes;  // which calls explain this workload
        std::size_t width = 6;
        for (const Row& r : list) width = std::max(width, r.method.size());
        // The x limit column only where the workload has a limit row (the console suite has none).
        bool has_limit = false;
        for (const Row& r : list) has_limit = has_limit || (r.reference && limit_ms.count(reference_key(r.name)));
        any_limit = any_limit || has_limit;
        const auto limit_cell = [&](const std::string& text) {
            return has_limit ? fmt::format("  {:>7}", text) : std::string();
        };
        out << fmt::format("\n{}\n  {:<{}}  {:>9}  {:>7}  {:>11}  {:>8}{}  {:>11}  {:>10}  {:>5}  {:>6}\n", workload,
                           "method", width, "time", "95% CI", "throughput", "x fastest", limit_cell("x limit"),
                           input ? "read calls" : writes > 0 ? "write calls" : "calls", "bytes/call", "sys", "cv");
        for (const Row& r : list) {
            if (r.outcome.status == Status::skipped) {  // unavailable here, found at run time
                out << fmt::format("  {:<{}}  skipped: {}\n", r.method, width, r.outcome.reason);
                continue;
            }
            if (r.outcome.status == Status::failed) {
                out << fmt::format("  {:<{}}  FAILED: {}\n", r.method, width, r.outcome.reason);
                continue;
            }
            std::string interval = "-";
            std::vector<double> sorted = r.samples;
            std::sort(sorted.begin(), sorted.end());
            const int n = static_cast<int>(sorted.size());
            if (const int k = median_interval_rank(n, 0.95); k > 0 && r.ms > 0) {
                const double half = std::max(r.ms - sorted[static_cast<std::size_t>(k - 1)],
                                             sorted[static_cast<std::size_t>(n - k)] - r.ms);
                interval = fmt::format("±{:.1f}%", 100 * half / r.ms);
                if (half / r.ms > 0.05) {
                    interval += "!";
                    wide = true;
                }
            } else if (n > 1) {
                no_interval = true;
            }
            std::string cv = r.cv ? format_percent(*r.cv) : "-";
            if (r.cv && *r.cv >= 0.05) {
                cv += "!";
                unstable = true;
            }
            // Stolen time of at least 1 % of the run's wall time beside a spread.
            const bool spread = (r.cv && *r.cv >= 0.05) || interval.ends_with('!');
            if (spread && r.steal_time && r.ms > 0 && *r.steal_time >= 0.01 * r.ms / 1e3)
                interfered.push_back(fmt::format("{} ({:.0f}%)", r.name, 100 * *r.steal_time / (r.ms / 1e3)));
            const auto limit = limit_ms.find(reference_key(r.name));
            std::string x_fastest = r.reference ? "ref" : format_ratio(fastest > 0 ? r.ms / fastest : 0.0);
            std::string x_limit =
                limit != limit_ms.end() && !r.reference ? format_ratio(r.ms / limit->second) : "-";
            const std::optional<double>& calls = input ? r.read_calls : r.write_calls;
            const std::string sys =
                r.system_time && r.ms > 0 ? format_percent(*r.system_time / (r.ms / 1e3)) : "-";
            out << fmt::format("  {:<{}}  {:>9}  {:>7}  {:>11}  {:>8}{}  {:>11}  {:>10}  {:>5}  {:>6}\n", r.method,
                               width, format_time(r.ms / 1e3), interval, format_throughput(r.bytes_ps), x_fastest,
                               limit_cell(x_limit),
                               calls ? format_count(*calls) : "-",
                               r.bytes_per_call ? format_bytes(*r.bytes_per_call) : "-", sys, cv);
        }
    }
    out << "\ntime: median of the repetitions; 95% CI: half-width of the median's distribution-free interval;\n";
    if (any_limit) out << "x limit: time / the `limit` row's (the same bytes prepared in memory, 1 MiB system calls);\n";
    out << "calls, bytes/call, sys (system CPU time / wall time): per run, from the operating system's counters.\n";
    if (no_interval)
        out << "- in the 95% CI column: fewer than 6 repetitions, too few for a 95% interval of the median.\n";
    if (unstable || wide)
        out << fmt::format(
                   "\n! cv >= 5% or an interval wider than ±5%: the repetitions disagree (a busy machine, page-cache "
                   "writeback), so close rankings are not to be trusted. Rerun with more --benchmark_repetitions, on "
                   "an idle machine or a tmpfs --dir.\n");
    if (!interfered.empty())
        out << fmt::format(
            "! host interference: the hypervisor took CPU time from this machine while {} ran (steal_time, as % of "
            "the wall time per run): their spread is the host's, not the method's.\n",
            fmt::join(interfered, ", "));
    if (const int failed = outcomes_.failed(); failed > 0)
        out << fmt::format("\n{} benchmark(s) FAILED; their rows carry the reason.\n", failed);
    if (!skipped_.empty()) {
        out << fmt::format("\nSkipped: {} benchmark(s) whose method is not built here\n", skipped_.size());
        for (const Skipped& s : skipped_) out << fmt::format("  {}: {}\n", s.name, s.reason);
    }
    out.flush();
}

std::string skipped_context(const std::vector<Skipped>& skipped) {
    std::string text;
    for (const Skipped& s : skipped) text += fmt::format("{}{}: {}", text.empty() ? "" : "; ", s.name, s.reason);
    return text;
}

void NamedJSONReporter::ReportRuns(const std::vector<Run>& runs) {
    auto named = without_time_suffix(runs);
    // The cv aggregate is stddev / mean; a quantity that was 0 in every
    // repetition makes it 0 / 0 = NaN, which Google Benchmark writes as the
    // invalid JSON literal NaN. That happens to cpu_time on Windows (and under
    // wine), whose process CPU clock ticks every 15.6 ms, so short runs measure
    // no CPU time at all, and to counters that are 0 in every run (read_calls
    // of an output workload). No variation is a cv of 0.
    for (auto& r : named) {
        if (r.run_type != Run::RT_Aggregate) continue;
        if (!std::isfinite(r.real_accumulated_time)) r.real_accumulated_time = 0;
        if (!std::isfinite(r.cpu_accumulated_time)) r.cpu_accumulated_time = 0;
        for (auto& entry : r.counters)
            if (!std::isfinite(entry.second.value)) entry.second.value = 0;
    }
    runs_.insert(runs_.end(), named.begin(), named.end());
}

void NamedJSONReporter::Finalize() {
    // The median time per run of each reference row, by reference key.
    std::map<std::string, double> limit_ms;
    for (const Run& r : runs_) {
        if (r.error_occurred || r.run_type != Run::RT_Aggregate || r.aggregate_name != "median") continue;
        const Method* m = find_method(method_of(r.run_name.str()));
        if (m != nullptr && m->reference) limit_ms[reference_key(r.run_name.str())] = milliseconds(r);
    }
    for (const Run& r : runs_) {  // a single repetition has no aggregates
        if (r.error_occurred || r.run_type != Run::RT_Iteration || r.repetitions > 1) continue;
        const Method* m = find_method(method_of(r.run_name.str()));
        if (m != nullptr && m->reference) limit_ms.emplace(reference_key(r.run_name.str()), milliseconds(r));
    }
    for (Run& r : runs_) {
        if (r.error_occurred) continue;
        if (r.run_type == Run::RT_Aggregate && r.aggregate_name != "mean" && r.aggregate_name != "median") continue;
        const Method* m = find_method(method_of(r.run_name.str()));
        if (m == nullptr || m->reference) continue;
        const auto limit = limit_ms.find(reference_key(r.run_name.str()));
        if (limit == limit_ms.end() || !(limit->second > 0)) continue;
        r.counters["x_limit"] = milliseconds(r) / limit->second;
    }
    if (!runs_.empty()) benchmark::JSONReporter::ReportRuns(runs_);
    runs_.clear();
    benchmark::JSONReporter::Finalize();
}

int median_interval_rank(int n, double level, double* coverage) {
    if (n < 1) return 0;
    // P(B <= j) for B ~ binomial(n, 1/2), accumulated term by term.
    const double tail_allowed = (1 - level) / 2;
    double term = std::ldexp(1.0, -n);  // P(B = 0)
    double cumulative = 0;
    int k = 0;
    for (int j = 0; j < n; ++j) {
        cumulative += term;  // P(B <= j)
        if (cumulative > tail_allowed + 1e-12) break;
        k = j + 1;  // [x_(j+1), x_(n-j)] misses the median with probability 2 P(B <= j)
        if (coverage) *coverage = 1 - 2 * cumulative;
        term = term * (n - j) / (j + 1);
    }
    if (2 * k > n) k = n / 2;
    return k;
}

std::string reference_key(const std::string& benchmark_name) {
    const auto first = benchmark_name.find('/');
    if (first == std::string::npos) return "";
    std::string key = benchmark_name.substr(0, first);
    const auto second = benchmark_name.find('/', first + 1);
    if (second == std::string::npos) return key;
    std::size_t at = second + 1;
    while (at <= benchmark_name.size()) {
        const auto next = benchmark_name.find('/', at);
        const std::string part =
            benchmark_name.substr(at, next == std::string::npos ? std::string::npos : next - at);
        if (part.rfind("buf:", 0) != 0) key += "/" + part;
        if (next == std::string::npos) break;
        at = next + 1;
    }
    return key;
}

}  // namespace iobench
