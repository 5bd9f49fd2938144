// The runner on Google Benchmark: a verified run reports time and rates from
// the measured (manual) wall time; a wrong method or a failing call reports an
// error with the reason and no time.
#include <benchmark/benchmark.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <map>
#include <optional>
#include <system_error>
#include <sstream>
#include <thread>
#include <time.h>

#ifdef _WIN32
#include <windows.h>
#else
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

#include "core/environment.hpp"
#include "core/os_counters.hpp"
#include "core/report.hpp"
#include "core/report_rules.hpp"
#include "core/runner.hpp"
#include "methods/buffer_sizes.hpp"
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

/// What a run of some cases gave: Google Benchmark's rows and the runner's outcomes.
struct Ran {
    std::vector<Case> cases;
    std::vector<benchmark::BenchmarkReporter::Run> runs;
    Outcomes outcomes;
};

/// The structure of no case: the summary then reads a row's workload from its name.
const CaseIndex no_cases;

/// The console summary of `runs` (no outcomes recorded, no cases known).
std::string summary_of(const std::vector<benchmark::BenchmarkReporter::Run>& runs,
                       const std::string& instructions_source = "") {
    std::ostringstream out;
    const Outcomes outcomes;
    SummaryConsoleReporter reporter(outcomes, no_cases, benchmark::ConsoleReporter::OO_None);
    if (!instructions_source.empty()) reporter.set_instructions_source(instructions_source);
    reporter.SetOutputStream(&out);
    reporter.SetErrorStream(&out);
    reporter.ReportRuns(runs);
    reporter.Finalize();
    return out.str();
}

/// A single-repetition row of benchmark `name` as Google Benchmark reports it:
/// one run of `seconds`, in the suite's position `family` (its family_index).
benchmark::BenchmarkReporter::Run single_run(const std::string& name, double seconds, int family) {
    benchmark::BenchmarkReporter::Run r;
    r.run_name.function_name = name;
    r.family_index = family;
    r.iterations = 1;
    r.repetitions = 1;
    r.time_unit = benchmark::kMillisecond;
    r.real_accumulated_time = seconds;
    return r;
}

