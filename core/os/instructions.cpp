#include "core/os/instructions.hpp"

#include <fmt/format.h>

#include "core/os/emulator.hpp"

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#if defined(__linux__)
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#endif
#ifndef _WIN32
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
extern char** environ;
#endif

#if defined(__SANITIZE_ADDRESS__)
#define IOBENCH_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define IOBENCH_ASAN 1
#endif
#endif

#if !defined(_WIN32) && defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define IOBENCH_HAVE_CALLGRIND 1
#endif
#endif

namespace iobench {

namespace fs = std::filesystem;

namespace {

/// The environment variable through which the iobench that starts valgrind
/// tells the one under it where callgrind's dumps go (its
/// --callgrind-out-file is DIR/callgrind.out.%p).
constexpr const char* callgrind_dir_variable = "IOBENCH_CALLGRIND_DIR";

#if defined(__linux__)
/// A disabled counter of this thread's user-space instructions (and of the
/// threads it starts later), or -1 with errno set.
int open_perf_instructions() {
    perf_event_attr attr{};
    attr.type = PERF_TYPE_HARDWARE;
    attr.size = sizeof attr;
    attr.config = PERF_COUNT_HW_INSTRUCTIONS;
    attr.disabled = 1;
    attr.exclude_kernel = 1;
    attr.exclude_hv = 1;
    attr.inherit = 1;  // threads a method starts during the call count too
    return static_cast<int>(syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC));
}

/// The counter's value, or -1 when it cannot be read.
double read_perf(int fd) {
    std::uint64_t value = 0;
    if (read(fd, &value, sizeof value) != static_cast<ssize_t>(sizeof value)) return -1;
    return static_cast<double>(value);
}
#endif

#ifdef IOBENCH_HAVE_CALLGRIND
/// The "totals:" figure of a callgrind dump (instructions, the only event
/// collected), or std::nullopt when the file has none.
std::optional<double> callgrind_totals(const fs::path& dump) {
    std::ifstream in(dump);
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("totals:", 0) != 0) continue;
        try {
            return std::stod(line.substr(7));
        } catch (const std::exception&) {
            return std::nullopt;
        }
    }
    return std::nullopt;
}
#endif

}  // namespace

std::string_view to_string(InstructionSource source) {
    switch (source) {
        case InstructionSource::perf: return "perf";
        case InstructionSource::valgrind: return "valgrind";
        case InstructionSource::none: break;
    }
    return "none";
}

std::string perf_instructions_unavailable() {
#if defined(__linux__)
    if (!cpu_emulator().empty())
        return fmt::format("under a CPU emulator ({}): the CPU's counter would count the emulator's instructions, "
                           "not this program's",
                           cpu_emulator());
    const int fd = open_perf_instructions();
    if (fd >= 0) {
        close(fd);
        return "";
    }
    const int error = errno;
    std::string reason = fmt::format("perf_event_open(PERF_COUNT_HW_INSTRUCTIONS): {}", std::strerror(error));
    if (error == ENOENT || error == EOPNOTSUPP || error == ENODEV)
        reason += " (no hardware instruction counter here: a virtual machine often has none)";
    if (error == EACCES || error == EPERM) {
        std::ifstream paranoid("/proc/sys/kernel/perf_event_paranoid");
        int level = 0;
        if (paranoid >> level) reason += fmt::format(" (kernel.perf_event_paranoid is {}; 2 or less allows it)", level);
    }
    return reason;
#else
    return "no perf_event_open on this platform";
#endif
}

bool running_under_valgrind() {
#ifdef IOBENCH_HAVE_CALLGRIND
    return RUNNING_ON_VALGRIND != 0;
#else
    return false;
#endif
}

std::string valgrind_unsupported() {
#if defined(_WIN32)
    return "valgrind does not run on Windows";
#elif defined(IOBENCH_ASAN)
    return "this iobench is built with AddressSanitizer, which valgrind cannot run (use a release build: "
           "cmake --preset linux-release)";
#elif !defined(IOBENCH_HAVE_CALLGRIND)
    return "this iobench was built without valgrind's header valgrind/callgrind.h (package valgrind)";
#else
    return "";
#endif
}

