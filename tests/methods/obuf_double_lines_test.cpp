// Tests of obuf's double line kernels on every platform
// (methods/format_double_lines.hpp: scalar, AVX2), each run once per kernel the
// CPU has: std::to_chars' text and '\n' for doubles_out's values, random bit
// patterns, every power of 2 and of 10, every significand length from 1 to 17
// digits at every exponent class, both signs, and doubles the AVX2 kernel
// leaves to format_double (zeros, subnormals, infinities, NaNs, fixed
// notation) at every place in a pair, with Żmij's digits and with
// Dragonbox's; nothing stored past double_lines_room; a cursor's
// put_double_lines writes the bytes of put_double/put in the same chunks for
// buffers of 1 to 80 bytes and the default; write_double_lines through a
// real file gives the file it should; the AVX2 kernel with Żmij's library
// call as with its digit search inlined.
#include <gtest/gtest.h>

#include <bit>
#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "data/doubles.hpp"
#include "methods/obuf.hpp"
#include "methods/obuf_file.hpp"
#include "methods/obuf_writes.hpp"
#include "obuf_test_support.hpp"

namespace iobench {
/// Kernel names in the parameterized tests' messages (found by
/// argument-dependent lookup, so in double_line_kernel's own namespace).
void PrintTo(double_line_kernel k, std::ostream* os) { *os << double_line_kernel_name(k); }
}  // namespace iobench

