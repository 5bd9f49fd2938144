// Decimal text of unsigned integers for obuf (methods/obuf.hpp): format_uint,
// which writes 8 digits at a time from a table of four-digit groups.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace iobench {

/// Most bytes `format_uint` produces: the 20 digits of UINT64_MAX.
inline constexpr std::size_t max_uint_digits = 20;

namespace detail {

inline constexpr std::uint64_t ascii_zeros = 0x3030303030303030ULL;

/// The 10,000 four-digit groups "0000" .. "9999" as 4 ASCII bytes each, in
/// the order a little-endian 32-bit load/store puts them in memory (first
/// digit in the lowest byte). 40 KB.
struct quad_table {
    std::uint32_t v[10000];
};

/// Entry i of the four-digit table.
constexpr std::uint32_t quad_entry(std::uint32_t i) noexcept {
    return ('0' + i / 1000) | ('0' + i / 100 % 10) << 8 | ('0' + i / 10 % 10) << 16 |
           ('0' + i % 10) << 24;
}

#if defined(_MSC_VER) && !defined(__clang__)
// MSVC stops constexpr evaluation after 100,000 steps by default
// (/constexpr:steps), too few for 10,000 entries: build the table at run time
// on first use (a non-constexpr builder, so no constant evaluation is tried).
inline quad_table build_quad_table() noexcept {
    quad_table t{};
    for (std::uint32_t i = 0; i < 10000; ++i) t.v[i] = quad_entry(i);
    return t;
}
inline const std::uint32_t* quads() noexcept {
    static const quad_table table = build_quad_table();
    return table.v;
}
#else
constexpr quad_table make_quad_table() noexcept {
    quad_table t{};
    for (std::uint32_t i = 0; i < 10000; ++i) t.v[i] = quad_entry(i);
    return t;
}
inline constexpr quad_table quad_table_instance = make_quad_table();
inline const std::uint32_t* quads() noexcept { return quad_table_instance.v; }
#endif

/// For n < 100,000,000: the 8 ASCII digits of n with leading zeros, first
/// digit in the lowest byte. n is split into two 4-digit groups with a
/// fixed-point reciprocal multiply (n / 10000 == (n * 109951163) >> 40 for all
/// n < 10^8, checked exhaustively; the idea of James Anhalt's itoa and of
/// compilers' division by constants), and each group is looked up in the
/// four-digit table.
inline std::uint64_t ascii8(std::uint32_t n) noexcept {
    const std::uint64_t hi = (std::uint64_t{n} * 109951163) >> 40;
    const std::uint64_t lo = n - hi * 10000;
    const std::uint32_t* const q = quads();
    return (std::uint64_t{q[lo]} << 32) | q[hi];
}

/// Writes n < 1e8 as exactly 8 digits (leading zeros kept). Stores 8 bytes.
inline char* write8(char* out, std::uint32_t n) noexcept {
    const std::uint64_t w = ascii8(n);
    std::memcpy(out, &w, 8);
    return out + 8;
}

/// Writes n < 1e8 without leading zeros ("0" for 0). Always stores 8 bytes at
/// `out`; the bytes past the returned pointer are scratch.
inline char* write_trimmed8(char* out, std::uint32_t n) noexcept {
    const std::uint64_t a = ascii8(n);
    // Leading '0' digits are the low bytes that are zero after XOR with '0's.
    // Bit 63 is never set there (a digit XOR '0' is < 16), so OR-ing it in caps
    // the count at byte 7 -- 0 prints as "0", the shift stays below 64 -- and
    // countr_zero needs no zero check on CPUs without TZCNT.
    const unsigned bits = static_cast<unsigned>(std::countr_zero((a ^ ascii_zeros) | (1ULL << 63))) & 56;
    const std::uint64_t w = a >> bits;  // the vacated top bytes are scratch
    std::memcpy(out, &w, 8);
    return out + 8 - (bits >> 3);
}

/// Portable fallback for big-endian targets: digits written backwards.
inline char* format_uint_generic(char* out, std::uint64_t v) noexcept {
    char tmp[max_uint_digits];
    char* p = tmp + max_uint_digits;
    do {
        *--p = static_cast<char>('0' + v % 10);
        v /= 10;
    } while (v != 0);
    const std::size_t n = static_cast<std::size_t>(tmp + max_uint_digits - p);
    std::memcpy(out, p, n);
    return out + n;
}

}  // namespace detail

/// Writes `v` in decimal (no sign, no leading zeros, no locale) at `out` and
/// returns one past the last digit (1 to 20 digits).
///
/// Buffer contract: `out` must have at least `max_uint_digits` (20) writable
/// bytes. The formatter stores 8 bytes at a time, so for results shorter than
/// 8 digits it overwrites up to 8 bytes at `out`: bytes between the returned
/// pointer and out + 8 are scratch and hold garbage afterwards. Nothing at or
/// past out + max(8, digit count) is touched.
///
/// Algorithm (little-endian targets): v is cut into 8-digit groups with
/// divisions by the constant 10^8 (multiplies after compilation); each group
/// into two 4-digit halves with a fixed-point reciprocal multiply (after the
/// idea of James Anhalt's itoa); each half is one load from a 40 KB table of
/// the four-digit strings "0000".."9999", and the leading zeros of the first
/// group are dropped with one count-trailing-zeros and shift -- no loop and no
/// branch for values below 10^8. Measured on the reference machine (g++ 12
/// -O2): 0..9,999,999 each plus '\n' into memory in ~14 ms, ~1.4 ns per
/// number (std::to_chars: 30-40 ms). Big-endian targets use a plain digit loop.
inline char* format_uint(char* out, std::uint64_t v) noexcept {
    if constexpr (std::endian::native != std::endian::little) {
        return detail::format_uint_generic(out, v);
    } else {
        constexpr std::uint64_t e8 = 100000000;
        if (v < e8) return detail::write_trimmed8(out, static_cast<std::uint32_t>(v));
        const std::uint64_t hi = v / e8;
        const auto lo = static_cast<std::uint32_t>(v - hi * e8);
        if (hi < e8) {
            out = detail::write_trimmed8(out, static_cast<std::uint32_t>(hi));
        } else {
            const std::uint64_t top = hi / e8;  // < 1,845
            out = detail::write_trimmed8(out, static_cast<std::uint32_t>(top));
            out = detail::write8(out, static_cast<std::uint32_t>(hi - top * e8));
        }
        return detail::write8(out, lo);
    }
}

}  // namespace iobench
