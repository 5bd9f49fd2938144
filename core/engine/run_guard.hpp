// The run guard: while a run is in progress, code from elsewhere that ends
// the process (exit(), quick_exit(), _exit(), a crash) or a measured call
// that never returns ends the run with its finished rows kept, not the
// process with nothing (docs/reliability.md).
#pragma once

#include <condition_variable>
#include <functional>
#include <string>
#include <thread>

#include "core/os/abrupt_exit.hpp"
#include "core/os/crash_catcher.hpp"

namespace iobench {

/// While it lives: a method's code that calls exit(), quick_exit(), or on
/// Linux _exit() or _Exit(), or crashes (Linux: SIGSEGV, SIGBUS, SIGILL,
/// SIGFPE, SIGABRT; CrashCatcher), in the middle of a run (handlers of this
/// process, not of a forked child), or an in-process measured call that runs
/// past the time limit (a watchdog thread; a program method has its own;
/// none while instructions are counted), ends the run through `end` with one
/// line on stderr naming the benchmark: `end` records the row as failed,
/// keeps the rows that finished (results file, summary), removes the work
/// directory and returns the exit status, with which the process ends
/// (end_process; under --instructions' valgrind the status is recorded
/// first: record_exit_status). One guard at a time per process.
class RunGuard {
public:
    /// end(benchmark, reason) -> exit status.
    using End = std::function<int(const std::string&, const std::string&)>;

    /// Guards the runs from now on. `time_limit`: seconds a measured call
    /// may take (--time-limit); `watch`: start the watchdog (not while
    /// instructions are counted: its wake-ups would count in the calls'
    /// instructions). Throws std::system_error when the watchdog thread or
    /// the crash catcher's cannot start. `end` runs inside the handler that
    /// caught the event: an exception of it that is a std::exception is said
    /// on stderr and the process ends with exit status 1; any other ends it
    /// by std::terminate.
    RunGuard(End end, double time_limit, bool watch);

    /// Stops guarding: restores the _exit() handler, stops the watchdog.
    ~RunGuard();

    RunGuard(const RunGuard&) = delete;
    RunGuard& operator=(const RunGuard&) = delete;

private:
    /// An in-process call past `time_limit` seconds ends the run: checked
    /// every quarter of the limit, at most every second (each wake-up counts
    /// in a process-wide row's context switches).
    void watch(double time_limit);

    std::thread watchdog_;
    CrashCatcher crash_catcher_;
    AbruptExitHandler previous_exit_ = nullptr;
    bool stop_ = false;  // guarded by the guard's mutex
    std::condition_variable stopped_;
};

}  // namespace iobench