namespace {

using iobench::basic_obuf;
using iobench::double_line_kernel;

using string_device = iobench::test::chunk_device;

/// std::to_chars' shortest text of every value, each followed by '\n'
/// ("nan" and "-nan" by the sign bit, as format_double writes every NaN).
std::string expected_lines(const std::vector<double>& values) {
    std::string text;
    for (double v : values) {
        if (std::isnan(v)) {
            text += std::signbit(v) ? "-nan\n" : "nan\n";
            continue;
        }
        char buf[64];
        const auto r = std::to_chars(buf, buf + sizeof buf, v);
        EXPECT_TRUE(r.ec == std::errc());
        text.append(buf, r.ptr);
        text += '\n';
    }
    return text;
}

double from_bits(std::uint64_t bits) { return std::bit_cast<double>(bits); }

/// Doubles the AVX2 kernel hands to format_double: zeros, the smallest and
/// largest subnormals, infinities, NaNs, and fixed notation (2^-20 <= |v| <
/// 2^80: 0.001, 1, 123.456, 1e22).
std::vector<double> other_doubles() {
    using limits = std::numeric_limits<double>;
    return {0.0, -0.0, limits::denorm_min(), -(DBL_MIN - limits::denorm_min()), limits::infinity(),
            -limits::infinity(), limits::quiet_NaN(), from_bits(0xFFF8000000000001ULL), 0.001, 1.0, -123.456,
            1e22, 0x1p-20, std::nextafter(0x1p80, 0.0)};
}

/// Every class of double the kernels meet: doubles_out's values, every power
/// of 2 and of 10, values with 1 to 17 significant digits (so 16-digit and
/// 17-digit significands from Żmij, and each count of trailing zeros) at
/// small, large and 3-digit exponents of both signs, random bit patterns, and
/// other_doubles among them.
std::vector<double> value_classes() {
    std::vector<double> values = iobench::random_doubles(20000);
    for (int e = -1074; e <= 1023; ++e) values.push_back(std::ldexp(e % 2 ? 1.0 : -1.0, e));
    for (int e = -323; e <= 308; ++e) {
        const std::string text = "1e" + std::to_string(e);
        double v = 0;
        std::from_chars(text.data(), text.data() + text.size(), v);
        values.push_back(v);
    }
    const char* digits = "12345678901234567";
    for (int n = 1; n <= 17; ++n) {
        for (int e : {-300, -100, -25, -7, 22, 25, 99, 100, 305}) {
            const std::string text = std::string(digits, static_cast<std::size_t>(n)) + "e" + std::to_string(e);
            double v = 0;
            std::from_chars(text.data(), text.data() + text.size(), v);
            values.push_back(v);
            values.push_back(-v);
        }
    }
    std::mt19937_64 rng(29);
    for (int i = 0; i < 20000; ++i) values.push_back(from_bits(rng()));
    const std::vector<double> others = other_doubles();
    for (std::size_t i = 0; i < others.size(); ++i) values.insert(values.begin() + 37 * i + i % 2, others[i]);
    return values;
}

/// The tests of one double line kernel: each runs with that kernel chosen
/// for the whole process, and is skipped where the CPU (or the build) does
/// not run it; the one in use before is chosen again afterwards.
class ObufDoubleLineKernel : public ::testing::TestWithParam<double_line_kernel> {
protected:
    void SetUp() override {
        if (!iobench::use_double_line_kernel(GetParam()))
            GTEST_SKIP() << "this CPU or build does not run the " << iobench::double_line_kernel_name(GetParam())
                         << " kernel";
    }
    void TearDown() override { iobench::use_double_line_kernel(before_); }

private:
    double_line_kernel before_ = iobench::double_line_kernel_in_use();
};

INSTANTIATE_TEST_SUITE_P(Kernel, ObufDoubleLineKernel,
                         ::testing::Values(double_line_kernel::scalar, double_line_kernel::avx2),
                         [](const ::testing::TestParamInfo<double_line_kernel>& kernel) {
                             return std::string(iobench::double_line_kernel_name(kernel.param));
                         });

/// `write(out, v, n)` (a line kernel's signature) writes expected_lines for
/// every value class, from both starts in a pair (so each value meets both
/// places) and with an odd last one or none, storing nothing past
/// double_lines_room.
template <class Write>
void expect_every_class_written(Write write) {
    const std::vector<double> all = value_classes();
    for (std::size_t start = 0; start < 2; ++start) {
        for (std::size_t drop = 0; drop < 2; ++drop) {
            const std::vector<double> values(all.begin() + static_cast<std::ptrdiff_t>(start),
                                             all.end() - static_cast<std::ptrdiff_t>(drop));
            const std::string want = expected_lines(values);
            const std::size_t room = iobench::double_lines_room(values.size());
            std::string buffer(room + 64, '#');
            char* const end = write(buffer.data(), values.data(), values.size());
            ASSERT_EQ(static_cast<std::size_t>(end - buffer.data()), want.size()) << "start " << start << " drop " << drop;
            EXPECT_TRUE(std::string_view(buffer.data(), want.size()) == want) << "start " << start << " drop " << drop;
            EXPECT_EQ(buffer.substr(room), std::string(64, '#')) << "stored past double_lines_room";
        }
    }
}

TEST_P(ObufDoubleLineKernel, EveryClassOfValueAsToCharsWritesIt) {
    const double_line_kernel kernel = GetParam();
    ASSERT_NO_FATAL_FAILURE(expect_every_class_written([kernel](char* out, const double* v, std::size_t n) {
        return iobench::format_double_lines(kernel, out, v, n);
    }));
    const std::vector<double> all = value_classes();
    // With Dragonbox's digits (dragonbox_obuf's: one double at a time with either kernel).
    const std::string want = expected_lines(all);
    std::string buffer(iobench::double_lines_room(all.size()), '#');
    char* const end = iobench::format_double_lines<iobench::double_digits::dragonbox>(GetParam(), buffer.data(),
                                                                                       all.data(), all.size());
    EXPECT_TRUE(std::string_view(buffer.data(), static_cast<std::size_t>(end - buffer.data())) == want);
}

TEST_P(ObufDoubleLineKernel, EachOtherDoubleAtEveryPlaceAmongFastOnes) {
    // Eight doubles_out values with one that the AVX2 kernel leaves to
    // format_double at each place; one line alone; the longest lines, at the
    // room's edge.
    const std::vector<double> fast = iobench::random_doubles(8);
    for (double other : other_doubles()) {
        for (std::size_t at = 0; at < fast.size(); ++at) {
            std::vector<double> v = fast;
            v[at] = other;
            std::string buffer(iobench::double_lines_room(v.size()), '#');
            char* const end = iobench::format_double_lines(GetParam(), buffer.data(), v.data(), v.size());
            EXPECT_EQ(std::string(buffer.data(), end), expected_lines(v)) << other << " at " << at;
        }
    }
    for (const std::vector<double>& v : {std::vector<double>{-2.2250738585072014e-308},
                                         std::vector<double>(5, -2.2250738585072014e-308),
                                         std::vector<double>{-1.7976931348623157e308, -4.9406564584124654e-324}}) {
        const std::size_t room = iobench::double_lines_room(v.size());
        std::string buffer(room + 16, '#');
        char* const end = iobench::format_double_lines(GetParam(), buffer.data(), v.data(), v.size());
        EXPECT_EQ(std::string(buffer.data(), end), expected_lines(v));
        EXPECT_EQ(buffer.substr(room), std::string(16, '#')) << "stored past double_lines_room";
    }
}

TEST_P(ObufDoubleLineKernel, CursorPutDoubleLinesWritesWhatPutDoubleWritesInTheSameChunks) {
    std::vector<double> values = iobench::random_doubles(1500);
    for (std::size_t i = 0; i < values.size(); i += 13) values[i] = other_doubles()[i % other_doubles().size()];
    for (std::size_t i = 5; i < values.size(); i += 7) values[i] = -values[i] * 1e-300;
    const double_line_kernel kernel = GetParam();
    ASSERT_NO_FATAL_FAILURE(iobench::test::expect_blocks_write_what_one_at_a_time_writes(
        values, expected_lines(values), 100,
        [kernel](auto& cur, const double* v, std::size_t n) { cur.put_double_lines(kernel, v, n); },
        [](auto& out, double v) {
            out.put_double(v);
            out.put('\n');
        }));
}

TEST_P(ObufDoubleLineKernel, WriteDoubleLinesThroughARealFile) {
    const std::vector<double> values = iobench::random_doubles(54321);  // odd
    const std::string text = iobench::test::written_file(
        std::string("iobench_obuf_double_lines_") + iobench::double_line_kernel_name(GetParam()),
        [&](const std::string& path) {
            iobench::obuf_file file(path, 4096);
            iobench::write_double_lines(file.out(), values);
            file.close();
        });
    EXPECT_TRUE(text == expected_lines(values)) << text.size() << " bytes";
}

#if IOBENCH_DOUBLE_LINES_AVX2
// The avx2 kernel runs with Żmij's digit search compiled into its loop where
// Żmij's sources are part of the build (the tests above run that one); with
// the digits from Żmij's library call, as where Żmij is installed, it writes
// the same.
TEST(ObufDoubleLineKernels, TheAvx2KernelWithZmijsLibraryCallWritesTheSame) {
    if (!iobench::cpu_has_avx2_bmi2()) GTEST_SKIP() << "this CPU does not run the avx2 kernel";
    expect_every_class_written(iobench::detail::format_double_lines_avx2);
}
#endif

TEST(ObufDoubleLineKernels, EveryKernelTheCpuRunsCanBeChosen) {
    const double_line_kernel before = iobench::double_line_kernel_in_use();
    for (double_line_kernel k : {double_line_kernel::scalar, double_line_kernel::avx2}) {
        EXPECT_EQ(iobench::use_double_line_kernel(k), iobench::cpu_runs(k)) << iobench::double_line_kernel_name(k);
        if (iobench::cpu_runs(k)) {
            EXPECT_EQ(iobench::double_line_kernel_in_use(), k);
        }
    }
    EXPECT_TRUE(iobench::use_double_line_kernel(before));
    EXPECT_TRUE(iobench::cpu_runs(double_line_kernel::scalar));
#if IOBENCH_DOUBLE_LINES_AVX2
    EXPECT_EQ(iobench::cpu_runs(double_line_kernel::avx2), iobench::cpu_has_avx2_bmi2());
#else
    EXPECT_FALSE(iobench::cpu_runs(double_line_kernel::avx2));
#endif
    EXPECT_EQ(iobench::best_double_line_kernel(), iobench::cpu_runs(double_line_kernel::avx2)
                                                      ? double_line_kernel::avx2
                                                      : double_line_kernel::scalar);
}

}  // namespace
