#include "core/os/crash_catcher.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <iterator>
#include <vector>

#ifdef __linux__
#include <fcntl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#endif

#include "core/os/cleanup.hpp"

namespace iobench {

std::string crash_signal_text(int sig) {
    switch (sig) {
    case SIGSEGV: return "SIGSEGV (a segmentation fault: an access through a bad pointer)";
    case SIGILL: return "SIGILL (an illegal instruction)";
    case SIGFPE: return "SIGFPE (an arithmetic fault, such as an integer division by zero)";
    case SIGABRT:
        return "SIGABRT (abort(): a failed assertion, or the C library finding its heap corrupted, a double free "
               "among them)";
#ifdef SIGBUS
    case SIGBUS: return "SIGBUS (a bus error: an access to a mapped file's page past its end, or misaligned)";
#endif
    default: return fmt::format("signal {}", sig);
    }
}

#ifdef __linux__

namespace {

constexpr int caught[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};

/// What the crashed thread waits for.
enum Verdict : int { undecided = 0, ending = 1, die = 2 };

std::atomic<int> write_fd{-1};      // the catcher thread's pipe (its write end)
std::atomic<long> owner_pid{0};     // the process the catcher was made in
std::atomic<long> catcher_tid{0};   // the catcher thread's id
std::atomic<bool> crashing{false};  // a crash is being handled
std::atomic<int> verdict{undecided};
struct sigaction previous[std::size(caught)];
stack_t previous_stack{};
std::vector<char> alternate_stack;
std::function<void(int)> handler_function;

void sleep_a_little() {
    timespec ms{0, 1'000'000};
    nanosleep(&ms, nullptr);
}

/// The default action for `sig` once the handler returns (the signal is
/// blocked while it runs: a fault repeats, abort() raises it again).
void die_of(int sig) {
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, nullptr);
}

extern "C" void on_crash_signal(int sig) {
    const long tid = static_cast<long>(::syscall(SYS_gettid));
    if (tid == catcher_tid.load() && verdict.load() == ending) {
        // Ending the run crashed too (a heap the first crash left corrupted):
        // the generated files go at least, as after Ctrl-C.
        remove_generated_and_end(sig);
    }
    if (static_cast<long>(::getpid()) != owner_pid.load() || tid == catcher_tid.load() || write_fd.load() < 0) {
        die_of(sig);
        return;
    }
    if (crashing.exchange(true)) {
        // Another thread crashed first: its handling ends the process, or
        // lets it die; until then this one waits.
        while (verdict.load() != die) sleep_a_little();
        die_of(sig);
        return;
    }
    const int number = sig;
    if (::write(write_fd.load(), &number, sizeof number) != static_cast<ssize_t>(sizeof number)) {
        die_of(sig);
        return;
    }
    while (verdict.load() != die) sleep_a_little();
    die_of(sig);
}

}  // namespace

CrashCatcher::CrashCatcher(std::function<void(int sig)> on_crash) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) return;  // best effort: without it crashes end the process as before
    handler_function = std::move(on_crash);
    owner_pid.store(static_cast<long>(::getpid()));
    crashing.store(false);
    verdict.store(undecided);
    const int read_end = fds[0];
    thread_ = std::thread([read_end] {
        catcher_tid.store(static_cast<long>(::syscall(SYS_gettid)));
        int sig = 0;
        while (::read(read_end, &sig, sizeof sig) < 0 && errno == EINTR) {
        }
        ::close(read_end);
        if (sig <= 0) return;  // the destructor's 0, or the pipe closed
        verdict.store(ending);
        ::alarm(30);
        handler_function(sig);  // returns only to decline
        ::alarm(0);
        verdict.store(die);
    });
    write_fd.store(fds[1]);
    // An alternate stack for the main thread, where a stack overflow faults.
    alternate_stack.resize(std::max<std::size_t>(64 * 1024, static_cast<std::size_t>(::sysconf(_SC_SIGSTKSZ))));
    stack_t stack{};
    stack.ss_sp = alternate_stack.data();
    stack.ss_size = alternate_stack.size();
    ::sigaltstack(&stack, &previous_stack);
    for (std::size_t i = 0; i < std::size(caught); ++i) {
        struct sigaction action {};
        action.sa_handler = on_crash_signal;
        sigemptyset(&action.sa_mask);
        action.sa_flags = SA_ONSTACK;
        sigaction(caught[i], &action, &previous[i]);
    }
}

CrashCatcher::~CrashCatcher() {
    if (!thread_.joinable()) return;
    for (std::size_t i = 0; i < std::size(caught); ++i) sigaction(caught[i], &previous[i], nullptr);
    ::sigaltstack(&previous_stack, nullptr);
    const int fd = write_fd.exchange(-1);
    const int stop = 0;
    [[maybe_unused]] const ssize_t written = ::write(fd, &stop, sizeof stop);
    thread_.join();
    ::close(fd);
    handler_function = nullptr;
}

#else

CrashCatcher::CrashCatcher(std::function<void(int)>) {}
CrashCatcher::~CrashCatcher() = default;

#endif

}  // namespace iobench
