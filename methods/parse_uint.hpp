// The integer kernels of ibuf (methods/ibuf.hpp): white space and digits,
// SWAR conversions of up to 8 digits, parse_uint, and the block parsers of
// get_uints, which classify a block of bytes at once and convert several
// numbers at a time: 64 bytes and eight numbers (four or sixteen in some
// windows) with AVX2 (and BMI1, BMI2, POPCNT) where the CPU has them, chosen
// at run time; 32 bytes and two numbers with SSE2 on every other x86-64 CPU;
// 32 bytes and two numbers with NEON on AArch64 (ARM64); none elsewhere (the
// scalar path: one 8-byte load per number). uint_block_parser_in_use() says which
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

/// IOBENCH_IBUF_NEON: 1 where ibuf's NEON block parser is built (AArch64,
/// where NEON, the Advanced SIMD instructions, is part of the architecture),
/// 0 elsewhere.
#if defined(__aarch64__) || defined(_M_ARM64)
#define IOBENCH_IBUF_NEON 1
#include <arm_neon.h>
#else
#define IOBENCH_IBUF_NEON 0
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

/// IOBENCH_OPAQUE(v): makes GCC and Clang forget the value of vector constant
/// `v` (set once, before a kernel's loop), so that they keep it in a register
/// rather than build it again on every pass (a broadcast from an immediate:
/// 2 or 3 instructions) or turn a multiply by it into shifts and adds. MSVC
/// does neither: nothing to do there.
#if defined(__GNUC__) || defined(__clang__)
#define IOBENCH_OPAQUE(v) __asm__("" : "+x"(v))
#else
#define IOBENCH_OPAQUE(v) ((void)0)
#endif

/// IOBENCH_OPAQUE_SCALAR(v): the same for an integer or pointer `v`, which
/// GCC would otherwise fold into each use as an immediate (a shift count:
/// a copy and a shift instead of one shrx) or see through (a constant's
/// address: the vector built from immediates instead of one load).
#if defined(__GNUC__) || defined(__clang__)
#define IOBENCH_OPAQUE_SCALAR(v) __asm__("" : "+r"(v))
#else
#define IOBENCH_OPAQUE_SCALAR(v) ((void)0)
#endif

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
    __m256i digit_bias;    // 0x80 - '0': moves '0' .. '9' to -128 .. -119
    __m256i digit_limit;   // -118: a biased byte below it was a digit
    __m256i space_table;   // by a byte's low nibble: the one white-space byte with that nibble
    __m256i reverse;       // reverses the bytes of each 64-bit lane
    __m256i zero_char;     // '0'
    __m256i lane_tops;     // 0xFF in byte 7 of every 64-bit lane, 0 elsewhere
    __m256i pair_weights;  // bytes 1, 10
    __m256i quad_weights;  // words 1, 100
    __m256i octet_weights; // words 1, 10000
    __m256i all_ones;
};

/// The constants, the byte broadcasts hidden from GCC's and Clang's constant
/// folding (IOBENCH_OPAQUE): GCC 12 otherwise builds each again from an
/// immediate (mov, vmovd, vpbroadcastb) in every window, about 10
/// instructions per 64 bytes, instead of keeping it in a register.
IOBENCH_TARGET_AVX2 inline avx2_constants make_avx2_constants() noexcept {
    avx2_constants k{
        _mm256_set1_epi8(static_cast<char>(0x80 - '0')),
        _mm256_set1_epi8(static_cast<char>(-118)),
        _mm256_setr_epi8(' ', 0, 0, 0, 0, 0, 0, 0, 0, '\t', '\n', '\v', '\f', '\r', 0, 0,  //
                         ' ', 0, 0, 0, 0, 0, 0, 0, 0, '\t', '\n', '\v', '\f', '\r', 0, 0),
        _mm256_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8,  //
                         7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8),
        _mm256_set1_epi8('0'),
        _mm256_set1_epi64x(static_cast<long long>(0xFF00000000000000ULL)),
        _mm256_set1_epi16(0x0A01),
        _mm256_set1_epi32(0x00640001),
        _mm256_set1_epi32(0x27100001),
        _mm256_set1_epi8(static_cast<char>(0xFF)),
    };
    IOBENCH_OPAQUE(k.digit_bias);
    IOBENCH_OPAQUE(k.digit_limit);
    IOBENCH_OPAQUE(k.zero_char);
    IOBENCH_OPAQUE(k.lane_tops);
    IOBENCH_OPAQUE(k.all_ones);
    return k;
}

