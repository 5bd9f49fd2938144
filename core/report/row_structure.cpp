// What a benchmark row is (RowStructure, CaseIndex) and its ratio to the limit row (add_x_limit).
#include "core/report/report.hpp"
#include "core/report/report_runs.hpp"

#include <fmt/format.h>

#include <map>
#include <string>

#include <iobench/method.hpp>
#include "core/engine/suite.hpp"
#include "core/engine/workload.hpp"

namespace iobench {

using Run = benchmark::BenchmarkReporter::Run;
using report_runs::milliseconds;

// --- the structure of a row ----------------------------------------------------

std::string RowStructure::table() const {
    return cache ? fmt::format("{}/cache:{}", workload, to_string(*cache)) : workload;
}

std::string RowStructure::label() const {
    std::string label = buffer_size != 0 ? fmt::format("{}/buf:{}", method, buffer_size) : method;
    if (threads > 0) label += fmt::format("/threads:{}", threads);
    if (threads > 1) label += shared_sink ? "/sink:shared" : "/sink:per_thread";
    return label + pacing;
}

RowStructure row_structure(const Case& c) {
    RowStructure s;
    s.name = c.name;
    s.workload = std::string(c.workload->name());
    s.method = c.method->name;
    s.family = c.method->family;
    s.reference = c.method->reference;
    s.overwrites_existing = c.method->overwrites_existing;
    s.copies_in_memory = c.method->copy_prepared.present();
    s.buffer_size = c.params.buffer_size;
    if (c.workload->spec().axes.cache_state) s.cache = c.params.cache;
    s.item_unit = std::string(c.workload->item_unit());
    s.compared_per_byte = c.workload->compared_per_byte();
    s.threads = c.params.threads;
    s.shared_sink = c.params.threads > 1 && c.params.shared_sink;
    if (c.params.threads > 0) {
        s.pacing = pacing_suffix(c.params);
        s.rate = c.params.rate;
        if (s.pacing.find("/burst:") != std::string::npos) s.burst = c.params.burst;
        if (c.params.batch > 1) s.batch = c.params.batch;
    }
    // A method's own threads, or a per-call row's several: the whole process's.
    s.process_counters = c.method->process_counters || c.params.threads > 1;
    // The method's own reason, else the platform's (wine counts no call).
    s.calls_not_counted = !c.method->calls_not_counted.empty()
                              ? c.method->calls_not_counted
                              : calls_not_counted_here(s.process_counters ? OsScope::process : OsScope::thread);
    s.program = !c.method->program.file.empty();
    return s;
}

CaseIndex::CaseIndex(const std::vector<Case>& cases) {
    for (const Case& c : cases) rows_.emplace(c.name, row_structure(c));
}

void CaseIndex::add(RowStructure structure) {
    std::string name = structure.name;
    rows_.insert_or_assign(std::move(name), std::move(structure));
}

const RowStructure* CaseIndex::find(std::string_view name) const {
    const auto it = rows_.find(name);
    return it == rows_.end() ? nullptr : &it->second;
}

RowStructure CaseIndex::structure(const std::string& name) const {
    if (const RowStructure* s = find(name)) return *s;
    RowStructure s;  // a row no case made: a table of its own, named as the row
    s.name = name;
    s.workload = name;
    s.method = name;
    return s;
}

void add_x_limit(std::vector<Run>& runs, const CaseIndex& index) {
    // The median time per run of each table's limit row (a single
    // repetition: its only time); not limit_overwrite's, which writes no
    // new file as the methods do, nor memcpy's, which writes no file.
    std::map<std::string, double> limit_ms;
    for (const Run& r : runs) {
        if (r.error_occurred) continue;
        const RowStructure* s = index.find(r.run_name.str());
        if (s == nullptr || !s->reference || s->overwrites_existing || s->copies_in_memory) continue;
        if (r.run_type == Run::RT_Aggregate && r.aggregate_name == "median") limit_ms[s->table()] = milliseconds(r);
        else if (r.run_type == Run::RT_Iteration && r.repetitions <= 1) limit_ms.emplace(s->table(), milliseconds(r));
    }
    for (Run& r : runs) {
        if (r.error_occurred) continue;
        if (r.run_type == Run::RT_Aggregate && r.aggregate_name != "mean" && r.aggregate_name != "median") continue;
        const RowStructure* s = index.find(r.run_name.str());
        if (s == nullptr || s->reference) continue;
        const auto limit = limit_ms.find(s->table());
        if (limit == limit_ms.end() || !(limit->second > 0)) continue;
        r.counters["x_limit"] = milliseconds(r) / limit->second;
    }
}

}  // namespace iobench
