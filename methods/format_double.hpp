// The shortest round-trip text of a double, byte for byte as std::to_chars
// writes it, formatted in place for obuf (methods/obuf.hpp): format_double,
// with Żmij where the build has it (IOBENCH_HAVE_ZMIJ: cmake/IobenchZmij.cmake)
// and with Dragonbox's digits otherwise (and on demand: the dragonbox_obuf
// method, so that the two are rows side by side).
#pragma once

#include <bit>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include <dragonbox/dragonbox.h>
#if defined(IOBENCH_HAVE_ZMIJ)
#include <zmij.h>
#endif

#include "methods/format_uint.hpp"
#include "methods/hot_path.hpp"

namespace iobench {

/// Most bytes of text `format_double` produces: "-2.2250738585072014e-308"
/// (sign, 17 significant digits, point, 'e', exponent sign and 3 digits).
inline constexpr std::size_t max_double_chars = 24;

/// Bytes `format_double` may store at `out`: its text (at most
/// max_double_chars) and scratch after it. Żmij stores whole 8- and 16-byte
/// groups and asks for zmij::double_buffer_size (34) bytes.
inline constexpr std::size_t format_double_room = 34;

#if defined(IOBENCH_HAVE_ZMIJ)
static_assert(zmij::double_buffer_size <= format_double_room, "this Żmij needs more room than obuf gives it");
#endif

/// Where format_double takes a double's shortest digits from.
enum class double_digits {
    /// Żmij (Victor Zverovich, 2025-; https://github.com/vitaut/zmij): its
    /// whole text where it is std::to_chars' text, its digits in obuf's
    /// writer elsewhere. Only in a build with IOBENCH_HAVE_ZMIJ.
    zmij,
    /// Dragonbox (Junekey Jeon, "Dragonbox: A New Floating-Point
    /// Binary-to-Decimal Conversion Algorithm", 2020; the library's
    /// documented jkj::dragonbox::to_decimal): its digits in obuf's writer.
    dragonbox,
};

/// The algorithm of format_double and obuf's put_double: Żmij where this
/// build has it, else Dragonbox.
inline constexpr double_digits default_double_digits =
#if defined(IOBENCH_HAVE_ZMIJ)
    double_digits::zmij;
#else
    double_digits::dragonbox;
#endif

namespace detail {

/// 10^0 .. 10^17.
inline constexpr std::uint64_t powers_of_10[18] = {1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL,
    1000000ULL, 10000000ULL, 100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL,
    1000000000000ULL, 10000000000000ULL, 100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
    100000000000000000ULL};

/// Decimal digits of 1 <= v < 10^17 (1 to 17), without a branch:
/// bit_width(v) * 1233 >> 12 is floor(log10(2^bit_width(v))), the digit count
/// or one less (Sean Eron Anderson's "Bit Twiddling Hacks", integer log 10).
inline int decimal_length17(std::uint64_t v) noexcept {
    const auto guess = static_cast<int>((static_cast<unsigned>(std::bit_width(v)) * 1233) >> 12);
    return guess + 1 - static_cast<int>(v < powers_of_10[guess]);
}

/// The 17 digits of 10^16 <= d17 < 10^17 as ASCII: the first digit, then
/// digits 2-9 and 10-17 as ascii8 words (first digit in the lowest byte).
struct digits17 {
    char first;
    std::uint64_t high;
    std::uint64_t low;
};

inline digits17 split_digits17(std::uint64_t d17) noexcept {
    const std::uint64_t first = d17 / 10000000000000000ULL;
    const std::uint64_t rest = d17 - first * 10000000000000000ULL;
    const std::uint64_t high8 = rest / 100000000;
    return {static_cast<char>('0' + first), ascii8(static_cast<std::uint32_t>(high8)),
            ascii8(static_cast<std::uint32_t>(rest - high8 * 100000000))};
}

/// Writes 'e', the sign and the 2 or 3 digits of `exp10` (|exp10| < 1000) at
/// `out`; returns one past the last.
IOBENCH_ALWAYS_INLINE char* write_exponent(char* out, int exp10) noexcept {
    const int abs_exp10 = exp10 < 0 ? -exp10 : exp10;
    out[0] = 'e';
    out[1] = exp10 < 0 ? '-' : '+';
    out += 2;
    if (abs_exp10 >= 100) {
        out[0] = static_cast<char>('0' + abs_exp10 / 100);
        const int two = abs_exp10 % 100;
        out[1] = static_cast<char>('0' + two / 10);
        out[2] = static_cast<char>('0' + two % 10);
        return out + 3;
    }
    out[0] = static_cast<char>('0' + abs_exp10 / 10);
    out[1] = static_cast<char>('0' + abs_exp10 % 10);
    return out + 2;
}

/// "d[.ddd]e+XX" from `d` at `out`, of which the first `n` digits count:
/// the same stores for every n (no branch to mispredict between 16 and 17
/// digits). Stores 18 bytes before the exponent.
IOBENCH_ALWAYS_INLINE char* write_exponent_notation(char* out, const digits17& d, int n, int exp10) noexcept {
    out[0] = d.first;
    out[1] = '.';
    std::memcpy(out + 2, &d.high, 8);
    std::memcpy(out + 10, &d.low, 8);
    return write_exponent(n > 1 ? out + 1 + n : out + 1, exp10);
}

/// Length of v's shortest text in exponent notation and in fixed notation,
/// from its n significant digits, the exponent of the first (exp10: |v| =
/// d.ddd x 10^exp10) and of the last (exponent = exp10 - n + 1), as
/// std::to_chars counts them: it takes fixed notation when that is not longer.
inline bool fixed_is_shorter_or_equal(int n, int exp10, int exponent) noexcept {
    const int abs_exp10 = exp10 < 0 ? -exp10 : exp10;
    const int exponent_length = n + (n > 1) + 2 + (abs_exp10 >= 100 ? 3 : 2);
    const int fixed_length = exponent >= 0 ? n + exponent : exp10 >= 0 ? n + 1 : n + 1 - exp10;
    return fixed_length <= exponent_length;
}

/// |v|, an integer with trailing zeros in fixed notation (|v| < 1e23 at
/// most): std::to_chars prints it exactly ("123456789012345683968" rather
/// than "123456789012345680000": of the texts of that length, the one closest
/// to v).
inline char* write_exact_integer(char* out, double v) noexcept {
    const double magnitude = v < 0 ? -v : v;
    if (magnitude < 0x1p64) return format_uint(out, static_cast<std::uint64_t>(magnitude));
    return std::to_chars(out, out + max_double_chars, magnitude).ptr;  // 2^64 <= |v| < 1e23: rare
}

/// obuf's writer of a finite nonzero |v| (the sign already written) from its
/// shortest digits: `significand` (no trailing zeros) x 10^`exponent`.
/// Exponent notation, the common case, writes the digits scaled to 17 with
/// write_exponent_notation. Fixed notation (about 1e-4 <= |v| < 1e22) writes
/// them with format_uint and moves them around the point.
IOBENCH_ALWAYS_INLINE char* write_shortest(char* out, double v, std::uint64_t significand,
                                           int exponent) noexcept {
    const int n = decimal_length17(significand);
    const int exp10 = exponent + n - 1;  // of the first digit: |v| = d.ddd * 10^exp10
    if (!fixed_is_shorter_or_equal(n, exp10, exponent)) [[likely]]
        return write_exponent_notation(out, split_digits17(significand * powers_of_10[17 - n]), n, exp10);
    if (exponent > 0) return write_exact_integer(out, v);
    const int fixed_length = exp10 >= 0 ? n + 1 : n + 1 - exp10;
    // The n digits at out + 1, then moved into place.
    char* const digits = out + 1;
    char* const end = format_uint(digits, significand);
    if (exp10 >= 0) {  // ddd or dd.ddd: the integer digits one place left, then the point
        std::memmove(out, digits, static_cast<std::size_t>(exp10 + 1));
        if (exponent == 0) return out + n;
        out[exp10 + 1] = '.';
        return end;
    }
    // 0.000ddd: the digits 1 - exp10 places right of out
    std::memmove(out + 1 - exp10, digits, static_cast<std::size_t>(n));
    out[0] = '0';
    out[1] = '.';
    std::memset(out + 2, '0', static_cast<std::size_t>(-exp10 - 1));
    return out + fixed_length;
}

#if defined(IOBENCH_HAVE_ZMIJ)
/// Żmij's writer and std::to_chars write the same text for every double
/// outside [2^-20, 2^80) (biased binary exponents 1003 .. 1102): exponent
/// notation, since a shortest text there is below 1e-6 or above 1.2e24,
/// where both write it (Żmij writes fixed notation for 1e-4 <= |v| < 1e16,
/// std::to_chars when it is not longer, up to 1e22), and zero, infinity and
/// NaN. Tested against std::to_chars (tests/methods/obuf_double_test.cpp).
inline bool zmij_writes_to_chars_text(std::uint64_t bits) noexcept {
    const auto biased_exponent = static_cast<unsigned>(bits >> 52) & 0x7ffu;
    return biased_exponent - (1023u - 20u) >= 100u;
}

/// obuf's writer of a finite |v| in [2^-20, 2^80) (the sign already written)
/// from Żmij's shortest digits: zmij::to_decimal gives 16 or 17 digits with
/// trailing zeros kept (0.1 is 10000000000000000 x 10^-17); scaled to 17 and
/// written as ASCII (split_digits17), whose trailing '0' bytes give the count
/// of significant digits without a division. At most 23 bytes stored.
inline char* write_shortest_zmij(char* out, double v) noexcept {
    const zmij::dec_fp<> dec = zmij::to_decimal(v);  // of |v|, and its sign apart
    const int n17 = decimal_length17(dec.sig);
    const digits17 d = split_digits17(dec.sig * powers_of_10[17 - n17]);
    const int exp10 = dec.exp + n17 - 1;
    // Trailing zeros: the top bytes of `low`, then of `high`, that are '0'.
    const std::uint64_t low = d.low ^ ascii_zeros, high = d.high ^ ascii_zeros;
    const int n = low != 0    ? 17 - std::countl_zero(low) / 8
                  : high != 0 ? 9 - std::countl_zero(high) / 8
                              : 1;
    const int exponent = exp10 - n + 1;
    if (!fixed_is_shorter_or_equal(n, exp10, exponent)) return write_exponent_notation(out, d, n, exp10);
    if (exponent > 0) return write_exact_integer(out, v);
    if (exp10 >= 0) {  // ddd or dd.ddd: the 17 digits, then the fraction one place right for the point
        out[0] = d.first;
        std::memcpy(out + 1, &d.high, 8);
        std::memcpy(out + 9, &d.low, 8);
        if (exponent == 0) return out + n;
        std::memmove(out + exp10 + 2, out + exp10 + 1, static_cast<std::size_t>(n - exp10 - 1));
        out[exp10 + 1] = '.';
        return out + n + 1;
    }
    // 0.000ddd (exp10 is -1 .. -4 where fixed is not longer): "0." and
    // zeros, then the digits from 1 - exp10.
    std::memcpy(out, "0.000000", 8);
    char* const digits = out + 1 - exp10;
    digits[0] = d.first;
    std::memcpy(digits + 1, &d.high, 8);
    std::memcpy(digits + 9, &d.low, 8);
    return digits + n;
}
#endif

}  // namespace detail

/// Writes `v` at `out` as `std::to_chars(out, last, v)` does, byte for byte
/// but for NaN (below), and returns one past the last character: the
/// shortest round-trip form: the fewest significant digits that parse back
/// to exactly `v`, in fixed notation when that is not longer than exponent
/// notation: "0.1", "100", "1e+16", "5e-324", "-0", "inf", "-inf", "nan".
/// No locale. `Digits` chooses where the digits come from (double_digits;
/// the text is the same).
///
/// Buffer contract: `out` must have `format_double_room` (34) writable
/// bytes. The text takes at most max_double_chars (24); bytes between the
/// returned pointer and out + 34 may be overwritten (scratch); nothing at or
/// past out + 34 is touched.
///
/// double_digits::zmij: Żmij's own writer (zmij::write) outside [2^-20,
/// 2^80), where its text is std::to_chars' (detail::zmij_writes_to_chars_text:
/// every doubles_out value), its digits in obuf's writer inside
/// (detail::write_shortest_zmij), where std::to_chars chooses between fixed
/// and exponent notation by length. double_digits::dragonbox: Dragonbox's
/// digits in obuf's writer (detail::write_shortest).
///
/// NaN is "nan" or "-nan" by its sign bit everywhere (MSVC's to_chars writes
/// "-nan(ind)" for some).
///
/// Measured on the reference machine (g++ 12 -O2, the 10M doubles_out values
/// each plus '\n' into memory, ns per double, median of 7 interleaved
/// repetitions): Żmij 11.3 (its digits in obuf's writer instead: 16.1),
/// Dragonbox 19.5, std::to_chars 30.0. Always inlined: GCC 12 left it a call,
/// 4 % slower through a cursor (Dragonbox, 252 against 241 ms, best of 7, 1
/// MiB buffer).
template <double_digits Digits = default_double_digits>
IOBENCH_ALWAYS_INLINE char* format_double(char* out, double v) noexcept {
    const auto bits = std::bit_cast<std::uint64_t>(v);
    if constexpr (Digits == double_digits::zmij) {
#if defined(IOBENCH_HAVE_ZMIJ)
        if (detail::zmij_writes_to_chars_text(bits)) return zmij::write(out, zmij::double_buffer_size, v);
        if (bits >> 63) *out++ = '-';
        return detail::write_shortest_zmij(out, v);
#else
        static_assert(Digits != double_digits::zmij, "this build has no Żmij (IOBENCH_HAVE_ZMIJ)");
        return out;
#endif
    } else {
        if (bits >> 63) *out++ = '-';
        constexpr std::uint64_t exponent_mask = 0x7ffULL << 52;
        if ((bits & exponent_mask) == exponent_mask) [[unlikely]] {  // infinity or NaN
            std::memcpy(out, (bits & ~(exponent_mask | 1ULL << 63)) == 0 ? "inf" : "nan", 3);
            return out + 3;
        }
        if ((bits << 1) == 0) [[unlikely]] {  // +0 or -0
            *out = '0';
            return out + 1;
        }
        const auto dec = jkj::dragonbox::to_decimal(v, jkj::dragonbox::policy::sign::ignore);
        return detail::write_shortest(out, v, dec.significand, dec.exponent);
    }
}

}  // namespace iobench
