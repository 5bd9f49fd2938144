// win32: the Windows API called directly. `WriteFile` once per line on a
// HANDLE from CreateFileW, no user-space buffer: the unbuffered baseline on
// Windows, as write(2) is on POSIX (methods/posix.cpp); on standard output,
// once per message on GetStdHandle(STD_OUTPUT_HANDLE), and `WriteConsoleW`,
// which writes UTF-16 text to a console and to nothing else. Buffered writing
// over a HANDLE is the `obuf` method on Windows (methods/obuf.cpp).
// Reading (file_read), the methods of the C file-reading benchmark
// (the write-up "C File Reading Benchmark" (Windows), docs/results/README.md#sources): ReadFile synchronous
// (with and without FILE_FLAG_SEQUENTIAL_SCAN), overlapped with 1, 2 or 4
// reads in flight, FILE_FLAG_NO_BUFFERING, and CreateFileMapping +
// MapViewOfFile (whole file, or windows of `buf` bytes).
// Listed everywhere; built on Windows only, skipped elsewhere with the reason.
#include <iobench/method.hpp>
#include "methods/buffer_sizes.hpp"

#ifdef _WIN32
#include <algorithm>
#include <cstdint>
#include <memory>
#include <system_error>
#include <vector>

#include <iobench/byte_fold.hpp>
#include <iobench/error.hpp>
#include "methods/native_file.hpp"
#include "methods/win32_device.hpp"
#endif

namespace iobench {
namespace {

#ifdef _WIN32
constexpr const char* unavailable = "";

// --- reading: ReadFile, overlapped ReadFile, NO_BUFFERING, file mapping ---
// Every ReadFile fills a user buffer of `buf` bytes (default_buffer_size), whose
// bytes are then folded (iobench/byte_fold.hpp), as the POSIX read methods do.


/// Bytes per ReadFile call for `source` (at most handle_max_io).
std::size_t read_chunk(const Source& source) {
    return std::min(source.buffer_size ? source.buffer_size : default_buffer_size, handle_max_io);
}

/// `n` rounded up to a multiple of `unit` (> 0).
std::size_t round_up(std::size_t n, std::size_t unit) { return (n + unit - 1) / unit * unit; }

/// The size of the open file `file`. Throws io_error("GetFileSizeEx").
std::uint64_t file_size(const unique_handle& file) {
    LARGE_INTEGER size{};
    if (!GetFileSizeEx(file.get(), &size)) throw_last_error("GetFileSizeEx", file.path());
    return static_cast<std::uint64_t>(size.QuadPart);
}

/// Synchronous ReadFile of `buf` bytes per call until end of file, on a
/// handle opened with `Flags` (0 or FILE_FLAG_SEQUENTIAL_SCAN).
template <DWORD Flags>
ReadResult readfile_sync(const Source& source) {
    unique_handle file = open_file_handle(source.path, Flags);
    const ReadResult result = read_folded(file.get(), read_chunk(source), source.path);
    file.close();
    return result;
}

/// One overlapped read request: its buffer, OVERLAPPED and event.
struct OverlappedSlot {
    std::unique_ptr<char[]> buf;
    OVERLAPPED ov{};
    HANDLE event = nullptr;
    bool in_flight = false;  ///< issued, result not yet collected
    bool at_eof = false;     ///< ReadFile itself reported ERROR_HANDLE_EOF
};

/// The slots of one overlapped run. The destructor cancels and waits for
/// whatever is still in flight (after an error) before the buffers go.
class OverlappedSlots {
public:
    OverlappedSlots(HANDLE file, std::size_t count, std::size_t chunk, const std::string& path)
        : file_(file), slots_(count) {
        for (OverlappedSlot& s : slots_) {
            s.buf.reset(new char[chunk]);
            s.event = CreateEventW(nullptr, TRUE, FALSE, nullptr);
            if (!s.event) throw_last_error("CreateEventW", path);
        }
    }
    ~OverlappedSlots() {
        bool pending = false;
        for (const OverlappedSlot& s : slots_) pending = pending || (s.in_flight && !s.at_eof);
        if (pending) CancelIo(file_);
        for (OverlappedSlot& s : slots_) {
            if (s.in_flight && !s.at_eof) {
                DWORD got = 0;
                GetOverlappedResult(file_, &s.ov, &got, TRUE);
            }
            if (s.event) CloseHandle(s.event);
        }
    }
    OverlappedSlots(const OverlappedSlots&) = delete;
    OverlappedSlots& operator=(const OverlappedSlots&) = delete;

