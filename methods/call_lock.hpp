// The lock a per-call method's call holds (iobench/calls.hpp): the *_mutex
// methods (ofstream_mutex, obuf_mutex) take their sink's std::mutex for the
// whole of each call, which makes one sink safe to share between threads;
// their unlocked twins (ofstream, obuf) take nothing.
#pragma once

#include <mutex>

namespace iobench {

/// Holds `mutex` for the call's scope when `Locked`; else does nothing.
template <bool Locked>
class CallLock {
public:
    explicit CallLock(std::mutex& mutex) {
        if constexpr (Locked) lock_ = std::unique_lock(mutex);
    }

private:
    std::unique_lock<std::mutex> lock_;
};

}  // namespace iobench
