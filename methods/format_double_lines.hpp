// The line kernels of obuf's double writer (basic_obuf::cursor::put_double_lines):
// a block of doubles, each in its shortest round-trip form (std::to_chars' text,
// as format_double writes it) and followed by '\n', formatted straight into the
// buffer. Two kernels give the same bytes, chosen at run time with ibuf's CPU
// check (methods/parse_uint.hpp):
//
// - scalar: format_double one double at a time (Żmij's own writer, zmij::write,
//   where its text is std::to_chars'; Dragonbox's digits in obuf's writer in a
//   build without Żmij). Every CPU.
// - avx2: Żmij's digits (zmij::to_decimal) and obuf's own text around them,
//   two doubles at a time: both significands converted to ASCII in one 256-bit
//   register, the significant digits counted from one compare, the exponent
//   with its '\n' from a table. x86-64 CPUs with AVX2, BMI1 and BMI2, in a
//   build with Żmij (IOBENCH_HAVE_ZMIJ). Where Żmij's sources are part of the
//   build (IOBENCH_HAVE_ZMIJ_SOURCES: built here, not an installed library),
//   its digit search is compiled into the kernel's loop
//   (methods/format_double_lines_zmij.cpp) instead of called per double.
#pragma once

#include <array>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "methods/ascii8_avx2.hpp"
#include "methods/format_double.hpp"
#include "methods/hot_path.hpp"
#include "methods/parse_uint.hpp"  // cpu_has_avx2_bmi2, IOBENCH_IBUF_SSE2, IOBENCH_TARGET_AVX2, IOBENCH_OPAQUE

