// Opening and closing files with POSIX calls, for the methods that work on a
// raw file descriptor (posix, obuf). Errors become `io_error`.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <memory>
#include <string>

#include <iobench/byte_fold.hpp>
#include <iobench/error.hpp>

namespace iobench {

/// A file descriptor that closes itself. `close()` reports the error that the
/// destructor has to swallow, so methods call it at the end of a run.
class unique_fd {
public:
    unique_fd(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
    ~unique_fd() {
        if (fd_ >= 0) ::close(fd_);
    }
    unique_fd(const unique_fd&) = delete;
    unique_fd& operator=(const unique_fd&) = delete;

    int get() const { return fd_; }
    const std::string& path() const { return path_; }

    /// Closes the descriptor. Throws `io_error` when close(2) fails (a
    /// delayed write error on some file systems).
    void close() {
        const int fd = fd_;
        fd_ = -1;
        if (::close(fd) != 0) throw_errno("close", path_);
    }

private:
    int fd_;
    std::string path_;
};

/// Creates or truncates `path` for writing (mode 0644). Throws `io_error`.
inline unique_fd create_file(const std::string& path, int extra_flags = 0) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | extra_flags, 0644);
    if (fd < 0) throw_errno("open", path);
    return unique_fd(fd, path);
}

/// Opens the existing file `path` for writing from its first byte, without
/// truncating it (no O_CREAT, no O_TRUNC). Throws `io_error`.
inline unique_fd open_file_for_overwrite(const std::string& path) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) throw_errno("open", path);
    return unique_fd(fd, path);
}

/// Opens `path` for reading. Throws `io_error`.
inline unique_fd open_file(const std::string& path, int extra_flags = 0) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | extra_flags);
    if (fd < 0) throw_errno("open", path);
    return unique_fd(fd, path);
}

/// Largest byte count passed to one write(2)/read(2) call (1 GiB), well
/// below SSIZE_MAX and Linux's per-call cap of 0x7ffff000 bytes.
inline constexpr std::size_t fd_max_io = std::size_t{1} << 30;

/// Writes all of `data` with as many write(2) calls as it takes: retries on
/// EINTR, continues after short writes, at most `fd_max_io` bytes per call.
/// Throws `io_error` on failure, and when write(2) makes no progress.
inline void write_all(int fd, const char* data, std::size_t size, const std::string& path) {
    while (size != 0) {
        const std::size_t chunk = size < fd_max_io ? size : fd_max_io;
        const ssize_t n = ::write(fd, data, chunk);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw_errno("write", path);
        }
        if (n == 0) throw io_error("write", path, std::make_error_code(std::errc::io_error));
        data += n;
        size -= static_cast<std::size_t>(n);
    }
}

/// Reads the open descriptor `fd` to its end with read(2) of `chunk` bytes
/// (at most fd_max_io) into one buffer, folding every byte in file order
/// (iobench/byte_fold.hpp); retries on EINTR. Returns the byte count and the
/// fold. Throws `io_error("read", path)`.
inline ReadResult read_folded(int fd, std::size_t chunk, const std::string& path) {
    chunk = chunk < fd_max_io ? chunk : fd_max_io;
    std::unique_ptr<char[]> buf(new char[chunk]);
    ByteFold fold;
    for (;;) {
        const ssize_t n = ::read(fd, buf.get(), chunk);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw_errno("read", path);
        }
        if (n == 0) break;
        fold.update(buf.get(), static_cast<std::size_t>(n));
    }
    return fold.result();
}

}  // namespace iobench
