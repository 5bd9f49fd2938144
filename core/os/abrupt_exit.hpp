// _exit() and _Exit() in code from elsewhere (a plugin's constructor, a
// method during a run): they end the process at once, without the exit()
// handlers that name what ended it, and with the status the code chose (0
// among them). On Linux the executable's own definitions of both take the
// calls of every library loaded (the executable exports its symbols:
// iobench_add_executable), and tell the handler set here, which ends the
// process its own way; quick_exit() is caught by at_quick_exit handlers
// (core/plugins/plugins.cpp, core/engine/run_guard.cpp). Not caught: a direct exit_group
// system call, and anything on other systems (docs/reliability.md says so).
#pragma once

namespace iobench {

/// What _exit(status) or _Exit(status) calls instead of ending the process,
/// while set, in the process that set it: `how` is "_exit()" or "_Exit()".
/// It must not return (it ends the process with end_process()).
using AbruptExitHandler = void (*)(const char* how, int status);

/// Sets the handler (nullptr: none; _exit and _Exit then end the process as
/// the C library's do). Thread-safe; returns the previous one.
AbruptExitHandler set_abrupt_exit_handler(AbruptExitHandler handler) noexcept;

/// Registers `handler` to run when the process calls quick_exit()
/// (std::at_quick_exit). Returns false where the C runtime has no
/// quick_exit (MinGW-w64's msvcrt): nothing is registered there, and
/// nothing can call quick_exit either.
bool register_quick_exit_handler(void (*handler)()) noexcept;

/// Ends the process now with `status`, as the C library's _exit() does,
/// never through the handler: iobench's own end (async-signal-safe).
[[noreturn]] void end_process(int status) noexcept;

}  // namespace iobench