/// The digits and the white space among the 32 bytes at `x`, as byte masks
/// (0xFF where it is one): a digit is a byte that, moved by 0x80 - '0', is
/// below -118 as a signed byte (one add, one compare); white space is a byte
/// equal to the entry of `space_table` its low nibble picks (one vpshufb, one
/// compare: ' ', '\t' .. '\r' have six different low nibbles, and a byte
/// with its top bit set picks 0, which it is not). The technique is the
/// white-space test of simdjson (Langdale and Lemire, "Parsing Gigabytes of
/// JSON per Second", 2019), written here from that description.
IOBENCH_ALWAYS_INLINE IOBENCH_TARGET_AVX2 void classes32_avx2(__m256i x, const avx2_constants& k, __m256i& digit,
                                                              __m256i& space) noexcept {
    digit = _mm256_cmpgt_epi8(k.digit_limit, _mm256_add_epi8(x, k.digit_bias));
    space = _mm256_cmpeq_epi8(_mm256_shuffle_epi8(k.space_table, x), x);
}

/// byte_classes32 of the 32 bytes at `p` with AVX2 (classes32_avx2).
IOBENCH_TARGET_AVX2 inline byte_classes32 classify32_avx2(const char* p) noexcept {
    const avx2_constants k = make_avx2_constants();
    __m256i digit, space;
    classes32_avx2(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)), k, digit, space);
    return {static_cast<std::uint32_t>(_mm256_movemask_epi8(space)),
            static_cast<std::uint32_t>(_mm256_movemask_epi8(digit))};
}

/// The digit mask of the 64 bytes at `p` (bit i: byte i), and in `valid`
/// 0xFF for every byte position k where bytes k and k + 32 are both digits
/// or white space (all ones when all 64 are): two loads, eleven vector
/// operations, two movemasks.
IOBENCH_ALWAYS_INLINE IOBENCH_TARGET_AVX2 std::uint64_t digits64_avx2(const char* p, const avx2_constants& k,
                                                                      __m256i& valid) noexcept {
    __m256i digit_lo, space_lo, digit_hi, space_hi;
    classes32_avx2(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)), k, digit_lo, space_lo);
    classes32_avx2(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32)), k, digit_hi, space_hi);
    valid = _mm256_and_si256(_mm256_or_si256(digit_lo, space_lo), _mm256_or_si256(digit_hi, space_hi));
    return std::uint64_t{static_cast<std::uint32_t>(_mm256_movemask_epi8(digit_hi))} << 32 |
           static_cast<std::uint32_t>(_mm256_movemask_epi8(digit_lo));
}

/// The 8 bytes before each of the ends a, b, c and d, as the 64-bit lanes
/// a, b | c, d of one vector (two 64-bit loads and an insert per half).
IOBENCH_ALWAYS_INLINE IOBENCH_TARGET_AVX2 __m256i lanes_before_x4(const char* a, const char* b, const char* c,
                                                                  const char* d) noexcept {
    const __m128i ab = _mm_insert_epi64(_mm_cvtsi64_si128(static_cast<long long>(load_u64_le(a - 8))),
                                        static_cast<long long>(load_u64_le(b - 8)), 1);
    const __m128i cd = _mm_insert_epi64(_mm_cvtsi64_si128(static_cast<long long>(load_u64_le(c - 8))),
                                        static_cast<long long>(load_u64_le(d - 8)), 1);
    return _mm256_setr_m128i(ab, cd);
}

/// The numbers of 1 to 8 digits that end each 64-bit lane of `lanes` (the 8
/// bytes before an end, lanes_before_x4), as two 32-bit halves per lane: the
/// value of the last 4 digits, then of the 4 before them. The bytes of each
/// lane reversed (vpshufb: the last digit lowest); the separators found as
/// the bytes below '0' as signed bytes (white space and NUL; a byte of 0x80
/// or more, which the parser never lets through, counts as one too); every
/// byte from the lowest separator up cleared with one 64-bit subtraction
/// (`below` = (s - 1) & ~s, s the separators' 0xFF bytes: 0xFF on each byte
/// below the lowest, all ones in a lane with no separator: a number of 8
/// digits or more); '0' subtracted; the digits, least significant lowest,
/// combined in pairs (vpmaddubsw, 1 + x10) and 4-digit groups (vpmaddwd,
/// 1 + x100): eight_digits' lane arithmetic on four numbers at once.
IOBENCH_ALWAYS_INLINE IOBENCH_TARGET_AVX2 __m256i digit_quads_x4(__m256i lanes, const avx2_constants& k,
                                                                 __m256i& below) noexcept {
    const __m256i v = _mm256_shuffle_epi8(lanes, k.reverse);
    const __m256i separators = _mm256_cmpgt_epi8(k.zero_char, v);
    below = _mm256_andnot_si256(separators, _mm256_add_epi64(separators, k.all_ones));
    const __m256i digits = _mm256_and_si256(_mm256_sub_epi8(v, k.zero_char), below);
    return _mm256_madd_epi16(_mm256_maddubs_epi16(digits, k.pair_weights), k.quad_weights);
}

