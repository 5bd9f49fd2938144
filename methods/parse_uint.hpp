// The integer kernels of ibuf (methods/ibuf.hpp): white space and digits,
// SWAR conversions of up to 8 digits, parse_uint, and the block parsers of
// get_uints, which classify a block of bytes at once and convert several
// numbers at a time: 64 bytes and four numbers with AVX2 (and BMI1, BMI2,
// POPCNT) where the CPU has them, chosen at run time; 32 bytes and two
// numbers with SSE2 on every other x86-64 CPU; none elsewhere (the scalar
// path: one 8-byte load per number). uint_block_parser_in_use() says which
// runs; use_uint_block_parser() chooses one (the tests run every path the
// CPU has).
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <system_error>

#include <iobench/load_le.hpp>
#include "methods/hot_path.hpp"

/// IOBENCH_IBUF_SSE2: 1 where ibuf's block parsers are built (every x86-64
/// target: SSE2 is part of the architecture, AVX2 is compiled for and chosen
/// at run time), 0 elsewhere (the scalar path only).
#if defined(__x86_64__) || defined(_M_X64) || defined(_M_AMD64)
#define IOBENCH_IBUF_SSE2 1
#include <immintrin.h>
#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
#endif
#else
#define IOBENCH_IBUF_SSE2 0
#endif

