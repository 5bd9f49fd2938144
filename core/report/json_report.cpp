// The results file (NamedJSONReporter): Google Benchmark's JSON format, every
// row with its structure, built once as a JSON value and written once.
#include "core/report/json_report.hpp"
#include "core/report/report_runs.hpp"
#include "core/os/emulator.hpp"

#include <iobench/method.hpp>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <ctime>
#include <sstream>
#include <string>

#include <fmt/format.h>

namespace iobench {

using Run = benchmark::BenchmarkReporter::Run;
using report_runs::without_time_suffix;
using nlohmann::ordered_json;

namespace {

/// "debug" or "release": how the Google Benchmark library itself was built
/// (NDEBUG in its own sources), which only its own output tells: its basic
/// context warns of a debug build.
const char* library_build_type(const benchmark::BenchmarkReporter::Context& context) {
    std::ostringstream text;
    benchmark::BenchmarkReporter::PrintBasicContext(&text, context);
    return text.str().find("Library was built as DEBUG") != std::string::npos ? "debug" : "release";
}

/// `value`, or null when it is not finite.
ordered_json number(double value) { return std::isfinite(value) ? ordered_json(value) : ordered_json(nullptr); }

}  // namespace

namespace json_report {

std::string local_date_time(std::time_t now) {
    std::tm local{}, utc{};
#ifdef _WIN32
    localtime_s(&local, &now);
    gmtime_s(&utc, &now);
#else
    localtime_r(&now, &local);
    gmtime_r(&now, &utc);
#endif
    // The offset from UTC: the two broken-down times of one instant differ by
    // it, and by at most a day (a year's turn counts as one).
    int days = local.tm_yday - utc.tm_yday;
    if (local.tm_year != utc.tm_year) days = local.tm_year > utc.tm_year ? 1 : -1;
    const int minutes = days * 24 * 60 + (local.tm_hour - utc.tm_hour) * 60 + (local.tm_min - utc.tm_min);
    char date[32];
    std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S", &local);
    return fmt::format("{}{}{:02}:{:02}", date, minutes < 0 ? '-' : '+', std::abs(minutes) / 60,
                       std::abs(minutes) % 60);
}

ordered_json google_benchmark_context(const benchmark::BenchmarkReporter::Context& context, std::time_t now) {
    ordered_json c = ordered_json::object();
    c["date"] = local_date_time(now);
    c["host_name"] = context.sys_info.name;
    if (benchmark::BenchmarkReporter::Context::executable_name)
        c["executable"] = benchmark::BenchmarkReporter::Context::executable_name;
    const benchmark::CPUInfo& cpu = context.cpu_info;
    c["num_cpus"] = static_cast<std::int64_t>(cpu.num_cpus);
    c["mhz_per_cpu"] = static_cast<std::int64_t>(std::lround(cpu.cycles_per_second / 1000000.0));
    if (cpu.scaling != benchmark::CPUInfo::UNKNOWN) c["cpu_scaling_enabled"] = cpu.scaling == benchmark::CPUInfo::ENABLED;
    ordered_json caches = ordered_json::array();
    for (const benchmark::CPUInfo::CacheInfo& cache : cpu.caches)
        caches.push_back({{"type", cache.type},
                          {"level", static_cast<std::int64_t>(cache.level)},
                          {"size", static_cast<std::int64_t>(cache.size)},
                          {"num_sharing", static_cast<std::int64_t>(cache.num_sharing)}});
    c["caches"] = std::move(caches);
    ordered_json load = ordered_json::array();
    for (double l : cpu.load_avg) load.push_back(number(l));
    c["load_avg"] = std::move(load);
    c["library_build_type"] = library_build_type(context);
    return c;
}

ordered_json results_row(const Run& run, const RowStructure* s) {
    ordered_json row = ordered_json::object();
    const bool aggregate = run.run_type == Run::RT_Aggregate;
    row["name"] = run.benchmark_name();
    row["family_index"] = run.family_index;
    row["per_family_instance_index"] = run.per_family_instance_index;
    row["run_name"] = run.run_name.str();
    row["run_type"] = aggregate ? "aggregate" : "iteration";
    row["repetitions"] = run.repetitions;
    if (!aggregate) row["repetition_index"] = run.repetition_index;
    // A per-call row's threads are its own (iobench starts them, not Google
    // Benchmark's ->Threads()): `threads` says how many, as Google
    // Benchmark's rows do for theirs.
    row["threads"] = s != nullptr && s->threads > 0 ? static_cast<std::int64_t>(s->threads) : run.threads;
    const bool percentage = aggregate && run.aggregate_unit == benchmark::StatisticUnit::kPercentage;
    if (aggregate) {
        row["aggregate_name"] = run.aggregate_name;
        row["aggregate_unit"] = percentage ? "percentage" : "time";
    }
    if (run.error_occurred) {
        row["error_occurred"] = true;
        row["error_message"] = run.error_message;
    }
    row["iterations"] = static_cast<std::int64_t>(run.iterations);
    // A cv (percentage) aggregate holds its value as it is, not per run.
    row["real_time"] = number(percentage ? run.real_accumulated_time : run.GetAdjustedRealTime());
    row["cpu_time"] = number(percentage ? run.cpu_accumulated_time : run.GetAdjustedCPUTime());
    row["time_unit"] = benchmark::GetTimeUnitString(run.time_unit);
    for (const auto& [name, counter] : run.counters) row[name] = number(counter.value);
    if (!run.report_label.empty()) row["label"] = run.report_label;
    if (s == nullptr) return row;
    row["workload"] = s->workload;
    row["method"] = s->method;
    row["family"] = s->family;
    row["reference"] = s->reference;
    if (s->overwrites_existing) row["overwrites_existing"] = true;
    if (s->copies_in_memory) row["copies_in_memory"] = true;
    ordered_json params = ordered_json::object();
    if (s->buffer_size != 0) params["buffer_size"] = s->buffer_size;
    if (s->cache) params["cache"] = std::string(to_string(*s->cache));
    if (s->threads > 0) params["threads"] = s->threads;
    if (s->threads > 1) params["sink"] = s->shared_sink ? "shared" : "per_thread";
    if (s->rate > 0) params["rate"] = s->rate;
    if (s->burst > 0) params["burst"] = s->burst;
    if (s->batch > 0) params["batch"] = s->batch;
    row["params"] = std::move(params);
    row["item_unit"] = s->item_unit;
    row["compared_per"] = s->compared_per_byte ? "byte" : "item";
    if (!s->calls_not_counted.empty()) row["calls_not_counted"] = s->calls_not_counted;
    if (s->process_counters) row["counters_scope"] = "process";
    if (s->program) row["counters_scope"] = "program";
    // Every row of a run on an emulated CPU says so (the context's emulator says which).
    if (!cpu_emulator().empty()) row["emulated"] = true;
    return row;
}

}  // namespace json_report

// --- the results file --------------------------------------------------------------

NamedJSONReporter::NamedJSONReporter(const CaseIndex& index, std::ostream& out) : index_(index), out_(out) {}

NamedJSONReporter::~NamedJSONReporter() = default;

bool NamedJSONReporter::ReportContext(const Context& context) {
    context_ = std::make_unique<ordered_json>(json_report::google_benchmark_context(context, std::time(nullptr)));
    return true;
}

void NamedJSONReporter::ReportRuns(const std::vector<Run>& runs) {
    auto named = without_time_suffix(runs);
    // The cv aggregate is stddev / mean; a quantity that was 0 in every
    // repetition makes it 0 / 0 = NaN. That happens to cpu_time on Windows
    // (and under wine), whose process CPU clock ticks every 15.6 ms, so short
    // runs measure no CPU time at all, and to counters that are 0 in every run
    // (read_calls of an output workload). No variation is a cv of 0.
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
    add_x_limit(runs_, index_);
    add_median_interval(runs_);
    ordered_json context = context_ && context_->is_object() ? *context_ : ordered_json::object();
    for (const auto& [key, value] : extra_context_) context[key] = value;
    if (!added_families_.empty()) {
        ordered_json list = ordered_json::array();
        for (const FamilyBuild& f : added_families_)
            list.push_back({{"family", f.family},
                            {"compiler", f.compiler},
                            {"standard_library", f.standard_library},
                            {"build_type", f.build_type},
                            {"build_flags", added_flags_}});
        context["added_families"] = std::move(list);
    }
    if (!plugins_.empty()) {
        ordered_json list = ordered_json::array();
        for (const LoadedPlugin& p : plugins_) {
            ordered_json descriptions = ordered_json::object();
            for (std::size_t i = 0; i < p.methods.size() && i < p.descriptions.size(); ++i)
                descriptions[p.methods[i]] = p.descriptions[i];
            list.push_back({{"path", p.path},
                            {"owner", p.owner},
                            {"sha256", p.sha256},
                            {"built_with", p.built_with},
                            {"families", p.families},
                            {"methods", p.methods},
                            {"descriptions", std::move(descriptions)},
                            {"workloads", p.workloads}});
        }
        context["plugins"] = std::move(list);
    }
    ordered_json rows = ordered_json::array();
    for (const Run& r : runs_) rows.push_back(json_report::results_row(r, index_.find(r.run_name.str())));
    runs_.clear();
    const ordered_json doc = {{"context", std::move(context)}, {"benchmarks", std::move(rows)}};
    out_ << doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

}  // namespace iobench