/// The values of the numbers of 1 to 8 digits that end just before a, b, c
/// and d (each the white space after one), stored to out[0..3]: the 8 bytes
/// before each end in a 64-bit lane (so 8 readable bytes must precede each)
/// turned into 4-digit groups (digit_quads_x4), then the 8-digit values
/// (vpackusdw, vpmaddwd, 1 + x10000). The byte before each number must be
/// white space or NUL. `no_separator` gains the lanes' `below` masks: its
/// byte 7 of a lane is 0xFF where a number may have more than 8 digits (none
/// of its 8 bytes was a separator), whose value here is wrong.
IOBENCH_ALWAYS_INLINE IOBENCH_TARGET_AVX2 void digits_before_x4(const char* a, const char* b, const char* c,
                                                                const char* d, std::uint64_t* out,
                                                                const avx2_constants& k,
                                                                __m256i& no_separator) noexcept {
    __m256i below;
    const __m256i quads = digit_quads_x4(lanes_before_x4(a, b, c, d), k, below);
    no_separator = _mm256_or_si256(no_separator, below);
    const __m256i packed = _mm256_packus_epi32(quads, quads);           // a, b | c, d
    const __m256i values = _mm256_madd_epi16(packed, k.octet_weights);  // + x10000
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm256_unpacklo_epi32(values, _mm256_setzero_si256()));
}

/// digits_before_x4 for the eight numbers that end just before a .. h, into
/// out[0..7]: the lanes of a, b, e, f in one vector and of c, d, g, h in the
/// other, so that one vpackusdw of the two puts the eight numbers' 4-digit
/// groups in order (a, b, c, d | e, f, g, h), one vpmaddwd makes their
/// values, and two zero extensions (vpmovzxdq) store them: 49 instructions
/// for eight numbers against two groups of four's 58.
IOBENCH_ALWAYS_INLINE IOBENCH_TARGET_AVX2 void digits_before_x8(const char* a, const char* b, const char* c,
                                                                const char* d, const char* e, const char* f,
                                                                const char* g, const char* h, std::uint64_t* out,
                                                                const avx2_constants& k,
                                                                __m256i& no_separator) noexcept {
    __m256i below_1, below_2;
    const __m256i quads_1 = digit_quads_x4(lanes_before_x4(a, b, e, f), k, below_1);
    const __m256i quads_2 = digit_quads_x4(lanes_before_x4(c, d, g, h), k, below_2);
    no_separator = _mm256_or_si256(no_separator, _mm256_or_si256(below_1, below_2));
    const __m256i values = _mm256_madd_epi16(_mm256_packus_epi32(quads_1, quads_2), k.octet_weights);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm256_cvtepu32_epi64(_mm256_castsi256_si128(values)));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 4),
                        _mm256_cvtepu32_epi64(_mm256_extracti128_si256(values, 1)));
}

/// Byte 7 of every 64-bit lane: the bits of a no_separator mask's movemask
/// that stand for a lane with no separator.
inline constexpr std::uint32_t lane_top_bytes = 0x80808080u;

/// digits_before_x4 with constants of its own (for the tests).
IOBENCH_TARGET_AVX2 inline void digits_before_x4(const char* a, const char* b, const char* c, const char* d,
                                                std::uint64_t* out) noexcept {
    __m256i no_separator = _mm256_setzero_si256();
    digits_before_x4(a, b, c, d, out, make_avx2_constants(), no_separator);
}

/// digits_before_x8 with constants of its own (for the tests); returns
/// whether a lane had no separator.
IOBENCH_TARGET_AVX2 inline bool digits_before_x8(const char* const* e, std::uint64_t* out) noexcept {
    __m256i no_separator = _mm256_setzero_si256();
    digits_before_x8(e[0], e[1], e[2], e[3], e[4], e[5], e[6], e[7], out, make_avx2_constants(), no_separator);
    return (static_cast<std::uint32_t>(_mm256_movemask_epi8(no_separator)) & lane_top_bytes) != 0;
}

