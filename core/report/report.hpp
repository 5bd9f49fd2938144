// Reporters: Google Benchmark's console and JSON formats, with benchmark names
// kept exactly `<workload>/<method>[/<param>:<value>]` (Google Benchmark would
// append "/manual_time"), plus a summary table at the end of the run.
// Defined in core/report/row_structure.cpp (RowStructure, CaseIndex, add_x_limit),
// core/report/summary.cpp (SummaryConsoleReporter, add_median_interval),
// core/report/json_report.cpp (NamedJSONReporter) and core/report/report.cpp (TeeReporter).
#pragma once

#include <benchmark/benchmark.h>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/engine/outcome.hpp"
#include "core/engine/suite.hpp"
#include "core/measure/median_interval.hpp"
#include "core/measure/stopping_rule.hpp"
#include "core/os/page_supply.hpp"
#include "core/plugins/plugins.hpp"
#include "core/report/number_format.hpp"

namespace iobench {

/// What a benchmark row is, from the Case that made it: the fields every row
/// of the results JSON carries (NamedJSONReporter), so no reader parses names.
struct RowStructure {
    std::string name;  ///< the benchmark name, `<workload>/<method>[/buf:<bytes>][/cache:<state>][/threads:<n>[/sink:<s>]]`
    std::string workload;  ///< Workload::name()
    std::string method;    ///< Method::name
    std::string family;    ///< Method::family
    bool reference = false;  ///< Method::reference: the `limit` rows
    /// Method::overwrites_existing: the `limit_overwrite` row, written over an
    /// existing file (x_limit is never taken against it).
    bool overwrites_existing = false;
    /// Method::copy_prepared: the `memcpy` row, which copies the bytes in
    /// memory and writes no file (x_limit is never taken against it).
    bool copies_in_memory = false;
    /// `/buf:` of the name in bytes (the suite swept the buffer size); 0 when the name has none.
    std::size_t buffer_size = 0;
    /// `/cache:` of the name, for workloads with a page-cache state.
    std::optional<CacheState> cache;
    /// `/threads:` of the name: a per-call row's threads (Params::threads); 0 for a whole-run row.
    unsigned threads = 0;
    /// `/sink:shared` (true) or `/sink:per_thread` (false), with threads > 1.
    bool shared_sink = false;
    /// The end of a per-call row's name after `/sink:`: its pacing and
    /// batching (pacing_suffix: `/rate:100000`, `/batch:20`); "" for a
    /// closed-loop row timed call by call.
    std::string pacing;
    std::uint64_t rate = 0;  ///< `/rate:` of the name (Params::rate); 0 for a closed-loop row
    unsigned burst = 0;      ///< `/burst:` of the name (Params::burst); 0 where none
    unsigned batch = 0;      ///< `/batch:` of the name (Params::batch); 0 where none
    std::string item_unit;  ///< Workload::item_unit() ("integer", "line", ...)
    bool compared_per_byte = false;  ///< Workload::compared_per_byte()
    /// Why the row has no read or write calls ("" when it has them):
    /// Method::calls_not_counted, else the platform's reason
    /// (calls_not_counted_here, core/os/os_counters.hpp: "not counted under wine: ...").
    std::string calls_not_counted;
    /// Method::process_counters: the row's counters are the whole process's.
    bool process_counters = false;
    /// Method::program: the row's counters are those of the method's program,
    /// a process of its own (docs/external-methods.md).
    bool program = false;

