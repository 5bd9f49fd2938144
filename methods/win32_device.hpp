// Win32 file HANDLEs for the methods that call the Windows API directly
// (win32, and obuf/ibuf on Windows): opening and closing files with
// CreateFileW/CloseHandle, writing and reading with WriteFile/ReadFile, and
// the HANDLE sink/source devices of obuf/ibuf (the Windows counterparts of
// fd_device.hpp). Errors become `io_error` carrying GetLastError().
// Windows only.
#pragma once

#ifndef _WIN32
#error "methods/win32_device.hpp is for Windows builds only"
#endif

#include <windows.h>

#include <cstddef>
#include <memory>
#include <string>
#include <system_error>

#include <iobench/byte_fold.hpp>
#include <iobench/error.hpp>
#include "methods/ibuf.hpp"
#include "methods/obuf.hpp"

namespace iobench {

/// Throws `io_error` for `call` on `path` with the calling thread's GetLastError().
[[noreturn]] inline void throw_last_error(const std::string& call, const std::string& path) {
    throw io_error(call, path, std::error_code(static_cast<int>(GetLastError()), std::system_category()));
}

/// `path` (UTF-8) as the UTF-16 string the wide Win32 calls take.
inline std::wstring to_wide(const std::string& path) {
    if (path.empty()) return {};
    const int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path.data(), static_cast<int>(path.size()),
                                      nullptr, 0);
    if (n <= 0) throw_last_error("MultiByteToWideChar", path);
    std::wstring wide(static_cast<std::size_t>(n), L'\0');
    MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path.data(), static_cast<int>(path.size()), wide.data(), n);
    return wide;
}

/// A file HANDLE that closes itself. `close()` reports the error that the
/// destructor has to swallow, so methods call it at the end of a run.
class unique_handle {
public:
    unique_handle(HANDLE h, std::string path) : h_(h), path_(std::move(path)) {}
    ~unique_handle() {
        if (h_ != INVALID_HANDLE_VALUE) CloseHandle(h_);
    }
    unique_handle(const unique_handle&) = delete;
    unique_handle& operator=(const unique_handle&) = delete;

    HANDLE get() const { return h_; }
    const std::string& path() const { return path_; }

    /// Closes the handle. Throws `io_error` when CloseHandle fails.
    void close() {
        const HANDLE h = h_;
        h_ = INVALID_HANDLE_VALUE;
        if (!CloseHandle(h)) throw_last_error("CloseHandle", path_);
    }

private:
    HANDLE h_;
    std::string path_;
};

/// Creates or truncates `path` for writing (CREATE_ALWAYS, no sharing for
/// writers, `flags` such as FILE_FLAG_WRITE_THROUGH added to
/// FILE_ATTRIBUTE_NORMAL). Throws `io_error`.
inline unique_handle create_file_handle(const std::string& path, DWORD flags = 0) {
    const HANDLE h = CreateFileW(to_wide(path).c_str(), GENERIC_WRITE, FILE_SHARE_READ, nullptr, CREATE_ALWAYS,
                                 FILE_ATTRIBUTE_NORMAL | flags, nullptr);
    if (h == INVALID_HANDLE_VALUE) throw_last_error("CreateFileW", path);
    return unique_handle(h, path);
}

/// Opens the existing file `path` for writing from its first byte, without
/// truncating it (OPEN_EXISTING, no sharing for writers). Throws `io_error`.
inline unique_handle overwrite_file_handle(const std::string& path) {
    const HANDLE h = CreateFileW(to_wide(path).c_str(), GENERIC_WRITE, FILE_SHARE_READ, nullptr, OPEN_EXISTING,
                                 FILE_ATTRIBUTE_NORMAL, nullptr);
    if (h == INVALID_HANDLE_VALUE) throw_last_error("CreateFileW", path);
    return unique_handle(h, path);
}

