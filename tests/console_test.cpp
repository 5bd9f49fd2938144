// The console workloads (workloads/console.cpp): standard output is
// redirected for the measured call only, in a child process. The target gets
// exactly the expected bytes, iobench's own stdout never sees them, each
// target verifies what it can, and no run changes iobench's own streams.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "core/os_counters.hpp"
#include "core/session.hpp"
#include "workloads/console_trial.hpp"
#include "core/workload.hpp"
#include "test_dir.hpp"

namespace iobench {
namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool sanitized = true;  // byte counts on /dev/null are lower bounds there
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool sanitized = true;
#else
constexpr bool sanitized = false;
#endif
#else
constexpr bool sanitized = false;
#endif

struct Outcome {
    std::string verdict;   ///< verify()'s
    std::string content;   ///< the target file's bytes (file target only)
    double write_calls = -1;
    double seconds = -1;
};

/// Runs `workload`/`method` once at `scale` (1e-2: 100 messages) with stdout on `target`.
Outcome run_console(const char* workload, const char* method, StdoutTarget target, double scale = 1e-2) {
    test::TempDir dir;
    Session session(dir.path(), scale, false);
    session.set_stdout_target(target);
    const Workload* w = find_workload(workload);
    const Method* m = find_method(method);
    EXPECT_TRUE(w && m) << workload << "/" << method;
    auto trial = w->make_trial(*m, Params{}, session);
    trial->reset();
    trial->run();
    Outcome out;
    out.verdict = trial->verify();
    if (target == StdoutTarget::file) {
        std::ifstream in(session.output(fmt::format("{}-{}", workload, method)), std::ios::binary);
        std::ostringstream text;
        text << in.rdbuf();
        out.content = text.str();
    }
    if (const auto counted = trial->measured_counters(); counted && counted->has(OsCounter::write_calls))
        out.write_calls = (*counted)[OsCounter::write_calls];
    out.seconds = trial->measured_seconds().value_or(-1);
    trial->finish();
    return out;
}

std::string repeated(std::string_view line, int n) {
    std::string s;
    for (int i = 0; i < n; ++i) s += line;
    return s;
}

TEST(Console, WarmUpFillsTheMethodsBufferTwiceAndIsAtLeastATenth) {
    // console_short: 10,000 messages of 13 bytes. A tenth (1,000 = 13 KB)
    // would touch 4 of a 64 KiB buffer's 16 pages; twice 64 KiB needs 10,083.
    EXPECT_EQ(console_warmup_messages(10'000, 130'000, 64 << 10), 10'083u);
    // Unknown buffer (0) and a small one (4 KiB): 64 KiB twice all the same.
    EXPECT_EQ(console_warmup_messages(10'000, 130'000, 0), 10'083u);
    EXPECT_EQ(console_warmup_messages(10'000, 130'000, 4096), 10'083u);
    // A 1 MiB buffer: filled twice.
    EXPECT_EQ(console_warmup_messages(10'000, 130'000, 1 << 20), 161'320u);
    // Long messages at a large count: the tenth is more than enough.
    EXPECT_EQ(console_warmup_messages(10'000'000, 1'420'000'000, 64 << 10), 1'000'000u);
    EXPECT_EQ(console_warmup_messages(0, 0, 0), 131'073u);  // nothing known: 1-byte messages
}

TEST(Console, EveryTargetVerifiesAndReportsTheChildsTime) {
    for (StdoutTarget t : {StdoutTarget::devnull, StdoutTarget::file, StdoutTarget::pipe}) {
        const Outcome o = run_console("console_short", "fwrite", t);
        EXPECT_EQ(o.verdict, "") << to_string(t);
        EXPECT_GT(o.seconds, 0) << to_string(t);
        EXPECT_GE(o.write_calls, 1) << to_string(t);
    }
}

TEST(Console, TheFileGetsExactlyTheMessages) {
    const Outcome o = run_console("console_short", "printf", StdoutTarget::file);
    EXPECT_EQ(o.verdict, "");
    EXPECT_EQ(o.content, repeated("Hello, C!!!!\n", 100));
    const Outcome f = run_console("console_datetime", "fprintf", StdoutTarget::file);
    EXPECT_EQ(f.verdict, "");
    EXPECT_EQ(f.content, repeated("[2024-01-15 10:30:45] Status: 100 (99.50%)\n", 100));
}

TEST(Console, IobenchsOwnStdoutNeverMixesWithTheMeasuredOutput) {
    // iobench's stdout is a file here; it holds unflushed report text when the
    // measured run starts, in C stdio and in std::cout.
    test::TempDir dir;
    const std::string own = (dir.path() / "own-stdout").string();
    std::fflush(stdout);
    std::cout.flush();
    const int saved = ::dup(STDOUT_FILENO);
    ASSERT_GE(saved, 0);
    std::FILE* own_file = std::fopen(own.c_str(), "wb");
    ASSERT_NE(own_file, nullptr);
    ::dup2(::fileno(own_file), STDOUT_FILENO);
    struct stat before {};
    ::fstat(STDOUT_FILENO, &before);

    std::printf("report line from C stdio\n");
    std::cout << "report line from std::cout\n";
    Outcome file_run = run_console("console_medium", "fputs", StdoutTarget::file);
    Outcome pipe_run = run_console("console_medium", "cout", StdoutTarget::pipe);
    std::printf("report after the runs\n");

    struct stat after {};
    ::fstat(STDOUT_FILENO, &after);
    std::fflush(stdout);
    std::cout.flush();
    ::dup2(saved, STDOUT_FILENO);
    ::close(saved);
    std::fclose(own_file);

    EXPECT_EQ(file_run.verdict, "");
    EXPECT_EQ(pipe_run.verdict, "");
    EXPECT_EQ(file_run.content,
              repeated("Hello, C!!!! This is a medium length string for benchmarking.\n", 100));
    // fd 1 of iobench itself was never redirected...
    EXPECT_EQ(before.st_ino, after.st_ino);
    EXPECT_EQ(before.st_dev, after.st_dev);
    // ...and got iobench's text, in order, and none of the measured output.
    std::ifstream in(own, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    EXPECT_EQ(text.str(), "report line from C stdio\nreport line from std::cout\nreport after the runs\n");
}

TEST(Console, UnflushedOutputFailsOnEveryTarget) {
    // What the method leaves in stdout's buffer is lost when the child exits.
    EXPECT_NE(run_console("console_short", "broken_no_flush", StdoutTarget::file).verdict.find("output differs: 0 bytes"),
              std::string::npos);
    EXPECT_NE(run_console("console_short", "broken_no_flush", StdoutTarget::pipe).verdict.find("output differs: 0 bytes"),
              std::string::npos);
    const std::string devnull = run_console("console_short", "broken_no_flush", StdoutTarget::devnull).verdict;
    EXPECT_NE(devnull.find("the method passed 0 bytes to write calls"), std::string::npos) << devnull;
}

TEST(Console, ExtraOutputFails) {
    const std::string file = run_console("console_short", "broken_extra_message", StdoutTarget::file).verdict;
    EXPECT_NE(file.find("output differs: 1313 bytes"), std::string::npos) << file;
    EXPECT_NE(file.find("first difference at byte 1300"), std::string::npos) << file;
    EXPECT_NE(run_console("console_short", "broken_extra_message", StdoutTarget::pipe).verdict.find("1313 bytes"),
              std::string::npos);
    if (sanitized) GTEST_SKIP() << "on /dev/null a sanitizer build checks only a lower bound of the bytes";
    const std::string devnull = run_console("console_short", "broken_extra_message", StdoutTarget::devnull).verdict;
    EXPECT_NE(devnull.find("the method passed 1313 bytes to write calls, expected 1300"), std::string::npos)
        << devnull;
}

TEST(Console, BufferingModesShowInTheWriteCalls) {
    // 100 messages of 13 bytes (1,300 bytes): one write per message when
    // unbuffered or line buffered, one in all for a full buffer (4 KiB or BUFSIZ).
    EXPECT_EQ(run_console("console_short", "printf", StdoutTarget::devnull).write_calls, 1);
    EXPECT_EQ(run_console("console_short", "printf_IOFBF", StdoutTarget::devnull).write_calls, 1);
    EXPECT_EQ(run_console("console_short", "printf_IOLBF", StdoutTarget::devnull).write_calls, 100);
    EXPECT_EQ(run_console("console_short", "printf_IONBF", StdoutTarget::devnull).write_calls, 100);
    EXPECT_EQ(run_console("console_short", "write", StdoutTarget::devnull).write_calls, 100);
    EXPECT_EQ(run_console("console_short", "writev", StdoutTarget::devnull).write_calls, 100);
}

TEST(Console, SyncWithStdioFalseStaysInTheChild) {
    const Outcome o = run_console("console_int", "cout_unsynced", StdoutTarget::file);
    EXPECT_EQ(o.verdict, "");
    EXPECT_EQ(o.content, repeated("Value: 12345\n", 100));
    // Still synchronized here: sync_with_stdio(true) returns the previous setting.
    EXPECT_TRUE(std::ios::sync_with_stdio(true));
}

TEST(Console, TargetsHaveNames) {
    for (StdoutTarget t : {StdoutTarget::devnull, StdoutTarget::file, StdoutTarget::pipe})
        EXPECT_EQ(parse_stdout_target(to_string(t)), t);
    EXPECT_EQ(parse_stdout_target("tty"), std::nullopt);
}

}  // namespace
}  // namespace iobench
