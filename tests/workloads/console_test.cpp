// The console workloads (workloads/console.cpp): standard output is
// redirected for the measured call only, in a child process (fork(2) on
// POSIX, CreateProcessW on Windows). The target gets exactly the expected
// bytes, iobench's own stdout never sees them, each target verifies what it
// can, no run changes iobench's own streams, and a child that fails, writes
// the wrong bytes or cannot get its target says so.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>

#ifdef _WIN32
#include <io.h>
#include <windows.h>
#else
#include <sys/stat.h>
#include <unistd.h>
#endif

#include "core/engine/case_trial.hpp"
#include "core/engine/outcome.hpp"
#include "core/engine/session.hpp"
#include "core/engine/workload.hpp"
#include "core/os/os_counters.hpp"
#include "test_dir.hpp"
#include "workloads/console_child.hpp"
#include "workloads/console_trial.hpp"

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

/// True where the system counts a process's write calls (not under wine).
bool write_calls_counted() { return available_os_counters().find("write_calls") != std::string::npos; }

struct Result {
    Outcome outcome;                ///< how making, preparing and running the trial ended
    std::string verdict = "(not verified)";  ///< verify()'s, once the run returned
    std::string content;            ///< the target file's bytes (file target only)
    double write_calls = -1;        ///< the child's write calls; -1 when not counted
    double seconds = -1;
};

/// Runs `workload`/`method` once at `scale` (1e-2: 100 messages) with stdout
/// on `target`; `before_reset` runs first with the path of the file target.
Result run_console(const char* workload, const char* method, StdoutTarget target, double scale = 1e-2,
                   const std::function<void(const std::filesystem::path&)>& before_reset = {}) {
    test::TempDir dir;
    Session session(dir.path(), scale, false);
    session.set_stdout_target(target);
    const Workload* w = find_workload(workload);
    const Method* m = find_method(method);
    Result out;
    if (!w || !m) {
        ADD_FAILURE() << workload << "/" << method << " is not registered";
        return out;
    }
    const std::filesystem::path file = session.output(fmt::format("{}-{}", workload, method));
    if (before_reset) before_reset(file);
    std::unique_ptr<Trial> trial;
    out.outcome = outcome_of([&] { trial = trial_for(*w, *m, Params{}, session); });
    if (out.outcome.ok()) out.outcome = outcome_of([&] { trial->reset(); });
    if (out.outcome.ok()) out.outcome = outcome_of([&] { trial->run(); });
    if (out.outcome.ok()) {
        out.verdict = trial->verify();
        if (target == StdoutTarget::file) {
            std::ifstream in(file, std::ios::binary);
            std::ostringstream text;
            text << in.rdbuf();
            out.content = text.str();
        }
        if (const auto counted = trial->measured_counters(); counted && counted->has(OsCounter::write_calls))
            out.write_calls = (*counted)[OsCounter::write_calls];
        out.seconds = trial->measured_seconds().value_or(-1);
    }
    if (trial) trial->finish();
    return out;
}

std::string repeated(std::string_view line, int n) {
    std::string s;
    for (int i = 0; i < n; ++i) s += line;
    return s;
}

/// The targets whose bytes can be checked here: the null device only where
/// the system counts the bytes a process writes.
std::vector<StdoutTarget> verifiable_targets() {
    std::vector<StdoutTarget> targets{StdoutTarget::file, StdoutTarget::pipe};
    if (null_device_unverifiable().empty()) targets.push_back(StdoutTarget::devnull);
    return targets;
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
    for (StdoutTarget t : verifiable_targets()) {
        const Result o = run_console("console_short", "fwrite", t);
        EXPECT_TRUE(o.outcome.ok()) << to_string(t) << ": " << o.outcome.reason;
        EXPECT_EQ(o.verdict, "") << to_string(t);
        EXPECT_GT(o.seconds, 0) << to_string(t);
        if (write_calls_counted()) {
            EXPECT_GE(o.write_calls, 1) << to_string(t);
        } else {
            EXPECT_EQ(o.write_calls, -1) << to_string(t) << ": no count where none is kept";
        }
    }
}

