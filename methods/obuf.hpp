// obuf: our own buffered writer over any "sink device", which formats
// unsigned integers (format_uint: methods/format_uint.hpp) and doubles
// (format_double, with Żmij or Dragonbox: methods/format_double.hpp) straight
// into its buffer.
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

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <utility>

#include "methods/buffer_sizes.hpp"
#include "methods/format_double.hpp"
#include "methods/format_double_lines.hpp"
#include "methods/format_uint.hpp"
#include "methods/format_uint_lines.hpp"
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

namespace detail {

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

}  // namespace detail

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
          // stores (only reached with >= 20 bytes free) aim past a tiny buffer;
          // room to start it at obuf_buffer_alignment (own_buffer).
          buf_(hands_off ? nullptr : new char[(size_ < 32 ? 32 : size_) + obuf_buffer_alignment - 1]),
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

    /// Appends `v` in its shortest round-trip form (see format_double; the
    /// same text whatever `Digits` says), formatted straight into the buffer
    /// when at least format_double_room bytes are free.
    template <double_digits Digits = default_double_digits>
    IOBENCH_ALWAYS_INLINE void put_double(double v) {
        if (static_cast<std::size_t>(end_ - cur_) >= format_double_room) [[likely]] {
            cur_ = format_double<Digits>(cur_, v);
        } else {
            put_double_slow<Digits>(v);
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
        template <double_digits Digits = default_double_digits>
        IOBENCH_ALWAYS_INLINE void put_double(double v) {
            if (static_cast<std::size_t>(end_ - cur_) >= format_double_room) [[likely]]
                cur_ = format_double<Digits>(cur_, v);
            else
                slow([&](char* cur) { return out_.template put_double_at<Digits>(cur, v); });
        }

        /// Appends each of the `n` numbers at `v` in decimal followed by '\n'
        /// (the bytes of put_uint(v[i]), put('\n') for each) with line kernel
        /// `kernel`, which this CPU must run (cpu_runs): as many lines at once
        /// as surely fit in the room left (uint_lines_room), one at a time
        /// through put_uint and put when none does.
        IOBENCH_ALWAYS_INLINE void put_uint_lines(uint_line_kernel kernel, const std::uint64_t* v, std::size_t n) {
            put_in_blocks(
                v, n, uint_lines_room,
                [kernel](char* p, const std::uint64_t* x, std::size_t m) { return format_uint_lines(kernel, p, x, m); },
                [this](std::uint64_t x) {
                    put_uint(x);
                    put('\n');
                });
        }

        /// Appends each of the `n` doubles at `v` in its shortest round-trip
        /// form followed by '\n' (the bytes of put_double(v[i]), put('\n') for
        /// each), its digits from `Digits`, with line kernel `kernel`, which
        /// this CPU must run (cpu_runs): as many lines at once as surely fit
        /// in the room left (double_lines_room), one at a time through
        /// put_double and put when none does.
        template <double_digits Digits = default_double_digits>
        void put_double_lines(double_line_kernel kernel, const double* v, std::size_t n) {
            put_in_blocks(
                v, n, double_lines_room,
                [kernel](char* p, const double* x, std::size_t m) { return format_double_lines<Digits>(kernel, p, x, m); },
                [this](double x) {
                    put_double<Digits>(x);
                    put('\n');
                });
        }

        /// put_uint_lines with the kernel in use (uint_line_kernel_in_use()).
        void put_uint_lines(const std::uint64_t* v, std::size_t n) { put_uint_lines(uint_line_kernel_in_use(), v, n); }

        /// Appends `line` `count` times (the bytes of `count` write(line)
        /// calls). The copy is chosen once for the line's size, its bytes held
        /// in registers, and the room checked once per run of lines that fit
        /// (not once per line); lines longer than 32 bytes go through write().
        void write_repeated(std::string_view line, std::uint64_t count) {
            const char* const s = line.data();
            const std::size_t n = line.size();
            if (n == 0) return;
            if (n > 32) {
                for (; count != 0; --count) write(s, n);
            } else if (n >= 16) {
                char a[16], b[16];
                std::memcpy(a, s, 16);
                std::memcpy(b, s + n - 16, 16);
                repeat(line, count, [&](char* p) {
                    std::memcpy(p, a, 16);
                    std::memcpy(p + n - 16, b, 16);
                });
            } else if (n >= 8) {
                std::uint64_t a, b;
                std::memcpy(&a, s, 8);
                std::memcpy(&b, s + n - 8, 8);
                repeat(line, count, [&](char* p) {
                    std::memcpy(p, &a, 8);
                    std::memcpy(p + n - 8, &b, 8);
                });
            } else if (n >= 4) {
                std::uint32_t a, b;
                std::memcpy(&a, s, 4);
                std::memcpy(&b, s + n - 4, 4);
                repeat(line, count, [&](char* p) {
                    std::memcpy(p, &a, 4);
                    std::memcpy(p + n - 4, &b, 4);
                });
            } else {  // 1..3
                const char a = s[0], b = s[n / 2], c = s[n - 1];
                repeat(line, count, [&](char* p) {
                    p[0] = a;
                    p[n / 2] = b;
                    p[n - 1] = c;
                });
            }
        }

    private:
        /// write_repeated's loop: `store(p)` copies the line (its `line.size()`
        /// bytes, no more) to p; as many lines as fit are stored with no check
        /// between them, then one goes through write() (which flushes).
        /// The loop of put_uint_lines and put_double_lines: the `n` items at
        /// `v` in blocks of as many lines as surely fit in the room left,
        /// `room(m)` bytes stored for m lines (room(1) - room(0) per line, room(0)
        /// of scratch), each block by `block(position, items, m)`, which returns
        /// the new position; one item at a time by `one(item)` when no line fits.
        template <class T, class Block, class One>
        IOBENCH_ALWAYS_INLINE void put_in_blocks(const T* v, std::size_t n, std::size_t (*room)(std::size_t),
                                                 Block block, One one) {
            const std::size_t scratch = room(0), line = room(1) - scratch;
            while (n != 0) {
                const auto left = static_cast<std::size_t>(end_ - cur_);
                if (left >= line + scratch) [[likely]] {
                    const std::size_t m = std::min(n, (left - scratch) / line);
                    cur_ = block(cur_, v, m);
                    v += m;
                    n -= m;
                } else {
                    one(*v++);
                    --n;
                }
            }
        }

        template <class Store>
        IOBENCH_ALWAYS_INLINE void repeat(std::string_view line, std::uint64_t count, Store store) {
            const std::size_t n = line.size();
            while (count != 0) {
                const std::uint64_t fit = std::min<std::uint64_t>(static_cast<std::size_t>(end_ - cur_) / n, count);
                if (fit == 0) {
                    write(line);
                    --count;
                    continue;
                }
                char* p = cur_;
                char* const stop = p + fit * n;
                for (; p != stop; p += n) store(p);
                cur_ = stop;
                count -= fit;
            }
        }

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
            char* const begin = own_buffer();
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
            return own_buffer();
    }

    /// obuf's own buffer: the first obuf_buffer_alignment boundary in buf_.
    char* own_buffer() const {
        const auto at = reinterpret_cast<std::uintptr_t>(buf_.get());
        const std::uintptr_t mask = obuf_buffer_alignment - 1;
        return buf_.get() + ((obuf_buffer_alignment - (at & mask)) & mask);
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
    template <double_digits Digits>
    IOBENCH_NOINLINE char* put_double_at(char* cur, double v) {
        cur_ = cur;
        put_double<Digits>(v);
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

    template <double_digits Digits>
    IOBENCH_NOINLINE void put_double_slow(double v) {
        char tmp[format_double_room];
        const auto n = static_cast<std::size_t>(format_double<Digits>(tmp, v) - tmp);
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
