// The runner on Google Benchmark: a verified run reports time and rates from
// the measured (manual) wall time; a wrong method or a failing call reports an
// error with the reason and no time.
#include <benchmark/benchmark.h>
#include <gtest/gtest.h>

#include <sstream>

#include "core/report.hpp"
#include "core/runner.hpp"
#include "core/session.hpp"
#include "core/suite.hpp"
#include "test_dir.hpp"

namespace iobench {
namespace {

/// Collects the runs Google Benchmark reports.
class Collector : public benchmark::BenchmarkReporter {
public:
    bool ReportContext(const Context&) override { return true; }
    void ReportRuns(const std::vector<Run>& runs) override { all.insert(all.end(), runs.begin(), runs.end()); }
    std::vector<Run> all;
};

std::vector<benchmark::BenchmarkReporter::Run> run_cases(const std::vector<Case>& cases, double scale = 1e-4) {
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
    Session session(dir.path(), scale, false, false);
    benchmark::ClearRegisteredBenchmarks();
    register_benchmarks(cases, session);
    Collector collector;
    benchmark::RunSpecifiedBenchmarks(&collector);
    benchmark::ClearRegisteredBenchmarks();
    return collector.all;
}

Case make_case(const char* workload, const char* method) {
    const Workload* w = find_workload(workload);
    const Method* m = find_method(method);
    return {w, m, {}, case_name(*w, *m, {})};
}

TEST(Runner, VerifiedRunReportsRatesFromWallTime) {
    const auto runs = run_cases({make_case("ints_out", "obuf")});
    ASSERT_EQ(runs.size(), 1u);
    const auto& r = runs[0];
    EXPECT_FALSE(r.error_occurred) << r.error_message;
    EXPECT_EQ(r.counters.at("verified").value, 1.0);
    EXPECT_EQ(r.counters.at("buffer_size").value, 65536.0);
    // bytes_per_second x seconds per run = bytes per run (3,890 for 1,000 integers).
    const double seconds_per_run = r.real_accumulated_time / static_cast<double>(r.iterations);
    const double bytes_per_second = r.counters.at("bytes_per_second").value;
    const double items_per_second = r.counters.at("items_per_second").value;
    EXPECT_NEAR(bytes_per_second * seconds_per_run, 3890.0, 3890.0 * 1e-6);
    EXPECT_NEAR(items_per_second * seconds_per_run, 1000.0, 1000.0 * 1e-6);
}

TEST(Runner, WrongOutputReportsAnErrorNotATime) {
    const auto runs = run_cases({make_case("hello", "broken_one_byte")});
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_TRUE(runs[0].error_occurred);
    EXPECT_NE(runs[0].error_message.find("verification failed: output differs"), std::string::npos)
        << runs[0].error_message;
    EXPECT_EQ(runs[0].counters.count("verified"), 0u);
    EXPECT_EQ(runs[0].counters.count("bytes_per_second"), 0u);
    EXPECT_GE(failed_benchmarks(), 1);
}

TEST(Runner, FailingCallReportsTheSystemError) {
    const auto runs = run_cases({make_case("ints_out", "broken_disk_full")});
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_TRUE(runs[0].error_occurred);
    EXPECT_NE(runs[0].error_message.find("No space left on device"), std::string::npos) << runs[0].error_message;
}

TEST(Runner, ErrorInOneBenchmarkDoesNotStopTheOthers) {
    const auto runs = run_cases({make_case("ints_in", "broken_drops_first"), make_case("ints_in", "ibuf")});
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_TRUE(runs[0].error_occurred);
    EXPECT_FALSE(runs[1].error_occurred) << runs[1].error_message;
}

TEST(Runner, MethodRefusedAtRunTimeIsSkippedWithTheReasonNotFailed) {
    const int failed_before = failed_benchmarks();
    // fread, not read(2): the test runs on Windows too.
    const auto runs = run_cases({make_case("file_read", "broken_unavailable"), make_case("file_read", "fread")});
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_TRUE(runs[0].error_occurred);
    EXPECT_EQ(runs[0].error_message, "skipped: test: refused by the platform");
    EXPECT_EQ(failed_benchmarks(), failed_before);
    EXPECT_FALSE(runs[1].error_occurred) << runs[1].error_message;
    EXPECT_EQ(runs[1].run_name.function_name, "file_read/fread/cache:warm");
#ifndef _WIN32  // page-cache residency (mincore) is not measured on Windows
    EXPECT_GT(runs[1].counters.at("resident_at_start").value, 0.9);  // warm: read once before
#endif
}

TEST(Report, SkippedPairsAreListedWithTheirReason) {
    std::ostringstream out;
    SummaryConsoleReporter reporter(benchmark::ConsoleReporter::OO_None);
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

#ifndef _WIN32  // the console workloads fork a child per run
TEST(Runner, ConsoleRunsReportTheChildsTimeAndWriteCalls) {
    // At the published 10,000 messages a run is long enough (milliseconds)
    // for a few iterations to reach the minimum time; a child is forked per run.
    const auto runs = run_cases({make_case("console_short", "write")}, 1.0);
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_FALSE(runs[0].error_occurred) << runs[0].error_message;
    EXPECT_EQ(runs[0].counters.at("verified").value, 1.0);
    EXPECT_GE(runs[0].counters.at("write_calls").value, 10000.0);  // one write(2) per message
    EXPECT_GT(runs[0].real_accumulated_time, 0.0);
}
#endif

TEST(Report, ThroughputUsesDecimalUnits) {
    EXPECT_EQ(format_throughput(1.27e9), "1.27 GB/s");
    EXPECT_EQ(format_throughput(154.4e6), "154.4 MB/s");
    EXPECT_EQ(format_throughput(999), "999 B/s");
}

}  // namespace
}  // namespace iobench