/// The position of the lowest set bit of `ends` (64 when none), which it
/// clears: tzcnt and blsr, two instructions. For GCC and Clang in inline
/// assembly, the tzcnt writing its operand's own register: given another,
/// GCC under -mtune=generic first clears that one with an `xor` (a false
/// dependency of some Intel CPUs' tzcnt), and it would share `ends - 1`
/// between blsr's uses instead of emitting blsr (three instructions for one).
IOBENCH_ALWAYS_INLINE IOBENCH_TARGET_AVX2 std::uint64_t next_end(std::uint64_t& ends) noexcept {
#if defined(__GNUC__) || defined(__clang__)
    std::uint64_t at = ends;
    __asm__("blsr %1, %0\n\ttzcnt %1, %1" : "=&r"(ends), "+r"(at) : : "cc");
    return at;
#else
    const std::uint64_t at = _tzcnt_u64(ends);
    ends = _blsr_u64(ends);
    return at;
#endif
}

/// next_end that also says whether no set bit is left in `ends` afterwards:
/// with GCC and Clang, the zero flag of the blsr itself (a flag output of the
/// inline assembly, so no `test` follows; its tzcnt goes first, into another
/// register).
IOBENCH_ALWAYS_INLINE IOBENCH_TARGET_AVX2 std::uint64_t next_end(std::uint64_t& ends, bool& none_left) noexcept {
#if defined(__GNUC__) || defined(__clang__)
    std::uint64_t at;
    __asm__("tzcnt %2, %0\n\tblsr %2, %2" : "=&r"(at), "=@ccz"(none_left), "+r"(ends));
    return at;
#else
    const std::uint64_t at = next_end(ends);
    none_left = ends == 0;
    return at;
#endif
}

/// Whether the window whose digit mask is `digit` (bit i: byte i) has a run
/// of 9 digits or more (bit i of `runs`: bytes i - 8 .. i are digits).
constexpr bool has_run_of_nine(std::uint64_t digit) noexcept {
    std::uint64_t runs = digit & (digit << 1);
    runs &= runs << 2;
    runs &= runs << 4;
    runs &= digit << 8;
    return runs != 0;
}

/// Where parse_window_one_at_a_time stopped: the next byte to parse and the
/// slot after the last number it stored (two registers: the caller's
/// pointers stay out of memory).
struct parsed_window {
    const char* next;
    std::uint64_t* out;
};

/// The numbers of the 64-byte window at `p` (whose digit mask is `digit`)
/// that end in it, one at a time (parse_next_in_block), into `o` (which
/// needs room for 32); returns the byte after the window's last white
/// space, or the first byte of a number of 17 digits or more, and the slot
/// after the last number stored. Out of line: windows with a number of 9
/// digits or more, or fewer than 4 ends, are rare in files of short numbers,
/// and inlined it took registers from the fast path.
IOBENCH_NOINLINE inline parsed_window parse_window_one_at_a_time(const char* p, std::uint64_t digit,
                                                                 std::uint64_t* o) noexcept {
    const char* q = p;
    for (int half = 0; half < 2; ++half) {
        auto spaces = static_cast<std::uint32_t>(~digit >> (32 * half));
        while (spaces != 0) {
            if (!parse_next_in_block(q, p + 32 * half, spaces, o)) return {q, o};
        }
    }
    return {q, o};
}

/// What eight_at_a_time does with a window it has converted: takes it and
/// goes on, stops before it, or takes it and goes on with every window
/// tested for runs of 9 digits.
enum class window_verdict { go_on, stop, go_on_testing_every_window };

/// The verdict on a window whose bytes' classes are `valid` (0xFF where a
/// byte is a digit or white space) and `digit` (bit i: byte i is a digit),
/// and whose converted lanes left `no_separator` (digits_before_x8): stop at
/// a byte neither digit nor white space (the numbers are then not numbers)
/// or at a run of 9 digits. With `every_window_tested` false, one vector
/// test covers both, for a lane with no separator (a number of 8 digits or
/// more) is what sends the window through the test for a run of 9 digits: 5
/// instructions a window instead of 10, but a branch as hard to predict as
/// 8-digit numbers are rare and irregular (with numbers of 1 to 8 digits in
/// equal shares, 2 windows in 3 have one; the kernel took 2.1 ns a number
/// where it took 1.35 with every window tested). So the first window with
/// an 8-digit number switches the caller to testing every window.
template <bool every_window_tested>
IOBENCH_ALWAYS_INLINE IOBENCH_TARGET_AVX2 window_verdict verdict_on(__m256i valid, __m256i no_separator,
                                                                    std::uint64_t digit,
                                                                    const avx2_constants& k) noexcept {
    if constexpr (every_window_tested) {
        if (!_mm256_testc_si256(valid, k.all_ones) || has_run_of_nine(digit)) return window_verdict::stop;
        return window_verdict::go_on;
    } else {
        const __m256i fine = _mm256_andnot_si256(_mm256_and_si256(no_separator, k.lane_tops), valid);
        if (_mm256_testc_si256(fine, k.all_ones)) [[likely]]
            return window_verdict::go_on;
        if (!_mm256_testc_si256(valid, k.all_ones) || has_run_of_nine(digit)) return window_verdict::stop;
        return window_verdict::go_on_testing_every_window;
    }
}

