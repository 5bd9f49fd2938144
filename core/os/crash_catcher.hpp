// A crash of a method's code in the middle of a run (SIGSEGV, SIGBUS, SIGILL,
// SIGFPE, SIGABRT: a bad pointer, a failed assertion, a double free the C
// library found) handed to a thread that can end the run the way a hang or an
// exit() ends it: its row FAILED with the signal, the rows that finished kept,
// the work directory removed (RunGuard, core/engine/run_guard.hpp; docs/reliability.md,
// guarantee 13). Linux only: elsewhere the process ends as it would have.
#pragma once

#include <functional>
#include <string>
#include <thread>

namespace iobench {

/// "SIGSEGV (a segmentation fault: an access through a bad pointer)", and so
/// on for the signals CrashCatcher handles; "signal N" for another.
std::string crash_signal_text(int sig);

/// While it lives (Linux): the first of SIGSEGV, SIGBUS, SIGILL, SIGFPE and
/// SIGABRT that a thread of this process gets is passed to `on_crash` on a
/// thread of the catcher's own, while the crashed thread waits in the signal
/// handler. `on_crash(sig)` either ends the process (it never returns) or
/// returns to decline: then the crashed thread's signal takes its default
/// action (the process dies with it, as without the catcher). A second
/// thread's crash meanwhile waits for the first's handling; a crash of the
/// catcher's own thread while it ends the run (a heap the first crash left
/// corrupted) removes the generated files and ends the process as a caught
/// signal does (remove_generated_and_end); one of a forked child takes the
/// default action. If
/// `on_crash` has not ended the process within 30 s (a lock the crashed thread
/// holds), SIGALRM ends it (core/os/cleanup.hpp's handler: files removed).
/// The main thread gets an alternate signal stack, so that a stack overflow
/// is caught too. Elsewhere than on Linux it does nothing.
class CrashCatcher {
public:
    explicit CrashCatcher(std::function<void(int sig)> on_crash);
    ~CrashCatcher();
    CrashCatcher(const CrashCatcher&) = delete;
    CrashCatcher& operator=(const CrashCatcher&) = delete;

private:
    std::thread thread_;
};

}  // namespace iobench