    OverlappedSlot& operator[](std::size_t i) { return slots_[i]; }

private:
    HANDLE file_;
    std::vector<OverlappedSlot> slots_;
};

/// ReadFile on a handle opened FILE_FLAG_OVERLAPPED, `InFlight` reads of
/// `buf` bytes outstanding at consecutive offsets, each signalling its own
/// event; results are collected in file order (GetOverlappedResult, waiting)
/// and each slot is reissued at the next offset as soon as it is folded. A
/// short read or ERROR_HANDLE_EOF ends the file: later requests are drained
/// unfolded.
template <std::size_t InFlight>
ReadResult readfile_overlapped(const Source& source) {
    unique_handle file = open_file_handle(source.path, FILE_FLAG_OVERLAPPED);
    const std::size_t chunk = read_chunk(source);
    ByteFold fold;
    {
        OverlappedSlots slots(file.get(), InFlight, chunk, source.path);
        std::uint64_t next_offset = 0;
        bool eof = false;
        const auto issue = [&](OverlappedSlot& s) {
            s.ov = OVERLAPPED{};
            s.ov.Offset = static_cast<DWORD>(next_offset);
            s.ov.OffsetHigh = static_cast<DWORD>(next_offset >> 32);
            s.ov.hEvent = s.event;
            s.at_eof = false;
            next_offset += chunk;
            if (!ReadFile(file.get(), s.buf.get(), static_cast<DWORD>(chunk), nullptr, &s.ov)) {
                const DWORD err = GetLastError();
                if (err == ERROR_HANDLE_EOF) {
                    s.at_eof = true;
                } else if (err != ERROR_IO_PENDING) {
                    throw_last_error("ReadFile", source.path);
                }
            }
            s.in_flight = true;  // pending, or completed at once: collected the same way
        };
        for (std::size_t i = 0; i < InFlight; ++i) issue(slots[i]);
        for (std::size_t i = 0;; i = (i + 1) % InFlight) {
            OverlappedSlot& s = slots[i];
            if (!s.in_flight) break;  // every request collected
            DWORD got = 0;
            if (!s.at_eof && !GetOverlappedResult(file.get(), &s.ov, &got, TRUE)) {
                if (GetLastError() != ERROR_HANDLE_EOF) throw_last_error("GetOverlappedResult", source.path);
                got = 0;
            }
            s.in_flight = false;
            if (eof) continue;  // draining requests past the end
            if (got != 0) fold.update(s.buf.get(), got);
            if (got < chunk) {
                eof = true;
            } else {
                issue(s);
            }
        }
    }
    file.close();
    return fold.result();
}

/// Sector size of the volume holding `path` (GetVolumePathNameW +
/// GetDiskFreeSpaceW), or 4096 when it cannot be found.
std::size_t sector_size(const std::string& path) {
    const std::wstring wide = to_wide(path);
    std::vector<wchar_t> root(wide.size() + 2);
    DWORD sectors_per_cluster = 0, bytes_per_sector = 0, free_clusters = 0, clusters = 0;
    if (GetVolumePathNameW(wide.c_str(), root.data(), static_cast<DWORD>(root.size())) &&
        GetDiskFreeSpaceW(root.data(), &sectors_per_cluster, &bytes_per_sector, &free_clusters, &clusters) &&
        bytes_per_sector != 0 && (bytes_per_sector & (bytes_per_sector - 1)) == 0)
        return bytes_per_sector;
    return 4096;
}

/// The unavailable_error for a volume that refuses FILE_FLAG_NO_BUFFERING
/// (`call` failed with `err`).
unavailable_error no_buffering_refused(const char* call, DWORD err) {
    return unavailable_error(std::string("FILE_FLAG_NO_BUFFERING refused (") + call + ": " +
                             std::system_category().message(static_cast<int>(err)) + ")");
}

/// True for the errors with which a volume refuses unbuffered I/O.
bool refuses_no_buffering(DWORD err) { return err == ERROR_INVALID_PARAMETER || err == ERROR_NOT_SUPPORTED; }

/// Synchronous ReadFile on a handle opened FILE_FLAG_NO_BUFFERING (no file
/// cache: straight from the device) into a VirtualAlloc'ed (page-aligned)
/// buffer of `buf` bytes rounded up to the volume's sector size. Skipped
/// where CreateFileW or the first ReadFile fails with ERROR_INVALID_PARAMETER
/// or ERROR_NOT_SUPPORTED.
ReadResult readfile_no_buffering(const Source& source) {
    const HANDLE h = CreateFileW(to_wide(source.path).c_str(), GENERIC_READ, FILE_SHARE_READ, nullptr, OPEN_EXISTING,
                                 FILE_ATTRIBUTE_NORMAL | FILE_FLAG_NO_BUFFERING, nullptr);
    if (h == INVALID_HANDLE_VALUE) {
        const DWORD err = GetLastError();
        if (refuses_no_buffering(err)) throw no_buffering_refused("CreateFileW", err);
        throw_last_error("CreateFileW", source.path);
    }
    unique_handle file(h, source.path);
    const std::size_t sector = sector_size(source.path);
    const std::size_t chunk = std::min(round_up(read_chunk(source), sector), handle_max_io);
    void* mem = VirtualAlloc(nullptr, chunk, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);
    if (!mem) throw_last_error("VirtualAlloc", source.path);
    const std::unique_ptr<void, void (*)(void*)> buf(mem, [](void* p) { VirtualFree(p, 0, MEM_RELEASE); });
    ByteFold fold;
    bool first = true;
    for (;;) {
        DWORD got = 0;
        if (!ReadFile(file.get(), buf.get(), static_cast<DWORD>(chunk), &got, nullptr)) {
            const DWORD err = GetLastError();
            if (err == ERROR_HANDLE_EOF) break;
            if (first && refuses_no_buffering(err)) throw no_buffering_refused("ReadFile", err);
            SetLastError(err);
            throw_last_error("ReadFile", source.path);
        }
        first = false;
        if (got == 0) break;
        fold.update(buf.get(), got);
    }
    file.close();
    return fold.result();
}

/// A view of a file mapping (MapViewOfFile), unmapped when destroyed;
/// `unmap()` reports the error the destructor has to swallow.
class MappedView {
public:
    MappedView(HANDLE mapping, std::uint64_t offset, std::size_t size, const std::string& path) : path_(path) {
        view_ = MapViewOfFile(mapping, FILE_MAP_READ, static_cast<DWORD>(offset >> 32), static_cast<DWORD>(offset),
                              size);
        if (!view_) throw_last_error("MapViewOfFile", path);
    }
    ~MappedView() {
        if (view_) UnmapViewOfFile(view_);
    }
    MappedView(const MappedView&) = delete;
    MappedView& operator=(const MappedView&) = delete;