/// Three repetitions of hello/limit (10 ms a run on a CPU; the third took
/// 3.01 s of wall time: 3 s off a CPU that no cpu_wait or steal_time
/// explains) and of hello/fwrite (as varied in wall time, but its CPU time,
/// or its waiting for a CPU, accounts for it), with their median rows.
std::vector<benchmark::BenchmarkReporter::Run> stopped_limit_and_busy_fwrite() {
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

Ran run_all(const std::vector<Case>& cases, double scale = 1e-4, int repetitions = 1) {
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
    benchmark::ClearRegisteredBenchmarks();
    Ran ran;
    ran.cases = cases;
    register_benchmarks(cases, session, ran.outcomes, repetitions, 0.01);
    Collector collector;
    benchmark::RunSpecifiedBenchmarks(&collector);
    benchmark::ClearRegisteredBenchmarks();
    ran.runs = collector.all;
    return ran;
}

/// Google Benchmark's rows of a run of `cases`.
std::vector<benchmark::BenchmarkReporter::Run> run_cases(const std::vector<Case>& cases, double scale = 1e-4) {
    return run_all(cases, scale).runs;
}

Case make_case(const char* workload, const char* method, std::size_t buffer_size = 0) {
    const Workload* w = find_workload(workload);
    const Method* m = find_method(method);
    Params p;
    p.buffer_size = buffer_size;
    return {w, m, p, case_name(*w, *m, p)};
}

/// The counter `name` of the only run in `runs` (which must have passed).
double counter_of(const std::vector<benchmark::BenchmarkReporter::Run>& runs, const char* name) {
    EXPECT_EQ(runs.size(), 1u);
    if (runs.empty()) return -1;
    EXPECT_FALSE(runs[0].error_occurred) << runs[0].error_message;
    const auto it = runs[0].counters.find(name);
    EXPECT_NE(it, runs[0].counters.end()) << "no counter " << name;
    return it == runs[0].counters.end() ? -1 : it->second.value;
}

TEST(Runner, VerifiedRunReportsRatesFromWallTime) {
    const auto runs = run_cases({make_case("ints_out", "obuf")});
    ASSERT_EQ(runs.size(), 1u);
    const auto& r = runs[0];
    EXPECT_FALSE(r.error_occurred) << r.error_message;
    EXPECT_EQ(r.counters.at("verified").value, 1.0);
    EXPECT_EQ(r.counters.at("buffer_size").value, static_cast<double>(obuf_buffer_size));
    // bytes_per_second x seconds per run = bytes per run (3,890 for 1,000 integers).
    const double seconds_per_run = r.real_accumulated_time / static_cast<double>(r.iterations);
    const double bytes_per_second = r.counters.at("bytes_per_second").value;
    const double items_per_second = r.counters.at("items_per_second").value;
    EXPECT_NEAR(bytes_per_second * seconds_per_run, 3890.0, 3890.0 * 1e-6);
    EXPECT_NEAR(items_per_second * seconds_per_run, 1000.0, 1000.0 * 1e-6);
}

TEST(Runner, WrongOutputReportsAnErrorNotATime) {
    const Ran ran = run_all({make_case("hello", "broken_one_byte")});
    const auto& runs = ran.runs;
    ASSERT_EQ(runs.size(), 1u);
    const Outcome* outcome = ran.outcomes.find("hello/broken_one_byte");
    ASSERT_NE(outcome, nullptr);
    EXPECT_EQ(outcome->status, Status::failed);
    EXPECT_EQ(outcome->reason.rfind("verification failed: output differs", 0), 0u) << outcome->reason;
    EXPECT_EQ(ran.outcomes.failed(), 1);
    // The row says the same: an error with the reason, and no time or rates.
    EXPECT_TRUE(runs[0].error_occurred);
    EXPECT_EQ(runs[0].error_message, outcome->reason);
    EXPECT_EQ(runs[0].counters.count("verified"), 0u);
    EXPECT_EQ(runs[0].counters.count("bytes_per_second"), 0u);
}

TEST(Runner, FailingCallReportsTheSystemError) {
    const auto runs = run_cases({make_case("ints_out", "broken_disk_full")});
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_TRUE(runs[0].error_occurred);
    // The C library's own text for ENOSPC: "No space left on device" (glibc,
    // MSVCRT), "no space on device" (MSVC's STL).
    const std::string text = std::generic_category().message(ENOSPC);
    EXPECT_NE(runs[0].error_message.find(text), std::string::npos) << runs[0].error_message;
}

/// Does nothing, correctly, and says it took 4 ms.
class NothingTrial final : public Trial {
public:
    void run() override {}
    std::string verify() override { return ""; }
    std::optional<double> measured_seconds() const override { return 0.004; }
};

/// A workload whose trial cannot be prepared from its `fail_from`-th call
/// on, as when the disk fills between two repetitions.
class PrepareFailsLater final : public Workload {
public:
    explicit PrepareFailsLater(int fail_from)
        : Workload({.name = "prepare_fails_later",
                    .description = "test: preparing fails from the Nth call on",
                    .operation = Operation::put_ints,
                    .item_unit = "item",
                    .default_count = 1}),
          fail_from_(fail_from) {}

protected:
    std::unique_ptr<Trial> make_method_trial(const Method&, const Params&, Session&) const override {
        if (++calls_ >= fail_from_)
            throw io_error("open", "output", std::error_code(ENOSPC, std::generic_category()));
        return std::make_unique<NothingTrial>();
    }

private:
    int fail_from_;
    mutable int calls_ = 0;
};

TEST(Runner, RepetitionThatCannotBePreparedFailsItsRowAndKeepsTheOthers) {
    // Google Benchmark calls the benchmark several times in its first
    // repetition, growing the iteration count until the run takes
    // --benchmark_min_time (0.01 s: 1, then 4 runs of 4 ms), then once per
    // repetition: the 4th call is the third repetition.
    const PrepareFailsLater workload(4);
    const Case failing{&workload, find_method("obuf"), {}, "prepare_fails_later/obuf"};
    const Ran ran = run_all({failing, make_case("ints_out", "obuf")}, 1e-4, 6);
    const Outcome* outcome = ran.outcomes.find("prepare_fails_later/obuf");
    ASSERT_NE(outcome, nullptr);
    EXPECT_EQ(outcome->status, Status::failed);
    EXPECT_EQ(outcome->reason.rfind("preparing the files failed: open(output): ", 0), 0u) << outcome->reason;
    int ok_repetitions = 0, failed_repetitions = 0, other_rows = 0;
    for (const auto& r : ran.runs) {
        if (r.run_type != benchmark::BenchmarkReporter::Run::RT_Iteration) continue;
        if (r.run_name.function_name == "prepare_fails_later/obuf") (r.error_occurred ? failed_repetitions : ok_repetitions)++;
        else if (!r.error_occurred) ++other_rows;
    }
    EXPECT_GE(ok_repetitions, 1);
    EXPECT_GE(failed_repetitions, 1);
    EXPECT_EQ(ok_repetitions + failed_repetitions, 6);
    EXPECT_EQ(other_rows, 6);  // the next benchmark ran every repetition
    const Outcome* other = ran.outcomes.find("ints_out/obuf");
    ASSERT_NE(other, nullptr);
    EXPECT_TRUE(other->ok()) << other->reason;
}

TEST(Runner, ErrorInOneBenchmarkDoesNotStopTheOthers) {
    const auto runs = run_cases({make_case("ints_in", "broken_drops_first"), make_case("ints_in", "ibuf")});
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_TRUE(runs[0].error_occurred);
    EXPECT_FALSE(runs[1].error_occurred) << runs[1].error_message;
}

TEST(Runner, MethodRefusedAtRunTimeIsSkippedWithTheReasonNotFailed) {
    // fread, not read(2): the test runs on Windows too.
    const Ran ran = run_all({make_case("file_read", "broken_unavailable"), make_case("file_read", "fread")});
    const auto& runs = ran.runs;
    ASSERT_EQ(runs.size(), 2u);
    const Outcome* skipped = ran.outcomes.find("file_read/broken_unavailable/cache:warm");
    ASSERT_NE(skipped, nullptr);
    EXPECT_EQ(skipped->status, Status::skipped);
    EXPECT_EQ(skipped->reason, "test: refused by the platform");
    EXPECT_EQ(ran.outcomes.failed(), 0);
    const Outcome* ok = ran.outcomes.find("file_read/fread/cache:warm");
    ASSERT_NE(ok, nullptr);
    EXPECT_TRUE(ok->ok()) << ok->reason;
    // Google Benchmark's row (and so the JSON, which tools/ reads): an error
    // whose message starts with "skipped: ".
    EXPECT_TRUE(runs[0].error_occurred);
    EXPECT_EQ(runs[0].error_message, "skipped: test: refused by the platform");
    EXPECT_FALSE(runs[1].error_occurred) << runs[1].error_message;
    EXPECT_EQ(runs[1].run_name.function_name, "file_read/fread/cache:warm");
#ifndef _WIN32  // page-cache residency (mincore) is not measured on Windows
    EXPECT_GT(runs[1].counters.at("resident_at_start").value, 0.9);  // warm: read once before
#endif
}

TEST(Runner, AColdRowSaysHowItsPagesWereDroppedOrIsSkippedWithTheReason) {
    Params cold;
    cold.cache = CacheState::cold;
    const Workload* file_read = find_workload("file_read");
    const Method* fread = find_method("fread");
    const Ran ran = run_all({{file_read, fread, cold, case_name(*file_read, *fread, cold)}});
    ASSERT_EQ(ran.runs.size(), 1u);
    const auto& r = ran.runs[0];
    const Outcome* outcome = ran.outcomes.find("file_read/fread/cache:cold");
    ASSERT_NE(outcome, nullptr);
    if (!wine_version().empty()) {
        // Nothing drops Linux's page cache from inside wine: never a warm run under a cold name.
        EXPECT_EQ(outcome->status, Status::skipped);
        EXPECT_EQ(r.error_message.rfind("skipped: no cold page cache under wine ", 0), 0u) << r.error_message;
        return;
    }
    if (outcome->status == Status::skipped) GTEST_SKIP() << outcome->reason;  // a temporary directory on tmpfs
    ASSERT_FALSE(r.error_occurred) << r.error_message;
#ifdef _WIN32
    EXPECT_EQ(r.report_label.rfind("cache dropped: FILE_FLAG_NO_BUFFERING open", 0), 0u) << r.report_label;
#else
    EXPECT_EQ(r.report_label, "cache dropped: fdatasync + posix_fadvise(POSIX_FADV_DONTNEED)");
#endif
}

TEST(Runner, WritesThroughTheRingHaveNoCallCountsRatherThanZero) {
    // obuf_io_uring's writes are requests in the ring: write_calls would say 0.
    const Method* m = find_method("obuf_io_uring");
    ASSERT_NE(m, nullptr);
    EXPECT_FALSE(m->calls_not_counted.empty());
    EXPECT_TRUE(m->process_counters);  // io-wq workers copy the bytes
    if (!m->unavailable.empty()) GTEST_SKIP() << m->unavailable;
    const Ran ran = run_all({make_case("ints_out", "obuf_io_uring", 4096)});
    ASSERT_EQ(ran.runs.size(), 1u);
    if (ran.runs[0].error_occurred) GTEST_SKIP() << ran.runs[0].error_message;  // io_uring refused here
    EXPECT_EQ(ran.runs[0].counters.count("write_calls"), 0u);
    EXPECT_EQ(ran.runs[0].counters.count("bytes_per_call"), 0u);
    EXPECT_EQ(ran.runs[0].counters.count("verified"), 1u);
    EXPECT_EQ(ran.runs[0].counters.count("system_time"), 1u);
}

TEST(Runner, AChildsWorkReportsOnlyTheMachineWideCounters) {
    // binary_size runs its program in a child process: this process's calls
    // and CPU time are not the work's, so they are left out (unknown, not 0).
#ifdef _WIN32
    const char* method = "WriteFile";
#else
    const char* method = "write";
#endif
    const Ran ran = run_all({make_case("binary_size", method)});
    ASSERT_EQ(ran.runs.size(), 1u);
    ASSERT_FALSE(ran.runs[0].error_occurred) << ran.runs[0].error_message;
    for (OsCounter c : {OsCounter::read_calls, OsCounter::write_calls, OsCounter::user_time, OsCounter::system_time,
                        OsCounter::page_faults})
        EXPECT_EQ(ran.runs[0].counters.count(std::string(os_counter_name(c))), 0u) << os_counter_name(c);
    EXPECT_EQ(ran.runs[0].counters.count("binary_size"), 1u);
    EXPECT_EQ(ran.runs[0].counters.count("verified"), 1u);
}

TEST(Runner, IoThroughTheRingHasNoCallCountsRatherThanZero) {
    // io_uring's reads are requests in the ring: read_calls would say 0.
    const Method* m = find_method("io_uring_qd1");
    ASSERT_NE(m, nullptr);
    EXPECT_FALSE(m->calls_not_counted.empty());
    if (!m->unavailable.empty()) GTEST_SKIP() << m->unavailable;
    Params p;
    p.buffer_size = 4096;
    const Case c{find_workload("file_read"), m, p, case_name(*find_workload("file_read"), *m, p)};
    const Ran ran = run_all({c});
    ASSERT_EQ(ran.runs.size(), 1u);
    if (ran.runs[0].error_occurred) GTEST_SKIP() << ran.runs[0].error_message;  // io_uring refused here
    EXPECT_EQ(ran.runs[0].counters.count("read_calls"), 0u);
    EXPECT_EQ(ran.runs[0].counters.count("write_calls"), 0u);
    EXPECT_EQ(ran.runs[0].counters.count("bytes_per_call"), 0u);
    EXPECT_EQ(ran.runs[0].counters.count("verified"), 1u);
}

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
    SummaryConsoleReporter reporter(outcomes, no_cases, benchmark::ConsoleReporter::OO_None);
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
    SummaryConsoleReporter reporter(outcomes, no_cases, benchmark::ConsoleReporter::OO_None);
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

TEST(Report, TheSummaryFollowsTheRulesOfTheSpecification) {
    // tests/data/report_rules.json: every rule's value is core/report_rules.hpp's, and
    // the summary of rows that trip every rule writes each rule's phrase.
    std::ifstream in(IOBENCH_TEST_DATA_DIR "/report_rules.json");
    ASSERT_TRUE(in) << "cannot open " << IOBENCH_TEST_DATA_DIR "/report_rules.json";
    const auto spec = nlohmann::json::parse(in);
    const std::map<std::string, double> values = {
        {"cv_flag", report_rules::cv_flag},
        {"interval_flag", report_rules::interval_flag},
        {"confidence", report_rules::confidence},
        {"min_repetitions_for_interval", report_rules::min_repetitions_for_interval},
        {"interference_share", report_rules::interference_share},
        {"min_seconds_for_cpu_share", report_rules::min_seconds_for_cpu_share},
        {"stopped_share", report_rules::stopped_share},
        {"stopped_min_seconds", report_rules::stopped_min_seconds}};
    ASSERT_EQ(spec["rules"].size(), values.size());
    for (const auto& rule : spec["rules"]) {
        const std::string name = rule["name"];
        ASSERT_EQ(values.count(name), 1u) << name << " is not in core/report_rules.hpp";
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
    const std::string valgrind = summary_of({counted, uncounted}, "valgrind");
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
    const std::string perf = summary_of({counted, uncounted}, "perf");
    EXPECT_NE(perf.find("counted by perf"), std::string::npos) << perf;
    EXPECT_EQ(perf.find("under valgrind"), std::string::npos) << perf;
    // Without the counter, no column and no note.
    const std::string plain = summary_of({single_run("hello/obuf", 0.5, 0)});
    EXPECT_EQ(plain.find("instr/item"), std::string::npos) << plain;
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

#ifndef _WIN32  // the console workloads fork a child per run
TEST(Runner, ConsoleRunsReportTheChildsTimeAndWriteCalls) {
    // At the published 10,000 messages a run is long enough (milliseconds)
    // for a few iterations to reach the minimum time; a child is forked per run.
    const auto runs = run_cases({make_case("console_short", "write")}, 1.0);
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_FALSE(runs[0].error_occurred) << runs[0].error_message;
    EXPECT_EQ(runs[0].counters.at("verified").value, 1.0);
    EXPECT_EQ(runs[0].counters.at("write_calls").value, 10000.0);  // one write(2) per message, counted in the child
    EXPECT_EQ(runs[0].counters.at("read_calls").value, 0.0);
    EXPECT_EQ(runs[0].counters.at("bytes_per_call").value, 13.0);  // "Hello, C!!!!\n"
    EXPECT_GE(runs[0].counters.at("system_time").value, 0.0);
    EXPECT_GT(runs[0].real_accumulated_time, 0.0);
}
#endif

// --- the operating system's counters: exact counts at small sizes ---------

#ifndef _WIN32
TEST(OsCounters, CountExactlyTheCallsMadeBetweenTwoSnapshots) {
    ASSERT_NE(available_os_counters().find("write_calls"), std::string::npos) << available_os_counters();
    const int fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    ASSERT_GE(fd, 0);
    char byte = 'x';
    const OsCounters before = take_os_snapshot();
    for (int i = 0; i < 3; ++i) ASSERT_EQ(::write(fd, &byte, 1), 1);
    const OsCounters after = take_os_snapshot();
    ::close(fd);
    const OsCounters d = os_counters_between(before, after);
    ASSERT_TRUE(d.has(OsCounter::write_calls));
    ASSERT_TRUE(d.has(OsCounter::read_calls));
    EXPECT_EQ(d[OsCounter::write_calls], 3.0);
    EXPECT_EQ(d[OsCounter::read_calls], 0.0);  // the snapshots' own reads of /proc are taken out
    EXPECT_GE(d[OsCounter::user_time], 0.0);
}

TEST(OsCounters, AProcessSnapshotCountsTheCallsAndTimeOfOtherThreads) {
    const int fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    ASSERT_GE(fd, 0);
    // Five writes and 50 ms of CPU time on a thread that has ended by the
    // second snapshot: its counts must still be in the process's.
    const auto other_thread = [fd] {
        std::thread other([fd] {
            char byte = 'x';
            for (int i = 0; i < 5; ++i) EXPECT_EQ(::write(fd, &byte, 1), 1);
            timespec cpu{};
            volatile std::uint64_t spin = 0;
            do {
                for (int i = 0; i < 10000; ++i) spin = spin + 1;
                ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu);
            } while (cpu.tv_sec == 0 && cpu.tv_nsec < 50'000'000);
        });
        other.join();
    };
    other_thread();  // the first thread of a process may cost the runtime some calls (ASan's: two writes)
    const OsCounters process_before = take_os_snapshot(OsScope::process);
    other_thread();
    const OsCounters process = os_counters_between(process_before, take_os_snapshot(OsScope::process), OsScope::process);
    const OsCounters thread_before = take_os_snapshot();
    other_thread();
    const OsCounters thread = os_counters_between(thread_before, take_os_snapshot());
    ::close(fd);
    ASSERT_TRUE(process.has(OsCounter::write_calls));
    EXPECT_EQ(process[OsCounter::write_calls], 5.0);
    EXPECT_EQ(process[OsCounter::read_calls], 0.0);  // the snapshots' own reads of /proc are taken out
    EXPECT_EQ(thread[OsCounter::write_calls], 0.0);  // the calling thread made none
    ASSERT_TRUE(process.has(OsCounter::user_time));
    EXPECT_GE(process[OsCounter::user_time] + process[OsCounter::system_time], 0.045);
    EXPECT_LT(thread[OsCounter::user_time] + thread[OsCounter::system_time], 0.045);  // it waited in join
}

TEST(OsCounters, ObufThreadsWritesFromItsWriterThreadAreCounted) {
    // The write(2) calls are the writer thread's: counted because the row is
    // the process's (Method::process_counters), one per full 4 KiB buffer.
    const Method* m = find_method("obuf_thread");
    ASSERT_NE(m, nullptr);
    EXPECT_TRUE(m->process_counters);
    const auto runs = run_cases({make_case("hello", "obuf_thread", 4096)});  // 120,000 bytes
    EXPECT_EQ(counter_of(runs, "write_calls"), std::ceil(120000.0 / 4096));
    EXPECT_EQ(counter_of(runs, "bytes_per_call"), 120000.0 / std::ceil(120000.0 / 4096));
}

TEST(OsCounters, HelloWriteMakesOneWriteCallPerLine) {
    const auto runs = run_cases({make_case("hello", "write")});  // 10,000 lines of 12 bytes
    EXPECT_EQ(counter_of(runs, "write_calls"), 10000.0);
    EXPECT_EQ(counter_of(runs, "read_calls"), 0.0);
    EXPECT_EQ(counter_of(runs, "bytes_per_call"), 12.0);
}

TEST(OsCounters, ObufMakesOneWriteCallPerFullBuffer) {
    const auto runs = run_cases({make_case("hello", "obuf", 4096)});  // 120,000 bytes
    EXPECT_EQ(counter_of(runs, "write_calls"), std::ceil(120000.0 / 4096));
}

TEST(OsCounters, FwriteMakesOneWriteCallPerStdioBuffer) {
    // glibc gives a FILE on a regular file a buffer of st_blksize bytes.
    test::TempDir dir;
    const std::string probe = (dir.path() / "probe").string();
    const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    ASSERT_GE(fd, 0);
    struct stat st {};
    ASSERT_EQ(::fstat(fd, &st), 0);
    ::close(fd);
    const auto runs = run_cases({make_case("hello", "fwrite")});
    EXPECT_EQ(counter_of(runs, "write_calls"), std::ceil(120000.0 / static_cast<double>(st.st_blksize)));
}

TEST(OsCounters, IbufReadsOneBufferPerCallPlusTheFinalEmptyRead) {
    const auto runs = run_cases({make_case("ints_in", "ibuf", 65536)}, 1e-2);  // 100,000 integers, 588,890 bytes
    EXPECT_EQ(counter_of(runs, "read_calls"), std::ceil(588890.0 / 65536) + 1);
    EXPECT_EQ(counter_of(runs, "write_calls"), 0.0);
}
#endif

TEST(OsCounters, WhyCallsAreNotCountedIsWordedFromWhatTheCheckFound) {
    const std::string_view source = "GetProcessIoCounters", probe = "one WriteFile and one ReadFile";
    // Counted: one write and one read moved the counts by one each, wine or not.
    EXPECT_EQ(calls_not_counted_reason(source, probe, true, 1, 1, ""), "");
    EXPECT_EQ(calls_not_counted_reason(source, probe, true, 1, 1, "9.0"), "");
    // What wine 8.0 gives: zeros however many calls are made.
    EXPECT_EQ(calls_not_counted_reason(source, probe, true, 0, 0, "8.0"),
              "not counted under wine: GetProcessIoCounters counted 0 writes and 0 reads for one WriteFile and one "
              "ReadFile");
    EXPECT_EQ(calls_not_counted_reason("/proc/thread-self/io", "one write(2) and one read(2)", true, 1, 3, ""),
              "not counted: /proc/thread-self/io counted 1 write and 3 reads for one write(2) and one read(2)");
    EXPECT_EQ(calls_not_counted_reason(source, probe, false, 0, 0, ""), "not counted: GetProcessIoCounters cannot be read");
    EXPECT_EQ(calls_not_counted_reason(source, probe, false, 0, 0, "8.0"),
              "not counted under wine: GetProcessIoCounters cannot be read");
}

TEST(OsCounters, CallsAreCountedOrEveryRowSaysWhy) {
#ifdef _WIN32
    // wine_version() from ntdll's export agrees with wine's own registry key,
    // which Windows does not have.
    HKEY key = nullptr;
    const bool wine_key = RegOpenKeyExW(HKEY_CURRENT_USER, L"Software\\Wine", 0, KEY_READ, &key) == ERROR_SUCCESS;
    if (wine_key) RegCloseKey(key);
    EXPECT_EQ(!wine_version().empty(), wine_key) << wine_version();
#else
    EXPECT_EQ(wine_version(), "");
#endif
    const std::string reason = calls_not_counted_here();
    const bool counted = reason.empty();
    EXPECT_EQ(available_os_counters().find("write_calls") != std::string::npos, counted) << available_os_counters();
    if (!wine_version().empty() && !counted) {
        EXPECT_EQ(reason.rfind("not counted under wine: GetProcessIoCounters ", 0), 0u) << reason;
    }
#ifdef __linux__
    EXPECT_TRUE(counted) << reason;
#endif
    // A row of a method whose calls are system calls: counted, or the reason in its structure and the summary.
    const Case c = make_case("hello", "fwrite");
    EXPECT_EQ(row_structure(c).calls_not_counted, reason);
    const Ran ran = run_all({c});
    ASSERT_EQ(ran.runs.size(), 1u);
    ASSERT_FALSE(ran.runs[0].error_occurred) << ran.runs[0].error_message;
    EXPECT_EQ(ran.runs[0].counters.count("write_calls"), counted ? 1u : 0u);
    EXPECT_EQ(ran.runs[0].counters.count("bytes_per_call"), counted ? 1u : 0u);
    const CaseIndex index(ran.cases);
    std::ostringstream out;
    SummaryConsoleReporter reporter(ran.outcomes, index, benchmark::ConsoleReporter::OO_None);
    reporter.SetOutputStream(&out);
    reporter.SetErrorStream(&out);
    reporter.ReportRuns(ran.runs);
    reporter.Finalize();
    const std::string note = "\n- in the calls columns of every row: " + reason + ".\n";
    EXPECT_EQ(out.str().find(note) != std::string::npos, !counted) << out.str();
}

#ifdef _WIN32
TEST(OsCounters, WriteFileCallsAreCountedExactlyWhereWindowsCountsThem) {
    // Windows itself: GetProcessIoCounters counts every WriteFile. Under wine
    // 8.0 it returns zeros: this path runs only on Windows.
    if (const std::string reason = calls_not_counted_here(); !reason.empty()) GTEST_SKIP() << reason;
    const HANDLE nul = CreateFileW(L"NUL", GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr, OPEN_EXISTING,
                                   0, nullptr);
    ASSERT_NE(nul, INVALID_HANDLE_VALUE);
    char byte = 'x';
    DWORD done = 0;
    const OsCounters before = take_os_snapshot();
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(WriteFile(nul, &byte, 1, &done, nullptr));
    const OsCounters after = take_os_snapshot();
    CloseHandle(nul);
    const OsCounters d = os_counters_between(before, after);
    ASSERT_TRUE(d.has(OsCounter::write_calls));
    EXPECT_EQ(d[OsCounter::write_calls], 3.0);
    EXPECT_EQ(d[OsCounter::read_calls], 0.0);
}
#endif

TEST(OsCounters, LimitWritesAndReadsOneMebibytePerCall) {
    const auto out = run_cases({make_case("hello", "limit")}, 1e-2);  // 1,000,000 lines, 12,000,000 bytes
    EXPECT_EQ(counter_of(out, "verified"), 1.0);
    // Wine's GetProcessIoCounters counts no operation: there the call counts
    // are left out (OsCounters.CallsAreCountedOrEveryRowSaysWhy).
    if (const std::string reason = calls_not_counted_here(); !reason.empty()) GTEST_SKIP() << reason;
    EXPECT_EQ(counter_of(out, "write_calls"), std::ceil(12e6 / 1048576));
    const auto in = run_cases({make_case("ints_in", "limit")}, 1e-2);  // 588,890 bytes
    EXPECT_EQ(counter_of(in, "read_calls"), 2.0);  // one full read, then end of file
}

TEST(Runner, RunsPerRepetitionReachTheMinimumTimeWithinABoundedWallTime) {
    // A 35 ms run whose reset and verify bring it to 60 ms: Google Benchmark's
    // 15 runs for 0.5 s of measured time (they fit in 2 x 0.5 s).
    EXPECT_EQ(runs_per_repetition({0.035, 0.060}, 0.5), 15);
    // A 0.2 us run behind 1 ms of setup (a child process per run): not the
    // 50,000 runs 0.01 s of measured time would take, 20 (0.02 s of wall time).
    EXPECT_EQ(runs_per_repetition({2e-7, 1e-3}, 0.01), 20);
    // A run longer than the minimum time: once.
    EXPECT_EQ(runs_per_repetition({6.0, 6.2}, 0.5), 1);
    // A run too short for the clock: bounded by its whole cost, or 10^6.
    EXPECT_EQ(runs_per_repetition({0.0, 1e-3}, 0.5), 1000);
    EXPECT_EQ(runs_per_repetition({0.0, 0.0}, 0.5), 1'000'000);
}

TEST(Runner, SizingRunTimesTheMeasuredPartAndTheWhole) {
    test::TempDir dir;
    Session session(dir.path(), 1e-4, false);
    const auto cost = size_run(make_case("ints_out", "obuf"), session);
    ASSERT_TRUE(cost.has_value());
    EXPECT_GT(cost->measured, 0);
    EXPECT_GE(cost->whole, cost->measured);
    EXPECT_FALSE(size_run(make_case("hello", "broken_one_byte"), session).has_value()) << "verification fails";
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