/// Opens the existing file `path` for reading (`flags` such as
/// FILE_FLAG_SEQUENTIAL_SCAN added). Throws `io_error`.
inline unique_handle open_file_handle(const std::string& path, DWORD flags = 0) {
    const HANDLE h = CreateFileW(to_wide(path).c_str(), GENERIC_READ, FILE_SHARE_READ, nullptr, OPEN_EXISTING,
                                 FILE_ATTRIBUTE_NORMAL | flags, nullptr);
    if (h == INVALID_HANDLE_VALUE) throw_last_error("CreateFileW", path);
    return unique_handle(h, path);
}

/// Largest byte count passed to one WriteFile/ReadFile call (1 GiB; the
/// calls take a 32-bit DWORD count).
inline constexpr std::size_t handle_max_io = std::size_t{1} << 30;

/// Writes all of `data` with as many WriteFile calls as it takes (at most
/// `handle_max_io` bytes each, continuing after short writes). Throws
/// `io_error` on failure, and when WriteFile makes no progress.
inline void write_all(HANDLE h, const char* data, std::size_t size, const std::string& path) {
    while (size != 0) {
        const DWORD chunk = static_cast<DWORD>(size < handle_max_io ? size : handle_max_io);
        DWORD written = 0;
        if (!WriteFile(h, data, chunk, &written, nullptr)) throw_last_error("WriteFile", path);
        if (written == 0) throw io_error("WriteFile", path, std::make_error_code(std::errc::io_error));
        data += written;
        size -= written;
    }
}

/// Sink device over an open file HANDLE (not owned: the caller closes it).
/// `path` only names the file in error messages.
struct handle_sink_device {
    HANDLE handle = INVALID_HANDLE_VALUE;
    std::string path;

    /// Writes all `size` bytes of `data` with WriteFile (iobench::write_all).
    /// Throws io_error("WriteFile", path).
    void write_all(const char* data, std::size_t size) { iobench::write_all(handle, data, size, path); }
};

/// Source device over an open file HANDLE (not owned: the caller closes it).
/// `path` only names the file in error messages.
struct handle_source_device {
    HANDLE handle = INVALID_HANDLE_VALUE;
    std::string path;

    /// Reads up to `size` bytes into `buf` with one ReadFile call. Returns the
    /// byte count, 0 at end of file (also for a pipe whose writer closed).
    /// Throws io_error("ReadFile", path).
    std::size_t read_some(char* buf, std::size_t size) {
        const DWORD chunk = static_cast<DWORD>(size < handle_max_io ? size : handle_max_io);
        DWORD got = 0;
        if (!ReadFile(handle, buf, chunk, &got, nullptr)) {
            if (GetLastError() == ERROR_BROKEN_PIPE) return 0;
            throw_last_error("ReadFile", path);
        }
        return got;
    }
};

/// Buffered writer over a file HANDLE. Call flush() before closing.
using handle_obuf = basic_obuf<handle_sink_device>;
/// Buffered integer reader over a file HANDLE.
using handle_ibuf = basic_ibuf<handle_source_device>;

/// Reads the open handle `h` to its end with synchronous ReadFile of
/// `chunk` bytes (at most handle_max_io) into one buffer, folding every byte
/// in file order (iobench/byte_fold.hpp). Returns the byte count and the fold.
/// Throws `io_error("ReadFile", path)`.
inline ReadResult read_folded(HANDLE h, std::size_t chunk, const std::string& path) {
    chunk = chunk < handle_max_io ? chunk : handle_max_io;
    std::unique_ptr<char[]> buf(new char[chunk]);
    ByteFold fold;
    for (;;) {
        DWORD got = 0;
        if (!ReadFile(h, buf.get(), static_cast<DWORD>(chunk), &got, nullptr)) {
            if (GetLastError() == ERROR_HANDLE_EOF) break;
            throw_last_error("ReadFile", path);
        }
        if (got == 0) break;
        fold.update(buf.get(), got);
    }
    return fold.result();
}

}  // namespace iobench
