// The line kernels of obuf's integer writer (basic_obuf::cursor::put_uint_lines):
// a block of unsigned integers, each in decimal and followed by '\n', formatted
// straight into the buffer. Three kernels give the same bytes: scalar (every
// CPU: two table loads a number), SSE2 (two numbers converted at once: every
// x86-64 CPU) and AVX2 (four at once: x86-64 CPUs with AVX2, BMI1, BMI2 and
// POPCNT), chosen at run time with ibuf's CPU check (methods/parse_uint.hpp):
// AVX2 where the CPU has it, else scalar (SSE2 takes more instructions than
// scalar and runs only when chosen). uint_line_kernel_in_use() says which
// runs; use_uint_line_kernel() chooses one (the tests run every kernel the
// CPU has).
//
// Every kernel cuts a number below 10^8 into two four-digit groups with one
// reciprocal multiply (x / 10^4 == (x * 109951163) >> 40 there, as ascii8);
// numbers of 9 to 20 digits go through format_uint, one at a time.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "methods/format_uint.hpp"
#include "methods/hot_path.hpp"
#include "methods/parse_uint.hpp"  // cpu_has_avx2_bmi2, IOBENCH_IBUF_SSE2, IOBENCH_TARGET_AVX2

namespace iobench {

/// Bytes the line kernels may store at `out` for `n` numbers: 21 per number
/// (20 digits and '\n') and 16 of scratch past the last line.
constexpr std::size_t uint_lines_room(std::size_t n) noexcept { return n * (max_uint_digits + 1) + 16; }

namespace detail {

/// The up to four digits of i < 10,000 without leading zeros ("0" for 0) in
/// bytes 0..3 and their count in byte 7 (first digit in the lowest byte when
/// loaded little-endian). 80 KB for all of them.
constexpr std::uint64_t trimmed_quad_entry(std::uint32_t i) noexcept {
    const std::uint32_t len = i >= 1000 ? 4 : i >= 100 ? 3 : i >= 10 ? 2 : 1;
    std::uint64_t e = 0;
    for (std::uint32_t k = 0, p = 1; k < len; ++k, p *= 10)
        e |= std::uint64_t{'0' + i / p % 10} << (8 * (len - 1 - k));
    return e | std::uint64_t{len} << 56;
}

/// The four digits of i < 10,000 with leading zeros and '\n' after them (5 bytes).
constexpr std::uint64_t quad_line_entry(std::uint32_t i) noexcept {
    return std::uint64_t{quad_entry(i)} | std::uint64_t{'\n'} << 32;
}

/// The tables of the scalar kernel: trimmed_quad_entry and quad_line_entry of 0 .. 9,999.
struct line_tables {
    std::uint64_t trimmed[10000];
    std::uint64_t line[10000];
};

#if defined(_MSC_VER) && !defined(__clang__)
// Built at run time on first use, as quads() (MSVC's constexpr step limit).
inline line_tables build_line_tables() noexcept {
    line_tables t{};
    for (std::uint32_t i = 0; i < 10000; ++i) {
        t.trimmed[i] = trimmed_quad_entry(i);
        t.line[i] = quad_line_entry(i);
    }
    return t;
}
inline const line_tables& lines_tables() noexcept {
    static const line_tables tables = build_line_tables();
    return tables;
}
#else
constexpr line_tables make_line_tables() noexcept {
    line_tables t{};
    for (std::uint32_t i = 0; i < 10000; ++i) {
        t.trimmed[i] = trimmed_quad_entry(i);
        t.line[i] = quad_line_entry(i);
    }
    return t;
}
inline constexpr line_tables line_tables_instance = make_line_tables();
inline const line_tables& lines_tables() noexcept { return line_tables_instance; }
#endif

/// One line of any value: format_uint, then '\n' (20 bytes of room for the digits).
IOBENCH_ALWAYS_INLINE char* format_uint_line(char* out, std::uint64_t v) noexcept {
    out = format_uint(out, v);
    *out = '\n';
    return out + 1;
}

/// The scalar kernel: per number below 10^8, one split into two four-digit
/// groups (the reciprocal multiply of ascii8), the first group trimmed from
/// a table that holds its length too, the second with its '\n' from another:
/// two loads and two stores, no loop over digits, no count of zeros.
inline char* format_uint_lines_scalar(char* out, const std::uint64_t* v, std::size_t n) noexcept {
    if constexpr (std::endian::native != std::endian::little) {
        for (std::size_t i = 0; i < n; ++i) out = format_uint_line(out, v[i]);
        return out;
    } else {
        const line_tables& t = lines_tables();
        for (std::size_t i = 0; i < n; ++i) {
            const std::uint64_t x = v[i];
            if (x - 10000 < 100000000 - 10000) [[likely]] {  // 5 to 8 digits
                const std::uint64_t hi = (x * 109951163) >> 40;
                const std::uint64_t lo = x - hi * 10000;
                const std::uint64_t first = t.trimmed[hi];
                std::memcpy(out, &first, 8);
                out += first >> 56;
                std::memcpy(out, &t.line[lo], 8);
                out += 5;
            } else if (x < 10000) {
                const std::uint64_t first = t.trimmed[x];
                std::memcpy(out, &first, 8);
                out += first >> 56;
                *out++ = '\n';
            } else {
                out = format_uint_line(out, x);
            }
        }
        return out;
    }
}

#if IOBENCH_IBUF_SSE2

/// The line of a number below 10^8 whose 8 digits (leading zeros kept, first
/// digit in the lowest byte) are `w`, of which the first `zeros` (0..7) are
/// leading zeros to drop: one shift, one 8-byte store at `at` and '\n' after
/// the digits. `q` (see uint_lines_sse2_run) loses the zeros dropped.
IOBENCH_ALWAYS_INLINE void put_digits8_line(char* at, char*& q, std::uint64_t w, unsigned zeros) noexcept {
    w >>= 8 * zeros;
    std::memcpy(at, &w, 8);
    q -= zeros;
    at[8 - zeros] = '\n';
}

/// The SSE2 kernel's loop: pairs of numbers below 10^8 from `v` on, up to
/// `stop` or the first pair with a larger number; returns where it stopped
/// (`out`: the position after the lines written). Each pair is converted in
/// one 128-bit register -- each 64-bit lane: the number split into two
/// four-digit groups by a reciprocal multiply, each group into two pairs of
/// digits by another, each pair into its two digits by a third, then OR '0'
/// -- and the leading zeros of both found with one compare and one movemask.
inline const std::uint64_t* uint_lines_sse2_run(char*& out, const std::uint64_t* v,
                                                const std::uint64_t* stop) noexcept {
    __m128i magic = _mm_set1_epi64x(109951163), e4 = _mm_set1_epi64x(10000);
    __m128i div100 = _mm_set1_epi32(5243), hundred = _mm_set1_epi32(100);
    __m128i div10 = _mm_set1_epi16(6554), ten = _mm_set1_epi16(10), zeros = _mm_set1_epi8('0');
    IOBENCH_OPAQUE(magic);
    IOBENCH_OPAQUE(e4);
    IOBENCH_OPAQUE(div100);
    IOBENCH_OPAQUE(hundred);
    IOBENCH_OPAQUE(div10);
    IOBENCH_OPAQUE(ten);
    IOBENCH_OPAQUE(zeros);
    // q: where the next line would start if every line so far had 9 bytes,
    // less the leading zeros dropped so far (the pair's lines at q and q + 9 - zeros).
    char* q = out;
    for (const std::uint64_t* const end = v + ((stop - v) & ~std::ptrdiff_t{1}); v != end; v += 2) {
        if (std::max(v[0], v[1]) >= 100000000) break;
        const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(v));
        const __m128i hi = _mm_srli_epi64(_mm_mul_epu32(x, magic), 40);         // x / 10^4
        const __m128i lo = _mm_sub_epi64(x, _mm_mul_epu32(hi, e4));              // x % 10^4
        const __m128i quads = _mm_or_si128(hi, _mm_slli_epi64(lo, 32));          // 32-bit groups
        const __m128i ab = _mm_srli_epi16(_mm_mulhi_epu16(quads, div100), 3);    // group / 100
        const __m128i cd = _mm_sub_epi16(quads, _mm_mullo_epi16(ab, hundred));  // group % 100
        const __m128i pairs = _mm_or_si128(ab, _mm_slli_epi32(cd, 16));          // 16-bit pairs
        const __m128i tens = _mm_mulhi_epu16(pairs, div10);                      // pair / 10
        const __m128i units = _mm_sub_epi16(pairs, _mm_mullo_epi16(tens, ten)); // pair % 10
        const __m128i digits = _mm_or_si128(_mm_or_si128(tens, _mm_slli_epi16(units, 8)), zeros);
        // Bit k of `lead`: byte k is a digit other than '0'; bit 7 of each
        // number set, so that 0 keeps its one digit.
        const auto lead = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpgt_epi8(digits, zeros))) | 0x8080u;
        const auto w0 = static_cast<std::uint64_t>(_mm_cvtsi128_si64(digits));
        const auto w1 = static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(digits, digits)));
        put_digits8_line(q, q, w0, static_cast<unsigned>(std::countr_zero(lead)));
        put_digits8_line(q + 9, q, w1, static_cast<unsigned>(std::countr_zero(lead >> 8)));
        q += 18;
    }
    out = q;
    return v;
}