std::string InstructionCounter::enable(InstructionSource wanted) {
    std::string perf_reason = "not tried";
    if (wanted != InstructionSource::valgrind) {
#if defined(__linux__)
        perf_fd_ = cpu_emulator().empty() ? open_perf_instructions() : -1;
        if (perf_fd_ >= 0) {
            source_ = InstructionSource::perf;
            return "";
        }
#endif
        perf_reason = perf_instructions_unavailable();
        if (wanted == InstructionSource::perf) return perf_reason;
    }
    if (!running_under_valgrind())
        return fmt::format("{}; and this process does not run under valgrind", perf_reason);
    if (std::getenv(callgrind_dir_variable) == nullptr)
        return fmt::format("under valgrind, but not started by iobench --instructions ({} is not set)",
                           callgrind_dir_variable);
    source_ = InstructionSource::valgrind;
    return "";
}

void InstructionCounter::begin() {
#if defined(__linux__)
    if (source_ == InstructionSource::perf) ioctl(perf_fd_, PERF_EVENT_IOC_RESET, 0);
#endif
#ifdef IOBENCH_HAVE_CALLGRIND
    if (source_ == InstructionSource::valgrind) CALLGRIND_ZERO_STATS;
#endif
}

void InstructionCounter::start() {
#if defined(__linux__)
    if (source_ == InstructionSource::perf) ioctl(perf_fd_, PERF_EVENT_IOC_ENABLE, 0);
#endif
#ifdef IOBENCH_HAVE_CALLGRIND
    if (source_ == InstructionSource::valgrind) CALLGRIND_START_INSTRUMENTATION;
#endif
}

void InstructionCounter::stop() {
#ifdef IOBENCH_HAVE_CALLGRIND
    if (source_ == InstructionSource::valgrind) CALLGRIND_STOP_INSTRUMENTATION;
#endif
#if defined(__linux__)
    if (source_ == InstructionSource::perf) ioctl(perf_fd_, PERF_EVENT_IOC_DISABLE, 0);
#endif
}

std::optional<double> InstructionCounter::take(std::string_view label) {
#if defined(__linux__)
    if (source_ == InstructionSource::perf) {
        const double value = read_perf(perf_fd_);
        if (value < 0) return std::nullopt;
        return value;
    }
#endif
#ifdef IOBENCH_HAVE_CALLGRIND
    if (source_ == InstructionSource::valgrind) {
        const std::string text(label);
        CALLGRIND_DUMP_STATS_AT(text.c_str());
        ++dumps_;
        // callgrind names the n-th dump of process PID "<out-file>.<n>".
        const fs::path dump = fs::path(std::getenv(callgrind_dir_variable)) /
                              fmt::format("callgrind.out.{}.{}", static_cast<long>(getpid()), dumps_);
        const std::optional<double> totals = callgrind_totals(dump);
        std::error_code ignored;
        fs::remove(dump, ignored);
        return totals;
    }
#endif
    (void)label;
    return std::nullopt;
}

InstructionCounter& instruction_counter() {
    static InstructionCounter counter;
    return counter;
}

#ifndef _WIN32
namespace {

volatile sig_atomic_t valgrind_child = 0;
/// The last signal passed on to the run under valgrind (0: none).
volatile sig_atomic_t signal_passed_on = 0;

/// The file in the private directory where the run under valgrind records
/// its exit status (record_exit_status).
constexpr const char* exit_status_file = "exit_status";

/// The signals iobench cleans up after (core/os/cleanup.hpp): while the run
/// under valgrind goes on, they are passed on to it instead.
constexpr int forwarded_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGALRM, SIGUSR1, SIGUSR2};

/// Passes an interrupting signal on to the run under valgrind, which
/// cleans up after itself and ends; this process then reports how.
extern "C" void forward_signal(int signal) {
    if (valgrind_child > 0) {
        signal_passed_on = signal;
        kill(static_cast<pid_t>(valgrind_child), signal);
    }
}

}  // namespace
#endif

