#include "core/os/abrupt_exit.hpp"

#include <atomic>
#include <cstdlib>

#ifdef _WIN32
#include <process.h>
#define IOBENCH_GETPID() _getpid()
#else
#include <unistd.h>
#define IOBENCH_GETPID() getpid()
#endif
#ifdef __linux__
#include <dlfcn.h>
#include <sys/syscall.h>
#endif

namespace iobench {

namespace {

std::atomic<AbruptExitHandler> handler{nullptr};
/// The process that set the handler: a forked child (a console workload's,
/// a program's before exec) ends through the C library's own _exit.
std::atomic<long> handler_pid{0};

#ifdef __linux__
using ExitFunction = void (*)(int);
/// The next definition of `name` after the executable's (a sanitizer's, then
/// the C library's), found before anything runs: dlsym is no async-signal-safe call.
ExitFunction next_definition(const char* name) {
    return reinterpret_cast<ExitFunction>(::dlsym(RTLD_NEXT, name));
}
const ExitFunction next_exit = next_definition("_exit");
const ExitFunction next_upper_exit = next_definition("_Exit");

[[noreturn]] void next_or_system_call(ExitFunction next, int status) {
    if (next) next(status);
    for (;;) ::syscall(SYS_exit_group, status);
}

/// _exit() and _Exit(): the handler's, while set in this process.
[[noreturn]] void abrupt_exit(const char* how, ExitFunction next, int status) {
    const AbruptExitHandler h = handler.load();
    if (h && handler_pid.load() == static_cast<long>(IOBENCH_GETPID())) h(how, status);
    next_or_system_call(next, status);
}
#endif

}  // namespace

bool register_quick_exit_handler(void (*h)()) noexcept {
#if defined(__MINGW32__)
    (void)h;
    return false;
#else
    return std::at_quick_exit(h) == 0;
#endif
}

AbruptExitHandler set_abrupt_exit_handler(AbruptExitHandler h) noexcept {
    handler_pid.store(static_cast<long>(IOBENCH_GETPID()));
    return handler.exchange(h);
}

void end_process(int status) noexcept {
#ifdef __linux__
    next_or_system_call(next_exit, status);
#else
    std::_Exit(status);
#endif
}

}  // namespace iobench

#ifdef __linux__
// The executable's _exit and _Exit (see the header). Declared by <unistd.h>
// and <stdlib.h> with these signatures.
extern "C" void _exit(int status) { iobench::abrupt_exit("_exit()", iobench::next_exit, status); }
extern "C" void _Exit(int status) noexcept { iobench::abrupt_exit("_Exit()", iobench::next_upper_exit, status); }
#endif