/// The SSE2 kernel: uint_lines_sse2_run, with the pairs it stops at (a
/// number of 9 digits or more, the last odd number) through format_uint.
inline char* format_uint_lines_sse2(char* out, const std::uint64_t* v, std::size_t n) noexcept {
    const std::uint64_t* const stop = v + n;
    while (v != stop) {
        v = uint_lines_sse2_run(out, v, stop);
        for (const std::uint64_t* const next = v + std::min<std::ptrdiff_t>(stop - v, 2); v != next; ++v)
            out = format_uint_line(out, *v);
    }
    return out;
}

/// The byte shuffles of the AVX2 kernel: the 16 bytes at offset k (0..7)
/// move a register's bytes k places down (zeros shifted in at the top).
alignas(32) inline constexpr std::uint8_t shift_down_masks[32] = {
    0,    1,    2,    3,    4,    5,    6,    7,    8,    9,    10,   11,   12,   13,   14,   15,
    0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80};

/// The AVX2 kernel's loop: groups of four numbers below 10^8 from `v` on, up
/// to `stop` or the first group with a larger number; returns where it
/// stopped (`out`: the position after the lines written). Each group is
/// converted as the SSE2 kernel converts a pair, in one 256-bit register;
/// each line (its 8 digits, then '\n') is shifted into place with one byte
/// shuffle and stored with one 16-byte store (the bytes past its '\n' are
/// scratch, overwritten by the next line). Runs only where cpu_has_avx2_bmi2().
IOBENCH_TARGET_AVX2 inline const std::uint64_t* uint_lines_avx2_run(char*& out, const std::uint64_t* v,
                                                                    const std::uint64_t* stop) noexcept {
    __m256i magic = _mm256_set1_epi64x(109951163), e4 = _mm256_set1_epi64x(10000);
    __m256i div100 = _mm256_set1_epi32(5243), hundred = _mm256_set1_epi32(100);
    __m256i div10 = _mm256_set1_epi16(6554), ten = _mm256_set1_epi16(10), zeros = _mm256_set1_epi8('0');
    __m256i newlines = _mm256_set1_epi8('\n');
    // x >= 10^8 as a signed compare: both sides with the top bit flipped.
    __m256i flip = _mm256_set1_epi64x(INT64_MIN), limit = _mm256_set1_epi64x(INT64_MIN + 99999999);
    IOBENCH_OPAQUE(magic);
    IOBENCH_OPAQUE(e4);
    IOBENCH_OPAQUE(div100);
    IOBENCH_OPAQUE(hundred);
    IOBENCH_OPAQUE(div10);
    IOBENCH_OPAQUE(ten);
    IOBENCH_OPAQUE(zeros);
    IOBENCH_OPAQUE(newlines);
    IOBENCH_OPAQUE(flip);
    IOBENCH_OPAQUE(limit);
    const std::uint8_t* const masks = shift_down_masks;
    // q: where the next line would start if every line so far had 9 bytes,
    // less the leading zeros dropped so far (line j of a group at q + 9 j).
    char* q = out;
    for (const std::uint64_t* const end = v + ((stop - v) & ~std::ptrdiff_t{3}); v != end; v += 4) {
        const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(v));
        const __m256i big = _mm256_cmpgt_epi64(_mm256_xor_si256(x, flip), limit);
        if (!_mm256_testz_si256(big, big)) break;
        const __m256i hi = _mm256_srli_epi64(_mm256_mul_epu32(x, magic), 40);
        const __m256i lo = _mm256_sub_epi64(x, _mm256_mul_epu32(hi, e4));
        const __m256i quads = _mm256_or_si256(hi, _mm256_slli_epi64(lo, 32));
        const __m256i ab = _mm256_srli_epi16(_mm256_mulhi_epu16(quads, div100), 3);
        const __m256i cd = _mm256_sub_epi16(quads, _mm256_mullo_epi16(ab, hundred));
        const __m256i pairs = _mm256_or_si256(ab, _mm256_slli_epi32(cd, 16));
        const __m256i tens = _mm256_mulhi_epu16(pairs, div10);
        const __m256i units = _mm256_sub_epi16(pairs, _mm256_mullo_epi16(tens, ten));
        const __m256i digits = _mm256_or_si256(_mm256_or_si256(tens, _mm256_slli_epi16(units, 8)), zeros);
        const auto lead = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpgt_epi8(digits, zeros))) |
                          0x80808080u;
        // Numbers 0 and 2 (the low half of each 128-bit lane), then 1 and 3,
        // each with '\n' after it.
        const __m256i even = _mm256_unpacklo_epi64(digits, newlines);
        const __m256i odd = _mm256_unpackhi_epi64(digits, newlines);
        const auto z0 = static_cast<unsigned>(std::countr_zero(lead));
        const auto z1 = static_cast<unsigned>(std::countr_zero(lead >> 8));
        const auto z2 = static_cast<unsigned>(std::countr_zero(lead >> 16));
        const auto z3 = static_cast<unsigned>(std::countr_zero(lead >> 24));
        const auto mask = [&](unsigned z) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(masks + z)); };
        _mm_storeu_si128(reinterpret_cast<__m128i*>(q), _mm_shuffle_epi8(_mm256_castsi256_si128(even), mask(z0)));
        q -= z0;
        _mm_storeu_si128(reinterpret_cast<__m128i*>(q + 9), _mm_shuffle_epi8(_mm256_castsi256_si128(odd), mask(z1)));
        q -= z1;
        _mm_storeu_si128(reinterpret_cast<__m128i*>(q + 18),
                         _mm_shuffle_epi8(_mm256_extracti128_si256(even, 1), mask(z2)));
        q -= z2;
        _mm_storeu_si128(reinterpret_cast<__m128i*>(q + 27),
                         _mm_shuffle_epi8(_mm256_extracti128_si256(odd, 1), mask(z3)));
        q += 36 - z3;
    }
    out = q;
    return v;
}

