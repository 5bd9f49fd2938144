// What the runner, report and OS-counter tests share: running cases on
// Google Benchmark and collecting its rows, the summary of some rows, rows
// made by hand.
#pragma once

#include <benchmark/benchmark.h>
#include <gtest/gtest.h>

#include <initializer_list>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <iobench/method.hpp>
#include "core/engine/outcome.hpp"
#include "core/engine/runner.hpp"
#include "core/engine/session.hpp"
#include "core/engine/suite.hpp"
#include "core/report/report.hpp"
#include "test_dir.hpp"

namespace iobench::test {

/// Collects the runs Google Benchmark reports.
class Collector : public benchmark::BenchmarkReporter {
public:
    bool ReportContext(const Context&) override { return true; }
    void ReportRuns(const std::vector<Run>& runs) override { all.insert(all.end(), runs.begin(), runs.end()); }
    std::vector<Run> all;
};

/// What a run of some cases gave: Google Benchmark's rows and the runner's outcomes.
struct Ran {
    std::vector<Case> cases;
    std::vector<benchmark::BenchmarkReporter::Run> runs;
    Outcomes outcomes;
};

/// The structure of no case: each row is then a table of its own, named as the row.
inline const CaseIndex no_cases;

/// The structure of rows made by hand: `<workload>/<method>` for each pair,
/// a registered method's reference fields as the registry has them.
inline CaseIndex index_of(std::initializer_list<std::pair<std::string, std::string>> rows) {
    CaseIndex index;
    for (const auto& [workload, method] : rows) {
        RowStructure s;
        s.name = workload + "/" + method;
        s.workload = workload;
        s.method = method;
        // What the registry says of a registered method (the references: limit,
        // limit_overwrite, memcpy); a name it lacks is a method like any other.
        if (const Method* m = find_method(method)) {
            s.reference = m->reference;
            s.overwrites_existing = m->overwrites_existing;
            s.copies_in_memory = m->copy_prepared.present();
        }
        index.add(std::move(s));
    }
    return index;
}

/// The console summary of `runs` (no outcomes recorded; `index`: what the rows are).
inline std::string summary_of(const std::vector<benchmark::BenchmarkReporter::Run>& runs,
                              const std::string& instructions_source = "", const CaseIndex& index = no_cases) {
    std::ostringstream out;
    const Outcomes outcomes;
    SummaryConsoleReporter reporter(outcomes, index, benchmark::ConsoleReporter::OO_None);
    if (!instructions_source.empty()) reporter.set_instructions_source(instructions_source);
    reporter.SetOutputStream(&out);
    reporter.SetErrorStream(&out);
    reporter.ReportRuns(runs);
    reporter.Finalize();
    return out.str();
}

/// A single-repetition row of benchmark `name` as Google Benchmark reports it:
/// one run of `seconds`, in the suite's position `family` (its family_index).
inline benchmark::BenchmarkReporter::Run single_run(const std::string& name, double seconds, int family) {
    benchmark::BenchmarkReporter::Run r;
    r.run_name.function_name = name;
    r.family_index = family;
    r.iterations = 1;
    r.repetitions = 1;
    r.time_unit = benchmark::kMillisecond;
    r.real_accumulated_time = seconds;
    return r;
}

/// A row of benchmark `name` as Google Benchmark reports it with `repetitions`
/// repetitions: repetition `index` (RT_Iteration) or the aggregate named
/// `aggregate` (RT_Aggregate), one run of `seconds`.
inline benchmark::BenchmarkReporter::Run repetition_row(const std::string& name,
                                                        benchmark::BenchmarkReporter::Run::RunType type,
                                                        const char* aggregate, double seconds, int repetitions,
                                                        int index) {
    benchmark::BenchmarkReporter::Run r;
    r.run_name.function_name = name;
    r.run_type = type;
    r.aggregate_name = aggregate;
    r.iterations = 1;
    r.repetitions = repetitions;
    r.repetition_index = index;
    r.time_unit = benchmark::kMillisecond;
    r.real_accumulated_time = seconds;
    return r;
}

/// Three repetitions of hello/limit (10 ms a run on a CPU; the third took
/// 3.01 s of wall time: 3 s off a CPU that no cpu_wait or steal_time
/// explains) and of hello/fwrite (as varied in wall time, but its CPU time,
/// or its waiting for a CPU, accounts for it), with their median rows.
inline std::vector<benchmark::BenchmarkReporter::Run> stopped_limit_and_busy_fwrite() {
    using Run = benchmark::BenchmarkReporter::Run;
    auto row = [](const std::string& name, Run::RunType type, const char* aggregate, double wall, double cpu,
                  double wait, int index) {
        Run r;
        r.run_name.function_name = name;
        r.run_type = type;
        r.aggregate_name = aggregate;
        r.iterations = 1;
        r.repetitions = 3;
        r.repetition_index = index;
        r.time_unit = benchmark::kMillisecond;
        r.real_accumulated_time = wall;
        r.counters["user_time"] = cpu * 0.8;
        r.counters["system_time"] = cpu * 0.2;
        r.counters["cpu_wait"] = wait;
        return r;
    };
    std::vector<Run> runs;
    runs.push_back(row("hello/limit", Run::RT_Iteration, "", 0.010, 0.0095, 0, 0));
    runs.push_back(row("hello/limit", Run::RT_Iteration, "", 0.011, 0.0100, 0, 1));
    runs.push_back(row("hello/limit", Run::RT_Iteration, "", 3.010, 0.0098, 0, 2));
    runs.push_back(row("hello/limit", Run::RT_Aggregate, "median", 0.011, 0.0098, 0, 0));
    runs.push_back(row("hello/fwrite", Run::RT_Iteration, "", 0.020, 0.019, 0, 0));
    runs.push_back(row("hello/fwrite", Run::RT_Iteration, "", 0.060, 0.059, 0, 1));  // more work on a CPU
    runs.push_back(row("hello/fwrite", Run::RT_Iteration, "", 0.100, 0.020, 0.079, 2));  // waited for a CPU
    runs.push_back(row("hello/fwrite", Run::RT_Aggregate, "median", 0.060, 0.020, 0.010, 0));  // last
    return runs;
}

/// Runs `cases` on Google Benchmark (each `repetitions` times, at most, with
/// a stopping `rule`; 0.01 s of measured time) at `scale`, a program method's
/// process given `time_limit` seconds: the rows and the outcomes.
inline Ran run_all(const std::vector<Case>& cases, double scale = 1e-4, int repetitions = 1,
                   double time_limit = Session::default_time_limit,
                   const std::optional<StoppingRule>& rule = std::nullopt) {
    static const bool initialized = [] {
        // Short runs: these tests check what is reported, not how fast.
        static char arg0[] = "iobench_tests";
        static char min_time[] = "--benchmark_min_time=0.01";
        char* argv[] = {arg0, min_time, nullptr};
        int argc = 2;
        benchmark::Initialize(&argc, argv);
        return true;
    }();
    (void)initialized;
    test::TempDir dir;
    Session session(dir.path(), scale, false);
    session.set_time_limit(time_limit);
    benchmark::ClearRegisteredBenchmarks();
    Ran ran;
    ran.cases = cases;
    register_benchmarks(cases, session, ran.outcomes, repetitions, 0.01, rule);
    Collector collector;
    benchmark::RunSpecifiedBenchmarks(&collector);
    benchmark::ClearRegisteredBenchmarks();
    ran.runs = collector.all;
    return ran;
}

/// Google Benchmark's rows of a run of `cases`.
inline std::vector<benchmark::BenchmarkReporter::Run> run_cases(const std::vector<Case>& cases, double scale = 1e-4) {
    return run_all(cases, scale).runs;
}

inline Case make_case(const char* workload, const char* method, std::size_t buffer_size = 0) {
    const Workload* w = find_workload(workload);
    const Method* m = find_method(method);
    Params p;
    p.buffer_size = buffer_size;
    return {w, m, p, case_name(*w, *m, p)};
}

/// The counter `name` of the only run in `runs` (which must have passed).
inline double counter_of(const std::vector<benchmark::BenchmarkReporter::Run>& runs, const char* name) {
    EXPECT_EQ(runs.size(), 1u);
    if (runs.empty()) return -1;
    EXPECT_FALSE(runs[0].error_occurred) << runs[0].error_message;
    const auto it = runs[0].counters.find(name);
    EXPECT_NE(it, runs[0].counters.end()) << "no counter " << name;
    return it == runs[0].counters.end() ? -1 : it->second.value;
}

}  // namespace iobench::test