/// The position of the lowest set bit of `ends` (64 when none), leaving
/// `ends` as it is: the last end a window converts (a tzcnt alone).
IOBENCH_ALWAYS_INLINE IOBENCH_TARGET_AVX2 std::uint64_t lowest_end(std::uint64_t ends) noexcept {
    return _tzcnt_u64(ends);
}

/// The loop of parse_uint_blocks_avx2: the numbers of the windows of 64
/// bytes at `p` that have 8 ends or more, eight at once (digits_before_x8)
/// and sixteen at once where the eighth end is within the window's first 28
/// bytes, the window has 16 ends and `out` room for them (numbers of about
/// 2.5 digits or fewer on average: every window's start waits for the last
/// window's eight ends, a chain of about 25 cycles, which sixteen numbers
/// share better than eight), into `o` while `o` is at or before `last_eight`
/// (`last_sixteen` for sixteen); stops before any other window, which holds
/// the byte at `end` at the latest (neither digit nor white space: the
/// buffer's sentinel, so no other bound is tested). Nothing it stores counts
/// until `o` moves. Returns true, having taken the window, at the first one
/// that verdict_on sends on with every window tested, false when it stops.
template <bool every_window_tested>
IOBENCH_ALWAYS_INLINE IOBENCH_TARGET_AVX2 bool eight_at_a_time(const char*& p, std::uint64_t*& o,
                                                              std::uint64_t* last_eight, std::uint64_t* last_sixteen,
                                                              const avx2_constants& k) noexcept {
    while (o <= last_eight) {
        __m256i valid;
        const std::uint64_t digit = digits64_avx2(p, k, valid);
        std::uint64_t ends = ~digit & (digit << 1);  // byte p - 1 is white space: no end at bit 0
        // Eight ends or more: the eighth is there if anything is left after
        // the seventh (one flag instead of a popcount and compare; with
        // fewer, the positions past the last are 64, unused).
        const std::uint64_t a = next_end(ends), b = next_end(ends), c = next_end(ends);
        const std::uint64_t d = next_end(ends), e = next_end(ends), f = next_end(ends);
        bool fewer_than_eight;
        const std::uint64_t g = next_end(ends, fewer_than_eight);
        if (fewer_than_eight) return false;
        const std::uint64_t h = next_end(ends);
        __m256i no_separator = _mm256_setzero_si256();
        digits_before_x8(p + a, p + b, p + c, p + d, p + e, p + f, p + g, p + h, o, k, no_separator);
        // Eight numbers in fewer than 28 bytes (numbers of about 2.5 digits
        // or fewer on average): likely sixteen in the window. (Whether any
        // end is left after the eighth would be one instruction less, but in
        // numbers of 6 digits, 9 to a window, it sends every window here for
        // nothing.)
        if (h < 28 && o <= last_sixteen) {
            bool fewer_than_sixteen;
            const std::uint64_t i = next_end(ends), j = next_end(ends), l = next_end(ends);
            const std::uint64_t m = next_end(ends), n = next_end(ends), q = next_end(ends);
            const std::uint64_t r = next_end(ends, fewer_than_sixteen);
            if (!fewer_than_sixteen) {
                const std::uint64_t last = lowest_end(ends);
                digits_before_x8(p + i, p + j, p + l, p + m, p + n, p + q, p + r, p + last, o + 8, k, no_separator);
                const window_verdict v = verdict_on<every_window_tested>(valid, no_separator, digit, k);
                if (v == window_verdict::stop) return false;
                o += 16;
                p += last + 1;
                if (v == window_verdict::go_on_testing_every_window) return true;
                continue;
            }
        }
        const window_verdict v = verdict_on<every_window_tested>(valid, no_separator, digit, k);
        if (v == window_verdict::stop) return false;
        o += 8;
        p += h + 1;
        if (v == window_verdict::go_on_testing_every_window) return true;
    }
    return false;
}

