// posix: the system calls themselves, no user-space buffer unless said:
// write(2) once per item (the unbuffered baseline every buffered method is
// measured against), writev(2) with several segments per item or with a batch
// of IOV_MAX segments per call, pwrite(2) at explicit offsets, mmap(2) output
// (ftruncate + writes into the mapping), and the durability variants of the
// Go buffering experiment: fsync at the end, fdatasync every 100 lines,
// O_SYNC, O_DSYNC. Reading (file_read): read(2), pread(2), readv(2),
// posix_fadvise(SEQUENTIAL) + read(2), and O_DIRECT, each `buf` bytes per call.
// POSIX only; on Windows the names are listed as skipped.
#include <charconv>
#include <cstdio>
#include <string>
#include <vector>

#include <iobench/method.hpp>
#include "methods/buffer_sizes.hpp"

#ifndef _WIN32
#include <limits.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>

#include <iobench/byte_fold.hpp>
#include <iobench/error.hpp>
#include "methods/native_file.hpp"
#include "methods/posix_file.hpp"
#endif

namespace iobench {
namespace {

#ifndef _WIN32

/// Most bytes a decimal std::uint64_t takes.
constexpr std::size_t max_digits = 20;

/// Formats line `i` (prefix, i, suffix) at `out`, which has room for
/// prefix + 20 + suffix bytes; returns one past its end.
char* format_line(char* out, const NumberedLine& line, std::uint64_t i) {
    out = std::copy(line.prefix.begin(), line.prefix.end(), out);
    out = std::to_chars(out, out + max_digits, i).ptr;
    return std::copy(line.suffix.begin(), line.suffix.end(), out);
}

/// A buffer that holds one formatted line of `line`.
std::vector<char> line_buffer(const NumberedLine& line) {
    return std::vector<char>(line.prefix.size() + max_digits + line.suffix.size());
}

// --- write(2) ------------------------------------------------------------
// put_ints, put_repeat: write_each_int, write_each_line (methods/native_file.hpp).

/// One write(2) per line on a descriptor opened with `Flags`; every `SyncEvery`
/// lines and at the end fdatasync (0: never); fsync before close if `FsyncAtEnd`.
template <int Flags, std::uint64_t SyncEvery, bool FsyncAtEnd>
void write_lines(const Sink& sink, const NumberedLine& line, std::uint64_t count) {
    unique_fd fd = create_file(sink.path, Flags);
    std::vector<char> buf = line_buffer(line);
    for (std::uint64_t i = 0; i < count; ++i) {
        const char* end = format_line(buf.data(), line, i);
        write_all(fd.get(), buf.data(), static_cast<std::size_t>(end - buf.data()), sink.path);
        if constexpr (SyncEvery != 0) {
            if ((i + 1) % SyncEvery == 0 && ::fdatasync(fd.get()) != 0) throw_errno("fdatasync", sink.path);
        }
    }
    if constexpr (SyncEvery != 0) {
        if (count % SyncEvery != 0 && ::fdatasync(fd.get()) != 0) throw_errno("fdatasync", sink.path);
    }
    if constexpr (FsyncAtEnd) {
        if (::fsync(fd.get()) != 0) throw_errno("fsync", sink.path);
    }
    fd.close();
}

void write_console(const StdoutSink&, std::string_view line, std::uint64_t count) {
    for (std::uint64_t i = 0; i < count; ++i) write_all(STDOUT_FILENO, line.data(), line.size(), "stdout");
}

// --- writev(2) -----------------------------------------------------------

/// Writes every byte `iov[0..n)` describe, with as many writev calls as short
/// writes make necessary (the array is modified). Throws `io_error`.
void writev_all(int fd, iovec* iov, int n, const std::string& path) {
    while (n > 0) {
        const ssize_t w = ::writev(fd, iov, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            throw_errno("writev", path);
        }
        if (w == 0) throw io_error("writev", path, std::make_error_code(std::errc::io_error));
        auto left = static_cast<std::size_t>(w);
        while (n > 0 && left >= iov->iov_len) {
            left -= iov->iov_len;
            ++iov;
            --n;
        }
        if (n > 0) {
            iov->iov_base = static_cast<char*>(iov->iov_base) + left;
            iov->iov_len -= left;
        }
    }
}

iovec segment(const char* data, std::size_t size) { return {const_cast<char*>(data), size}; }

/// The console seed's writev shape ("[INFO] ", message, "\n"): the line in
/// three segments, its first half, the rest before the '\n', and the '\n'.
void split3(iovec (&iov)[3], std::string_view line) {
    const std::size_t body = line.size() - 1;
    iov[0] = segment(line.data(), body / 2);
    iov[1] = segment(line.data() + body / 2, body - body / 2);
    iov[2] = segment(line.data() + body, 1);
}

void writev_repeat(const Sink& sink, std::string_view line, std::uint64_t count) {
    unique_fd fd = create_file(sink.path);
    for (std::uint64_t i = 0; i < count; ++i) {
        iovec iov[3];
        split3(iov, line);
        writev_all(fd.get(), iov, 3, sink.path);
    }
    fd.close();
}

void writev_ints(const Sink& sink, std::uint64_t count) {
    unique_fd fd = create_file(sink.path);
    char digits[max_digits];
    for (std::uint64_t i = 0; i < count; ++i) {
        const char* end = std::to_chars(digits, digits + max_digits, i).ptr;
        iovec iov[2] = {segment(digits, static_cast<std::size_t>(end - digits)), segment("\n", 1)};
        writev_all(fd.get(), iov, 2, sink.path);
    }
    fd.close();
}

void writev_lines(const Sink& sink, const NumberedLine& line, std::uint64_t count) {
    unique_fd fd = create_file(sink.path);
    char digits[max_digits];
    for (std::uint64_t i = 0; i < count; ++i) {
        const char* end = std::to_chars(digits, digits + max_digits, i).ptr;
        iovec iov[3] = {segment(line.prefix.data(), line.prefix.size()),
                        segment(digits, static_cast<std::size_t>(end - digits)),
                        segment(line.suffix.data(), line.suffix.size())};
        writev_all(fd.get(), iov, 3, sink.path);
    }
    fd.close();
}

void writev_console(const StdoutSink&, std::string_view line, std::uint64_t count) {
    for (std::uint64_t i = 0; i < count; ++i) {
        iovec iov[3];
        split3(iov, line);
        writev_all(STDOUT_FILENO, iov, 3, "stdout");
    }
}

/// Segments per writev_batch call: IOV_MAX (1,024 on Linux).
constexpr int batch = IOV_MAX;

void writev_batch_repeat(const Sink& sink, std::string_view line, std::uint64_t count) {
    unique_fd fd = create_file(sink.path);
    std::vector<iovec> iov(batch);
    for (std::uint64_t done = 0; done < count;) {
        const int n = static_cast<int>(std::min<std::uint64_t>(batch, count - done));
        for (int k = 0; k < n; ++k) iov[k] = segment(line.data(), line.size());  // the same bytes, no copy
        writev_all(fd.get(), iov.data(), n, sink.path);
        done += static_cast<std::uint64_t>(n);
    }
    fd.close();
}

void writev_batch_ints(const Sink& sink, std::uint64_t count) {
    unique_fd fd = create_file(sink.path);
    std::vector<iovec> iov(batch);
    std::vector<char> arena(batch * (max_digits + 1));  // one slot per number, its '\n' included
    for (std::uint64_t done = 0; done < count;) {
        const int n = static_cast<int>(std::min<std::uint64_t>(batch, count - done));
        for (int k = 0; k < n; ++k) {
            char* slot = arena.data() + k * (max_digits + 1);
            char* end = std::to_chars(slot, slot + max_digits, done + static_cast<std::uint64_t>(k)).ptr;
            *end++ = '\n';
            iov[k] = segment(slot, static_cast<std::size_t>(end - slot));
        }
        writev_all(fd.get(), iov.data(), n, sink.path);
        done += static_cast<std::uint64_t>(n);
    }
    fd.close();
}

void writev_batch_lines(const Sink& sink, const NumberedLine& line, std::uint64_t count) {
    unique_fd fd = create_file(sink.path);
    constexpr int lines_per_call = batch / 3;  // prefix, number, suffix
    std::vector<iovec> iov(batch);
    std::vector<char> arena(lines_per_call * max_digits);
    for (std::uint64_t done = 0; done < count;) {
        const int n = static_cast<int>(std::min<std::uint64_t>(lines_per_call, count - done));
        for (int k = 0; k < n; ++k) {
            char* slot = arena.data() + k * max_digits;
            char* end = std::to_chars(slot, slot + max_digits, done + static_cast<std::uint64_t>(k)).ptr;
            iov[3 * k] = segment(line.prefix.data(), line.prefix.size());
            iov[3 * k + 1] = segment(slot, static_cast<std::size_t>(end - slot));
            iov[3 * k + 2] = segment(line.suffix.data(), line.suffix.size());
        }
        writev_all(fd.get(), iov.data(), 3 * n, sink.path);
        done += static_cast<std::uint64_t>(n);
    }
    fd.close();
}

// --- pwrite(2) -----------------------------------------------------------

/// Writes all `size` bytes at `offset` with pwrite(2) (short writes, EINTR).
void pwrite_all(int fd, const char* data, std::size_t size, off_t offset, const std::string& path) {
    while (size != 0) {
        const ssize_t n = ::pwrite(fd, data, size, offset);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw_errno("pwrite", path);
        }
        if (n == 0) throw io_error("pwrite", path, std::make_error_code(std::errc::io_error));
        data += n;
        size -= static_cast<std::size_t>(n);
        offset += n;
    }
}

void pwrite_ints(const Sink& sink, std::uint64_t count) {
    unique_fd fd = create_file(sink.path);
    char line[24];
    off_t offset = 0;
    for (std::uint64_t i = 0; i < count; ++i) {
        char* end = std::to_chars(line, line + sizeof line - 1, i).ptr;
        *end++ = '\n';
        const auto n = static_cast<std::size_t>(end - line);
        pwrite_all(fd.get(), line, n, offset, sink.path);
        offset += static_cast<off_t>(n);
    }
    fd.close();
}

void pwrite_repeat(const Sink& sink, std::string_view line, std::uint64_t count) {
    unique_fd fd = create_file(sink.path);
    off_t offset = 0;
    for (std::uint64_t i = 0; i < count; ++i) {
        pwrite_all(fd.get(), line.data(), line.size(), offset, sink.path);
        offset += static_cast<off_t>(line.size());
    }
    fd.close();
}

void pwrite_lines(const Sink& sink, const NumberedLine& line, std::uint64_t count) {
    unique_fd fd = create_file(sink.path);
    std::vector<char> buf = line_buffer(line);
    off_t offset = 0;
    for (std::uint64_t i = 0; i < count; ++i) {
        const auto n = static_cast<std::size_t>(format_line(buf.data(), line, i) - buf.data());
        pwrite_all(fd.get(), buf.data(), n, offset, sink.path);
        offset += static_cast<off_t>(n);
    }
    fd.close();
}

// --- mmap(2) -------------------------------------------------------------


/// Writes a file through a shared mapping: the file is grown with ftruncate
/// one window at a time, the window mapped, filled, and unmapped; finish()
/// truncates the file to the bytes written. A file system that runs out of
/// space while a page is first touched raises SIGBUS (no error code: mmap's
/// known hazard for output).
class MappedWriter {
public:
    MappedWriter(int fd, const std::string& path, std::size_t window) : fd_(fd), path_(path) {
        const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
        window_ = std::max(page, (window == 0 ? default_map_window : window) / page * page);
    }
    ~MappedWriter() {
        if (base_) ::munmap(base_, window_);
    }
    MappedWriter(const MappedWriter&) = delete;
    MappedWriter& operator=(const MappedWriter&) = delete;