TEST(Console, TheNullDeviceIsSkippedWithTheReasonWhereItCannotBeVerified) {
    // Linux counts the bytes a process writes (/proc/self/io), Windows too
    // (GetProcessIoCounters); wine counts nothing, and there a run whose
    // output nothing keeps is skipped, never reported unverified.
    const Result o = run_console("console_short", "fwrite", StdoutTarget::devnull);
    if (null_device_unverifiable().empty()) {
        EXPECT_TRUE(o.outcome.ok()) << o.outcome.reason;
        EXPECT_EQ(o.verdict, "");
    } else {
        EXPECT_EQ(o.outcome.status, Status::skipped);
        EXPECT_EQ(o.outcome.reason, null_device_unverifiable());
        EXPECT_NE(o.outcome.reason.find("use --stdout-target file or pipe"), std::string::npos);
    }
#ifdef _WIN32
    // Wine's GetProcessIoCounters counts nothing (what Windows itself does
    // is not known here: no Windows machine runs these tests).
    const HMODULE ntdll = GetModuleHandleW(L"ntdll.dll");
    if (ntdll && GetProcAddress(ntdll, "wine_get_version") != nullptr) {
        EXPECT_NE(null_device_unverifiable(), "");
    }
#else
    EXPECT_EQ(null_device_unverifiable(), "");  // Linux: /proc/self/io
#endif
}

TEST(Console, TheFileGetsExactlyTheMessages) {
    const Result o = run_console("console_short", "printf", StdoutTarget::file);
    EXPECT_EQ(o.verdict, "") << o.outcome.reason;
    EXPECT_EQ(o.content, repeated("Hello, C!!!!\n", 100));
    const Result f = run_console("console_datetime", "fprintf", StdoutTarget::file);
    EXPECT_EQ(f.verdict, "") << f.outcome.reason;
    EXPECT_EQ(f.content, repeated("[2024-01-15 10:30:45] Status: 100 (99.50%)\n", 100));
}

/// What identifies the file behind this process's fd 1: device and inode,
/// or volume serial number and file index.
std::string stdout_identity() {
#ifdef _WIN32
    BY_HANDLE_FILE_INFORMATION info{};
    if (!GetFileInformationByHandle(reinterpret_cast<HANDLE>(_get_osfhandle(1)), &info)) return "unknown";
    return fmt::format("{}:{}:{}", info.dwVolumeSerialNumber, info.nFileIndexHigh, info.nFileIndexLow);
#else
    struct stat st {};
    if (::fstat(STDOUT_FILENO, &st) != 0) return "unknown";
    return fmt::format("{}:{}", st.st_dev, st.st_ino);
#endif
}