/// parse_uint_blocks_sse2 with AVX2 (the same numbers, in windows of its
/// own: it may stop elsewhere, always at the start of a number or of white
/// space, and never past what stops that one; `out` needs room for 4
/// numbers, 32 for a window with a long number; 8 readable bytes must also
/// precede `start`, and the byte before `start` must be white space or NUL;
/// the byte at `end` must be neither digit nor white space and the 64 bytes
/// from it readable: ibuf's buffer, its sentinel and padding).
///
/// A window of 64 bytes starts after white space (so no number goes on from
/// before it) and is classified at once (digits64_avx2). When it holds only
/// digits and white space and at least 8 ends of numbers (white space right
/// after a digit), its first 8 numbers (16 where the eighth ends in its
/// first 28 bytes and it has 16 ends) are converted at once from the 8 bytes before each end (digits_before_x8),
/// and the next window starts after the last of them: the numbers after
/// those, and one that goes on past the window, are parsed in the next.
/// That is the loop
/// (eight_at_a_time), with nothing else in it (a branch whose two ways meet
/// cost GCC a register move or two per window: about 0.25 instructions a
/// number); a window with a run of 9 digits is left to the next step (the
/// test, on the whole window, runs where a converted lane had no separator,
/// or in every window once one had: verdict_on). The windows the loop does not take go to a second
/// one: with 4 to 7 ends (numbers of 8 to 15 bytes with their white space),
/// or room for fewer than 8 numbers, and no run of 9 digits, their first 4
/// numbers are converted at once (digits_before_x4), until a window with 8
/// ends or more sends it back; a window with a longer number or fewer than 4
/// ends is parsed one number at a time (parse_next_in_block), up to its
/// last white space. No length is computed per number on the fast path.
/// Runs only where cpu_has_avx2_bmi2().
IOBENCH_TARGET_AVX2 inline const char* parse_uint_blocks_avx2(const char* start, const char* end,
                                                              std::uint64_t*& out, std::uint64_t* out_end) noexcept {
    const char* p = start;
    std::uint64_t* o = out;
    // Windows start at or before last_window; `o` at or before last_eight
    // has room for eight numbers, before last_four for four, before last_out
    // for all the numbers of a window.
    const char* const last_window = end - 64;
    std::uint64_t* const last_sixteen = out_end - 16;
    std::uint64_t* const last_eight = out_end - 8;
    std::uint64_t* const last_four = out_end - 4;
    std::uint64_t* const last_out = out_end - 32;
    for (;;) {
        // The fast path, with no call in its loops (a call would take the
        // constants out of the vector registers).
        const avx2_constants k = make_avx2_constants();
        if (eight_at_a_time<false>(p, o, last_eight, last_sixteen, k))
            eight_at_a_time<true>(p, o, last_eight, last_sixteen, k);
        // The windows the loop does not take: four numbers at a time while
        // they have 4 to 7 ends (numbers of 8 to 15 bytes with their white
        // space) or `out` has room for fewer than eight, back to the loop
        // after one with eight or more; one at a time a window with fewer
        // than 4 ends or a run of 9 digits.
        enum class then { stop, eight_at_a_time, one_at_a_time } next = then::stop;
        std::uint64_t digit = 0;
        while (p <= last_window && o <= last_four) {
            __m256i valid;
            digit = digits64_avx2(p, k, valid);
            if (!_mm256_testc_si256(valid, k.all_ones)) break;
            std::uint64_t ends = ~digit & (digit << 1);
            const int count = std::popcount(ends);
            if (count < 4 || has_run_of_nine(digit)) {
                next = then::one_at_a_time;
                break;
            }
            const std::uint64_t a = next_end(ends), b = next_end(ends), c = next_end(ends);
            const std::uint64_t last = next_end(ends);
            __m256i no_separator = _mm256_setzero_si256();
            digits_before_x4(p + a, p + b, p + c, p + last, o, k, no_separator);
            o += 4;
            p += last + 1;
            if (count >= 8 && o <= last_eight) {
                next = then::eight_at_a_time;
                break;
            }
        }
        if (next == then::eight_at_a_time) continue;
        if (next == then::stop || o > last_out) break;
        const parsed_window w = parse_window_one_at_a_time(p, digit, o);
        o = w.out;
        if (w.next == p) break;  // no number parsed: 64 digits, or a number of 17 or more
        p = w.next;
    }
    out = o;
    return p;
}
#endif