    /// Room for `n` bytes at the current position, or nullptr when the window has less.
    char* room(std::size_t n) { return static_cast<std::size_t>(end_ - cur_) >= n ? cur_ : nullptr; }
    /// Moves the position to `p` (after writing up to it in room()).
    void advance_to(char* p) { cur_ = p; }

    void write(const char* data, std::size_t size) {
        while (size != 0) {
            if (cur_ == end_) next_window();
            const std::size_t n = std::min(size, static_cast<std::size_t>(end_ - cur_));
            std::memcpy(cur_, data, n);
            cur_ += n;
            data += n;
            size -= n;
        }
    }

    /// Unmaps and truncates the file to its final size. Throws `io_error`.
    void finish() {
        const off_t size = offset_ + static_cast<off_t>(cur_ - base_);
        if (base_ && ::munmap(base_, window_) != 0) throw_errno("munmap", path_);
        base_ = cur_ = end_ = nullptr;
        if (::ftruncate(fd_, size) != 0) throw_errno("ftruncate", path_);
    }

private:
    void next_window() {
        if (base_) {
            if (::munmap(base_, window_) != 0) throw_errno("munmap", path_);
            offset_ += static_cast<off_t>(window_);
            base_ = nullptr;
        }
        if (::ftruncate(fd_, offset_ + static_cast<off_t>(window_)) != 0) throw_errno("ftruncate", path_);
        void* p = ::mmap(nullptr, window_, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, offset_);
        if (p == MAP_FAILED) throw_errno("mmap", path_);
        base_ = cur_ = static_cast<char*>(p);
        end_ = base_ + window_;
    }

