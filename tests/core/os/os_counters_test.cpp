// The OS counters: exactly the calls made between two snapshots, a
// process's or a thread's, and each method's calls as its buffer implies;
// where they are not counted, every row says why.
#include <benchmark/benchmark.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <time.h>

#ifdef _WIN32
#include <windows.h>
#else
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

#include "core/os/environment.hpp"
#include "core/os/os_counters.hpp"
#include "runner_support.hpp"

namespace iobench {
namespace {

using namespace test;

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

}  // namespace
}  // namespace iobench