#if IOBENCH_IBUF_NEON
/// The bit masks of four vectors of 16 compare results (0x00 or 0xFF each):
/// bit i of the 16-bit field k for byte i of vector k (a, b, c, d from the
/// lowest field). NEON has no movemask: each byte keeps its bit's weight
/// (AND), then three pairwise additions sum the weights of 8 bytes into one.
IOBENCH_ALWAYS_INLINE std::uint64_t bit_masks4_neon(uint8x16_t a, uint8x16_t b, uint8x16_t c, uint8x16_t d) noexcept {
    const uint8x16_t weights = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
    const uint8x16_t ab = vpaddq_u8(vandq_u8(a, weights), vandq_u8(b, weights));
    const uint8x16_t cd = vpaddq_u8(vandq_u8(c, weights), vandq_u8(d, weights));
    const uint8x16_t abcd = vpaddq_u8(ab, cd);
    return vgetq_lane_u64(vreinterpretq_u64_u8(vpaddq_u8(abcd, abcd)), 0);
}

/// 0xFF for the bytes of `x` that are decimal digits (is_digit), 0 for the others.
IOBENCH_ALWAYS_INLINE uint8x16_t digits16_neon(uint8x16_t x) noexcept {
    return vcltq_u8(vsubq_u8(x, vdupq_n_u8('0')), vdupq_n_u8(10));
}

/// 0xFF for the bytes of `x` that are white space (is_space), 0 for the others.
IOBENCH_ALWAYS_INLINE uint8x16_t spaces16_neon(uint8x16_t x) noexcept {
    return vorrq_u8(vceqq_u8(x, vdupq_n_u8(' ')), vcltq_u8(vsubq_u8(x, vdupq_n_u8('\t')), vdupq_n_u8(5)));
}

/// byte_classes32 of the 32 bytes at `p` with NEON: two 16-byte loads, the
/// compares of each class, one bit_masks4_neon for all four masks.
inline byte_classes32 classify32_neon(const char* p) noexcept {
    const uint8x16_t lo = vld1q_u8(reinterpret_cast<const std::uint8_t*>(p));
    const uint8x16_t hi = vld1q_u8(reinterpret_cast<const std::uint8_t*>(p + 16));
    const std::uint64_t m = bit_masks4_neon(spaces16_neon(lo), spaces16_neon(hi), digits16_neon(lo), digits16_neon(hi));
    return {static_cast<std::uint32_t>(m), static_cast<std::uint32_t>(m >> 32)};
}

/// eight_digits of `a` and of `b` at once, stored to out[0] and out[1], as
/// eight_digits_x2 does with SSE2: both numbers' digits in one register,
/// widened to 16 bits, then digit pairs (x10 + 1: a multiply and a pairwise
/// widening add), 4-digit groups (x100 + 1) and the 8-digit values (x10000
/// + 1, a widening multiply to 32 bits, a pairwise add to 64).
IOBENCH_ALWAYS_INLINE void eight_digits_x2_neon(std::uint64_t a, std::uint64_t b, std::uint64_t* out) noexcept {
    const uint8x16_t x = vcombine_u8(vcreate_u8(a), vcreate_u8(b));
    const uint16x8_t by10 = {10, 1, 10, 1, 10, 1, 10, 1};
    const uint32x4_t pairs_a = vpaddlq_u16(vmulq_u16(vmovl_u8(vget_low_u8(x)), by10));
    const uint32x4_t pairs_b = vpaddlq_u16(vmulq_u16(vmovl_u8(vget_high_u8(x)), by10));
    const uint16x8_t pairs = vcombine_u16(vmovn_u32(pairs_a), vmovn_u32(pairs_b));
    const uint16x8_t by100 = {100, 1, 100, 1, 100, 1, 100, 1};
    const uint32x4_t quads = vpaddlq_u16(vmulq_u16(pairs, by100));
    const uint16x4_t by10000 = {10000, 1, 10000, 1};
    vst1q_u64(out, vpaddlq_u32(vmull_u16(vmovn_u32(quads), by10000)));
}

