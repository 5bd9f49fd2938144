// ibuf's read-ahead device over io_uring (liburing): every buffer but the one
// ibuf parses is one read request at its explicit file offset, in flight
// while the caller parses; a buffer given back is submitted at once for the
// next part of the file. Linux with liburing only (IOBENCH_HAVE_LIBURING);
// the `ibuf_io_uring` method, methods/ibuf_overlapped.cpp. The input-side
// counterpart of uring_device.hpp.
#pragma once

#ifndef IOBENCH_HAVE_LIBURING
#error "methods/uring_source_device.hpp needs liburing (IOBENCH_HAVE_LIBURING)"
#endif

#include <liburing.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include <iobench/error.hpp>
#include "methods/handoff.hpp"
#include "methods/ibuf.hpp"
#include "methods/posix_file.hpp"

namespace iobench {

/// A read-ahead device (readahead_device, methods/ibuf.hpp) reading the
/// regular file open at `fd` (not owned) from its start through an io_uring
/// of its own: `buffers` buffers (at least 2) used in turn, buffer k of the
/// input the `size` bytes at file offset k * size, one IORING_OP_READ each,
/// so up to buffers - 1 reads are in flight while ibuf parses the last.
/// `sqe_flags` go on every request (IOSQE_ASYNC: always run by an io-wq
/// worker thread; without it a read of cached pages is done inline by the
/// submitting call, serial with the parsing again).
///
/// A short read is resubmitted for the rest at its offset (a request moves
/// at most `max_request` bytes: fd_max_io, less only to test that path); a
/// read of 0 bytes is the end of the file, and the buffer ends there. A
/// failed read (the completion's -errno) or submission becomes an io_error
/// naming `path`, rethrown by next() once the buffers before it are handed
/// over, and every time after; nothing is submitted after it. The destructor
/// waits for every request in flight before the buffers go. Throws
/// unavailable_error from the constructor when the kernel refuses io_uring.
/// Movable, not copyable.
class uring_source_device {
public:
    uring_source_device(int fd, std::string path, std::size_t buffers = handoff_buffer_count, unsigned sqe_flags = 0,
                        std::size_t max_request = fd_max_io)
        : s_(std::make_unique<State>(fd, std::move(path), buffers < 2 ? 2 : buffers, sqe_flags,
                                     max_request == 0 || max_request > fd_max_io ? fd_max_io : max_request)) {}

    /// Allocates the buffers of `capacity` bytes, submits a read of `size`
    /// bytes at `offset` into each but buffer 0, and returns buffer 0.
    char* start(std::size_t capacity, std::size_t offset, std::size_t size) {
        State& s = *s_;
        s.pool.allocate(s.slots.size(), capacity);
        s.offset = offset;
        s.size = size;
        for (std::size_t i = 1; i < s.slots.size(); ++i) s.read_next(i);
        return s.pool[0];
    }

    /// Submits `done` for the next part of the file and returns the next
    /// buffer in turn once its read is complete (size 0 at end of file: then
    /// `done` itself, kept). Throws the io_error of a failed read or
    /// submission (`done` not taken).
    read_buffer next(char* done) {
        State& s = *s_;
        const std::size_t i = s.pool.index_of(done);
        const std::size_t k = (i + 1) % s.slots.size();
        Slot& slot = s.slots[k];
        while (slot.in_flight) s.reap_one();
        if (slot.failed) std::rethrow_exception(s.error);
        if (slot.len == 0 || !slot.submitted) return {done, 0};  // end of file (nothing read into it)
        slot.submitted = false;  // the caller's now
        s.read_next(i);
        return {s.pool[k], slot.done};
    }

private:
    /// One buffer's read: up to `len` bytes at `file_offset`, `done` of them read.
    struct Slot {
        std::uint64_t file_offset = 0;
        std::size_t len = 0;
        std::size_t done = 0;
        bool submitted = false;  ///< read for the caller (in flight or complete, not yet handed over)
        bool in_flight = false;
        bool failed = false;     ///< its read failed: `error`
    };

    /// The ring and the buffers, held by pointer so that the device can move
    /// while requests are in flight.
    struct State {
        State(int f, std::string p, std::size_t buffers, unsigned flags, std::size_t max)
            : fd(f), path(std::move(p)), sqe_flags(flags), max_request(max), slots(buffers) {
            const int rc = ::io_uring_queue_init(static_cast<unsigned>(buffers), &ring, 0);
            if (rc < 0)
                throw unavailable_error("io_uring_queue_init: " + std::string(std::strerror(-rc)) +
                                        " (io_uring refused by the kernel: kernel.io_uring_disabled, seccomp or a "
                                        "kernel older than 5.6)");
        }
        ~State() {
            // The kernel may still write into the buffers: wait for every
            // request it took (errors no longer matter), then tear the ring down.
            while (in_flight != 0) {
                io_uring_cqe* cqe = nullptr;
                const int rc = ::io_uring_wait_cqe(&ring, &cqe);
                if (rc == -EINTR) continue;
                if (rc < 0) break;
                slots[static_cast<std::size_t>(::io_uring_cqe_get_data64(cqe))].in_flight = false;
                --in_flight;
                ::io_uring_cqe_seen(&ring, cqe);
            }
            ::io_uring_queue_exit(&ring);
        }
        State(const State&) = delete;
        State& operator=(const State&) = delete;

