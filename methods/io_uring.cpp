// io_uring: Linux's asynchronous I/O interface through liburing: sequential
// reads of `buf` bytes (default_buffer_size) with 1, 4 or 16 reads in flight
// (queue depth). Completions may arrive out of order; the bytes are folded in
// file order, each buffer as soon as every read before it has completed, then
// resubmitted for the next offset -- the pattern of a reader that overlaps
// I/O with its processing (the seed's "overlapped" ReadFile on Windows).
// Built where CMake finds liburing (IOBENCH_HAVE_LIBURING); at run time the
// kernel may still refuse io_uring (kernel.io_uring_disabled, seccomp, a
// kernel before 5.1): the benchmark is then skipped with that reason.
#include <iobench/method.hpp>
#include "methods/buffer_sizes.hpp"

#ifdef IOBENCH_HAVE_LIBURING
#include <liburing.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <iobench/byte_fold.hpp>
#include <iobench/error.hpp>
#include "methods/posix_file.hpp"
#endif

namespace iobench {
namespace {

#ifdef IOBENCH_HAVE_LIBURING

/// An initialized ring, torn down when destroyed.
class Ring {
public:
    Ring(unsigned entries, const std::string& path) : path_(path) {
        const int rc = ::io_uring_queue_init(entries, &ring_, 0);
        if (rc < 0)
            throw unavailable_error("io_uring_queue_init: " + std::string(std::strerror(-rc)) +
                                    " (io_uring refused by the kernel: kernel.io_uring_disabled, seccomp or a "
                                    "kernel older than 5.1)");
    }
    ~Ring() { ::io_uring_queue_exit(&ring_); }
    Ring(const Ring&) = delete;
    Ring& operator=(const Ring&) = delete;

    /// Queues a read of `len` bytes at `offset` into `buf`, tagged `slot`.
    void prep_read(int fd, char* buf, std::size_t len, std::uint64_t offset, unsigned slot) {
        io_uring_sqe* sqe = ::io_uring_get_sqe(&ring_);
        if (!sqe) throw io_error("io_uring_get_sqe", path_, std::make_error_code(std::errc::resource_unavailable_try_again));
        ::io_uring_prep_read(sqe, fd, buf, static_cast<unsigned>(len), offset);
        ::io_uring_sqe_set_data(sqe, reinterpret_cast<void*>(static_cast<std::uintptr_t>(slot)));
    }
    void submit() {
        const int rc = ::io_uring_submit(&ring_);
        if (rc < 0) throw io_error("io_uring_submit", path_, std::error_code(-rc, std::generic_category()));
    }
    /// Waits for one completion: (slot, result).
    std::pair<unsigned, int> wait() {
        io_uring_cqe* cqe = nullptr;
        int rc;
        while ((rc = ::io_uring_wait_cqe(&ring_, &cqe)) == -EINTR) {
        }
        if (rc < 0) throw io_error("io_uring_wait_cqe", path_, std::error_code(-rc, std::generic_category()));
        const auto slot = static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(::io_uring_cqe_get_data(cqe)));
        const int res = cqe->res;
        ::io_uring_cqe_seen(&ring_, cqe);
        return {slot, res};
    }

private:
    io_uring ring_{};
    std::string path_;
};

/// Reads the rest of a short read with pread(2) (a regular file returns
/// short reads only at its end; this is the safety net).
std::size_t pread_rest(int fd, char* buf, std::size_t len, std::uint64_t offset, const std::string& path) {
    std::size_t done = 0;
    while (done < len) {
        const ssize_t n = ::pread(fd, buf + done, len - done, static_cast<off_t>(offset + done));
        if (n < 0) {
            if (errno == EINTR) continue;
            throw_errno("pread", path);
        }
        if (n == 0) break;
        done += static_cast<std::size_t>(n);
    }
    return done;
}

/// Sequential reads with `Depth` in flight; folds in file order.
template <unsigned Depth>
ReadResult uring_read(const Source& source) {
    unique_fd fd = open_file(source.path);
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) throw_errno("fstat", source.path);
    const auto size = static_cast<std::uint64_t>(st.st_size);
    // io_uring_prep_read takes an unsigned length: at most fd_max_io (1 GiB) per read.
    const std::size_t chunk = std::min(source.buffer_size ? source.buffer_size : default_buffer_size, fd_max_io);
    Ring ring(Depth, source.path);
    std::unique_ptr<char[]> buffers(new char[chunk * Depth]);
    struct Slot {
        std::uint64_t offset = 0;
        std::size_t len = 0;
        int res = 0;
        bool busy = false;  // submitted, not yet folded
        bool done = false;  // completed
    };
    Slot slots[Depth];
    std::uint64_t next = 0;  // offset of the next read to submit
    auto start = [&](unsigned s) {
        const std::size_t len = static_cast<std::size_t>(std::min<std::uint64_t>(chunk, size - next));
        slots[s] = {next, len, 0, true, false};
        ring.prep_read(fd.get(), buffers.get() + s * chunk, len, next, s);
        next += len;
    };
    for (unsigned s = 0; s < Depth && next < size; ++s) start(s);
    if (next != 0) ring.submit();