/// parse_next_in_block with the NEON conversion of two numbers at once
/// (eight_digits_x2_neon): the same numbers, stops and `spaces`.
IOBENCH_ALWAYS_INLINE bool parse_next_in_block_neon(const char*& start, const char* block, std::uint32_t& spaces,
                                                    std::uint64_t*& o) noexcept {
    const char* const e = block + static_cast<unsigned>(std::countr_zero(spaces));
    const std::uint32_t rest = spaces & (spaces - 1);
    const auto len = static_cast<std::size_t>(e - start);
    if (len - 1 < 8) {
        if (rest != 0) {
            const char* const e2 = block + static_cast<unsigned>(std::countr_zero(rest));
            const auto len2 = static_cast<std::size_t>(e2 - e - 1);
            if (len2 - 1 < 8) {
                spaces = rest & (rest - 1);
                eight_digits_x2_neon(digit_lanes(start, len), digit_lanes(e + 1, len2), o);
                o += 2;
                start = e2 + 1;
                return true;
            }
        }
        *o++ = digits_at(start, len);
    } else if (len - 9 < 8) {
        *o++ = digits_at(start, len - 8) * std::uint64_t{100000000} + digits_at(e - 8, 8);
    } else if (len != 0) {
        return false;
    }
    spaces = rest;
    start = e + 1;
    return true;
}

/// parse_uint_blocks_sse2 with NEON (classify32_neon, parse_next_in_block_neon):
/// the same numbers, stops and conditions; 32-byte blocks, each classified
/// one step ahead of its numbers' conversion.
inline const char* parse_uint_blocks_neon(const char* start, const char* end, std::uint64_t*& out,
                                          std::uint64_t* out_end) noexcept {
    if (end - start < 32) return start;
    const char* block = start;
    std::uint64_t* o = out;
    byte_classes32 c = classify32_neon(block);
    while (out_end - o >= 16 && (c.space | c.digit) == 0xFFFFFFFFu) {
        const bool more = end - block >= 64;
        const byte_classes32 next = more ? classify32_neon(block + 32) : byte_classes32{0, 0};
        std::uint32_t spaces = c.space;
        while (spaces != 0) {
            if (!parse_next_in_block_neon(start, block, spaces, o)) {
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
#endif  // IOBENCH_IBUF_NEON

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
    /// 64-byte windows classified with AVX2, eight numbers converted at once
    /// (four or sixteen in some windows; detail::parse_uint_blocks_avx2). x86-64 CPUs with AVX2, BMI1 and BMI2
    /// whose operating system saves the AVX registers.
    avx2,
    /// 32-byte blocks classified with NEON, two numbers converted at once
    /// (detail::parse_uint_blocks_neon). Every AArch64 (ARM64) CPU.
    neon,
};

/// "scalar", "sse2", "avx2" or "neon".
constexpr const char* uint_block_parser_name(uint_block_parser p) noexcept {
    return p == uint_block_parser::avx2   ? "avx2"
           : p == uint_block_parser::sse2 ? "sse2"
           : p == uint_block_parser::neon ? "neon"
                                          : "scalar";
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
/// cpu_has_avx2_bmi2(), neon on AArch64.
inline bool cpu_runs(uint_block_parser p) noexcept {
    switch (p) {
    case uint_block_parser::scalar: return true;
    case uint_block_parser::sse2: return IOBENCH_IBUF_SSE2 != 0;
    case uint_block_parser::avx2: return cpu_has_avx2_bmi2();
    case uint_block_parser::neon: return IOBENCH_IBUF_NEON != 0;
    }
    return false;
}

/// The fastest parser this CPU runs: avx2, else sse2, else neon, else scalar.
inline uint_block_parser best_uint_block_parser() noexcept {
    if (cpu_runs(uint_block_parser::avx2)) return uint_block_parser::avx2;
    if (cpu_runs(uint_block_parser::sse2)) return uint_block_parser::sse2;
    if (cpu_runs(uint_block_parser::neon)) return uint_block_parser::neon;
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

/// Block parser `parser` (which this CPU must run: cpu_runs) on [start,
/// end), as parse_uint_blocks_sse2 describes, with what the AVX2 parser
/// needs besides (parse_uint_blocks_avx2: the byte at `end` neither digit
/// nor white space, and 64 readable bytes from it); with the scalar parser
/// nothing is parsed and `start` is returned.
inline const char* parse_uint_blocks(uint_block_parser parser, const char* start, const char* end,
                                     std::uint64_t*& out, std::uint64_t* out_end) noexcept {
#if IOBENCH_IBUF_SSE2
    switch (parser) {
    case uint_block_parser::avx2: return parse_uint_blocks_avx2(start, end, out, out_end);
    case uint_block_parser::sse2: return parse_uint_blocks_sse2(start, end, out, out_end);
    case uint_block_parser::neon:
    case uint_block_parser::scalar: break;
    }
#elif IOBENCH_IBUF_NEON
    if (parser == uint_block_parser::neon) return parse_uint_blocks_neon(start, end, out, out_end);
#else
    (void)parser;
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
