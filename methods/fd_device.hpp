// POSIX file-descriptor devices for obuf/ibuf, and the obuf/ibuf aliases over
// them. POSIX only (<unistd.h>); a Windows HANDLE device will sit beside this.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <string>
#include <system_error>

#include <iobench/error.hpp>
#include "methods/ibuf.hpp"
#include "methods/obuf.hpp"
#include "methods/posix_file.hpp"

namespace iobench {

/// Sink device over an open POSIX file descriptor (not owned: the caller
/// closes it). `path` only names the file in error messages.
struct fd_sink_device {
    int fd = -1;
    std::string path;

    /// Writes all `size` bytes of `data` (iobench::write_all: write(2),
    /// retrying on EINTR and after short writes). Throws io_error("write", path).
    void write_all(const char* data, std::size_t size) { iobench::write_all(fd, data, size, path); }
};

/// Source device over an open POSIX file descriptor (not owned: the caller
/// closes it). `path` only names the file in error messages.
struct fd_source_device {
    int fd = -1;
    std::string path;

    /// Reads up to `size` bytes into `buf` with read(2), retrying on EINTR.
    /// Returns the byte count, 0 at end of file. Throws io_error("read", path).
    std::size_t read_some(char* buf, std::size_t size) {
        const std::size_t chunk = size < fd_max_io ? size : fd_max_io;
        for (;;) {
            const ssize_t n = ::read(fd, buf, chunk);
            if (n >= 0) return static_cast<std::size_t>(n);
            if (errno != EINTR) throw_errno("read", path);
        }
    }
};

/// Buffered writer over a file descriptor. Call flush() before closing.
using obuf = basic_obuf<fd_sink_device>;
/// Buffered integer reader over a file descriptor.
using ibuf = basic_ibuf<fd_source_device>;

}  // namespace iobench