/// The AVX2 kernel: uint_lines_avx2_run, with the groups it stops at (a
/// number of 9 digits or more, the last one to three numbers) through
/// format_uint. Runs only where cpu_has_avx2_bmi2().
inline char* format_uint_lines_avx2(char* out, const std::uint64_t* v, std::size_t n) noexcept {
    const std::uint64_t* const stop = v + n;
    while (v != stop) {
        v = uint_lines_avx2_run(out, v, stop);
        for (const std::uint64_t* const next = v + std::min<std::ptrdiff_t>(stop - v, 4); v != next; ++v)
            out = format_uint_line(out, *v);
    }
    return out;
}

#endif  // IOBENCH_IBUF_SSE2

}  // namespace detail

/// The kernels of put_uint_lines: what converts a block of numbers to lines
/// (the bytes are the same).
enum class uint_line_kernel {
    /// Table lookups, one number at a time (detail::format_uint_lines_scalar). Everywhere.
    scalar,
    /// Two numbers at a time in SSE2 registers (detail::format_uint_lines_sse2). Every x86-64 CPU.
    sse2,
    /// Four numbers at a time in AVX2 registers (detail::format_uint_lines_avx2).
    /// x86-64 CPUs with AVX2, BMI1 and BMI2 whose operating system saves the AVX registers.
    avx2,
};