namespace iobench {

/// Bytes the double line kernels may store at `out` for `n` doubles: 25 per
/// line ("-d.ddddddddddddddddde-308" is 24, then '\n') and 10 of scratch past
/// the last (format_double's room, 34, and '\n', for a line of any length).
constexpr std::size_t double_lines_room(std::size_t n) noexcept { return n * (max_double_chars + 1) + 10; }

/// The kernels of put_double_lines: what converts a block of doubles to
/// lines (the bytes are the same).
enum class double_line_kernel {
    /// format_double and '\n', one double at a time (Żmij's own writer
    /// where its text is std::to_chars'). Everywhere.
    scalar,
    /// Żmij's digits, two doubles' text at a time in AVX2 registers
    /// (detail::format_double_lines_avx2_inlined where Żmij's sources are in
    /// the build, else detail::format_double_lines_avx2). x86-64 CPUs with
    /// AVX2, BMI1 and BMI2 whose operating system saves the AVX registers, in
    /// a build with Żmij.
    avx2,
};

/// "scalar" or "avx2".
constexpr const char* double_line_kernel_name(double_line_kernel k) noexcept {
    return k == double_line_kernel::avx2 ? "avx2" : "scalar";
}

/// IOBENCH_DOUBLE_LINES_AVX2: 1 where the AVX2 double line kernel is built
/// (x86-64 with Żmij), else 0.
#if IOBENCH_IBUF_SSE2 && defined(IOBENCH_HAVE_ZMIJ)
#define IOBENCH_DOUBLE_LINES_AVX2 1
#else
#define IOBENCH_DOUBLE_LINES_AVX2 0
#endif

/// Whether this CPU runs `k` in this build: scalar everywhere, avx2 where
/// the kernel is built (IOBENCH_DOUBLE_LINES_AVX2) and cpu_has_avx2_bmi2().
inline bool cpu_runs(double_line_kernel k) noexcept {
    return k == double_line_kernel::scalar || (IOBENCH_DOUBLE_LINES_AVX2 != 0 && cpu_has_avx2_bmi2());
}

/// The kernel obuf runs unless told otherwise: avx2 where this CPU runs it, else scalar.
inline double_line_kernel best_double_line_kernel() noexcept {
    return cpu_runs(double_line_kernel::avx2) ? double_line_kernel::avx2 : double_line_kernel::scalar;
}

namespace detail {
/// The kernel every obuf of the process runs: best_double_line_kernel()
/// until use_double_line_kernel() says otherwise.
inline std::atomic<double_line_kernel>& double_line_kernel_state() noexcept {
    static std::atomic<double_line_kernel> state{best_double_line_kernel()};
    return state;
}
}  // namespace detail

/// The kernel put_double_lines runs in this process.
inline double_line_kernel double_line_kernel_in_use() noexcept {
    return detail::double_line_kernel_state().load(std::memory_order_relaxed);
}

/// Makes every obuf of the process run `k` from its next put_double_lines
/// call on; false, changing nothing, when this CPU does not run it (cpu_runs).
inline bool use_double_line_kernel(double_line_kernel k) noexcept {
    if (!cpu_runs(k)) return false;
    detail::double_line_kernel_state().store(k, std::memory_order_relaxed);
    return true;
}

namespace detail {

/// One line of any double: format_double, then '\n'.
template <double_digits Digits = default_double_digits>
IOBENCH_ALWAYS_INLINE char* format_double_line(char* out, double v) noexcept {
    out = format_double<Digits>(out, v);
    *out = '\n';
    return out + 1;
}

#if IOBENCH_DOUBLE_LINES_AVX2

/// Decimal exponents the exponent table covers: those of every finite
/// nonzero double, -324 (4.9e-324) to 308 (1.8e308).
inline constexpr int min_exp10 = -324, max_exp10 = 308;

/// The end of a line in exponent notation for decimal exponent `e`: 'e', the
/// sign, two or three digits, '\n' (std::to_chars writes at least two
/// exponent digits: "1e+07"), in the low bytes (first byte lowest when
/// stored little-endian), and their count in byte 7.
constexpr std::uint64_t exponent_line_entry(int e) noexcept {
    const unsigned a = static_cast<unsigned>(e < 0 ? -e : e);
    std::uint64_t bytes = 'e' | std::uint64_t{static_cast<unsigned char>(e < 0 ? '-' : '+')} << 8;
    unsigned n = 2;
    if (a >= 100) bytes |= std::uint64_t{'0' + a / 100} << (8 * n++);
    bytes |= std::uint64_t{'0' + a / 10 % 10} << (8 * n++);
    bytes |= std::uint64_t{'0' + a % 10} << (8 * n++);
    bytes |= std::uint64_t{'\n'} << (8 * n++);
    return bytes | std::uint64_t{n} << 56;
}

/// exponent_line_entry of min_exp10 .. max_exp10 (5 KB).
inline constexpr auto exponent_lines = [] {
    std::array<std::uint64_t, max_exp10 - min_exp10 + 1> table{};
    for (int e = min_exp10; e <= max_exp10; ++e) table[static_cast<std::size_t>(e - min_exp10)] = exponent_line_entry(e);
    return table;
}();

/// Whether the AVX2 kernel writes a double itself, by the top 12 bits of
/// its bits (sign and biased exponent): a normal double (biased exponent 1 ..
/// 2046) outside [2^-20, 2^80), where std::to_chars' shortest text is always
/// in exponent notation (zmij_writes_to_chars_text) and Żmij's digits are 16
/// or 17 (tested). The rest (zero, subnormals, infinity, NaN, fixed
/// notation) goes through format_double. 1 or 0 (4 KB).
inline constexpr auto double_line_fast = [] {
    std::array<std::uint8_t, 4096> table{};
    for (unsigned top = 0; top < 4096; ++top) {
        const unsigned biased = top & 0x7ffu;
        table[top] = biased - 1u < 2046u && biased - (1023u - 20u) >= 100u;
    }
    return table;
}();

/// A double's shortest digits as the AVX2 kernel writes them: the first 9
/// (`high9`, below 10^9) and the last 8 (`low8`) of 17, and the index of
/// its exponent line in exponent_lines.
struct double_line_digits {
    std::uint64_t high9;
    std::uint64_t low8;
    std::uint64_t exponent_index;
};

/// What a significand of 16 digits (index 0) or 17 (index 1) is multiplied by to have 17.
inline constexpr std::uint64_t scale_to_17[2] = {10, 1};

/// The digits of Żmij's `dec` of a double for which double_line_fast holds:
/// 16 or 17 of them with trailing zeros kept (zmij::to_decimal), scaled to
/// 17 by a multiply (a branch on the count would be mispredicted: 8.2 % of
/// doubles_out's values have 16), cut into 9 + 8 with one
/// reciprocal multiply (the compiler's, for division by a constant).
IOBENCH_ALWAYS_INLINE double_line_digits split_double_digits(const zmij::dec_fp<>& dec) noexcept {
    const std::uint64_t has17 = dec.sig >= 10000000000000000ULL;
    const std::uint64_t sig17 = dec.sig * scale_to_17[has17];
    const std::uint64_t high9 = sig17 / 100000000;
    // The first digit's exponent: dec.exp + 16 for 17 digits, one less for 16.
    const auto exponent_index = static_cast<std::uint64_t>(static_cast<std::int64_t>(dec.exp) + 15 - min_exp10) + has17;
    return {high9, sig17 - high9 * 100000000, exponent_index};
}

/// The vector constants of the AVX2 kernel, made once per call.
struct double_line_constants {
    __m256i div1e8;           // 64-bit lanes: 2^57 / 10^8, rounded up (x / 10^8 == x * this >> 57 below 10^9)
    __m256i hundred_million;  // 64-bit lanes: 10^8
    __m256i lead;             // 64-bit lanes: '0' | '.' << 8
    ascii8_constants ascii8;  // ascii8_x4's
};

IOBENCH_TARGET_AVX2 inline double_line_constants make_double_line_constants() noexcept {
    double_line_constants k{_mm256_set1_epi64x(1441151881), _mm256_set1_epi64x(100000000),
                            _mm256_set1_epi64x('0' | '.' << 8), make_ascii8_constants()};
    IOBENCH_OPAQUE(k.div1e8);
    IOBENCH_OPAQUE(k.hundred_million);
    IOBENCH_OPAQUE(k.lead);
    return k;
}

/// The index of the highest set bit of `x` (not 0): one bsr.
IOBENCH_ALWAYS_INLINE std::size_t highest_bit(std::uint64_t x) noexcept {
#if defined(__GNUC__) && !defined(__clang__)
    return static_cast<std::size_t>(__builtin_ia32_bsrdi(static_cast<long long>(x)));  // no sign extension after it
#elif defined(__clang__)
    return static_cast<unsigned>(__builtin_clzll(x) ^ 63);
#else
    unsigned long index;
    _BitScanReverse64(&index, x);
    return index;
#endif
}

/// One line of the AVX2 kernel at `out`: the sign, then `lead` (the first
/// digit and '.', stored from a vector register), the 16 digits of `digits`
/// (ASCII), of which those up to the last that is not '0' count, then the
/// exponent line. Bit 16 + i of `nonzero` is set for digit i (0 .. 15) that
/// is not '0', and bits 0 .. 15 are clear: its highest bit, with bit 14 set
/// for the first digit (which always counts), is the last byte of the
/// digits plus 13 (no point when it is bit 14). Stores 19 bytes at `out`
/// and 8 after the digits; returns the end of the line.
IOBENCH_ALWAYS_INLINE IOBENCH_TARGET_AVX2 char* put_double_line_digits(char* out, std::uint64_t negative,
                                                                       std::uint64_t exponent_index, __m128i lead,
                                                                       __m128i digits,
                                                                       std::uint32_t nonzero) noexcept {
    *out = '-';
    out += negative;
    const auto first = static_cast<std::uint16_t>(_mm_extract_epi16(lead, 0));
    std::memcpy(out, &first, 2);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 2), digits);
    char* const after = out + highest_bit(nonzero | 1u << 14) - 13;
    const std::uint64_t exponent = exponent_lines[exponent_index];
    std::memcpy(after, &exponent, 8);
    return after + (exponent >> 56);
}

