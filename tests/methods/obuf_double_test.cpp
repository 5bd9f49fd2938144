// Tests of obuf's double output on every platform (methods/format_double.hpp:
// format_double; methods/obuf.hpp: basic_obuf::put_double), for each
// algorithm the build has (Dragonbox's digits always, Żmij where it is
// built): the text against std::to_chars, byte for byte, and
// std::from_chars, bit for bit, for edge values, random bit patterns, values
// around the switch between fixed and exponent notation and at the edges of
// the range where Żmij's own text is used; the buffer contract (nothing
// before the output or past format_double_room bytes touched, the text at
// most 24 bytes); and put_double through obufs of 1 to 40 bytes over a
// device that keeps what it is handed, so that doubles start at every offset
// of a buffer and straddle one flush or several.
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
#include <system_error>
#include <type_traits>
#include <vector>

#include "methods/obuf.hpp"
#include "obuf_test_support.hpp"

namespace {

using iobench::double_digits;
using iobench::format_double;
using iobench::format_double_room;
using iobench::max_double_chars;

/// The algorithms of this build, as types for typed tests.
template <double_digits D>
using digits_type = std::integral_constant<double_digits, D>;
#if defined(IOBENCH_HAVE_ZMIJ)
using Algorithms = ::testing::Types<digits_type<double_digits::zmij>, digits_type<double_digits::dragonbox>>;
#else
using Algorithms = ::testing::Types<digits_type<double_digits::dragonbox>>;
#endif
struct AlgorithmName {
    template <class T>
    static std::string GetName(int) {
        return T::value == double_digits::zmij ? "zmij" : "dragonbox";
    }
};

TEST(FormatDouble, TheDefaultIsZmijWhereTheBuildHasIt) {
#if defined(IOBENCH_HAVE_ZMIJ)
    EXPECT_EQ(iobench::default_double_digits, double_digits::zmij);
#else
    EXPECT_EQ(iobench::default_double_digits, double_digits::dragonbox);
#endif
}

/// std::to_chars' shortest round-trip text of v: the reference.
std::string to_chars_text(double v) {
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    EXPECT_TRUE(r.ec == std::errc());
    return std::string(buf, r.ptr);
}

/// format_double<D>'s text of v, written into a guarded buffer; fails the
/// test when it is longer than max_double_chars or touched a byte before the
/// output or at or past format_double_room bytes after its start.
template <double_digits D>
std::string format_double_text(double v) {
    constexpr std::size_t guard = 8;
    char buf[guard + format_double_room + guard];
    std::memset(buf, '#', sizeof buf);
    char* const first = buf + guard;
    char* const last = format_double<D>(first, v);
    const std::string text(first, last);
    EXPECT_LE(text.size(), max_double_chars) << text;
    for (std::size_t i = 0; i < guard; ++i) {
        EXPECT_EQ(buf[i], '#') << "wrote before the output: " << text;
        EXPECT_EQ(buf[guard + format_double_room + i], '#') << "wrote past format_double_room bytes: " << text;
    }
    return text;
}

/// Fails unless format_double<D>(v) is std::to_chars(v)'s text and parses
/// back (std::from_chars) to v, bit for bit.
template <double_digits D>
void expect_like_to_chars(double v) {
    const std::string text = format_double_text<D>(v);
    ASSERT_EQ(text, to_chars_text(v)) << "bits " << std::bit_cast<std::uint64_t>(v);
    double back = 0;
    const auto r = std::from_chars(text.data(), text.data() + text.size(), back);
    ASSERT_TRUE(r.ec == std::errc() && r.ptr == text.data() + text.size()) << text;
    ASSERT_EQ(std::bit_cast<std::uint64_t>(back), std::bit_cast<std::uint64_t>(v)) << text;
}

/// The double nearest 10^e.
double power_of_ten(int e) {
    const std::string text = "1e" + std::to_string(e);
    double v = 0;
    std::from_chars(text.data(), text.data() + text.size(), v);
    return v;
}

/// Finite doubles at the edges: zeros, denormals, DBL_MIN/DBL_MAX, integers
/// (exact up to 2^53 and past it, where std::to_chars prints every digit of
/// the integer), the switch between fixed and exponent notation, values whose
/// shortest form needs 17 digits, every power of 2 and of 10.
std::vector<double> edge_doubles() {
    using limits = std::numeric_limits<double>;
    std::vector<double> values = {
        0.0, -0.0, limits::denorm_min(), -limits::denorm_min(), 2 * limits::denorm_min(),
        DBL_MIN - limits::denorm_min(),  // the largest denormal
        DBL_MIN, -DBL_MIN, std::nextafter(DBL_MIN, 1.0), DBL_MAX, -DBL_MAX, std::nextafter(DBL_MAX, 0.0),
        1.0, -1.0, 2.0, 10.0, 100.0, 123456789.0, 0x1p53, 0x1p53 + 2, 1e15, 1e16, 1e17, 1e21, 1e22, 1e23,
        9999999999999998.0, 1234567890123456.7, 0x1p63, 0x1p64 - 2048, 0x1p64, 0x1p64 + 4096,
        123456789012345683968.0, 5088143117563430912.0, -8481620698703040512.0, 9.999999999999999e22,
        1e-4, std::nextafter(1e-4, 0.0), 1e-5, 0.001, 0.1, 0.2, 0.1 + 0.2, 1.0 / 3, -2.0 / 3, 0.5, 1.5, 123.456,
        2.2250738585072009e-308, -2.2250738585072014e-308, 1.2345678901234567e-300, 123456.78901234567};
    for (int e = -1074; e <= 1023; ++e) values.push_back(std::ldexp(1.0, e));
    for (int e = -323; e <= 308; ++e) values.push_back(power_of_ten(e));
    return values;
}

template <class T>
class FormatDoubleWith : public ::testing::Test {};
TYPED_TEST_SUITE(FormatDoubleWith, Algorithms, AlgorithmName);

TYPED_TEST(FormatDoubleWith, EdgeValuesAreWrittenAsToCharsWritesThem) {
    constexpr double_digits D = TypeParam::value;
    for (double v : edge_doubles()) {
        expect_like_to_chars<D>(v);
        expect_like_to_chars<D>(-v);
    }
    // The longest text there is fits max_double_chars exactly.
    EXPECT_EQ(format_double_text<D>(-2.2250738585072014e-308).size(), max_double_chars);
    EXPECT_EQ(to_chars_text(-2.2250738585072014e-308).size(), max_double_chars);
}

TYPED_TEST(FormatDoubleWith, RandomBitPatternsAreWrittenAsToCharsWritesThem) {
    std::mt19937_64 rng(20240602);
    for (int i = 0; i < 300000; ++i) {
        const double v = std::bit_cast<double>(rng());
        if (std::isfinite(v)) expect_like_to_chars<TypeParam::value>(v);
    }
}

TYPED_TEST(FormatDoubleWith, RandomValuesAroundFixedNotationAreWrittenAsToCharsWritesThem) {
    // Binary exponents -20 .. 80 (about 1e-6 to 1e24): fixed notation, exponent
    // notation and the integers of 18 to 23 digits std::to_chars writes exactly.
    std::mt19937_64 rng(7);
    for (int i = 0; i < 300000; ++i) {
        const std::uint64_t mantissa = rng() & ((1ULL << 52) - 1);
        const std::uint64_t exponent = 1023 - 20 + rng() % 101;
        expect_like_to_chars<TypeParam::value>(std::bit_cast<double>(exponent << 52 | mantissa));
        // Few significant digits: integers and short decimals scaled by powers of 10.
        const double scaled = static_cast<double>(rng() % 100000) * power_of_ten(static_cast<int>(rng() % 40) - 20);
        expect_like_to_chars<TypeParam::value>(scaled);
    }
}

TYPED_TEST(FormatDoubleWith, RandomValuesAtTheEdgesOfZmijsOwnTextAreWrittenAsToCharsWritesThem) {
    // Żmij's own text is used below 2^-20 and from 2^80 on, its digits in
    // obuf's writer between: binary exponents -22 .. -19 and 79 .. 82, and
    // the doubles next to 2^-20 and 2^80 on either side.
    std::mt19937_64 rng(11);
    for (int i = 0; i < 100000; ++i) {
        const std::uint64_t mantissa = rng() & ((1ULL << 52) - 1);
        const std::uint64_t exponent = (i % 2 == 0 ? 1023 - 22 : 1023 + 79) + rng() % 4;
        expect_like_to_chars<TypeParam::value>(std::bit_cast<double>(exponent << 52 | mantissa));
    }
    for (double edge : {0x1p-20, 0x1p80}) {
        double below = edge, above = edge;
        for (int i = 0; i < 1000; ++i) {
            below = std::nextafter(below, 0.0);
            above = std::nextafter(above, HUGE_VAL);
            expect_like_to_chars<TypeParam::value>(below);
            expect_like_to_chars<TypeParam::value>(above);
        }
    }
}

TYPED_TEST(FormatDoubleWith, InfinitiesAndNan) {
    constexpr double_digits D = TypeParam::value;
    using limits = std::numeric_limits<double>;
    EXPECT_EQ(format_double_text<D>(limits::infinity()), to_chars_text(limits::infinity()));
    EXPECT_EQ(format_double_text<D>(-limits::infinity()), to_chars_text(-limits::infinity()));
    // NaN: "nan" or "-nan" by its sign bit (standard libraries differ there:
    // MSVC's writes "-nan(ind)" for some), and it parses back as a NaN.
    for (double v : {limits::quiet_NaN(), -limits::quiet_NaN(), limits::signaling_NaN()}) {
        const std::string text = format_double_text<D>(v);
        EXPECT_EQ(text, std::signbit(v) ? "-nan" : "nan");
        double back = 0;
        std::from_chars(text.data(), text.data() + text.size(), back);
        EXPECT_TRUE(std::isnan(back)) << text;
    }
}

using string_device = iobench::test::chunk_device;

/// What an obuf of `buffer_size` bytes hands its device for `prefix` bytes of
/// 'x', then put_double<D>(v) and put('\n') for every value. With a buffer
/// longer than any double's text, where no write goes straight through,
/// fails the test unless every chunk but the last was one full buffer: a
/// double never went past the end of the buffer.
template <double_digits D>
std::string put_doubles(const std::vector<double>& values, std::size_t buffer_size, std::size_t prefix) {
    std::string text;
    std::vector<std::size_t> chunks;
    iobench::basic_obuf<string_device> out(string_device{&text, &chunks}, buffer_size);
    out.write(std::string(prefix, 'x'));
    for (double v : values) {
        out.template put_double<D>(v);
        out.put('\n');
    }
    out.flush();
    EXPECT_EQ(out.pending(), 0u);
    if (out.buffer_size() > max_double_chars && prefix < out.buffer_size()) {
        for (std::size_t i = 0; i + 1 < chunks.size(); ++i)
            EXPECT_EQ(chunks[i], out.buffer_size()) << "chunk " << i << " of " << chunks.size();
        if (!chunks.empty()) {
            EXPECT_LE(chunks.back(), out.buffer_size());
        }
    }
    return text;
}

/// The text put_doubles must produce, from std::to_chars.
std::string expected_text(const std::vector<double>& values, std::size_t prefix) {
    std::string text(prefix, 'x');
    for (double v : values) text += to_chars_text(v) + "\n";
    return text;
}

template <class T>
class ObufPutDoubleWith : public ::testing::Test {};
TYPED_TEST_SUITE(ObufPutDoubleWith, Algorithms, AlgorithmName);

TYPED_TEST(ObufPutDoubleWith, DoublesStraddleFlushesAtEveryOffset) {
    // Buffers of 1 to 40 bytes and every prefix up to one buffer: each double
    // starts at every offset of a buffer, and the long ones (up to 24 bytes,
    // more than a whole small buffer) straddle one flush or several; from 34
    // bytes on (format_double_room) some are formatted in place.
    const std::vector<double> values = {-2.2250738585072014e-308, 5e-324, 0.1, -0.0, 1.0 / 3, 1e16, DBL_MAX,
                                        0.0, 1234567890123456.7, 1e-05, -DBL_MIN, 42.0, 123456789012345683968.0,
                                        -1.7976931348623157e308, 0.000123456789};
    for (std::size_t size = 1; size <= 40; ++size) {
        for (std::size_t prefix = 0; prefix <= size; ++prefix) {
            SCOPED_TRACE("buffer_size " + std::to_string(size) + ", prefix " + std::to_string(prefix));
            ASSERT_EQ(put_doubles<TypeParam::value>(values, size, prefix), expected_text(values, prefix));
        }
    }
}

TYPED_TEST(ObufPutDoubleWith, EdgeValuesThroughSmallAndDefaultBuffers) {
    const std::vector<double> values = edge_doubles();
    for (std::size_t size : {1, 7, 23, 24, 25, 33, 34, 35, 4096, 0}) {  // 0: the default
        SCOPED_TRACE("buffer_size " + std::to_string(size));
        EXPECT_EQ(put_doubles<TypeParam::value>(values, size, 0), expected_text(values, 0));
    }
}

}  // namespace
