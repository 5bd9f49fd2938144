// The output workloads (lines, endl, doubles, console) and what they expect: numbered lines, the
// 175-byte endl line, the doubles (the same on every platform, verified bit
// for bit), the console messages (the printf text of the seed), and that every
// new operation is implemented by methods the runner pairs with its workload.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <span>
#include <string>

#include <iobench/console_format.hpp>
#include <iobench/error.hpp>
#include <iobench/method.hpp>
#include "core/engine/case_trial.hpp"
#include "core/engine/session.hpp"
#include "core/engine/suite.hpp"
#include "core/engine/workload.hpp"
#include "core/os/page_cache.hpp"
#include "data/doubles.hpp"
#include "data/text.hpp"
#include "test_dir.hpp"
#include "workloads/console_messages.hpp"

namespace iobench {
namespace {

std::string text_of(const Generator& g) {
    std::string s;
    g([&](std::string_view chunk) { s += chunk; });
    return s;
}

/// Runs `workload`/`method` once at `scale` and returns verify()'s verdict.
std::string run_once(const char* workload, const char* method, double scale = 1e-4) {
    test::TempDir dir;
    Session session(dir.path(), scale, false);
    auto trial = trial_for(*find_workload(workload), *find_method(method), Params{}, session);
    trial->reset();
    trial->run();
    std::string verdict = trial->verify();
    trial->finish();
    return verdict;
}

#ifdef __linux__
/// The bytes this process has passed to write(2) and the calls like it so
/// far (/proc/self/io's wchar; 0 when it cannot be read).
unsigned long long bytes_written_by_this_process() {
    std::FILE* f = std::fopen("/proc/self/io", "r");
    unsigned long long wchar = 0;
    char line[128];
    while (f && std::fgets(line, sizeof line, f)) std::sscanf(line, "wchar: %llu", &wchar);
    if (f) std::fclose(f);
    return wchar;
}
#endif

TEST(PageCache, EveryOutputRunStartsWithThePreviousOutputRemoved) {
    test::TempDir dir;
    const std::filesystem::path out = dir.path() / "output";
    {
        std::FILE* f = std::fopen(out.string().c_str(), "wb");
        ASSERT_NE(f, nullptr);
        std::fputs("earlier run\n", f);
        std::fclose(f);
    }
    // 32 MiB: the page supply for the next run warmed too (best effort, never an error).
    EXPECT_NO_THROW(iobench::remove_and_settle(out, std::uint64_t{32} << 20));
    EXPECT_FALSE(std::filesystem::exists(out));
    EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << "the warming file is removed";
    EXPECT_NO_THROW(iobench::remove_and_settle(out, 0));  // nothing left to remove
}

TEST(PageCache, WarmingWritesAndRemovesAFileAtTheOutputsPath) {
    test::TempDir dir;
    const std::filesystem::path out = dir.path() / "output";
#ifdef __linux__
    // The bytes this process passed to write(2): the scratch file's.
    const unsigned long long before = bytes_written_by_this_process();
    EXPECT_TRUE(iobench::warm_page_cache(out, std::uint64_t{20} << 20));
    EXPECT_GE(bytes_written_by_this_process() - before, std::uint64_t{20} << 20);
    EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
    // Where the scratch file cannot be made: false, nothing left, no throw.
    EXPECT_FALSE(iobench::warm_page_cache(dir.path() / "no-such-dir" / "output", std::uint64_t{20} << 20));
    EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
#endif
    // Below 16 MiB nothing is written: true.
    EXPECT_TRUE(iobench::warm_page_cache(dir.path() / "no-such-dir" / "output", 4096));
}

/// The bytes of the file at `path` ("" when it cannot be read).
std::string file_bytes(const std::filesystem::path& path) {
    std::string bytes;
    if (std::FILE* f = std::fopen(path.string().c_str(), "rb")) {
        char chunk[65536];
        for (std::size_t n; (n = std::fread(chunk, 1, sizeof chunk, f)) > 0;) bytes.append(chunk, n);
        std::fclose(f);
    }
    return bytes;
}

TEST(PageCache, AZeroFileHasItsSizeInZeros) {
    test::TempDir dir;
    const std::filesystem::path out = dir.path() / "zeros";
    const std::uint64_t size = (std::uint64_t{3} << 20) + 12345;  // more than one 1 MiB write, and a tail
    write_zero_file(out, size);
    const std::string bytes = file_bytes(out);
    EXPECT_EQ(bytes.size(), size);
    EXPECT_EQ(bytes.find_first_not_of('\0'), std::string::npos);
    // Where it cannot be created: io_error naming the call and the path, nothing left.
    const std::filesystem::path nowhere = dir.path() / "no-such-dir" / "zeros";
    try {
        write_zero_file(nowhere, 10);
        ADD_FAILURE() << "no error";
    } catch (const io_error& e) {
        EXPECT_NE(std::string(e.what()).find("fopen"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find(nowhere.string()), std::string::npos) << e.what();
    }
    EXPECT_FALSE(std::filesystem::exists(nowhere));
}

/// limit_overwrite's trial writes the file its run writes over before the
/// run: zeros of the output's size, so that the run's pages are not new and a
/// run that wrote nothing fails; limit's run starts with no file at all.
TEST(LimitOverwrite, EachRunWritesOverAZeroFileOfTheOutputsSizeAndIsVerified) {
    const Workload& hello = *find_workload("hello");
    const Method* overwrite = find_method("limit_overwrite");
    ASSERT_NE(overwrite, nullptr);
    EXPECT_TRUE(overwrite->reference);
    EXPECT_TRUE(overwrite->overwrites_existing);
    EXPECT_FALSE(find_method("limit")->overwrites_existing);
    EXPECT_TRUE(hello.takes(*overwrite));
    EXPECT_FALSE(find_workload("ints_in")->takes(*overwrite)) << "an output reference only";
    test::TempDir dir;
    Session session(dir.path(), 1e-4, false);
    const std::filesystem::path out = dir.path() / "output-hello-limit_overwrite";
    auto trial = trial_for(hello, *overwrite, Params{}, session);
    for (int run = 0; run < 2; ++run) {
        trial->reset();
        const std::string before = file_bytes(out);
        ASSERT_EQ(before.size(), trial->bytes) << "run " << run;
        EXPECT_EQ(before.find_first_not_of('\0'), std::string::npos) << "run " << run;
        trial->run();
        EXPECT_EQ(trial->verify(), "") << "run " << run;
    }
    trial->finish();
    EXPECT_FALSE(std::filesystem::exists(out));

    auto limit = trial_for(hello, *find_method("limit"), Params{}, session);
    limit->reset();
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "output-hello-limit")) << "limit writes a new file";
    limit->run();
    EXPECT_EQ(limit->verify(), "");
    limit->finish();

