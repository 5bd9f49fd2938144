// Tests of ibuf's number parsing over an in-memory source (methods/ibuf.hpp,
// methods/parse_uint.hpp), on every platform: get_uints (a block parser, the
// short-number path and the byte-by-byte path) against get_uint and
// std::from_chars, with buffers of 1 byte to 64 KiB, sources that return
// fewer bytes than asked, numbers split across refills, files without a
// final '\n', and malformed input, which must be a parse_error naming the
// same offset and byte either way -- all of it once per block parser the CPU
// runs (scalar, SSE2, AVX2, NEON: use_uint_block_parser), so that every path
// gives the same values and the same errors. The SWAR, SSE2, AVX2 and NEON pieces are
// checked against byte-by-byte references, and get_doubles against
// get_double and its parser against std::from_chars.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <ostream>
#include <cstdint>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <iobench/error.hpp>
#include "methods/ibuf.hpp"
#include "sample_values.hpp"

namespace iobench {

/// Names a parser in the tests' output ("avx2", not its bytes; found by
/// argument-dependent lookup, so in uint_block_parser's own namespace).
void PrintTo(uint_block_parser p, std::ostream* os) { *os << uint_block_parser_name(p); }

namespace {

/// A source device over a string that hands out at most `max_read` bytes per
/// call (tests only): short reads, as a pipe or a slow device gives them.
struct string_source {
    std::string text;
    std::size_t max_read = SIZE_MAX;
    std::size_t at = 0;
    std::size_t read_some(char* buf, std::size_t size) {
        const std::size_t n = std::min({size, max_read, text.size() - at});
        std::copy_n(text.data() + at, n, buf);
        at += n;
        return n;
    }
};

/// How a test reads the numbers: one get_uint() per number (chunk 0), or
/// get_uints() with a span of `chunk` numbers per call.
struct Reader {
    std::size_t buffer_size;
    std::size_t chunk;
    std::size_t max_read = SIZE_MAX;
};

std::string describe(const Reader& r) {
    return "buffer " + std::to_string(r.buffer_size) + ", " +
           (r.chunk == 0 ? std::string("get_uint") : "get_uints of " + std::to_string(r.chunk)) +
           (r.max_read == SIZE_MAX ? "" : ", reads of at most " + std::to_string(r.max_read));
}

std::vector<std::uint64_t> parse(std::string_view text, const Reader& r) {
    basic_ibuf<string_source> in(string_source{std::string(text), r.max_read}, r.buffer_size);
    std::vector<std::uint64_t> values;
    if (r.chunk == 0) {
        std::uint64_t v = 0;
        while (in.get_uint(v)) values.push_back(v);
        return values;
    }
    std::vector<std::uint64_t> block(r.chunk);
    for (;;) {
        const std::size_t n = in.get_uints(block);
        EXPECT_LE(n, r.chunk);
        values.insert(values.end(), block.begin(), block.begin() + static_cast<std::ptrdiff_t>(n));
        if (n < r.chunk) break;  // fewer than asked: end of input
    }
    std::uint64_t v = 0;
    EXPECT_EQ(in.get_uints(block), 0u) << "numbers after a short get_uints";
    EXPECT_FALSE(in.get_uint(v)) << "numbers after a short get_uints";
    EXPECT_EQ(in.offset(), text.size()) << "offset after the end";
    return values;
}

/// Buffer sizes around the ones that matter: 1 byte, below and above the
/// 8-byte loads, the 32-byte blocks, and the default.
constexpr std::size_t kBufferSizes[] = {1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 40, 63, 64, 65, 100, 4096, 0};
constexpr std::size_t kChunks[] = {0, 1, 2, 3, 15, 16, 17, 1024};

/// Every reader of kBufferSizes x kChunks, and a few with short reads.
std::vector<Reader> all_readers() {
    std::vector<Reader> readers;
    for (std::size_t size : kBufferSizes)
        for (std::size_t chunk : kChunks) readers.push_back({size, chunk});
    for (std::size_t max_read : {1u, 5u, 33u}) readers.push_back({4096, 1024, max_read});
    return readers;
}

std::string decimal(std::uint64_t v) {
    char buf[32];
    return std::string(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
}

/// The sample integers of these tests (tests/sample_values.hpp).
std::vector<std::uint64_t> sample_values() { return iobench::test::sample_values(300, 1500); }

// --------------------------------------------------------------- the pieces

TEST(IbufPieces, DigitsAtAndParseDigitsAgreeWithFromChars) {
    std::mt19937_64 rng(7);
    char text[32];
    for (int i = 0; i < 20000; ++i) {
        const std::uint64_t v = rng() % 100000000;  // up to 8 digits
        const std::string s = decimal(v);
        std::memset(text, i % 2 ? '\n' : '9', sizeof text);  // the bytes after the digits must not matter
        std::memcpy(text + 8, s.data(), s.size());
        ASSERT_EQ(detail::digits_at(text + 8, s.size()), v) << s;
        ASSERT_EQ(detail::parse_digits(load_u64_le(text + 8), static_cast<unsigned>(s.size())), v) << s;
    }
    // Every length, with leading zeros and with nines; junk bytes that borrow.
    for (std::size_t len = 1; len <= 8; ++len) {
        std::memset(text, '\0', sizeof text);
        std::memset(text + 8, '0', len);
        text[8 + len - 1] = '7';
        ASSERT_EQ(detail::digits_at(text + 8, len), 7u) << len;
        std::memset(text + 8, '9', len);
        ASSERT_EQ(detail::digits_at(text + 8, len), detail::pow10_small[len] - 1) << len;
    }
    EXPECT_EQ(detail::eight_digits(0x0807060504030201ULL), 12345678u);
}

/// A vector kernel's classify32 (`classify`) agrees with the byte-by-byte
/// reference (classify32_bytes) for every byte value at every position of a
/// block of alternating digits and blanks, and on a block of white space and
/// digits all at once.
template <class Classify>
void expect_the_byte_classes_of(Classify classify) {
    char block[32];
    for (unsigned c = 0; c < 256; ++c) {
        for (unsigned pos = 0; pos < 32; ++pos) {
            std::memset(block, pos % 2 ? '7' : ' ', sizeof block);
            block[pos] = static_cast<char>(c);
            const detail::byte_classes32 want = detail::classify32_bytes(block);
            const detail::byte_classes32 got = classify(block);
            ASSERT_EQ(got.space, want.space) << "byte " << c << " at " << pos;
            ASSERT_EQ(got.digit, want.digit) << "byte " << c << " at " << pos;
        }
    }
    const char mixed[] = " \t\n\v\f\r0123456789/:\x1f!\x80\xff\x0e\x08 99\n\n\r\n ";
    EXPECT_EQ(classify(mixed).space, 0xF900003Fu);
    EXPECT_EQ(classify(mixed).digit, 0x0600FFC0u);
}

#if IOBENCH_IBUF_SSE2
TEST(IbufPieces, TwoAtOnceAgreesWithEightDigits) {
    std::mt19937_64 rng(11);
    for (int i = 0; i < 100000; ++i) {
        char text[16];
        const std::uint64_t va = rng() % detail::pow10_small[1 + i % 8], vb = rng() % detail::pow10_small[1 + i / 8 % 8];
        const std::string a = decimal(va), b = decimal(vb);
        std::memset(text, '7', sizeof text);  // what follows a number must not matter
        std::memcpy(text, a.data(), a.size());
        std::memcpy(text + 8, b.data(), b.size());
        std::uint64_t out[2] = {1, 1};
        detail::eight_digits_x2(detail::digit_lanes(text, a.size()), detail::digit_lanes(text + 8, b.size()), out);
        ASSERT_EQ(out[0], va) << a << ' ' << b;
        ASSERT_EQ(out[1], vb) << a << ' ' << b;
    }
    std::uint64_t out[2];
    detail::eight_digits_x2(detail::digit_lanes("99999999", 8), detail::digit_lanes("00000000", 8), out);
    EXPECT_EQ(out[0], 99999999u);
    EXPECT_EQ(out[1], 0u);
}
#endif

#if IOBENCH_IBUF_NEON
TEST(IbufPieces, NeonTwoAtOnceAgreesWithEightDigits) {
    std::mt19937_64 rng(11);
    for (int i = 0; i < 100000; ++i) {
        char text[16];
        const std::uint64_t va = rng() % detail::pow10_small[1 + i % 8], vb = rng() % detail::pow10_small[1 + i / 8 % 8];
        const std::string a = decimal(va), b = decimal(vb);
        std::memset(text, '7', sizeof text);  // what follows a number must not matter
        std::memcpy(text, a.data(), a.size());
        std::memcpy(text + 8, b.data(), b.size());
        std::uint64_t out[2] = {1, 1};
        detail::eight_digits_x2_neon(detail::digit_lanes(text, a.size()), detail::digit_lanes(text + 8, b.size()),
                                     out);
        ASSERT_EQ(out[0], va) << a << ' ' << b;
        ASSERT_EQ(out[1], vb) << a << ' ' << b;
    }
    std::uint64_t out[2];
    detail::eight_digits_x2_neon(detail::digit_lanes("99999999", 8), detail::digit_lanes("00000000", 8), out);
    EXPECT_EQ(out[0], 99999999u);
    EXPECT_EQ(out[1], 0u);
}

TEST(IbufPieces, NeonByteClassesOfEveryByteAtEveryPosition) {
    expect_the_byte_classes_of(detail::classify32_neon);
}

TEST(IbufPieces, NeonIsTheParserOfEveryAarch64Cpu) {
    EXPECT_TRUE(cpu_runs(uint_block_parser::neon));
    EXPECT_FALSE(cpu_runs(uint_block_parser::sse2));
    EXPECT_FALSE(cpu_runs(uint_block_parser::avx2));
    EXPECT_EQ(best_uint_block_parser(), uint_block_parser::neon);
}
#endif

TEST(IbufPieces, ByteClassesOfEveryByteAtEveryPosition) {
    // classify32 (SSE2, where built) and the byte-by-byte reference agree with
    // is_space / is_digit for all 256 byte values in all 32 positions.
    char block[32];
    for (unsigned c = 0; c < 256; ++c) {
        for (unsigned pos = 0; pos < 32; ++pos) {
            std::memset(block, 'x', sizeof block);
            block[pos] = static_cast<char>(c);
            const detail::byte_classes32 want = detail::classify32_bytes(block);
            const std::uint32_t bit = std::uint32_t{1} << pos;
            ASSERT_EQ((want.space & bit) != 0, detail::is_space(static_cast<char>(c))) << c;
            ASSERT_EQ((want.digit & bit) != 0, detail::is_digit(static_cast<char>(c))) << c;
            ASSERT_EQ(want.space & ~bit, 0u);
            ASSERT_EQ(want.digit & ~bit, 0u);
#if IOBENCH_IBUF_SSE2
            const detail::byte_classes32 got = detail::classify32(block);
            ASSERT_EQ(got.space, want.space) << "byte " << c << " at " << pos;
            ASSERT_EQ(got.digit, want.digit) << "byte " << c << " at " << pos;
#endif
        }
    }
    // The white space and digits themselves, all at once.
    const char mixed[] = " \t\n\v\f\r0123456789/:\x1f!\x80\xff\x0e\x08 99\n\n\r\n ";
    static_assert(sizeof mixed - 1 == 32);
    EXPECT_EQ(detail::classify32_bytes(mixed).space, 0xF900003Fu);
    EXPECT_EQ(detail::classify32_bytes(mixed).digit, 0x0600FFC0u);
#if IOBENCH_IBUF_SSE2
    EXPECT_EQ(detail::classify32(mixed).space, 0xF900003Fu);
    EXPECT_EQ(detail::classify32(mixed).digit, 0x0600FFC0u);
#endif
}

#if IOBENCH_IBUF_SSE2
TEST(IbufPieces, Avx2ByteClassesOfEveryByteAtEveryPosition) {
    if (!cpu_runs(uint_block_parser::avx2)) GTEST_SKIP() << "this CPU has no AVX2 and BMI2";
    expect_the_byte_classes_of(detail::classify32_avx2);
}

TEST(IbufPieces, Avx2FourAndEightAtOnceAgreeWithDigitsAt) {
    // Eight numbers of 1 to 8 digits, each after a white-space byte and junk
    // (digits too: only the run of digits right before the end counts),
    // four at once and eight at once, which must say whether a lane had no
    // separator (8 digits, or 9 and more: a lane holds 8 bytes).
    if (!cpu_runs(uint_block_parser::avx2)) GTEST_SKIP() << "this CPU has no AVX2 and BMI2";
    std::mt19937_64 rng(13);
    const char separators[] = " \t\n\v\f\r";
    for (int i = 0; i < 100000; ++i) {
        char text[8][24];
        std::uint64_t want[8];
        const char* ends[8];
        bool eight_digits = false;  // a lane with no separator
        for (int k = 0; k < 8; ++k) {
            for (char& c : text[k]) c = static_cast<char>(rng());  // anything before the separator
            if (i % 3 == 0) std::memset(text[k], '9', 16);          // or digits
            const std::size_t len = 1 + rng() % 8;
            eight_digits |= len == 8;
            want[k] = rng() % detail::pow10_small[len];
            const std::string digits = std::string(len - decimal(want[k]).size(), '0') + decimal(want[k]);
            char* const end = text[k] + 16;
            std::memcpy(end - len, digits.data(), len);
            end[-1 - static_cast<std::ptrdiff_t>(len)] = separators[rng() % 6];
            *end = ' ';
            ends[k] = end;
        }
        std::uint64_t got[8];
        detail::digits_before_x4(ends[0], ends[1], ends[2], ends[3], got);
        for (int k = 0; k < 4; ++k) ASSERT_EQ(got[k], want[k]) << i << ' ' << k;
        ASSERT_EQ(detail::digits_before_x8(ends, got), eight_digits) << i;
        for (int k = 0; k < 8; ++k) ASSERT_EQ(got[k], want[k]) << i << ' ' << k;
        // Where no lane had 8 digits: nine digits in lane k alone (no
        // separator in its 8 bytes) must be reported, and its seven
        // neighbours' values stay right.
        if (!eight_digits) {
            const auto k = static_cast<std::size_t>(rng() % 8);
            std::memset(text[k] + 16 - 9, '7', 9);
            ASSERT_TRUE(detail::digits_before_x8(ends, got)) << i << ' ' << k;
            for (std::size_t n = 0; n < 8; ++n) {
                if (n != k) {
                    ASSERT_EQ(got[n], want[n]) << i << ' ' << n;
                }
            }
        }
    }
}
#endif

#if defined(__linux__) && IOBENCH_IBUF_SSE2
TEST(IbufPieces, Avx2DetectionAgreesWithTheKernel) {
    // The flags the Linux kernel lists for the first CPU (/proc/cpuinfo),
    // against cpuid as cpu_has_avx2_bmi2 reads it.
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line;
    while (std::getline(cpuinfo, line) && line.rfind("flags", 0) != 0) {
    }
    ASSERT_FALSE(line.empty()) << "no flags line in /proc/cpuinfo";
    std::istringstream words(line.substr(line.find(':') + 1));
    bool avx2 = false, bmi1 = false, bmi2 = false, popcnt = false;
    for (std::string w; words >> w;) {
        avx2 |= w == "avx2";
        bmi1 |= w == "bmi1";
        bmi2 |= w == "bmi2";
        popcnt |= w == "popcnt";
    }
    EXPECT_EQ(cpu_has_avx2_bmi2(), avx2 && bmi1 && bmi2 && popcnt);
    EXPECT_EQ(best_uint_block_parser(), cpu_has_avx2_bmi2() ? uint_block_parser::avx2 : uint_block_parser::sse2);
}
#endif

TEST(IbufPieces, EveryParserTheCpuRunsCanBeChosen) {
    const uint_block_parser before = uint_block_parser_in_use();
    for (uint_block_parser p :
         {uint_block_parser::scalar, uint_block_parser::sse2, uint_block_parser::avx2, uint_block_parser::neon}) {
        EXPECT_EQ(use_uint_block_parser(p), cpu_runs(p)) << uint_block_parser_name(p);
        if (cpu_runs(p)) {
            EXPECT_EQ(uint_block_parser_in_use(), p);
        }
    }
    EXPECT_TRUE(use_uint_block_parser(before));
#if !IOBENCH_IBUF_SSE2
    EXPECT_FALSE(use_uint_block_parser(uint_block_parser::sse2));
    EXPECT_FALSE(use_uint_block_parser(uint_block_parser::avx2));
#endif
#if !IOBENCH_IBUF_NEON
    EXPECT_FALSE(use_uint_block_parser(uint_block_parser::neon));
#endif
}

// ------------------------------------------------------ numbers that parse

/// The get_uints tests, once per block parser (uint_block_parser): each runs
/// with that parser chosen for the whole process, and is skipped where the
/// CPU does not run it; the one in use before is chosen again afterwards.
class IbufGetUints : public ::testing::TestWithParam<uint_block_parser> {
protected:
    void SetUp() override {
        if (!use_uint_block_parser(GetParam()))
            GTEST_SKIP() << "this CPU does not run the " << uint_block_parser_name(GetParam()) << " parser";
    }
    void TearDown() override { use_uint_block_parser(before_); }

private:
    uint_block_parser before_ = uint_block_parser_in_use();
};

/// The parsers the get_uints tests run with: the x86-64 ones everywhere (skipped where the CPU does not run
/// them), NEON where it is built (AArch64).
#if IOBENCH_IBUF_NEON
#define IOBENCH_TEST_PARSERS uint_block_parser::scalar, uint_block_parser::sse2, uint_block_parser::avx2, \
                             uint_block_parser::neon
#else
#define IOBENCH_TEST_PARSERS uint_block_parser::scalar, uint_block_parser::sse2, uint_block_parser::avx2
#endif
INSTANTIATE_TEST_SUITE_P(Parser, IbufGetUints, ::testing::Values(IOBENCH_TEST_PARSERS),
                         [](const ::testing::TestParamInfo<uint_block_parser>& parser) {
                             return std::string(uint_block_parser_name(parser.param));
                         });

TEST_P(IbufGetUints, SameNumbersAsFromCharsForEveryReader) {
    // Every sample value once per separator style: '\n', ' ', "\r\n", runs of
    // white space, and no separator at the end of the file.
    const std::vector<std::uint64_t> values = sample_values();
    const char* separators[] = {"\n", " ", "\r\n", "\t \n\v\f  "};
    std::string text;
    std::vector<std::uint64_t> want;
    for (std::size_t i = 0; i < values.size(); ++i) {
        text += decimal(values[i]);
        text += separators[i % 4];
        want.push_back(values[i]);
    }
    text += "12345";  // no final '\n'
    want.push_back(12345);
    for (const Reader& r : all_readers()) {
        SCOPED_TRACE(describe(r));
        ASSERT_EQ(parse(text, r), want);
    }
}

TEST_P(IbufGetUints, ShortNumbersAmongRunsOfWhiteSpaceAndLongNumbers) {
    // Mostly numbers of 1 to 8 digits (the AVX2 parser's blocks of them go
    // four at a time), one or more white-space bytes between, leading
    // zeros, and now and then one of 9 to 20 digits (a block parser takes
    // such a block one number at a time, or stops before it).
    std::mt19937_64 rng(17);
    const char* separators[] = {"\n", " ", "\r\n", "\t", "  \n\n", "\v\f"};
    std::string text;
    std::vector<std::uint64_t> want;
    for (int i = 0; i < 20000; ++i) {
        const bool long_one = rng() % 50 == 0;
        const std::uint64_t v = long_one ? rng() >> (rng() % 30) : rng() % detail::pow10_small[1 + rng() % 8];
        if (rng() % 20 == 0) text += "00";
        text += decimal(v);
        text += separators[rng() % 3 == 0 ? rng() % 6 : 0];
        want.push_back(v);
    }
    for (const Reader& r : all_readers()) {
        SCOPED_TRACE(describe(r));
        ASSERT_EQ(parse(text, r), want);
    }
}

TEST_P(IbufGetUints, FilesOfNumbersOfOneLengthForEveryLength) {
    // 400 numbers of exactly L digits for every L from 1 to 20: L = 8 fills
    // the AVX2 parser's 8-byte lanes with no white space before a number,
    // L = 9 and more makes every window go one number at a time, 17 and more
    // stops the block parsers; between them one to three white-space bytes,
    // so that the windows, which start after the last number they
    // converted, start at every offset of a line; and the same with two
    // bytes ("\r\n") after every number, so that no run of digits is longer
    // than a number.
    std::mt19937_64 rng(23);
    const char* separators[] = {"\n", " ", "\r\n", "\t\t\t"};
    for (std::size_t test = 0; test < 40; ++test) {
        const std::size_t length = 1 + test % 20;
        const bool crlf = test >= 20;
        std::string text;
        std::vector<std::uint64_t> want;
        for (int i = 0; i < 400; ++i) {
            std::string digits(length, '0');
            for (char& c : digits) c = static_cast<char>('0' + rng() % 10);
            if (length > 1) digits[0] = static_cast<char>('1' + rng() % 9);  // no leading zero
            if (length == 20) digits.replace(0, 2, "1" + std::to_string(rng() % 8));  // below 1.8e19
            const std::uint64_t v = std::stoull(digits);
            text += decimal(v);
            text += crlf ? "\r\n" : separators[rng() % 4 == 0 ? rng() % 4 : 0];
            want.push_back(v);
        }
        for (const Reader& r : all_readers()) {
            SCOPED_TRACE("length " + std::to_string(length) + (crlf ? " (CR LF), " : ", ") + describe(r));
            ASSERT_EQ(parse(text, r), want);
        }
    }
}

TEST_P(IbufGetUints, NumbersSplitAcrossRefillsAtEveryOffset) {
    // Lines of 1 to 17 digits and one byte of white space: with buffers of 1
    // to 40 bytes, each number is cut by a refill at each of its positions
    // somewhere in the file, and the 32-byte blocks start at every offset;
    // 63 to 130 bytes do the same for the AVX2 parser's 64-byte blocks.
    std::string text;
    std::vector<std::uint64_t> want;
    std::uint64_t x = 1;
    for (int i = 0; i < 600; ++i) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        const std::uint64_t v = x % detail::pow10_small[1 + i % 8] * (i % 3 == 0 ? 1000000000 : 1);
        want.push_back(v);
        text += decimal(v) + (i % 5 == 0 ? " " : "\n");
    }
    std::vector<std::size_t> sizes;
    for (std::size_t size = 1; size <= 40; ++size) sizes.push_back(size);
    for (std::size_t size = 63; size <= 130; ++size) sizes.push_back(size);
    for (std::size_t size : sizes) {
        for (std::size_t chunk : {0u, 1u, 7u, 1024u}) {
            const Reader r{size, chunk};
            SCOPED_TRACE(describe(r));
            ASSERT_EQ(parse(text, r), want);
        }
    }
}

TEST_P(IbufGetUints, WhiteSpaceLeadingZerosAndFileEnds) {
    for (const Reader& r : all_readers()) {
        SCOPED_TRACE(describe(r));
        EXPECT_EQ(parse("", r), std::vector<std::uint64_t>{});
        EXPECT_EQ(parse(" \n\t\r\v\f  \n", r), std::vector<std::uint64_t>{});
        EXPECT_EQ(parse(std::string(100, '\n'), r), std::vector<std::uint64_t>{});
        EXPECT_EQ(parse("7", r), std::vector<std::uint64_t>{7});
        EXPECT_EQ(parse("5\n6", r), (std::vector<std::uint64_t>{5, 6}));
        EXPECT_EQ(parse("18446744073709551615", r), std::vector<std::uint64_t>{UINT64_MAX});
        EXPECT_EQ(parse("  18446744073709551615\n0\n", r), (std::vector<std::uint64_t>{UINT64_MAX, 0}));
        EXPECT_EQ(parse("0000000000000000000000000000000042 007\n00000000 0000000000000000\n", r),
                  (std::vector<std::uint64_t>{42, 7, 0, 0}));
        EXPECT_EQ(parse("12345678 123456789012 1234567890123456 12345678901234567 1234567890123456789\n", r),
                  (std::vector<std::uint64_t>{12345678, 123456789012, 1234567890123456, 12345678901234567,
                                              1234567890123456789}));
        // 40 short numbers, then a long run of leading zeros: the blocks meet
        // them at every offset as the buffer size varies.
        std::string text;
        std::vector<std::uint64_t> want;
        for (std::uint64_t v = 1; v <= 40; ++v) {
            text += decimal(v) + " ";
            want.push_back(v);
        }
        text += std::string(85, '0') + "1\n";
        want.push_back(1);
        EXPECT_EQ(parse(text, r), want);
    }
}

TEST_P(IbufGetUints, AsManyAsAskedAndThenTheRest) {
    // get_uints fills the span exactly, keeps its place between calls, and
    // answers 0 from then on at end of input; get_uint continues where it stopped.
    std::string text;
    for (std::uint64_t v = 0; v < 5000; ++v) text += decimal(v * 37) + "\n";
    basic_ibuf<string_source> in(string_source{text}, 0);
    std::vector<std::uint64_t> block(1000);
    std::uint64_t next = 0;
    for (std::size_t asked : {1u, 2u, 16u, 17u, 500u, 1000u}) {
        const std::size_t n = in.get_uints(std::span(block).first(asked));
        ASSERT_EQ(n, asked);
        for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(block[i], (next + i) * 37);
        next += n;
        std::uint64_t v = 0;
        ASSERT_TRUE(in.get_uint(v));
        ASSERT_EQ(v, next * 37);
        ++next;
    }
    EXPECT_EQ(in.get_uints(std::span(block).first(0)), 0u);
    std::size_t n = 0;
    while (const std::size_t got = in.get_uints(block)) {
        for (std::size_t i = 0; i < got; ++i) ASSERT_EQ(block[i], (next + i) * 37);
        next += got;
        n += got;
    }
    EXPECT_EQ(next, 5000u);
    EXPECT_EQ(in.get_uints(block), 0u);
    EXPECT_EQ(in.offset(), text.size());
}

// -------------------------------------------------------- malformed input

/// Expects parse_error from every reader whose message names `offset` and
/// contains `detail`.
void expect_parse_error(std::string_view text, std::uint64_t offset, std::string_view detail) {
    for (const Reader& r : all_readers()) {
        SCOPED_TRACE(describe(r));
        try {
            parse(text, r);
            ADD_FAILURE() << "no parse_error for \"" << text << "\"";
        } catch (const parse_error& e) {
            const std::string msg = e.what();
            const std::string where = "offset " + std::to_string(offset);
            const std::size_t at = msg.find(where);
            EXPECT_NE(at, std::string::npos) << msg;
            if (at != std::string::npos && at + where.size() < msg.size()) {
                EXPECT_FALSE(detail::is_digit(msg[at + where.size()])) << msg;  // not a longer number
            }
            EXPECT_NE(msg.find(detail), std::string::npos) << msg;
        }
    }
}

/// `count` lines "0".."count-1": enough numbers for the block parser to run
/// before the malformed part that follows.
std::string lines(std::uint64_t count) {
    std::string text;
    for (std::uint64_t v = 0; v < count; ++v) text += decimal(v) + "\n";
    return text;
}

TEST_P(IbufGetUints, LetterInsideANumber) {
    expect_parse_error("12\nx3\n", 3, "unexpected byte 'x' (0x78)");
    expect_parse_error("12 34a\n", 5, "unexpected byte 'a' (0x61)");
    expect_parse_error("1234b567\n", 4, "'b'");
    expect_parse_error("123456789012c\n", 12, "'c'");
    expect_parse_error("5\n6 7q", 5, "'q'");  // at the end of a file without '\n'
    const std::string before = lines(100);  // 290 bytes
    expect_parse_error(before + "1234567z\n" + lines(100), before.size() + 7, "'z'");
    expect_parse_error(before + "1234567890123456789Z\n", before.size() + 19, "'Z'");
    expect_parse_error(before + "0x10\n", before.size() + 1, "'x'");
    expect_parse_error(before + "1.5\n", before.size() + 1, "'.'");
    expect_parse_error(before + "1,000\n", before.size() + 1, "','");
}

TEST_P(IbufGetUints, SignsAndOtherBytes) {
    expect_parse_error("1\n-5\n", 2, "unexpected byte '-' (0x2d)");
    expect_parse_error("-0", 0, "'-'");
    expect_parse_error("+5", 0, "'+'");
    const std::string before = lines(50);
    expect_parse_error(before + "-17\n", before.size(), "'-'");
    expect_parse_error(before + "17 -\n", before.size() + 3, "'-'");
    expect_parse_error(before + std::string("1\0", 2), before.size() + 1, "(0x00)");
    expect_parse_error(before + "\xe2\x80\x83" "5\n", before.size(), "(0xe2)");  // U+2003 EM SPACE is not white space here
}

TEST_P(IbufGetUints, NumbersTooLargeForUint64) {
    const std::string msg = "is greater than 18446744073709551615 (UINT64_MAX)";
    expect_parse_error("18446744073709551616", 0, msg);
    expect_parse_error("7 18446744073709551616\n", 2, msg);
    expect_parse_error("99999999999999999999\n", 0, msg);
    expect_parse_error("123456789012345678901\n", 0, msg);
    expect_parse_error("000000000000000000000000000000000000000018446744073709551616\n", 0, msg);
    const std::string before = lines(100);
    expect_parse_error(before + "18446744073709551616\n" + lines(10), before.size(), msg);
    expect_parse_error(before + "100000000000000000000", before.size(), msg);  // no final '\n'
    expect_parse_error(before + std::string(80, '9') + "\n", before.size(), msg);
}

// ------------------------------------------------------------------ doubles

#if defined(__cpp_lib_to_chars)
TEST(IbufDoubles, ParserGivesStdFromCharsResultsToTheLetter) {
    // detail::from_chars_double is fast_float where built with it: the same
    // value, the same end and the same error as std::from_chars, range errors
    // included (older fast_float returns inf or 0 for them without one).
    std::vector<std::string> inputs = {
        "1e999", "-1e999", "1e-999", "-1e-999", "0e999", "0e-999", "0.0", "-0", "inf", "-infinity", "INF", "nan",
        "nan(123)", "+1", "1e", "1e+", ".5", "5.", "-.5", "0x1p3", "-", "", "1_", "e5", ".", "-.e1",
        "4.9406564584124654e-324", "2.4703282292062327e-324", "2.4703282292062328e-324", "1.7976931348623157e308",
        "1.7976931348623159e308", "1.79769313486231580793728971405301e+308", std::string(70, '0') + "1e-400",
        "0." + std::string(70, '0') + "e-400", "0." + std::string(400, '0') + "1", "1" + std::string(400, '0'),
        "2.2250738585072011e-308", "2.2250738585072014e-308", "9007199254740993", "123456789012345678901234567890"};
    std::mt19937_64 rng(99);
    for (int i = 0; i < 3000; ++i) {  // random bit patterns in shortest and %.17g form
        const double d = std::bit_cast<double>(rng());
        char buf[64];
        inputs.emplace_back(buf, std::to_chars(buf, buf + sizeof buf, d).ptr);
        inputs.emplace_back(buf, std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific, 16).ptr);
    }
    for (const std::string& text : inputs) {
        double a = 7, b = 7;
        const auto ra = detail::from_chars_double(text.data(), text.data() + text.size(), a);
        const auto rb = std::from_chars(text.data(), text.data() + text.size(), b);
        ASSERT_EQ(ra.ec, rb.ec) << '"' << text << '"';
        ASSERT_EQ(ra.ptr, rb.ptr) << '"' << text << '"';
        if (std::isnan(b)) {
            ASSERT_TRUE(std::isnan(a)) << text;
        } else {
            ASSERT_EQ(std::bit_cast<std::uint64_t>(a), std::bit_cast<std::uint64_t>(b)) << '"' << text << '"';
        }
    }
}
#endif

std::vector<double> parse_doubles(std::string_view text, const Reader& r) {
    basic_ibuf<string_source> in(string_source{std::string(text), r.max_read}, r.buffer_size);
    std::vector<double> values;
    if (r.chunk == 0) {
        double v = 0;
        while (in.get_double(v)) values.push_back(v);
        return values;
    }
    std::vector<double> block(r.chunk);
    for (;;) {
        const std::size_t n = in.get_doubles(block);
        EXPECT_LE(n, r.chunk);
        values.insert(values.end(), block.begin(), block.begin() + static_cast<std::ptrdiff_t>(n));
        if (n < r.chunk) break;
    }
    EXPECT_EQ(in.get_doubles(block), 0u) << "numbers after a short get_doubles";
    EXPECT_EQ(in.offset(), text.size()) << "offset after the end";
    return values;
}

TEST(IbufDoubles, GetDoublesReadsWhatGetDoubleReads) {
    std::mt19937_64 rng(5);
    std::string text;
    std::vector<double> want;
    for (int i = 0; i < 400; ++i) {
        // Every bit pattern (but inf and nan), and short decimals.
        const double d = i % 2 ? std::bit_cast<double>(rng()) : static_cast<double>(rng() % 100000) / 8;
        if (!std::isfinite(d)) continue;
        char buf[64];
        text.append(buf, std::to_chars(buf, buf + sizeof buf, d).ptr);
        text += i % 3 ? "\n" : " \t";
        want.push_back(d);
    }
    text += "-0 inf\n1e5";  // no final '\n'
    want.insert(want.end(), {-0.0, std::numeric_limits<double>::infinity(), 1e5});
    for (const Reader& r : all_readers()) {
        SCOPED_TRACE(describe(r));
        const std::vector<double> got = parse_doubles(text, r);
        ASSERT_EQ(got.size(), want.size());
        for (std::size_t i = 0; i < got.size(); ++i)
            ASSERT_EQ(std::bit_cast<std::uint64_t>(got[i]), std::bit_cast<std::uint64_t>(want[i])) << i;
    }
}

TEST(IbufDoubles, MalformedAndOutOfRangeAreErrorsForEveryReader) {
    const std::string before = "1.5\n2.5\n" + std::string(100, ' ');
    const struct {
        std::string text;
        std::string detail;
    } cases[] = {
        {before + "2.5x\n", "not a floating-point number at byte offset 108: \"2.5x\""},
        {before + "+1\n", "offset 108: \"+1\""},
        {before + "1e999\n", "offset 108: \"1e999\""},
        {before + "1e-999 3\n", "offset 108: \"1e-999\""},
        {before + "-\n", "offset 108: \"-\""},
        {before + std::string(65, '1') + "\n", "offset 108 is longer than 64 bytes"},
    };
    for (const Reader& r : all_readers()) {
        SCOPED_TRACE(describe(r));
        for (const auto& c : cases) {
            try {
                parse_doubles(c.text, r);
                ADD_FAILURE() << "no parse_error for " << c.text.substr(before.size());
            } catch (const parse_error& e) {
                EXPECT_NE(std::string(e.what()).find(c.detail), std::string::npos) << e.what();
            }
        }
    }
}

}  // namespace
}  // namespace iobench
