// obuf's hand-off device over io_uring (liburing): each full buffer becomes
// one write request at its explicit file offset, submitted at once, while the
// caller formats into the next buffer; completions are reaped only when the
// buffer they free is needed again. Linux with liburing only
// (IOBENCH_HAVE_LIBURING); the `obuf_io_uring` method,
// methods/obuf_overlapped.cpp.
#pragma once

#ifndef IOBENCH_HAVE_LIBURING
#error "methods/uring_device.hpp needs liburing (IOBENCH_HAVE_LIBURING)"
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
#include "methods/posix_file.hpp"

namespace iobench {

/// A hand-off device (handoff_device, methods/obuf.hpp) writing to the open
/// file descriptor `fd` (not owned) through an io_uring of its own:
/// `buffers` buffers (at least 1) used in turn, each handed-off buffer one
/// IORING_OP_WRITE at the next file offset (so up to buffers - 1 writes are
/// in flight while obuf fills the last). `sqe_flags` go on every request
/// (IOSQE_ASYNC: always run by an io-wq worker thread, never inline in the
/// submitting call).
///
/// A short write is resubmitted for the rest at its offset; a request moves
/// at most `max_request` bytes (fd_max_io, 1 GiB; less only to test the
/// resubmission, which a regular file rarely needs), the rest of a buffer
/// going the same way. A failed write (the completion's -errno:
/// a full disk is ENOSPC), a write that makes no progress (EIO) and a failed
/// submission become an io_error naming `path`, rethrown by the next
/// hand_off() or finish() and by every one after it; nothing is submitted
/// after it. The destructor waits for every request in flight before the
/// buffers go. Throws unavailable_error from the constructor when the kernel
/// refuses io_uring. Movable, not copyable.
class uring_sink_device {
public:
    uring_sink_device(int fd, std::string path, std::size_t buffers = handoff_buffer_count, unsigned sqe_flags = 0,
                      std::size_t max_request = fd_max_io)
        : s_(std::make_unique<State>(fd, std::move(path), buffers == 0 ? 1 : buffers, sqe_flags,
                                     max_request == 0 || max_request > fd_max_io ? fd_max_io : max_request)) {}

    /// Allocates the buffers of `capacity` bytes; returns the first.
    char* start(std::size_t capacity) {
        State& s = *s_;
        s.pool.allocate(s.slots.size(), capacity);
        return s.pool[0];
    }

    /// Submits the write of `n` bytes of `full` (n == 0: returns `full`) and
    /// returns the next buffer in turn, reaping completions until its own
    /// write is done. Throws the io_error of a failed write or submission.
    char* hand_off(char* full, std::size_t n) {
        State& s = *s_;
        if (s.error) std::rethrow_exception(s.error);
        if (n == 0) return full;
        const std::size_t i = s.pool.index_of(full);
        s.slots[i] = {s.next_offset, n, 0, false};
        s.submit(i);
        if (s.error) std::rethrow_exception(s.error);  // not submitted: `full` stays the caller's
        s.next_offset += n;
        const std::size_t next = (i + 1) % s.slots.size();
        while (s.slots[next].in_flight) s.reap_one();
        return s.pool[next];
    }

    /// Waits for every write in flight. Throws the first error.
    void finish() {
        State& s = *s_;
        while (s.in_flight != 0) s.reap_one();
        if (s.error) std::rethrow_exception(s.error);
    }

private:
    /// One buffer's write: `len` bytes at `offset`, `done` of them written.
    struct Slot {
        std::uint64_t offset = 0;
        std::size_t len = 0;
        std::size_t done = 0;
        bool in_flight = false;
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
            // The kernel may still read the buffers: wait for every request
            // it took (errors no longer matter), then tear the ring down.
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

        /// Records the first error; nothing is submitted after it.
        void fail(const std::string& call, std::error_code code) {
            if (!error) error = std::make_exception_ptr(io_error(call, path, code));
        }

        /// Submits the rest of slot i's write. On failure records the error
        /// and leaves the slot out of flight.
        void submit(std::size_t i) {
            if (error) return;
            Slot& slot = slots[i];
            io_uring_sqe* sqe = ::io_uring_get_sqe(&ring);
            if (sqe == nullptr) {  // cannot happen: a ring entry per buffer
                fail("io_uring_get_sqe", std::make_error_code(std::errc::resource_unavailable_try_again));
                return;
            }
            const std::size_t rest = slot.len - slot.done;
            ::io_uring_prep_write(sqe, fd, pool[i] + slot.done, static_cast<unsigned>(rest < max_request ? rest : max_request),
                                  slot.offset + slot.done);
            sqe->flags |= static_cast<std::uint8_t>(sqe_flags);
            ::io_uring_sqe_set_data64(sqe, i);
            int rc;
            while ((rc = ::io_uring_submit(&ring)) == -EINTR) {
            }
            if (rc < 0) return fail("io_uring_submit", std::error_code(-rc, std::generic_category()));
            if (rc == 0) return fail("io_uring_submit", std::make_error_code(std::errc::resource_unavailable_try_again));
            slot.in_flight = true;
            ++in_flight;
        }

        /// Waits for one completion: a write done, resubmitted for the rest
        /// after a short write, or failed.
        void reap_one() {
            io_uring_cqe* cqe = nullptr;
            int rc;
            while ((rc = ::io_uring_wait_cqe(&ring, &cqe)) == -EINTR) {
            }
            if (rc < 0) {
                // No completion to be had (it does not happen on a ring in
                // use): give up on the requests in flight.
                fail("io_uring_wait_cqe", std::error_code(-rc, std::generic_category()));
                std::rethrow_exception(error);
            }
            const auto i = static_cast<std::size_t>(::io_uring_cqe_get_data64(cqe));
            const int res = cqe->res;
            ::io_uring_cqe_seen(&ring, cqe);
            Slot& slot = slots[i];
            slot.in_flight = false;
            --in_flight;
            if (res == -EINTR || res == -EAGAIN) return submit(i);  // try the same bytes again
            if (res < 0) return fail("io_uring write", std::error_code(-res, std::generic_category()));
            if (res == 0) return fail("io_uring write", std::make_error_code(std::errc::io_error));  // no progress
            slot.done += static_cast<std::size_t>(res);
            if (slot.done < slot.len) submit(i);  // a short write: the rest at its offset
        }

        int fd;
        std::string path;
        unsigned sqe_flags;
        std::size_t max_request;  ///< bytes per request at most
        std::vector<Slot> slots;  ///< one per buffer, by buffer number
        buffer_pool pool;
        io_uring ring{};
        std::uint64_t next_offset = 0;  ///< file offset of the next buffer handed off
        std::size_t in_flight = 0;      ///< requests the kernel took and has not completed
        std::exception_ptr error;       ///< the first failure
    };

    std::unique_ptr<State> s_;
};

}  // namespace iobench