    int fd_;
    std::string path_;
    std::size_t window_;
    off_t offset_ = 0;
    char* base_ = nullptr;
    char* cur_ = nullptr;
    char* end_ = nullptr;
};

/// mmap needs a descriptor open for reading and writing.
unique_fd create_rw_file(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) throw_errno("open", path);
    return unique_fd(fd, path);
}

/// Formats with `format(char*) -> char*` (at most `max` bytes) straight into the mapping.
template <class Format>
void map_formatted(MappedWriter& out, std::size_t max, Format format) {
    if (char* p = out.room(max)) {
        out.advance_to(format(p));
    } else {
        char tmp[64];
        out.write(tmp, static_cast<std::size_t>(format(tmp) - tmp));
    }
}

void mmap_ints(const Sink& sink, std::uint64_t count) {
    unique_fd fd = create_rw_file(sink.path);
    MappedWriter out(fd.get(), sink.path, sink.buffer_size);
    for (std::uint64_t i = 0; i < count; ++i)
        map_formatted(out, max_digits + 1, [i](char* p) {
            p = std::to_chars(p, p + max_digits, i).ptr;
            *p++ = '\n';
            return p;
        });
    out.finish();
    fd.close();
}

void mmap_repeat(const Sink& sink, std::string_view line, std::uint64_t count) {
    unique_fd fd = create_rw_file(sink.path);
    MappedWriter out(fd.get(), sink.path, sink.buffer_size);
    for (std::uint64_t i = 0; i < count; ++i) out.write(line.data(), line.size());
    out.finish();
    fd.close();
}

