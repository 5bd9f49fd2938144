// ibuf: our own buffered reader over any "source device", parsing white-space
// separated unsigned decimal integers and doubles without locale. Header-only, portable
// C++20 (no OS headers): the POSIX file-descriptor device is in fd_device.hpp.
//
// Two ways to read integers: get_uint(v), one number per call, and
// get_uints(span), as many as fit per call. get_uints is the fast one: on
// x86-64 it classifies 32 bytes (64 with AVX2) at a time into white space
// and digits, so the end of every number in the block is a bit of a mask,
// found without waiting for the number before it; numbers of up to 8 digits
// are then converted eight at a time (four or sixteen in some windows) with
// AVX2 multiply-adds where the CPU has AVX2
// (chosen at run time), two at a time with SSE2 elsewhere (and with NEON on
// AArch64, which classifies its blocks the same way), longer ones (up
// to 16 digits) with 8-byte SWAR steps (the kernels: methods/parse_uint.hpp).
// The per-call state stays in registers. Numbers that touch the end of the buffer
// (split across refills), longer digit runs and errors take an out-of-line
// byte-by-byte path that carries the partial value across refills and names
// the offending byte. The same parsing runs over a read-ahead device
// (readahead_device: the next buffers read while one is parsed,
// methods/ibuf_overlapped.cpp).
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

#include <iobench/error.hpp>
#include "methods/buffer_sizes.hpp"
#include "methods/hot_path.hpp"
#include "methods/parse_uint.hpp"

/// IOBENCH_HAVE_FAST_FLOAT (set by CMake when fast_float is installed, for
/// every file that includes this header): get_double parses with
/// fast_float::from_chars instead of std::from_chars.
#if defined(IOBENCH_HAVE_FAST_FLOAT)
#include <fast_float/fast_float.h>
#endif

namespace iobench {

/// A source device: something ibuf can fill its buffer from.
/// `read_some(buf, size)` reads 1 to `size` bytes into `buf` and returns how
/// many, returns 0 at end of file, or throws `iobench::io_error`.
template <class D>
concept source_device = requires(D& d, char* buf, std::size_t size) {
    { d.read_some(buf, size) } -> std::convertible_to<std::size_t>;
};

/// A buffer a read-ahead device hands over: `buffer` (a pointer its start()
/// or next() returned before) holding `size` bytes of the input from its
/// `offset`-th byte on (start()'s offset).
struct read_buffer {
    char* buffer = nullptr;
    std::size_t size = 0;
};

/// A read-ahead device: it owns ibuf's buffers and fills them with the
/// following bytes of the input in the background (a reader thread, io_uring),
/// so that ibuf parses one buffer while the next ones are read
/// (methods/ibuf_overlapped.cpp).
/// - `start(capacity, offset, size)` allocates its buffers of `capacity`
///   bytes each, starts reading up to `size` bytes at `offset` into every
///   buffer but one, and returns that one, empty, to the caller (called once,
///   by ibuf's constructor).
/// - `next(done)` takes back `done` (the buffer the caller held) to be
///   filled in turn and returns the next buffer of the input in order,
///   waiting until it is read; size 0 at end of input. When it throws (the
///   io_error of a failed read, in input order: every byte before the
///   failure is handed over first), it has not taken `done`.
template <class D>
concept readahead_device = requires(D& d, char* done, std::size_t n) {
    { d.start(n, n, n) } -> std::same_as<char*>;
    { d.next(done) } -> std::same_as<read_buffer>;
};

namespace detail {

/// Longest text basic_ibuf::get_double accepts for one number (the shortest
/// round-trip form of a double takes at most 24 bytes, "%.17g" 24).
inline constexpr std::size_t max_parsed_double_chars = 64;

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
    if (n == 0 || n > max_parsed_double_chars || *first == '+') return false;
    char text[max_parsed_double_chars + 1];
    std::memcpy(text, first, n);
    text[n] = '\0';
    char* end = nullptr;
    errno = 0;
    v = std::strtod(text, &end);
    return end == text + n && errno != ERANGE;
#endif
}

}  // namespace detail

/// A buffered reader over a source device that parses white-space separated
/// unsigned decimal integers.
///
/// The buffer is `buffer_size()` bytes plus 64 bytes of padding for the
/// 8-byte loads of the SWAR parser (which may start at any byte of the
/// buffer), the 64-byte windows of the AVX2 parser (which stop at the
/// sentinel, not at a bound) and the NUL sentinel after the last byte read
/// (the 64 bytes from it zeroed at every refill), and 64 zero bytes
/// before it for the AVX2 parser's loads of the 8 bytes before a number's end
/// (64: the bytes read start as aligned as the allocation).
/// Any buffer size >= 1 works: a number split across refills (or longer than
/// the whole buffer) is carried over digit by digit.
///
/// Over a read-ahead device (readahead_device) the buffers, of the same
/// layout, are the device's: ibuf parses one while the device reads the next
/// ones; a refill hands the parsed buffer back and takes the next filled one
/// (no copy). The parsing is the same code either way.
///
/// Errors: io_error from the device; parse_error from get_uint(). Also
/// std::bad_alloc from the constructor. Not copyable.
template <class Device>
    requires source_device<Device> || readahead_device<Device>
