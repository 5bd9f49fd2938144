// obuf_overlapped: obuf whose full buffers are written while it formats the
// next one. The formatting is obuf's own (methods/obuf.hpp: put_uint, put_double, write,
// put, unchanged); only what happens to a full buffer differs. `obuf` hands
// it to write(2) and waits; these methods hand it to a hand-off device
// (methods/handoff.hpp) that owns 4 buffers of `buf` bytes (1 MiB unless a
// suite says otherwise: default_handoff_buffer_size, 4x obuf's memory),
// takes the full one to write in the background and gives back an
// empty one, waiting only when the other three are all still being written:
//
//  obuf_thread           a writer thread of its own fed through a bounded
//                        queue (methods/thread_device.hpp): write(2) on POSIX,
//                        WriteFile on Windows, from that thread. Portable.
//  obuf_io_uring         one io_uring write request per buffer at its explicit
//                        file offset, marked IOSQE_ASYNC so that an io-wq
//                        worker thread, not the submitting call, copies the
//                        bytes (methods/uring_device.hpp); completions reaped
//                        when a buffer is needed again. Linux with liburing.
//  WriteFile_overlapped  one overlapped WriteFile per buffer at its explicit
//                        offset on a FILE_FLAG_OVERLAPPED handle, an event
//                        per request (methods/overlapped_device.hpp): the
//                        output counterpart of win32's ReadFile_overlapped_*.
//                        Windows only. NTFS completes a write that extends
//                        the file synchronously (Microsoft's "Asynchronous
//                        disk I/O appears as synchronous on Windows"), so an
//                        appending writer may gain nothing there.
//
// What overlap buys: the kernel's copy of a buffer into the page cache (the
// system time of `limit`) runs on another CPU while this thread formats, so
// a run can take max(format, copy) instead of their sum -- on a machine
// with a CPU to spare. Errors of a background write are reported by the next
// hand-off or at close (a full disk included); see docs/methodology.md.
//
// Counters: the writes of obuf_thread and of io_uring's worker threads are
// not the calling thread's, so those two count the whole process
// (Method::process_counters): user and system time of every thread, and
// obuf_thread's write(2) calls. io_uring's writes are ring requests, not
// write(2) calls: obuf_io_uring has no write_calls (calls_not_counted).
// WriteFile_overlapped's WriteFile calls are the calling thread's own (and
// Windows counts I/O operations per process anyway).
#include <memory>
#include <cstdint>
#include <string>
#include <span>
#include <string_view>
#include <utility>

#include <iobench/method.hpp>
#include "methods/buffer_sizes.hpp"
#include "methods/native_file.hpp"
#include "methods/obuf.hpp"
#include "methods/obuf_writes.hpp"
#include "methods/thread_device.hpp"

#ifdef IOBENCH_HAVE_LIBURING
#include "methods/uring_device.hpp"
#endif
#ifdef _WIN32
#include "methods/overlapped_device.hpp"
#endif

namespace iobench {
namespace {

/// A file created (or truncated) at the sink's path and an obuf over the
/// hand-off device `Open::device` makes for it, with buffers of the sink's
/// size (0: default_handoff_buffer_size). close() flushes, waits for
/// every write and closes, throwing io_error when any failed; destroyed
/// without close(), the device first stops its writes (obuf's destructor
/// policy: buffered bytes are dropped), then the file is closed.
template <class Open>
class handoff_file {
public:
    using device_type = decltype(Open::device(std::declval<typename Open::file_type&>(), std::string()));
    /// The buffered writer over that device.
    using buffer_type = basic_obuf<device_type>;

    explicit handoff_file(const Sink& sink)
        : file_(Open::create(sink.path)),
          out_(Open::device(file_, sink.path),
               sink.buffer_size == 0 ? default_handoff_buffer_size : sink.buffer_size) {}

    /// The buffered writer (put, write, put_uint).
    buffer_type& out() { return out_; }

