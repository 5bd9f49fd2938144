// The platform's own file API under one set of names, for the methods that are
// the same on every platform but for the calls: a file descriptor with
// open(2)/write(2)/read(2) on POSIX (posix_file.hpp, fd_device.hpp), a HANDLE
// with CreateFileW/WriteFile/ReadFile on Windows (win32_device.hpp). Used by
// obuf/ibuf over a file (obuf_file.hpp), the `limit` reference, and the
// unbuffered baseline, one call per item (posix.cpp's `write`, win32.cpp's
// `WriteFile`).
#pragma once

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

#include <iobench/method.hpp>

#ifdef _WIN32
#include "methods/win32_device.hpp"
#else
#include <unistd.h>

#include "methods/fd_device.hpp"
#include "methods/posix_file.hpp"
#endif

namespace iobench {

#ifdef _WIN32
/// An open file that closes itself (`close()` reports the error): a HANDLE.
using native_file = unique_handle;
/// obuf's sink device over a native_file's handle (not owned).
using native_sink_device = handle_sink_device;
/// ibuf's source device over a native_file's handle (not owned).
using native_source_device = handle_source_device;

/// Creates or truncates `path` for writing (CreateFileW). Throws `io_error`.
inline native_file create_native_file(const std::string& path) { return create_file_handle(path); }
/// Opens the existing file `path` for writing from its first byte, not
/// truncated (CreateFileW, OPEN_EXISTING). Throws `io_error`.
inline native_file overwrite_native_file(const std::string& path) { return overwrite_file_handle(path); }
/// Opens the existing file `path` for reading (CreateFileW). Throws `io_error`.
inline native_file open_native_file(const std::string& path) { return open_file_handle(path); }
/// Standard output as a sink device: the STD_OUTPUT_HANDLE (not owned).
inline native_sink_device native_stdout_device() { return {GetStdHandle(STD_OUTPUT_HANDLE), "stdout"}; }
#else
/// An open file that closes itself (`close()` reports the error): a file descriptor.
using native_file = unique_fd;
/// obuf's sink device over a native_file's descriptor (not owned).
using native_sink_device = fd_sink_device;
/// ibuf's source device over a native_file's descriptor (not owned).
using native_source_device = fd_source_device;

/// Creates or truncates `path` for writing (open(2), mode 0644). Throws `io_error`.
inline native_file create_native_file(const std::string& path) { return create_file(path); }
/// Opens the existing file `path` for writing from its first byte, not
/// truncated (open(2) without O_CREAT and O_TRUNC). Throws `io_error`.
inline native_file overwrite_native_file(const std::string& path) { return open_file_for_overwrite(path); }
/// Opens `path` for reading (open(2)). Throws `io_error`.
inline native_file open_native_file(const std::string& path) { return open_file(path); }
/// Standard output as a sink device: file descriptor 1 (not owned).
inline native_sink_device native_stdout_device() { return {STDOUT_FILENO, "stdout"}; }
#endif

/// The unbuffered baseline's put_ints: 0 .. count-1, each formatted with
/// std::to_chars with its '\n' and written with one call (write(2) on POSIX,
/// WriteFile on Windows; iobench::write_all). Throws `io_error`.
inline void write_each_int(const Sink& sink, std::uint64_t count) {
    native_file file = create_native_file(sink.path);
    char line[24];
    for (std::uint64_t i = 0; i < count; ++i) {
        char* end = std::to_chars(line, line + sizeof line - 1, i).ptr;
        *end++ = '\n';
        write_all(file.get(), line, static_cast<std::size_t>(end - line), sink.path);
    }
    file.close();
}

/// The unbuffered baseline's put_repeat: `line` written `count` times, one
/// call each (write(2) on POSIX, WriteFile on Windows). Throws `io_error`.
inline void write_each_line(const Sink& sink, std::string_view line, std::uint64_t count) {
    native_file file = create_native_file(sink.path);
    for (std::uint64_t i = 0; i < count; ++i) write_all(file.get(), line.data(), line.size(), sink.path);
    file.close();
}

}  // namespace iobench