    /// The row's table in the summary, and the key that pairs it with its
    /// `limit` row: the workload and every parameter but the buffer size
    /// ("file_read/cache:cold", "hello").
    std::string table() const;
    /// The row's label within its table: the method and the parameters the
    /// table does not fix ("read/buf:4096").
    std::string label() const;
};

/// The structure of `c`'s rows.
RowStructure row_structure(const Case& c);

/// The structure of every case of a run, by benchmark name.
class CaseIndex {
public:
    CaseIndex() = default;
    explicit CaseIndex(const std::vector<Case>& cases);
    /// Adds (or replaces) the structure of the rows named `structure.name`:
    /// rows read back from a results file, whose rows carry their structure.
    void add(RowStructure structure);
    /// The structure of benchmark `name`, or nullptr when no case has that name.
    const RowStructure* find(std::string_view name) const;
    /// The structure of benchmark `name`; for a name no case has (rows made
    /// outside a suite), the whole name as its workload and its method: a
    /// table of its own. Names are never split.
    RowStructure structure(const std::string& name) const;

private:
    std::map<std::string, RowStructure, std::less<>> rows_;
};

/// Adds the counter `x_limit` (time per run / the median time per run of the
/// `limit` row of the same table, RowStructure::table()) to the iteration
/// rows and the mean and median aggregates of every non-reference row whose
/// table has a `limit` row that ran; a single repetition's own time stands
/// for its median. The one place x_limit is computed: the summary and the
/// results file read it from there.
void add_x_limit(std::vector<benchmark::BenchmarkReporter::Run>& runs, const CaseIndex& index);

/// Adds the counters `median_ci_low` and `median_ci_high` (the row's time
/// unit, as its real_time) to the median aggregate of every benchmark with
/// enough repetitions: the distribution-free interval of the median at
/// report_rules::confidence (median_interval_rank) of the repetitions' wall
/// times per run. The one place the interval is computed: the summary and
/// the results file read it from there (iobench-compare too, for one file).
void add_median_interval(std::vector<benchmark::BenchmarkReporter::Run>& runs);

/// The console report of a run: prints nothing while benchmarks run (the
/// runner's progress lines on stderr say what is running), then a summary
/// table per workload and page-cache state (file_read's warm and cold rows
/// are never ranked together; a cold table has a `cold/warm` column where the
/// same method ran warm): methods from fastest to slowest with the median wall
/// time per run, a 95 % confidence interval of the median (order statistics,
/// distribution-free; needs 6 repetitions or more), throughput, ratio to the
/// fastest method and to the table's `limit` reference row, the read or
/// write system calls per run and bytes per call (where they are not counted,
/// a note under the tables gives the reason: RowStructure::calls_not_counted),
/// system CPU time as a share of wall time, the coefficient of variation
/// across repetitions; the rows' labels (Trial::label: how a cold table's
/// pages were dropped) in a note per table; a row that
/// failed or was skipped at run time says so with the reason, from the
/// benchmark's Outcome (a row without a recorded outcome that reports an
/// error counts as failed); then the number of failed benchmarks
/// (Outcomes::failed) and the pairs skipped because their method is not
/// built here. Reference rows (Method::reference) are listed after the ranked
/// rows and never ranked; failed and skipped rows last. The columns are
/// generated/summary_columns.hpp's (tools/iobench_compare/spec/summary_columns.json), numbers written as
/// core/report/number_format.hpp says. Google Benchmark's context block is not
/// printed.
class SummaryConsoleReporter : public benchmark::ConsoleReporter {
public:
    /// `outcomes`: the runner's record of the run (register_benchmarks);
    /// `index`: the run's cases. Both must outlive the reporter.
    SummaryConsoleReporter(const Outcomes& outcomes, const CaseIndex& index, OutputOptions options)
        : benchmark::ConsoleReporter(options), outcomes_(outcomes), index_(index) {}
    bool ReportContext(const Context& context) override;
    void ReportRuns(const std::vector<Run>& runs) override;
    void Finalize() override;
    /// Benchmarks of the suite that did not run because their method is not
    /// built on this platform or configuration, listed last.
    void set_skipped(std::vector<Skipped> skipped) { skipped_ = std::move(skipped); }
    /// The plugins the run loaded, listed after the tables (families, path,
    /// the first 16 hex digits of the file's SHA-256).
    void set_plugins(std::vector<LoadedPlugin> plugins) { plugins_ = std::move(plugins); }
    /// --instructions: where the instr/item column's counts come from
    /// ("perf" or "valgrind"), said under the tables.
    void set_instructions_source(std::string source) { instructions_source_ = std::move(source); }
    /// --baseline-method: a column "x baseline" in each table with a row of
    /// one of `methods`: each row's time / the time of the first such
    /// method's row with the same parameters, else of its row without any
    /// (as iobench-compare pairs them); said under the tables.
    void set_baseline_methods(std::vector<std::string> methods) { baseline_methods_ = std::move(methods); }
    /// The families built into this executable (added_family_builds) and
    /// its flags (added_build_flags): listed after the tables, each saying
    /// when its compiler is not iobench's.
    void set_added_families(std::vector<FamilyBuild> families, std::string flags) {
        added_families_ = std::move(families);
        added_flags_ = std::move(flags);
    }
    /// What a new file's page-cache pages cost here (measure_page_cost): a
    /// note under the tables names each output table whose `limit` row's
    /// median time is mostly that cost (its bytes / 4 KiB x
    /// PageCost::new_page_ns at least half of it).
    void set_page_cost(std::optional<PageCost> cost) { page_cost_ = cost; }
    /// The run runs under valgrind (running_under_valgrind) without
    /// --instructions having started it: a note says every time, the
    /// per-call percentiles among them, is valgrind's.
    void set_under_valgrind(bool under) { under_valgrind_ = under; }
    /// The suite's stopping rule, which the run applied with at most `most`
    /// repetitions: a note under the tables names the rows that ran fewer,
    /// with their count. Without it the summary says nothing of it.
    void set_stopping_rule(const StoppingRule& rule, int most) {
        stopping_rule_ = rule;
        max_repetitions_ = most;
    }

private:
    const Outcomes& outcomes_;
    const CaseIndex& index_;
    std::optional<StoppingRule> stopping_rule_;
    int max_repetitions_ = 0;
    std::optional<PageCost> page_cost_;
    bool under_valgrind_ = false;
    std::vector<LoadedPlugin> plugins_;
    std::string instructions_source_;
    std::vector<std::string> baseline_methods_;
    std::vector<FamilyBuild> added_families_;
    std::string added_flags_;
    std::vector<Run> runs_;
    std::vector<Skipped> skipped_;
};

/// The skipped pairs as one line for the JSON context key "skipped":
/// "name: reason; name: reason" ("" when none).
std::string skipped_context(const std::vector<Skipped>& skipped);

/// The results file: Google Benchmark's own JSON format (its compare.py reads
/// it: the context's and each row's fields as its JSONReporter writes them,
/// json_report::google_benchmark_context and results_row), without the
/// "/manual_time" suffix, the context followed by iobench's own keys
/// (set_context) and the plugins, every row carrying its structure:
/// `workload`, `method`, `family`, `reference`, `params` (`buffer_size` in
/// bytes and `cache`, as far as the name has them), `item_unit` and
/// `compared_per` ("item" or "byte"), `calls_not_counted` (the reason, where
/// the method's I/O is no system call or the platform counts no call:
/// RowStructure::calls_not_counted), `counters_scope` ("process", where the
/// counters are the whole process's: Method::process_counters; "program",
/// where they are those of a program method's process: Method::program), and
/// `x_limit` (add_x_limit); the median rows carry `median_ci_low` and
/// `median_ci_high` (add_median_interval). The document is built once, as a
/// JSON value, from every row held until Finalize, which writes it to `out`
/// (strings that are not UTF-8 get U+FFFD for their bad bytes).
class NamedJSONReporter : public benchmark::BenchmarkReporter {
public:
    /// `index`: the run's cases; it must outlive the reporter.
    NamedJSONReporter(const CaseIndex& index, std::ostream& out);
    ~NamedJSONReporter() override;
    /// iobench's keys of the context (the environment, the run's settings),
    /// written after Google Benchmark's own, by key.
    void set_context(std::map<std::string, std::string> context) { extra_context_ = std::move(context); }
    /// The plugins the run loaded: listed in the context as "plugins" (path,
    /// sha256, built_with, families, methods), which is left out when empty.
    void set_plugins(const std::vector<LoadedPlugin>& plugins) { plugins_ = plugins; }
    /// The families built into this executable (added_family_builds) and its
    /// flags (added_build_flags): listed in the context as "added_families",
    /// which is left out when empty.
    void set_added_families(std::vector<FamilyBuild> families, std::string flags) {
        added_families_ = std::move(families);
        added_flags_ = std::move(flags);
    }
    bool ReportContext(const Context& context) override;
    void ReportRuns(const std::vector<Run>& runs) override;
    void Finalize() override;

private:
    const CaseIndex& index_;
    std::ostream& out_;
    std::map<std::string, std::string> extra_context_;
    std::vector<LoadedPlugin> plugins_;
    std::vector<FamilyBuild> added_families_;
    std::string added_flags_;
    // Google Benchmark's fields (ReportContext); held by pointer so that this
    // header, which the summary and main include, needs only json_fwd.hpp.
    std::unique_ptr<nlohmann::ordered_json> context_;
    std::vector<Run> runs_;
};

/// Hands every report to the console reporter and to the results file's
/// reporter. Google Benchmark gets no file reporter (it would open the file
/// itself, unchecked), so it treats this one as its display reporter: the
/// file gets every run, and the console only the aggregates of a benchmark
/// that has them when `display_aggregates_only`
/// (--benchmark_display_aggregates_only, applied here); with
/// `file_aggregates_only` (--benchmark_report_aggregates_only, applied here
/// too, with `display_aggregates_only`) the file likewise. `file` may be null
/// (no results file). Repetitions not run because their benchmark met the
/// suite's stopping rule (report_runs::not_run) reach neither reporter, and
/// the aggregates of such a benchmark say how many ran
/// (report_runs::count_repetitions_that_ran): before anything is computed
/// or written, nothing of them is left.
class TeeReporter : public benchmark::BenchmarkReporter {
public:
    TeeReporter(benchmark::BenchmarkReporter& display, benchmark::BenchmarkReporter* file,
                bool display_aggregates_only, bool file_aggregates_only = false)
        : display_(display),
          file_(file),
          display_aggregates_only_(display_aggregates_only || file_aggregates_only),
          file_aggregates_only_(file_aggregates_only) {}
    bool ReportContext(const Context& context) override;
    void ReportRuns(const std::vector<Run>& runs) override;
    void Finalize() override;

private:
    void show_held();

    benchmark::BenchmarkReporter& display_;
    benchmark::BenchmarkReporter* file_;
    bool display_aggregates_only_;
    bool file_aggregates_only_;
    std::vector<Run> held_;  // the latest runs, owed to an aggregates-only reporter unless aggregates follow
    std::vector<Run> ran_;   // the latest benchmark's repetitions that ran
    bool ran_dropped_ = false;  // some of its repetitions were not run
};

}  // namespace iobench