namespace iobench {

namespace detail {

/// ASCII white space as in the "C" locale: ' ', '\t', '\n', '\v', '\f', '\r'.
constexpr bool is_space(char c) noexcept {
    return c == ' ' || static_cast<unsigned char>(c) - 9u < 5u;
}

constexpr bool is_digit(char c) noexcept {
    return static_cast<unsigned char>(c) - static_cast<unsigned>('0') < 10u;
}

/// Number of leading ASCII digits (0..8) among the 8 bytes of `w` (first byte
/// lowest). SWAR test of all bytes at once: a byte is a digit iff its high
/// nibble is 3 and adding 6 keeps it 3. A carry out of a byte >= 0xFA can only
/// spoil bytes after that (already non-digit) byte, which do not matter.
inline unsigned leading_digits8(std::uint64_t w) noexcept {
    constexpr std::uint64_t high = 0xF0F0F0F0F0F0F0F0ULL;
    constexpr std::uint64_t threes = 0x3030303030303030ULL;
    const std::uint64_t bad =
        ((w & high) ^ threes) | (((w + 0x0606060606060606ULL) & high) ^ threes);
    return static_cast<unsigned>(std::countr_zero(bad)) / 8;  // 64 / 8 = 8 when none
}

/// Value of 8 decimal digits given as the byte values 0..9 of `w`, first
/// (most significant) digit in the lowest byte. SWAR: adjacent lanes are
/// combined into 2-digit values with one multiply, then two multiplies put
/// the 4-digit halves together: the 8-digit conversion of Daniel Lemire's
/// fast_float ("Number Parsing at a Gigabyte per Second", 2021), written here
/// from that description.
constexpr std::uint32_t eight_digits(std::uint64_t w) noexcept {
    w = w * 10 + (w >> 8);  // byte 2k: the 2-digit value of digits 2k, 2k+1
    constexpr std::uint64_t mask = 0x000000FF000000FFULL;
    constexpr std::uint64_t mul1 = 100 + (1000000ULL << 32);
    constexpr std::uint64_t mul2 = 1 + (10000ULL << 32);
    return static_cast<std::uint32_t>(((w & mask) * mul1 + ((w >> 16) & mask) * mul2) >> 32);
}

/// Value of the first `n` (1..8) bytes of `w`, which must be ASCII digits,
/// first byte most significant. The digits are shifted to the top, so that
/// the vacated low bytes act as leading zeros, then converted by eight_digits.
inline std::uint32_t parse_digits(std::uint64_t w, unsigned n) noexcept {
    return eight_digits((w - 0x3030303030303030ULL) << (64 - 8 * n));
}

/// The `len` (1..8) ASCII digits at `first` as eight_digits takes them: the
/// digit values, first digit lowest, shifted to the top so that the low
/// bytes are leading zeros (what parse_digits does, with the shift count
/// written as the low 6 bits of -8 * len: one instruction on x86). Reads 8
/// bytes; the bytes after the digits are shifted out.
inline std::uint64_t digit_lanes(const char* first, std::size_t len) noexcept {
    const unsigned shift = (0u - 8u * static_cast<unsigned>(len)) & 63u;
    return (load_u64_le(first) - 0x3030303030303030ULL) << shift;
}

/// Value of the `len` (1..8) ASCII digits at `first`. Reads 8 bytes.
inline std::uint32_t digits_at(const char* first, std::size_t len) noexcept {
    return eight_digits(digit_lanes(first, len));
}

/// Which of 32 bytes are ASCII white space (is_space) and which are decimal
/// digits: bit i stands for byte i.
struct byte_classes32 {
    std::uint32_t space;
    std::uint32_t digit;
};

/// byte_classes32 of the 32 bytes at `p`, one byte at a time: the reference
/// the SSE2 classify32 and the AVX2 classify32_avx2 are tested against.
constexpr byte_classes32 classify32_bytes(const char* p) noexcept {
    byte_classes32 c{0, 0};
    for (unsigned i = 0; i < 32; ++i) {
        if (is_space(p[i])) c.space |= std::uint32_t{1} << i;
        if (is_digit(p[i])) c.digit |= std::uint32_t{1} << i;
    }
    return c;
}

#if IOBENCH_IBUF_SSE2
/// Bit mask of the bytes of `x` in [lo, lo + n) (as unsigned bytes), bit i
/// for byte i: one signed compare after moving `lo` to -128.
inline unsigned in_range16(__m128i x, char lo, char n) noexcept {
    const __m128i shifted = _mm_xor_si128(_mm_sub_epi8(x, _mm_set1_epi8(lo)), _mm_set1_epi8(static_cast<char>(0x80)));
    const __m128i hit = _mm_cmplt_epi8(shifted, _mm_set1_epi8(static_cast<char>(0x80 + n)));
    return static_cast<unsigned>(_mm_movemask_epi8(hit));
}

/// Bit mask of the bytes of `x` that are white space (is_space), bit i for byte i.
inline unsigned space16(__m128i x) noexcept {
    const __m128i blank = _mm_cmpeq_epi8(x, _mm_set1_epi8(' '));
    return in_range16(x, '\t', 5) | static_cast<unsigned>(_mm_movemask_epi8(blank));  // \t \n \v \f \r, ' '
}

/// eight_digits of `a` and of `b` at once, stored to out[0] and out[1]: the
/// same lane arithmetic with SSE2's 16-bit multiply-adds (pmaddwd) on both
/// numbers' digits in one register: digit pairs (x10 + 1), then 4-digit
/// groups (x100 + 1), then the 8-digit value (x10000 + 1). Every step fits
/// in 16-bit inputs and 32-bit sums. Measured: 19 % less time per number in
/// get_uints than two scalar conversions.
inline void eight_digits_x2(std::uint64_t a, std::uint64_t b, std::uint64_t* out) noexcept {
    const __m128i zero = _mm_setzero_si128();
    const __m128i x = _mm_unpacklo_epi64(_mm_cvtsi64_si128(static_cast<long long>(a)),
                                         _mm_cvtsi64_si128(static_cast<long long>(b)));
    const __m128i pairs_a = _mm_madd_epi16(_mm_unpacklo_epi8(x, zero), _mm_set1_epi32(0x0001000A));  // d*10 + d
    const __m128i pairs_b = _mm_madd_epi16(_mm_unpackhi_epi8(x, zero), _mm_set1_epi32(0x0001000A));
    const __m128i quads = _mm_madd_epi16(_mm_packs_epi32(pairs_a, pairs_b), _mm_set1_epi32(0x00010064));  // x100
    const __m128i values = _mm_madd_epi16(_mm_packs_epi32(quads, quads), _mm_set1_epi32(0x00012710));   // x10000
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm_unpacklo_epi32(values, zero));
}

/// byte_classes32 of the 32 bytes at `p` with SSE2: two 16-byte loads, a
/// handful of compares and one movemask per class and half.
inline byte_classes32 classify32(const char* p) noexcept {
    const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16));
    return {static_cast<std::uint32_t>(space16(lo) | (space16(hi) << 16)),
            static_cast<std::uint32_t>(in_range16(lo, '0', 10) | (in_range16(hi, '0', 10) << 16))};
}