/// "scalar", "sse2" or "avx2".
constexpr const char* uint_line_kernel_name(uint_line_kernel k) noexcept {
    return k == uint_line_kernel::avx2 ? "avx2" : k == uint_line_kernel::sse2 ? "sse2" : "scalar";
}

/// Whether this CPU runs `k`: scalar everywhere, sse2 on x86-64, avx2 where
/// cpu_has_avx2_bmi2() (the CPU check of ibuf's parsers).
inline bool cpu_runs(uint_line_kernel k) noexcept {
    switch (k) {
    case uint_line_kernel::scalar: return true;
    case uint_line_kernel::sse2: return IOBENCH_IBUF_SSE2 != 0;
    case uint_line_kernel::avx2: return cpu_has_avx2_bmi2();
    }
    return false;
}

/// The kernel obuf runs unless told otherwise: avx2 where the CPU has it,
/// else scalar -- not sse2, which takes more instructions per number than
/// the scalar kernel's two table loads (docs/methodology.md: 34.5 against
/// 19.9 a line on ints_out), so is only run when chosen.
inline uint_line_kernel best_uint_line_kernel() noexcept {
    return cpu_runs(uint_line_kernel::avx2) ? uint_line_kernel::avx2 : uint_line_kernel::scalar;
}

namespace detail {
/// The kernel every obuf of the process runs: best_uint_line_kernel() until
/// use_uint_line_kernel() says otherwise.
inline std::atomic<uint_line_kernel>& uint_line_kernel_state() noexcept {
    static std::atomic<uint_line_kernel> state{best_uint_line_kernel()};
    return state;
}
}  // namespace detail