TEST(Console, IobenchsOwnStdoutNeverMixesWithTheMeasuredOutput) {
    // iobench's stdout is a file here; it holds unflushed report text when the
    // measured run starts, in C stdio and in std::cout.
    test::TempDir dir;
    const std::string own = (dir.path() / "own-stdout").string();
    std::fflush(stdout);
    std::cout.flush();
#ifdef _WIN32
    const int saved = ::_dup(1);
#else
    const int saved = ::dup(STDOUT_FILENO);
#endif
    ASSERT_GE(saved, 0);
    std::FILE* own_file = std::fopen(own.c_str(), "wb");
    ASSERT_NE(own_file, nullptr);
#ifdef _WIN32
    ::_dup2(::_fileno(own_file), 1);
#else
    ::dup2(::fileno(own_file), STDOUT_FILENO);
#endif
    const std::string before = stdout_identity();

    std::printf("report line from C stdio\n");
    std::cout << "report line from std::cout\n";
    const Result file_run = run_console("console_medium", "fputs", StdoutTarget::file);
    const Result pipe_run = run_console("console_medium", "cout", StdoutTarget::pipe);
    std::printf("report after the runs\n");

    const std::string after = stdout_identity();
    std::fflush(stdout);
    std::cout.flush();
#ifdef _WIN32
    ::_dup2(saved, 1);
    ::_close(saved);
#else
    ::dup2(saved, STDOUT_FILENO);
    ::close(saved);
#endif
    std::fclose(own_file);

    EXPECT_EQ(file_run.verdict, "") << file_run.outcome.reason;
    EXPECT_EQ(pipe_run.verdict, "") << pipe_run.outcome.reason;
    EXPECT_EQ(file_run.content,
              repeated("Hello, C!!!! This is a medium length string for benchmarking.\n", 100));
    // fd 1 of iobench itself was never redirected...
    EXPECT_NE(before, "unknown");
    EXPECT_EQ(before, after);
    // ...and got iobench's text, in order, and none of the measured output.
    std::ifstream in(own, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    // (On Windows _dup2 gave fd 1 the binary mode of the file opened "wb".)
    EXPECT_EQ(text.str(), "report line from C stdio\nreport line from std::cout\nreport after the runs\n");
}

TEST(Console, UnflushedOutputFailsOnEveryTarget) {
    // What the method leaves in stdout's buffer is lost when the child exits.
    for (StdoutTarget t : verifiable_targets()) {
        const std::string verdict = run_console("console_short", "broken_no_flush", t).verdict;
        if (t == StdoutTarget::devnull)
            EXPECT_NE(verdict.find("the method passed 0 bytes to write calls"), std::string::npos) << verdict;
        else
            EXPECT_NE(verdict.find("output differs: 0 bytes"), std::string::npos) << to_string(t) << ": " << verdict;
    }
}

TEST(Console, ExtraOutputFails) {
    const std::string file = run_console("console_short", "broken_extra_message", StdoutTarget::file).verdict;
    EXPECT_NE(file.find("output differs: 1313 bytes"), std::string::npos) << file;
    EXPECT_NE(file.find("first difference at byte 1300"), std::string::npos) << file;
    EXPECT_NE(run_console("console_short", "broken_extra_message", StdoutTarget::pipe).verdict.find("1313 bytes"),
              std::string::npos);
    const Result devnull = run_console("console_short", "broken_extra_message", StdoutTarget::devnull);
    if (!null_device_unverifiable().empty()) {
        // Nothing would be checked: the run is skipped, never reported unverified.
        EXPECT_EQ(devnull.outcome.status, Status::skipped);
        EXPECT_EQ(devnull.outcome.reason, null_device_unverifiable());
        return;
    }
    if (sanitized) GTEST_SKIP() << "on /dev/null a sanitizer build checks only a lower bound of the bytes";
    EXPECT_NE(devnull.verdict.find("the method passed 1313 bytes to write calls, expected 1300"), std::string::npos)
        << devnull.verdict;
}

TEST(Console, LineEndsOtherThanTheModesAreCaught) {
    // "\r\n" written by hand while stdout is in binary mode (every method but
    // the text-mode ones): 14 bytes a message where 13 are expected.
    const Result file = run_console("console_short", "broken_crlf", StdoutTarget::file);
    EXPECT_NE(file.verdict.find("output differs: 1400 bytes"), std::string::npos) << file.verdict;
    EXPECT_NE(file.verdict.find("first difference at byte 12"), std::string::npos) << file.verdict;
    const Result pipe = run_console("console_short", "broken_crlf", StdoutTarget::pipe);
    EXPECT_NE(pipe.verdict.find("output differs: 1400 bytes"), std::string::npos) << pipe.verdict;
}

TEST(Console, AFailedCallFailsTheRowWithTheChildsMessage) {
    for (StdoutTarget t : {StdoutTarget::file, StdoutTarget::pipe}) {
        const Result o = run_console("console_short", "broken_throws", t);
        EXPECT_EQ(o.outcome.status, Status::failed) << to_string(t);
        EXPECT_NE(o.outcome.reason.find("fwrite(stdout)"), std::string::npos) << o.outcome.reason;
    }
}

TEST(Console, AChildThatEndsWithoutAReportFails) {
    const Result exits = run_console("console_short", "broken_exits", StdoutTarget::file);
    EXPECT_EQ(exits.outcome.status, Status::failed);
    EXPECT_EQ(exits.outcome.reason, "the child process running the method exited with status 7 without a report");
    const Result aborts = run_console("console_short", "broken_aborts", StdoutTarget::pipe);
    EXPECT_EQ(aborts.outcome.status, Status::failed);
#if defined(_MSC_VER)
    // Microsoft's UCRT ends abort() with __fastfail: STATUS_STACK_BUFFER_OVERRUN.
    EXPECT_EQ(aborts.outcome.reason,
              "the child process running the method ended with exception 0xC0000409 (fail fast: abort(), or an "
              "invalid parameter to the C runtime) without a report");
#elif defined(_WIN32)
    // msvcrt.dll (MinGW) ends abort() with exit status 3.
    EXPECT_EQ(aborts.outcome.reason, "the child process running the method exited with status 3 without a report");
#else
    EXPECT_EQ(aborts.outcome.reason, "the child process running the method died of signal 6");
#endif
}

TEST(Console, AStdoutTargetThatCannotBeOpenedFailsThePreparation) {
    // A directory where the run's output file goes.
    const Result o = run_console("console_short", "fwrite", StdoutTarget::file, 1e-2,
                                 [](const std::filesystem::path& file) { std::filesystem::create_directory(file); });
    EXPECT_EQ(o.outcome.status, Status::failed);
#ifdef _WIN32
    EXPECT_NE(o.outcome.reason.find("CreateFileW("), std::string::npos) << o.outcome.reason;
#else
    EXPECT_NE(o.outcome.reason.find("open("), std::string::npos) << o.outcome.reason;
#endif
    EXPECT_NE(o.outcome.reason.find("output-console_short-fwrite"), std::string::npos) << o.outcome.reason;
}

TEST(Console, BufferingModesShowInTheWriteCalls) {
    if (!write_calls_counted()) GTEST_SKIP() << "the system counts no write calls here (wine)";
#ifdef _WIN32
    // One WriteFile per message; printf's stream on a file: full buffering
    // with the C runtime's 4,096-byte buffer, so 1,300 bytes in one write.
    EXPECT_EQ(run_console("console_short", "WriteFile", StdoutTarget::file).write_calls, 100);
    EXPECT_EQ(run_console("console_short", "printf", StdoutTarget::file).write_calls, 1);
#else
    // 100 messages of 13 bytes (1,300 bytes): one write per message when
    // unbuffered or line buffered, one in all for a full buffer (4 KiB or BUFSIZ).
    EXPECT_EQ(run_console("console_short", "printf", StdoutTarget::devnull).write_calls, 1);
    EXPECT_EQ(run_console("console_short", "printf_IOFBF", StdoutTarget::devnull).write_calls, 1);
    EXPECT_EQ(run_console("console_short", "printf_IOLBF", StdoutTarget::devnull).write_calls, 100);
    EXPECT_EQ(run_console("console_short", "printf_IONBF", StdoutTarget::devnull).write_calls, 100);
    EXPECT_EQ(run_console("console_short", "write", StdoutTarget::devnull).write_calls, 100);
    EXPECT_EQ(run_console("console_short", "writev", StdoutTarget::devnull).write_calls, 100);
#endif
}

TEST(Console, SyncWithStdioFalseStaysInTheChild) {
    const Result o = run_console("console_int", "cout_unsynced", StdoutTarget::file);
    EXPECT_EQ(o.verdict, "") << o.outcome.reason;
    EXPECT_EQ(o.content, repeated("Value: 12345\n", 100));
    // Still synchronized here: sync_with_stdio(true) returns the previous setting.
    EXPECT_TRUE(std::ios::sync_with_stdio(true));
}

TEST(Console, TargetsHaveNames) {
    for (StdoutTarget t : {StdoutTarget::devnull, StdoutTarget::file, StdoutTarget::pipe})
        EXPECT_EQ(parse_stdout_target(to_string(t)), t);
    EXPECT_EQ(parse_stdout_target("tty"), std::nullopt);
}

#ifdef _WIN32
// --- Windows: the methods people use for the console, and the C runtime's modes ---

TEST(WindowsConsole, WriteFileWritesEachMessageToTheStdoutHandle) {
    for (StdoutTarget t : verifiable_targets()) {
        const Result o = run_console("console_long", "WriteFile", t);
        EXPECT_TRUE(o.outcome.ok()) << to_string(t) << ": " << o.outcome.reason;
        EXPECT_EQ(o.verdict, "") << to_string(t);
    }
}

TEST(WindowsConsole, WriteConsoleWIsSkippedWhereStdoutIsNotAConsole) {
    for (StdoutTarget t : {StdoutTarget::file, StdoutTarget::pipe}) {
        const Result o = run_console("console_short", "WriteConsoleW", t);
        EXPECT_EQ(o.outcome.status, Status::skipped) << to_string(t) << ": " << o.outcome.reason;
        EXPECT_NE(o.outcome.reason.find("standard output is not a console here"), std::string::npos)
            << o.outcome.reason;
    }
}

TEST(WindowsConsole, TextModesWriteCrLfAndAreVerifiedSo) {
    // _O_TEXT and _O_U8TEXT: every '\n' reaches the file as "\r\n".
    for (const char* method : {"printf_O_TEXT", "wprintf_O_U8TEXT"}) {
        const Result text = run_console("console_short", method, StdoutTarget::file);
        EXPECT_EQ(text.verdict, "") << method << ": " << text.outcome.reason;
        EXPECT_EQ(text.content, repeated("Hello, C!!!!\r\n", 100)) << method;
        const Result formatted = run_console("console_datetime", method, StdoutTarget::file);
        EXPECT_EQ(formatted.verdict, "") << method << ": " << formatted.outcome.reason;
        EXPECT_EQ(formatted.content, repeated("[2024-01-15 10:30:45] Status: 100 (99.50%)\r\n", 100)) << method;
        const Result piped = run_console("console_str_int", method, StdoutTarget::pipe);
        EXPECT_EQ(piped.verdict, "") << method << ": " << piped.outcome.reason;
    }
}

TEST(WindowsConsole, EveryOtherMethodWritesInBinaryMode) {
    // The child puts fd 1 in _O_BINARY: printf writes '\n', as on POSIX.
    const Result o = run_console("console_int", "printf", StdoutTarget::file);
    EXPECT_EQ(o.content, repeated("Value: 12345\n", 100));
}
#endif

}  // namespace
}  // namespace iobench
