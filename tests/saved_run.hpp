// A results file read back into the rows Google Benchmark reported and what
// the reporters were given with them (the summary's golden tests, the results
// file's tests against Google Benchmark's own JSON). Also the one reader of
// benchmark names in C++: files written before rows carried their structure.
#pragma once

#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "core/engine/outcome.hpp"
#include "core/engine/suite.hpp"
#include "core/report/report.hpp"

namespace iobench {

using nlohmann::json;

/// What the summary of a finished run is printed from, read from its results file.
struct SavedRun {
    std::vector<benchmark::BenchmarkReporter::Run> runs;
    Outcomes outcomes;
    CaseIndex index;
    std::vector<Skipped> skipped;
    std::vector<LoadedPlugin> plugins;
    std::string instructions_source;
};

inline benchmark::TimeUnit time_unit_of(const std::string& unit) {
    if (unit == "ns") return benchmark::kNanosecond;
    if (unit == "us") return benchmark::kMicrosecond;
    if (unit == "s") return benchmark::kSecond;
    return benchmark::kMillisecond;
}

/// The keys of a results row that are not counters: Google Benchmark's own
/// and the structure iobench adds (NamedJSONReporter).
inline bool is_counter(const std::string& key) {
    static const char* const not_counters[] = {
        "name", "family_index", "per_family_instance_index", "run_name", "run_type", "repetitions",
        "repetition_index", "threads", "iterations", "real_time", "cpu_time", "time_unit", "aggregate_name",
        "aggregate_unit", "error_occurred", "error_message", "label", "workload", "method", "family",
        "reference", "params", "item_unit", "compared_per", "calls_not_counted", "counters_scope"};
    for (const char* k : not_counters)
        if (key == k) return false;
    return true;
}

/// The rows of `doc` as Google Benchmark reported them, and the structure the
/// rows carry (files written before rows had it: read from the name, the one
/// place C++ splits a benchmark name).
inline SavedRun read_saved_run(const json& doc) {
    SavedRun saved;
    const json& context = doc.at("context");
    saved.instructions_source = context.value("instructions_source", "");
    // "name: reason; name: reason" (skipped_context); the names hold no ": ".
    std::string skipped = context.value("skipped", "");
    for (std::size_t start = 0; start < skipped.size();) {
        std::size_t end = skipped.find("; ", start);
        if (end == std::string::npos) end = skipped.size();
        const std::string item = skipped.substr(start, end - start);
        const std::size_t colon = item.find(": ");
        saved.skipped.push_back({item.substr(0, colon), colon == std::string::npos ? "" : item.substr(colon + 2)});
        start = end + 2;
    }
    for (const json& p : context.value("plugins", json::array())) {
        const auto methods = p.value("methods", std::vector<std::string>{});
        // The file holds each method's description by name; LoadedPlugin in the methods' order.
        const json descriptions = p.value("descriptions", json::object());
        std::vector<std::string> described;
        for (const std::string& method : methods) described.push_back(descriptions.value(method, ""));
        saved.plugins.push_back({p.at("path"), p.value("owner", ""), p.at("sha256"), p.value("built_with", ""), p.at("families"),
                                 methods, described, p.value("workloads", std::vector<std::string>{})});
    }
    for (const json& row : doc.at("benchmarks")) {
        using Run = benchmark::BenchmarkReporter::Run;
        Run r;
        const std::string name = row.at("run_name");
        r.run_name.function_name = name;
        r.run_type = row.value("run_type", "iteration") == "aggregate" ? Run::RT_Aggregate : Run::RT_Iteration;
        r.aggregate_name = row.value("aggregate_name", "");
        r.family_index = row.value("family_index", 0);
        r.per_family_instance_index = row.value("per_family_instance_index", 0);
        r.repetitions = row.value("repetitions", 1);
        r.repetition_index = row.value("repetition_index", 0);
        r.iterations = row.value("iterations", 1);
        r.time_unit = time_unit_of(row.value("time_unit", "ms"));
        r.report_label = row.value("label", "");
        r.error_occurred = row.value("error_occurred", false);
        r.error_message = row.value("error_message", "");
        // The file has the time per run in time_unit; a percentage aggregate (cv) as it is.
        const double real = row.value("real_time", 0.0), cpu = row.value("cpu_time", 0.0);
        if (row.value("aggregate_unit", "time") == "percentage") {
            r.aggregate_unit = benchmark::StatisticUnit::kPercentage;
            r.real_accumulated_time = real;
            r.cpu_accumulated_time = cpu;
        } else {
            const double runs = r.iterations > 0 ? static_cast<double>(r.iterations) : 1.0;
            r.real_accumulated_time = real * runs / benchmark::GetTimeUnitMultiplier(r.time_unit);
            r.cpu_accumulated_time = cpu * runs / benchmark::GetTimeUnitMultiplier(r.time_unit);
        }
        for (const auto& [key, value] : row.items())
            if (value.is_number() && is_counter(key)) r.counters[key] = value.get<double>();
        if (r.error_occurred) {
            const std::string prefix = "skipped: ";
            saved.outcomes.record(name, r.error_message.rfind(prefix, 0) == 0
                                            ? Outcome::skipped(r.error_message.substr(prefix.size()))
                                            : Outcome::failed(r.error_message));
        } else {
            saved.outcomes.record(name, {});
        }
        if (row.contains("workload") && !saved.index.find(name)) {
            RowStructure s;
            s.name = name;
            s.workload = row.at("workload");
            s.method = row.at("method");
            s.family = row.value("family", "");
            s.reference = row.value("reference", false);
            const json params = row.value("params", json::object());
            s.buffer_size = params.value("buffer_size", std::size_t{0});
            if (params.contains("cache"))
                s.cache = params.at("cache") == "cold" ? CacheState::cold : CacheState::warm;
            s.item_unit = row.value("item_unit", "");
            s.compared_per_byte = row.value("compared_per", "item") == "byte";
            s.calls_not_counted = row.value("calls_not_counted", "");
            s.process_counters = row.value("counters_scope", "") == "process";
            s.program = row.value("counters_scope", "") == "program";
            saved.index.add(std::move(s));
        } else if (!saved.index.find(name)) {
            // A file from before rows carried their structure: the workload
            // is the name up to its first '/', the rest is the method (as the
            // summary read such names then: no parameters, no reference row).
            RowStructure s;
            s.name = name;
            const std::size_t slash = name.find('/');
            s.workload = name.substr(0, slash);
            s.method = slash == std::string::npos ? name : name.substr(slash + 1);
            saved.index.add(std::move(s));
        }
        saved.runs.push_back(std::move(r));
    }
    return saved;
}

/// The console summary iobench prints for `saved`, as text.
inline std::string summary_of(const SavedRun& saved) {
    std::ostringstream out;
    SummaryConsoleReporter reporter(saved.outcomes, saved.index, benchmark::ConsoleReporter::OO_None);
    reporter.SetOutputStream(&out);
    reporter.SetErrorStream(&out);
    reporter.set_skipped(saved.skipped);
    reporter.set_plugins(saved.plugins);
    if (!saved.instructions_source.empty()) reporter.set_instructions_source(saved.instructions_source);
    reporter.ReportRuns(saved.runs);
    reporter.Finalize();
    return out.str();
}

}  // namespace iobench