/// One step of a block parser: the number from `start` to the next white
/// space of the block (the lowest bit of `spaces`, which it clears), into
/// *o; when it has 1 to 8 digits and so has the one after it in the block,
/// both at once (eight_digits_x2). A run of white space is skipped. Returns
/// false, consuming nothing, at a number of 17 digits or more.
IOBENCH_ALWAYS_INLINE bool parse_next_in_block(const char*& start, const char* block, std::uint32_t& spaces,
                                               std::uint64_t*& o) noexcept {
    // A number, if any, ends at e: its digits are [start, e).
    const char* const e = block + static_cast<unsigned>(std::countr_zero(spaces));
    const std::uint32_t rest = spaces & (spaces - 1);
    const auto len = static_cast<std::size_t>(e - start);
    if (len - 1 < 8) {
        if (rest != 0) {  // the next number ends in this block too: both at once when it is short
            const char* const e2 = block + static_cast<unsigned>(std::countr_zero(rest));
            const auto len2 = static_cast<std::size_t>(e2 - e - 1);
            if (len2 - 1 < 8) {
                spaces = rest & (rest - 1);
                eight_digits_x2(digit_lanes(start, len), digit_lanes(e + 1, len2), o);
                o += 2;
                start = e2 + 1;
                return true;
            }
        }
        *o++ = digits_at(start, len);
    } else if (len - 9 < 8) {  // 9..16 digits: below 10^16, no overflow
        *o++ = digits_at(start, len - 8) * std::uint64_t{100000000} + digits_at(e - 8, 8);
    } else if (len != 0) {
        return false;
    }
    spaces = rest;
    start = e + 1;
    return true;
}

/// Parses, 32 bytes per step, the numbers of [start, end) that end in white
/// space, into out (which needs room for 16 numbers per step): `start` must
/// be at the beginning of a number or of white space, and 8 readable bytes
/// must follow `end`. Stops before a block that holds anything but digits and
/// white space, before a number of 17 digits or more (it may exceed
/// UINT64_MAX), when fewer than 32 bytes are left, or when `out` has room for
/// fewer than 16; returns where it stopped: the first byte of the first
/// number not parsed (or of white space before it).
///
/// Each block is classified one step ahead of its numbers' conversion, so
/// that the loads and compares of the next block overlap the conversions of
/// this one instead of waiting behind them (measured: 18 % less time per
/// number than classifying each block just before its numbers).
inline const char* parse_uint_blocks_sse2(const char* start, const char* end, std::uint64_t*& out,
                                          std::uint64_t* out_end) noexcept {
    if (end - start < 32) return start;
    const char* block = start;
    std::uint64_t* o = out;
    byte_classes32 c = classify32(block);
    while (out_end - o >= 16 && (c.space | c.digit) == 0xFFFFFFFFu) {
        const bool more = end - block >= 64;
        const byte_classes32 next = more ? classify32(block + 32) : byte_classes32{0, 0};
        std::uint32_t spaces = c.space;
        while (spaces != 0) {
            if (!parse_next_in_block(start, block, spaces, o)) {
                out = o;
                return start;
            }
        }
        block += 32;
        if (!more) break;
        c = next;
    }
    out = o;
    return start;
}

/// IOBENCH_TARGET_AVX2: compiles a function for CPUs with AVX2, BMI1, BMI2
/// and POPCNT (GCC and Clang: the target attribute; MSVC compiles AVX2
/// intrinsics anywhere). Such a function runs only where cpu_has_avx2_bmi2().
#if defined(__GNUC__) || defined(__clang__)
#define IOBENCH_TARGET_AVX2 __attribute__((target("avx2,bmi,bmi2,popcnt")))
#else
#define IOBENCH_TARGET_AVX2
#endif

