// Default buffer sizes of the method families, in one place: what a method
// uses when a suite sets no `buf` (Sink::buffer_size / Source::buffer_size 0),
// and what Method::default_buffer_size reports for it.
#pragma once

#include <cstddef>

namespace iobench {

/// Default user-space buffer in bytes of obuf and ibuf, and bytes per call of
/// the methods that size their own read or conversion calls (read, pread,
/// ReadFile, fread, io_uring, iconv, ...): 64 KiB.
inline constexpr std::size_t default_buffer_size = 64 * 1024;

}  // namespace iobench
