// Default buffer sizes of the method families, in one place: what a method
// uses when a suite sets no `buf` (Sink::buffer_size / Source::buffer_size 0),
// what Method::default_buffer_size reports for it, and how a description
// spells it (size_text: never by hand, so a description cannot go stale).
#pragma once

#include <cstddef>
#include <string>

namespace iobench {

/// Bytes per system call of the `limit` reference (methods/limit.cpp), which
/// writes or reads its bytes with nothing else to do: large enough that the
/// per-call cost vanishes next to the copy into or out of the page cache;
/// obuf's default buffer matches it. 1 MiB.
inline constexpr std::size_t limit_call_size = 1024 * 1024;

/// Default bytes per call of the methods that size their own read or
/// conversion calls (read, pread, ReadFile, fread, io_uring, iconv, ...):
/// 64 KiB.
inline constexpr std::size_t default_buffer_size = 64 * 1024;

/// Default user-space buffer in bytes of obuf and ibuf and of the methods
/// built on obuf (obuf_mutex, to_chars_obuf, fmt_*_obuf): 1 MiB, the size of
/// `limit`'s calls. Chosen from a sweep of 64 KiB .. 4 MiB on tmpfs and ext4
/// (docs/methodology.md#obufs-buffer-1-mib-from-a-sweep): 1 MiB was within
/// 1 % of the fastest size on every workload (hello, ints_out, doubles_out,
/// ints_in) on both, but for hello on ext4 (3 %, inside that row's spread);
/// 64 KiB took 4-19 % longer on ext4 (each write(2) call costs ext4 about
/// 3.7 us) and 14 % longer on ints_in on tmpfs.
inline constexpr std::size_t obuf_buffer_size = limit_call_size;

/// Alignment in bytes of obuf's own buffer: a cache line. The kernel copies a
/// write(2)'s bytes into the page cache with one string move, which ran 24 %
/// slower from a source 16 or 48 bytes past a 64-byte boundary: measured
/// 2026-12-06 (AMD EPYC VM, ext4, a new 1.2 GB file in 1 MiB writes, 5 each,
/// medians), 235-238 ms at offsets 16 and 48 against 189-191 ms at 0, 32, 64
/// and 4000; `new char[]` (16-byte aligned) gave obuf one or the other at
/// random, two modes in one row (docs/methodology.md).
inline constexpr std::size_t obuf_buffer_alignment = 64;

/// Default window in bytes of the methods that map a file one window at a
/// time (the `mmap` output method, CreateFileMapping_window): 4 MiB.
inline constexpr std::size_t default_map_window = 4 * 1024 * 1024;

/// Default size in bytes of each of the 4 buffers of the methods that write a
/// full buffer in the background while obuf fills the next (obuf_thread,
/// obuf_io_uring, WriteFile_overlapped; methods/obuf_overlapped.cpp): 1 MiB.
/// Measured on ints_out (docs/methodology.md#overlapped-output): with 64 KiB
/// buffers every hand-off costs more (a wake-up of the writer, 3-4 context
/// switches, ~20 us of the formatting thread's user time) than the overlap
/// saves, and these methods were 1.2-2x slower than obuf; with 1 MiB, 1.3-1.6x
/// faster than obuf when the machine had a CPU to spare, about as fast (within
/// the repetitions' spread) when other work took it.
inline constexpr std::size_t default_handoff_buffer_size = 1024 * 1024;

/// `bytes` as a method's description spells a size: "64 KiB", "4 MiB", or
/// "512 bytes" when it is not a whole number of KiB.
inline std::string size_text(std::size_t bytes) {
    if (bytes != 0 && bytes % (1024 * 1024) == 0) return std::to_string(bytes / (1024 * 1024)) + " MiB";
    if (bytes != 0 && bytes % 1024 == 0) return std::to_string(bytes / 1024) + " KiB";
    return std::to_string(bytes) + " bytes";
}

}  // namespace iobench
