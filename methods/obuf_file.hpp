// Files written and read through obuf/ibuf over the platform's own file API
// (native_file.hpp): a file descriptor with write(2)/read(2) on POSIX, a
// HANDLE with WriteFile/ReadFile on Windows. For the obuf family and the
// methods that combine obuf with something else (the fmt family).
#pragma once

#include <cstddef>
#include <string>

#include "methods/native_file.hpp"

namespace iobench {

/// A file created (or truncated) at `path` and a buffered writer over it.
/// Call close() at the end of a run: it flushes and closes, and throws
/// `io_error` when either fails. Destroyed without close(), buffered bytes are
/// dropped (obuf's destructor policy) and the file is closed.
class obuf_file {
public:
    /// obuf over the platform's file (fd_device.hpp's `obuf`, win32_device.hpp's `handle_obuf`).
    using buffer_type = basic_obuf<native_sink_device>;

    /// `buffer_size` in bytes; 0 = obuf's default (obuf_buffer_size). Throws `io_error`.
    obuf_file(const std::string& path, std::size_t buffer_size)
        : file_(create_native_file(path)), out_(native_sink_device{file_.get(), path}, buffer_size) {}

    /// The buffered writer (put, write, put_uint, flush).
    buffer_type& out() { return out_; }

    /// Flushes the buffer and closes the file. Throws `io_error`.
    void close() {
        out_.flush();
        file_.close();
    }

private:
    native_file file_;
    buffer_type out_;
};

/// The file `path` opened for reading and a buffered reader over it. Call
/// close() at the end of a run: it throws `io_error` when closing fails.
class ibuf_file {
public:
    /// ibuf over the platform's file (fd_device.hpp's `ibuf`, win32_device.hpp's `handle_ibuf`).
    using buffer_type = basic_ibuf<native_source_device>;

    /// `buffer_size` in bytes; 0 = ibuf's default (obuf_buffer_size). Throws `io_error`.
    ibuf_file(const std::string& path, std::size_t buffer_size)
        : file_(open_native_file(path)), in_(native_source_device{file_.get(), path}, buffer_size) {}

    /// The buffered reader (get_uint, get_double).
    buffer_type& in() { return in_; }

    /// Closes the file. Throws `io_error`.
    void close() { file_.close(); }

private:
    native_file file_;
    buffer_type in_;
};

/// obuf over standard output (fd 1; the STD_OUTPUT_HANDLE on Windows), which
/// it does not close. Call flush() at the end of a run.
inline obuf_file::buffer_type stdout_obuf(std::size_t buffer_size) {
    return obuf_file::buffer_type(native_stdout_device(), buffer_size);
}

}  // namespace iobench
