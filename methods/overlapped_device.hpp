// obuf's hand-off device over overlapped WriteFile: a HANDLE opened with
// FILE_FLAG_OVERLAPPED, each full buffer one WriteFile at its explicit offset
// with an OVERLAPPED and an event of its own, collected (GetOverlappedResult)
// only when its buffer is needed again -- the output counterpart of the
// overlapped ReadFile methods of methods/win32.cpp. Windows only; the
// `WriteFile_overlapped` method, methods/obuf_overlapped.cpp.
#pragma once

#ifndef _WIN32
#error "methods/overlapped_device.hpp is for Windows builds only"
#endif

#include <windows.h>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include <iobench/error.hpp>
#include "methods/handoff.hpp"
#include "methods/win32_device.hpp"

namespace iobench {

/// A hand-off device (handoff_device, methods/obuf.hpp) writing to `handle`
/// (opened FILE_FLAG_OVERLAPPED; not owned) with overlapped WriteFile:
/// `buffers` buffers (at least 1) used in turn, each handed-off buffer one
/// WriteFile at the next file offset, so up to buffers - 1 are in flight
/// while obuf fills the last. A write Windows completes at once is collected
/// the same way. Short writes are reissued for the rest at their offset; at
/// most `max_request` bytes per call (handle_max_io, 1 GiB; less only to test
/// the reissue), the rest of a buffer going the same way.
///
/// A failed WriteFile or GetOverlappedResult (ERROR_DISK_FULL, ...) becomes
/// an io_error naming `path`, rethrown by the next hand_off() or finish() and
/// by every one after it; nothing is issued after it. The destructor cancels
/// (CancelIo) and waits for every write in flight before the buffers go.
/// Movable, not copyable.
class overlapped_sink_device {
public:
    overlapped_sink_device(HANDLE handle, std::string path, std::size_t buffers = handoff_buffer_count,
                           std::size_t max_request = handle_max_io)
        : s_(std::make_unique<State>(handle, std::move(path), buffers == 0 ? 1 : buffers,
                                     max_request == 0 || max_request > handle_max_io ? handle_max_io : max_request)) {}

    /// Allocates the buffers of `capacity` bytes; returns the first.
    char* start(std::size_t capacity) {
        State& s = *s_;
        s.pool.allocate(s.slots.size(), capacity);
        return s.pool[0];
    }

    /// Issues the write of `n` bytes of `full` (n == 0: returns `full`) and
    /// returns the next buffer in turn, collecting its own write first.
    /// Throws the io_error of a failed write.
    char* hand_off(char* full, std::size_t n) {
        State& s = *s_;
        if (s.error) std::rethrow_exception(s.error);
        if (n == 0) return full;
        const std::size_t i = s.pool.index_of(full);
        Slot& slot = s.slots[i];
        slot.offset = s.next_offset;
        slot.len = n;
        slot.done = 0;
        s.issue(i);
        if (s.error) std::rethrow_exception(s.error);  // not issued: `full` stays the caller's
        s.next_offset += n;
        const std::size_t next = (i + 1) % s.slots.size();
        s.collect(next);
        return s.pool[next];
    }

    /// Waits for every write in flight. Throws the first error.
    void finish() {
        State& s = *s_;
        for (std::size_t i = 0; i < s.slots.size(); ++i) s.collect(i);
        if (s.error) std::rethrow_exception(s.error);
    }

private:
    /// One buffer's write: `len` bytes at `offset`, `done` of them written.
    struct Slot {
        OVERLAPPED ov{};
        HANDLE event = nullptr;
        std::uint64_t offset = 0;
        std::size_t len = 0;
        std::size_t done = 0;
        bool in_flight = false;
    };

    /// The requests and buffers, held by pointer: an OVERLAPPED must not move
    /// while its write is in flight.
    struct State {
        State(HANDLE h, std::string p, std::size_t buffers, std::size_t max)
            : handle(h), path(std::move(p)), max_request(max), slots(buffers) {
            for (Slot& s : slots) {
                s.event = CreateEventW(nullptr, TRUE, FALSE, nullptr);
                if (!s.event) {
                    close_events();
                    throw_last_error("CreateEventW", path);
                }
            }
        }
        ~State() {
            bool pending = false;
            for (const Slot& s : slots) pending = pending || s.in_flight;
            if (pending) CancelIo(handle);
            for (Slot& s : slots) {
                DWORD written = 0;
                if (s.in_flight) GetOverlappedResult(handle, &s.ov, &written, TRUE);
            }
            close_events();
        }
        State(const State&) = delete;
        State& operator=(const State&) = delete;

        void close_events() {
            for (Slot& s : slots)
                if (s.event) CloseHandle(s.event);
        }

        /// Records the first error (GetLastError() of `call`); nothing is
        /// issued after it.
        void fail(const char* call) {
            const DWORD err = GetLastError();
            if (!error)
                error = std::make_exception_ptr(
                    io_error(call, path, std::error_code(static_cast<int>(err), std::system_category())));
        }

        /// Issues WriteFile for the rest of slot i's bytes at their offset.
        void issue(std::size_t i) {
            if (error) return;
            Slot& s = slots[i];
            const std::size_t rest = s.len - s.done;
            const std::uint64_t at = s.offset + s.done;
            s.ov = OVERLAPPED{};
            s.ov.Offset = static_cast<DWORD>(at);
            s.ov.OffsetHigh = static_cast<DWORD>(at >> 32);
            s.ov.hEvent = s.event;
            const auto chunk = static_cast<DWORD>(rest < max_request ? rest : max_request);
            if (!WriteFile(handle, pool[i] + s.done, chunk, nullptr, &s.ov) && GetLastError() != ERROR_IO_PENDING)
                return fail("WriteFile");
            s.in_flight = true;  // pending, or completed at once: collected the same way
        }

        /// Waits for slot i's write until all its bytes are written (issuing
        /// the rest after a short write) or it failed.
        void collect(std::size_t i) {
            Slot& s = slots[i];
            while (s.in_flight) {
                DWORD written = 0;
                const BOOL ok = GetOverlappedResult(handle, &s.ov, &written, TRUE);
                s.in_flight = false;
                if (!ok) return fail("WriteFile");
                if (written == 0) {  // no progress
                    SetLastError(ERROR_WRITE_FAULT);
                    return fail("WriteFile");
                }
                s.done += written;
                if (s.done < s.len) issue(i);
            }
        }

        HANDLE handle;
        std::string path;
        std::size_t max_request;  ///< bytes per WriteFile at most
        std::vector<Slot> slots;  ///< one per buffer, by buffer number
        buffer_pool pool;
        std::uint64_t next_offset = 0;  ///< file offset of the next buffer handed off
        std::exception_ptr error;       ///< the first failure
    };

    std::unique_ptr<State> s_;
};

}  // namespace iobench