/// The AVX2 kernel with the shortest digits of each double from
/// `to_decimal(v)` (a zmij::dec_fp<>: 16 or 17 digits with trailing zeros
/// kept, as zmij::to_decimal gives them; its sign is not read): pairs of
/// doubles for which double_line_fast holds, both significands converted in
/// one register -- their first digits split off (a 32-bit reciprocal
/// multiply), the 16 after them to ASCII (ascii8_x4), their trailing zeros
/// found with one compare and one movemask; a pair with any other double
/// goes one double at a time through format_double_line, as does an odd last
/// one. Runs only where cpu_has_avx2_bmi2().
template <class ToDecimal>
IOBENCH_TARGET_AVX2 char* format_double_lines_avx2_with(char* out, const double* v, std::size_t n,
                                                        ToDecimal to_decimal) noexcept {
    const double_line_constants k = make_double_line_constants();
    const double* const end = v + n;
    while (end - v >= 2) {
        const auto bits0 = std::bit_cast<std::uint64_t>(v[0]), bits1 = std::bit_cast<std::uint64_t>(v[1]);
        if ((double_line_fast[bits0 >> 52] & double_line_fast[bits1 >> 52]) == 0) [[unlikely]] {
            out = format_double_line(out, *v++);
            continue;
        }
        // Both conversions first: less to keep across each.
        const zmij::dec_fp<> dec0 = to_decimal(v[0]);
        const zmij::dec_fp<> dec1 = to_decimal(v[1]);
        v += 2;
        const double_line_digits d0 = split_double_digits(dec0), d1 = split_double_digits(dec1);
        const __m128i x0 = _mm_insert_epi64(_mm_cvtsi64_si128(static_cast<long long>(d0.high9)),
                                            static_cast<long long>(d0.low8), 1);
        const __m128i x1 = _mm_insert_epi64(_mm_cvtsi64_si128(static_cast<long long>(d1.high9)),
                                            static_cast<long long>(d1.low8), 1);
        const __m256i x = _mm256_setr_m128i(x0, x1);
        // The first digits (0 in the low8 lanes), and the 8 digits after them.
        const __m256i first = _mm256_srli_epi64(_mm256_mul_epu32(x, k.div1e8), 57);
        const __m256i lead = _mm256_add_epi64(first, k.lead);
        const __m256i digits = ascii8_x4(_mm256_sub_epi64(x, _mm256_mul_epu32(first, k.hundred_million)), k.ascii8);
        const auto nonzero = ~static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(digits, k.ascii8.zeros)));
        out = put_double_line_digits(out, bits0 >> 63, d0.exponent_index, _mm256_castsi256_si128(lead),
                                     _mm256_castsi256_si128(digits), nonzero << 16);
        out = put_double_line_digits(out, bits1 >> 63, d1.exponent_index, _mm256_extracti128_si256(lead, 1),
                                     _mm256_extracti128_si256(digits, 1), nonzero & 0xFFFF0000u);
    }
    if (v != end) out = format_double_line(out, *v);
    return out;
}

