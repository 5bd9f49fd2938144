// What the hand-off devices of obuf share (methods/obuf.hpp's handoff_device:
// a device that takes a full buffer to write in the background and hands back
// an empty one): how many buffers they own, and the buffers. The devices are
// thread_device.hpp (a writer thread), uring_device.hpp (io_uring) and
// overlapped_device.hpp (overlapped WriteFile); the methods over them are in
// obuf_overlapped.cpp. ibuf's read-ahead devices (thread_source_device.hpp,
// uring_source_device.hpp; ibuf_overlapped.cpp) own their buffers the same
// way. Portable C++20.
#pragma once

#include <cstddef>
#include <memory>

namespace iobench {

/// Buffers a hand-off device owns unless told otherwise: obuf fills one while
/// up to three are being written.
inline constexpr std::size_t handoff_buffer_count = 4;

/// `count` buffers of `capacity` bytes each, in one allocation, numbered 0 ..
/// count-1. Empty until allocate().
class buffer_pool {
public:
    /// Allocates the buffers (at least one). Throws std::bad_alloc.
    void allocate(std::size_t count, std::size_t capacity) {
        count_ = count == 0 ? 1 : count;
        capacity_ = capacity;
        memory_.reset(new char[count_ * capacity_]);
    }
    /// Buffer `i` (< count()).
    char* operator[](std::size_t i) const noexcept { return memory_.get() + i * capacity_; }
    /// The number of the buffer that `buffer` (a pointer returned by operator[]) is.
    std::size_t index_of(const char* buffer) const noexcept {
        return static_cast<std::size_t>(buffer - memory_.get()) / capacity_;
    }
    /// Number of buffers.
    std::size_t count() const noexcept { return count_; }
    /// Bytes per buffer.
    std::size_t capacity() const noexcept { return capacity_; }

private:
    std::unique_ptr<char[]> memory_;
    std::size_t count_ = 0;
    std::size_t capacity_ = 0;
};

}  // namespace iobench