/// The kernel put_uint_lines runs in this process.
inline uint_line_kernel uint_line_kernel_in_use() noexcept {
    return detail::uint_line_kernel_state().load(std::memory_order_relaxed);
}

/// Makes every obuf of the process run `k` from its next put_uint_lines call
/// on; false, changing nothing, when this CPU does not run it (cpu_runs).
inline bool use_uint_line_kernel(uint_line_kernel k) noexcept {
    if (!cpu_runs(k)) return false;
    detail::uint_line_kernel_state().store(k, std::memory_order_relaxed);
    return true;
}

/// Writes each of the `n` numbers at `v` in decimal followed by '\n' at `out`
/// with kernel `k` (which this CPU must run: cpu_runs) and returns one past
/// the last '\n'. `out` must have uint_lines_room(n) writable bytes; those
/// past the returned pointer are scratch afterwards.
inline char* format_uint_lines(uint_line_kernel k, char* out, const std::uint64_t* v, std::size_t n) noexcept {
#if IOBENCH_IBUF_SSE2
    switch (k) {
    case uint_line_kernel::avx2: return detail::format_uint_lines_avx2(out, v, n);
    case uint_line_kernel::sse2: return detail::format_uint_lines_sse2(out, v, n);
    case uint_line_kernel::scalar: break;
    }
#else
    (void)k;
#endif
    return detail::format_uint_lines_scalar(out, v, n);
}

}  // namespace iobench
