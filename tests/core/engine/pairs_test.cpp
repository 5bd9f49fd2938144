// Every workload x method pair, run once at a small count, must produce
// verified output; with a tiny buffer too, where the method's buffer is sizable.
// The deliberately broken methods (tests/core/engine/broken_methods.cpp) must be caught.
#include <gtest/gtest.h>

#include <algorithm>
#include <ostream>
#include <string>
#include <string_view>

#include "core/engine/outcome.hpp"
#include "core/engine/runner.hpp"
#include "core/engine/session.hpp"
#include "core/engine/suite.hpp"
#include "test_dir.hpp"

namespace iobench {

/// Prints a case by its benchmark name in test output.
void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

namespace {

bool is_broken(const Case& c) { return c.method->family == "zz_broken"; }

/// Runs the case once in `dir` at scale 1e-4 (ints: 1,000; hello: 10,000 lines;
/// lines: 10; doubles_out: 1,000; console_*: 1e-2, 100 messages to a file;
/// file_read: a 107,374-byte file), with the case's parameters (its cache
/// state) and `buffer_size`, through the runner's stages (run_once): ok,
/// failed with the reason (a failed call, "verification failed: ..."), or
/// skipped when the method turns out to be unavailable here (O_DIRECT,
/// io_uring or huge pages refused, a program not built).
Outcome run_case_once(const Case& c, const std::filesystem::path& dir, std::size_t buffer_size = 0) {
    // Workloads writing to standard output (the console ones): 100
    // messages, to a file, so that every byte is checked (on /dev/null only
    // the byte count can be).
    const bool console = c.workload->spec().axes.stdout_target;
    Session session(dir, console ? 1e-2 : 1e-4, false);
    session.set_stdout_target(StdoutTarget::file);
    Case sized = c;
    sized.params.buffer_size = buffer_size;
    return run_once(sized, session);
}

/// The reason the case fails (a deliberately broken method must).
std::string failure_of(const Case& c, const std::filesystem::path& dir) {
    const Outcome outcome = run_case_once(c, dir);
    EXPECT_EQ(outcome.status, Status::failed) << c.name;
    return outcome.reason;
}

std::vector<Case> cases(bool broken) {
    std::vector<Case> out;
    for (const Case& c : all_pairs().cases)
        if (is_broken(c) == broken) out.push_back(c);
    return out;
}

std::string test_name(const testing::TestParamInfo<Case>& info) {
    std::string name = info.param.name;
    for (char& ch : name)
        if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
    return name;
}

/// The conditions of a machine that a method cannot help and that make it
/// unavailable at run time (its unavailable_error), each by the start of the
/// reason it gives: a file system, the kernel, what is installed, the
/// platform. A run-time skip with any other reason fails the test: a method
/// that throws unavailable_error by mistake must not pass as skipped.
constexpr std::string_view accepted_skips[] = {
    "O_DIRECT not supported by",                       // the file system (tmpfs)
    "FILE_FLAG_NO_BUFFERING refused",                  // the volume
    "no cold page cache here:",                        // tmpfs keeps every page; a file system not known to purge
    "no cold page cache under wine",                   // no Windows call drops Linux's page cache
    "io_uring_queue_init:",                            // the kernel or its settings
    "transparent huge pages are disabled",             // the kernel's settings
    "madvise(MADV_HUGEPAGE)",                          // refused, or accepted without a huge page
    "MADV_HUGEPAGE is not defined",                    // the C library
    "the binary_size program",                         // a program the toolchain could not build
    "standard output is not a console here",           // WriteConsoleW: the runs' stdout is a file, pipe or NUL
    "the user's locale",                               // not installed, or mixing categories
    "std::locale(\"\"): the user's locale is not installed",
    "setlocale(LC_ALL, \"\") failed",
    "fast_io cannot load its locale",                  // fast_io_i18n not installed
    "the Windows C runtimes' printf and scanf have no '",
    "iconv_open(",                                     // a converter the C library lacks
    "WideCharToMultiByte has no UTF-32",
    "code page 54936 (GB18030) is not installed",
    "wchar_t holds UTF-16 here",
    "the zh_CN.GB18030 locale is not installed",
};

/// True when `reason` is one of accepted_skips.
bool accepted_skip(const std::string& reason) {
    return std::any_of(std::begin(accepted_skips), std::end(accepted_skips),
                       [&](std::string_view start) { return reason.rfind(start, 0) == 0; });
}

class EveryPair : public testing::TestWithParam<Case> {};

TEST_P(EveryPair, ProducesVerifiedOutput) {
    test::TempDir dir;
    const Outcome outcome = run_case_once(GetParam(), dir.path());
    if (outcome.status == Status::skipped) {
        ASSERT_TRUE(accepted_skip(outcome.reason)) << "skipped for a reason no machine condition explains: "
                                                   << outcome.reason;
        GTEST_SKIP() << outcome.reason;
    }
    EXPECT_TRUE(outcome.ok()) << outcome.reason;
    // Nothing but the generated input may remain: outputs are removed.
    for (const auto& entry : std::filesystem::directory_iterator(dir.path()))
        EXPECT_NE(entry.path().filename().string().rfind("output-", 0), 0u) << entry.path();
}

/// The pairs whose method takes a buffer size (Method::sizable_buffer) and
/// whose workload has the buffer axis (binary_size's programs keep their
/// default buffer): only these get a test with tiny buffers (a test
/// generated only to be skipped checks nothing).
std::vector<Case> buffered_cases() {
    std::vector<Case> out;
    for (const Case& c : cases(false))
        if (c.method->sizable_buffer && c.workload->spec().axes.buffer_size) out.push_back(c);
    return out;
}

class EveryBufferedPair : public testing::TestWithParam<Case> {};

TEST_P(EveryBufferedPair, ProducesVerifiedOutputWithTinyBuffers) {
    const Case& c = GetParam();
    int ran = 0;
    std::string skipped;
    for (std::size_t size : {1u, 7u, 4096u}) {  // every size, whatever another one did
        test::TempDir dir;
        const Outcome outcome = run_case_once(c, dir.path(), size);
        if (outcome.status == Status::skipped) {
            EXPECT_TRUE(accepted_skip(outcome.reason)) << "buffer_size " << size << ": skipped for a reason no "
                                                       << "machine condition explains: " << outcome.reason;
            skipped = outcome.reason;
            continue;
        }
        ++ran;
        EXPECT_TRUE(outcome.ok()) << "buffer_size " << size << ": " << outcome.reason;
    }
    if (ran == 0) GTEST_SKIP() << skipped;
}

INSTANTIATE_TEST_SUITE_P(Methods, EveryPair, testing::ValuesIn(cases(false)), test_name);
INSTANTIATE_TEST_SUITE_P(BufferedMethods, EveryBufferedPair, testing::ValuesIn(buffered_cases()), test_name);

TEST(EveryPair, CoversTheSeedTableMethods) {
    std::vector<std::string> names;
    for (const Case& c : cases(false)) names.push_back(c.name);
#ifdef _WIN32
    const char* const unbuffered[] = {"ints_out/WriteFile", "hello/WriteFile"};
#else
    const char* const unbuffered[] = {"ints_out/write", "hello/write"};
#endif
    for (const char* expected : {"ints_out/fprintf", "ints_out/ofstream", unbuffered[0], "ints_out/obuf",
                                 "ints_in/fscanf", "ints_in/ifstream", "ints_in/ibuf", "hello/fwrite",
                                 "hello/ofstream", unbuffered[1], "hello/obuf"})
        EXPECT_NE(std::find(names.begin(), names.end(), expected), names.end()) << expected;
}

// The family of docs/adding-a-method.md (tests/example_family.cpp) is run like
// any other: the method its diff adds included.
TEST(EveryPair, CoversTheExampleFamily) {
    std::vector<std::string> names;
    for (const Case& c : cases(false)) names.push_back(c.name);
    for (const char* expected : {"hello/example_fprintf_precision", "endl/example_fprintf_precision",
                                 "hello/example_ostreambuf_iterator", "endl/example_ostreambuf_iterator"})
        EXPECT_NE(std::find(names.begin(), names.end(), expected), names.end()) << expected;
}

TEST(BrokenMethods, ExtraLineIsCaughtBySizeAndChecksum) {
    test::TempDir dir;
    Case c{find_workload("ints_out"), find_method("broken_extra_line"), {}, "ints_out/broken_extra_line"};
    const std::string verdict = failure_of(c, dir.path());
    // 1,000 integers: 3,890 bytes; one more line "1000\n" adds 5.
    EXPECT_NE(verdict.find("output differs: 3895 bytes"), std::string::npos) << verdict;
    EXPECT_NE(verdict.find("expected 3890 bytes"), std::string::npos) << verdict;
    EXPECT_NE(verdict.find("first difference at byte 3890"), std::string::npos) << verdict;
}

TEST(BrokenMethods, OneChangedByteIsCaughtByChecksum) {
    test::TempDir dir;
    Case c{find_workload("hello"), find_method("broken_one_byte"), {}, "hello/broken_one_byte"};
    const std::string verdict = failure_of(c, dir.path());
    // 10,000 lines of 12 bytes; the last line starts at byte 119,988.
    EXPECT_NE(verdict.find("output differs: 120000 bytes"), std::string::npos) << verdict;
    EXPECT_NE(verdict.find("expected 120000 bytes"), std::string::npos) << verdict;
    EXPECT_NE(verdict.find("first difference at byte 119988"), std::string::npos) << verdict;
}

TEST(BrokenMethods, DroppedValueIsCaught) {
    test::TempDir dir;
    Case c{find_workload("ints_in"), find_method("broken_drops_first"), {}, "ints_in/broken_drops_first"};
    const std::string verdict = failure_of(c, dir.path());
    EXPECT_NE(verdict.find("999 integers with sum 499500, expected 1000 with sum 499500"), std::string::npos)
        << verdict;
    EXPECT_NE(verdict.find("first difference at index 0: got 1, expected 0"), std::string::npos) << verdict;
}

}  // namespace
}  // namespace iobench