void mmap_lines(const Sink& sink, const NumberedLine& line, std::uint64_t count) {
    unique_fd fd = create_rw_file(sink.path);
    MappedWriter out(fd.get(), sink.path, sink.buffer_size);
    char digits[max_digits];
    for (std::uint64_t i = 0; i < count; ++i) {
        out.write(line.prefix.data(), line.prefix.size());
        out.write(digits, static_cast<std::size_t>(std::to_chars(digits, digits + max_digits, i).ptr - digits));
        out.write(line.suffix.data(), line.suffix.size());
    }
    out.finish();
    fd.close();
}

void mmap_doubles(const Sink& sink, std::span<const double> values) {
    unique_fd fd = create_rw_file(sink.path);
    MappedWriter out(fd.get(), sink.path, sink.buffer_size);
    for (double v : values)
        map_formatted(out, 32, [v](char* p) {
            p = std::to_chars(p, p + 31, v).ptr;
            *p++ = '\n';
            return p;
        });
    out.finish();
    fd.close();
}

// --- reading: read(2), pread(2), readv(2), posix_fadvise + read, O_DIRECT ---
// Every call fills a user buffer of `buf` bytes (default_buffer_size), whose
// bytes are then folded (iobench/byte_fold.hpp); none keeps more than that buffer.


/// Bytes per read call for `source` (at most fd_max_io).
std::size_t read_chunk(const Source& source) {
    return std::min(source.buffer_size ? source.buffer_size : default_buffer_size, fd_max_io);
}

/// read(2) of `buf` bytes per call until end of file. `Sequential`:
/// posix_fadvise(POSIX_FADV_SEQUENTIAL) first (Linux doubles its read-ahead).
template <bool Sequential>
ReadResult read_file(const Source& source) {
    unique_fd fd = open_file(source.path);
    if constexpr (Sequential) {
        if (const int rc = ::posix_fadvise(fd.get(), 0, 0, POSIX_FADV_SEQUENTIAL); rc != 0)
            throw io_error("posix_fadvise", source.path, std::error_code(rc, std::generic_category()));
    }
    const ReadResult result = read_folded(fd.get(), read_chunk(source), source.path);
    fd.close();
    return result;
}