    // A run that writes nothing over the zeros is caught by the checksum.
    Method lazy = *overwrite;
    lazy.name = "zz_writes_nothing";
    lazy.put_prepared = [](const Sink&, std::span<const char>) {};
    auto nothing = trial_for(hello, lazy, Params{}, session);
    nothing->reset();
    nothing->run();
    EXPECT_NE(nothing->verify().find("output differs"), std::string::npos) << nothing->verify();
    nothing->finish();
}

/// memcpy's trial copies the prepared bytes into memory and writes no file;
/// its copy is verified as a file is, and a copy that misses a byte is
/// caught with the byte's offset.
TEST(Memcpy, EachRunCopiesTheBytesInMemoryWritesNoFileAndIsVerified) {
    const Workload& hello = *find_workload("hello");
    const Method* copy = find_method("memcpy");
    ASSERT_NE(copy, nullptr);
    EXPECT_TRUE(copy->reference);
    EXPECT_FALSE(copy->overwrites_existing);
    EXPECT_TRUE(copy->copy_prepared.present());
    EXPECT_FALSE(copy->put_prepared.present());
    EXPECT_TRUE(hello.takes(*copy));
    EXPECT_TRUE(find_workload("ints_out")->takes(*copy));
    EXPECT_FALSE(find_workload("ints_in")->takes(*copy)) << "an output reference only";
    test::TempDir dir;
    Session session(dir.path(), 1e-4, false);  // 10,000 lines
    auto trial = trial_for(hello, *copy, Params{}, session);
    EXPECT_EQ(trial->bytes, 120'000u);
    for (int run = 0; run < 2; ++run) {
        trial->reset();
        trial->run();
        EXPECT_EQ(trial->verify(), "") << "run " << run;
    }
    trial->finish();
    EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << "no file written";

    // A copy that leaves one byte out is caught by the checksum, at that byte.
    Method short_copy = *copy;
    short_copy.name = "zz_copies_all_but_one";
    short_copy.copy_prepared = [](std::span<char> to, std::span<const char> bytes) {
        std::copy(bytes.begin(), bytes.end() - 1, to.begin());
        to.back() = static_cast<char>(bytes.back() ^ 1);
    };
    auto wrong = trial_for(hello, short_copy, Params{}, session);
    wrong->reset();
    wrong->run();
    const std::string why = wrong->verify();
    EXPECT_NE(why.find("copy differs"), std::string::npos) << why;
    EXPECT_NE(why.find("first difference at byte 119999"), std::string::npos) << why;
    wrong->finish();
}

/// Only a reference run that takes new page-cache pages has its page supply
/// warmed in its reset: limit writes the output's size before its run,
/// limit_overwrite only the zeros it writes over, memcpy nothing.
TEST(References, OnlyARunThatTakesNewPagesHasItsPageSupplyWarmed) {
#ifdef __linux__
    test::TempDir dir;
    Session session(dir.path(), 0.015, false);  // 1.5M lines, 18 MB: above warming's 16 MiB floor
    const Workload& hello = *find_workload("hello");
    auto reset_writes = [&](const char* method) {
        auto trial = trial_for(hello, *find_method(method), Params{}, session);
        EXPECT_EQ(trial->bytes, 18'000'000u);
        const unsigned long long before = bytes_written_by_this_process();
        trial->reset();
        const unsigned long long bytes = bytes_written_by_this_process() - before;
        trial->run();
        EXPECT_EQ(trial->verify(), "") << method;
        trial->finish();
        return bytes;
    };
    const unsigned long long limit = reset_writes("limit");
    const unsigned long long overwrite = reset_writes("limit_overwrite");
    const unsigned long long copy = reset_writes("memcpy");
    EXPECT_GE(limit, 18'000'000u) << "limit's page supply is warmed";
    EXPECT_GE(overwrite, 18'000'000u) << "the zeros limit_overwrite writes over";
    EXPECT_LT(overwrite, 2 * 18'000'000u) << "and no warming write besides";
    EXPECT_LT(copy, 1'000'000u) << "memcpy writes no file, warming included";
    EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
#else
    GTEST_SKIP() << "the page supply is warmed on Linux only";
#endif
}

TEST(Lines, NumberedTextIsTheGoExperimentsLines) {
    EXPECT_EQ(text_of(numbered_text("Line ", ": x\n", 3)), "Line 0: x\nLine 1: x\nLine 2: x\n");
    // 100,000 lines "Line <i>: This is buffered write data\n": 3,988,890 bytes.
    EXPECT_EQ(digest_of(numbered_text("Line ", ": This is buffered write data\n", 100'000)).size, 3'988'890u);
    EXPECT_EQ(find_workload("lines")->default_count(), 100'000u);
}

TEST(Endl, LinesAre175BytesAndNIsTenMillion) {
    test::TempDir dir;
    Session session(dir.path(), 1e-6, false);  // 10 lines
    auto trial = trial_for(*find_workload("endl"), *find_method("ofstream_endl"), Params{}, session);
    EXPECT_EQ(trial->items, 10u);
    EXPECT_EQ(trial->bytes, 1750u);
    EXPECT_EQ(find_workload("endl")->default_count(), 10'000'000u);
    trial->reset();
    trial->run();
    EXPECT_EQ(trial->verify(), "");
    trial->finish();
}

TEST(Doubles, TheSequenceIsFixedEverywhere) {
    // Pinned bit patterns: any platform or compiler must produce these.
    const std::vector<double> v = random_doubles(3);
    ASSERT_EQ(v.size(), 3u);
    EXPECT_EQ(std::bit_cast<std::uint64_t>(v[0]), 0x7fe8267a81dd1416u);
    EXPECT_EQ(std::bit_cast<std::uint64_t>(v[1]), 0x7fe750e2f2304019u);
    EXPECT_EQ(std::bit_cast<std::uint64_t>(v[2]), 0x7fde0151908a0c53u);
    for (double d : random_doubles(10'000)) {
        EXPECT_TRUE(std::isfinite(d));
        EXPECT_GE(d, DBL_MIN);
        EXPECT_LT(d, DBL_MAX);
    }
    // Shortest round-trip text of 3 values.
    EXPECT_EQ(text_of(shortest_doubles_text(v)),
              "1.3567137738149648e+308\n1.3098420774181049e+308\n8.428133383192265e+307\n");
}

TEST(Doubles, OneUlpOffIsCaught) {
    // 1,000 values; broken_one_ulp writes value 500 one ulp too large.
    const std::string verdict = run_once("doubles_out", "broken_one_ulp");
    EXPECT_NE(verdict.find("parsed values differ: value 500 differs"), std::string::npos) << verdict;
    const double expected = random_doubles(1000)[500];
    char bits[32];
    std::snprintf(bits, sizeof bits, "%016llx", static_cast<unsigned long long>(std::bit_cast<std::uint64_t>(expected)));
    EXPECT_NE(verdict.find(bits), std::string::npos) << verdict;
}

TEST(Doubles, EveryFormOfExactTextPasses) {
    // The shortest form (to_chars; {fmt}'s in obuf and fmt_output_file), "%.17g" (fprintf) and
    // setprecision(17) (ofstream).
    for (const char* method : {"obuf", "to_chars_obuf", "fprintf", "ofstream", "fmt_output_file", "mmap"}) {
        if (!find_method(method)->unavailable.empty()) continue;  // mmap: POSIX only
        EXPECT_EQ(run_once("doubles_out", method), "") << method;
    }
}

TEST(ConsoleMessages, AreThePrintfTextOfTheSeed) {
    for (ConsoleFormat f : {ConsoleFormat::int_value, ConsoleFormat::float_value, ConsoleFormat::string_int,
                            ConsoleFormat::int_string, ConsoleFormat::datetime}) {
        std::string text;
        for_each_printf(f, 1, [&text](const char* format, auto... args) {
            char buf[256];
            const int n = std::snprintf(buf, sizeof buf, format, args...);
            text.assign(buf, static_cast<std::size_t>(n));
        });
        EXPECT_EQ(text, console_text(f)) << console_format_name(f);
    }
    EXPECT_EQ(console_short_text.size(), 13u);
    EXPECT_EQ(console_medium_text.size(), 62u);
    EXPECT_EQ(console_long_text.size(), 142u);
}

TEST(Operations, EveryOperationIsComparedBetweenMethods) {
    // A table compares methods: every operation of IOBENCH_OPERATIONS has a
    // workload in which at least two methods that are not a reference (built
    // here or listed as skipped with the reason) meet, so an operation added
    // with one method or without a workload fails here. (The seed tables'
    // own pairs are named by the built-in suites, which load only when every
    // pair they name exists: Suite.EveryBuiltInSuiteIsWhatItsFileDescribes.)
    for (int i = 0; i < operation_count; ++i) {
        const auto op = static_cast<Operation>(i);
        // put_prepared: the limit reference's own operation, in every output table beside the methods.
        const bool reference_only = std::all_of(methods().begin(), methods().end(), [&](const Method& m) {
            return m.reference || !operation_field(op).present(m);
        });
        if (reference_only) continue;
        std::map<std::string, std::set<std::string>> methods_by_workload;
        for (const auto& w : workloads()) {
            if (w->spec().operation != op) continue;
            for (const Method& m : methods())
                if (!m.reference && m.family != "zz_broken" && w->takes(m)) methods_by_workload[std::string(w->name())].insert(m.name);
        }
        std::size_t most = 0;
        for (const auto& [workload, names] : methods_by_workload) most = std::max(most, names.size());
        EXPECT_GE(most, 2u) << operation_field(op).name << ": no workload compares two methods";
    }
}

}  // namespace
}  // namespace iobench
