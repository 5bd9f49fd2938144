// A suite's stopping rule (core/measure/stopping_rule.hpp): the decision on a
// sequence of times, the runner that applies it on Google Benchmark, and the
// reporters that leave the repetitions not run out of everything.
#include <benchmark/benchmark.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "core/measure/median_interval.hpp"
#include "core/measure/stopping_rule.hpp"
#include "core/report/report.hpp"
#include "core/report/report_runs.hpp"
#include "runner_support.hpp"

namespace iobench {
namespace {

using namespace test;
using Row = benchmark::BenchmarkReporter::Run;

/// The number of repetitions after which `rule` ends a benchmark whose
/// repetitions take `times` per run, one after the other, with at most
/// `most`; std::nullopt when it never does (the benchmark runs all `most`).
std::optional<int> stops_after(const std::vector<double>& times, const StoppingRule& rule, int most) {
    std::vector<double> so_far;
    for (double t : times) {
        if (static_cast<int>(so_far.size()) == most) break;
        so_far.push_back(t);
        if (interval_is_tight(so_far, rule)) return static_cast<int>(so_far.size());
    }
    return std::nullopt;
}

TEST(StoppingRule, TheIntervalIsTheSummarysHalfWidthOverTheMedian) {
    // Fewer than 6 times have no 95 % interval of their median.
    EXPECT_EQ(relative_median_interval(std::vector<double>{100, 100, 100, 100, 100}), std::nullopt);
    EXPECT_EQ(min_samples_for_median_interval, 6);
    EXPECT_EQ(median_interval_rank(min_samples_for_median_interval - 1, median_interval_level), 0);
    EXPECT_GT(median_interval_rank(min_samples_for_median_interval, median_interval_level), 0);
    // 6 times: [x_(1), x_(6)] around the median (the mean of the middle two,
    // as Google Benchmark's median aggregate): the wider side counts.
    EXPECT_DOUBLE_EQ(*relative_median_interval(std::vector<double>{101, 98, 100, 102, 100, 99}), 0.02);
    EXPECT_DOUBLE_EQ(*relative_median_interval(std::vector<double>{100, 100, 100, 100, 100, 130}), 0.3);
    EXPECT_DOUBLE_EQ(*relative_median_interval(std::vector<double>{90, 100, 100, 110, 110, 110}), 15.0 / 105);
    // 9 times: [x_(2), x_(8)]; the smallest and the largest are left out.
    EXPECT_DOUBLE_EQ(*relative_median_interval(std::vector<double>{1, 100, 100, 100, 100, 100, 100, 101, 500}), 0.01);
    EXPECT_EQ(relative_median_interval(std::vector<double>{0, 0, 0, 0, 0, 0}), std::nullopt);  // no median to scale by
}

TEST(StoppingRule, AStableBenchmarkStopsAtTheFewestRepetitions) {
    const StoppingRule rule{6, 0.02};
    EXPECT_EQ(stops_after({100, 101, 99, 100, 100, 101, 100, 100, 100}, rule, 9), 6);
    // The bound is inclusive: ±2 % exactly is tight.
    EXPECT_EQ(stops_after({100, 98, 102, 100, 100, 100, 100, 100, 100}, rule, 9), 6);
    EXPECT_EQ(stops_after({100, 97, 103, 100, 100, 100, 100, 100}, rule, 8), std::nullopt);
}

TEST(StoppingRule, FewerThanTheFewestNeverStop) {
    // Identical times are tight from the sixth on, but the rule asks for 8.
    const std::vector<double> same(12, 100.0);
    EXPECT_EQ(stops_after(same, StoppingRule{8, 0.02}, 12), 8);
    for (int n = 1; n < 8; ++n)
        EXPECT_FALSE(interval_is_tight(std::vector<double>(static_cast<std::size_t>(n), 100.0), StoppingRule{8, 0.02}))
            << n;
}

TEST(StoppingRule, AnOutlierKeepsGoingUntilTheIntervalCanLeaveItOut) {
    // One repetition at twice the others: up to 8 repetitions the 95 %
    // interval is [x_(1), x_(n)] and holds it; from 9 on it is [x_(2), x_(n-1)].
    const std::vector<double> times = {100, 100, 200, 100, 100, 100, 100, 100, 100, 100, 100, 100};
    EXPECT_EQ(stops_after(times, StoppingRule{6, 0.02}, 12), 9);
    EXPECT_EQ(stops_after(times, StoppingRule{6, 0.02}, 8), std::nullopt);  // at most 8: all of them run
}

TEST(StoppingRule, ASpreadBenchmarkNeverStopsAndRunsTheMost) {
    std::vector<double> times;
    for (int i = 0; i < 30; ++i) times.push_back(i % 2 ? 100 : 110);  // ±4.8 % around 105
    EXPECT_EQ(stops_after(times, StoppingRule{6, 0.02}, 30), std::nullopt);
    EXPECT_EQ(stops_after(times, StoppingRule{6, 0.05}, 30), 6);
}

TEST(StoppingRule, ASpentBudgetEndsABenchmarkOnlyAfterTheFewest) {
    const StoppingRule rule{6, 0.02, 60};
    const std::vector<double> spread = {100, 110, 100, 110, 100, 110, 100};  // ±4.8 %: never tight
    const std::vector<double> tight(6, 100.0);
    // Fewer than the fewest: the budget, however spent, ends nothing.
    EXPECT_EQ(stop_reason(std::span(spread).first(5), 1000, rule), StopReason::none);
    EXPECT_EQ(stop_reason(std::span(spread).first(6), 59.9, rule), StopReason::none);
    EXPECT_EQ(stop_reason(std::span(spread).first(6), 60, rule), StopReason::budget);  // inclusive
    EXPECT_EQ(stop_reason(spread, 61, rule), StopReason::budget);
    // A tight interval is the reason whenever it is one, spent or not.
    EXPECT_EQ(stop_reason(tight, 0, rule), StopReason::interval);
    EXPECT_EQ(stop_reason(tight, 1000, rule), StopReason::interval);
    // No budget (0): only the interval ends a benchmark.
    EXPECT_EQ(stop_reason(spread, 1e9, StoppingRule{6, 0.02}), StopReason::none);
    // The fewest is the rule's, not 6.
    EXPECT_EQ(stop_reason(std::span(spread).first(6), 100, StoppingRule{7, 0.02, 60}), StopReason::none);
    EXPECT_EQ(stop_reason(spread, 100, StoppingRule{7, 0.02, 60}), StopReason::budget);
}

TEST(StoppingRule, SaysItselfInWords) {
    EXPECT_EQ(describe(StoppingRule{6, 0.02}, 9),
              "at least 6 and at most 9 repetitions; a benchmark stops once the 95 % interval of its median is "
              "within ±2 % of the median");
    EXPECT_EQ(describe(StoppingRule{7, 0.025}, 12),
              "at least 7 and at most 12 repetitions; a benchmark stops once the 95 % interval of its median is "
              "within ±2.5 % of the median");
    EXPECT_EQ(describe(StoppingRule{6, 0.025, 60}, 9),
              "at least 6 and at most 9 repetitions; a benchmark stops once the 95 % interval of its median is "
              "within ±2.5 % of the median, or once its repetitions have taken 60 s (wall time, with their resets "
              "and verification)");
    EXPECT_TRUE(can_stop_early(StoppingRule{6, 0.02}, 9));
    EXPECT_FALSE(can_stop_early(StoppingRule{6, 0.02}, 6));
    EXPECT_FALSE(can_stop_early(StoppingRule{6, 0.02}, 1));  // --instructions' single repetition
}

/// The iteration rows of `runs` named `name`.
std::vector<Row> iterations_of(const std::vector<Row>& runs, const std::string& name) {
    std::vector<Row> out;
    for (const Row& r : runs)
        if (r.run_type == Row::RT_Iteration && r.run_name.function_name == name) out.push_back(r);
    return out;
}

/// The aggregate rows of `runs` named `name`.
std::vector<Row> aggregates_of(const std::vector<Row>& runs, const std::string& name) {
    std::vector<Row> out;
    for (const Row& r : runs)
        if (r.run_type == Row::RT_Aggregate && r.run_name.function_name == name) out.push_back(r);
    return out;
}

/// `runs` of one benchmark handed to `tee` as Google Benchmark hands them:
/// its repetitions at once, then its aggregates.
void report_as_google_benchmark(TeeReporter& tee, const std::vector<Row>& runs, const std::string& name) {
    tee.ReportRuns(iterations_of(runs, name));
    if (const auto aggregates = aggregates_of(runs, name); !aggregates.empty()) tee.ReportRuns(aggregates);
}

TEST(StoppingRule, GoogleBenchmarkCallsTheRestWhichReturnAtOnceAndLeaveNoTrace) {
    // hello/limit, 9 repetitions at most, a rule no run of it can miss (an
    // interval within 10^9 times the median; a suite's is below 1): it stops at 6.
    const Case c = make_case("hello", "limit");
    const Ran ran = run_all({c}, 1e-4, 9, Session::default_time_limit, StoppingRule{6, 1e9});
    ASSERT_NE(ran.outcomes.find(c.name), nullptr);
    EXPECT_TRUE(ran.outcomes.find(c.name)->ok()) << ran.outcomes.find(c.name)->reason;

    // What Google Benchmark 1.7 reports: 9 repetitions, the last 3 errors
    // with not_run_message and the iteration count of the others (its CHECK).
    const std::vector<Row> reps = iterations_of(ran.runs, c.name);
    ASSERT_EQ(reps.size(), 9u);
    std::vector<double> times;
    for (const Row& r : reps) {
        EXPECT_EQ(r.iterations, reps.front().iterations);
        if (r.repetition_index < 6) {
            EXPECT_FALSE(r.error_occurred) << r.error_message;
            times.push_back(r.GetAdjustedRealTime());
        } else {
            EXPECT_TRUE(report_runs::not_run(r)) << r.repetition_index << ": " << r.error_message;
        }
    }
    ASSERT_EQ(times.size(), 6u);
    std::sort(times.begin(), times.end());
    // Its aggregates are over the 6 that ran (the errors are left out of the
    // statistics), but count 9 as their iterations and repetitions.
    // The time per run of a median or mean aggregate: the statistic of the 6.
    auto expect_statistic_of_the_six = [&](const Row& a) {
        if (a.aggregate_name == "median") {
            EXPECT_NEAR(a.GetAdjustedRealTime(), (times[2] + times[3]) / 2, 1e-9 * times[3]);
        }
        if (a.aggregate_name == "mean") {
            double sum = 0;
            for (double t : times) sum += t;
            EXPECT_NEAR(a.GetAdjustedRealTime(), sum / 6, 1e-9 * times[5]);
        }
    };
    const std::vector<Row> aggregates = aggregates_of(ran.runs, c.name);
    ASSERT_EQ(aggregates.size(), 4u);  // mean, median, stddev, cv
    for (const Row& a : aggregates) {
        EXPECT_EQ(a.iterations, 9);
        EXPECT_EQ(a.repetitions, 9);
        expect_statistic_of_the_six(a);
    }

    // Through iobench's reporters: 6 repetitions, aggregates that say 6, no error.
    for (bool aggregates_only : {false, true}) {
        Collector display, file;
        TeeReporter tee(display, &file, false, aggregates_only);
        report_as_google_benchmark(tee, ran.runs, c.name);
        tee.Finalize();
        for (const Row& r : file.all) {
            EXPECT_FALSE(r.error_occurred) << r.error_message;
            EXPECT_EQ(r.repetitions, 6);
            if (r.run_type == Row::RT_Aggregate) {
                EXPECT_EQ(r.iterations, 6) << r.aggregate_name;
                expect_statistic_of_the_six(r);  // still (not 9/6 of it)
            }
        }
        EXPECT_EQ(iterations_of(file.all, c.name).size(), aggregates_only ? 0u : 6u);
        EXPECT_EQ(iterations_of(display.all, c.name).size(), aggregates_only ? 0u : 6u);
        EXPECT_EQ(aggregates_of(file.all, c.name).size(), 4u);
    }
}

TEST(StoppingRule, ABenchmarkThatNeverMeetsItRunsTheMostAndNoMore) {
    // A target no two runs meet (±1e-12): all 7 repetitions run, none is left out.
    const Case c = make_case("hello", "limit");
    const Ran ran = run_all({c}, 1e-4, 7, Session::default_time_limit, StoppingRule{6, 1e-12});
    const std::vector<Row> reps = iterations_of(ran.runs, c.name);
    ASSERT_EQ(reps.size(), 7u);
    for (const Row& r : reps) EXPECT_FALSE(r.error_occurred) << r.error_message;
    for (const Row& a : aggregates_of(ran.runs, c.name)) EXPECT_EQ(a.repetitions, 7);
    EXPECT_FALSE(ran.outcomes.budget_spent(c.name));
}

TEST(StoppingRule, ASpentTimeBudgetEndsAnUntightBenchmarkAtTheFewest) {
    // The same untight target, and a budget every repetition spends (1 ns):
    // 6 of 9 run, the rest are not run, and the outcomes say why.
    const Case c = make_case("hello", "limit");
    const Ran ran = run_all({c}, 1e-4, 9, Session::default_time_limit, StoppingRule{6, 1e-12, 1e-9});
    const std::vector<Row> reps = iterations_of(ran.runs, c.name);
    ASSERT_EQ(reps.size(), 9u);
    for (const Row& r : reps)
        EXPECT_EQ(report_runs::not_run(r), r.repetition_index >= 6) << r.repetition_index << ": " << r.error_message;
    ASSERT_NE(ran.outcomes.find(c.name), nullptr);
    EXPECT_TRUE(ran.outcomes.find(c.name)->ok()) << ran.outcomes.find(c.name)->reason;
    EXPECT_TRUE(ran.outcomes.budget_spent(c.name));
    // A budget no run spends (a day): all 9 run.
    const Ran unspent = run_all({c}, 1e-4, 9, Session::default_time_limit, StoppingRule{6, 1e-12, 86400});
    for (const Row& r : iterations_of(unspent.runs, c.name)) EXPECT_FALSE(r.error_occurred) << r.error_message;
    EXPECT_EQ(iterations_of(unspent.runs, c.name).size(), 9u);
    EXPECT_FALSE(unspent.outcomes.budget_spent(c.name));
}

/// Repetition `index` of `name` (of `of`), `ms` a run, labelled `label`;
/// not run (an error with not_run_message) when `ms` is 0.
Row repetition(const std::string& name, int index, int of, double ms, const std::string& label = "") {
    Row r = single_run(name, ms / 1e3, 0);
    r.repetitions = of;
    r.repetition_index = index;
    r.report_label = label;
    if (ms == 0) {
        r.error_occurred = true;
        r.error_message = std::string(not_run_message);
        r.report_label.clear();
    }
    return r;
}

TEST(StoppingRule, TheTeeDropsTheRepetitionsNotRunAndCountsTheOthers) {
    // a: 6 of 9 ran, with a label (a cold row's), which Google Benchmark's
    // aggregates lose to the 3 not run; b: 3 of 3 ran, no rule met: untouched.
    std::vector<Row> a;
    for (int i = 0; i < 9; ++i) a.push_back(repetition("a", i, 9, i < 6 ? 10.0 + i : 0, "cache dropped"));
    std::vector<Row> a_aggregates;
    for (const char* name : {"mean", "median"}) {
        Row g = single_run("a", 0.0125, 0);
        g.run_type = Row::RT_Aggregate;
        g.aggregate_name = name;
        g.repetitions = 9;
        g.iterations = 9;
        a_aggregates.push_back(g);
    }
    std::vector<Row> b;
    for (int i = 0; i < 3; ++i) b.push_back(repetition("b", i, 3, 20.0));
    for (bool display_only : {false, true}) {
        Collector display, file;
        TeeReporter tee(display, &file, display_only);
        tee.ReportRuns(a);
        tee.ReportRuns(a_aggregates);
        tee.ReportRuns(b);
        tee.Finalize();
        ASSERT_EQ(file.all.size(), 6u + 2u + 3u);
        for (const Row& r : file.all) {
            EXPECT_FALSE(r.error_occurred);
            if (r.run_name.str() == "a") {
                EXPECT_EQ(r.repetitions, 6);
                EXPECT_EQ(r.report_label, "cache dropped");
                if (r.run_type == Row::RT_Aggregate) {
                    EXPECT_EQ(r.iterations, 6);
                }
            } else {
                EXPECT_EQ(r.repetitions, 3);  // nothing dropped: as Google Benchmark gave it
            }
        }
        EXPECT_EQ(display.all.size(), display_only ? 2u + 3u : 6u + 2u + 3u);
    }
}

TEST(StoppingRule, TheSummaryNamesTheRowsThatRanFewerThanTheMost) {
    // a ran 6 of at most 9 (the tee counted them), b all 9.
    std::vector<Row> runs;
    for (const auto& [name, n] : {std::pair<std::string, int>{"hello/a", 6}, {"hello/b", 9}}) {
        for (int i = 0; i < n; ++i) runs.push_back(repetition(name, i, n, 10.0 + i));
        Row median = repetition(name, 0, n, 12.5);
        median.run_type = Row::RT_Aggregate;
        median.aggregate_name = "median";
        runs.push_back(median);
    }
    std::ostringstream out;
    const Outcomes outcomes;
    SummaryConsoleReporter reporter(outcomes, no_cases, benchmark::ConsoleReporter::OO_None);
    reporter.set_stopping_rule(StoppingRule{6, 0.02}, 9);
    reporter.SetOutputStream(&out);
    reporter.ReportRuns(runs);
    reporter.Finalize();
    const std::string expected =
        "- repetitions where fewer than 9 ran: 6 for hello/a (the suite's stopping rule: at least 6 and at most 9 "
        "repetitions; a benchmark stops once the 95 % interval of its median is within ±2 % of the median).\n";
    EXPECT_NE(out.str().find(expected), std::string::npos) << out.str();
    // Without the rule (every run before it, every golden summary) the note is not there.
    EXPECT_EQ(summary_of(runs).find("- repetitions where"), std::string::npos) << summary_of(runs);

    // A row that its time budget ended is named again, in a note of its own.
    std::ostringstream budget_out;
    Outcomes budget_outcomes;
    budget_outcomes.record("hello/a", Outcome{});
    budget_outcomes.record_budget_spent("hello/a");
    SummaryConsoleReporter budget_reporter(budget_outcomes, no_cases, benchmark::ConsoleReporter::OO_None);
    budget_reporter.set_stopping_rule(StoppingRule{6, 0.02, 60}, 9);
    budget_reporter.SetOutputStream(&budget_out);
    budget_reporter.ReportRuns(runs);
    budget_reporter.Finalize();
    const std::string budget_expected =
        "- repetitions where fewer than 9 ran: 6 for hello/a (the suite's stopping rule: at least 6 and at most 9 "
        "repetitions; a benchmark stops once the 95 % interval of its median is within ±2 % of the median, or once "
        "its repetitions have taken 60 s (wall time, with their resets and verification)).\n"
        "- of those, ended by the time budget (60 s) with their interval still wider than ±2 %: hello/a.\n";
    EXPECT_NE(budget_out.str().find(budget_expected), std::string::npos) << budget_out.str();
}

}  // namespace
}  // namespace iobench