/// The vector constants of the AVX2 parser, made once per call of
/// parse_uint_blocks_avx2 and kept in registers.
struct avx2_constants {
    __m256i low_nibble_classes;   // by a byte's low nibble: the classes it may be in
    __m256i high_nibble_classes;  // by its high nibble
    __m256i nibble;               // 0x0F
    __m256i zero_char;            // '0'
    __m256i pair_weights;         // bytes 10, 1
    __m256i quad_weights;         // words 100, 1
    __m256i octet_weights;        // words 10000, 1
    __m256i zero;
};

/// Classes of a byte for classify32_avx2: a digit has the top bit (movemask
/// reads it); white space one of two other bits, one per nibble pattern
/// ('\t' .. '\r': high nibble 0, low 9 .. D; ' ': high 2, low 0); anything
/// else none.
inline constexpr char avx2_digit = static_cast<char>(0x80), avx2_control = 0x01, avx2_blank = 0x02;

IOBENCH_TARGET_AVX2 inline avx2_constants make_avx2_constants() noexcept {
    constexpr char d = avx2_digit, c = avx2_control, b = avx2_blank;
    constexpr auto db = static_cast<char>(avx2_digit | avx2_blank), dc = static_cast<char>(avx2_digit | avx2_control);
    return {
        _mm256_setr_epi8(db, d, d, d, d, d, d, d, d, dc, c, c, c, c, 0, 0,  //
                         db, d, d, d, d, d, d, d, d, dc, c, c, c, c, 0, 0),
        _mm256_setr_epi8(c, 0, b, d, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  //
                         c, 0, b, d, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
        _mm256_set1_epi8(0x0F),
        _mm256_set1_epi8('0'),
        _mm256_set1_epi16(0x010A),
        _mm256_set1_epi32(0x00010064),
        _mm256_set1_epi32(0x00012710),
        _mm256_setzero_si256(),
    };
}

/// byte_classes32 of the 32 bytes at `p` with AVX2 (one load; each byte's
/// classes looked up by its low and by its high nibble with vpshufb, the
/// two lookups and-ed), and the mask of the bytes that are neither.
IOBENCH_ALWAYS_INLINE IOBENCH_TARGET_AVX2 byte_classes32 classify32_avx2(const char* p, const avx2_constants& k,
                                                                         std::uint32_t& other) noexcept {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    const __m256i low = _mm256_shuffle_epi8(k.low_nibble_classes, _mm256_and_si256(x, k.nibble));
    const __m256i high = _mm256_shuffle_epi8(k.high_nibble_classes, _mm256_and_si256(_mm256_srli_epi16(x, 4), k.nibble));
    const __m256i classes = _mm256_and_si256(low, high);
    const auto digit = static_cast<std::uint32_t>(_mm256_movemask_epi8(classes));
    other = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(classes, k.zero)));
    return {~(digit | other), digit};
}

/// classify32_avx2 with constants of its own (for the tests).
IOBENCH_TARGET_AVX2 inline byte_classes32 classify32_avx2(const char* p) noexcept {
    const avx2_constants k = make_avx2_constants();
    std::uint32_t other;
    return classify32_avx2(p, k, other);
}

