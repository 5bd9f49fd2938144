// The console summary of a run (SummaryConsoleReporter): rows built from
// Google Benchmark's, grouped in tables; each table's cells and the notes
// worked out from them, then laid out by the columns of
// generated/summary_columns.hpp (from tools/iobench_compare/spec/summary_columns.json); the notes last.
#include "core/report/report.hpp"
#include "core/report/report_rules.hpp"
#include "core/report/report_runs.hpp"
#include "generated/summary_columns.hpp"

#include <iobench/detail_identity.hpp>
#include <iobench/method.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <thread>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string_view>

#include "core/engine/runner.hpp"
#include "core/measure/latency.hpp"
#include "core/os/os_counters.hpp"
#include "core/report/number_format.hpp"

namespace iobench {

using Run = benchmark::BenchmarkReporter::Run;
using report_runs::milliseconds;
using report_runs::optional_counter;
using report_runs::without_time_suffix;

// --- the console summary: rows built, then rendered ------------------------------

namespace {

/// One line of a summary table.
struct SummaryRow {
    RowStructure structure;
    double ms = 0;  // median wall time per run
    /// Every counter of the run that stands for the row (its median, or its
    /// only repetition), by name: what the columns show (generated/summary_columns.hpp).
    std::map<std::string, double, std::less<>> counters;
    // Counters of `counters` the ranking and the notes read (seconds, calls, bytes per run).
    std::optional<double> read_calls, write_calls, system_time;
    std::optional<double> steal_time;  // seconds per run the hypervisor took (all CPUs)
    std::optional<double> cpu_wait;    // seconds per run some task of the machine waited for a CPU
    std::optional<double> cv;          // coefficient of variation across repetitions
    std::optional<double> cold_warm;   // a cold row's time / the same method's warm time
    std::optional<double> binary_size; // bytes of the row's program (the binary_size workload)
    std::optional<double> instructions_per_item;  // --instructions: user-space instructions per item
    std::vector<double> samples;       // wall time per run of each repetition, ms
    std::optional<double> ci_low, ci_high;  // the median's interval (add_median_interval), ms
    /// Per repetition (in the order reported): its index and the seconds per
    /// run spent neither on a CPU (user + system time) nor waiting for one
    /// (cpu_wait, steal_time): stopped, or blocked on I/O. Empty where the
    /// CPU times are not counted.
    std::vector<std::pair<std::int64_t, double>> off_cpu;
    /// Each repetition's stolen time (steal_time) as a share of its wall time, where counted.
    std::vector<double> steal_shares;
    /// Runs done again because the host's page reporting overlapped them
    /// (runs_redone, summed over the repetitions), and the repetitions whose
    /// kept runs it overlapped all the same (page_reported_bytes > 0) while
    /// they wrote at least redo_from_bytes (write_bytes) to the page cache.
    std::int64_t runs_redone = 0;
    std::int64_t reported_repetitions = 0;
    std::int64_t runs = 1;             // runs per repetition (Google Benchmark's iterations)
    std::int64_t repetitions = 0;      // repetitions that ran (the rows' repetitions, TeeReporter's count)
    bool budget_spent = false;         // the stopping rule's time budget ended them (Outcomes::budget_spent)
    std::string label;                 // the rows' label (Trial::label): how a cold row's pages were dropped
    std::optional<double> baseline_ms; // the time of the --baseline-method's row it is compared with (set_baselines)
    const SummaryRow* baseline = nullptr;  // that row itself (its per-call percentiles), in the same table
    Outcome outcome;
};

/// One table of the summary: the rows of one workload and cache state.
struct SummaryTable {
    std::string key;    // RowStructure::table()
    std::string title;  // "ints_out", "file_read, cold page cache"
    std::vector<SummaryRow> rows;  // ranked rows, then references, then rows without a time
    bool input = false;      // read calls explain it (else write calls)
    bool any_calls = false;  // some row counted read or write calls
    bool has_limit = false;
    bool has_cold_warm = false;
    bool has_binary_size = false;  // every row with a time has a binary_size counter: ranked by it
    bool has_instructions = false;  // some row has instructions_per_item (--instructions)
    bool has_latency = false;       // some row is a per-call row (latency_p50_ns)
    bool has_heap = false;          // some row counted its allocations (heap_allocations_per_item)
    bool has_other_threads = false; // some per-call row's other threads used CPU time (other_threads_cpu_ns >= 1 % of end_to_end_ns)
    bool has_heap_peak = false;     // some row measured its peak heap (peak_heap_bytes)
    bool has_baseline = false;      // some row has a --baseline-method row to compare with (set_baselines)
};

/// A row's counters from the run that stands for it (its median aggregate,
/// or its only repetition).
void take_counters(SummaryRow& row, const Run& r) {
    row.counters.clear();
    for (const auto& [name, counter] : r.counters) row.counters[name] = counter.value;
    row.read_calls = optional_counter(r, OsCounter::read_calls);
    row.write_calls = optional_counter(r, OsCounter::write_calls);
    row.system_time = optional_counter(r, OsCounter::system_time);
    row.steal_time = optional_counter(r, OsCounter::steal_time);
    row.cpu_wait = optional_counter(r, OsCounter::cpu_wait);
    row.binary_size = optional_counter(r, "binary_size");
    row.instructions_per_item = optional_counter(r, "instructions_per_item");
    if (!r.report_label.empty()) row.label = r.report_label;
}

/// Adds what run `r` of a benchmark says to its row: a time and counters, a
/// repetition's sample, the cv, or a failure.
void add_run(SummaryRow& row, const Run& r) {
    if (r.error_occurred) {
        if (row.outcome.ok()) row.outcome = Outcome::failed(r.error_message);  // no outcome recorded
        return;
    }
    const double ms = milliseconds(r);
    if (r.run_type == Run::RT_Aggregate) {
        if (r.aggregate_name == "median") {
            row.repetitions = r.repetitions;
            row.ms = ms;
            take_counters(row, r);
            // The interval, in the row's time unit as its real_time: ms as that is.
            const double to_ms = ms / r.GetAdjustedRealTime();
            const auto low = optional_counter(r, "median_ci_low"), high = optional_counter(r, "median_ci_high");
            if (low && high && std::isfinite(to_ms)) {
                row.ci_low = *low * to_ms;
                row.ci_high = *high * to_ms;
            }
        } else if (r.aggregate_name == "cv") {
            row.cv = r.real_accumulated_time;  // a fraction, not a time
        }
        return;
    }
    row.samples.push_back(ms);
    row.runs = static_cast<std::int64_t>(r.iterations);
    row.repetitions = r.repetitions;
    const auto user = optional_counter(r, OsCounter::user_time);
    const auto system = optional_counter(r, OsCounter::system_time);
    const auto queued = optional_counter(r, OsCounter::run_queue_time);
    const double stolen = optional_counter(r, OsCounter::steal_time).value_or(0);
    if (optional_counter(r, OsCounter::steal_time) && ms > 0) row.steal_shares.push_back(stolen / (ms / 1e3));
    row.runs_redone += static_cast<std::int64_t>(optional_counter(r, "runs_redone").value_or(0));
    // Only a run that dirtied enough page-cache pages for the host's faults to show (as may_redo_run asks).
    if (optional_counter(r, OsCounter::page_reported_bytes).value_or(0) > 0 &&
        optional_counter(r, OsCounter::write_bytes).value_or(0) >= static_cast<double>(redo_from_bytes))
        ++row.reported_repetitions;
    // Off a CPU: neither running nor waiting for one. The row's own waiting
    // on a run queue where the system says it (run_queue_time); else the
    // machine's (cpu_wait), which tells only while it is a small share of the
    // wall time. Time the hypervisor stole is neither: unknown past that share too.
    const double wall = ms / 1e3, most = report_rules::stopped_max_wait_share * wall;
    if (user && system && queued && stolen <= most) {
        row.off_cpu.emplace_back(r.repetition_index, std::max(0.0, wall - *user - *system - *queued - stolen));
    } else if (user && system && !queued) {
        const double waited = optional_counter(r, OsCounter::cpu_wait).value_or(0) + stolen;
        if (waited <= most) row.off_cpu.emplace_back(r.repetition_index, std::max(0.0, wall - *user - *system - waited));
    }
    if (r.repetitions <= 1) {
        row.ms = ms;
        take_counters(row, r);
    }
}

/// Gives each cold row its time over the warm time of the same method and buffer.
void add_cold_warm(std::map<std::string, SummaryRow>& rows) {
    for (auto& [name, row] : rows) {
        const RowStructure& s = row.structure;
        if (!s.cache || *s.cache != CacheState::cold || !row.outcome.ok() || row.ms <= 0) continue;
        for (const auto& [other_name, other] : rows) {
            const RowStructure& o = other.structure;
            if (o.workload == s.workload && o.label() == s.label() && o.cache == CacheState::warm &&
                other.outcome.ok() && other.ms > 0)
                row.cold_warm = row.ms / other.ms;
        }
    }
}

/// Sorts a table's rows (ranked rows, then references, then rows without a
/// time) and says which columns it needs.
void finish_table(SummaryTable& t) {
    t.has_binary_size = std::any_of(t.rows.begin(), t.rows.end(), [](const SummaryRow& r) {
        return r.outcome.ok() && r.binary_size;
    }) && std::all_of(t.rows.begin(), t.rows.end(), [](const SummaryRow& r) {
        return !r.outcome.ok() || r.binary_size;
    });
    // A binary-size table is about the programs' sizes (fast_io's table): smallest first.
    const bool by_size = t.has_binary_size;
    std::stable_sort(t.rows.begin(), t.rows.end(), [by_size](const SummaryRow& a, const SummaryRow& b) {
        if (a.outcome.ok() != b.outcome.ok()) return a.outcome.ok();
        if (a.structure.reference != b.structure.reference) return !a.structure.reference;
        // limit, then limit_overwrite, then memcpy (whatever their times).
        if (a.structure.copies_in_memory != b.structure.copies_in_memory) return !a.structure.copies_in_memory;
        if (a.structure.overwrites_existing != b.structure.overwrites_existing) return !a.structure.overwrites_existing;
        if (by_size) return a.binary_size.value_or(0) < b.binary_size.value_or(0);
        return a.ms < b.ms;
    });
    double reads = 0, writes = 0;
    for (const SummaryRow& r : t.rows) {
        if (!r.outcome.ok()) continue;
        reads += r.read_calls.value_or(0);
        writes += r.write_calls.value_or(0);
        t.has_limit = t.has_limit || r.structure.reference;
        t.has_cold_warm = t.has_cold_warm || r.cold_warm.has_value();
        t.has_instructions = t.has_instructions || r.instructions_per_item.has_value();
        t.has_latency = t.has_latency || r.counters.count("latency_p50_ns") != 0;
        t.has_heap = t.has_heap || r.counters.count("heap_allocations_per_item") != 0;
        t.has_heap_peak = t.has_heap_peak || r.counters.count("peak_heap_bytes") != 0;
        if (const auto other = r.counters.find("other_threads_cpu_ns"), whole = r.counters.find("end_to_end_ns");
            other != r.counters.end() && whole != r.counters.end() && other->second >= 0.01 * whole->second)
            t.has_other_threads = true;
    }
    t.input = reads > writes;
    t.any_calls = reads + writes > 0;
}

/// The rows of `runs` by table, tables in the suite's order (the lowest
/// family_index, i.e. registration order, of their benchmarks: interleaved
/// repetitions report benchmarks in random order), rows sorted.
std::vector<SummaryTable> build_tables(const std::vector<Run>& runs, const Outcomes& outcomes,
                                       const CaseIndex& index) {
    std::map<std::string, SummaryRow> rows;  // by benchmark name
    std::vector<std::string> names;          // in the order first reported
    for (const Run& r : runs) {
        const std::string name = r.run_name.str();
        if (rows.count(name)) continue;
        SummaryRow& row = rows[name];
        row.structure = index.structure(name);
        if (const Outcome* o = outcomes.find(name)) row.outcome = *o;
        row.budget_spent = outcomes.budget_spent(name);
        names.push_back(name);
    }
    for (const Run& r : runs) add_run(rows[r.run_name.str()], r);
    add_cold_warm(rows);

    std::map<std::string, std::int64_t> first_family;  // by table
    for (const Run& r : runs) {
        const std::string table = rows[r.run_name.str()].structure.table();
        const auto family = static_cast<std::int64_t>(r.family_index);
        const auto [it, added] = first_family.emplace(table, family);
        if (!added && family < it->second) it->second = family;
    }
    std::vector<SummaryTable> tables;
    for (const std::string& name : names) {
        const SummaryRow& row = rows[name];
        const std::string key = row.structure.table();
        auto it = std::find_if(tables.begin(), tables.end(), [&](const SummaryTable& t) { return t.key == key; });
        if (it == tables.end()) {
            SummaryTable t;
            t.key = key;
            t.title = row.structure.cache
                          ? fmt::format("{}, {} page cache", row.structure.workload, to_string(*row.structure.cache))
                          : row.structure.workload;
            tables.push_back(std::move(t));
            it = tables.end() - 1;
        }
        it->rows.push_back(row);
    }
    std::stable_sort(tables.begin(), tables.end(), [&](const SummaryTable& a, const SummaryTable& b) {
        return first_family[a.key] < first_family[b.key];
    });
    for (SummaryTable& t : tables) finish_table(t);
    return tables;
}

namespace rules = report_rules;

/// Measured time of a repetition's runs (ms) below which the summary gives
/// no system-time share.
constexpr double min_ms_for_cpu_share = rules::min_seconds_for_cpu_share * 1e3;

/// A fraction as a whole percentage, as the notes write a rule ("5%").
std::string rule_percent(double fraction) { return fmt::format("{:.0f}%", 100 * fraction); }

/// What the notes under the tables must explain, gathered with the tables' cells.
struct SummaryNotes {
    bool unstable = false;     // a cv of rules::cv_flag or more
    bool wide = false;         // an interval wider than ±rules::interval_flag
    bool no_interval = false;  // repetitions too few for an interval (rules::min_repetitions_for_interval)
    bool any_limit = false;
    bool any_cold_warm = false;
    bool short_runs = false;   // a sys cell left out: the run was too short
    bool any_binary_size = false;  // a binary_size table: ranked by size, its counters the child's
    bool any_instructions = false;  // an instr/item column (--instructions)
    bool any_latency = false;       // the per-call columns (p50 call, ...)
    bool any_memory = false;        // allocs/item or peak heap
    /// The clock's resolution (ns) of each row with a per-call figure at it (≤).
    std::vector<double> at_resolution;
    std::string instructions_source;  // "perf", "valgrind"
    std::vector<std::string> interfered;  // "name (n%)": spread with stolen time
    std::vector<std::string> contended;   // "name (n%)": spread with CPU pressure, no stolen time
    /// "hello/limit_overwrite (268 ms to 448 ms per run)": the limit_overwrite and
    /// memcpy rows that spread (note_machine_speed): the same work taking longer,
    /// the machine's doing.
    std::vector<std::string> machine_slowed;
    /// "hello 126 ms (52% of limit)": limit less memcpy in each table that has
    /// both (note_kernel_part).
    std::vector<std::string> kernel_part;
    /// "hello/limit (3)": rows with runs done again (runs_redone), and
    /// "hello/fwrite (9 of 9)": rows whose kept runs the page reporting overlapped.
    std::vector<std::string> redone, reported;
    std::vector<std::string> stopped;     // "name, repetition k of n: ..." (stopped_repetitions)
    std::map<std::string, std::vector<std::string>> calls_not_counted;  // reason -> methods whose calls are "-"
    std::vector<std::string> methods;  // every method with a row that ran
    std::vector<std::pair<std::string, std::string>> labels;  // (table title, label) of rows that ran, each once
    /// The stopping rule (set_stopping_rule): repetitions -> the rows that
    /// ran that many, fewer than the most.
    std::map<std::int64_t, std::vector<std::string>> stopped_early;
    std::vector<std::string> budget_spent;  // of those, the rows whose time budget ended them
    StoppingRule rule;                      // the rule itself (its budget and target, for that note)
    std::string stopping_rule;  // describe(): the rule in words
    int max_repetitions = 0;    // the most repetitions the rule allowed
    std::vector<std::string> baseline_methods;  // --baseline-method, in order
    std::vector<std::string> without_baseline;  // titles of the tables with no row of them
    /// "hello (about 62% of 512 ms)": output tables whose limit row is
    /// mostly new page-cache pages (note_new_pages), and that cost per page, ns.
    std::vector<std::string> new_pages;
    double new_page_ns = 0;
    /// "hello 36.2 ms (47% of limit)": limit less limit_overwrite in each
    /// table that has both (note_new_pages).
    std::vector<std::string> overwrite;
    bool new_pages_measured = false;  // an entry of new_pages is from a limit_overwrite row
    bool under_valgrind = false;  // the run ran under valgrind not started by --instructions
    /// "hello/fwrite/threads:8/sink:shared (4.02 ms)": per-call rows whose max call is about one
    /// scheduler time slice under contention (note_time_slice).
    std::vector<std::string> time_slice_max;
};

/// Adds `item` to `list` unless it is there already.
template <class T>
void add_once(std::vector<T>& list, const T& item) {
    if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
}

/// The repetitions of `row` that spent far longer off a CPU than its other
/// repetitions did (stopped by SIGSTOP or Ctrl-Z, a suspended machine, or
/// blocked on I/O): more than half the median run's wall time, and more than
/// 5 ms, above the repetitions' median time off a CPU. Their wall time is not
/// the method's; the note names each (3 s of SIGSTOP in one repetition once showed only as
/// a cv of 375 %).
std::vector<std::string> stopped_repetitions(const SummaryRow& row) {
    std::vector<std::string> found;
    if (row.off_cpu.size() < 2 || row.ms <= 0) return found;
    std::vector<double> off;
    for (const auto& [index, seconds] : row.off_cpu) off.push_back(seconds);
    std::sort(off.begin(), off.end());
    const std::size_t n = off.size();
    const double median = n % 2 ? off[n / 2] : (off[n / 2 - 1] + off[n / 2]) / 2;
    const double threshold = std::max(rules::stopped_share * row.ms / 1e3, rules::stopped_min_seconds);
    for (const auto& [index, seconds] : row.off_cpu)
        if (seconds - median > threshold)
            found.push_back(fmt::format("{}, repetition {} of {}: {} per run off a CPU (the repetitions' median: {})",
                                        row.structure.name, index + 1, row.samples.size(), format_time(seconds),
                                        median > 0 ? format_time(median) : std::string("0 s")));
    return found;
}

// --- a table's cells: ranking, figures and notes, before any text is laid out -----

using summary_columns::Align;
using summary_columns::Column;
using summary_columns::Field;
using summary_columns::Flag;
using summary_columns::Format;
using summary_columns::Shown;

/// What a table's ratio columns divide by: the fastest ranked row's time
/// (ms) and, in a binary_size table, the smallest program's size (bytes);
/// 0 where there is none.
struct Ranking {
    double fastest = 0;
    double smallest = 0;
};

/// The ranking of `t`, whose rows are sorted (finish_table).
Ranking rank(const SummaryTable& t) {
    Ranking k;
    for (const SummaryRow& r : t.rows)
        if (r.outcome.ok() && !r.structure.reference && (k.fastest == 0 || r.ms < k.fastest)) k.fastest = r.ms;
    for (const SummaryRow& r : t.rows)
        if (t.has_binary_size && r.outcome.ok() && r.binary_size && (k.smallest == 0 || *r.binary_size < k.smallest))
            k.smallest = *r.binary_size;
    return k;
}

/// CPU time is split into user and system by scheduler ticks (1-10 ms): over
/// a repetition's runs shorter than that in all, the split is noise (it once
/// read 718%), and no CPU share is given.
bool long_enough_for_cpu_share(const SummaryRow& r) {
    return r.ms * static_cast<double>(r.runs) >= min_ms_for_cpu_share;
}

/// The figures of one row a column may show beyond its counters, and the
/// flags the notes explain.
struct RowFigures {
    const SummaryRow* row = nullptr;
    std::optional<double> interval;  // half-width of the median's interval, % of the median
    bool wide = false;               // an interval wider than ±rules::interval_flag
    bool unstable = false;           // a cv of rules::cv_flag or more
    double x_fastest = 0;            // time / the fastest ranked row's (0: no fastest)
    double x_smallest = 0;           // binary size / the smallest program's (0: none)
};

/// The figures of row `r` of a table ranked by `k`.
RowFigures figures_of(const SummaryRow& r, const Ranking& k) {
    RowFigures f;
    f.row = &r;
    if (r.ci_low && r.ci_high && r.ms > 0) {
        const double half = std::max(r.ms - *r.ci_low, *r.ci_high - r.ms);
        f.interval = 100 * half / r.ms;
        f.wide = half / r.ms > rules::interval_flag;
    }
    f.unstable = r.cv && *r.cv >= rules::cv_flag;
    f.x_fastest = k.fastest > 0 ? r.ms / k.fastest : 0.0;
    f.x_smallest = k.smallest > 0 && r.binary_size ? *r.binary_size / k.smallest : 0.0;
    return f;
}

/// Names a row whose spread came with stolen time of at least
/// rules::interference_share of its wall time (the host), else with as much
/// time waiting for a CPU (other work on this machine).
void note_interference(const RowFigures& f, SummaryNotes& notes) {
    const SummaryRow& r = *f.row;
    if (!(f.unstable || f.wide) || r.ms <= 0) return;
    const auto stolen_from = std::count_if(r.steal_shares.begin(), r.steal_shares.end(),
                                           [](double share) { return share >= rules::interference_share; });
    if (r.steal_time && *r.steal_time >= rules::interference_share * r.ms / 1e3)
        notes.interfered.push_back(fmt::format("{} ({:.0f}%)", r.structure.name, 100 * *r.steal_time / (r.ms / 1e3)));
    else if (stolen_from > 0)
        // The median repetition lost nothing, the slow ones did (2026-12-05: 4 of
        // hello/limit's 9 repetitions lost 16-23 % to the host, its cv 8.7 %).
        notes.interfered.push_back(fmt::format("{} ({} of {} repetitions, up to {:.0f}%)", r.structure.name,
                                               stolen_from, r.steal_shares.size(),
                                               100 * *std::max_element(r.steal_shares.begin(), r.steal_shares.end())));
    else if (r.cpu_wait && *r.cpu_wait >= rules::interference_share * r.ms / 1e3)
        notes.contended.push_back(fmt::format("{} ({:.0f}%)", r.structure.name, 100 * *r.cpu_wait / (r.ms / 1e3)));
}

/// Names a per-call row whose max call is about one time slice of the
/// scheduler (1 to 30 ms: Linux's CFS and EEVDF slices, Windows' 15.6 ms
/// timer tick), at least 20 times its p99.9, while its threads outnumbered
/// the CPUs or other work waited for a CPU (cpu_wait at least
/// rules::interference_share of the wall time): a thread preempted in the
/// middle of a call, not a call that cost that much.
void note_time_slice(const SummaryRow& r, SummaryNotes& notes) {
    const auto max = r.counters.find("latency_max_ns"), p999 = r.counters.find("latency_p999_ns");
    if (max == r.counters.end() || p999 == r.counters.end() || !(p999->second > 0)) return;
    if (max->second < 1e6 || max->second > 3e7 || max->second < 20 * p999->second) return;
    const unsigned cpus = std::thread::hardware_concurrency();
    const bool outnumbered = cpus > 0 && r.structure.threads > cpus;
    const bool waited = r.cpu_wait && r.ms > 0 && *r.cpu_wait >= rules::interference_share * r.ms / 1e3;
    if (outnumbered || waited)
        notes.time_slice_max.push_back(fmt::format("{} ({})", r.structure.name, format_time(max->second / 1e9)));
}

/// Names row `f` when it is a limit_overwrite or memcpy row and its
/// repetitions disagree (a cv or an interval over the flags): limit_overwrite
/// writes the same bytes over pages the file already has, memcpy copies them
/// in memory, so no page supply, no disk and no choice of a method's is in
/// their spread; their work being the same in every repetition, a spread is
/// the machine running slower in some of them. Measured 2026-12-05 on an idle
/// 2-vCPU VM: tmpfs hello/limit_overwrite 268-281 ms in 4 repetitions, 302-448
/// ms in 5 others (system time, nothing stolen), limit and obuf slower in the
/// same repetitions; 2026-12-06, a 1.2 GB memcpy between resident buffers,
/// 300 ms apart: 121-154 ms in 40 copies (102-110 ms back to back).
void note_machine_speed(const RowFigures& f, SummaryNotes& notes) {
    const SummaryRow& r = *f.row;
    const bool same_work = r.structure.overwrites_existing || r.structure.copies_in_memory;
    if (!same_work || !(f.unstable || f.wide) || r.samples.size() < 2) return;
    const auto [fastest, slowest] = std::minmax_element(r.samples.begin(), r.samples.end());
    notes.machine_slowed.push_back(fmt::format("{} ({} to {} per run)", r.structure.name,
                                               format_time(*fastest / 1e3), format_time(*slowest / 1e3)));
}

/// What the notes must say about a row that ran in the table `title`.
void note_row(const RowFigures& f, const std::string& title, SummaryNotes& notes) {
    const SummaryRow& r = *f.row;
    notes.no_interval = notes.no_interval || (!f.interval && r.samples.size() > 1);
    notes.wide = notes.wide || f.wide;
    notes.unstable = notes.unstable || f.unstable;
    notes.short_runs = notes.short_runs || (r.system_time && !long_enough_for_cpu_share(r));
    for (std::string& s : stopped_repetitions(r)) notes.stopped.push_back(std::move(s));
    note_interference(f, notes);
    note_machine_speed(f, notes);
    if (r.runs_redone > 0) notes.redone.push_back(fmt::format("{} ({})", r.structure.name, r.runs_redone));
    if (r.reported_repetitions > 0)
        notes.reported.push_back(fmt::format("{} ({} of {})", r.structure.name, r.reported_repetitions,
                                             r.samples.size()));
    note_time_slice(r, notes);
    add_once(notes.methods, r.structure.method);
    if (!r.structure.calls_not_counted.empty())
        add_once(notes.calls_not_counted[r.structure.calls_not_counted], r.structure.method);
    if (!r.label.empty()) add_once(notes.labels, {title, r.label});
}

/// Adds "hello 126 ms (52% of limit)" to the notes for output table `t` when
/// it has a limit row and a memcpy row that ran: limit less memcpy, the
/// kernel's part of limit (memcpy copies the same bytes in memory).
void note_kernel_part(const SummaryTable& t, SummaryNotes& notes) {
    const SummaryRow* limit = nullptr;
    const SummaryRow* copy = nullptr;
    for (const SummaryRow& r : t.rows) {
        if (!r.structure.reference || !r.outcome.ok() || !(r.ms > 0) || r.structure.overwrites_existing) continue;
        (r.structure.copies_in_memory ? copy : limit) = &r;
    }
    if (limit == nullptr || copy == nullptr) return;
    const double kernel_ms = limit->ms - copy->ms;
    notes.kernel_part.push_back(fmt::format("{} {} ({:.0f}% of limit)", t.title,
                                            kernel_ms < 0 ? "-" + format_time(-kernel_ms / 1e3)
                                                          : format_time(kernel_ms / 1e3),
                                            100 * kernel_ms / limit->ms));
}

/// Names output table `t` when its limit row's median time is mostly new
/// page-cache pages: measured by the table's limit_overwrite row (limit less
/// limit_overwrite at least half of limit) where it has one that ran, else
/// estimated from `cost` (the row's bytes / 4 KiB x new_page_ns at least half
/// of it; nothing without `cost`).
void note_new_pages(const SummaryTable& t, const PageCost* cost, SummaryNotes& notes) {
    if (t.input) return;
    const SummaryRow* limit = nullptr;
    const SummaryRow* overwrite = nullptr;
    for (const SummaryRow& r : t.rows)
        if (r.structure.reference && r.outcome.ok() && r.ms > 0)
            if (!r.structure.copies_in_memory) (r.structure.overwrites_existing ? overwrite : limit) = &r;
    if (limit == nullptr) return;
    if (overwrite != nullptr) {
        const double pages_ms = limit->ms - overwrite->ms;
        notes.overwrite.push_back(fmt::format("{} {} ({:.0f}% of limit)", t.title,
                                              pages_ms < 0 ? "-" + format_time(-pages_ms / 1e3)
                                                           : format_time(pages_ms / 1e3),
                                              100 * pages_ms / limit->ms));
        if (pages_ms < 0.5 * limit->ms) return;
        notes.new_pages_measured = true;
        notes.new_pages.push_back(fmt::format("{} (about {:.0f}% of {}: limit_overwrite {})", t.title,
                                              100 * pages_ms / limit->ms, format_time(limit->ms / 1e3),
                                              format_time(overwrite->ms / 1e3)));
        return;
    }
    if (cost == nullptr || !(cost->new_page_ns() > 0)) return;
    const auto bytes = limit->counters.find("bytes");
    if (bytes == limit->counters.end() || !(bytes->second > 0)) return;
    const double pages_ms = bytes->second / 4096 * cost->new_page_ns() / 1e6;
    if (pages_ms < 0.5 * limit->ms) return;
    notes.new_pages.push_back(fmt::format("{} (about {:.0f}% of {})", t.title,
                                          std::min(100.0, 100 * pages_ms / limit->ms), format_time(limit->ms / 1e3)));
    notes.new_page_ns = cost->new_page_ns();
}

/// What the notes must say about a table's optional columns.
void note_table(const SummaryTable& t, SummaryNotes& notes) {
    notes.any_limit = notes.any_limit || t.has_limit;
    notes.any_cold_warm = notes.any_cold_warm || t.has_cold_warm;
    notes.any_binary_size = notes.any_binary_size || t.has_binary_size;
    notes.any_instructions = notes.any_instructions || t.has_instructions;
    notes.any_latency = notes.any_latency || t.has_latency;
    notes.any_memory = notes.any_memory || t.has_heap || t.has_heap_peak;
}

/// Gives each row of `t` the time of the --baseline-method row it is compared
/// with, as iobench-compare pairs them: for the first of `methods` that has
/// one in the table, its row with the row's parameters (buffer size, threads,
/// sink), else its row without parameters; rows with neither get none.
void set_baselines(SummaryTable& t, const std::vector<std::string>& methods) {
    const auto same_parameters = [](const RowStructure& a, const RowStructure& b) {
        return a.buffer_size == b.buffer_size && a.threads == b.threads && a.shared_sink == b.shared_sink &&
               a.pacing == b.pacing;
    };
    const auto ran = [](const SummaryRow& r) { return r.outcome.ok() && r.ms > 0; };
    for (SummaryRow& row : t.rows) {
        for (const std::string& method : methods) {
            const SummaryRow* found = nullptr;
            for (const SummaryRow& b : t.rows)
                if (!found && b.structure.method == method && ran(b) && same_parameters(b.structure, row.structure))
                    found = &b;
            for (const SummaryRow& b : t.rows)
                if (!found && b.structure.method == method && ran(b) && b.structure.buffer_size == 0 &&
                    b.structure.threads == 0)
                    found = &b;
            if (found) {
                row.baseline_ms = found->ms;
                row.baseline = found;
                t.has_baseline = true;
                break;
            }
        }
    }
}

/// Whether some row of table `t` that ran carries the counter `name`.
bool any_row_has(const SummaryTable& t, std::string_view name) {
    return std::any_of(t.rows.begin(), t.rows.end(),
                       [&](const SummaryRow& r) { return r.outcome.ok() && r.counters.find(name) != r.counters.end(); });
}

/// Whether table `t` shows column `c`: its condition (the spec's "shown").
bool shown(const Column& c, const SummaryTable& t) {
    switch (c.shown) {
        case Shown::always: return true;
        case Shown::ranked_by_time: return !t.has_binary_size;
        case Shown::ranked_by_size: return t.has_binary_size;
        case Shown::baseline: return t.has_baseline;
        case Shown::limit: return t.has_limit;
        case Shown::cold_warm: return t.has_cold_warm;
        case Shown::counter: return any_row_has(t, c.counter);
        case Shown::per_call: return t.has_latency;
        case Shown::other_threads: return t.has_other_threads;
        case Shown::reads: return t.input;
        case Shown::writes: return !t.input && t.any_calls;
        case Shown::no_calls: return !t.any_calls;
    }
    return false;
}

/// The counter `name` of row `r`, or nothing when its run does not carry it.
std::optional<double> counter_of(const SummaryRow& r, std::string_view name) {
    const auto it = r.counters.find(name);
    if (it == r.counters.end()) return std::nullopt;
    return it->second;
}

/// The value column `c` shows of row `f` (Column::field), if the row has one.
std::optional<double> value_of(const Column& c, const RowFigures& f) {
    const SummaryRow& r = *f.row;
    switch (c.field) {
        case Field::label: return std::nullopt;
        case Field::time: return r.ms / 1e3;
        case Field::interval: return f.interval;
        case Field::throughput: return counter_of(r, c.counter).value_or(0);
        case Field::x_fastest: return f.x_fastest;
        case Field::x_baseline:
            if (!r.baseline_ms || *r.baseline_ms <= 0 || !r.outcome.ok()) return std::nullopt;
            return r.ms / *r.baseline_ms;
        case Field::x_smallest: return f.x_smallest;
        case Field::cold_warm: return r.cold_warm;
        case Field::counter: return counter_of(r, c.counter);
        case Field::cpu_share: {
            const auto seconds = counter_of(r, c.counter);
            if (!seconds || !long_enough_for_cpu_share(r)) return std::nullopt;
            return *seconds / (r.ms / 1e3);
        }
        case Field::cv: return r.cv;
        case Field::latency:
        case Field::nanoseconds: {
            const auto ns = counter_of(r, c.counter);
            if (!ns) return std::nullopt;
            return *ns / 1e9;
        }
    }
    return std::nullopt;
}

/// Whether column `c`'s figure in row `f` is one call's time within 4 steps
/// of the clock's resolution (the row's latency_resolution_ns): an upper
/// bound, not a measurement, written after "≤".
bool at_resolution(const Column& c, const RowFigures& f) {
    if (c.field != Field::latency) return false;
    const auto ns = counter_of(*f.row, c.counter);
    const auto resolution = counter_of(*f.row, "latency_resolution_ns");
    return ns && resolution && at_clock_resolution(*ns, *resolution);
}

/// Whether rule `flag` marks the cells it applies to in row `f`.
bool flagged(Flag flag, const RowFigures& f) {
    return (flag == Flag::cv_flag && f.unstable) || (flag == Flag::interval_flag && f.wide);
}

/// `value` written as `format` says (core/report/number_format.hpp).
std::string format_value(Format format, double value) {
    switch (format) {
        case Format::text: break;
        case Format::interval: return fmt::format("±{:.1f}%", value);
        case Format::time: return format_time(value);
        case Format::throughput: return format_throughput(value);
        case Format::ratio: return format_ratio(value);
        case Format::count: return format_count(value);
        case Format::bytes: return format_bytes(value);
        case Format::percent: return format_percent(value);
    }
    return fmt::format("{}", value);
}

/// The text of column `c` in row `f`: the reference text on a reference row
/// where the column has one, the label, the value as Column::format says
/// with "!" where its rule flags it, or "-" where the row has no value.
std::string cell_text(const Column& c, const RowFigures& f) {
    if (f.row->structure.reference && !c.reference.empty()) return std::string(c.reference);
    if (c.field == Field::label) return f.row->structure.label();
    const std::optional<double> value = value_of(c, f);
    if (!value) return "-";
    return (at_resolution(c, f) ? "≤" : "") + format_value(c.format, *value) + (flagged(c.flag, f) ? "!" : "");
}

/// One line of a table: a text per column, or for a row that did not run its
/// label (the first column) and why.
struct LineText {
    std::vector<std::string> cells;
    std::string outcome;  // "skipped: <reason>", "FAILED: <reason>"; "" for a row that ran
};

/// A table as text, laid out by the columns it shows.
struct TableText {
    std::string title;
    std::vector<const Column*> columns;  // those the table shows, in summary_columns::columns' order
    std::vector<std::size_t> widths;     // of each column
    LineText headers;
    std::vector<LineText> rows;
};

/// The line of row `r`, whose figures are `f`; adds what the notes must say about it.
LineText row_text(const RowFigures& f, const TableText& t, SummaryNotes& notes) {
    const SummaryRow& r = *f.row;
    LineText line;
    if (!r.outcome.ok()) {
        line.cells.push_back(cell_text(*t.columns.front(), f));
        line.outcome = (r.outcome.status == Status::skipped ? "skipped: " : "FAILED: ") + r.outcome.reason;
        return line;
    }
    note_row(f, t.title, notes);
    for (const Column* c : t.columns) {
        line.cells.push_back(cell_text(*c, f));
        if (at_resolution(*c, f)) add_once(notes.at_resolution, *counter_of(r, "latency_resolution_ns"));
    }
    return line;
}

/// Table `t` as text: its columns, the ranked rows' cells, the widths; adds
/// what the notes must say about it.
TableText table_text(const SummaryTable& t, SummaryNotes& notes) {
    TableText text;
    text.title = t.title;
    for (const Column& c : summary_columns::columns) {
        if (!shown(c, t)) continue;
        text.columns.push_back(&c);
        text.headers.cells.emplace_back(c.header);
    }
    note_table(t, notes);
    const Ranking ranking = rank(t);
    for (const SummaryRow& r : t.rows) text.rows.push_back(row_text(figures_of(r, ranking), text, notes));
    for (const Column* c : text.columns) {
        const std::size_t i = text.widths.size();
        std::size_t width = c->width;
        for (const LineText& line : text.rows)
            if (c->grows && i < line.cells.size()) width = std::max(width, line.cells[i].size());
        text.widths.push_back(width);
    }
    return text;
}

// --- the generic step: a table's text laid out by its columns ---------------------

/// Writes one line of `t`: each cell after two spaces, padded to its
/// column's width on the side its alignment says; then the outcome, if any.
void render_line(std::ostream& out, const TableText& t, const LineText& line) {
    std::string text;
    for (std::size_t i = 0; i < line.cells.size(); ++i)
        text += t.columns[i]->align == Align::left ? fmt::format("  {:<{}}", line.cells[i], t.widths[i])
                                                   : fmt::format("  {:>{}}", line.cells[i], t.widths[i]);
    if (!line.outcome.empty()) text += "  " + line.outcome;
    out << text << '\n';
}

/// Writes table `t`: its title, its headers, its lines.
void render_table(std::ostream& out, const TableText& t) {
    out << '\n' << t.title << '\n';
    render_line(out, t, t.headers);
    for (const LineText& row : t.rows) render_line(out, t, row);
}

/// The characters `text` shows (UTF-8: "≤" is one), for padding by hand.
std::size_t shown_width(std::string_view text) {
    return static_cast<std::size_t>(
        std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

/// `lines` (a header line first) as columns two spaces apart, the first
/// left-aligned, the others right-aligned, each line indented by two.
void render_small_table(std::ostream& out, const std::vector<std::vector<std::string>>& lines) {
    std::vector<std::size_t> widths;
    for (const auto& line : lines) {
        widths.resize(std::max(widths.size(), line.size()), 0);
        for (std::size_t i = 0; i < line.size(); ++i) widths[i] = std::max(widths[i], shown_width(line[i]));
    }
    for (const auto& line : lines) {
        std::string text;
        for (std::size_t i = 0; i < line.size(); ++i) {
            const std::string pad(widths[i] - shown_width(line[i]), ' ');
            text += i == 0 ? "  " + line[i] + pad : "  " + pad + line[i];
        }
        out << text << '\n';
    }
}

/// A per-call row's line in a threads table: its method, with its buffer
/// size and pacing where it has them.
std::string threads_method(const RowStructure& s) {
    return (s.buffer_size == 0 ? s.method : fmt::format("{}/buf:{}", s.method, s.buffer_size)) + s.pacing;
}

/// A threads table's cell of row `r`: its items per second, its interval,
/// and its p99.9 call (after "≤" at the clock's resolution).
std::string threads_cell(const SummaryRow& r) {
    const auto rate = counter_of(r, "items_per_second");
    std::string text = rate ? format_count(*rate) + "/s" : std::string("-");
    if (r.ci_low && r.ci_high && r.ms > 0)
        text += fmt::format(" ±{:.1f}%", 100 * std::max(r.ms - *r.ci_low, *r.ci_high - r.ms) / r.ms);
    if (const auto p999 = counter_of(r, "latency_p999_ns")) {
        const auto resolution = counter_of(r, "latency_resolution_ns");
        text += fmt::format(", {}{}", resolution && at_clock_resolution(*p999, *resolution) ? "≤" : "",
                            format_time(*p999 / 1e9));
    }
    return text;
}

/// The threads tables of table `t`, as docs/results/threads.md lays them
/// out, where its per-call rows ran with two thread counts or more: one per
/// sink (a threads:1 row in each), a line per method and a column per
/// thread count, each cell as threads_cell gives it.
void render_threads_tables(std::ostream& out, const SummaryTable& t) {
    std::vector<unsigned> counts;
    for (const SummaryRow& r : t.rows)
        if (r.outcome.ok() && r.structure.threads > 0) add_once(counts, r.structure.threads);
    if (counts.size() < 2) return;
    std::sort(counts.begin(), counts.end());
    for (const bool shared : {true, false}) {
        std::vector<std::string> methods;  // in the table's order: fastest first
        for (const SummaryRow& r : t.rows)
            if (r.outcome.ok() && r.structure.threads > 1 && r.structure.shared_sink == shared)
                add_once(methods, threads_method(r.structure));
        if (methods.empty()) continue;
        std::vector<std::vector<std::string>> lines;
        std::vector<std::string> head{"method"};
        for (unsigned n : counts) head.push_back(fmt::format("{} thread{}", n, n == 1 ? "" : "s"));
        lines.push_back(head);
        for (const std::string& m : methods) {
            std::vector<std::string> line{m};
            for (unsigned n : counts) {
                const SummaryRow* found = nullptr;
                for (const SummaryRow& r : t.rows)
                    if (r.outcome.ok() && threads_method(r.structure) == m && r.structure.threads == n &&
                        (n == 1 || r.structure.shared_sink == shared))
                        found = &r;
                line.push_back(found ? threads_cell(*found) : "-");
            }
            lines.push_back(std::move(line));
        }
        out << fmt::format("\n{}, sink:{}: items per second ±95% CI, p99.9 call; a column per thread count\n",
                           t.title, shared ? "shared" : "per_thread");
        render_small_table(out, lines);
    }
}

/// With --baseline-method, under a table with per-call rows: each such
/// row's p50 ... max call / its baseline row's (set_baselines), a column per
/// percentile; "-" where either figure is at the clock's resolution (an
/// upper bound: no ratio) or the baseline row has none.
void render_baseline_percentiles(std::ostream& out, const SummaryTable& t) {
    static constexpr std::pair<const char*, const char*> percentiles[] = {
        {"latency_p50_ns", "p50"}, {"latency_p90_ns", "p90"}, {"latency_p99_ns", "p99"},
        {"latency_p999_ns", "p99.9"}, {"latency_max_ns", "max"}};
    std::vector<std::vector<std::string>> lines;
    std::string baseline_methods;
    for (const SummaryRow& r : t.rows) {
        if (!r.outcome.ok() || r.baseline == nullptr || !counter_of(r, "latency_p50_ns")) continue;
        std::vector<std::string> line{r.structure.label()};
        for (const auto& [key, label] : percentiles) {
            (void)label;
            const auto ours = counter_of(r, key), theirs = counter_of(*r.baseline, key);
            const auto ours_step = counter_of(r, "latency_resolution_ns"),
                       theirs_step = counter_of(*r.baseline, "latency_resolution_ns");
            const bool coarse = (ours && ours_step && at_clock_resolution(*ours, *ours_step)) ||
                                (theirs && theirs_step && at_clock_resolution(*theirs, *theirs_step));
            line.push_back(ours && theirs && *theirs > 0 && !coarse ? format_ratio(*ours / *theirs) : "-");
        }
        if (baseline_methods.find(r.baseline->structure.method) == std::string::npos)
            baseline_methods += (baseline_methods.empty() ? "" : ", ") + r.baseline->structure.method;
        lines.push_back(std::move(line));
    }
    if (lines.empty()) return;
    std::vector<std::string> head{"method"};
    for (const auto& [key, label] : percentiles) {
        (void)key;
        head.push_back(label);
    }
    lines.insert(lines.begin(), head);
    out << fmt::format("\n{}: x baseline at each percentile: a call's time / {}'s at the same percentile "
                       "(- at the clock's resolution)\n",
                       t.title, baseline_methods);
    render_small_table(out, lines);
}

/// The notes that warn ("! ..."): what makes rows disagree or not the methods' own.
void render_warnings(std::ostream& out, const SummaryNotes& notes) {
    if (notes.unstable || notes.wide)
        out << fmt::format("\n! cv >= {} or an interval wider than ±{}: the repetitions disagree (a busy machine, "
                           "page-cache writeback), so close rankings are not to be trusted. Rerun with more "
                           "--benchmark_repetitions, on an idle machine or a tmpfs --dir.\n",
                           rule_percent(rules::cv_flag), rule_percent(rules::interval_flag));
    if (!notes.interfered.empty())
        out << fmt::format(
            "! host interference: the hypervisor took CPU time from this machine while {} ran (steal_time, as % of "
            "the wall time per run): their spread is the host's, not the method's.\n",
            fmt::join(notes.interfered, ", "));
    if (!notes.contended.empty())
        out << fmt::format(
            "! CPU contention: other work on this machine kept tasks waiting for a CPU while {} ran (cpu_wait, as % of "
            "the wall time per run): a busy machine, not the method.\n",
            fmt::join(notes.contended, ", "));
    if (!notes.machine_slowed.empty())
        out << fmt::format(
            "! machine speed: references that do the same work in every repetition (limit_overwrite: the same bytes "
            "over pages the file already has, no new page; memcpy: the same bytes copied in memory, no file) spread: "
            "{}: the same work took longer in some repetitions, so the machine itself ran slower then (the host's "
            "other guests, other work's memory traffic, the CPU's clock; stolen time shows only part of it), and the "
            "spread of those tables' other rows is the machine's, not the methods'. Compare rows within this run (x "
            "limit) rather than their times with another run's (docs/methodology.md, \"The machine's own copy: "
            "memcpy\").\n",
            fmt::join(notes.machine_slowed, ", "));
    if (!notes.reported.empty())
        out << fmt::format(
            "! page reporting: this machine's kernel handed free memory back to the hypervisor while {} ran "
            "(page_reported_bytes; repetitions of all, those writing {} MiB or more): the host then faults in again "
            "each page a run takes from it, so those times include the host's work (docs/methodology.md, \"Page "
            "reporting during a run\").\n",
            fmt::join(notes.reported, ", "), redo_from_bytes >> 20);
    if (!notes.new_pages.empty()) {
        // Measured by the table's limit_overwrite row, or estimated from the page cost measured at start.
        const std::string measured = "limit less limit_overwrite, which writes the same bytes over an existing file";
        const std::string estimated = fmt::format(
            "{:.0f} ns per 4 KiB page more than overwriting a file's pages, measured at start: page_cache_pages in "
            "the JSON",
            notes.new_page_ns);
        const std::string how = !(notes.new_page_ns > 0) ? measured
                                : notes.new_pages_measured ? measured + " where the table has it, else " + estimated
                                                           : estimated;
        out << fmt::format(
            "! new pages: the limit row of {} is mostly the kernel finding page-cache pages for a new file ({}). "
            "That cost is this machine's memory, not the methods', and on a virtual machine whose free memory goes "
            "back to the host it moves from run to run (docs/methodology.md, \"Where a new file's pages come "
            "from\").\n",
            fmt::join(notes.new_pages, ", "), how);
    }
    if (!notes.stopped.empty())
        out << fmt::format(
            "! stopped or blocked: a repetition spent far longer neither on a CPU nor waiting for one than the "
            "others did ({}): the process was stopped (SIGSTOP, Ctrl-Z, a suspended machine) or blocked on I/O, and "
            "that time is not the method's; rerun.\n",
            fmt::join(notes.stopped, "; "));
}

/// What each column and mark of the tables means (the legend under them), with
/// the max-call remark and the valgrind warning where the per-call and
/// instructions lines need them next to theirs.
void render_legend(std::ostream& out, const SummaryNotes& notes) {
    out << fmt::format("\ntime: median of the repetitions; {} CI: half-width of the median's distribution-free "
                       "interval;\ncv: standard deviation / mean of the repetitions' times;\n",
                       rule_percent(rules::confidence));
    if (!notes.baseline_methods.empty()) {
        out << fmt::format("x baseline: time / the time of {}'s row with the same parameters, else its row without "
                           "any (--baseline-method)",
                           fmt::join(notes.baseline_methods, " or, where it did not run, "));
        if (!notes.without_baseline.empty())
            out << fmt::format("; no row of it in {}", fmt::join(notes.without_baseline, ", "));
        out << ";\n";
    }
    if (notes.any_limit)
        out << "x limit: time / the `limit` row's (the same bytes prepared in memory, 1 MiB system calls);\n";
    if (!notes.overwrite.empty())
        out << fmt::format("limit_overwrite: limit's bytes written over an existing file of their size, so no "
                           "page-cache page is new; limit less limit_overwrite, what the kernel's new pages cost: "
                           "{};\n",
                           fmt::join(notes.overwrite, ", "));
    if (!notes.kernel_part.empty())
        out << fmt::format("memcpy: the same bytes copied with one memcpy into memory of their size (no file, no "
                           "system call), the machine's own copy; limit less memcpy, the kernel's part: {};\n",
                           fmt::join(notes.kernel_part, ", "));
    if (notes.any_cold_warm)
        out << "cold/warm: time with the file's pages dropped / the same method's time with them in memory;\n";
    out << "calls, bytes/call, sys (system CPU time / wall time): per run, from the operating system's counters.\n";
    if (notes.any_binary_size)
        out << "binary size: the size of the row's program file (static and stripped where the toolchain can), "
               "smallest first; x smallest: size / the smallest program's; time: one run of the program, start-up "
               "included; its calls and CPU time are a child process's, not counted (-).\n";
    if (notes.any_latency)
        out << "p50 call ... max call: one call of a per-call row (/threads:<n>), each call timed; the timing's "
               "own cost (latency_overhead_ns in the JSON: wall time per call) is in them, not subtracted.\n";
    if (!notes.at_resolution.empty()) {
        std::vector<std::string> steps;
        for (double ns : notes.at_resolution) steps.push_back(format_time(ns / 1e9));
        out << fmt::format("≤: at the clock's resolution ({}): an upper bound, not a measurement (a figure within "
                           "{:.0f} steps of the clock; latency_clock in the JSON says which clock).\n",
                           fmt::join(steps, ", "), resolution_steps);
    }
    if (!notes.time_slice_max.empty())
        out << fmt::format("- max call of {}: about one time slice of the scheduler (1-30 ms), with more threads "
                           "than CPUs or other work waiting for one: a thread preempted in the middle of a call, "
                           "not a call that cost that much.\n",
                           fmt::join(notes.time_slice_max, ", "));
    if (notes.under_valgrind)
        out << fmt::format("! under valgrind: the code runs ~50x slower and valgrind runs one thread at a time, so "
                           "every time of this run{} is valgrind's, not the method's; for instructions per item use "
                           "--instructions.\n",
                           notes.any_latency ? ", per-call percentiles and their threads tables among them," : "");
    if (notes.any_memory)
        out << "allocs/item: heap allocations per item, every thread, the sinks' open and close included; peak "
               "heap: the most heap in use at once above the run's start (an untimed run of its own); "
               "memory_counters in the JSON says what is counted.\n";
    if (notes.any_instructions) {
        out << fmt::format("instr/item: user-space instructions per item of the measured calls, counted by {} "
                           "(--instructions; reproducible to about 5 significant digits), - where the work runs in a "
                           "child process.\n",
                           notes.instructions_source);
        if (notes.instructions_source == "valgrind")
            out << "- under valgrind the code runs ~50x slower: the times of this run are not the figure, and the "
                   "calls columns are left out (valgrind's own system calls would be counted).\n";
    }
}

/// The remarks ("- ..."): cells left out or figures that stand for less than a row's whole run.
void render_remarks(std::ostream& out, const SummaryNotes& notes) {
    for (const auto& [reason, methods] : notes.calls_not_counted) {
        // A reason of the platform's (wine's) holds for every row: not a list of every method.
        if (methods.size() == notes.methods.size())
            out << fmt::format("- in the calls columns of every row: {}.\n", reason);
        else
            out << fmt::format("- in the calls columns of {}: {}.\n", fmt::join(methods, ", "), reason);
    }
    for (const auto& [title, label] : notes.labels) out << fmt::format("- {}: {}.\n", title, label);
    if (notes.short_runs)
        out << fmt::format("- in the sys column: the runs of a repetition took less than {:.0f} ms in all, too short "
                           "for the kernel's split of CPU time into user and system (it samples scheduler ticks).\n",
                           min_ms_for_cpu_share);
    if (!notes.stopped_early.empty()) {
        std::vector<std::string> counts;
        for (const auto& [n, names] : notes.stopped_early)
            counts.push_back(fmt::format("{} for {}", n, fmt::join(names, ", ")));
        out << fmt::format("- repetitions where fewer than {} ran: {} (the suite's stopping rule: {}).\n",
                           notes.max_repetitions, fmt::join(counts, "; "), notes.stopping_rule);
        if (!notes.budget_spent.empty())
            out << fmt::format("- of those, ended by the time budget ({:g} s) with their interval still wider than "
                               "±{:.4g} %: {}.\n",
                               notes.rule.budget_seconds, 100 * notes.rule.target_interval,
                               fmt::join(notes.budget_spent, ", "));
    }
    if (!notes.redone.empty())
        out << fmt::format("- runs done again: {}: the kernel handed free memory back to the hypervisor while they "
                           "ran (page_reported_bytes), which makes the host fault in the pages a run then takes; "
                           "each was verified and not kept, and a run that writes {} MiB or more in under {:g} s is "
                           "done again at most {} times (runs_redone in the JSON).\n",
                           fmt::join(notes.redone, ", "), redo_from_bytes >> 20, redo_below_seconds,
                           max_runs_redone);
    if (notes.no_interval)
        out << fmt::format("- in the {0} CI column: fewer than {1} repetitions, too few for a {0} interval of the "
                           "median.\n",
                           rule_percent(rules::confidence), rules::min_repetitions_for_interval);
}

/// The notes under the tables: the legend, the remarks, then the warnings.
void render_notes(std::ostream& out, const SummaryNotes& notes) {
    render_legend(out, notes);
    render_remarks(out, notes);
    render_warnings(out, notes);
}

}  // namespace

bool SummaryConsoleReporter::ReportContext(const Context&) { return true; }

void SummaryConsoleReporter::ReportRuns(const std::vector<Run>& runs) {
    auto named = without_time_suffix(runs);
    runs_.insert(runs_.end(), named.begin(), named.end());
}

void SummaryConsoleReporter::Finalize() {
    add_x_limit(runs_, index_);
    add_median_interval(runs_);
    std::vector<SummaryTable> tables = build_tables(runs_, outcomes_, index_);
    std::ostream& out = GetOutputStream();
    std::size_t failed_rows = 0;
    for (const SummaryTable& t : tables)
        for (const SummaryRow& r : t.rows) failed_rows += r.outcome.status == Status::failed;
    out << "\nSummary: median wall time per run, "
        << (failed_rows == 0 ? std::string("every run verified")
                             : fmt::format("verified runs only ({} benchmark(s) FAILED, below)", failed_rows))
        << "\n";
    SummaryNotes notes;
    notes.instructions_source = instructions_source_;
    notes.under_valgrind = under_valgrind_ && instructions_source_ != "valgrind";
    if (stopping_rule_) {
        notes.stopping_rule = describe(*stopping_rule_, max_repetitions_);
        notes.max_repetitions = max_repetitions_;
        notes.rule = *stopping_rule_;
        for (const SummaryTable& t : tables)
            for (const SummaryRow& r : t.rows)
                if (r.outcome.ok() && r.repetitions > 0 && r.repetitions < max_repetitions_) {
                    notes.stopped_early[r.repetitions].push_back(r.structure.name);
                    if (r.budget_spent) notes.budget_spent.push_back(r.structure.name);
                }
    }
    notes.baseline_methods = baseline_methods_;
    if (!baseline_methods_.empty())
        for (SummaryTable& t : tables) {
            set_baselines(t, baseline_methods_);
            if (!t.has_baseline) notes.without_baseline.push_back(t.title);
        }
    for (const SummaryTable& t : tables) {
        note_new_pages(t, page_cost_ ? &*page_cost_ : nullptr, notes);
        note_kernel_part(t, notes);
    }
    for (const SummaryTable& t : tables) {
        render_table(out, table_text(t, notes));
        render_threads_tables(out, t);
        if (!baseline_methods_.empty()) render_baseline_percentiles(out, t);
    }
    render_notes(out, notes);
    if (const int failed = outcomes_.failed(); failed > 0)
        out << fmt::format("\n{} benchmark(s) FAILED; their rows carry the reason.\n", failed);
    if (!plugins_.empty()) {
        // A saved summary says what it measured too (the JSON lists them in its context).
        out << fmt::format("\nPlugins loaded (--plugin):\n");
        for (const LoadedPlugin& p : plugins_)
            out << fmt::format("  {}: {}{} (sha256 {})\n", registered_text(p), p.path,
                               p.owner.empty() ? "" : ", owned by " + p.owner, p.sha256.substr(0, 16));
    }
    if (!added_families_.empty()) {
        // A family compiled by another compiler than iobench's: its rows compare compilers too.
        out << fmt::format("\nFamilies built into this executable (iobench_add_executable):\n");
        const std::string_view ours = build_identity().compiler;
        for (const FamilyBuild& f : added_families_)
            out << fmt::format("  {}: {}, {}{}{}\n", f.family, f.compiler, f.build_type,
                               added_flags_.empty() ? "" : ", flags " + added_flags_,
                               f.compiler == ours ? std::string()
                                                  : fmt::format("; not iobench's compiler ({}): its rows compare "
                                                                "compilers as well as methods",
                                                                ours));
    }
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

void add_median_interval(std::vector<Run>& runs) {
    // Each benchmark's repetitions: their time per run in the unit of the row.
    std::map<std::string, std::vector<double>> times;
    for (const Run& r : runs)
        if (r.run_type == Run::RT_Iteration && !r.error_occurred)
            times[r.run_name.str()].push_back(r.GetAdjustedRealTime());
    for (Run& r : runs) {
        if (r.run_type != Run::RT_Aggregate || r.aggregate_name != "median" || r.error_occurred) continue;
        auto it = times.find(r.run_name.str());
        if (it == times.end()) continue;
        std::vector<double>& sorted = it->second;
        std::sort(sorted.begin(), sorted.end());
        const int n = static_cast<int>(sorted.size());
        const int k = median_interval_rank(n, rules::confidence);
        if (k == 0) continue;
        r.counters["median_ci_low"] = sorted[static_cast<std::size_t>(k - 1)];
        r.counters["median_ci_high"] = sorted[static_cast<std::size_t>(n - k)];
    }
}

}  // namespace iobench