class basic_ibuf {
    static constexpr bool reads_ahead = readahead_device<Device>;

public:
    /// `buffer_size` in bytes; 0 means `obuf_buffer_size`.
    explicit basic_ibuf(Device dev, std::size_t buffer_size = obuf_buffer_size)
        : dev_(std::move(dev)),
          size_(buffer_size == 0 ? obuf_buffer_size : buffer_size),
          buf_(reads_ahead ? nullptr : new char[front_padding + size_ + padding]),
          mem_(first_buffer()),
          cur_(begin()),
          end_(begin()) {
        // Only the padding is zeroed (the bytes read need not be: zeroing a
        // 1 MiB buffer cost ~1 instruction per number of a 1M-number file).
        std::memset(mem_, 0, front_padding);
        std::memset(end_, sentinel, padding);
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
        const std::uint64_t w = load_u64_le(p);
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
    /// registers across numbers, and a block of 32 bytes (a window of 64 with
    /// AVX2) is classified at once, its numbers converted two (SSE2, NEON) or
    /// eight (AVX2; four or sixteen in some windows) at a time
    /// (detail::parse_uint_blocks: the block parser uint_block_parser_in_use()
    /// says, AVX2 where the CPU has it, NEON on AArch64); with the scalar parser, and at the
    /// end of the buffer, numbers of up to 7 digits take one 8-byte load each
    /// (detail::parse_short_uints); anything else takes get_uint().
    std::size_t get_uints(std::span<std::uint64_t> values) { return get_uints(values, uint_block_parser_in_use()); }

    /// get_uints(values) with block parser `parser` whatever
    /// uint_block_parser_in_use() says (the same numbers and errors): the
    /// rows of each parser side by side. The CPU must run it (cpu_runs).
    std::size_t get_uints(std::span<std::uint64_t> values, uint_block_parser parser) {
        std::uint64_t* out = values.data();
        std::uint64_t* const out_end = out + values.size();
        while (out != out_end) {
            const char* p = cur_;
            p = detail::parse_uint_blocks(parser, p, end_, out, out_end);
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
    /// detail::max_parsed_double_chars bytes; throws io_error from the device.
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
    static constexpr std::size_t padding = 64;        // sentinel + 8-byte loads and 64-byte windows past it
    static constexpr std::size_t front_padding = 64;  // 8-byte loads before the first byte, never a digit
    static constexpr char sentinel = '\0';           // neither digit nor white space

    /// The first byte read.
    char* begin() const noexcept { return mem_ + front_padding; }

    /// The buffer ibuf holds first: its own, or an empty one of the read-ahead device's.
    char* first_buffer() {
        if constexpr (reads_ahead)
            return dev_.start(front_padding + size_ + padding, front_padding, size_);
        else
            return buf_.get();
    }

    std::uint64_t offset_of(const char* p) const noexcept {
        return base_ + static_cast<std::uint64_t>(p - begin());
    }

    /// get_uint() for everything but a short number: `p` is the first
    /// non-space byte at or after cur_ (possibly the sentinel at end_).
    IOBENCH_NOINLINE bool get_uint_more(std::uint64_t& v, const char* p) {
        if (p == end_) return get_uint_slow(v, p);
        // p < end_: every 8-byte load below stays within buffer + padding,
        // because a digit run stops at the sentinel *end_ at the latest.
        std::uint64_t w = load_u64_le(p);
        unsigned n = detail::leading_digits8(w);
        if (n == 0) throw_unexpected(p);
        std::uint64_t value = detail::parse_digits(w, n);
        const char* q = p + n;
        if (n == 8) {
            unsigned total = 8;
            for (;;) {
                w = load_u64_le(q);
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
        // (A number longer than max_parsed_double_chars is an error wherever it
        // stands: get_double_slow says so.)
        if (ec == std::errc{} && q != end_ && detail::is_space(*q) &&
            static_cast<std::size_t>(q - p) <= detail::max_parsed_double_chars) [[likely]] {
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
        char* const first = begin();
        base_ += static_cast<std::uint64_t>(end_ - first);
        cur_ = end_ = first;
        if (!eof_) {
            if constexpr (reads_ahead) {
                // The buffer goes back to the device only when the next one
                // is taken: should next() throw, ibuf keeps this one, empty.
                *first = sentinel;
                const read_buffer next = dev_.next(mem_);
                mem_ = next.buffer;
                std::memset(mem_, 0, front_padding);
                cur_ = end_ = begin();
                if (next.size == 0) eof_ = true;
                end_ += next.size < size_ ? next.size : size_;
            } else {
                const std::size_t n = dev_.read_some(first, size_);
                if (n == 0) eof_ = true;
                end_ = first + (n < size_ ? n : size_);
            }
        }
        std::memset(end_, sentinel, padding);  // the sentinel, and defined bytes for loads past it
        return end_ != begin();  // begin(): the buffer now held (a read-ahead device's next one)
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
        char text[detail::max_parsed_double_chars];
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
                          std::to_string(detail::max_parsed_double_chars) + " bytes");
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
    std::unique_ptr<char[]> buf_;  // ibuf's own buffer (none over a read-ahead device)
    char* mem_;                    // the buffer held: buf_, or the device's; begin() is front_padding into it
    const char* cur_;
    char* end_;
    std::uint64_t base_ = 0;  // input offset of begin()[0]
    bool eof_ = false;
};

}  // namespace iobench
