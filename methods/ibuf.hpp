// ibuf: our own buffered reader over any "source device", parsing white-space
// separated unsigned decimal integers without locale. Header-only, portable
// C++20 (no OS headers): the POSIX file-descriptor device is in fd_device.hpp.
//
// Two ways to read integers: get_uint(v), one number per call, and
// get_uints(span), as many as fit per call. get_uints is the fast one: where
// SSE2 is available (every x86-64 compiler) it classifies 32 bytes at a time
// into white space and digits, so the end of every number in the block is a
// bit of a mask, found without waiting for the number before it; numbers of
// up to 8 digits are then converted two at a time with SSE2 multiply-adds,
// longer ones (up to 16 digits) with 8-byte SWAR steps. The per-call state
// stays in registers. Numbers that touch the end of the buffer
// (split across refills), longer digit runs and errors take an out-of-line
// byte-by-byte path that carries the partial value across refills and names
// the offending byte.
#pragma once

#include <bit>
#include <charconv>
#include <cerrno>
#include <concepts>
#include <cstddef>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <system_error>
#include <utility>

#include "core/error.hpp"
#include "methods/buffer_sizes.hpp"
#include "methods/hot_path.hpp"

/// IOBENCH_HAVE_FAST_FLOAT (set by CMake when fast_float is installed, for
/// every file that includes this header): get_double parses with
/// fast_float::from_chars instead of std::from_chars.
#if defined(IOBENCH_HAVE_FAST_FLOAT)
#include <fast_float/fast_float.h>
#endif

/// IOBENCH_IBUF_SSE2: 1 where ibuf's block parser can use SSE2 (every x86-64
/// target: SSE2 is part of the architecture), 0 elsewhere (the scalar path only).
#if defined(__x86_64__) || defined(_M_X64) || defined(_M_AMD64)
#define IOBENCH_IBUF_SSE2 1
#include <emmintrin.h>
#else
#define IOBENCH_IBUF_SSE2 0
#endif