    ByteFold fold;
    unsigned oldest = 0;  // slot holding the lowest unfolded offset
    while (slots[oldest].busy) {
        const auto [s, res] = ring.wait();
        if (res < 0) throw io_error("io_uring read", source.path, std::error_code(-res, std::generic_category()));
        slots[s].res = res;
        slots[s].done = true;
        bool resubmit = false;
        while (slots[oldest].busy && slots[oldest].done) {
            Slot& slot = slots[oldest];
            char* buf = buffers.get() + oldest * chunk;
            auto got = static_cast<std::size_t>(slot.res);
            if (got < slot.len) got += pread_rest(fd.get(), buf + got, slot.len - got, slot.offset + got, source.path);
            if (got < slot.len)  // the file shrank while being read
                throw io_error("io_uring read", source.path, std::make_error_code(std::errc::io_error));
            fold.update(buf, got);
            slot.busy = false;
            if (next < size) {
                start(oldest);
                resubmit = true;
            }
            oldest = (oldest + 1) % Depth;
        }
        if (resubmit) ring.submit();
    }
    fd.close();
    return fold.result();
}

constexpr const char* unavailable = "";
constexpr ReadBytes uring_qd1 = uring_read<1>, uring_qd4 = uring_read<4>, uring_qd16 = uring_read<16>;
// The table below names each operation's function through IOBENCH_IO_URING: the
// function here, `not_built` (listed as skipped with `unavailable`) where the
// family is not built, whose build never sees these names.
#define IOBENCH_IO_URING(fn) fn

#else

#if defined(_WIN32)
constexpr const char* unavailable = "Linux only (io_uring); not built on Windows";
#else
constexpr const char* unavailable = "liburing was not found when iobench was built (pkg-config liburing)";
#endif
#define IOBENCH_IO_URING(fn) ::iobench::not_built

#endif

/// Why the io_uring rows carry no read_calls.
constexpr const char* ring_requests = "reads are io_uring requests submitted through the ring, not read(2) calls";

const MethodRegistrar registrar{{.family = "io_uring", .unavailable = unavailable}, {
    {.name = "io_uring_qd1",
     .description = "io_uring reads of `buf` bytes, one in flight (queue depth 1): read(2) through the ring",
     .default_buffer_size = default_buffer_size,
     .sizable_buffer = true,
     .calls_not_counted = ring_requests,
     .read_bytes = IOBENCH_IO_URING(uring_qd1)},
    {.name = "io_uring_qd4",
     .description = "io_uring reads of `buf` bytes, 4 in flight, folded in file order as they complete",
     .default_buffer_size = default_buffer_size,
     .sizable_buffer = true,
     .calls_not_counted = ring_requests,
     .read_bytes = IOBENCH_IO_URING(uring_qd4)},
    {.name = "io_uring_qd16",
     .description = "io_uring reads of `buf` bytes, 16 in flight, folded in file order as they complete",
     .default_buffer_size = default_buffer_size,
     .sizable_buffer = true,
     .calls_not_counted = ring_requests,
     .read_bytes = IOBENCH_IO_URING(uring_qd16)},
}};

}  // namespace
}  // namespace iobench