    /// Hands off the last bytes, waits for every write, closes the file. Throws io_error.
    void close() {
        out_.flush();
        file_.close();
    }

private:
    typename Open::file_type file_;
    buffer_type out_;
};

template <class Open>
void handoff_ints(const Sink& sink, std::uint64_t count) {
    handoff_file<Open> file(sink);
    write_int_lines(file.out(), count);
    file.close();
}

template <class Open>
void handoff_repeat(const Sink& sink, std::string_view line, std::uint64_t count) {
    handoff_file<Open> file(sink);
    write_repeated(file.out(), line, count);
    file.close();
}

template <class Open>
void handoff_lines(const Sink& sink, const NumberedLine& line, std::uint64_t count) {
    handoff_file<Open> file(sink);
    write_numbered_lines(file.out(), line, count);
    file.close();
}

template <class Open>
void handoff_doubles(const Sink& sink, std::span<const double> values) {
    handoff_file<Open> file(sink);
    write_double_lines(file.out(), values);
    file.close();
}

// --- per call (iobench/calls.hpp): the same file and obuf kept open between
// calls; one thread per sink (the writer thread is the device's own)

template <class Open>
CallSink handoff_open(const Sink& sink) {
    return new handoff_file<Open>(sink);
}

template <class Open>
void handoff_close(CallSink sink) {
    std::unique_ptr<handoff_file<Open>> file(static_cast<handoff_file<Open>*>(sink));
    file->close();
}

template <class Open>
void handoff_int_call(CallSink sink, std::uint64_t v) {
    auto& out = static_cast<handoff_file<Open>*>(sink)->out();
    out.put_uint(v);
    out.put('\n');
}

template <class Open>
void handoff_line_call(CallSink sink, std::string_view line) {
    static_cast<handoff_file<Open>*>(sink)->out().write(line);
}

template <class Open>
void handoff_record_call(CallSink sink, const LogRecord& r) {
    write_log_record(static_cast<handoff_file<Open>*>(sink)->out(), r);
}

/// obuf_thread: the platform's file, written by a thread of its own.
struct open_thread {
    using file_type = native_file;
    static native_file create(const std::string& path) { return create_native_file(path); }
    static thread_sink_device<native_sink_device> device(native_file& file, const std::string& path) {
        return thread_sink_device<native_sink_device>(native_sink_device{file.get(), path});
    }
};

#ifdef IOBENCH_HAVE_LIBURING
/// obuf_io_uring: a file descriptor, written through a ring (IOSQE_ASYNC).
struct open_uring {
    using file_type = unique_fd;
    static unique_fd create(const std::string& path) { return create_file(path); }
    static uring_sink_device device(unique_fd& file, const std::string& path) {
        return uring_sink_device(file.get(), path, handoff_buffer_count, IOSQE_ASYNC);
    }
};
constexpr PutInts uring_ints = handoff_ints<open_uring>;
constexpr PutRepeat uring_repeat = handoff_repeat<open_uring>;
constexpr PutLines uring_lines = handoff_lines<open_uring>;
constexpr PutDoubles uring_doubles = handoff_doubles<open_uring>;
#define IOBENCH_URING(fn) fn
constexpr const char* uring_unavailable = "";
#else
#define IOBENCH_URING(fn) ::iobench::not_built
#if defined(_WIN32)
constexpr const char* uring_unavailable = "Linux only (io_uring); not built on Windows";
#else
constexpr const char* uring_unavailable = "liburing was not found when iobench was built (pkg-config liburing)";
#endif
#endif

#ifdef _WIN32
/// WriteFile_overlapped: a handle opened FILE_FLAG_OVERLAPPED.
struct open_overlapped {
    using file_type = unique_handle;
    static unique_handle create(const std::string& path) { return create_file_handle(path, FILE_FLAG_OVERLAPPED); }
    static overlapped_sink_device device(unique_handle& file, const std::string& path) {
        return overlapped_sink_device(file.get(), path);
    }
};
constexpr PutInts overlapped_ints = handoff_ints<open_overlapped>;
constexpr PutRepeat overlapped_repeat = handoff_repeat<open_overlapped>;
constexpr PutLines overlapped_lines = handoff_lines<open_overlapped>;
constexpr PutDoubles overlapped_doubles = handoff_doubles<open_overlapped>;
#define IOBENCH_OVERLAPPED(fn) fn
constexpr const char* overlapped_unavailable = "";
#else
#define IOBENCH_OVERLAPPED(fn) ::iobench::not_built
constexpr const char* overlapped_unavailable = "Windows only (overlapped WriteFile)";
#endif

constexpr PutInts thread_ints = handoff_ints<open_thread>;
constexpr PutRepeat thread_repeat = handoff_repeat<open_thread>;
constexpr PutLines thread_lines = handoff_lines<open_thread>;
constexpr PutDoubles thread_doubles = handoff_doubles<open_thread>;
constexpr Calls thread_calls{.open = handoff_open<open_thread>,
                             .close = handoff_close<open_thread>,
                             .put_int = handoff_int_call<open_thread>,
                             .put_line = handoff_line_call<open_thread>,
                             .put_record = handoff_record_call<open_thread>};

#ifdef _WIN32
constexpr const char* thread_call = "WriteFile";
#else
constexpr const char* thread_call = "write(2)";
#endif

const std::string buffers_text = std::to_string(handoff_buffer_count) + " buffers of `buf` bytes (" +
                                 size_text(default_handoff_buffer_size) + ")";

const MethodRegistrar registrar{{.family = "obuf_overlapped"}, {
    {.name = "obuf_thread",
     .description = "obuf formatting into " + buffers_text + "; each full one written with " + thread_call +
                    " by a writer thread of its own while the next is filled",
     .default_buffer_size = default_handoff_buffer_size,
     .sizable_buffer = true,
     .process_counters = true,
     .put_ints = thread_ints,
     .put_repeat = thread_repeat,
     .put_lines = thread_lines,
     .put_doubles = thread_doubles,
     .calls = &thread_calls},
    {.name = "obuf_io_uring",
     .description = "obuf formatting into " + buffers_text +
                    "; each full one an io_uring write at its offset (IOSQE_ASYNC), reaped when the buffer is "
                    "needed again",
     .default_buffer_size = default_handoff_buffer_size,
     .sizable_buffer = true,
     .unavailable = uring_unavailable,
     .calls_not_counted = "writes are io_uring requests submitted through the ring, not write(2) calls",
     .process_counters = true,
     .put_ints = IOBENCH_URING(uring_ints),
     .put_repeat = IOBENCH_URING(uring_repeat),
     .put_lines = IOBENCH_URING(uring_lines),
     .put_doubles = IOBENCH_URING(uring_doubles)},
    {.name = "WriteFile_overlapped",
     .description = "obuf formatting into " + buffers_text +
                    "; each full one an overlapped WriteFile at its offset (FILE_FLAG_OVERLAPPED, an event per "
                    "request), collected when the buffer is needed again",
     .default_buffer_size = default_handoff_buffer_size,
     .sizable_buffer = true,
     .unavailable = overlapped_unavailable,
     .put_ints = IOBENCH_OVERLAPPED(overlapped_ints),
     .put_repeat = IOBENCH_OVERLAPPED(overlapped_repeat),
     .put_lines = IOBENCH_OVERLAPPED(overlapped_lines),
     .put_doubles = IOBENCH_OVERLAPPED(overlapped_doubles)},
}};

}  // namespace
}  // namespace iobench
