// Digit grouping (data/grouped_text.hpp) and the locale workloads run with a
// locale that groups digits (en_US.UTF-8, which CI installs): every grouped
// byte written is verified, every grouped number read back.
#include <gtest/gtest.h>

#include <climits>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <locale>

#include <iobench/error.hpp>
#include "core/engine/case_trial.hpp"
#include "core/engine/session.hpp"
#include "core/engine/suite.hpp"
#include "data/grouped_text.hpp"
#include "test_dir.hpp"

namespace iobench {
namespace {

TEST(GroupDigits, GroupsByThreesFromTheRight) {
    const DigitGrouping g{",", "\3"};
    EXPECT_EQ(group_digits("0", g), "0");
    EXPECT_EQ(group_digits("999", g), "999");
    EXPECT_EQ(group_digits("1000", g), "1,000");
    EXPECT_EQ(group_digits("1234567", g), "1,234,567");
}

TEST(GroupDigits, LastSizeRepeatsAndCharMaxStops) {
    EXPECT_EQ(group_digits("123456789", {",", "\3\2"}), "12,34,56,789");  // hi_IN
    EXPECT_EQ(group_digits("123456789", {".", std::string{3, CHAR_MAX}}), "123456.789");
    EXPECT_EQ(group_digits("1234567", {"", ""}), "1234567");
    EXPECT_EQ(group_digits("1234567", {"\xE2\x80\xAF", "\3"}), "1\xE2\x80\xAF" "234\xE2\x80\xAF" "567");
}

TEST(GroupDigits, GeneratorWritesOneGroupedNumberPerLine) {
    std::string text;
    grouped_ints_text(1002, {",", "\3"})([&text](std::string_view chunk) { text += chunk; });
    EXPECT_EQ(text.substr(text.size() - 12), "1,000\n1,001\n");
    EXPECT_EQ(text.substr(0, 4), "0\n1\n");
}

/// Sets an environment variable for the lifetime of the object.
class ScopedEnv {
public:
    ScopedEnv(const char* name, const char* value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old;
        set(value);
    }
    ~ScopedEnv() { set(old_.empty() ? nullptr : old_.c_str()); }

private:
    void set(const char* value) {
#ifdef _WIN32
        _putenv_s(name_, value ? value : "");
#else
        if (value) setenv(name_, value, 1);
        else unsetenv(name_);
#endif
    }
    const char* name_;
    std::string old_;
};

constexpr const char* grouping_locale = "en_US.UTF-8";

bool installed(const char* name) {
    try {
        std::locale loc(name);
        return true;
    } catch (const std::runtime_error&) {
        return false;
    }
}

/// Runs `workload/method` once at 10,000 items (0 .. 9,999) in `dir`;
/// returns verify()'s verdict and, when asked, the bytes written.
std::string run_pair(const char* workload, const char* method, const std::filesystem::path& dir,
                     std::string* output = nullptr) {
    Session session(dir, 1e-3, true);
    const Workload* w = find_workload(workload);
    const Method* m = find_method(method);
    if (!w || !m) return "no such pair";
    auto trial = trial_for(*w, *m, {}, session);
    trial->reset();
    trial->run();
    std::string verdict = trial->verify();
    if (output) {
        const auto path = dir / (std::string("output-") + workload + "-" + method);
        std::ifstream in(path, std::ios::binary);
        *output = {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    }
    trial->finish();
    return verdict;
}

class GroupingLocale : public testing::Test {
protected:
    void SetUp() override {
        if (!installed(grouping_locale)) GTEST_SKIP() << grouping_locale << " is not installed (ci/linux.sh installs it)";
    }
    ScopedEnv lc_all_{"LC_ALL", grouping_locale};
};

/// The reason `method` may not group digits on this platform ("" when it
/// must): the only skip these tests accept, checked against the error's text.
std::string expected_unavailable(const std::string& method) {
#ifdef _WIN32
    if (method == "fprintf" || method == "fscanf") return "the Windows C runtimes' printf and scanf have no '";
#endif
    (void)method;
    return "";
}

/// Runs `run()`; true when it ran. An unavailable_error is accepted only
/// with the reason expected_unavailable(method) gives (then false).
template <class F>
bool ran_or_expected_skip(const std::string& method, F run) {
    const std::string expected = expected_unavailable(method);
    try {
        run();
    } catch (const unavailable_error& e) {
        EXPECT_FALSE(expected.empty()) << method << " must run here, but: " << e.what();
        EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << method << ": " << e.what();
        std::cout << method << ": skipped, " << e.what() << '\n';
        return false;
    }
    EXPECT_TRUE(expected.empty()) << method << " ran where it was expected to be unavailable: " << expected;
    return true;
}

TEST_F(GroupingLocale, WritersGroupEveryNumberAndAreVerified) {
    for (const char* method : {"ofstream", "fprintf"}) {
        test::TempDir dir;
        std::string written;
        std::string verdict;
        if (!ran_or_expected_skip(method, [&] { verdict = run_pair("ints_out_locale", method, dir.path(), &written); }))
            continue;
        EXPECT_EQ(verdict, "") << method;
        // 0..9,999: 48,890 bytes ungrouped plus one separator for each of 1,000 .. 9,999.
        EXPECT_EQ(written.size(), 48'890u + 9'000u) << method;
        EXPECT_NE(written.find("\n999\n1,000\n"), std::string::npos) << method;
        EXPECT_EQ(written.substr(written.size() - 6), "9,999\n") << method;
    }
}

TEST_F(GroupingLocale, ReadersParseGroupedNumbers) {
    for (const char* method : {"ifstream", "fscanf"}) {
        test::TempDir dir;
        ran_or_expected_skip(method, [&] { EXPECT_EQ(run_pair("ints_in_locale", method, dir.path()), "") << method; });
    }
}

TEST_F(GroupingLocale, ExpectedTextIsGroupedAtTenThousand) {
    // At scale 1e-3 (10,000 integers) the expected text holds "1,000" .. "9,999".
    test::TempDir dir;
    Session session(dir.path(), 1e-3, false);
    auto trial = trial_for(*find_workload("ints_out_locale"), *find_method("ofstream"), {}, session);
    // 0..9,999: 48,890 bytes ungrouped plus one separator per number from 1,000.
    EXPECT_EQ(trial->bytes, 48'890u + 9'000u);
    trial->reset();
    trial->run();
    EXPECT_EQ(trial->verify(), "");
    trial->finish();
}

// The environment names the user's locale on POSIX C libraries and in
// libstdc++ (also on MinGW). MSVC's STL asks Windows for the user's default
// locale and ignores LC_ALL and LANG: no environment can name a missing one.
#if !defined(_MSVC_STL_VERSION)
TEST(UserLocale, MissingLocaleSkipsWithTheReason) {
    ScopedEnv lc_all("LC_ALL", "xx_NOWHERE.UTF-8");
    test::TempDir dir;
    try {
        run_pair("ints_out_locale", "ofstream", dir.path());
        FAIL() << "a locale that is not installed must not run";
    } catch (const unavailable_error& e) {
        EXPECT_NE(std::string(e.what()).find("xx_NOWHERE.UTF-8"), std::string::npos) << e.what();
    }
}
#endif

}  // namespace
}  // namespace iobench
