// ibuf_overlapped: ibuf whose next buffers are read while it parses the one
// it holds. The parsing is ibuf's own (methods/ibuf.hpp: get_uints,
// get_doubles, unchanged); only where a refill comes from differs. `ibuf`
// calls read(2) into its one buffer and waits; these methods take the next
// buffer, already read, from a read-ahead device (methods/ibuf.hpp's
// readahead_device) that owns 4 buffers of `buf` bytes (1 MiB unless a
// suite says otherwise: default_handoff_buffer_size, as the obuf_overlapped
// methods) and reads into the three ibuf does not hold:
//
//  ibuf_thread    a reader thread of its own (methods/thread_source_device.hpp):
//                 read(2) on POSIX, ReadFile on Windows, one call per buffer,
//                 from that thread. Portable.
//  ibuf_io_uring  one io_uring read request per buffer at its explicit file
//                 offset, marked IOSQE_ASYNC so that an io-wq worker thread,
//                 not the submitting call, copies the bytes
//                 (methods/uring_source_device.hpp); a buffer given back is
//                 submitted for the next part of the file at once. Linux with
//                 liburing.
//
// What overlap buys: the kernel's copy of the file from the page cache (the
// system time of `limit`) runs on another CPU while this thread parses, so
// a run can take max(parse, copy) instead of their sum -- on a machine with a
// CPU to spare (docs/methodology.md#overlapped-input).
//
// Counters: the reads are not the calling thread's, so both count the whole
// process (Method::process_counters): user and system time of every thread,
// and ibuf_thread's read(2) calls. io_uring's reads are ring requests, not
// read(2) calls: ibuf_io_uring has no read_calls (calls_not_counted).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <iobench/method.hpp>
#include "methods/buffer_sizes.hpp"
#include "methods/handoff.hpp"
#include "methods/ibuf.hpp"
#include "methods/native_file.hpp"
#include "methods/thread_source_device.hpp"

#ifdef IOBENCH_HAVE_LIBURING
#include "methods/uring_source_device.hpp"
#endif

namespace iobench {
namespace {

/// The source's file opened for reading and an ibuf over the read-ahead
/// device `Open::device` makes for it, with buffers of the source's size (0:
/// default_handoff_buffer_size). Destroyed, the device first stops its reads
/// (and joins its thread, or waits for its requests), then the file is closed.
template <class Open>
class readahead_file {
public:
    using device_type = decltype(Open::device(std::declval<typename Open::file_type&>(), std::string()));
    /// The buffered reader over that device.
    using buffer_type = basic_ibuf<device_type>;

    explicit readahead_file(const Source& source)
        : file_(Open::open(source.path)),
          in_(Open::device(file_, source.path),
              source.buffer_size == 0 ? default_handoff_buffer_size : source.buffer_size) {}

    /// The buffered reader (get_uints, get_doubles).
    buffer_type& in() { return in_; }

    /// Closes the file (at end of input: the device reads no more). Throws `io_error`.
    void close() { file_.close(); }

private:
    typename Open::file_type file_;
    buffer_type in_;
};

/// get_uints into a block on the stack, appended a block at a time (as ibuf's read_ints).
template <class Open>
void readahead_ints(const Source& source, std::vector<std::uint64_t>& values) {
    readahead_file<Open> file(source);
    auto& in = file.in();
    std::uint64_t block[1024];
    while (const std::size_t n = in.get_uints(block)) values.insert(values.end(), block, block + n);
    file.close();
}

/// get_doubles into a block on the stack, appended a block at a time.
template <class Open>
void readahead_doubles(const Source& source, std::vector<double>& values) {
    readahead_file<Open> file(source);
    auto& in = file.in();
    double block[1024];
    while (const std::size_t n = in.get_doubles(block)) values.insert(values.end(), block, block + n);
    file.close();
}

/// ibuf_thread: the platform's file, read by a thread of its own.
struct open_thread {
    using file_type = native_file;
    static native_file open(const std::string& path) { return open_native_file(path); }
    static thread_source_device<native_source_device> device(native_file& file, const std::string& path) {
        return thread_source_device<native_source_device>(native_source_device{file.get(), path});
    }
};

#ifdef IOBENCH_HAVE_LIBURING
/// ibuf_io_uring: a file descriptor, read through a ring (IOSQE_ASYNC).
struct open_uring {
    using file_type = unique_fd;
    static unique_fd open(const std::string& path) { return open_file(path); }
    static uring_source_device device(unique_fd& file, const std::string& path) {
        return uring_source_device(file.get(), path, handoff_buffer_count, IOSQE_ASYNC);
    }
};
constexpr GetInts uring_ints = readahead_ints<open_uring>;
constexpr GetDoubles uring_doubles = readahead_doubles<open_uring>;
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
constexpr const char* thread_call = "ReadFile";
#else
constexpr const char* thread_call = "read(2)";
#endif

const std::string buffers_text = std::to_string(handoff_buffer_count) + " buffers of `buf` bytes (" +
                                 size_text(default_handoff_buffer_size) + ")";

const MethodRegistrar registrar{{.family = "ibuf_overlapped"}, {
    {.name = "ibuf_thread",
     .description = "ibuf's get_uints / get_doubles (1024 numbers per call) over " + buffers_text +
                    "; each one read with " + thread_call + " by a reader thread of its own while ibuf parses another",
     .default_buffer_size = default_handoff_buffer_size,
     .sizable_buffer = true,
     .process_counters = true,
     .get_ints = readahead_ints<open_thread>,
     .get_doubles = readahead_doubles<open_thread>},
    {.name = "ibuf_io_uring",
     .description = "ibuf's get_uints / get_doubles (1024 numbers per call) over " + buffers_text +
                    "; each one an io_uring read at its offset (IOSQE_ASYNC), submitted again as soon as ibuf "
                    "gives it back",
     .default_buffer_size = default_handoff_buffer_size,
     .sizable_buffer = true,
     .unavailable = uring_unavailable,
     .calls_not_counted = "reads are io_uring requests submitted through the ring, not read(2) calls",
     .process_counters = true,
     .get_ints = IOBENCH_URING(uring_ints),
     .get_doubles = IOBENCH_URING(uring_doubles)},
}};

}  // namespace
}  // namespace iobench
