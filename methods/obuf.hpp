// obuf: our own buffered writer over any "sink device", plus fast formatters
// of unsigned integers and (with Dragonbox's shortest digits) doubles.
// Header-only and portable C++20 (no OS headers): the POSIX file-descriptor
// device lives in fd_device.hpp, the Windows HANDLE device in
// win32_device.hpp.
//
// Purpose: show how close a buffered method can get to the memory-bound limit
// (docs/design.md). The hot operations -- put(), a small write(), put_uint(),
// put_double() -- are an inlined bounds check plus a short copy or an
// in-place format;
// everything else (flushing, huge writes, the last few bytes before a full
// buffer) is in out-of-line slow paths.
#pragma once

#include <bit>
#include <charconv>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <utility>

#include <dragonbox/dragonbox.h>

#include "methods/buffer_sizes.hpp"
#include "methods/hot_path.hpp"


namespace iobench {

/// A sink device: something obuf can hand full buffers to.
/// `write_all(data, size)` writes all `size` bytes (looping on short writes and
/// EINTR) or throws `iobench::io_error`.
template <class D>
concept sink_device = requires(D& d, const char* data, std::size_t size) {
    d.write_all(data, size);
};

/// A hand-off device: it owns obuf's buffers, takes each full one to write in
/// the background and hands back an empty one, so that obuf formats into the
/// next buffer while the last is being written (methods/obuf_overlapped.cpp).
/// - `start(capacity)` allocates its buffers of `capacity` bytes each and
///   returns the first to fill (called once, by obuf's constructor).
/// - `hand_off(full, n)` takes `full` (a buffer it returned) holding the next
///   `n` bytes of the output (n may be 0) and returns an empty buffer, waiting
///   for one when every other is still being written. When it throws
///   (io_error: a write that failed), it has not taken `full`.
/// - `finish()` waits until every byte handed off is written; throws the
///   first error of a write (io_error).
template <class D>
concept handoff_device = requires(D& d, char* full, std::size_t n) {
    { d.start(n) } -> std::same_as<char*>;
    { d.hand_off(full, n) } -> std::same_as<char*>;
    d.finish();
};

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

/// Copies 1 to 32 bytes without a call to memcpy (which a runtime size would
/// otherwise cost): two possibly overlapping loads and stores of the largest
/// power of two <= n. Fixed-size memcpy calls compile to plain moves (16-byte
/// ones to SSE2 moves).
IOBENCH_ALWAYS_INLINE void copy_small(char* dst, const char* src, std::size_t n) noexcept {
    if (n >= 16) {
        char a[16], b[16];
        std::memcpy(a, src, 16);
        std::memcpy(b, src + n - 16, 16);
        std::memcpy(dst, a, 16);
        std::memcpy(dst + n - 16, b, 16);
    } else if (n >= 8) {
        std::uint64_t a, b;
        std::memcpy(&a, src, 8);
        std::memcpy(&b, src + n - 8, 8);
        std::memcpy(dst, &a, 8);
        std::memcpy(dst + n - 8, &b, 8);
    } else if (n >= 4) {
        std::uint32_t a, b;
        std::memcpy(&a, src, 4);
        std::memcpy(&b, src + n - 4, 4);
        std::memcpy(dst, &a, 4);
        std::memcpy(dst + n - 4, &b, 4);
    } else {  // 1..3
        const char a = src[0], b = src[n / 2], c = src[n - 1];
        dst[0] = a;
        dst[n / 2] = b;
        dst[n - 1] = c;
    }
}

/// The hot path of obuf's write(), for obuf's own position and a cursor's:
/// when the `size` bytes at `data` fit before `end`, copies them to `cur`
/// (copy_small up to 32 bytes, memcpy beyond) and advances `cur`; returns
/// false, copying nothing, when they do not fit or `size` is 0 (size - 1
/// wraps, so memcpy never sees the null pointer an empty write may pass).
IOBENCH_ALWAYS_INLINE bool copy_if_room(char*& cur, const char* end, const char* data, std::size_t size) noexcept {
    if (size - 1 >= static_cast<std::size_t>(end - cur)) return false;
    if (size <= 32)
        copy_small(cur, data, size);
    else
        std::memcpy(cur, data, size);
    cur += size;
    return true;
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

/// Most bytes `format_double` produces: "-2.2250738585072014e-308" (sign,
/// 17 significant digits, point, 'e', exponent sign and 3 digits).
inline constexpr std::size_t max_double_chars = 24;

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

}  // namespace detail

/// Writes `v` at `out` as `std::to_chars(out, last, v)` does, byte for byte
/// but for NaN (below), and returns one past the last character: the
/// shortest round-trip form: the fewest significant digits that parse back
/// to exactly `v`, in fixed notation when that is not longer than exponent
/// notation: "0.1", "100", "1e+16", "5e-324", "-0", "inf", "-inf", "nan".
/// No locale.
///
/// Buffer contract: `out` must have `max_double_chars` (24) writable bytes.
/// Bytes between the returned pointer and out + 24 may be overwritten
/// (scratch); nothing at or past out + 24 is touched.
///
/// Algorithm: the shortest digits and their exponent come from Dragonbox
/// (Junekey Jeon, "Dragonbox: A New Floating-Point Binary-to-Decimal
/// Conversion Algorithm", 2020; the library's documented
/// `jkj::dragonbox::to_decimal`). Exponent notation, the common case, takes
/// the same steps for every digit count n (no branch to mispredict between
/// 16 and 17 digits): the digits scaled to 17, the first digit, the point and
/// two groups of 8 (write8), of which the first n - 1 digits count. Fixed
/// notation (about 1e-4 <= |v| < 1e22: rare in doubles_out) writes them with
/// format_uint and moves them around the point; an integer with trailing
/// zeros is printed exactly, as std::to_chars does ("123456789012345683968"
/// rather than "123456789012345680000": of the texts of that length, the one
/// closest to v). NaN is "nan" or "-nan" by its sign bit everywhere (MSVC's
/// to_chars writes "-nan(ind)" for some).
///
/// Measured on the reference machine (g++ 12 -O2, the 10M doubles_out values
/// each plus '\n' into a 64 KiB obuf whose device discards the bytes, CPU
/// time, best of 7): 235 ms (Dragonbox's to_decimal alone 128 ms);
/// std::to_chars into a local buffer, then obuf.write: 346 ms; {fmt} 9.1's
/// `format_to(out, FMT_COMPILE("{}\n"), v)` into memory: 427 ms. Always
/// inlined: GCC 12 left it a call, 4 % slower through a cursor (252 against
/// 241 ms, best of 7, 1 MiB buffer).
IOBENCH_ALWAYS_INLINE char* format_double(char* out, double v) noexcept {
    const auto bits = std::bit_cast<std::uint64_t>(v);
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
    const int n = detail::decimal_length17(dec.significand);
    const int exp10 = dec.exponent + n - 1;  // of the first digit: |v| = d.ddd * 10^exp10
    const int abs_exp10 = exp10 < 0 ? -exp10 : exp10;
    const int exponent_length = n + (n > 1) + 2 + (abs_exp10 >= 100 ? 3 : 2);
    const int fixed_length = dec.exponent >= 0 ? n + dec.exponent : exp10 >= 0 ? n + 1 : n + 1 - exp10;
    if (fixed_length > exponent_length) [[likely]] {  // d[.ddd]e+XX
        // The digits scaled to 17 (trailing zeros past the n-th are scratch):
        // the first, the point, two groups of 8. The same steps for every n.
        const std::uint64_t d17 = dec.significand * detail::powers_of_10[17 - n];
        const std::uint64_t first = d17 / 10000000000000000ULL;
        const std::uint64_t rest = d17 - first * 10000000000000000ULL;
        const std::uint64_t high8 = rest / 100000000;
        out[0] = static_cast<char>('0' + first);
        out[1] = '.';
        detail::write8(out + 2, static_cast<std::uint32_t>(high8));
        detail::write8(out + 10, static_cast<std::uint32_t>(rest - high8 * 100000000));
        char* end = n > 1 ? out + 1 + n : out + 1;
        end[0] = 'e';
        end[1] = exp10 < 0 ? '-' : '+';
        end += 2;
        if (abs_exp10 >= 100) {
            end[0] = static_cast<char>('0' + abs_exp10 / 100);
            const int two = abs_exp10 % 100;
            end[1] = static_cast<char>('0' + two / 10);
            end[2] = static_cast<char>('0' + two % 10);
            return end + 3;
        }
        end[0] = static_cast<char>('0' + abs_exp10 / 10);
        end[1] = static_cast<char>('0' + abs_exp10 % 10);
        return end + 2;
    }
    if (dec.exponent > 0) {  // an integer with trailing zeros: std::to_chars prints it exactly
        const double magnitude = v < 0 ? -v : v;
        if (magnitude < 0x1p64) return format_uint(out, static_cast<std::uint64_t>(magnitude));
        return std::to_chars(out, out + max_double_chars, magnitude).ptr;  // 2^64 <= |v| < 1e23: rare
    }
    // The n digits at out + 1, then moved into place.
    char* const digits = out + 1;
    char* const end = format_uint(digits, dec.significand);
    if (exp10 >= 0) {  // ddd or dd.ddd: the integer digits one place left, then the point
        std::memmove(out, digits, static_cast<std::size_t>(exp10 + 1));
        if (dec.exponent == 0) return out + n;
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

/// A buffered writer over a sink device.
///
/// Bytes are collected in a heap buffer of `buffer_size()` bytes and handed to
/// the device in full-buffer chunks (exactly `buffer_size()` bytes each, except
/// the last chunk written by flush()). A write() of `buffer_size()` bytes or
/// more flushes the buffer and goes straight to the device.
///
/// Destructor policy: the destructor does NOT flush. Callers must call
/// flush() before the obuf is destroyed; bytes still buffered at destruction
/// are discarded (pending() tells how many). This keeps write errors from being
/// lost: a destructor cannot throw, and swallowing a failed final write would
/// report a truncated file as success.
///
/// Errors: every operation that reaches the device may throw what the device
/// throws (`iobench::io_error`). After a throw the buffered bytes are dropped
/// and how many of them reached the device is unspecified; the obuf itself
/// stays usable. Also throws std::bad_alloc from the constructor.
///
/// Over a hand-off device (handoff_device) the buffers are the device's:
/// each full buffer is handed off (`buffer_size()` bytes, as above; a big
/// write() is copied through the buffers too) and the device gives the next
/// one at once, unless all are being written. flush() hands off the last
/// bytes and waits until everything is written (the device's finish()). A
/// failed write is reported by the next hand-off or flush; after one, every
/// later hand-off and flush reports it again (nothing more is written).
///
/// Not copyable (it owns its buffer and the device is used by one writer).
template <class Device>
    requires sink_device<Device> || handoff_device<Device>
class basic_obuf {
    static constexpr bool hands_off = handoff_device<Device>;

public:
    /// `buffer_size` in bytes; 0 means `obuf_buffer_size`. Any size >= 1 works.
    explicit basic_obuf(Device dev, std::size_t buffer_size = obuf_buffer_size)
        : dev_(std::move(dev)),
          size_(buffer_size == 0 ? obuf_buffer_size : buffer_size),
          // At least 32 bytes, so that no compiler sees put_uint's 8-byte
          // stores (only reached with >= 20 bytes free) aim past a tiny buffer.
          buf_(hands_off ? nullptr : new char[size_ < 32 ? 32 : size_]),
          cur_(first_buffer()),
          end_(cur_ + size_) {}

    basic_obuf(const basic_obuf&) = delete;
    basic_obuf& operator=(const basic_obuf&) = delete;

    /// Does not flush: see the class comment.
    ~basic_obuf() = default;

    /// Appends one byte.
    IOBENCH_ALWAYS_INLINE void put(char c) {
        if (cur_ == end_) [[unlikely]] flush_full();
        *cur_++ = c;
    }

    /// Appends `size` bytes from `data` (which may be null when size is 0).
    /// A write that fits is an inlined bounds check and copy (no call for up
    /// to 32 bytes, even when the size is only known at run time).
    IOBENCH_ALWAYS_INLINE void write(const char* data, std::size_t size) {
        if (!detail::copy_if_room(cur_, end_, data, size)) [[unlikely]]
            write_slow(data, size);
    }

    /// Appends the bytes of `s`.
    IOBENCH_ALWAYS_INLINE void write(std::string_view s) { write(s.data(), s.size()); }

    /// Appends `v` in decimal (see format_uint), formatted straight into the
    /// buffer when at least 20 bytes are free.
    IOBENCH_ALWAYS_INLINE void put_uint(std::uint64_t v) {
        if (static_cast<std::size_t>(end_ - cur_) >= max_uint_digits) [[likely]] {
            cur_ = format_uint(cur_, v);
        } else {
            put_uint_slow(v);
        }
    }

    /// Appends `v` in its shortest round-trip form (see format_double),
    /// formatted straight into the buffer when at least max_double_chars
    /// bytes are free.
    IOBENCH_ALWAYS_INLINE void put_double(double v) {
        if (static_cast<std::size_t>(end_ - cur_) >= max_double_chars) [[likely]] {
            cur_ = format_double(cur_, v);
        } else {
            put_double_slow(v);
        }
    }

    /// obuf's write position held in a local object for a hot loop: the same
    /// put(), write(), put_uint() and put_double() as basic_obuf, with the same
    /// output, but the position and the buffer's end are copies the compiler can
    /// keep in registers. Writes through obuf's own members must be reloaded
    /// after every byte copied (a char store may alias them): 3 memory
    /// operations per write() of a short line that a cursor does not make. The
    /// cursor's address must not escape (it is used by value in one function);
    /// its slow paths pass the position to the obuf by value.
    ///
    /// The obuf must not be used while a cursor over it is alive; the cursor's
    /// destructor gives the position back (not when it is destroyed by an
    /// exception its own slow path threw: the obuf has already dropped its
    /// buffered bytes then, as its class comment says). Errors: what the obuf's
    /// operations throw; after one, the cursor stays usable, as the obuf does.
    class cursor {
    public:
        /// Takes over `out`'s position until the cursor is destroyed.
        explicit cursor(basic_obuf& out) noexcept : out_(out), cur_(out.cur_), end_(out.end_) {}
        cursor(const cursor&) = delete;
        cursor& operator=(const cursor&) = delete;
        /// Gives the position back to the obuf (unless a slow path threw: see above).
        ~cursor() {
            if (cur_ != nullptr) out_.cur_ = cur_;
        }

        /// Appends one byte.
        IOBENCH_ALWAYS_INLINE void put(char c) {
            if (cur_ != end_) [[likely]]
                *cur_++ = c;
            else
                slow([&](char* cur) { return out_.put_at(cur, c); });
        }

        /// Appends `size` bytes from `data` (which may be null when size is 0).
        IOBENCH_ALWAYS_INLINE void write(const char* data, std::size_t size) {
            if (!detail::copy_if_room(cur_, end_, data, size)) [[unlikely]]
                slow([&](char* cur) { return out_.write_at(cur, data, size); });
        }

        /// Appends the bytes of `s`.
        IOBENCH_ALWAYS_INLINE void write(std::string_view s) { write(s.data(), s.size()); }

        /// Appends `v` in decimal (see format_uint).
        IOBENCH_ALWAYS_INLINE void put_uint(std::uint64_t v) {
            if (static_cast<std::size_t>(end_ - cur_) >= max_uint_digits) [[likely]]
                cur_ = format_uint(cur_, v);
            else
                slow([&](char* cur) { return out_.put_uint_at(cur, v); });
        }

        /// Appends `v` in its shortest round-trip form (see format_double).
        IOBENCH_ALWAYS_INLINE void put_double(double v) {
            if (static_cast<std::size_t>(end_ - cur_) >= max_double_chars) [[likely]]
                cur_ = format_double(cur_, v);
            else
                slow([&](char* cur) { return out_.put_double_at(cur, v); });
        }

    private:
        /// Runs a slow path of the obuf with the position by value. While it runs
        /// the cursor holds no position and no room (both null), so that when the
        /// slow path throws, the destructor leaves the obuf's position alone, and
        /// a caller that catches the error and writes on through the cursor takes
        /// the slow path again, from the obuf's own position.
        template <class F>
        IOBENCH_ALWAYS_INLINE void slow(F&& f) {
            char* const cur = cur_ != nullptr ? cur_ : out_.cur_;
            cur_ = nullptr;
            end_ = nullptr;
            cur_ = f(cur);
            end_ = out_.end_;
        }

        basic_obuf& out_;
        char* cur_;
        char* end_;
    };

    /// Hands the buffered bytes to the device (a hand-off device: and waits
    /// until every byte handed off is written). Throws what the device throws
    /// (io_error); the buffer is empty afterwards either way.
    void flush() {
        if constexpr (hands_off) {
            hand_off_buffer();
            dev_.finish();
        } else {
            char* const begin = buf_.get();
            const auto n = static_cast<std::size_t>(cur_ - begin);
            cur_ = begin;
            if (n != 0) dev_.write_all(begin, n);
        }
    }

    /// Capacity of the buffer in bytes.
    std::size_t buffer_size() const noexcept { return size_; }

    /// Bytes buffered and not yet handed to the device.
    std::size_t pending() const noexcept { return size_ - static_cast<std::size_t>(end_ - cur_); }

    /// The device (to close it after the final flush, say).
    Device& device() noexcept { return dev_; }
    const Device& device() const noexcept { return dev_; }

private:
    /// The buffer to fill first: obuf's own, or the hand-off device's.
    char* first_buffer() {
        if constexpr (hands_off)
            return dev_.start(size_ < 32 ? 32 : size_);
        else
            return buf_.get();
    }

    /// Hand-off devices: hands the buffered bytes to the device and fills the
    /// buffer it gives back. When the device throws, the bytes are dropped
    /// and the same buffer is filled again.
    void hand_off_buffer() {
        char* const begin = end_ - size_;
        const auto n = static_cast<std::size_t>(cur_ - begin);
        cur_ = begin;
        char* const next = dev_.hand_off(begin, n);
        cur_ = next;
        end_ = next + size_;
    }

    /// The slow paths for a cursor: take its position `cur` by value (so that
    /// the cursor's address never escapes and its position stays in
    /// registers), run obuf's own operation from there (which may find room
    /// after all: a cursor that caught an error comes here with none) and
    /// return the position afterwards (end_ may change too).
    IOBENCH_NOINLINE char* put_at(char* cur, char c) {
        cur_ = cur;
        put(c);
        return cur_;
    }
    IOBENCH_NOINLINE char* write_at(char* cur, const char* data, std::size_t size) {
        cur_ = cur;
        write(data, size);
        return cur_;
    }
    IOBENCH_NOINLINE char* put_uint_at(char* cur, std::uint64_t v) {
        cur_ = cur;
        put_uint(v);
        return cur_;
    }
    IOBENCH_NOINLINE char* put_double_at(char* cur, double v) {
        cur_ = cur;
        put_double(v);
        return cur_;
    }

    IOBENCH_NOINLINE void flush_full() {
        if constexpr (hands_off)
            hand_off_buffer();
        else
            flush();
    }

    IOBENCH_NOINLINE void write_slow(const char* data, std::size_t size) {
        if (size == 0) return;
        if constexpr (hands_off) {  // through the buffers, one full buffer at a time
            for (auto room = static_cast<std::size_t>(end_ - cur_); size > room; room = size_) {
                std::memcpy(cur_, data, room);
                cur_ = end_;
                data += room;
                size -= room;
                hand_off_buffer();
            }
            std::memcpy(cur_, data, size);
            cur_ += size;
            return;
        } else if (size >= size_) {  // bigger than the whole buffer: straight through
            flush();
            dev_.write_all(data, size);
            return;
        }
        // Fill the buffer, flush it as one full chunk, buffer the rest.
        const auto room = static_cast<std::size_t>(end_ - cur_);
        std::memcpy(cur_, data, room);
        cur_ = end_;
        flush();
        std::memcpy(cur_, data + room, size - room);
        cur_ += size - room;
    }

    IOBENCH_NOINLINE void put_uint_slow(std::uint64_t v) {
        char tmp[max_uint_digits];
        const auto n = static_cast<std::size_t>(format_uint(tmp, v) - tmp);
        if (n <= static_cast<std::size_t>(end_ - cur_)) {
            std::memcpy(cur_, tmp, n);
            cur_ += n;
        } else {
            write_slow(tmp, n);
        }
    }

    IOBENCH_NOINLINE void put_double_slow(double v) {
        char tmp[max_double_chars];
        const auto n = static_cast<std::size_t>(format_double(tmp, v) - tmp);
        if (n <= static_cast<std::size_t>(end_ - cur_)) {
            std::memcpy(cur_, tmp, n);
            cur_ += n;
        } else {
            write_slow(tmp, n);
        }
    }

    Device dev_;
    std::size_t size_;
    std::unique_ptr<char[]> buf_;
    char* cur_;
    char* end_;
};

}  // namespace iobench
