// obuf: our own buffered writer over any "sink device", plus a fast unsigned
// integer formatter. Header-only and portable C++20 (no OS headers): the POSIX
// file-descriptor device lives in fd_device.hpp, a Windows HANDLE device can be
// added beside it.
//
// Purpose: show how close a buffered method can get to the memory-bound limit
// (DESIGN.md). The hot operations -- put(), a small write(), put_uint() -- are
// an inlined bounds check plus a short copy or an in-place format; everything
// else (flushing, huge writes, the last few bytes before a full buffer) is in
// out-of-line slow paths.
#pragma once

#include <bit>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <utility>

/// IOBENCH_ALWAYS_INLINE / IOBENCH_NOINLINE: keep hot paths inlined into the
/// caller's loop and slow paths (flushes, refills, errors) out of it.
#if defined(_MSC_VER) && !defined(__clang__)
#define IOBENCH_ALWAYS_INLINE __forceinline
#define IOBENCH_NOINLINE __declspec(noinline)
#else
#define IOBENCH_ALWAYS_INLINE [[gnu::always_inline]] inline
#define IOBENCH_NOINLINE [[gnu::noinline]]
#endif

namespace iobench {

/// Default size in bytes of the user-space buffer of obuf and ibuf (64 KiB).
inline constexpr std::size_t default_buffer_size = 64 * 1024;

/// A sink device: something obuf can hand full buffers to.
/// `write_all(data, size)` writes all `size` bytes (looping on short writes and
/// EINTR) or throws `iobench::io_error`.
template <class D>
concept sink_device = requires(D& d, const char* data, std::size_t size) {
    d.write_all(data, size);
};

/// Most bytes `format_uint` produces: the 20 digits of UINT64_MAX.
inline constexpr std::size_t max_uint_digits = 20;

namespace detail {

/// For n < 100,000,000: the 8 decimal digits of n (with leading zeros) as
/// values 0..9, one per byte, most significant digit in the lowest byte (so a
/// little-endian store writes them in reading order).
///
/// SWAR ("SIMD within a register") digit split, branch-free and without
/// tables: n is split into two 4-digit halves in 32-bit lanes, each half into
/// two 2-digit parts in 16-bit lanes, each part into two digits in 8-bit
/// lanes. Every division is a fixed-point multiply by a rounded-up reciprocal
/// and a shift (the idea behind James Anhalt's itoa and compilers' division by
/// constants), exact on the ranges used and checked exhaustively:
///   n / 10000 == (n * 109951163) >> 40  for n < 10^8
///   x / 100   == (x * 10486) >> 20      for x < 10^4
///   x / 10    == (x * 103) >> 10        for x < 10^2
/// Splitting a lane x with quotient q into (q, x - c*q) is one multiply-add:
/// (x << s) + q * (1 - (c << s)) == q + ((x - c*q) << s)  (mod 2^64),
/// and the lanes never carry into each other.
inline std::uint64_t digits8(std::uint32_t n) noexcept {
    const std::uint64_t hi = (std::uint64_t{n} * 109951163) >> 40;
    std::uint64_t x = (std::uint64_t{n} << 32) + hi * (1 - (10000ULL << 32));
    const std::uint64_t q = ((x * 10486) >> 20) & 0x0000007F0000007FULL;
    x = (x << 16) + q * (1 - (100ULL << 16));  // four 16-bit lanes < 100
    const std::uint64_t t = ((x * 103) >> 10) & 0x000F000F000F000FULL;
    return (x << 8) + t * (1 - (10ULL << 8));  // eight 8-bit lanes < 10
}

inline constexpr std::uint64_t ascii_zeros = 0x3030303030303030ULL;

/// Writes n < 1e8 as exactly 8 digits (leading zeros kept). Stores 8 bytes.
inline char* write8(char* out, std::uint32_t n) noexcept {
    const std::uint64_t w = digits8(n) | ascii_zeros;
    std::memcpy(out, &w, 8);
    return out + 8;
}

/// Writes n < 1e8 without leading zeros ("0" for 0). Always stores 8 bytes at
/// `out`; the bytes past the returned pointer are scratch.
inline char* write_trimmed8(char* out, std::uint32_t n) noexcept {
    const std::uint64_t d = digits8(n);
    // Leading zero digits are the low zero bytes; capping the bit count at 56
    // prints 0 as "0" and keeps the shift below 64. (Written as a min rather
    // than countr_zero(d | 1 << 56): GCC 12 computes digits8 twice for that.)
    int bits = std::countr_zero(d);
    bits = bits < 56 ? bits : 56;
    const unsigned zeros = static_cast<unsigned>(bits) / 8;
    const std::uint64_t w = (d >> (8 * zeros)) | ascii_zeros;
    std::memcpy(out, &w, 8);
    return out + (8 - zeros);
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
/// Algorithm: v is split into 8-digit groups with divisions by the constant
/// 100,000,000 (the compiler turns them into multiplies); each group is
/// converted branch-free by `detail::digits8` (fixed-point reciprocal
/// multiplies in SWAR lanes, after the idea of James Anhalt's itoa); leading
/// zeros of the first group are dropped with a count-trailing-zeros. About
/// 1 ns per number for values below 1e8.
inline char* format_uint(char* out, std::uint64_t v) noexcept {
    if constexpr (std::endian::native != std::endian::little) {
        return detail::format_uint_generic(out, v);
    } else {
        constexpr std::uint64_t e8 = 100000000;
        if (v < e8) return detail::write_trimmed8(out, static_cast<std::uint32_t>(v));
        std::uint64_t hi = v / e8;
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
/// Not copyable (it owns its buffer and the device is used by one writer).
template <sink_device Device>
class basic_obuf {
public:
    /// `buffer_size` in bytes; 0 means `default_buffer_size`. Any size >= 1 works.
    explicit basic_obuf(Device dev, std::size_t buffer_size = default_buffer_size)
        : dev_(std::move(dev)),
          size_(buffer_size == 0 ? default_buffer_size : buffer_size),
          buf_(new char[size_]),
          cur_(buf_.get()),
          end_(buf_.get() + size_) {}

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
    /// Small writes are an inlined bounds check and memcpy.
    IOBENCH_ALWAYS_INLINE void write(const char* data, std::size_t size) {
        // size - 1 wraps for size == 0, which thus takes the slow path (and
        // memcpy never sees a null pointer).
        if (size - 1 < static_cast<std::size_t>(end_ - cur_)) [[likely]] {
            std::memcpy(cur_, data, size);
            cur_ += size;
        } else {
            write_slow(data, size);
        }
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

    /// Hands the buffered bytes to the device. Throws what the device throws
    /// (io_error); the buffer is empty afterwards either way.
    void flush() {
        char* const begin = buf_.get();
        const auto n = static_cast<std::size_t>(cur_ - begin);
        cur_ = begin;
        if (n != 0) dev_.write_all(begin, n);
    }

    /// Capacity of the buffer in bytes.
    std::size_t buffer_size() const noexcept { return size_; }

    /// Bytes buffered and not yet handed to the device.
    std::size_t pending() const noexcept { return static_cast<std::size_t>(cur_ - buf_.get()); }

    /// The device (to close it after the final flush, say).
    Device& device() noexcept { return dev_; }
    const Device& device() const noexcept { return dev_; }

private:
    IOBENCH_NOINLINE void flush_full() { flush(); }

    IOBENCH_NOINLINE void write_slow(const char* data, std::size_t size) {
        if (size == 0) return;
        if (size >= size_) {  // bigger than the whole buffer: straight through
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
        const char* const last = format_uint(tmp, v);
        write(tmp, static_cast<std::size_t>(last - tmp));
    }

    Device dev_;
    std::size_t size_;
    std::unique_ptr<char[]> buf_;
    char* cur_;
    char* end_;
};

}  // namespace iobench
