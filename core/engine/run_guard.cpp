#include "core/engine/run_guard.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <string>
#include <utility>

#include "core/engine/runner.hpp"
#include "core/os/instructions.hpp"

#ifdef _WIN32
#include <process.h>
#define IOBENCH_GETPID() _getpid()
#else
#include <unistd.h>
#define IOBENCH_GETPID() getpid()
#endif

namespace iobench {
namespace {

/// Exit status of a run that a guarded event ended when `end` throws.
constexpr int exit_failed = 1;

/// Writes `text` to stderr, flushed; a stderr that cannot be written loses
/// the text and nothing else.
void say(const char* text) noexcept {
    std::fputs(text, stderr);
    std::fflush(stderr);
}

/// "iobench: error: <name>: <reason>; the run ends here, ..." on stderr;
/// formatting that fails (memory, in a crash's handler) loses the line and
/// nothing else.
void say_run_ends(const std::string& name, const std::string& reason) noexcept {
    try {
        say(fmt::format("iobench: error: {}: {}; the run ends here, with the rows that finished before it\n", name,
                        reason)
                .c_str());
    } catch (...) {
    }
}

std::mutex& mutex() {
    static std::mutex m;
    return m;
}

/// The guard's `end`; empty while no guard lives.
RunGuard::End& end_function() {
    static RunGuard::End f;
    return f;
}

/// The process that made the guard (a forked child's exit is its own).
long& owner_pid() {
    static long pid = 0;
    return pid;
}

/// Ends the run once (a second caller waits for the first to end the
/// process), after stop_runs(). Under --instructions' valgrind the status
/// is recorded first, so that the iobench waiting outside reports the run's
/// end, not valgrind's.
void end_run(const std::string& reason) {
    static std::atomic<bool> ending{false};
    if (ending.exchange(true))
        for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
    RunGuard::End end;
    {
        const std::lock_guard<std::mutex> lock(mutex());
        end = end_function();
    }
    if (!end) return;
    const auto now = run_in_progress();
    const std::string name = now ? now->name : std::string("a benchmark");
    say_run_ends(name, reason);
    int status = exit_failed;
    try {
        status = end(name, reason);
    } catch (const std::exception& e) {
        say("iobench: error: ");
        say(e.what());
        say("\n");
    }
    record_exit_status(status);
    end_process(status);
}

/// `how` (a function's name, "exit()") ends the process: while a benchmark
/// runs, in this process, the run ends as end_run says.
void ended_by(const char* how) {
    if (static_cast<long>(IOBENCH_GETPID()) != owner_pid() || !run_in_progress()) return;
    stop_runs();
    end_run(fmt::format("called {} during its run", how));
}

/// atexit: exit() while a benchmark runs, in this process.
void on_exit() { ended_by("exit()"); }

/// at_quick_exit: quick_exit(), which runs no atexit handler.
void on_quick_exit() { ended_by("quick_exit()"); }

/// _exit() or _Exit() (`how`), which run no handler of the C library's
/// (core/os/abrupt_exit.hpp); outside a benchmark's run they end the process
/// as they would have.
void on_abrupt_exit(const char* how, int) { ended_by(how); }

/// A crash of a method's code (SIGSEGV, SIGABRT, ...; Linux) while a
/// benchmark runs, in this process, ends the run as end_run says; else the
/// process dies of it as it would have.
void on_crash(int sig) {
    if (static_cast<long>(IOBENCH_GETPID()) != owner_pid() || !run_in_progress()) return;
    stop_runs();
    end_run(fmt::format("crashed with {} during its run", crash_signal_text(sig)));
}

}  // namespace

RunGuard::RunGuard(End end, double time_limit, bool watch) : crash_catcher_(on_crash) {
    {
        const std::lock_guard<std::mutex> lock(mutex());
        end_function() = std::move(end);
        owner_pid() = static_cast<long>(IOBENCH_GETPID());
    }
    static const bool registered = std::atexit(on_exit) == 0 && register_quick_exit_handler(on_quick_exit);
    (void)registered;
    previous_exit_ = set_abrupt_exit_handler(on_abrupt_exit);
    if (watch) watchdog_ = std::thread([this, time_limit] { this->watch(time_limit); });
}

RunGuard::~RunGuard() {
    set_abrupt_exit_handler(previous_exit_);
    {
        const std::lock_guard<std::mutex> lock(mutex());
        end_function() = nullptr;
        stop_ = true;
    }
    stopped_.notify_all();
    if (watchdog_.joinable()) watchdog_.join();
}

void RunGuard::watch(double time_limit) {
    const auto period = std::chrono::duration<double>(std::min(1.0, std::max(0.05, time_limit / 4)));
    std::unique_lock<std::mutex> lock(mutex());
    while (!stop_) {
        stopped_.wait_for(lock, period);
        if (stop_) return;
        if (!stop_runs_if_call_overdue(time_limit)) continue;
        lock.unlock();
        end_run(fmt::format("its call did not return within the time limit of {} s (--time-limit)", time_limit));
        return;
    }
}

}  // namespace iobench