/// The values of the numbers of 1 to 8 digits that end just before a, b, c
/// and d (each the white space after one), stored to out[0..3]: the 8 bytes
/// before each end in a 64-bit lane (so 8 readable bytes must precede each),
/// '0' subtracted, every byte at or before the last one that is not a digit
/// cleared (what is left is the number's digits, shifted to the top of its
/// lane as digit_lanes shifts them), then eight_digits' lane arithmetic on
/// all four at once: digit pairs (vpmaddubsw, x10 + 1), 4-digit groups
/// (vpmaddwd, x100 + 1), the 8-digit values (vpackusdw, vpmaddwd, x10000 +
/// 1). The byte before each number must be white space or NUL: once '0' is
/// subtracted, those are the bytes with the top bit set (digits become 0 ..
/// 9), one compare.
IOBENCH_ALWAYS_INLINE IOBENCH_TARGET_AVX2 void digits_before_x4(const char* a, const char* b, const char* c,
                                                                const char* d, std::uint64_t* out,
                                                                const avx2_constants& k) noexcept {
    const auto load = [](const char* end) { return static_cast<long long>(load_u64_le(end - 8)); };
    const __m256i v = _mm256_sub_epi8(_mm256_set_epi64x(load(d), load(c), load(b), load(a)), k.zero_char);
    // White space and NUL, then every byte at or below (before) one of them in its lane.
    const __m256i separator = _mm256_cmpgt_epi8(k.zero, v);
    __m256i before = _mm256_or_si256(separator, _mm256_srli_epi64(separator, 8));
    before = _mm256_or_si256(before, _mm256_srli_epi64(before, 16));
    before = _mm256_or_si256(before, _mm256_srli_epi64(before, 32));
    const __m256i lanes = _mm256_andnot_si256(before, v);
    const __m256i pairs = _mm256_maddubs_epi16(lanes, k.pair_weights);      // d*10 + d
    const __m256i quads = _mm256_madd_epi16(pairs, k.quad_weights);         // x100
    const __m256i packed = _mm256_packus_epi32(quads, quads);               // a, b | c, d
    const __m256i values = _mm256_madd_epi16(packed, k.octet_weights);      // x10000
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm256_unpacklo_epi32(values, k.zero));
}

/// digits_before_x4 with constants of its own (for the tests).
IOBENCH_TARGET_AVX2 inline void digits_before_x4(const char* a, const char* b, const char* c, const char* d,
                                                std::uint64_t* out) noexcept {
    digits_before_x4(a, b, c, d, out, make_avx2_constants());
}

/// The classes of the 32 bytes at `p` (see classify32_avx2) as a vector.
IOBENCH_ALWAYS_INLINE IOBENCH_TARGET_AVX2 __m256i classes32_avx2(const char* p, const avx2_constants& k) noexcept {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    const __m256i low = _mm256_shuffle_epi8(k.low_nibble_classes, _mm256_and_si256(x, k.nibble));
    const __m256i high = _mm256_shuffle_epi8(k.high_nibble_classes, _mm256_and_si256(_mm256_srli_epi16(x, 4), k.nibble));
    return _mm256_and_si256(low, high);
}

/// The digit mask of the 64 bytes at `p` (bit i: byte i), or all ones when
/// one of them is neither a digit nor white space (no block of only digits
/// and white space has that mask: it would have no white space... nor be
/// parsed as one: all digits is a run of 64).
IOBENCH_ALWAYS_INLINE IOBENCH_TARGET_AVX2 std::uint64_t digits64_avx2(const char* p, const avx2_constants& k,
                                                                      bool& clean) noexcept {
    const __m256i lo = classes32_avx2(p, k), hi = classes32_avx2(p + 32, k);
    const __m256i other = _mm256_or_si256(_mm256_cmpeq_epi8(lo, k.zero), _mm256_cmpeq_epi8(hi, k.zero));
    clean = _mm256_testz_si256(other, other) != 0;
    return std::uint64_t{static_cast<std::uint32_t>(_mm256_movemask_epi8(hi))} << 32 |
           static_cast<std::uint32_t>(_mm256_movemask_epi8(lo));
}

/// The numbers of a 64-byte block that end in it, each with 1 to 8 digits,
/// at the set bits of `ends` (the white space after each), into `o`: four at
/// a time (digits_before_x4), the last 1 to 3 through a copy, so that
/// nothing past them is written.
IOBENCH_ALWAYS_INLINE IOBENCH_TARGET_AVX2 void parse_short_numbers_avx2(const char* block, std::uint64_t ends,
                                                                        std::uint64_t*& o,
                                                                        const avx2_constants& k) noexcept {
    // BMI1's tzcnt and blsr as intrinsics: tzcnt of 0 is 64 by definition,
    // so no branch guards it (std::countr_zero's would).
    std::uint64_t left = ends;
    auto count = static_cast<unsigned>(std::popcount(ends));
    for (; count >= 4; count -= 4) {
        const char* const a = block + _tzcnt_u64(left);
        left = _blsr_u64(left);
        const char* const b = block + _tzcnt_u64(left);
        left = _blsr_u64(left);
        const char* const c = block + _tzcnt_u64(left);
        left = _blsr_u64(left);
        const char* const d = block + _tzcnt_u64(left);
        left = _blsr_u64(left);
        digits_before_x4(a, b, c, d, o, k);
        o += 4;
    }
    if (count != 0) {
        // The lanes past the last number read the block's last bytes (tzcnt of 0 is 64).
        const char* const a = block + _tzcnt_u64(left);
        left = _blsr_u64(left);
        const char* const b = block + _tzcnt_u64(left);
        left = _blsr_u64(left);
        const char* const c = block + _tzcnt_u64(left);
        std::uint64_t values[4];
        digits_before_x4(a, b, c, c, values, k);
        for (unsigned i = 0; i < count; ++i) o[i] = values[i];
        o += count;
    }
}

