// FILE* streams for the methods that write through C stdio (stdio, fmt):
// opening with a buffer of a chosen size and mode, closing with error checks,
// and setting stdout's buffering for the console methods.
#pragma once

#include <cerrno>
#include <cstdio>
#include <memory>
#include <string>
#include <system_error>

#include <iobench/error.hpp>
#include <iobench/method.hpp>

namespace iobench {

/// A FILE* and the buffer iobench gave it, which must outlive it.
struct StdioFile {
    std::FILE* f = nullptr;
    std::unique_ptr<char[]> buffer;
    std::string path;

    StdioFile() = default;
    StdioFile(const StdioFile&) = delete;
    StdioFile& operator=(const StdioFile&) = delete;
    ~StdioFile() {
        if (f) std::fclose(f);
    }

    /// Closes an output stream; a write error seen by ferror or fclose becomes `io_error`.
    void close_output() {
        std::FILE* const stream = f;
        f = nullptr;
        const bool failed = std::ferror(stream) != 0;
        const int saved = errno;
        if (std::fclose(stream) != 0) throw_errno("fclose", path);
        if (failed) throw io_error("fwrite", path, std::error_code(saved, std::generic_category()));
    }
};

/// Sets the buffering of `f`: `mode` (_IOFBF, _IOLBF, _IONBF) with a buffer of
/// `buffer_size` bytes allocated into `storage` when non-zero, else the
/// library's own buffer. Must precede any I/O on `f`.
inline void set_buffering(std::FILE* f, int mode, std::size_t buffer_size, std::unique_ptr<char[]>& storage,
                          const std::string& path) {
    if (mode == _IONBF) buffer_size = 0;
#ifdef _WIN32
    // The Windows C runtimes refuse sizes below 2 bytes (EINVAL), so also 0 for
    // "the library's own buffer", and their _IOLBF is _IOFBF: a stream that
    // keeps its own buffer needs no call, and a 1-byte buffer becomes 2 bytes.
    if (buffer_size == 0 && mode != _IONBF) return;
    if (buffer_size == 1) buffer_size = 2;
#endif
    if (buffer_size != 0) storage = std::make_unique<char[]>(buffer_size);
    if (std::setvbuf(f, storage.get(), mode, buffer_size) != 0) throw_errno("setvbuf", path);
}

/// Opens `path` with fopen `mode`; `buffering` (_IOFBF, _IOLBF, _IONBF, or -1
/// for the library's default) and `buffer_size` as for set_buffering.
inline void open_stream(StdioFile& s, const std::string& path, const char* mode, std::size_t buffer_size,
                        int buffering = -1) {
    s.path = path;
    s.f = std::fopen(path.c_str(), mode);
    if (!s.f) throw_errno("fopen", path);
    if (buffering != -1 || buffer_size != 0)
        set_buffering(s.f, buffering == -1 ? _IOFBF : buffering, buffer_size, s.buffer, path);
}

/// Gives stdout `mode` (_IOFBF, _IOLBF, _IONBF; -1: _IOFBF) with a buffer of
/// `buffer_size` bytes (BUFSIZ when 0), unless an earlier call already did:
/// the buffer then stays stdout's, and alive, for the rest of the process, as
/// with a program that calls setvbuf once at its start. (Calling setvbuf again
/// on a stream that has written is undefined by the C standard; glibc then
/// writes the next message at once, unbuffered.) `mode` -1 with `buffer_size`
/// 0 leaves stdout as it is. A 1-byte buffer is 2 bytes on Windows, whose C
/// runtimes refuse 1 (as set_buffering says). Throws `io_error`.
inline void set_stdout_buffering(int mode, std::size_t buffer_size) {
    struct Installed {
        int mode = -1;
        std::size_t size = 0;
        std::unique_ptr<char[]> buffer;
    };
    static Installed installed;
    if (mode == -1 && buffer_size == 0) return;
    if (mode == -1) mode = _IOFBF;
    if (mode == _IONBF) buffer_size = 0;
    else if (buffer_size == 0) buffer_size = BUFSIZ;
#ifdef _WIN32
    else if (buffer_size == 1) buffer_size = 2;  // the Windows C runtimes refuse 1 (set_buffering)
#endif
    if (installed.mode == mode && installed.size == buffer_size) return;
    std::fflush(stdout);
    std::unique_ptr<char[]> buffer = buffer_size ? std::make_unique<char[]>(buffer_size) : nullptr;
    if (std::setvbuf(stdout, buffer.get(), mode, buffer_size) != 0) throw_errno("setvbuf", "stdout");
    installed = {mode, buffer_size, std::move(buffer)};  // stdout no longer uses the previous buffer
}

/// Ends a console call: everything buffered goes to the kernel; errors throw.
inline void flush_stdout() {
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) throw_errno("fflush", "stdout");
}

/// A per-call sink (iobench/calls.hpp, OpenCalls) on a FILE*: `sink.path`
/// opened "wb" with a buffer of `sink.buffer_size` bytes (0: the library's).
/// Throws `io_error`.
inline void* open_call_stream(const Sink& sink) {
    auto s = std::make_unique<StdioFile>();
    open_stream(*s, sink.path, "wb", sink.buffer_size);
    return s.release();
}

/// Closes and frees a sink of open_call_stream; a write error seen by ferror
/// or fclose becomes `io_error` (the sink is freed all the same).
inline void close_call_stream(void* sink) {
    std::unique_ptr<StdioFile> s(static_cast<StdioFile*>(sink));
    s->close_output();
}

/// The FILE* of a sink of open_call_stream.
inline std::FILE* call_stream(void* sink) { return static_cast<StdioFile*>(sink)->f; }

}  // namespace iobench