/// pread(2) of `buf` bytes per call at explicit, increasing offsets.
ReadResult pread_file(const Source& source) {
    unique_fd fd = open_file(source.path);
    const std::size_t chunk = read_chunk(source);
    std::unique_ptr<char[]> buf(new char[chunk]);
    ByteFold fold;
    off_t offset = 0;
    for (;;) {
        const ssize_t n = ::pread(fd.get(), buf.get(), chunk, offset);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw_errno("pread", source.path);
        }
        if (n == 0) break;
        fold.update(buf.get(), static_cast<std::size_t>(n));
        offset += n;
    }
    fd.close();
    return fold.result();
}

/// Segments of one readv_file call.
constexpr int readv_segments = 4;

/// readv(2) of `buf` bytes per call, scattered over 4 separate buffers of
/// buf/4 bytes (at least 1) each.
ReadResult readv_file(const Source& source) {
    unique_fd fd = open_file(source.path);
    const std::size_t segment = std::max<std::size_t>(1, read_chunk(source) / readv_segments);
    std::vector<std::unique_ptr<char[]>> bufs;
    iovec iov[readv_segments];
    for (int k = 0; k < readv_segments; ++k) {
        bufs.emplace_back(new char[segment]);
        iov[k] = {bufs.back().get(), segment};
    }
    ByteFold fold;
    for (;;) {
        const ssize_t n = ::readv(fd.get(), iov, readv_segments);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw_errno("readv", source.path);
        }
        if (n == 0) break;
        auto left = static_cast<std::size_t>(n);
        for (int k = 0; k < readv_segments && left != 0; ++k) {
            const std::size_t part = std::min(left, segment);
            fold.update(iov[k].iov_base, part);
            left -= part;
        }
    }
    fd.close();
    return fold.result();
}

/// Alignment O_DIRECT needs for buffer addresses (`memory`) and for file
/// offsets and lengths (`offset`): statx(STATX_DIOALIGN) where the kernel
/// (6.1+) reports it, else 4096 for both (a page and every common block size).
struct DirectAlign {
    std::size_t memory = 4096;
    std::size_t offset = 4096;
};

DirectAlign direct_align(int fd) {
    DirectAlign a;
#if defined(STATX_DIOALIGN)
    struct statx sx {};
    if (::statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &sx) == 0 && (sx.stx_mask & STATX_DIOALIGN) &&
        sx.stx_dio_offset_align != 0) {
        a.memory = sx.stx_dio_mem_align;
        a.offset = sx.stx_dio_offset_align;
    }
#else
    (void)fd;
#endif
    return a;
}

/// The unavailable_error for a file system that refuses O_DIRECT.
unavailable_error no_direct_io(const std::string& path, const char* call) {
    const std::string fs = filesystem_type(std::filesystem::path(path).parent_path());
    return unavailable_error("O_DIRECT not supported by " + fs + " (" + call + ": " + std::strerror(errno) + ")");
}

/// read(2) on a descriptor opened O_DIRECT: straight from the device into a
/// buffer aligned as the file system requires, bypassing the page cache
/// (cached pages are written back first, not used). `buf` is rounded up to a
/// multiple of the offset alignment. Skipped where the file system refuses
/// O_DIRECT (open or the first read fails with EINVAL).
ReadResult read_direct(const Source& source) {
    const int raw = ::open(source.path.c_str(), O_RDONLY | O_CLOEXEC | O_DIRECT);
    if (raw < 0) {
        if (errno == EINVAL) throw no_direct_io(source.path, "open");
        throw_errno("open(O_DIRECT)", source.path);
    }
    unique_fd fd(raw, source.path);
    const DirectAlign align = direct_align(fd.get());
    const std::size_t chunk = (read_chunk(source) + align.offset - 1) / align.offset * align.offset;
    void* mem = nullptr;
    if (const int rc = ::posix_memalign(&mem, std::max(align.memory, sizeof(void*)), chunk); rc != 0)
        throw io_error("posix_memalign", source.path, std::error_code(rc, std::generic_category()));
    const std::unique_ptr<char, void (*)(void*)> buf(static_cast<char*>(mem), std::free);
    ByteFold fold;
    bool first = true;
    for (;;) {
        const ssize_t n = ::read(fd.get(), buf.get(), chunk);
        if (n < 0) {
            if (errno == EINTR) continue;
            if (errno == EINVAL && first) throw no_direct_io(source.path, "read");
            throw_errno("read(O_DIRECT)", source.path);
        }
        first = false;
        if (n == 0) break;
        fold.update(buf.get(), static_cast<std::size_t>(n));
    }
    fd.close();
    return fold.result();
}