/// parse_uint_blocks_sse2 with AVX2 (the same numbers and stops, but in
/// blocks of 64 bytes, and `out` needs room for the numbers of a block only;
/// 8 readable bytes must also precede `start`, and the byte before `start`
/// must be white space or NUL, as in ibuf's buffer): each block is
/// classified with two loads (classify64_avx2). When every number that ends
/// in it has 1 to 8 digits -- found for the whole block at once from its
/// digit mask: no run of 9 digits ends before a white-space byte, none goes
/// on from the block before -- they are converted four at a time from the 8
/// bytes before each end (digits_before_x4), with no length computed per
/// number; otherwise the block is parsed one number at a time
/// (parse_next_in_block). Runs only where cpu_has_avx2_bmi2().
IOBENCH_TARGET_AVX2 inline const char* parse_uint_blocks_avx2(const char* start, const char* end,
                                                              std::uint64_t*& out, std::uint64_t* out_end) noexcept {
    if (end - start < 64) return start;
    const avx2_constants k = make_avx2_constants();
    const char* block = start;
    std::uint64_t* o = out;
    std::uint64_t previous_digits = 0;  // of the 64 bytes before `block`: none before `start` counts
    // The last block parsed four numbers at a time and its white-space mask:
    // `start` is after that block's last white space (worked out only when
    // needed: a count of leading zeros, without LZCNT, is a branch).
    const char* parsed_block = nullptr;
    std::uint64_t parsed_space = 0;
    bool clean;
    std::uint64_t digit = digits64_avx2(block, k, clean);
    while (clean) {
        // Only digits and white space: the white space that ends a number is right after a digit.
        const std::uint64_t ends = ~digit & (digit << 1 | previous_digits >> 63);
        if (out_end - o < std::popcount(ends)) break;  // one value per end
        // The next block classified one step ahead, when there is one.
        const bool more = end - block >= 128;
        bool next_clean = false;
        const std::uint64_t next_digit = more ? digits64_avx2(block + 64, k, next_clean) : 0;
        // Bit i: bytes i - 8 .. i are digits (a run of 9 or more ends there).
        std::uint64_t runs = digit & (digit << 1);
        runs &= runs << 2;
        runs &= runs << 4;
        runs &= digit << 8;
        // A run from the block before: with the block's first `leading`
        // digits (0 to 8; more only where the whole run is in this block, or
        // it does not end here), it has 9 or more when the block before ends
        // in 9 - leading digits (in 1 digit when leading is 8 or more).
        const std::uint64_t leading = std::min<std::uint64_t>(_tzcnt_u64(~digit), 8);
        const bool long_across = (~previous_digits >> (55 + leading)) == 0;
        if ((ends & runs << 1) == 0 && !long_across) [[likely]] {
            parse_short_numbers_avx2(block, ends, o, k);
            parsed_block = block;
            parsed_space = ~digit;
        } else {
            if (parsed_block != nullptr) {
                start = parsed_block + 64 - std::countl_zero(parsed_space);
                parsed_block = nullptr;
            }
            for (int half = 0; half < 2; ++half) {
                auto spaces = static_cast<std::uint32_t>(~digit >> (32 * half));
                while (spaces != 0) {
                    if (!parse_next_in_block(start, block + 32 * half, spaces, o)) {
                        out = o;
                        return start;
                    }
                }
            }
        }
        previous_digits = digit;
        block += 64;
        digit = next_digit;
        clean = next_clean;
    }
    // After the last block parsed four at a time: after its last white space,
    // the next number's first digit (or the block after it; an all-digit
    // block there leaves `start` at its first byte, where its number began).
    if (parsed_block != nullptr) start = parsed_block + 64 - std::countl_zero(parsed_space);
    out = o;
    return start;
}
#endif

