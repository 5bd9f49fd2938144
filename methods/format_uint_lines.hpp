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
// reciprocal multiply (x / 10^4 == (x * 109951163) >> 40 there, as ascii8;
// the AVX2 kernel's ascii8_x4 uses 2^45 / 10^4 instead); numbers of 9 to 20
// digits go through format_uint, one at a time.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "methods/ascii8_avx2.hpp"
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

/// The vector constants of the AVX2 kernel, made once per call and kept in registers.
struct uint_lines_avx2_constants {
    ascii8_constants ascii8;
    __m256i newlines;    ///< '\n' in every byte
    __m256i nonzero;     ///< '0', but '0' - 1 in the last byte of each 64-bit lane: a digit above it is not a leading zero
    __m256i high_bits;   ///< 64-bit lanes: the bits from 2^26 up (a lane without them is below 10^8)
    __m256i flip;        ///< 64-bit lanes: 2^63 (x >= 10^8 as a signed compare: both sides with the top bit flipped)
    __m256i limit;       ///< 64-bit lanes: 2^63 + 10^8 - 1
};

/// The constants, each loaded once (load_constant).
IOBENCH_TARGET_AVX2 inline uint_lines_avx2_constants make_uint_lines_avx2_constants() noexcept {
    return {make_ascii8_constants(),
            load_constant(broadcast_constant<std::uint8_t, '\n'>),
            load_constant(broadcast_constant<std::uint64_t, 0x2F30303030303030>),
            load_constant(broadcast_constant<std::uint64_t, ~std::uint64_t{(1 << 26) - 1}>),
            load_constant(broadcast_constant<std::uint64_t, std::uint64_t{1} << 63>),
            load_constant(broadcast_constant<std::uint64_t, (std::uint64_t{1} << 63) + 99999999>)};
}

/// One line at `at`: `line` (8 digits, then '\n' and scratch) with its
/// first bytes shifted out by `shift` (shift_down_masks + their count: one
/// shuffle), 16 bytes stored.
IOBENCH_ALWAYS_INLINE IOBENCH_TARGET_AVX2 void store_line(char* at, __m128i line, const std::uint8_t* shift) noexcept {
    const __m128i mask = _mm_loadu_si128(reinterpret_cast<const __m128i*>(shift));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(at), _mm_shuffle_epi8(line, mask));
}

/// The lines of the four numbers below 10^8 in the 64-bit lanes of `x`
/// (each in decimal, then '\n') at `q + At`; returns `q` less the leading
/// zeros dropped, so that the lines end at the result + At + 36 (`At`, a
/// constant, lets the compiler fold the offsets of four groups into the
/// stores' displacements). The digits from ascii8_x4, their leading zeros
/// found with one compare and one movemask; each line (its 8 digits, then
/// '\n') is shifted into place with one byte shuffle and stored with one
/// 16-byte store (the bytes past its '\n' are scratch, overwritten by the
/// next line). Bit 8 j + i of `lead` is set for digit i of number j that is
/// not '0', and always for i = 7 (0 has one digit): the lowest set bit of
/// `lead` shifted right by 8 j is j's count of leading zeros.
template <std::ptrdiff_t At>
IOBENCH_ALWAYS_INLINE IOBENCH_TARGET_AVX2 char* put_uint_lines_x4(char* q, __m256i x, const uint_lines_avx2_constants& k,
                                                                  const std::uint8_t* masks) noexcept {
    const __m256i digits = ascii8_x4(x, k.ascii8);
    const std::uint64_t lead = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpgt_epi8(digits, k.nonzero)));
    // Numbers 0 and 2 (the low half of each 128-bit lane), then 1 and 3, each with '\n' after it.
    const __m256i even = _mm256_unpacklo_epi64(digits, k.newlines);
    const __m256i odd = _mm256_unpackhi_epi64(digits, k.newlines);
    // The shifts to the numbers after the first, in registers (as
    // constants, each shift would be a copy and a shift instead of one shrx).
    std::uint64_t to1 = 8, to2 = 16, to3 = 24;
    IOBENCH_OPAQUE_SCALAR(to1);
    IOBENCH_OPAQUE_SCALAR(to2);
    IOBENCH_OPAQUE_SCALAR(to3);
    const std::uint64_t z1 = _tzcnt_u64(lead >> to1);
    const std::uint64_t z2 = _tzcnt_u64(lead >> to2);
    const std::uint64_t z3 = _tzcnt_u64(lead >> to3);
    const std::uint64_t z0 = _tzcnt_u64(lead);
    // Line j + 1 starts 9 bytes after line j, less j's leading zeros.
    store_line(q + At, _mm256_castsi256_si128(even), masks + z0);
    q -= z0;
    store_line(q + At + 9, _mm256_castsi256_si128(odd), masks + z1);
    q -= z1;
    store_line(q + At + 18, _mm256_extracti128_si256(even, 1), masks + z2);
    q -= z2;
    store_line(q + At + 27, _mm256_extracti128_si256(odd, 1), masks + z3);
    return q - z3;
}

/// The AVX2 kernel's loop: groups of four numbers below 10^8 from `v` on, up
/// to `stop` or the first group with a larger number; returns where it
/// stopped (`out`: the position after the lines written). Sixteen numbers a
/// pass while none has a bit from 2^26 up (one test of their OR); from the
/// first pass with such a bit on, a group at a time, compared with 10^8 only
/// when it has one. Runs only where cpu_has_avx2_bmi2().
IOBENCH_TARGET_AVX2 inline const std::uint64_t* uint_lines_avx2_run(char*& out, const std::uint64_t* v,
                                                                    const std::uint64_t* stop) noexcept {
    const std::uint8_t* masks = shift_down_masks;
    IOBENCH_OPAQUE_SCALAR(masks);  // in a register, not made again in every pass
    char* q = out;
    // Each loop with constants of its own, made only when it runs: none
    // live across both (GCC would keep them on the stack between the two).
    // Four groups a pass while no number has a bit from 2^26 up, then one.
    if (const std::uint64_t* const end = v + ((stop - v) & ~std::ptrdiff_t{15}); v != end) {
        const uint_lines_avx2_constants k = make_uint_lines_avx2_constants();
        do {
            const __m256i x0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(v));
            const __m256i x1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(v + 4));
            const __m256i x2 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(v + 8));
            const __m256i x3 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(v + 12));
            const __m256i all = _mm256_or_si256(_mm256_or_si256(x0, x1), _mm256_or_si256(x2, x3));
            if (!_mm256_testz_si256(all, k.high_bits)) [[unlikely]]
                break;
            q = put_uint_lines_x4<0>(q, x0, k, masks);
            q = put_uint_lines_x4<36>(q, x1, k, masks);
            q = put_uint_lines_x4<72>(q, x2, k, masks);
            q = put_uint_lines_x4<108>(q, x3, k, masks) + 144;
            v += 16;
        } while (v != end);
    }
    if (const std::uint64_t* const end = v + ((stop - v) & ~std::ptrdiff_t{3}); v != end) {
        const uint_lines_avx2_constants k = make_uint_lines_avx2_constants();
        do {
            const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(v));
            if (!_mm256_testz_si256(x, k.high_bits)) [[unlikely]] {
                const __m256i big = _mm256_cmpgt_epi64(_mm256_xor_si256(x, k.flip), k.limit);
                if (!_mm256_testz_si256(big, big)) break;
            }
            q = put_uint_lines_x4<0>(q, x, k, masks) + 36;
            v += 4;
        } while (v != end);
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
