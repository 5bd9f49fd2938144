// obuf's hand-off device over a writer thread: full buffers go through a small
// bounded queue to a std::thread that writes each with an ordinary sink
// device (write(2) on POSIX, WriteFile on Windows), while the caller formats
// into the next buffer. Portable C++20 (the `obuf_thread` method,
// methods/obuf_overlapped.cpp).
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
#include "methods/obuf.hpp"

namespace iobench {

/// A hand-off device (handoff_device) whose writes are made by a thread of
/// its own with the sink device `Sink` (fd_sink_device, handle_sink_device):
/// `buffers` buffers (at least 1), of which obuf fills one while the others
/// wait in the queue or are being written, in the order handed off.
///
/// hand_off() waits only when every other buffer is still queued or being
/// written. The first write that fails (the sink's io_error) is rethrown by
/// the next hand_off() or finish(), and by every one after it; buffers handed
/// off after a failure are not written. The destructor stops the thread (a
/// write under way ends first; queued buffers are dropped) and joins it: no
/// thread outlives the device, on any path. Movable, not copyable.
template <sink_device Sink>
class thread_sink_device {
public:
    explicit thread_sink_device(Sink sink, std::size_t buffers = handoff_buffer_count)
        : s_(std::make_unique<State>(std::move(sink), buffers)) {}

    /// Allocates the buffers of `capacity` bytes, starts the writer thread
    /// and returns the first buffer. Throws std::bad_alloc, std::system_error.
    char* start(std::size_t capacity) {
        State& s = *s_;
        s.pool.allocate(s.count, capacity);
        s.jobs.resize(s.pool.count());
        s.free.reserve(s.pool.count());  // the writer thread never allocates
        for (std::size_t i = s.pool.count(); i-- > 1;) s.free.push_back(s.pool[i]);
        s.thread = std::thread([&s] { s.run(); });
        return s.pool[0];
    }

    /// Queues `n` bytes of `full` for the writer thread and returns an empty
    /// buffer, waiting for one if none is free (n == 0: returns `full`).
    /// Throws the io_error of an earlier failed write (`full` not taken).
    char* hand_off(char* full, std::size_t n) {
        State& s = *s_;
        std::unique_lock lock(s.mutex);
        if (s.error) std::rethrow_exception(s.error);
        if (n == 0) return full;
        s.jobs[(s.head + s.queued) % s.jobs.size()] = {full, n};
        ++s.queued;
        s.work.notify_one();
        s.done.wait(lock, [&s] { return !s.free.empty(); });
        char* const next = s.free.back();
        s.free.pop_back();
        return next;
    }

    /// Waits until every buffer handed off is written. Throws the first
    /// failed write's io_error.
    void finish() {
        State& s = *s_;
        std::unique_lock lock(s.mutex);
        s.done.wait(lock, [&s] { return s.queued == 0 && !s.writing; });
        if (s.error) std::rethrow_exception(s.error);
    }

private:
    /// A buffer handed off: its bytes.
    struct Job {
        char* data = nullptr;
        std::size_t size = 0;
    };

    /// What the caller and the writer thread share, behind `mutex`. Held by
    /// pointer, so that the device can move while the thread runs.
    struct State {
        State(Sink s, std::size_t buffers) : sink(std::move(s)), count(buffers) {}
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

        /// The writer thread: takes the queued buffers in order, writes each
        /// (unless a write failed before) and gives it back as free.
        void run() {
            std::unique_lock lock(mutex);
            for (;;) {
                work.wait(lock, [this] { return stop || queued != 0; });
                if (stop) return;
                const Job job = jobs[head];
                head = (head + 1) % jobs.size();
                --queued;
                writing = true;
                std::exception_ptr failed;
                if (!error) {
                    lock.unlock();
                    try {
                        sink.write_all(job.data, job.size);
                    } catch (...) {
                        failed = std::current_exception();
                    }
                    lock.lock();
                }
                if (failed && !error) error = failed;
                writing = false;
                free.push_back(job.data);
                done.notify_one();
            }
        }

        Sink sink;
        std::size_t count;
        buffer_pool pool;
        std::mutex mutex;
        std::condition_variable work;  ///< to the writer: a job is queued, or stop
        std::condition_variable done;  ///< to the caller: a buffer is free, or a write ended
        std::vector<Job> jobs;         ///< ring of queued jobs: `queued` from `head`
        std::size_t head = 0;
        std::size_t queued = 0;
        bool writing = false;          ///< the writer holds a job outside the lock
        bool stop = false;
        std::vector<char*> free;       ///< empty buffers, not with the caller
        std::exception_ptr error;      ///< the first failed write
        std::thread thread;            ///< last: joined in ~State before the rest goes
    };

    std::unique_ptr<State> s_;
};

}  // namespace iobench