/// Parses numbers of 1 to 7 digits, each after optional white space and
/// followed by one white-space byte, from `p` into out until out is full or
/// something else comes (a longer number, the end of the buffer, a byte that
/// is neither): one 8-byte load per number. The bytes from `p` on must end
/// in a byte that is neither a digit nor white space (ibuf's sentinel) with
/// 8 readable bytes after it. Returns the first byte not consumed.
inline const char* parse_short_uints(const char* p, std::uint64_t*& out, std::uint64_t* out_end) noexcept {
    std::uint64_t* o = out;
    while (o != out_end) {
        while (is_space(*p)) ++p;  // stops at the sentinel at the latest
        const std::uint64_t w = load_u64_le(p);
        const unsigned n = leading_digits8(w);
        if (n - 1 >= 7u || !is_space(static_cast<char>(w >> (8 * n)))) break;
        *o++ = parse_digits(w, n);
        p += n + 1;
    }
    out = o;
    return p;
}

inline constexpr std::uint64_t pow10_small[9] = {1,      10,      100,      1000,     10000,
                                                 100000, 1000000, 10000000, 100000000};

}  // namespace detail

/// The block parsers get_uints can run: what classifies the bytes and
/// converts the numbers between refills (the results are the same).
enum class uint_block_parser {
    /// None: one 8-byte load per number of up to 7 digits
    /// (detail::parse_short_uints), get_uint beyond. Everywhere.
    scalar,
    /// 32-byte blocks classified with SSE2, two numbers converted at once
    /// (detail::parse_uint_blocks_sse2). Every x86-64 CPU.
    sse2,
    /// 32-byte blocks classified with AVX2, four numbers converted at once
    /// (detail::parse_uint_blocks_avx2). x86-64 CPUs with AVX2, BMI1 and BMI2
    /// whose operating system saves the AVX registers.
    avx2,
};

/// "scalar", "sse2" or "avx2".
constexpr const char* uint_block_parser_name(uint_block_parser p) noexcept {
    return p == uint_block_parser::avx2 ? "avx2" : p == uint_block_parser::sse2 ? "sse2" : "scalar";
}

/// Whether this CPU has AVX2, BMI1, BMI2 and POPCNT and its operating system saves
/// the AVX registers (XCR0 bits 1 and 2): GCC and Clang's
/// __builtin_cpu_supports (which checks both), MSVC's __cpuid and _xgetbv.
/// Always false where ibuf has no SIMD parser (not x86-64).
inline bool cpu_has_avx2_bmi2() noexcept {
#if !IOBENCH_IBUF_SSE2
    return false;
#elif defined(__GNUC__) || defined(__clang__)
    __builtin_cpu_init();  // in case this runs before the constructors that would have done it
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2") &&
           __builtin_cpu_supports("popcnt");
#elif defined(_MSC_VER)
    int r[4];
    __cpuid(r, 0);
    if (r[0] < 7) return false;
    __cpuid(r, 1);
    constexpr int popcnt = 1 << 23, osxsave = 1 << 27, avx = 1 << 28;
    if ((r[2] & (popcnt | osxsave | avx)) != (popcnt | osxsave | avx)) return false;
    if ((_xgetbv(0) & 6) != 6) return false;  // the XMM and YMM state is saved
    __cpuidex(r, 7, 0);
    constexpr int bmi1 = 1 << 3, avx2 = 1 << 5, bmi2 = 1 << 8;
    return (r[1] & (bmi1 | avx2 | bmi2)) == (bmi1 | avx2 | bmi2);
#else
    return false;
#endif
}