/// The AVX2 kernel with the digits from Żmij's library (zmij::to_decimal,
/// a call per double): what runs where Żmij is an installed library, and
/// beside format_double_lines_avx2_inlined in the tests. Runs only where
/// cpu_has_avx2_bmi2().
IOBENCH_TARGET_AVX2 inline char* format_double_lines_avx2(char* out, const double* v, std::size_t n) noexcept {
    struct library_to_decimal {
        IOBENCH_ALWAYS_INLINE zmij::dec_fp<> operator()(double x) const noexcept { return zmij::to_decimal(x); }
    };
    return format_double_lines_avx2_with(out, v, n, library_to_decimal{});
}

#if defined(IOBENCH_HAVE_ZMIJ_SOURCES)
/// The AVX2 kernel with Żmij's digit search compiled into the kernel's own
/// loop (methods/format_double_lines_zmij.cpp: Żmij's sources are part of
/// this build), not called through the library: 114.5 instructions a
/// double of doubles_out against 142.0 (docs/methodology.md). The same
/// bytes as format_double_lines_avx2. Runs only where cpu_has_avx2_bmi2().
IOBENCH_TARGET_AVX2 char* format_double_lines_avx2_inlined(char* out, const double* v, std::size_t n) noexcept;
#endif

#endif  // IOBENCH_DOUBLE_LINES_AVX2

}  // namespace detail

/// Writes each of the `n` doubles at `v` as format_double<Digits> writes
/// it, followed by '\n', at `out` with kernel `k` (which this CPU must run:
/// cpu_runs), and returns one past the last '\n'. The AVX2 kernel takes
/// Żmij's digits: with Dragonbox's (double_digits::dragonbox) every kernel
/// writes one double at a time. `out` must have double_lines_room(n)
/// writable bytes; those past the returned pointer are scratch afterwards.
template <double_digits Digits = default_double_digits>
char* format_double_lines(double_line_kernel k, char* out, const double* v, std::size_t n) noexcept {
#if IOBENCH_DOUBLE_LINES_AVX2
    if constexpr (Digits == double_digits::zmij) {
        if (k == double_line_kernel::avx2) {
#if defined(IOBENCH_HAVE_ZMIJ_SOURCES)
            return detail::format_double_lines_avx2_inlined(out, v, n);
#else
            return detail::format_double_lines_avx2(out, v, n);
#endif
        }
    }
#endif
    (void)k;
    for (std::size_t i = 0; i < n; ++i) out = detail::format_double_line<Digits>(out, v[i]);
    return out;
}

}  // namespace iobench
