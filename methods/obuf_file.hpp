// An output file written through obuf over the platform's own file API: a
// file descriptor and write(2) on POSIX (fd_device.hpp), a HANDLE and
// WriteFile on Windows (win32_device.hpp). For the methods that combine obuf
// with something else (obuf_mutex, to_chars + obuf, the fmt family).
#pragma once

#include <string>

#ifdef _WIN32
#include "methods/win32_device.hpp"
#else
#include "methods/fd_device.hpp"
#include "methods/posix_file.hpp"
#endif

namespace iobench {

/// A file created (or truncated) at `path` and a buffered writer over it.
/// Call close() at the end of a run: it flushes and closes, and throws
/// `io_error` when either fails. Destroyed without close(), buffered bytes are
/// dropped (obuf's destructor policy) and the file is closed.
class obuf_file {
public:
#ifdef _WIN32
    using buffer_type = handle_obuf;
#else
    using buffer_type = obuf;
#endif

    /// `buffer_size` in bytes; 0 = obuf's default (default_buffer_size). Throws `io_error`.
    obuf_file(const std::string& path, std::size_t buffer_size)
#ifdef _WIN32
        : file_(create_file_handle(path)), out_(handle_sink_device{file_.get(), path}, buffer_size) {
    }
#else
        : file_(create_file(path)), out_(fd_sink_device{file_.get(), path}, buffer_size) {
    }
#endif

    /// The buffered writer (put, write, put_uint, flush).
    buffer_type& out() { return out_; }

    /// Flushes the buffer and closes the file. Throws `io_error`.
    void close() {
        out_.flush();
        file_.close();
    }

private:
#ifdef _WIN32
    unique_handle file_;
#else
    unique_fd file_;
#endif
    buffer_type out_;
};

}  // namespace iobench
