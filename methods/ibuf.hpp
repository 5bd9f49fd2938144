// ibuf: our own buffered reader over any "source device", parsing white-space
// separated unsigned decimal integers without locale. Header-only, portable
// C++20 (no OS headers): the POSIX file-descriptor device is in fd_device.hpp.
//
// The hot path parses a number 8 digits per step with SWAR arithmetic inside
// the buffer; numbers that touch the end of the buffer (split across refills),
// very long digit runs and errors take an out-of-line byte-by-byte path that
// carries the partial value across refills.
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
#include <string>
#include <system_error>
#include <utility>

#include "core/error.hpp"
#include "methods/buffer_sizes.hpp"
#include "methods/hot_path.hpp"

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

/// Value of the first `n` (1..8) bytes of `w`, which must be ASCII digits,
/// first byte most significant. SWAR: the digits are shifted to the top (the
/// vacated low bytes act as leading zeros), then adjacent lanes are combined
/// pairwise: bytes into 2-digit values, those into 4-digit, then 8-digit --
/// the well-known 8-digit SWAR conversion (as described by Wojciech Mula and
/// Daniel Lemire), written here from that description.
inline std::uint32_t parse_digits(std::uint64_t w, unsigned n) noexcept {
    w = (w - 0x3030303030303030ULL) << (64 - 8 * n);
    w = (w * 10 + (w >> 8)) & 0x00FF00FF00FF00FFULL;
    w = (w * 100 + (w >> 16)) & 0x0000FFFF0000FFFFULL;
    w = (w * 10000 + (w >> 32)) & 0xFFFFFFFFULL;
    return static_cast<std::uint32_t>(w);
}

inline constexpr std::uint64_t pow10_small[9] = {1,      10,      100,      1000,     10000,
                                                 100000, 1000000, 10000000, 100000000};

/// Longest text basic_ibuf::get_double accepts for one number (the shortest
/// round-trip form of a double takes at most 24 bytes, "%.17g" 24).
inline constexpr std::size_t max_double_chars = 64;

/// Parses all of [first, last) as one double, like std::from_chars (no
/// locale, no leading '+'); false when it is not exactly one number in range.
/// Standard libraries without floating-point from_chars fall back to strtod
/// (which honours the C locale: iobench never changes it).
inline bool parse_double(const char* first, const char* last, double& v) noexcept {
#if defined(__cpp_lib_to_chars)
    const auto [ptr, ec] = std::from_chars(first, last, v);
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
/// 8-byte loads of the SWAR parser. Any buffer size >= 1 works: a number split
/// across refills (or longer than the whole buffer) is carried over digit by
/// digit.
///
/// Errors: io_error from the device; parse_error from get_uint(). Also
/// std::bad_alloc from the constructor. Not copyable.
template <source_device Device>
class basic_ibuf {
public:
    /// `buffer_size` in bytes; 0 means `default_buffer_size`.
    explicit basic_ibuf(Device dev, std::size_t buffer_size = default_buffer_size)
        : dev_(std::move(dev)),
          size_(buffer_size == 0 ? default_buffer_size : buffer_size),
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

    /// Skips ASCII white space and parses one floating-point number into `v`
    /// with std::from_chars (decimal or scientific, "inf"/"nan"; no locale,
    /// no leading '+'), exact: the nearest double, as std::to_chars'
    /// shortest form and "%.17g" need to round-trip. The number must end at
    /// white space or at end of input; its terminating white-space byte is
    /// consumed. Returns false (v untouched) when only white space is left.
    /// Throws parse_error -- naming the byte offset -- on text that is not a
    /// number, is out of double's range, or is longer than
    /// detail::max_double_chars bytes; throws io_error from the device.
    ///
    /// Inlined hot path: std::from_chars parses in place up to the end of
    /// the buffer and stops where the number does; when white space follows
    /// inside the buffer, that is the whole number. Anything else -- a
    /// number that may go on after a refill, an error -- takes the
    /// out-of-line path, which carries the text across refills in a small
    /// local copy and parses that.
    IOBENCH_ALWAYS_INLINE bool get_double(double& v) {
        const char* p = cur_;
        while (detail::is_space(*p)) ++p;  // stops at the sentinel at the latest
#if defined(__cpp_lib_to_chars)
        double value;
        const auto [q, ec] = std::from_chars(p, static_cast<const char*>(end_), value);
        if (ec == std::errc{} && q != end_ && detail::is_space(*q)) [[likely]] {
            v = value;
            cur_ = q + 1;
            return true;
        }
#else
        const char* q = p;
        while (*q != sentinel && !detail::is_space(*q)) ++q;
        if (q != end_ && q != p && *q != sentinel && detail::parse_double(p, q, v)) {
            cur_ = q + 1;
            return true;
        }
#endif
        return get_double_slow(v, p);
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
