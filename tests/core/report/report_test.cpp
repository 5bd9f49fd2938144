// The reporters: the console summary (its tables, columns and notes, from
// rows made by hand or run), the tee between console and results file, the
// median's interval. The summary's whole text: summary_golden_test.cpp.
#include <benchmark/benchmark.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <iobench/detail_identity.hpp>

#include "core/os/environment.hpp"
#include "core/os/page_supply.hpp"
#include "core/report/report_rules.hpp"
#include "runner_support.hpp"

namespace iobench {
namespace {

using namespace test;


TEST(Report, TeeGivesTheFileEveryRunAndTheDisplayOnlyAggregatesWhenAsked) {
    using Run = benchmark::BenchmarkReporter::Run;
    auto row = [](const char* name, Run::RunType type) {
        Run r;
        r.run_name.function_name = name;
        r.run_type = type;
        return r;
    };
    for (bool aggregates_only : {false, true}) {
        Collector display, file;
        TeeReporter tee(display, &file, aggregates_only);
        // a: two repetitions and their aggregate; b: a single run, no aggregate.
        tee.ReportRuns({row("a", Run::RT_Iteration), row("a", Run::RT_Iteration)});
        tee.ReportRuns({row("a", Run::RT_Aggregate)});
        tee.ReportRuns({row("b", Run::RT_Iteration)});
        tee.Finalize();
        EXPECT_EQ(file.all.size(), 4u);
        if (!aggregates_only) {
            EXPECT_EQ(display.all.size(), 4u);
            continue;
        }
        // The display gets a's aggregate instead of its runs, and b's run (it has no aggregate).
        ASSERT_EQ(display.all.size(), 2u);
        EXPECT_EQ(display.all[0].run_name.function_name, "a");
        EXPECT_EQ(display.all[0].run_type, Run::RT_Aggregate);
        EXPECT_EQ(display.all[1].run_name.function_name, "b");
    }
    Collector display;
    TeeReporter no_file(display, nullptr, false);  // no results file: the display alone
    no_file.ReportRuns({row("a", Run::RT_Iteration)});
    EXPECT_EQ(display.all.size(), 1u);
}

TEST(Report, TheMediansIntervalIsComputedOnceAndWrittenIntoTheMedianRow) {
    using Run = benchmark::BenchmarkReporter::Run;
    // Times per run of 6 and of 5 repetitions (ms): at 95 % the interval of 6
    // is [x_(1), x_(6)], the smallest and the largest; 5 have none.
    auto rows = [](const char* name, std::vector<double> ms) {
        std::vector<Run> runs;
        for (std::size_t i = 0; i < ms.size(); ++i) {
            Run r = single_run(name, ms[i] / 1e3, 0);
            r.repetitions = static_cast<std::int64_t>(ms.size());
            r.repetition_index = static_cast<std::int64_t>(i);
            runs.push_back(r);
        }
        Run median = single_run(name, 0.0125, 0);
        median.run_type = Run::RT_Aggregate;
        median.aggregate_name = "median";
        median.repetitions = static_cast<std::int64_t>(ms.size());
        runs.push_back(median);
        return runs;
    };
    std::vector<Run> runs = rows("ints_out/obuf", {14, 11, 12, 13, 10, 20});
    const std::vector<Run> five = rows("ints_out/fwrite", {14, 11, 12, 13, 10});
    runs.insert(runs.end(), five.begin(), five.end());

    std::ostringstream file;
    NamedJSONReporter json(no_cases, file);
    json.ReportContext(benchmark::BenchmarkReporter::Context());
    json.ReportRuns(runs);
    json.Finalize();
    const nlohmann::json doc = nlohmann::json::parse(file.str());
    int medians = 0;
    for (const auto& row : doc.at("benchmarks")) {
        const bool median = row.value("aggregate_name", "") == "median";
        medians += median;
        if (median && row.at("run_name") == "ints_out/obuf") {
            EXPECT_DOUBLE_EQ(row.at("median_ci_low").get<double>(), 10.0) << row;  // ms, as real_time
            EXPECT_DOUBLE_EQ(row.at("median_ci_high").get<double>(), 20.0) << row;
        } else {
            EXPECT_FALSE(row.contains("median_ci_low")) << row;  // a repetition, or too few of them
            EXPECT_FALSE(row.contains("median_ci_high")) << row;
        }
    }
    EXPECT_EQ(medians, 2);
    // The summary shows that interval: 12.5 ms, at most 20 ms: +/-60.0%.
    const std::string text = summary_of(runs);
    EXPECT_NE(text.find("\xC2\xB1" "60.0%!"), std::string::npos) << text;
}

TEST(Report, SkippedPairsAreListedWithTheirReason) {
    std::ostringstream out;
    const Outcomes outcomes;
    SummaryConsoleReporter reporter(outcomes, no_cases, benchmark::ConsoleReporter::OO_None);
    reporter.SetOutputStream(&out);
    reporter.SetErrorStream(&out);
    reporter.set_skipped({{"hello/fwrite_unlocked", "fwrite_unlocked is not in this C library"},
                          {"ints_out/boost_iostreams", "Boost.Iostreams was not found when iobench was built"}});
    reporter.Finalize();
    EXPECT_NE(out.str().find("Skipped: 2 benchmark(s) whose method is not built here\n"
                             "  hello/fwrite_unlocked: fwrite_unlocked is not in this C library\n"
                             "  ints_out/boost_iostreams: Boost.Iostreams was not found when iobench was built\n"),
              std::string::npos)
        << out.str();
    EXPECT_EQ(skipped_context({{"a/b", "why"}, {"c/d", "because"}}), "a/b: why; c/d: because");
    EXPECT_EQ(skipped_context({}), "");
}

TEST(Report, ABinarySizeTableShowsTheSizesSmallestFirst) {
    // binary_size rows carry the program's size: the table shows it and ranks
    // by it (fast_io's table), whatever the programs' run times.
    auto run = [](const std::string& name, double seconds, double size) {
        auto r = single_run(name, seconds, 0);
        r.counters["binary_size"] = benchmark::Counter(size);
        return r;
    };
    std::ostringstream out;
    const Outcomes outcomes;
    const CaseIndex index = index_of({{"binary_size", "ofstream"}, {"binary_size", "write"}, {"binary_size", "obuf"}});
    SummaryConsoleReporter reporter(outcomes, index, benchmark::ConsoleReporter::OO_None);
    reporter.SetOutputStream(&out);
    reporter.SetErrorStream(&out);
    reporter.ReportRuns({run("binary_size/ofstream", 0.030, 1740488)});
    reporter.ReportRuns({run("binary_size/write", 1.5, 682696)});
    reporter.ReportRuns({run("binary_size/obuf", 0.008, 818504)});
    reporter.Finalize();
    const std::string text = out.str();
    EXPECT_NE(text.find("binary size"), std::string::npos) << text;
    EXPECT_NE(text.find("1.66 MiB"), std::string::npos) << text;
    const auto write = text.find("\n  write "), obuf = text.find("\n  obuf "), ofstream = text.find("\n  ofstream ");
    ASSERT_NE(write, std::string::npos) << text;
    ASSERT_NE(obuf, std::string::npos) << text;
    ASSERT_NE(ofstream, std::string::npos) << text;
    EXPECT_LT(write, obuf) << text;
    EXPECT_LT(obuf, ofstream) << text;
    // Other tables have no such column.
    std::ostringstream plain;
    SummaryConsoleReporter other(outcomes, no_cases, benchmark::ConsoleReporter::OO_None);
    other.SetOutputStream(&plain);
    other.SetErrorStream(&plain);
    other.ReportRuns({single_run("ints_out/obuf", 0.04, 0)});
    other.Finalize();
    EXPECT_EQ(plain.str().find("binary size"), std::string::npos) << plain.str();
}

TEST(Report, WorkloadsAreListedInTheSuitesOrderWhateverOrderTheyRan) {
    // Interleaved repetitions report benchmarks in random order: the summary
    // must still follow the suite (family_index = registration order).
    auto run = [](const std::string& name, int family) { return single_run(name, 0.01, family); };
    std::ostringstream out;
    const Outcomes outcomes;
    const CaseIndex index = index_of({{"hello", "obuf"}, {"ints_in", "ibuf"}, {"ints_out", "obuf"}});
    SummaryConsoleReporter reporter(outcomes, index, benchmark::ConsoleReporter::OO_None);
    reporter.SetOutputStream(&out);
    reporter.SetErrorStream(&out);
    reporter.ReportRuns({run("hello/obuf", 2)});
    reporter.ReportRuns({run("ints_in/ibuf", 1)});
    reporter.ReportRuns({run("ints_out/obuf", 0)});
    reporter.Finalize();
    const std::string text = out.str();
    const auto ints_out = text.find("\nints_out\n"), ints_in = text.find("\nints_in\n"), hello = text.find("\nhello\n");
    ASSERT_NE(ints_out, std::string::npos) << text;
    ASSERT_NE(ints_in, std::string::npos) << text;
    ASSERT_NE(hello, std::string::npos) << text;
    EXPECT_LT(ints_out, ints_in) << text;
    EXPECT_LT(ints_in, hello) << text;
}

TEST(Report, SpreadWithStolenTimeIsCalledHostInterference) {
    // Two rows with a cv of 20 %: one ran while the hypervisor took 3 ms of
    // its 12 ms (25 %), the other with no stolen time.
    auto row = [](const std::string& name, benchmark::BenchmarkReporter::Run::RunType type, const char* aggregate,
                  double value, double steal) {
        benchmark::BenchmarkReporter::Run r;
        r.run_name.function_name = name;
        r.run_type = type;
        r.aggregate_name = aggregate;
        r.iterations = 1;
        r.repetitions = 3;
        r.time_unit = benchmark::kMillisecond;
        r.real_accumulated_time = value;
        r.counters["steal_time"] = steal;
        return r;
    };
    using Run = benchmark::BenchmarkReporter::Run;
    std::vector<Run> runs;
    for (const char* name : {"hello/obuf", "hello/fwrite"}) {
        const double steal = std::string(name) == "hello/obuf" ? 0.003 : 0.0;
        for (double seconds : {0.010, 0.012, 0.016}) runs.push_back(row(name, Run::RT_Iteration, "", seconds, steal));
        runs.push_back(row(name, Run::RT_Aggregate, "median", 0.012, steal));
        runs.push_back(row(name, Run::RT_Aggregate, "cv", 0.20, 0));
    }
    // hello/fwrite waited 6 ms of its 12 ms for a CPU that other work here
    // held (PSI), with nothing stolen: a busy machine.
    for (Run& r : runs)
        if (r.run_name.function_name == "hello/fwrite") r.counters["cpu_wait"] = 0.006;
    const std::string text = summary_of(runs);
    EXPECT_NE(text.find("! host interference: the hypervisor took CPU time from this machine while hello/obuf (25%) "
                        "ran (steal_time, as % of the wall time per run): their spread is the host's, not the "
                        "method's.\n"),
              std::string::npos)
        << text;
    EXPECT_EQ(text.find("host interference: the hypervisor took CPU time from this machine while hello/fwrite"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("! CPU contention: other work on this machine kept tasks waiting for a CPU while hello/fwrite "
                        "(50%) ran (cpu_wait, as % of the wall time per run): a busy machine, not the method.\n"),
              std::string::npos)
        << text;
    EXPECT_EQ(text.find("while hello/obuf (25%) ran (cpu_wait"), std::string::npos) << "stolen time comes first";
}

TEST(Report, RunsDoneAgainAndPageReportingDuringKeptRunsAreSaid) {
    // hello/limit: 3 repetitions, 2 runs done again in one of them; hello/fwrite:
    // 2 of its 3 kept runs overlapped the host's page reporting; hello/obuf neither.
    using Run = benchmark::BenchmarkReporter::Run;
    std::vector<Run> runs;
    for (const char* name : {"hello/limit", "hello/fwrite", "hello/obuf"}) {
        for (int i = 0; i < 3; ++i) {
            Run r = repetition_row(name, Run::RT_Iteration, "", 0.240, 3, i);
            r.counters["runs_redone"] = std::string(name) == "hello/limit" && i == 1 ? 2 : 0;
            r.counters["page_reported_bytes"] = std::string(name) == "hello/fwrite" && i > 0 ? 512.0 * (1 << 20) : 0;
            r.counters["write_bytes"] = 1.2e9;
            runs.push_back(r);
        }
        runs.push_back(repetition_row(name, Run::RT_Aggregate, "median", 0.240, 3, 0));
    }
    const std::string text = summary_of(runs);
    EXPECT_NE(text.find("- runs done again: hello/limit (2): the kernel handed free memory back to the hypervisor "
                        "while they ran (page_reported_bytes)"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("! page reporting: this machine's kernel handed free memory back to the hypervisor while "
                        "hello/fwrite (2 of 3) ran"),
              std::string::npos)
        << text;
    EXPECT_EQ(text.find("hello/obuf ("), std::string::npos) << text;

    // A run that dirtied under 64 MiB (a read, a small output) is not named: too few pages to show.
    for (Run& r : runs) r.counters["write_bytes"] = static_cast<double>(redo_from_bytes) - 1;
    const std::string small = summary_of(runs);
    EXPECT_EQ(small.find("! page reporting"), std::string::npos) << small;
    EXPECT_NE(small.find("- runs done again: hello/limit (2)"), std::string::npos) << small;
}

TEST(Report, AnOutputTablesLimitRowThatIsMostlyNewPagesIsNoted) {
    // 1.2 GB written: 292,969 pages of 4 KiB. At 1,000 ns per new page more
    // than an overwrite, 293 ms of limit's 400 ms (73 %): noted; at 500 ns,
    // 146 ms (37 %): not. ints_in reads: never.
    const CaseIndex index = index_of({{"hello", "obuf"}, {"hello", "limit"}, {"ints_in", "limit"}});
    auto summary = [&](double new_page_ns) {
        std::ostringstream out;
        const Outcomes outcomes;
        SummaryConsoleReporter reporter(outcomes, index, benchmark::ConsoleReporter::OO_None);
        reporter.SetOutputStream(&out);
        reporter.SetErrorStream(&out);
        reporter.set_page_cost(PageCost{.new_file_ns = 300 + new_page_ns, .overwrite_ns = 300, .bytes = 1 << 30, .rounds = 3});
        int family = 0;
        for (const auto& [name, seconds] : std::vector<std::pair<std::string, double>>{
                 {"hello/obuf", 0.5}, {"hello/limit", 0.4}, {"ints_in/limit", 0.4}}) {
            benchmark::BenchmarkReporter::Run r = single_run(name, seconds, family++);
            r.counters["bytes"] = 1.2e9;
            r.counters[name.rfind("ints_in", 0) == 0 ? "read_calls" : "write_calls"] = 1145;
            reporter.ReportRuns({r});
        }
        reporter.Finalize();
        return out.str();
    };
    const std::string noted = summary(1000);
    EXPECT_NE(noted.find("! new pages: the limit row of hello (about 73% of 400 ms) is mostly the kernel finding "
                         "page-cache pages for a new file (1000 ns per 4 KiB page more than overwriting a file's "
                         "pages, measured at start: page_cache_pages in the JSON)."),
              std::string::npos)
        << noted;
    EXPECT_EQ(noted.find("ints_in (about"), std::string::npos) << noted;
    const std::string quiet = summary(500);
    EXPECT_EQ(quiet.find("! new pages"), std::string::npos) << quiet;
}

/// One run of 1.2e9 bytes for each (name, seconds), a family each, in order.
std::vector<benchmark::BenchmarkReporter::Run> one_run_each(
    const std::vector<std::pair<std::string, double>>& rows) {
    std::vector<benchmark::BenchmarkReporter::Run> runs;
    int family = 0;
    for (const auto& [name, seconds] : rows) {
        benchmark::BenchmarkReporter::Run r = single_run(name, seconds, family++);
        r.counters["bytes"] = 1.2e9;
        runs.push_back(r);
    }
    return runs;
}

TEST(Report, LimitLessLimitOverwriteIsWhatNewPagesCost) {
    // hello: limit 400 ms, limit_overwrite 100 ms: new pages are 300 ms (75 %),
    // said in the legend and noted (measured, whatever the page cost measured
    // at start says); ints_out: 40 ms against 30 ms (25 %): said, not noted.
    // limit is listed before limit_overwrite, and x limit is over limit.
    const CaseIndex index = index_of({{"ints_out", "obuf"},
                                      {"ints_out", "limit"},
                                      {"ints_out", "limit_overwrite"},
                                      {"hello", "obuf"},
                                      {"hello", "limit"},
                                      {"hello", "limit_overwrite"}});
    std::vector<benchmark::BenchmarkReporter::Run> runs = one_run_each({{"ints_out/obuf", 0.08},
                                                                        {"ints_out/limit", 0.04},
                                                                        {"ints_out/limit_overwrite", 0.03},
                                                                        {"hello/obuf", 0.5},
                                                                        {"hello/limit", 0.4},
                                                                        {"hello/limit_overwrite", 0.1}});
    add_x_limit(runs, index);
    EXPECT_DOUBLE_EQ(runs[3].counters.at("x_limit").value, 0.5 / 0.4);
    EXPECT_EQ(runs[5].counters.count("x_limit"), 0u) << "a reference row";
    const std::string text = summary_of(runs, "", index);
    EXPECT_NE(text.find("limit_overwrite: limit's bytes written over an existing file of their size, so no page-cache "
                        "page is new; limit less limit_overwrite, what the kernel's new pages cost: ints_out 10.00 ms "
                        "(25% of limit), hello 300 ms (75% of limit);\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("! new pages: the limit row of hello (about 75% of 400 ms: limit_overwrite 100 ms) is mostly "
                        "the kernel finding page-cache pages for a new file (limit less limit_overwrite, which writes "
                        "the same bytes over an existing file)."),
              std::string::npos)
        << text;
    EXPECT_EQ(text.find("ints_out (about"), std::string::npos) << text;
    const auto limit = text.find("\n  limit "), overwrite = text.find("\n  limit_overwrite ");
    ASSERT_NE(limit, std::string::npos) << text;
    EXPECT_LT(limit, overwrite) << text;
    // A table without limit_overwrite: no such line.
    EXPECT_EQ(summary_of({single_run("hello/obuf", 0.5, 0), single_run("hello/limit", 0.4, 1)}, "",
                         index_of({{"hello", "obuf"}, {"hello", "limit"}}))
                  .find("limit_overwrite"),
              std::string::npos);
}

TEST(Report, LimitLessMemcpyIsTheKernelsPartAndMemcpyIsListedLast) {
    // hello: limit 400 ms, memcpy 100 ms (faster than limit_overwrite's 150
    // ms, yet listed after it): the kernel's part is 300 ms (75 %), said in
    // the legend; x limit is over limit, never over memcpy; memcpy has none.
    // No new-pages estimate is taken from memcpy (it is not limit_overwrite).
    const CaseIndex index = index_of({{"hello", "obuf"},
                                      {"hello", "limit"},
                                      {"hello", "limit_overwrite"},
                                      {"hello", "memcpy"}});
    std::vector<benchmark::BenchmarkReporter::Run> runs = one_run_each(
        {{"hello/obuf", 0.5}, {"hello/memcpy", 0.1}, {"hello/limit", 0.4}, {"hello/limit_overwrite", 0.15}});
    add_x_limit(runs, index);
    EXPECT_DOUBLE_EQ(runs[0].counters.at("x_limit").value, 0.5 / 0.4);
    EXPECT_EQ(runs[1].counters.count("x_limit"), 0u) << "a reference row";
    const std::string text = summary_of(runs, "", index);
    EXPECT_NE(text.find("memcpy: the same bytes copied with one memcpy into memory of their size (no file, no system "
                        "call), the machine's own copy; limit less memcpy, the kernel's part: hello 300 ms (75% of "
                        "limit);\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("limit less limit_overwrite, what the kernel's new pages cost: hello 250 ms (62% of limit)"),
              std::string::npos)
        << text;
    const auto limit = text.find("\n  limit "), overwrite = text.find("\n  limit_overwrite "),
               copy = text.find("\n  memcpy ");
    ASSERT_NE(copy, std::string::npos) << text;
    EXPECT_LT(limit, overwrite) << text;
    EXPECT_LT(overwrite, copy) << text;
    // Without memcpy: no such line.
    EXPECT_EQ(summary_of({single_run("hello/obuf", 0.5, 0), single_run("hello/limit", 0.4, 1)}, "",
                         index_of({{"hello", "obuf"}, {"hello", "limit"}}))
                  .find("limit less memcpy"),
              std::string::npos);
}

TEST(Report, StolenTimeInTheSlowRepetitionsOnlyIsHostInterferenceToo) {
    // hello/limit: 3 repetitions, the slow one lost 20 % of its 15 ms to the
    // host, the median one nothing: named with the count. hello/obuf: the
    // same spread with nothing stolen: not named.
    using Run = benchmark::BenchmarkReporter::Run;
    std::vector<Run> runs;
    int family = 0;
    for (const char* name : {"hello/limit", "hello/obuf"}) {
        int repetition = 0;
        for (const double seconds : {0.010, 0.011, 0.015}) {
            Run r = single_run(name, seconds, family);
            r.repetitions = 3;
            r.repetition_index = repetition++;
            r.counters["steal_time"] = std::string(name) == "hello/limit" && seconds == 0.015 ? 0.003 : 0.0;
            runs.push_back(r);
        }
        Run median = single_run(name, 0.011, family);
        median.run_type = Run::RT_Aggregate;
        median.aggregate_name = "median";
        median.repetitions = 3;
        median.counters["steal_time"] = 0.0;
        runs.push_back(median);
        Run cv = median;
        cv.aggregate_name = "cv";
        cv.real_accumulated_time = 0.2;
        runs.push_back(cv);
        ++family;
    }
    const std::string text = summary_of(runs);
    EXPECT_NE(text.find("! host interference: the hypervisor took CPU time from this machine while hello/limit (1 of 3 "
                        "repetitions, up to 20%) ran"),
              std::string::npos)
        << text;
    EXPECT_EQ(text.find("hello/obuf (0 of"), std::string::npos) << text;
    EXPECT_EQ(text.find("while hello/limit, hello/obuf"), std::string::npos) << text;
}

TEST(Report, ALimitOverwriteOrMemcpyRowThatSpreadSaysTheMachineRanSlower) {
    // hello/limit_overwrite's 5 repetitions (the same bytes over pages the
    // file has: the same work each time) spread 270-450 ms, as on the idle VM
    // on 2026-12-05: the table is named with that range. ints_out's holds
    // still (30-31 ms): not named. hello/limit spreads as much but writes a
    // new file (its pages can be the cause): not what this note names.
    using Run = benchmark::BenchmarkReporter::Run;
    const CaseIndex index = index_of({{"ints_out", "limit"},
                                      {"ints_out", "limit_overwrite"},
                                      {"hello", "limit"},
                                      {"hello", "limit_overwrite"},
                                      {"hello", "memcpy"}});
    const std::vector<double> steady_copy = {0.100, 0.101, 0.100, 0.102, 0.101};
    auto summary = [&](const std::vector<double>& hello_overwrite, const std::vector<double>& hello_copy) {
        std::vector<Run> runs;
        int family = 0;
        for (const auto& [name, times] : std::vector<std::pair<std::string, std::vector<double>>>{
                 {"ints_out/limit", {0.040, 0.041, 0.040, 0.041, 0.040}},
                 {"ints_out/limit_overwrite", {0.030, 0.031, 0.030, 0.031, 0.030}},
                 {"hello/limit", {0.540, 0.700, 0.720, 0.550, 0.545}},
                 {"hello/limit_overwrite", hello_overwrite},
                 {"hello/memcpy", hello_copy}}) {
            std::vector<double> sorted = times;
            std::sort(sorted.begin(), sorted.end());
            double mean = 0;
            for (double t : times) mean += t / static_cast<double>(times.size());
            double var = 0;
            for (double t : times) var += (t - mean) * (t - mean) / static_cast<double>(times.size() - 1);
            int repetition = 0;
            for (double seconds : times) {
                Run r = single_run(name, seconds, family);
                r.repetitions = static_cast<std::int64_t>(times.size());
                r.repetition_index = repetition++;
                runs.push_back(r);
            }
            Run median = single_run(name, sorted[sorted.size() / 2], family);
            median.run_type = Run::RT_Aggregate;
            median.aggregate_name = "median";
            median.repetitions = static_cast<std::int64_t>(times.size());
            runs.push_back(median);
            Run cv = median;
            cv.aggregate_name = "cv";
            cv.real_accumulated_time = std::sqrt(var) / mean;
            runs.push_back(cv);
            ++family;
        }
        return summary_of(runs, "", index);
    };
    const std::string slowed = summary({0.270, 0.300, 0.450, 0.280, 0.400}, steady_copy);
    EXPECT_NE(slowed.find("! machine speed: references that do the same work in every repetition (limit_overwrite: "
                          "the same bytes over pages the file already has, no new page; memcpy: the same bytes copied "
                          "in memory, no file) spread: hello/limit_overwrite (270 ms to 450 ms per run): the same "
                          "work took longer in some repetitions"),
              std::string::npos)
        << slowed;
    EXPECT_EQ(slowed.find("ints_out/limit_overwrite ("), std::string::npos) << slowed;
    EXPECT_EQ(slowed.find("hello/memcpy ("), std::string::npos) << slowed;
    const std::string steady = summary({0.270, 0.275, 0.272, 0.271, 0.274}, steady_copy);
    EXPECT_NE(steady.find("! cv >= 5%"), std::string::npos) << "hello/limit still spreads:\n" << steady;
    EXPECT_EQ(steady.find("! machine speed"), std::string::npos) << steady;
    // memcpy copies the same bytes in memory every repetition: its spread is named too.
    const std::string copy_slowed = summary({0.270, 0.275, 0.272, 0.271, 0.274}, {0.100, 0.160, 0.101, 0.140, 0.102});
    EXPECT_NE(copy_slowed.find("spread: hello/memcpy (100 ms to 160 ms per run): the same work took longer"),
              std::string::npos)
        << copy_slowed;
}

TEST(Report, ARunUnderValgrindSaysItsTimesAndPercentilesAreValgrinds) {
    // A per-call row (latency_p50_ns) of a run under valgrind that
    // --instructions did not start: the note, naming the percentiles. Not
    // under valgrind, or under --instructions' own (its note says it): none.
    auto summary = [](bool under, const std::string& instructions_source) {
        std::ostringstream out;
        const Outcomes outcomes;
        const CaseIndex index = index_of({{"hello", "obuf"}});
        SummaryConsoleReporter reporter(outcomes, index, benchmark::ConsoleReporter::OO_None);
        reporter.SetOutputStream(&out);
        reporter.SetErrorStream(&out);
        reporter.set_under_valgrind(under);
        if (!instructions_source.empty()) reporter.set_instructions_source(instructions_source);
        benchmark::BenchmarkReporter::Run r = single_run("hello/obuf", 0.2, 0);
        r.counters["latency_p50_ns"] = 12000;
        r.counters["latency_calls"] = 1000;
        reporter.ReportRuns({r});
        reporter.Finalize();
        return out.str();
    };
    const std::string under = summary(true, "");
    EXPECT_NE(under.find("! under valgrind: the code runs ~50x slower and valgrind runs one thread at a time, so every "
                         "time of this run, per-call percentiles and their threads tables among them, is valgrind's, "
                         "not the method's"),
              std::string::npos)
        << under;
    EXPECT_EQ(summary(false, "").find("under valgrind"), std::string::npos);
    EXPECT_EQ(summary(true, "valgrind").find("! under valgrind"), std::string::npos);
}

TEST(Report, AMaxCallOfAboutOneTimeSliceUnderContentionIsExplained) {
    // Per-call rows with a max call of 4 ms against a p99.9 of 3 us: named
    // where other work waited for a CPU (cpu_wait 50 % of the run) or the
    // threads outnumber the CPUs; not on an idle machine with a thread per CPU,
    // nor for a max of 200 us.
    auto row = [](const std::string& name, double max_ns, double cpu_wait) {
        benchmark::BenchmarkReporter::Run r = single_run(name, 1.0, 0);
        r.counters["latency_calls"] = 100000;
        r.counters["latency_p50_ns"] = 500;
        r.counters["latency_p999_ns"] = 3000;
        r.counters["latency_max_ns"] = max_ns;
        r.counters["cpu_wait"] = cpu_wait;
        return r;
    };
    const unsigned many = std::max(2u, std::thread::hardware_concurrency() + 1);
    const std::string outnumbered = fmt::format("hello/fwrite/threads:{}/sink:shared", many);
    CaseIndex threads_index;
    for (const std::string& name : {std::string("hello/obuf/threads:1"), std::string("hello/fprintf/threads:1"),
                                    std::string("hello/fputs/threads:1"), outnumbered}) {
        RowStructure s;
        s.name = name;
        s.workload = "hello";
        s.method = name.substr(6, name.find('/', 6) - 6);
        s.threads = name == outnumbered ? many : 1;
        s.shared_sink = name == outnumbered;
        threads_index.add(std::move(s));
    }
    const std::string text = summary_of({row("hello/obuf/threads:1", 4e6, 0.5), row("hello/fprintf/threads:1", 4e6, 0),
                                         row("hello/fputs/threads:1", 2e5, 0.5), row(outnumbered, 4e6, 0)},
                                        "", threads_index);
    EXPECT_NE(text.find(fmt::format("- max call of hello/obuf/threads:1 (4.00 ms), {} (4.00 ms): about one time "
                                    "slice of the scheduler (1-30 ms), with more threads than CPUs or other work "
                                    "waiting for one: a thread preempted in the middle of a call, not a call that "
                                    "cost that much.\n",
                                    outnumbered)),
              std::string::npos)
        << text;
    EXPECT_EQ(text.find("hello/fprintf/threads:1 (4"), std::string::npos) << text;
    EXPECT_EQ(text.find("hello/fputs/threads:1 ("), std::string::npos) << text;
}

TEST(Report, ABaselineMethodGivesPerCallRowsARatioAtEachPercentile) {
    // fprintf's calls against fwrite's, percentile by percentile; obuf's p50
    // at the clock's resolution (40 ns, 4 steps of 10 ns): no ratio there.
    CaseIndex index;
    for (const char* method : {"fwrite", "fprintf", "obuf"}) {
        RowStructure s;
        s.name = fmt::format("hello/{}/threads:1", method);
        s.workload = "hello";
        s.method = method;
        s.threads = 1;
        index.add(std::move(s));
    }
    std::ostringstream out;
    const Outcomes outcomes;
    SummaryConsoleReporter reporter(outcomes, index, benchmark::ConsoleReporter::OO_None);
    reporter.SetOutputStream(&out);
    reporter.SetErrorStream(&out);
    reporter.set_baseline_methods({"fwrite"});
    int family = 0;
    for (const auto& [method, scale] : std::vector<std::pair<std::string, double>>{
             {"fwrite", 1.0}, {"fprintf", 2.0}, {"obuf", 0.4}}) {
        benchmark::BenchmarkReporter::Run r = single_run(fmt::format("hello/{}/threads:1", method), 0.1, family++);
        r.counters["latency_calls"] = 1000;
        r.counters["latency_resolution_ns"] = 10;
        r.counters["latency_p50_ns"] = 100 * scale;
        r.counters["latency_p90_ns"] = 200 * scale;
        r.counters["latency_p99_ns"] = 400 * scale;
        r.counters["latency_p999_ns"] = 1000 * scale;
        r.counters["latency_max_ns"] = 5000 * scale;
        reporter.ReportRuns({r});
    }
    reporter.Finalize();
    const std::string text = out.str();
    EXPECT_NE(text.find("\nhello: x baseline at each percentile: a call's time / fwrite's at the same percentile (- "
                        "at the clock's resolution)\n  method               p50    p90    p99  p99.9    max\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("  fprintf/threads:1  2.00x  2.00x  2.00x  2.00x  2.00x\n"), std::string::npos) << text;
    EXPECT_NE(text.find("  obuf/threads:1         -  0.40x  0.40x  0.40x  0.40x\n"), std::string::npos) << text;
}

TEST(Report, ARepetitionStoppedPartWayIsNamed) {
    // 3 s of SIGSTOP in one repetition of hello/limit once showed only as a
    // large cv: it is named; hello/fwrite, whose CPU time accounts for its
    // spread, is not.
    const std::string text = summary_of(stopped_limit_and_busy_fwrite());
    const auto note = text.find("! stopped or blocked: a repetition spent far longer neither on a CPU nor waiting for "
                                "one than the others did (hello/limit, repetition 3 of 3: ");
    ASSERT_NE(note, std::string::npos) << text;
    EXPECT_NE(text.find("per run off a CPU (the repetitions' median: ", note), std::string::npos) << text;
    EXPECT_EQ(text.find("hello/fwrite, repetition"), std::string::npos) << text;
}

TEST(Report, OnABusyMachineNoTimeOffACpuIsMadeUpAndNoneIsNegative) {
    // The machine's cpu_wait (any task's waiting, 2 cores busy with other
    // work) exceeded these runs' wall time: wall - CPU - waiting went below 0
    // and the note once named a repetition with "-176125486.00 ns per run off
    // a CPU (the repetitions' median: 0 s)". Such repetitions are unknown, and
    // the note is absent rather than wrong.
    using Run = benchmark::BenchmarkReporter::Run;
    std::vector<Run> runs = stopped_limit_and_busy_fwrite();
    for (Run& r : runs)
        if (r.run_name.function_name == "hello/limit" && r.repetition_index < 2) r.counters["cpu_wait"] = 0.200;
    const std::string text = summary_of(runs);
    EXPECT_EQ(text.find("stopped or blocked"), std::string::npos) << text;
    EXPECT_EQ(text.find("off a CPU"), std::string::npos) << text;
    for (std::size_t at = text.find(" -"); at != std::string::npos; at = text.find(" -", at + 1))
        EXPECT_FALSE(at + 2 < text.size() && std::isdigit(static_cast<unsigned char>(text[at + 2])))
            << "a negative number in:\n" << text;
    // The same repetitions on a quiet machine: the stopped one is named, and its median is no negative time.
    const std::string quiet = summary_of(stopped_limit_and_busy_fwrite());
    EXPECT_NE(quiet.find("(hello/limit, repetition 3 of 3: "), std::string::npos) << quiet;
}

TEST(Report, TheSummaryFollowsTheRulesOfTheSpecification) {
    // tools/iobench_compare/spec/report_rules.json: every rule's value is the one the build
    // generated (generated/report_rules.hpp), and the summary of rows that trip every rule
    // writes each rule's phrase.
    std::ifstream in(IOBENCH_REPORT_RULES_SPEC);
    ASSERT_TRUE(in) << "cannot open " << IOBENCH_REPORT_RULES_SPEC;
    const auto spec = nlohmann::json::parse(in);
    const std::map<std::string, double> values = {
        {"cv_flag", report_rules::cv_flag},
        {"interval_flag", report_rules::interval_flag},
        {"confidence", report_rules::confidence},
        {"min_repetitions_for_interval", report_rules::min_repetitions_for_interval},
        {"interference_share", report_rules::interference_share},
        {"min_seconds_for_cpu_share", report_rules::min_seconds_for_cpu_share},
        {"stopped_share", report_rules::stopped_share},
        {"stopped_min_seconds", report_rules::stopped_min_seconds},
        {"stopped_max_wait_share", report_rules::stopped_max_wait_share}};
    ASSERT_EQ(spec["rules"].size(), values.size());
    for (const auto& rule : spec["rules"]) {
        const std::string name = rule["name"];
        ASSERT_EQ(values.count(name), 1u) << name << " is not in generated/report_rules.hpp";
        EXPECT_EQ(rule["value"].get<double>(), values.at(name)) << name;
    }
    // The fewest repetitions with an interval: the order statistics say so.
    EXPECT_GT(median_interval_rank(report_rules::min_repetitions_for_interval, report_rules::confidence), 0);
    EXPECT_EQ(median_interval_rank(report_rules::min_repetitions_for_interval - 1, report_rules::confidence), 0);

    // hello/limit: 3 repetitions (too few for an interval), 11 ms runs (too
    // short for a sys share), one stopped for 3 s. hello/fwrite: cv 50 %, a
    // wide spread with CPU pressure of 17 % of its runs' time.
    using Run = benchmark::BenchmarkReporter::Run;
    std::vector<Run> runs = stopped_limit_and_busy_fwrite();
    Run cv = runs.back();  // hello/fwrite's median row
    cv.aggregate_name = "cv";
    cv.real_accumulated_time = 0.5;
    runs.push_back(cv);
    const std::string text = summary_of(runs);
    for (const auto& rule : spec["rules"]) {
        if (rule["summary"].is_null()) continue;
        const std::string phrase = rule["summary"];
        EXPECT_NE(text.find(phrase), std::string::npos) << rule["name"] << ": \"" << phrase << "\" not in\n" << text;
    }
}

TEST(Report, InstructionsPerItemHaveAColumnAndSayWhereTheyCameFrom) {
    // --instructions: a row with the count shows it; one without (a console
    // row, whose work ran in a child) shows "-"; the notes name the source,
    // and under valgrind say that the times are not the figure.
    auto counted = single_run("hello/obuf", 0.5, 0);
    counted.counters["instructions_per_item"] = 19.0017;
    const auto uncounted = single_run("hello/fwrite", 1.5, 1);
    const CaseIndex index = index_of({{"hello", "obuf"}, {"hello", "fwrite"}});
    const std::string valgrind = summary_of({counted, uncounted}, "valgrind", index);
    EXPECT_NE(valgrind.find("  instr/item"), std::string::npos) << valgrind;
    const auto obuf = valgrind.find("\n  obuf ");
    const auto fwrite = valgrind.find("\n  fwrite ");
    ASSERT_NE(obuf, std::string::npos) << valgrind;
    ASSERT_NE(fwrite, std::string::npos) << valgrind;
    EXPECT_NE(valgrind.substr(obuf, valgrind.find('\n', obuf + 1) - obuf).find("  19.0  "), std::string::npos)
        << valgrind;
    EXPECT_NE(valgrind.find("counted by valgrind (--instructions; reproducible to about 5 significant digits)"),
              std::string::npos)
        << valgrind;
    EXPECT_NE(valgrind.find("- under valgrind the code runs ~50x slower: the times of this run are not the figure"),
              std::string::npos)
        << valgrind;
    const std::string perf = summary_of({counted, uncounted}, "perf", index);
    EXPECT_NE(perf.find("counted by perf"), std::string::npos) << perf;
    EXPECT_EQ(perf.find("under valgrind"), std::string::npos) << perf;
    // Without the counter, no column and no note.
    const std::string plain = summary_of({single_run("hello/obuf", 0.5, 0)}, "", index);
    EXPECT_EQ(plain.find("instr/item"), std::string::npos) << plain;
}

/// The cell of column `header` in the line of `text` that starts with "  <label> ".
std::string cell_of(const std::string& text, const std::string& label, const std::string& header) {
    const auto line_at = text.find("\n  " + label + " ");
    if (line_at == std::string::npos) return "<no row " + label + ">";
    const auto table_at = text.rfind("\n  method ", line_at);
    const auto head_end = text.find('\n', table_at + 1);
    const std::string head = text.substr(table_at + 1, head_end - table_at - 1);
    const auto column_end = head.find(header);
    if (table_at == std::string::npos || column_end == std::string::npos) return "<no column " + header + ">";
    const std::size_t end = column_end + header.size();  // right-aligned: the cell ends where its header ends
    const std::string line = text.substr(line_at + 1, text.find('\n', line_at + 1) - line_at - 1);
    const std::size_t start = line.rfind("  ", end - 1);
    return line.substr(start + 2, end - start - 2);
}

TEST(Report, PerCallFiguresAtTheClocksResolutionAreMarkedAndExplained) {
    // A row timed with a clock of 10 ns steps: its p50, p90 and p99 (10 to 40
    // ns, within 4 steps) are upper bounds; its p99.9 (50 ns) is a measurement.
    // A row of a fine clock (1 ns) is marked nowhere.
    auto coarse = single_run("hello/obuf", 0.5, 0);
    auto fine = single_run("hello/fwrite", 1.5, 1);
    const auto set = [](benchmark::BenchmarkReporter::Run& r, std::vector<double> ns, double resolution) {
        const char* names[] = {"latency_p50_ns", "latency_p90_ns", "latency_p99_ns", "latency_p999_ns",
                               "latency_max_ns"};
        for (std::size_t i = 0; i < ns.size(); ++i) r.counters[names[i]] = ns[i];
        r.counters["latency_resolution_ns"] = resolution;
    };
    set(coarse, {10, 10, 40, 50, 4e6}, 10);
    set(fine, {40, 45, 60, 900, 2e4}, 1);
    const CaseIndex index = index_of({{"hello", "obuf"}, {"hello", "fwrite"}});
    const std::string text = summary_of({coarse, fine}, "", index);
    const auto line = [&](const std::string& label) {
        const auto at = text.find("\n  " + label + " ");
        return at == std::string::npos ? std::string() : text.substr(at, text.find('\n', at + 1) - at);
    };
    for (const char* header : {"p50 call", "p90 call", "p99 call", "p99.9 call", "max call"})
        EXPECT_NE(text.find(header), std::string::npos) << header << "\n" << text;
    EXPECT_NE(line("obuf").find("≤10.0 ns  "), std::string::npos) << text;
    EXPECT_NE(line("obuf").find("≤40.0 ns  "), std::string::npos) << text;
    EXPECT_NE(line("obuf").find(" 50.0 ns"), std::string::npos) << text;
    EXPECT_EQ(line("obuf").find("≤50.0 ns"), std::string::npos) << text;
    EXPECT_EQ(line("fwrite").find("≤"), std::string::npos) << text;
    EXPECT_NE(text.find("≤: at the clock's resolution (10.0 ns): an upper bound, not a measurement"), std::string::npos)
        << text;
    // A fine clock alone: no mark, no note.
    const std::string fine_only = summary_of({fine}, "", index);
    EXPECT_EQ(fine_only.find("≤"), std::string::npos) << fine_only;
}

TEST(Report, PerCallRowsOfSeveralThreadCountsGetATablePerSinkWithAColumnPerCount) {
    // log from 1, 2 and 4 threads, fprintf on a shared sink and a sink each,
    // obuf a sink each: the shared table has fprintf alone, the per-thread one both;
    // threads:1 is in each.
    CaseIndex index;
    std::vector<benchmark::BenchmarkReporter::Run> runs;
    int family = 0;
    const auto add = [&](const std::string& method, unsigned threads, bool shared, double items_per_second,
                         double p999_ns) {
        RowStructure s;
        s.workload = "log";
        s.method = method;
        s.threads = threads;
        s.shared_sink = threads > 1 && shared;
        s.name = s.workload + "/" + s.label();
        index.add(s);
        auto r = single_run(s.name, 0.01, family++);
        r.counters["items_per_second"] = items_per_second;
        r.counters["latency_p50_ns"] = 100;
        r.counters["latency_p999_ns"] = p999_ns;
        r.counters["latency_resolution_ns"] = 10;
        runs.push_back(r);
    };
    add("fprintf", 1, false, 2.42e6, 4300);
    add("fprintf", 2, true, 1.30e6, 34000);
    add("fprintf", 4, true, 1.37e6, 148000);
    add("fprintf", 2, false, 3.1e6, 5000);
    add("fprintf", 4, false, 3.35e6, 6200);
    add("obuf", 1, false, 6e6, 30);
    add("obuf", 4, false, 7.66e6, 700);
    const std::string text = summary_of(runs, "", index);
    const auto table = [&](const std::string& title) {
        const auto at = text.find("\n" + title);
        return at == std::string::npos ? std::string() : text.substr(at, text.find("\n\n", at + 1) - at);
    };
    const std::string shared = table("log, sink:shared: items per second ±95% CI, p99.9 call");
    const std::string own = table("log, sink:per_thread: items per second ±95% CI, p99.9 call");
    ASSERT_FALSE(shared.empty()) << text;
    ASSERT_FALSE(own.empty()) << text;
    const auto one = shared.find("  1 thread"), two = shared.find("  2 threads"), four = shared.find("  4 threads");
    EXPECT_TRUE(shared.find("\n  method ") < one && one < two && two < four) << shared;
    EXPECT_NE(shared.find("fprintf"), std::string::npos) << shared;
    EXPECT_EQ(shared.find("obuf"), std::string::npos) << shared;
    EXPECT_NE(shared.find("2.42 M/s, 4.3 us"), std::string::npos) << shared;
    EXPECT_NE(shared.find("1.37 M/s, 148.0 us"), std::string::npos) << shared;
    EXPECT_NE(own.find("3.35 M/s, 6.2 us"), std::string::npos) << own;
    EXPECT_NE(own.find("6.00 M/s, ≤30.0 ns"), std::string::npos) << own;  // at the clock's resolution
    EXPECT_NE(own.find("-"), std::string::npos) << own;                    // obuf/threads:2 did not run
    // One thread count: no such table.
    EXPECT_EQ(summary_of({runs[0]}, "", index).find("items per second"), std::string::npos);
}

TEST(Report, ABaselineMethodGivesEachTableARatioColumnWhereItRan) {
    // --baseline-method fprintf: rows of ints_out divided by fprintf's time
    // (sweeps pair by buffer size); hello has no fprintf row: no column there,
    // and the note says so.
    auto sized = [](const std::string& workload, const std::string& method, std::size_t buffer) {
        RowStructure s;
        s.name = fmt::format("{}/{}/buf:{}", workload, method, buffer);
        s.workload = workload;
        s.method = method;
        s.buffer_size = buffer;
        return s;
    };
    CaseIndex index;
    for (const std::size_t buffer : {4096u, 65536u})
        for (const char* method : {"obuf", "fprintf", "write"}) index.add(sized("ints_out", method, buffer));
    index.add(sized("ints_out", "obuf", 1024));  // no fprintf/buf:1024, no fprintf without parameters
    index.add(sized("hello", "obuf", 4096));
    std::ostringstream out;
    const Outcomes outcomes;
    SummaryConsoleReporter reporter(outcomes, index, benchmark::ConsoleReporter::OO_None);
    reporter.SetOutputStream(&out);
    reporter.SetErrorStream(&out);
    reporter.set_baseline_methods({"nosuch", "fprintf"});  // the first that ran in a table counts
    int family = 0;
    for (const auto& [name, seconds] : std::vector<std::pair<std::string, double>>{
             {"ints_out/obuf/buf:4096", 0.1},
             {"ints_out/fprintf/buf:4096", 0.4},
             {"ints_out/write/buf:4096", 2.0},
             {"ints_out/obuf/buf:65536", 0.05},
             {"ints_out/fprintf/buf:65536", 0.2},
             {"ints_out/write/buf:65536", 1.0},
             {"ints_out/obuf/buf:1024", 0.2},
             {"hello/obuf/buf:4096", 0.3}})
        reporter.ReportRuns({single_run(name, seconds, family++)});
    reporter.Finalize();
    const std::string text = out.str();
    EXPECT_EQ(cell_of(text, "obuf/buf:4096", "x baseline"), "0.25x") << text;
    EXPECT_EQ(cell_of(text, "fprintf/buf:4096", "x baseline"), "1.00x") << text;
    EXPECT_EQ(cell_of(text, "write/buf:4096", "x baseline"), "5.00x") << text;
    EXPECT_EQ(cell_of(text, "obuf/buf:65536", "x baseline"), "0.25x") << text;   // 0.05 / 0.2, not / 0.4
    EXPECT_EQ(cell_of(text, "write/buf:65536", "x baseline"), "5.00x") << text;  // 1.0 / 0.2
    EXPECT_EQ(cell_of(text, "obuf/buf:1024", "x baseline"), "-") << text;        // nothing to pair it with
    const auto hello = text.find("\nhello\n");
    ASSERT_NE(hello, std::string::npos) << text;
    EXPECT_EQ(text.substr(hello, text.find("\n\n", hello + 1) - hello).find("x baseline"), std::string::npos)
        << text;
    EXPECT_NE(text.find("x baseline: time / the time of nosuch or, where it did not run, fprintf's row with the same "
                        "parameters, else its row without any (--baseline-method); no row of it in hello;"),
              std::string::npos)
        << text;
    // Without --baseline-method, no column and no note.
    EXPECT_EQ(summary_of({single_run("hello/obuf", 0.5, 0)}).find("x baseline"), std::string::npos);
}

TEST(Report, FamiliesBuiltInAreListedNamingAnotherCompilerThanIobenchs) {
    // iobench_add_executable: a family compiled by iobench's own compiler is
    // listed; one compiled by another is said to compare compilers too.
    const std::string ours = build_identity().compiler;
    std::ostringstream out;
    const Outcomes outcomes;
    SummaryConsoleReporter reporter(outcomes, no_cases, benchmark::ConsoleReporter::OO_None);
    reporter.SetOutputStream(&out);
    reporter.SetErrorStream(&out);
    reporter.set_added_families({{"mine", ours, "any", "Release"}, {"spdlog", "Clang 99.0.0", "any", "Release"}},
                                "-O3 -DNDEBUG");
    reporter.ReportRuns({single_run("hello/obuf", 0.5, 0)});
    reporter.Finalize();
    const std::string text = out.str();
    EXPECT_NE(text.find("\nFamilies built into this executable (iobench_add_executable):\n  mine: " + ours +
                        ", Release, flags -O3 -DNDEBUG\n  spdlog: Clang 99.0.0, Release, flags -O3 -DNDEBUG; not "
                        "iobench's compiler (" + ours + "): its rows compare compilers as well as methods\n"),
              std::string::npos)
        << text;
    EXPECT_EQ(summary_of({single_run("hello/obuf", 0.5, 0)}).find("Families built into"), std::string::npos);
}

TEST(Report, SummarySaysWhatTheOutcomesSay) {
    const Ran ran = run_all({make_case("file_read", "broken_unavailable"), make_case("hello", "broken_one_byte"),
                             make_case("hello", "obuf")});
    std::ostringstream out;
    const CaseIndex index(ran.cases);
    SummaryConsoleReporter reporter(ran.outcomes, index, benchmark::ConsoleReporter::OO_None);
    reporter.SetOutputStream(&out);
    reporter.SetErrorStream(&out);
    reporter.ReportRuns(ran.runs);
    reporter.Finalize();
    const std::string text = out.str();
    EXPECT_NE(text.find("  skipped: test: refused by the platform\n"), std::string::npos) << text;
    EXPECT_NE(text.find("  FAILED: verification failed: output differs"), std::string::npos) << text;
    EXPECT_NE(text.find("\n1 benchmark(s) FAILED; their rows carry the reason.\n"), std::string::npos) << text;
    EXPECT_NE(text.find("\n  obuf "), std::string::npos) << text;  // the verified row, with its time
    // The heading does not promise more than the rows hold.
    EXPECT_EQ(text.find("every run verified"), std::string::npos) << text;
    EXPECT_NE(text.find("Summary: median wall time per run, verified runs only (1 benchmark(s) FAILED, below)\n"),
              std::string::npos)
        << text;
}

TEST(Report, MedianIntervalRanksFollowTheBinomialDistribution) {
    double coverage = 0;
    EXPECT_EQ(median_interval_rank(5, 0.95), 0);  // [x1, x5] covers only 93.75 %
    EXPECT_EQ(median_interval_rank(6, 0.95, &coverage), 1);
    EXPECT_NEAR(coverage, 1 - 2.0 / 64, 1e-12);
    EXPECT_EQ(median_interval_rank(8, 0.95), 1);   // P(B <= 1) = 9/256 > 2.5 %
    EXPECT_EQ(median_interval_rank(9, 0.95), 2);   // P(B <= 1) = 10/512 <= 2.5 %
    EXPECT_EQ(median_interval_rank(20, 0.95), 6);  // the textbook value for n = 20
}

TEST(Report, ARowsTableIsItsWorkloadAndEveryParameterButTheBufferSize) {
    const Workload* file_read = find_workload("file_read");
    Params cold;
    cold.buffer_size = 4096;
    cold.cache = CacheState::cold;
    const Case read_cold{file_read, find_method("fread"), cold, case_name(*file_read, *find_method("fread"), cold)};
    const RowStructure s = row_structure(read_cold);
    EXPECT_EQ(s.name, "file_read/fread/buf:4096/cache:cold");
    EXPECT_EQ(s.workload, "file_read");
    EXPECT_EQ(s.method, "fread");
    EXPECT_EQ(s.family, "stdio");
    EXPECT_FALSE(s.reference);
    EXPECT_EQ(s.buffer_size, 4096u);
    EXPECT_EQ(s.cache, CacheState::cold);
    EXPECT_EQ(s.item_unit, "line");
    EXPECT_TRUE(s.compared_per_byte);
    EXPECT_EQ(s.table(), "file_read/cache:cold");
    EXPECT_EQ(s.label(), "fread/buf:4096");
    const RowStructure limit = row_structure(make_case("hello", "limit"));
    EXPECT_TRUE(limit.reference);
    EXPECT_EQ(limit.table(), "hello");
    EXPECT_EQ(limit.label(), "limit");
    EXPECT_EQ(limit.item_unit, "line");
    EXPECT_FALSE(limit.compared_per_byte);
}

TEST(Report, ColdAndWarmRowsAreRankedInTablesOfTheirOwn) {
    // A cold read is never ranked against warm ones: each cache state has its
    // table, its fastest row, and the cold table says cold / warm per method.
    const Workload* file_read = find_workload("file_read");
    std::vector<Case> cases;
    for (const char* method : {"fread", "ifstream"})
        for (CacheState cache : {CacheState::warm, CacheState::cold}) {
            Params p;
            p.cache = cache;
            cases.push_back({file_read, find_method(method), p, case_name(*file_read, *find_method(method), p)});
        }
    const CaseIndex index(cases);
    auto run = [](const std::string& name, double ms) {
        return single_run(name, ms / 1e3, name.find("cold") == std::string::npos ? 0 : 1);  // warm first, as a suite lists them
    };
    std::ostringstream out;
    const Outcomes outcomes;
    SummaryConsoleReporter reporter(outcomes, index, benchmark::ConsoleReporter::OO_None);
    reporter.SetOutputStream(&out);
    reporter.SetErrorStream(&out);
    auto cold_run = [&](const std::string& name, double ms) {
        auto r = run(name, ms);
        r.report_label = "cache dropped: by a test";  // Trial::label
        return r;
    };
    reporter.ReportRuns({run("file_read/fread/cache:warm", 10), cold_run("file_read/fread/cache:cold", 40),
                         run("file_read/ifstream/cache:warm", 20), cold_run("file_read/ifstream/cache:cold", 30)});
    reporter.Finalize();
    const std::string text = out.str();
    const auto warm = text.find("\nfile_read, warm page cache\n"), cold = text.find("\nfile_read, cold page cache\n");
    ASSERT_NE(warm, std::string::npos) << text;
    ASSERT_NE(cold, std::string::npos) << text;
    EXPECT_LT(warm, cold) << text;
    const std::string warm_table = text.substr(warm, text.find("\n\n", warm + 1) - warm);
    const std::string cold_table = text.substr(cold, text.find("\n\n", cold + 1) - cold);
    EXPECT_EQ(warm_table.find("cold/warm"), std::string::npos) << warm_table;
    EXPECT_NE(cold_table.find("cold/warm"), std::string::npos) << cold_table;
    // Warm: fread (10 ms) is the fastest. Cold: ifstream (30 ms) is, fread
    // 1.33x behind it and 4.00x its own warm time.
    const auto line_of = [](const std::string& table, const std::string& method) {
        const auto at = table.find("\n  " + method + " ");
        return at == std::string::npos ? std::string() : table.substr(at + 1, table.find('\n', at + 1) - at - 1);
    };
    EXPECT_NE(line_of(warm_table, "fread").find("10.00 ms"), std::string::npos) << warm_table;
    EXPECT_NE(line_of(warm_table, "fread").find("1.00x"), std::string::npos) << warm_table;
    EXPECT_NE(line_of(cold_table, "fread").find("4.00x"), std::string::npos) << cold_table;
    EXPECT_LT(cold_table.find("ifstream"), cold_table.find("fread")) << cold_table;
    EXPECT_NE(cold_table.find("1.33x"), std::string::npos) << cold_table;
    EXPECT_NE(cold_table.find("4.00x"), std::string::npos) << cold_table;
    EXPECT_NE(cold_table.find("1.50x"), std::string::npos) << cold_table;  // ifstream 30 / 20
    const std::string tables = text.substr(0, text.find("\ntime: median"));
    EXPECT_EQ(tables.find("cache:"), std::string::npos) << "the tables name the state, the rows do not" << text;
    // How the cold rows' pages were dropped: once, under the tables.
    const std::string note = "\n- file_read, cold page cache: cache dropped: by a test.\n";
    const auto label = text.find(note);
    ASSERT_NE(label, std::string::npos) << text;
    EXPECT_EQ(text.find("by a test", label + note.size()), std::string::npos) << text;
    EXPECT_EQ(tables.find("by a test"), std::string::npos) << text;
}

}  // namespace
}  // namespace iobench
