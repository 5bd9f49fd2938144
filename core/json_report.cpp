// The results file (NamedJSONReporter): Google Benchmark's JSON, every row
// with its structure.
#include "core/report.hpp"
#include "core/report_runs.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <string>

namespace iobench {

using Run = benchmark::BenchmarkReporter::Run;
using report_runs::without_time_suffix;

// --- the results file --------------------------------------------------------------

NamedJSONReporter::NamedJSONReporter(const CaseIndex& index, std::ostream& out) : index_(index), out_(out) {
    SetOutputStream(&text_);
    SetErrorStream(&text_);
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
    add_x_limit(runs_, index_);
    add_median_interval(runs_);
    if (!runs_.empty()) benchmark::JSONReporter::ReportRuns(runs_);
    runs_.clear();
    benchmark::JSONReporter::Finalize();
    // Every row gets the structure of its case, keys in the order written
    // (ordered_json), after Google Benchmark's own.
    nlohmann::ordered_json doc = nlohmann::ordered_json::parse(text_.str(), nullptr, false);
    if (doc.is_discarded() || !doc.contains("benchmarks")) {
        out_ << text_.str();  // never lose the results for want of the extra fields
        return;
    }
    if (!plugins_.empty()) {
        nlohmann::ordered_json list = nlohmann::ordered_json::array();
        for (const LoadedPlugin& p : plugins_)
            list.push_back({{"path", p.path},
                            {"sha256", p.sha256},
                            {"built_with", p.built_with},
                            {"families", p.families},
                            {"methods", p.methods}});
        if (doc.contains("context") && doc["context"].is_object()) doc["context"]["plugins"] = std::move(list);
    }
    for (auto& row : doc["benchmarks"]) {
        const RowStructure* s = row.contains("run_name") ? index_.find(row["run_name"].get<std::string>()) : nullptr;
        if (s == nullptr) continue;
        row["workload"] = s->workload;
        row["method"] = s->method;
        row["family"] = s->family;
        row["reference"] = s->reference;
        nlohmann::ordered_json params = nlohmann::ordered_json::object();
        if (s->buffer_size != 0) params["buffer_size"] = s->buffer_size;
        if (s->cache) params["cache"] = std::string(to_string(*s->cache));
        row["params"] = std::move(params);
        row["item_unit"] = s->item_unit;
        row["compared_per"] = s->compared_per_byte ? "byte" : "item";
        if (!s->calls_not_counted.empty()) row["calls_not_counted"] = s->calls_not_counted;
        if (s->process_counters) row["counters_scope"] = "process";
        if (s->program) row["counters_scope"] = "program";
    }
    out_ << doc.dump(2) << "\n";
}

}  // namespace iobench
