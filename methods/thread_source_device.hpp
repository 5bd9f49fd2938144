// ibuf's read-ahead device over a reader thread: a std::thread of its own
// reads the input into the free buffers with an ordinary source device
// (read(2) on POSIX, ReadFile on Windows) and queues them, filled, in input
// order, while the caller parses the buffer it holds. The input-side
// counterpart of thread_device.hpp's writer thread. Portable C++20 (the
// `ibuf_thread` method, methods/ibuf_overlapped.cpp).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "methods/handoff.hpp"
#include "methods/ibuf.hpp"

namespace iobench {

/// A read-ahead device (readahead_device, methods/ibuf.hpp) whose reads are
/// made by a thread of its own with the source device `Source`
/// (fd_source_device, handle_source_device): `buffers` buffers (at least 2),
/// one held by ibuf while the thread reads into the others, one read_some()
/// call per buffer, in turn.
///
/// next() waits only when no buffer is read yet. The first read that fails
/// (the source's io_error) stops the reading; next() hands over every buffer
/// read before it, then rethrows it, every time after that too. End of input
/// (a read of 0 bytes) stops the reading as well. The destructor stops the
/// thread (a read under way ends first) and joins it: no thread outlives the
/// device, on any path. Movable, not copyable.
template <source_device Source>
class thread_source_device {
public:
    explicit thread_source_device(Source source, std::size_t buffers = handoff_buffer_count)
        : s_(std::make_unique<State>(std::move(source), buffers < 2 ? 2 : buffers)) {}

    /// Allocates the buffers of `capacity` bytes, starts the reader thread
    /// (reading up to `size` bytes at `offset` into each buffer) and returns
    /// the buffer kept for the caller. Throws std::bad_alloc, std::system_error.
    char* start(std::size_t capacity, std::size_t offset, std::size_t size) {
        State& s = *s_;
        s.pool.allocate(s.count, capacity);
        s.offset = offset;
        s.size = size;
        s.filled.resize(s.pool.count());
        s.free.reserve(s.pool.count());  // the reader thread never allocates
        for (std::size_t i = s.pool.count(); i-- > 1;) s.free.push_back(s.pool[i]);
        s.thread = std::thread([&s] { s.run(); });
        return s.pool[0];
    }

    /// Gives `done` back to be read into and returns the next buffer read,
    /// waiting for it (size 0 at end of input: then `done` itself, kept).
    /// Throws the io_error of a failed read once the buffers before it are
    /// handed over (`done` not taken).
    read_buffer next(char* done) {
        State& s = *s_;
        std::unique_lock lock(s.mutex);
        s.ready.wait(lock, [&s] { return s.queued != 0 || s.error || s.end; });
        if (s.queued == 0) {
            if (s.error) std::rethrow_exception(s.error);
            return {done, 0};  // end of input
        }
        const read_buffer got = s.filled[s.head];
        s.head = (s.head + 1) % s.filled.size();
        --s.queued;
        s.free.push_back(done);
        s.work.notify_one();
        return got;
    }

private:
    /// What the caller and the reader thread share, behind `mutex`. Held by
    /// pointer, so that the device can move while the thread runs.
    struct State {
        State(Source src, std::size_t buffers) : source(std::move(src)), count(buffers) {}
        ~State() {
            {
                std::lock_guard lock(mutex);
                stop = true;
            }
            work.notify_one();
            if (thread.joinable()) thread.join();
        }
        State(const State&) = delete;
        State& operator=(const State&) = delete;

        /// The reader thread: reads into each free buffer in turn and queues
        /// it, until end of input, a failed read or stop.
        void run() {
            std::unique_lock lock(mutex);
            for (;;) {
                work.wait(lock, [this] { return stop || !free.empty(); });
                if (stop) return;
                char* const buffer = free.back();
                free.pop_back();
                lock.unlock();
                std::size_t n = 0;
                std::exception_ptr failed;
                try {
                    n = source.read_some(buffer + offset, size);
                } catch (...) {
                    failed = std::current_exception();
                }
                lock.lock();
                if (failed) {
                    error = failed;
                } else if (n == 0) {
                    end = true;
                } else {
                    filled[(head + queued) % filled.size()] = {buffer, n};
                    ++queued;
                }
                ready.notify_one();
                if (failed || n == 0) return;  // nothing more to read
            }
        }

        Source source;
        std::size_t count;
        std::size_t offset = 0;           ///< where in a buffer the bytes read go
        std::size_t size = 0;             ///< bytes per read at most
        buffer_pool pool;
        std::mutex mutex;
        std::condition_variable work;     ///< to the reader: a buffer is free, or stop
        std::condition_variable ready;    ///< to the caller: a buffer is read, or the reading ended
        std::vector<read_buffer> filled;  ///< ring of buffers read, in input order: `queued` from `head`
        std::size_t head = 0;
        std::size_t queued = 0;
        bool end = false;                 ///< a read returned 0: end of input
        bool stop = false;
        std::vector<char*> free;          ///< buffers to read into, not with the caller
        std::exception_ptr error;         ///< the failed read
        std::thread thread;               ///< last: joined in ~State before the rest goes
    };

    std::unique_ptr<State> s_;
};

}  // namespace iobench