namespace iobench {

/// A source device: something ibuf can fill its buffer from.
/// `read_some(buf, size)` reads 1 to `size` bytes into `buf` and returns how
/// many, returns 0 at end of file, or throws `iobench::io_error`.
template <class D>
concept source_device = requires(D& d, char* buf, std::size_t size) {
    { d.read_some(buf, size) } -> std::convertible_to<std::size_t>;
};

namespace detail {

/// ASCII white space as in the "C" locale: ' ', '\t', '\n', '\v', '\f', '\r'.
constexpr bool is_space(char c) noexcept {
    return c == ' ' || static_cast<unsigned char>(c) - 9u < 5u;
}

constexpr bool is_digit(char c) noexcept {
    return static_cast<unsigned char>(c) - static_cast<unsigned>('0') < 10u;
}

/// Loads 8 bytes, first byte in the lowest bits on every platform.
inline std::uint64_t load8_le(const char* p) noexcept {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    if constexpr (std::endian::native == std::endian::big) {
        std::uint64_t r = 0;
        for (int i = 0; i < 8; ++i) r |= ((w >> (8 * i)) & 0xFF) << (8 * (7 - i));
        w = r;
    }
    return w;
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
    return (load8_le(first) - 0x3030303030303030ULL) << shift;
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
/// the SSE2 classify32 is tested against.
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
inline const char* parse_uint_blocks(const char* start, const char* end, std::uint64_t*& out,
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
            // A number, if any, ends at e: its digits are [start, e).
            const char* const e = block + static_cast<unsigned>(std::countr_zero(spaces));
            spaces &= spaces - 1;
            const auto len = static_cast<std::size_t>(e - start);
            if (len - 1 < 8) {
                if (spaces != 0) {  // the next number ends in this block too: both at once when it is short
                    const char* const e2 = block + static_cast<unsigned>(std::countr_zero(spaces));
                    const auto len2 = static_cast<std::size_t>(e2 - e - 1);
                    if (len2 - 1 < 8) {
                        spaces &= spaces - 1;
                        eight_digits_x2(digit_lanes(start, len), digit_lanes(e + 1, len2), o);
                        o += 2;
                        start = e2 + 1;
                        continue;
                    }
                }
                *o++ = digits_at(start, len);
            } else if (len - 9 < 8) {  // 9..16 digits: below 10^16, no overflow
                *o++ = digits_at(start, len - 8) * std::uint64_t{100000000} + digits_at(e - 8, 8);
            } else if (len != 0) {
                out = o;
                return start;
            }
            start = e + 1;
        }
        block += 32;
        if (!more) break;
        c = next;
    }
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
        const std::uint64_t w = load8_le(p);
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

/// Longest text basic_ibuf::get_double accepts for one number (the shortest
/// round-trip form of a double takes at most 24 bytes, "%.17g" 24).
inline constexpr std::size_t max_double_chars = 64;

/// The name of the function ibuf's get_double parses with, for the
/// method's description.
inline constexpr const char* double_parser_name =
#if defined(IOBENCH_HAVE_FAST_FLOAT)
    "fast_float::from_chars";
#elif defined(__cpp_lib_to_chars)
    "std::from_chars";
#else
    "strtod";
#endif

#if defined(IOBENCH_HAVE_FAST_FLOAT) || defined(__cpp_lib_to_chars)
#define IOBENCH_IBUF_FROM_CHARS_DOUBLE 1
/// std::from_chars for a double, with its results to the letter: with
/// fast_float, its from_chars (the algorithm GCC 12's std::from_chars runs
/// too, but inlined here: 12 % faster per number, measured), whose older
/// versions (Debian 12's 3.9) report a value beyond double's range as inf or
/// 0 without an error: that is turned into errc::result_out_of_range, as
/// std::from_chars has it ("1e999", "1e-999"; "inf" and "0e999" are fine).
inline std::from_chars_result from_chars_double(const char* first, const char* last, double& v) noexcept {
#if defined(IOBENCH_HAVE_FAST_FLOAT)
    double value;
    const auto r = fast_float::from_chars(first, last, value);
    if (r.ec != std::errc{}) return {r.ptr, r.ec};
    if (value == 0 || value - value != 0) [[unlikely]] {  // 0 or inf (nan - nan is no 0 either)
        const char* p = first + (*first == '-');
        const bool finite_text = is_digit(*p) || *p == '.';  // not "inf", "infinity" or "nan"
        if (finite_text && value != 0 && value == value) return {r.ptr, std::errc::result_out_of_range};
        if (finite_text && value == 0) {  // underflow: a nonzero digit before the exponent
            for (; p != r.ptr && *p != 'e' && *p != 'E'; ++p)
                if (*p >= '1' && *p <= '9') return {r.ptr, std::errc::result_out_of_range};
        }
    }
    v = value;
    return {r.ptr, std::errc{}};
#else
    return std::from_chars(first, last, v);
#endif
}
#endif

/// Parses all of [first, last) as one double, like std::from_chars (no
/// locale, no leading '+'); false when it is not exactly one number in range.
/// Standard libraries without floating-point from_chars fall back to strtod
/// (which honours the C locale: iobench never changes it).
inline bool parse_double(const char* first, const char* last, double& v) noexcept {
#if defined(IOBENCH_IBUF_FROM_CHARS_DOUBLE)
    if (first == last) return false;
    const auto [ptr, ec] = from_chars_double(first, last, v);
    return ec == std::errc{} && ptr == last;
#else
    const auto n = static_cast<std::size_t>(last - first);
    if (n == 0 || n > max_double_chars || *first == '+') return false;
    char text[max_double_chars + 1];
    std::memcpy(text, first, n);
    text[n] = '\0';
    char* end = nullptr;
    errno = 0;
    v = std::strtod(text, &end);
    return end == text + n && errno != ERANGE;
#endif
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
        const std::uint64_t w = detail::load8_le(p);
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

/// A buffered reader over a source device that parses white-space separated
/// unsigned decimal integers.
///
/// The buffer is `buffer_size()` bytes plus 16 bytes of padding for the
/// 8-byte loads of the SWAR parser (which may start at any byte of the
/// buffer) and the NUL sentinel after the last byte read.
/// Any buffer size >= 1 works: a number split across refills (or longer than
/// the whole buffer) is carried over digit by digit.
///
/// Errors: io_error from the device; parse_error from get_uint(). Also
/// std::bad_alloc from the constructor. Not copyable.
template <source_device Device>
class basic_ibuf {
public:
    /// `buffer_size` in bytes; 0 means `obuf_buffer_size`.
    explicit basic_ibuf(Device dev, std::size_t buffer_size = obuf_buffer_size)
        : dev_(std::move(dev)),
          size_(buffer_size == 0 ? obuf_buffer_size : buffer_size),
          buf_(new char[size_ + padding]()),  // zeroed once: padding is defined
          cur_(buf_.get()),
          end_(buf_.get()) {
        *end_ = sentinel;
    }

    basic_ibuf(const basic_ibuf&) = delete;
    basic_ibuf& operator=(const basic_ibuf&) = delete;

    /// Skips ASCII white space and parses one unsigned decimal integer into `v`
    /// (no sign, no locale; leading zeros allowed). The number must end at
    /// white space or at end of input; its terminating white-space byte is
    /// consumed. Returns false (v untouched) when only white space is left.
    /// Throws parse_error -- naming the byte offset in the input and the
    /// offending byte -- on any other byte ('-', '+', a letter, a NUL, ...)
    /// and on a number greater than UINT64_MAX; throws io_error from the device.
    ///
    /// Inlined hot path: a number of 1 to 7 digits followed by white space,
    /// detected and converted with SWAR arithmetic on one 8-byte load (see
    /// detail::leading_digits8 and detail::parse_digits). Everything else --
    /// longer numbers, refills, errors -- is out of line. The buffer always
    /// holds a NUL sentinel at its end, so scanning stops there without a
    /// separate bounds check, and 8-byte loads stay inside buffer + padding.
    IOBENCH_ALWAYS_INLINE bool get_uint(std::uint64_t& v) {
        const char* p = cur_;
        while (detail::is_space(*p)) ++p;  // stops at the sentinel at the latest
        const std::uint64_t w = detail::load8_le(p);
        const unsigned n = detail::leading_digits8(w);
        // n - 1 < 7: 1 to 7 digits, so byte n of w is the terminator; it is
        // not the sentinel (that is no space), so the number ends in the buffer.
        if (n - 1 < 7u && detail::is_space(static_cast<char>(w >> (8 * n)))) [[likely]] {
            v = detail::parse_digits(w, n);
            cur_ = p + n + 1;
            return true;
        }
        return get_uint_more(v, p);
    }

    /// Parses numbers as get_uint() does into `values`, as many as come
    /// before the end of input, up to values.size(), and returns how many:
    /// fewer than values.size() only at end of input, 0 when only white space
    /// is left. The same numbers, the same errors (parse_error naming the
    /// offset and the byte, io_error) as a loop of get_uint(); when it
    /// throws, the numbers this call parsed before the error are lost.
    ///
    /// Faster than get_uint() per number: its position and output stay in
    /// registers across numbers, and with SSE2 a block of 32 bytes is
    /// classified at once (detail::parse_uint_blocks); without SSE2, and at
    /// the end of the buffer, numbers of up to 7 digits take one 8-byte load
    /// each (detail::parse_short_uints); anything else takes get_uint().
    std::size_t get_uints(std::span<std::uint64_t> values) {
        std::uint64_t* out = values.data();
        std::uint64_t* const out_end = out + values.size();
        while (out != out_end) {
            const char* p = cur_;
#if IOBENCH_IBUF_SSE2
            p = detail::parse_uint_blocks(p, end_, out, out_end);
#endif
            cur_ = detail::parse_short_uints(p, out, out_end);
            if (out == out_end) break;
            if (!get_uint_more(*out, cur_)) break;  // cur_ is at a non-space byte (or the sentinel)
            ++out;
        }
        return static_cast<std::size_t>(out - values.data());
    }

    /// Skips ASCII white space and parses one floating-point number into `v`
    /// as std::from_chars does (decimal or scientific, "inf"/"nan"; no locale,
    /// no leading '+'; detail::from_chars_double: fast_float where built with
    /// it), exact: the nearest double, as std::to_chars'
    /// shortest form and "%.17g" need to round-trip. The number must end at
    /// white space or at end of input; its terminating white-space byte is
    /// consumed. Returns false (v untouched) when only white space is left.
    /// Throws parse_error -- naming the byte offset -- on text that is not a
    /// number, is out of double's range, or is longer than
    /// detail::max_double_chars bytes; throws io_error from the device.
    ///
    /// Inlined hot path (double_in_buffer): from_chars parses in place up to
    /// the end of the buffer and stops where the number does; when white space follows
    /// inside the buffer, that is the whole number. Anything else -- a
    /// number that may go on after a refill, an error -- takes the
    /// out-of-line path, which carries the text across refills in a small
    /// local copy and parses that.
    IOBENCH_ALWAYS_INLINE bool get_double(double& v) {
        const char* p = cur_;
        while (detail::is_space(*p)) ++p;  // stops at the sentinel at the latest
        const char* const q = double_in_buffer(p, v);
        if (q != nullptr) [[likely]] {
            cur_ = q;
            return true;
        }
        return get_double_slow(v, p);
    }

    /// Parses numbers as get_double() does into `values`, as many as come
    /// before the end of input, up to values.size(), and returns how many:
    /// fewer than values.size() only at end of input, 0 when only white
    /// space is left. The same numbers and errors as a loop of get_double();
    /// when it throws, the numbers this call parsed before the error are
    /// lost. Faster per number than get_double(): the position in the
    /// buffer stays in a register from one number to the next.
    std::size_t get_doubles(std::span<double> values) {
        double* out = values.data();
        double* const out_end = out + values.size();
        const char* p = cur_;
        while (out != out_end) {
            while (detail::is_space(*p)) ++p;  // stops at the sentinel at the latest
            const char* const q = double_in_buffer(p, *out);
            if (q != nullptr) [[likely]] {
                p = q;
                ++out;
                continue;
            }
            const bool got = get_double_slow(*out, p);  // moves cur_ (and may refill)
            p = cur_;
            if (!got) break;
            ++out;
        }
        cur_ = p;
        return static_cast<std::size_t>(out - values.data());
    }

    /// Bytes consumed from the device so far (offset of the next unread byte).
    std::uint64_t offset() const noexcept { return offset_of(cur_); }

    /// Capacity of the buffer in bytes (without the padding).
    std::size_t buffer_size() const noexcept { return size_; }

    /// The device (to close it when done, say).
    Device& device() noexcept { return dev_; }
    const Device& device() const noexcept { return dev_; }

private:
    static constexpr std::size_t padding = 16;  // sentinel + 8-byte loads past it
    static constexpr char sentinel = '\0';     // neither digit nor white space

    std::uint64_t offset_of(const char* p) const noexcept {
        return base_ + static_cast<std::uint64_t>(p - buf_.get());
    }

    /// get_uint() for everything but a short number: `p` is the first
    /// non-space byte at or after cur_ (possibly the sentinel at end_).
    IOBENCH_NOINLINE bool get_uint_more(std::uint64_t& v, const char* p) {
        if (p == end_) return get_uint_slow(v, p);
        // p < end_: every 8-byte load below stays within buffer + padding,
        // because a digit run stops at the sentinel *end_ at the latest.
        std::uint64_t w = detail::load8_le(p);
        unsigned n = detail::leading_digits8(w);
        if (n == 0) throw_unexpected(p);
        std::uint64_t value = detail::parse_digits(w, n);
        const char* q = p + n;
        if (n == 8) {
            unsigned total = 8;
            for (;;) {
                w = detail::load8_le(q);
                n = detail::leading_digits8(w);
                if (n == 0) break;
                total += n;
                if (total > 19) return get_uint_slow(v, p);  // might overflow
                value = value * detail::pow10_small[n] + detail::parse_digits(w, n);
                q += n;
                if (n < 8) break;
            }
        }
        if (q == end_) return get_uint_slow(v, p);  // may go on after a refill
        if (!detail::is_space(*q)) throw_unexpected(q);
        cur_ = q + 1;
        v = value;
        return true;
    }

    /// The double at `p` (the first byte after white space) when it ends in
    /// white space inside the buffer: stores it in `v` and returns the byte
    /// after that white space. nullptr, `v` untouched, for anything else: a
    /// number that may go on after a refill, not a number, an error.
    IOBENCH_ALWAYS_INLINE const char* double_in_buffer(const char* p, double& v) const noexcept {
#if defined(IOBENCH_IBUF_FROM_CHARS_DOUBLE)
        // Parses in place up to the end of the buffer: from_chars stops
        // where the number does.
        double value;
        const auto [q, ec] = detail::from_chars_double(p, static_cast<const char*>(end_), value);
        // (A number longer than max_double_chars is an error wherever it
        // stands: get_double_slow says so.)
        if (ec == std::errc{} && q != end_ && detail::is_space(*q) &&
            static_cast<std::size_t>(q - p) <= detail::max_double_chars) [[likely]] {
            v = value;
            return q + 1;
        }
#else
        const char* q = p;
        while (*q != sentinel && !detail::is_space(*q)) ++q;
        if (q != end_ && q != p && *q != sentinel && detail::parse_double(p, q, v)) return q + 1;
#endif
        return nullptr;
    }

    /// Replaces the buffer contents with the next bytes of the device.
    /// Returns false at end of input.
    bool refill() {
        char* const begin = buf_.get();
        base_ += static_cast<std::uint64_t>(end_ - begin);
        cur_ = end_ = begin;
        if (!eof_) {
            const std::size_t n = dev_.read_some(begin, size_);
            if (n == 0) eof_ = true;
            end_ = begin + (n < size_ ? n : size_);
        }
        *end_ = sentinel;
        return end_ != begin;
    }

    /// Byte-by-byte get_uint starting at `p` (no digit of the number consumed
    /// yet), refilling as needed and carrying the partial value across refills.
    IOBENCH_NOINLINE bool get_uint_slow(std::uint64_t& v, const char* p) {
        cur_ = p;
        for (;;) {  // skip white space
            while (cur_ != end_ && detail::is_space(*cur_)) ++cur_;
            if (cur_ != end_) break;
            if (!refill()) return false;
        }
        if (!detail::is_digit(*cur_)) throw_unexpected(cur_);
        const std::uint64_t start = offset_of(cur_);
        std::uint64_t value = 0;
        for (;;) {
            while (cur_ != end_ && detail::is_digit(*cur_)) {
                const auto d = static_cast<unsigned>(*cur_ - '0');
                if (value > (UINT64_MAX - d) / 10) throw_overflow(start);
                value = value * 10 + d;
                ++cur_;
            }
            if (cur_ != end_) break;
            if (!refill()) {  // end of input ends the number
                v = value;
                return true;
            }
        }
        if (!detail::is_space(*cur_)) throw_unexpected(cur_);
        ++cur_;
        v = value;
        return true;
    }

    /// Byte-by-byte get_double from `p` (nothing of the number consumed
    /// yet): gathers the number into a local copy across refills, then parses it.
    IOBENCH_NOINLINE bool get_double_slow(double& v, const char* p) {
        cur_ = p;
        for (;;) {  // skip white space
            while (cur_ != end_ && detail::is_space(*cur_)) ++cur_;
            if (cur_ != end_) break;
            if (!refill()) return false;
        }
        const std::uint64_t start = offset_of(cur_);
        char text[detail::max_double_chars];
        std::size_t n = 0;
        for (;;) {
            while (cur_ != end_ && !detail::is_space(*cur_)) {
                if (n == sizeof text) throw_double_too_long(start);
                text[n++] = *cur_++;
            }
            if (cur_ != end_ || !refill()) break;
        }
        if (!detail::parse_double(text, text + n, v))
            throw parse_error("ibuf: not a floating-point number at byte offset " + std::to_string(start) + ": \"" +
                              std::string(text, n) + "\"");
        if (cur_ != end_) ++cur_;  // the white space that ended it
        return true;
    }

    [[noreturn]] IOBENCH_NOINLINE void throw_double_too_long(std::uint64_t start) const {
        throw parse_error("ibuf: number at byte offset " + std::to_string(start) + " is longer than " +
                          std::to_string(detail::max_double_chars) + " bytes");
    }

    [[noreturn]] IOBENCH_NOINLINE void throw_unexpected(const char* p) const {
        const auto c = static_cast<unsigned char>(*p);
        static constexpr char hex[] = "0123456789abcdef";
        std::string msg = "ibuf: unexpected byte ";
        if (c >= 0x20 && c < 0x7F) {
            msg += '\'';
            msg += static_cast<char>(c);
            msg += "' ";
        }
        msg += "(0x";
        msg += hex[c >> 4];
        msg += hex[c & 15];
        msg += ") at byte offset " + std::to_string(offset_of(p)) +
               ": expected a decimal digit or white space";
        throw parse_error(msg);
    }

    [[noreturn]] IOBENCH_NOINLINE void throw_overflow(std::uint64_t start) const {
        throw parse_error("ibuf: number at byte offset " + std::to_string(start) +
                          " is greater than 18446744073709551615 (UINT64_MAX)");
    }

    Device dev_;
    std::size_t size_;
    std::unique_ptr<char[]> buf_;
    const char* cur_;
    char* end_;
    std::uint64_t base_ = 0;  // input offset of buf_[0]
    bool eof_ = false;
};

}  // namespace iobench