    const void* data() const { return view_; }

    /// Unmaps the view. Throws io_error("UnmapViewOfFile").
    void unmap() {
        const void* v = view_;
        view_ = nullptr;
        if (!UnmapViewOfFile(v)) throw_last_error("UnmapViewOfFile", path_);
    }

private:
    const void* view_ = nullptr;
    const std::string& path_;
};

/// A read-only file mapping object over all of `file` (CreateFileMappingW).
unique_handle create_mapping(const unique_handle& file) {
    const HANDLE m = CreateFileMappingW(file.get(), nullptr, PAGE_READONLY, 0, 0, nullptr);
    if (!m) throw_last_error("CreateFileMappingW", file.path());
    return unique_handle(m, file.path());
}

/// CreateFileMappingW + MapViewOfFile of the whole file, one sequential pass
/// folding its bytes. An empty file is not mapped (CreateFileMapping refuses
/// a zero-length file).
ReadResult filemapping_whole(const Source& source) {
    unique_handle file = open_file_handle(source.path);
    const std::uint64_t size = file_size(file);
    ByteFold fold;
    if (size != 0) {
        if (size > SIZE_MAX) throw io_error("MapViewOfFile", source.path, std::make_error_code(std::errc::file_too_large));
        unique_handle mapping = create_mapping(file);
        MappedView view(mapping.get(), 0, static_cast<std::size_t>(size), source.path);
        fold.update(view.data(), static_cast<std::size_t>(size));
        view.unmap();
        mapping.close();
    }
    file.close();
    return fold.result();
}

/// CreateFileMappingW once, then views of `buf` bytes (default_map_window)
/// rounded up to the allocation granularity (GetSystemInfo: 64 KiB), each
/// mapped, folded and unmapped in turn: bounded address space.
ReadResult filemapping_window(const Source& source) {
    SYSTEM_INFO info{};
    GetSystemInfo(&info);
    const std::size_t granularity = info.dwAllocationGranularity ? info.dwAllocationGranularity : 65536;
    const std::size_t window = round_up(source.buffer_size ? source.buffer_size : default_map_window, granularity);
    unique_handle file = open_file_handle(source.path);
    const std::uint64_t size = file_size(file);
    ByteFold fold;
    if (size != 0) {
        unique_handle mapping = create_mapping(file);
        for (std::uint64_t offset = 0; offset < size; offset += window) {
            const auto length = static_cast<std::size_t>(std::min<std::uint64_t>(window, size - offset));
            MappedView view(mapping.get(), offset, length, source.path);
            fold.update(view.data(), length);
            view.unmap();
        }
        mapping.close();
    }
    file.close();
    return fold.result();
}

// --- standard output: WriteFile, WriteConsoleW ---------------------------

/// put_console: one WriteFile per message on GetStdHandle(STD_OUTPUT_HANDLE),
/// no buffer: the Windows counterpart of write(2) on fd 1.
void writefile_console(const StdoutSink&, std::string_view line, std::uint64_t count) {
    const HANDLE out = GetStdHandle(STD_OUTPUT_HANDLE);
    for (std::uint64_t i = 0; i < count; ++i) write_all(out, line.data(), line.size(), "stdout");
}

/// put_console: WriteConsoleW per message, the call that writes Unicode text
/// to a console (the line converted to UTF-16 once, as a program's wide
/// literal). Skipped where standard output is not a console (GetConsoleMode
/// fails on a file, a pipe or NUL, and so would WriteConsoleW).
void writeconsolew_console(const StdoutSink&, std::string_view line, std::uint64_t count) {
    const HANDLE out = GetStdHandle(STD_OUTPUT_HANDLE);
    DWORD mode = 0;
    if (!GetConsoleMode(out, &mode))
        throw unavailable_error("standard output is not a console here (a file, a pipe or NUL: GetConsoleMode "
                                "fails), and WriteConsoleW writes to a console only");
    const std::wstring text = to_wide(std::string(line));
    for (std::uint64_t i = 0; i < count; ++i) {
        const wchar_t* p = text.data();
        DWORD left = static_cast<DWORD>(text.size());
        while (left > 0) {
            DWORD written = 0;
            if (!WriteConsoleW(out, p, left, &written, nullptr)) throw_last_error("WriteConsoleW", "stdout");
            if (written == 0) throw io_error("WriteConsoleW", "stdout", std::make_error_code(std::errc::io_error));
            p += written;
            left -= written;
        }
    }
}

constexpr PutInts writefile_ints = write_each_int;  // methods/native_file.hpp
constexpr PutRepeat writefile_repeat = write_each_line;
constexpr ReadBytes readfile_plain = readfile_sync<0>;
constexpr ReadBytes readfile_sequential = readfile_sync<FILE_FLAG_SEQUENTIAL_SCAN>;
constexpr ReadBytes readfile_overlapped_1 = readfile_overlapped<1>;
constexpr ReadBytes readfile_overlapped_2 = readfile_overlapped<2>;
constexpr ReadBytes readfile_overlapped_4 = readfile_overlapped<4>;
// The table below names each operation's function through IOBENCH_WIN32: the
// function here, `not_built` (listed as skipped with `unavailable`) where the
// family is not built, whose build never sees these names.
#define IOBENCH_WIN32(fn) fn
#else
constexpr const char* unavailable = "Windows only";
#define IOBENCH_WIN32(fn) ::iobench::not_built
#endif

const MethodRegistrar registrar{{.family = "win32", .unavailable = unavailable}, {
    {.name = "WriteFile",
     .description = "WriteFile once per line on a CreateFileW HANDLE (std::to_chars for integers): one call per item; "
                    "console: once per message on GetStdHandle(STD_OUTPUT_HANDLE)",
     .put_ints = IOBENCH_WIN32(writefile_ints),
     .put_repeat = IOBENCH_WIN32(writefile_repeat),
     .put_console = IOBENCH_WIN32(writefile_console)},
    {.name = "WriteConsoleW",
     .description = "WriteConsoleW(GetStdHandle(STD_OUTPUT_HANDLE), text) per message, the line as UTF-16: "
                    "skipped where stdout is not a console (a file, a pipe, NUL)",
     .put_console = IOBENCH_WIN32(writeconsolew_console)},
    {.name = "ReadFile",
     .description = "ReadFile of `buf` bytes (" + size_text(default_buffer_size) + ") per call into one buffer until end of file",
     .default_buffer_size = default_buffer_size,
     .sizable_buffer = true,
     .read_bytes = IOBENCH_WIN32(readfile_plain)},
    {.name = "ReadFile_SEQUENTIAL_SCAN",
     .description = "ReadFile of `buf` bytes (" + size_text(default_buffer_size) +
                    ") per call on a handle opened FILE_FLAG_SEQUENTIAL_SCAN",
     .default_buffer_size = default_buffer_size,
     .sizable_buffer = true,
     .read_bytes = IOBENCH_WIN32(readfile_sequential)},
    {.name = "ReadFile_overlapped_1",
     .description = "overlapped ReadFile (FILE_FLAG_OVERLAPPED, one event per request) of `buf` bytes (" +
                    size_text(default_buffer_size) + "), 1 read in flight",
     .default_buffer_size = default_buffer_size,
     .sizable_buffer = true,
     .read_bytes = IOBENCH_WIN32(readfile_overlapped_1)},
    {.name = "ReadFile_overlapped_2",
     .description = "overlapped ReadFile of `buf` bytes (" + size_text(default_buffer_size) +
                    "), 2 reads in flight at consecutive offsets, collected in order",
     .default_buffer_size = default_buffer_size,
     .sizable_buffer = true,
     .read_bytes = IOBENCH_WIN32(readfile_overlapped_2)},
    {.name = "ReadFile_overlapped_4",
     .description = "overlapped ReadFile of `buf` bytes (" + size_text(default_buffer_size) +
                    "), 4 reads in flight at consecutive offsets, collected in order",
     .default_buffer_size = default_buffer_size,
     .sizable_buffer = true,
     .read_bytes = IOBENCH_WIN32(readfile_overlapped_4)},
    {.name = "ReadFile_NO_BUFFERING",
     .description = "ReadFile of `buf` bytes (" + size_text(default_buffer_size) +
                    ", rounded up to the sector size) on a handle opened FILE_FLAG_NO_BUFFERING into a "
                    "page-aligned buffer: no file cache (skipped where the volume refuses it)",
     .default_buffer_size = default_buffer_size,
     .sizable_buffer = true,
     .read_bytes = IOBENCH_WIN32(readfile_no_buffering)},
    {.name = "CreateFileMapping",
     .description = "CreateFileMappingW + MapViewOfFile of the whole file, one pass over the view",
     .read_bytes = IOBENCH_WIN32(filemapping_whole),
     .maps_file = true},
    {.name = "CreateFileMapping_window",
     .description = "CreateFileMappingW, then MapViewOfFile views of `buf` bytes (" + size_text(default_map_window) +
                    ", rounded up to the allocation granularity) mapped, scanned and unmapped in turn",
     .default_buffer_size = default_map_window,
     .sizable_buffer = true,
     .read_bytes = IOBENCH_WIN32(filemapping_window)},
}};

}  // namespace
}  // namespace iobench