#ifndef _WIN32
namespace {

/// A new directory for callgrind's counts under $TMPDIR (else /tmp).
/// Throws std::runtime_error naming it when it cannot be made.
fs::path make_callgrind_dir() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = fmt::format("{}/iobench-callgrind.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (mkdtemp(pattern.data()) == nullptr)
        throw std::runtime_error(fmt::format("{}: cannot make a directory for callgrind's counts: {}", pattern,
                                             std::strerror(errno)));
    return pattern;
}

/// This process's environment with callgrind_dir_variable set to `dir`
/// (any value it had replaced).
std::vector<std::string> environment_with_callgrind_dir(const fs::path& dir) {
    std::vector<std::string> env = {fmt::format("{}={}", callgrind_dir_variable, dir.string())};
    for (char** e = environ; *e != nullptr; ++e)
        if (std::strncmp(*e, callgrind_dir_variable, std::strlen(callgrind_dir_variable)) != 0) env.emplace_back(*e);
    return env;
}

/// Pointers to `strings`, then a null pointer: an argv or envp for posix_spawn.
std::vector<char*> c_strings(std::vector<std::string>& strings) {
    std::vector<char*> pointers;
    for (std::string& s : strings) pointers.push_back(s.data());
    pointers.push_back(nullptr);
    return pointers;
}

/// The exit status of the run under valgrind that ended with wait status
/// `status`: the run's own, where it got to record it in `dir` (which is
/// removed), else 128 + the signal passed on that ended it; throws
/// valgrind_failed when valgrind ended first.
int exit_status_under_valgrind(const fs::path& dir, int status, const std::string& valgrind) {
    std::optional<int> recorded;
    if (std::ifstream in(dir / exit_status_file); in) {
        int value = 0;
        if (in >> value) recorded = value;
    }
    std::error_code ec;
    fs::remove_all(dir, ec);
    if (recorded) return *recorded;
    if (signal_passed_on != 0) return 128 + signal_passed_on;
    throw valgrind_failed(fmt::format(
        "{} ended {} before the run under it finished: no results (valgrind's own messages, if any, are above)",
        valgrind,
        WIFSIGNALED(status) ? fmt::format("by signal {} ({})", WTERMSIG(status), strsignal(WTERMSIG(status)))
                            : fmt::format("with exit status {}", WIFEXITED(status) ? WEXITSTATUS(status) : -1)));
}

}  // namespace
#endif

void record_exit_status(int status) {
#ifdef _WIN32
    (void)status;
#else
    const char* dir = std::getenv(callgrind_dir_variable);
    if (!dir || !*dir || !running_under_valgrind()) return;
    std::ofstream(fs::path(dir) / exit_status_file) << status << "\n";
#endif
}

int rerun_under_valgrind(int argc, char** argv, const std::function<void()>& started, const std::string& valgrind) {
#ifdef _WIN32
    (void)argc;
    (void)argv;
    (void)started;
    (void)valgrind;
    throw std::runtime_error("valgrind does not run on Windows");
#else
    // The signals iobench cleans up after are held from here until the
    // forwarder is in place, so none can leave the directory below or an
    // orphaned run behind; the run under valgrind starts with none held.
    sigset_t forwarded, previous;
    sigemptyset(&forwarded);
    for (int s : forwarded_signals) sigaddset(&forwarded, s);
    sigprocmask(SIG_BLOCK, &forwarded, &previous);
    struct Unblock {
        const sigset_t* mask;
        ~Unblock() { sigprocmask(SIG_SETMASK, mask, nullptr); }
    } unblock{&previous};
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    const std::string program = ec ? std::string(argv[0]) : self.string();
    const fs::path dir = make_callgrind_dir();

    std::vector<std::string> args = {valgrind,
                                     "--tool=callgrind",
                                     "--instr-atstart=no",
                                     "--dump-instr=no",
                                     "--quiet",
                                     fmt::format("--callgrind-out-file={}/callgrind.out.%p", dir.string()),
                                     program};
    for (int i = 1; i < argc; ++i) args.emplace_back(argv[i]);
    std::vector<char*> child_argv = c_strings(args);
    std::vector<std::string> env_strings = environment_with_callgrind_dir(dir);
    std::vector<char*> child_env = c_strings(env_strings);

    // The child: the signal mask this process had, and the default action for
    // the signals this process handles (its own handlers are iobench's too).
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setsigmask(&attr, &previous);
    posix_spawnattr_setsigdefault(&attr, &forwarded);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    pid_t pid = 0;
    const int spawn_error = posix_spawn(&pid, valgrind.c_str(), nullptr, &attr, child_argv.data(), child_env.data());
    posix_spawnattr_destroy(&attr);
    if (spawn_error != 0) {
        fs::remove_all(dir, ec);
        throw std::runtime_error(fmt::format("{}: cannot start it: {}", valgrind, std::strerror(spawn_error)));
    }
    valgrind_child = pid;
    struct sigaction forward {};
    forward.sa_handler = forward_signal;
    sigemptyset(&forward.sa_mask);
    for (int s : forwarded_signals) sigaction(s, &forward, nullptr);
    sigprocmask(SIG_SETMASK, &previous, nullptr);  // a signal held meanwhile is forwarded now
    if (started) started();
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    valgrind_child = 0;
    return exit_status_under_valgrind(dir, status, valgrind);
#endif
}

}  // namespace iobench
