// The runner on Google Benchmark: a verified run reports time and rates from
// the measured (manual) wall time; a wrong method or a failing call reports an
// error with the reason and no time.
#include <benchmark/benchmark.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include <iobench/error.hpp>
#include <iobench/method.hpp>
#include "core/engine/case_trial.hpp"
#include "core/os/environment.hpp"
#include "core/os/instructions.hpp"
#include "methods/buffer_sizes.hpp"
#include "runner_support.hpp"

namespace iobench {
namespace {

using namespace test;

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

TEST(Runner, BufferSizeUsedIsTheBufParameterElseTheMethodsDefault) {
    Method buffered;
    buffered.default_buffer_size = 8192;
    const Method unsized;  // unbuffered, or a library's buffer the method does not size
    Params none, set;
    set.buffer_size = 512;
    EXPECT_EQ(buffer_size_used(buffered, none), 8192u);
    EXPECT_EQ(buffer_size_used(buffered, set), 512u);
    EXPECT_EQ(buffer_size_used(unsized, none), 0u);
    EXPECT_EQ(buffer_size_used(unsized, set), 512u);
    // A /buf row reports its size (without one, obuf's default: VerifiedRunReportsRatesFromWallTime).
    const auto runs = run_cases({make_case("ints_out", "obuf", 4096)});
    EXPECT_EQ(counter_of(runs, "buffer_size"), 4096.0);
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
    // The share of the file in memory when each run began: measured, so on
    // the row even when it is 0 (every page dropped).
    ASSERT_EQ(r.counters.count("resident_at_start"), 1u);
    EXPECT_LT(r.counters.at("resident_at_start").value, 0.5);
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

TEST(Runner, WorkInAnotherProcessGetsNoInstructionCount) {
    // --instructions counts this process's instructions around run(). Where
    // another process does the work (a program method's, a console
    // workload's child, binary_size's program), they would be iobench's own
    // waiting and pipe traffic (16.85 per item for go_bufio.Writer's hello
    // rows once), which the legend promises as `-`: no count at all.
    test::TempDir dir;
    Session session(dir.path(), 1e-4, false);
    std::vector<std::string> checked;
    for (const auto& w : workloads()) {
        for (const Method& m : methods()) {
            const bool program = !m.program.file.empty();
            const bool console = w->name().starts_with("console_");
            if (!(program || console || w->name() == "binary_size")) continue;
            if (!w->takes(m) || !w->unavailable(m).empty()) continue;
            const std::string name = case_name(*w, m, {});
            SCOPED_TRACE(name);
            std::unique_ptr<Trial> trial;
            try {
                trial = trial_for(*w, m, {}, session);
            } catch (const unavailable_error&) {
                continue;  // a program not built (program_missing): skipped when it runs
            }
            EXPECT_TRUE(trial->work_in_child);
            for (InstructionSource source : {InstructionSource::perf, InstructionSource::valgrind})
                EXPECT_FALSE(counts_instructions(*trial, source)) << to_string(source);
            trial->finish();
            checked.push_back(name);
        }
    }
    const auto has = [&](const std::string& name) {
        return std::find(checked.begin(), checked.end(), name) != checked.end();
    };
#ifndef _WIN32
    EXPECT_TRUE(has("console_short/write"));
    EXPECT_TRUE(has("binary_size/write"));
#endif
    if (find_method("program_well_behaved")->unavailable.empty()) {
        EXPECT_TRUE(has("hello/program_well_behaved"));
        EXPECT_TRUE(has("ints_in/program_well_behaved"));
    }
    // A method of this process is counted, where a counter is on.
    const std::unique_ptr<Trial> own = trial_for(*find_workload("hello"), *find_method("obuf"), {}, session);
    EXPECT_FALSE(own->work_in_child);
    EXPECT_TRUE(counts_instructions(*own, InstructionSource::perf));
    EXPECT_TRUE(counts_instructions(*own, InstructionSource::valgrind));
    EXPECT_FALSE(counts_instructions(*own, InstructionSource::none));
    own->finish();
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

#ifndef _WIN32  // write(2) per message, counted in the forked child (Windows: console_test.cpp)
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

/// A run's cost: `measured` seconds inside the measurement, `whole` in all.
RunCost cost_of(double measured, double whole) {
    RunCost cost;
    cost.measured = measured;
    cost.whole = whole;
    return cost;
}

TEST(Runner, RunsPerRepetitionReachTheMinimumTimeWithinABoundedWallTime) {
    // A 35 ms run whose reset and verify bring it to 60 ms: Google Benchmark's
    // 15 runs for 0.5 s of measured time (they fit in 2 x 0.5 s).
    EXPECT_EQ(runs_per_repetition(cost_of(0.035, 0.060), 0.5), 15);
    // A 0.2 us run behind 1 ms of setup (a child process per run): not the
    // 50,000 runs 0.01 s of measured time would take, 20 (0.02 s of wall time).
    EXPECT_EQ(runs_per_repetition(cost_of(2e-7, 1e-3), 0.01), 20);
    // A run longer than the minimum time: once.
    EXPECT_EQ(runs_per_repetition(cost_of(6.0, 6.2), 0.5), 1);
    // A run too short for the clock: bounded by its whole cost, or 10^6.
    EXPECT_EQ(runs_per_repetition(cost_of(0.0, 1e-3), 0.5), 1000);
    EXPECT_EQ(runs_per_repetition(cost_of(0.0, 0.0), 0.5), 1'000'000);
}

TEST(Runner, ARunOverlappedByPageReportingIsDoneAgainOnlyWhenLargeShortAndAtMostTwice) {
    // 632 MiB reported to the hypervisor during a 0.54 s hello/limit run (1.2 GB
    // written) whose sizing run took 0.24 s.
    const std::uint64_t hello = 1'200'001'024;
    OsCounters reported;
    reported.set(OsCounter::page_reported_bytes, 632.0 * 1024 * 1024);
    EXPECT_TRUE(may_redo_run(reported, hello, 0.24, 0));
    EXPECT_TRUE(may_redo_run(reported, hello, 0.24, max_runs_redone - 1));
    EXPECT_FALSE(may_redo_run(reported, hello, 0.24, max_runs_redone)) << "at most max_runs_redone times";
    // A run as long as the kernel's 2 s reporting delay overlaps a pass most times: kept.
    EXPECT_FALSE(may_redo_run(reported, hello, redo_below_seconds, 0));
    EXPECT_FALSE(may_redo_run(reported, hello, 1.8, 0));
    // A small output (ints_out at --scale 0.01: 790 KB) or a read: too few new pages to matter; kept.
    EXPECT_TRUE(may_redo_run(reported, redo_from_bytes, 0.24, 0));
    EXPECT_FALSE(may_redo_run(reported, redo_from_bytes - 1, 0.24, 0));
    EXPECT_FALSE(may_redo_run(reported, 790'000, 0.01, 0));
    EXPECT_FALSE(may_redo_run(reported, 0, 0.01, 0));
    // Nothing reported, or a machine whose kernel does not say: kept.
    OsCounters quiet;
    quiet.set(OsCounter::page_reported_bytes, 0);
    EXPECT_FALSE(may_redo_run(quiet, hello, 0.24, 0));
    EXPECT_FALSE(may_redo_run(OsCounters{}, hello, 0.24, 0));
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

TEST(Runner, AFailedSizingRunFailsTheBenchmarkThoughTheRunsAfterItVerify) {
    // broken_first_run_only drops a line in its first run only: the sizing run.
    const test::Ran ran = test::run_all({make_case("ints_out", "broken_first_run_only")}, 1e-4, 3);
    int repetitions = 0;
    for (const auto& r : ran.runs) {
        if (r.run_type != benchmark::BenchmarkReporter::Run::RT_Iteration) continue;
        ++repetitions;
        EXPECT_TRUE(r.error_occurred);
        EXPECT_EQ(r.error_message.rfind("verification failed: ", 0), 0u) << r.error_message;
        EXPECT_NE(r.error_message.find("; in its sizing run (its repetitions did not run)"), std::string::npos)
            << r.error_message;
    }
    EXPECT_EQ(repetitions, 3);
    EXPECT_EQ(ran.outcomes.failed(), 1);
}

TEST(Runner, SizingRunCountsTheRunsSystemCallsByKind) {
    if (const std::string why = syscall_counts_unavailable(); !why.empty()) GTEST_SKIP() << why;
    test::TempDir dir;
    Session session(dir.path(), 1e-4, false);
    // 1,000 integers (3,890 bytes): obuf's one write of its buffer; no sync,
    // no lock; on one thread of this process, so the counts are exact.
    const auto cost = size_run(make_case("ints_out", "obuf"), session);
    ASSERT_TRUE(cost.has_value());
    ASSERT_TRUE(cost->syscalls.has_value());
    EXPECT_EQ((*cost->syscalls)[SyscallKind::write], 1.0);
    EXPECT_EQ((*cost->syscalls)[SyscallKind::sync], 0.0);
    EXPECT_EQ((*cost->syscalls)[SyscallKind::futex], 0.0);
    EXPECT_TRUE(cost->syscalls_exact);
    // One write(2) per line: 1,000 of them.
    const auto unbuffered = size_run(make_case("ints_out", "write"), session);
    ASSERT_TRUE(unbuffered.has_value());
    ASSERT_TRUE(unbuffered->syscalls.has_value());
    EXPECT_EQ((*unbuffered->syscalls)[SyscallKind::write], 1000.0);
}

TEST(AddedBuildFlags, EachDefinitionAndTheOptimisationLevelOnceAsTheCompilerTakesThem) {
    const std::string kept = added_build_flags();
    // CMAKE_CXX_FLAGS, the build type's, the package's: the last -O is the one used.
    set_added_build_flags("  -Wall -O3 -DNDEBUG  -O2 -DNDEBUG -include a.h -include b.h -DX=1 ");
    EXPECT_EQ(added_build_flags(), "-Wall -O2 -DNDEBUG -include a.h -include b.h -DX=1");
    set_added_build_flags("-O3 -DNDEBUG");
    EXPECT_EQ(added_build_flags(), "-O3 -DNDEBUG");
    set_added_build_flags(kept.c_str());
}

}  // namespace
}  // namespace iobench