/// Whether this CPU runs `p`: scalar everywhere, sse2 on x86-64, avx2 where
/// cpu_has_avx2_bmi2().
inline bool cpu_runs(uint_block_parser p) noexcept {
    switch (p) {
    case uint_block_parser::scalar: return true;
    case uint_block_parser::sse2: return IOBENCH_IBUF_SSE2 != 0;
    case uint_block_parser::avx2: return cpu_has_avx2_bmi2();
    }
    return false;
}

/// The fastest parser this CPU runs: avx2, else sse2, else scalar.
inline uint_block_parser best_uint_block_parser() noexcept {
    if (cpu_runs(uint_block_parser::avx2)) return uint_block_parser::avx2;
    if (cpu_runs(uint_block_parser::sse2)) return uint_block_parser::sse2;
    return uint_block_parser::scalar;
}

namespace detail {
/// The parser every ibuf of the process runs: best_uint_block_parser()
/// until use_uint_block_parser() says otherwise.
inline std::atomic<uint_block_parser>& uint_block_parser_state() noexcept {
    static std::atomic<uint_block_parser> state{best_uint_block_parser()};
    return state;
}
}  // namespace detail

/// The block parser get_uints runs in this process.
inline uint_block_parser uint_block_parser_in_use() noexcept {
    return detail::uint_block_parser_state().load(std::memory_order_relaxed);
}

/// Makes every ibuf of the process run `p` from its next get_uints call on
/// (the tests run each path the CPU has); false, changing nothing, when this
/// CPU does not run it (cpu_runs).
inline bool use_uint_block_parser(uint_block_parser p) noexcept {
    if (!cpu_runs(p)) return false;
    detail::uint_block_parser_state().store(p, std::memory_order_relaxed);
    return true;
}

namespace detail {

/// The block parser in use (uint_block_parser_in_use) on [start, end), as
/// parse_uint_blocks_sse2 describes; with the scalar parser nothing is
/// parsed and `start` is returned.
inline const char* parse_uint_blocks(const char* start, const char* end, std::uint64_t*& out,
                                     std::uint64_t* out_end) noexcept {
#if IOBENCH_IBUF_SSE2
    switch (uint_block_parser_in_use()) {
    case uint_block_parser::avx2: return parse_uint_blocks_avx2(start, end, out, out_end);
    case uint_block_parser::sse2: return parse_uint_blocks_sse2(start, end, out, out_end);
    case uint_block_parser::scalar: break;
    }
#else
    (void)end;
    (void)out;
    (void)out_end;
#endif
    return start;
}

}  // namespace detail

/// Parses a decimal uint64 at the start of [first, last), like
/// std::from_chars (no sign, no white space, no locale): returns a pointer one
/// past the digits and errc{} on success; `ptr == first` and
/// errc::invalid_argument when `first` is not a digit; errc::result_out_of_range
/// (ptr past all the digits, `v` untouched) when the value exceeds UINT64_MAX.
/// Never reads outside [first, last). Uses 8-digit SWAR steps while at least
/// 8 bytes remain.
inline std::from_chars_result parse_uint(const char* first, const char* last,
                                         std::uint64_t& v) noexcept {
    const char* p = first;
    std::uint64_t value = 0;
    unsigned digits = 0;  // significant digits so far (leading zeros skipped)
    bool any = false;
    while (last - p >= 8) {  // SWAR part while it cannot overflow
        const std::uint64_t w = load_u64_le(p);
        const unsigned n = detail::leading_digits8(w);
        if (n == 0 || digits + n > 19) break;
        any = true;
        value = value * detail::pow10_small[n] + detail::parse_digits(w, n);
        if (value != 0) digits += n;  // leading zeros do not count
        p += n;
        if (n < 8) {
            v = value;
            return {p, std::errc{}};
        }
    }
    bool overflow = false;
    for (; p != last && detail::is_digit(*p); ++p) {
        any = true;
        const auto d = static_cast<unsigned>(*p - '0');
        if (value > (UINT64_MAX - d) / 10) overflow = true;
        value = value * 10 + d;  // unsigned: wraps harmlessly once overflowed
    }
    if (!any) return {first, std::errc::invalid_argument};
    if (overflow) return {p, std::errc::result_out_of_range};
    v = value;
    return {p, std::errc{}};
}

}  // namespace iobench