constexpr PutInts write_ints = write_each_int;
constexpr PutRepeat write_repeat = write_each_line;
constexpr ReadBytes read_plain = read_file<false>;
constexpr ReadBytes read_sequential = read_file<true>;

constexpr const char* unavailable = "";
constexpr PutLines write_lines_plain = write_lines<0, 0, false>;
constexpr PutLines write_fsync_lines = write_lines<0, 0, true>;
constexpr PutLines write_fdatasync_lines = write_lines<0, 100, false>;
constexpr PutLines write_osync_lines = write_lines<O_SYNC, 0, false>;
constexpr PutLines write_odsync_lines = write_lines<O_DSYNC, 0, false>;

// --- per-call: one write(2) per call on a descriptor opened with O_APPEND --
// POSIX: with O_APPEND the offset moves to the end and the write happens as
// one step, so the whole lines of several threads never overlap on a regular
// file (Calls::shared).

/// The descriptor of a per-call sink.
struct AppendFile {
    unique_fd fd;
};

CallSink append_open(const Sink& sink) { return new AppendFile{create_file(sink.path, O_APPEND)}; }

void append_close(CallSink sink) {
    std::unique_ptr<AppendFile> file(static_cast<AppendFile*>(sink));
    file->fd.close();
}

void append_int(CallSink sink, std::uint64_t value) {
    const auto& fd = static_cast<AppendFile*>(sink)->fd;
    char text[max_digits + 1];
    char* end = std::to_chars(text, text + max_digits, value).ptr;
    *end++ = '\n';
    write_all(fd.get(), text, static_cast<std::size_t>(end - text), fd.path());
}

void append_line(CallSink sink, std::string_view line) {
    const auto& fd = static_cast<AppendFile*>(sink)->fd;
    write_all(fd.get(), line.data(), line.size(), fd.path());
}

/// snprintf of the record into a buffer on the stack, then one write(2).
void append_record(CallSink sink, const LogRecord& r) {
    const auto& fd = static_cast<AppendFile*>(sink)->fd;
    char text[512];
    const int n = std::snprintf(text, sizeof text, log_record_printf_format,
                                static_cast<unsigned long long>(r.time_us / 1000000),
                                static_cast<unsigned long long>(r.time_us % 1000000), level_name(r.level).data(),
                                r.logger.data(), static_cast<unsigned long long>(r.request),
                                static_cast<unsigned long long>(r.duration_us), r.text.data());
    if (n < 0 || static_cast<std::size_t>(n) >= sizeof text)
        throw io_error("snprintf", fd.path(), std::make_error_code(std::errc::value_too_large));
    write_all(fd.get(), text, static_cast<std::size_t>(n), fd.path());
}

// Each operation of the table below names its function through IOBENCH_POSIX:
// the function where the family is built, `not_built` (listed as skipped with
// `unavailable`) on Windows, whose build never sees these names.
#define IOBENCH_POSIX(fn) fn

#else  // _WIN32: the same methods, listed as skipped.

constexpr const char* unavailable = "POSIX only: not built on Windows";
#define IOBENCH_POSIX(fn) ::iobench::not_built

#endif

constexpr Calls append_calls{.open = IOBENCH_POSIX(append_open),
                              .close = IOBENCH_POSIX(append_close),
                              .put_int = IOBENCH_POSIX(append_int),
                              .put_line = IOBENCH_POSIX(append_line),
                              .put_record = IOBENCH_POSIX(append_record),
                              .shared = true};