        /// Buffer i reads the next part of the file, unless the file has
        /// ended or a read failed (then it stays with no read: end of input
        /// or the error for whoever waits for it).
        void read_next(std::size_t i) {
            Slot& slot = slots[i];
            slot = {next_offset, ended ? 0 : size, 0, true, false, false};
            next_offset += size;
            if (!ended) submit(i);
        }

        /// Records the first error against slot i; nothing is submitted after it.
        void fail(std::size_t i, const std::string& call, std::error_code code) {
            if (!error) error = std::make_exception_ptr(io_error(call, path, code));
            slots[i].failed = true;
        }

        /// Submits the rest of slot i's read. On failure records the error
        /// and leaves the slot out of flight.
        void submit(std::size_t i) {
            Slot& slot = slots[i];
            if (error) return fail(i, "io_uring read", std::make_error_code(std::errc::io_error));
            io_uring_sqe* sqe = ::io_uring_get_sqe(&ring);
            if (sqe == nullptr)  // cannot happen: a ring entry per buffer
                return fail(i, "io_uring_get_sqe", std::make_error_code(std::errc::resource_unavailable_try_again));
            const std::size_t rest = slot.len - slot.done;
            ::io_uring_prep_read(sqe, fd, pool[i] + offset + slot.done,
                                 static_cast<unsigned>(rest < max_request ? rest : max_request),
                                 slot.file_offset + slot.done);
            sqe->flags |= static_cast<std::uint8_t>(sqe_flags);
            ::io_uring_sqe_set_data64(sqe, i);
            int rc;
            while ((rc = ::io_uring_submit(&ring)) == -EINTR) {
            }
            if (rc < 0) return fail(i, "io_uring_submit", std::error_code(-rc, std::generic_category()));
            if (rc == 0) return fail(i, "io_uring_submit", std::make_error_code(std::errc::resource_unavailable_try_again));
            slot.in_flight = true;
            ++in_flight;
        }

        /// Waits for one completion: a read done, resubmitted for the rest
        /// after a short read, ended by the end of the file, or failed.
        void reap_one() {
            io_uring_cqe* cqe = nullptr;
            int rc;
            while ((rc = ::io_uring_wait_cqe(&ring, &cqe)) == -EINTR) {
            }
            if (rc < 0) {
                // No completion to be had (it does not happen on a ring in
                // use): give up on the requests in flight.
                if (!error) error = std::make_exception_ptr(
                                io_error("io_uring_wait_cqe", path, std::error_code(-rc, std::generic_category())));
                std::rethrow_exception(error);
            }
            const auto i = static_cast<std::size_t>(::io_uring_cqe_get_data64(cqe));
            const int res = cqe->res;
            ::io_uring_cqe_seen(&ring, cqe);
            Slot& slot = slots[i];
            slot.in_flight = false;
            --in_flight;
            if (res == -EINTR || res == -EAGAIN) return submit(i);  // try the same bytes again
            if (res < 0) return fail(i, "io_uring read", std::error_code(-res, std::generic_category()));
            if (res == 0) {  // end of file: this buffer ends here, and nothing after it is read
                ended = true;
                slot.len = slot.done;
                return;
            }
            slot.done += static_cast<std::size_t>(res);
            if (slot.done < slot.len) submit(i);  // a short read: the rest at its offset
        }

        int fd;
        std::string path;
        unsigned sqe_flags;
        std::size_t max_request;  ///< bytes per request at most
        std::vector<Slot> slots;  ///< one per buffer, by buffer number
        buffer_pool pool;
        io_uring ring{};
        std::size_t offset = 0;         ///< where in a buffer the bytes read go
        std::size_t size = 0;           ///< bytes per buffer
        std::uint64_t next_offset = 0;  ///< file offset of the next buffer submitted
        std::size_t in_flight = 0;      ///< requests the kernel took and has not completed
        bool ended = false;             ///< a read found the end of the file
        std::exception_ptr error;       ///< the first failure
    };

    std::unique_ptr<State> s_;
};

}  // namespace iobench