const MethodRegistrar registrar{{.family = "posix", .unavailable = unavailable}, {
    {.name = "write",
     .description = "write(2) once per item (std::to_chars for numbers): one syscall per item; per call: on a "
                    "descriptor opened with O_APPEND (log records: snprintf, then one write)",
     .put_ints = IOBENCH_POSIX(write_ints),
     .put_repeat = IOBENCH_POSIX(write_repeat),
     .put_lines = IOBENCH_POSIX(write_lines_plain),
     .put_console = IOBENCH_POSIX(write_console),
     .calls = &append_calls},
    {.name = "writev",
     .description = "writev(2) once per item, the item in 2-3 segments (line: prefix, number, suffix)",
     .put_ints = IOBENCH_POSIX(writev_ints),
     .put_repeat = IOBENCH_POSIX(writev_repeat),
     .put_lines = IOBENCH_POSIX(writev_lines),
     .put_console = IOBENCH_POSIX(writev_console)},
    {.name = "writev_batch",
     .description = "writev(2) of IOV_MAX segments per call, one (or three) per item: batching without copying",
     .put_ints = IOBENCH_POSIX(writev_batch_ints),
     .put_repeat = IOBENCH_POSIX(writev_batch_repeat),
     .put_lines = IOBENCH_POSIX(writev_batch_lines)},
    {.name = "pwrite",
     .description = "pwrite(2) once per item at its offset",
     .put_ints = IOBENCH_POSIX(pwrite_ints),
     .put_repeat = IOBENCH_POSIX(pwrite_repeat),
     .put_lines = IOBENCH_POSIX(pwrite_lines)},
    {.name = "mmap",
     .description = "ftruncate + mmap(MAP_SHARED) windows of `buf` bytes (" + size_text(default_map_window) +
                    ") filled with memcpy/to_chars",
     .default_buffer_size = default_map_window,
     .sizable_buffer = true,
     .put_ints = IOBENCH_POSIX(mmap_ints),
     .put_repeat = IOBENCH_POSIX(mmap_repeat),
     .put_lines = IOBENCH_POSIX(mmap_lines),
     .put_doubles = IOBENCH_POSIX(mmap_doubles)},
    {.name = "write_fsync",
     .description = "write(2) per line, fsync(2) once before close: durable at the end",
     .put_lines = IOBENCH_POSIX(write_fsync_lines)},
    {.name = "write_fdatasync_100",
     .description = "write(2) per line, fdatasync(2) every 100 lines and at the end: at most 100 lines at risk",
     .put_lines = IOBENCH_POSIX(write_fdatasync_lines)},
    {.name = "write_O_SYNC",
     .description = "write(2) per line on a descriptor opened O_SYNC: every line durable, metadata included",
     .put_lines = IOBENCH_POSIX(write_osync_lines)},
    {.name = "write_O_DSYNC",
     .description = "write(2) per line on a descriptor opened O_DSYNC: every line's data durable",
     .put_lines = IOBENCH_POSIX(write_odsync_lines)},
    {.name = "read",
     .description =
         "read(2) of `buf` bytes (" + size_text(default_buffer_size) + ") per call into one buffer until end of file",
     .default_buffer_size = default_buffer_size,
     .sizable_buffer = true,
     .read_bytes = IOBENCH_POSIX(read_plain)},
    {.name = "pread",
     .description =
         "pread(2) of `buf` bytes (" + size_text(default_buffer_size) + ") per call at explicit, increasing offsets",
     .default_buffer_size = default_buffer_size,
     .sizable_buffer = true,
     .read_bytes = IOBENCH_POSIX(pread_file)},
    {.name = "readv",
     .description = "readv(2) of `buf` bytes (" + size_text(default_buffer_size) +
                    ") per call, scattered over 4 buffers of buf/4 bytes",
     .default_buffer_size = default_buffer_size,
     .sizable_buffer = true,
     .read_bytes = IOBENCH_POSIX(readv_file)},
    {.name = "read_FADV_SEQUENTIAL",
     .description = "posix_fadvise(POSIX_FADV_SEQUENTIAL), then read(2) of `buf` bytes (" +
                    size_text(default_buffer_size) + ") per call",
     .default_buffer_size = default_buffer_size,
     .sizable_buffer = true,
     .read_bytes = IOBENCH_POSIX(read_sequential)},
    {.name = "read_O_DIRECT",
     .description = "read(2) of `buf` bytes (" + size_text(default_buffer_size) +
                    ", rounded up to the O_DIRECT alignment) on a descriptor opened O_DIRECT into an aligned buffer: "
                    "no page cache (skipped where the file system refuses O_DIRECT)",
     .default_buffer_size = default_buffer_size,
     .sizable_buffer = true,
     .read_bytes = IOBENCH_POSIX(read_direct)},
}};

}  // namespace
}  // namespace iobench
