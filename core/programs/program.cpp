#include "core/programs/program.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <ctime>
#include <system_error>

#include <iobench/error.hpp>
#include "core/os/environment.hpp"
#include "core/os/trusted_file.hpp"
#include "core/os/usage_error.hpp"

#ifndef _WIN32
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#include <sys/syscall.h>
#endif
#endif

namespace iobench {

namespace {

#ifndef _WIN32  // (program methods run on POSIX systems only)
using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point t) {
    return std::chrono::duration<double>(clock_type::now() - t).count();
}

/// `text` as one line for a message: at most 200 bytes, control characters shown as '?'.
std::string printable(std::string_view text) {
    std::string out(text.substr(0, 200));
    for (char& c : out)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
    if (text.size() > 200) out += "...";
    return out;
}
#endif

}  // namespace

std::vector<std::string> program_command(const ProgramCommand& program) {
#ifdef _WIN32
    (void)program;
    throw unavailable_error("program methods run on POSIX systems only (docs/external-methods.md)");
#else
    const std::filesystem::path built(program.file);
    std::filesystem::path file;
    std::error_code ec;
    if (const auto exe = executable_path().parent_path(); !exe.empty() && built.has_parent_path()) {
        const auto installed =
            exe / ".." / "libexec" / "iobench" / "methods" / built.parent_path().filename() / built.filename();
        if (std::filesystem::is_regular_file(installed, ec)) file = installed.lexically_normal();
    }
    if (file.empty() && std::filesystem::is_regular_file(built, ec)) file = built;
    if (file.empty()) throw unavailable_error(
            fmt::format("the program {} was not built (cmake --build <build dir> --target iobench_programs)", program.file));
    std::vector<std::string> argv = program.interpreter;
    argv.push_back(file.string());
    return argv;
#endif
}

std::string check_program(const std::string& method, const ProgramCommand& program) {
#ifdef _WIN32
    (void)method;
    (void)program;
    return "";
#else
    std::vector<std::string> argv;
    try {
        argv = program_command(program);
    } catch (const unavailable_error&) {
        return "";  // not built: its rows are skipped with the reason
    }
    std::vector<std::string> files;
    for (const std::string& word : argv) {
        const std::filesystem::path path(word);
        std::error_code ec;
        if (!path.is_absolute() || !std::filesystem::is_regular_file(path, ec)) continue;  // an option ("-jar")
        if (const std::string why = writable_by_others(path); !why.empty())
            throw usage_error(fmt::format("program method {}: {}: refused: {}, so another user could change the code "
                                          "iobench would run; make it and every directory above it belong to you or "
                                          "root and writable by no one else",
                                          method, word, why));
        const std::filesystem::path real = std::filesystem::canonical(path, ec);
        files.push_back(fmt::format("{} (owner {})", ec ? word : real.string(), owner_of(path)));
    }
    return fmt::format("{}", fmt::join(files, ", "));
#endif
}

#ifdef _WIN32

// MSVC finds the members after a constructor that always throws unreachable
// (C4702, an error with /WX): they are, and exist only to link.
#ifdef _MSC_VER
#pragma warning(push)
#pragma warning(disable : 4702)
#endif
ProgramProcess::ProgramProcess(std::string name, const std::vector<std::string>&, double time_limit)
    : name_(std::move(name)), time_limit_(time_limit) {
    throw unavailable_error("program methods run on POSIX systems only (docs/external-methods.md)");
}
ProgramProcess::~ProgramProcess() = default;
std::string ProgramProcess::ask(std::string_view, std::string_view) { return {}; }
OsCounters ProgramProcess::counters() const { return {}; }
std::optional<double> ProgramProcess::cpu_seconds() const { return std::nullopt; }
std::string ProgramProcess::finish() { return {}; }
void ProgramProcess::abandon() {}
#ifdef _MSC_VER
#pragma warning(pop)
#endif

#else

namespace {

/// Closes every descriptor from 3 up, in the child between fork and exec
/// (async-signal-safe).
void close_from_3() {
#if defined(__linux__) && defined(SYS_close_range)
    if (::syscall(SYS_close_range, 3U, ~0U, 0U) == 0) return;
#endif
    const long most = ::sysconf(_SC_OPEN_MAX);
    for (long fd = 3; fd < (most > 0 && most < 65536 ? most : 65536); ++fd) ::close(static_cast<int>(fd));
}

/// A pipe whose ends are close-on-exec.
void make_pipe(int fds[2]) {
    if (::pipe2(fds, O_CLOEXEC) != 0) throw_errno("pipe2", "program");
}

void close_fd(int& fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
}


/// The child of ProgramProcess after fork(): its own process group, killed
/// when iobench dies (Linux), default signal handling, `in`, `out` and
/// `err` as its standard streams, every other descriptor closed, then
/// exec of `args` (127 where that fails). Async-signal-safe calls only.
[[noreturn]] void exec_child(char** args, int in, int out, int err, [[maybe_unused]] pid_t parent) {
    ::setpgid(0, 0);
#ifdef __linux__
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);  // iobench died before the line above
#endif
    // iobench's handlers are gone after exec; what it ignores or blocks would stay.
    ::signal(SIGPIPE, SIG_DFL);
    ::signal(SIGXFSZ, SIG_DFL);
    sigset_t none;
    ::sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    if (::dup2(in, 0) < 0 || ::dup2(out, 1) < 0 || ::dup2(err, 2) < 0) ::_exit(127);
    close_from_3();
    ::execv(args[0], args);
    const char message[] = "iobench: cannot execute the program\n";
    [[maybe_unused]] const ssize_t n = ::write(2, message, sizeof message - 1);
    ::_exit(127);
}

/// A process's start, from its /proc/PID/stat open as `proc_stat` (field
/// 22: clock ticks since boot); 0 where it cannot be read.
unsigned long long start_ticks(int proc_stat) {
    unsigned long long ticks = 0;
    char text[512];
    const ssize_t n = ::pread(proc_stat, text, sizeof text - 1, 0);
    const char* close = n > 0 ? static_cast<const char*>(::memrchr(text, ')', static_cast<std::size_t>(n))) : nullptr;
    if (close) {
        text[n] = '\0';
        std::sscanf(close + 1, " %*c %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %llu",
                    &ticks);
    }
    return ticks;
}

double seconds_of(const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6; }

}  // namespace

ProgramProcess::ProgramProcess(std::string name, const std::vector<std::string>& argv, double time_limit)
    : name_(std::move(name)), time_limit_(time_limit) {
    if (argv.empty()) throw program_error(name_ + ": no command");
    std::vector<std::string> words = argv;
    std::vector<char*> args;
    for (std::string& w : words) args.push_back(w.data());
    args.push_back(nullptr);
    int in[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1};
    try {
        make_pipe(in);
        make_pipe(out);
        make_pipe(err);
    } catch (...) {
        for (int fd : {in[0], in[1], out[0], out[1]})
            if (fd >= 0) ::close(fd);
        throw;
    }
#ifdef __linux__
    // Its descendants that outlive their parents become iobench's, so that
    // reap_orphans can end them (a grandchild in a session of its own too).
    static const bool subreaper = ::prctl(PR_SET_CHILD_SUBREAPER, 1) == 0;
    (void)subreaper;
#endif
    const auto start = clock_type::now();
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid < 0) {
        for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]}) ::close(fd);
        throw_errno("fork", argv[0]);
    }
    if (pid == 0) exec_child(args.data(), in[0], out[1], err[1], parent);
    ::setpgid(pid, pid);  // also here: no race with a kill of the group before the child ran
    pid_ = pid;
    ::close(in[0]);
    ::close(out[1]);
    ::close(err[1]);
    to_child_ = in[1];
    from_child_ = out[0];
    errors_ = err[0];
    ::fcntl(errors_, F_SETFL, ::fcntl(errors_, F_GETFL) | O_NONBLOCK);
    proc_io_ = ::open(fmt::format("/proc/{}/io", pid).c_str(), O_RDONLY | O_CLOEXEC);
    proc_stat_ = ::open(fmt::format("/proc/{}/stat", pid).c_str(), O_RDONLY | O_CLOEXEC);
    if (clockid_t clock{}; ::clock_getcpuclockid(pid, &clock) == 0) cpu_clock_ = static_cast<int>(clock);
    // Its start: what it leaves started later.
    if (proc_stat_ >= 0) started_ticks_ = start_ticks(proc_stat_);
    try {
        const std::optional<std::string> first = read_line("its start");
        if (!first)
            throw program_error(with_last_words(fmt::format("{} {} before saying \"ready\"", name_, ended(reap(time_limit_)))));
        if (*first != "ready")
            throw program_error(fmt::format("{} began with \"{}\" instead of \"ready\" (docs/external-methods.md)", name_,
                                            printable(*first)));
    } catch (...) {
        // It failed: killed now, not waited for (it may be writing on).
        kill_group();
        finish();
        close_fd(proc_io_);
        close_fd(proc_stat_);
        throw;
    }
    start_seconds_ = seconds_since(start);
}

ProgramProcess::~ProgramProcess() {
    finish();
    close_fd(proc_io_);
    close_fd(proc_stat_);
}

void ProgramProcess::kill_group() {
    if (pid_ > 0) ::kill(-pid_, SIGKILL);
}

void ProgramProcess::drain_stderr() {
    if (errors_ < 0) return;
    char buf[4096];
    for (;;) {
        const ssize_t n = ::read(errors_, buf, sizeof buf);
        if (n > 0) {
            stderr_tail_.append(buf, static_cast<std::size_t>(n));
            if (stderr_tail_.size() > 8192) stderr_tail_.erase(0, stderr_tail_.size() - 4096);
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n == 0) close_fd(errors_);  // its end is closed
        return;
    }
}

std::string ProgramProcess::last_words() const {
    std::string_view tail = stderr_tail_;
    while (!tail.empty() && (tail.back() == '\n' || tail.back() == '\r')) tail.remove_suffix(1);
    const std::size_t nl = tail.rfind('\n');
    if (nl != std::string_view::npos) tail.remove_prefix(nl + 1);
    return std::string(tail);
}

std::optional<std::string> ProgramProcess::read_line(std::string_view what) {
    const auto deadline = clock_type::now() + std::chrono::duration<double>(time_limit_);
    for (;;) {
        if (const std::size_t nl = pending_.find('\n'); nl != std::string::npos) {
            std::string line = pending_.substr(0, nl);
            pending_.erase(0, nl + 1);
            if (!line.empty() && line.back() == '\r') line.pop_back();
            return line;
        }
        if (from_child_ < 0) return std::nullopt;
        const double left = std::chrono::duration<double>(deadline - clock_type::now()).count();
        if (left <= 0) {
            kill_group();
            reap(time_limit_);
            throw program_error(with_last_words(fmt::format(
                "{} gave no answer to {} within the time limit of {} s (--time-limit): its process group was killed",
                name_, what, time_limit_)));
        }
        pollfd fds[2] = {{from_child_, POLLIN, 0}, {errors_, POLLIN, 0}};
        const int wait_ms = static_cast<int>(std::min(left * 1000 + 1, 1000.0 * 60));
        const int n = ::poll(fds, errors_ >= 0 ? 2 : 1, wait_ms);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw_errno("poll", name_);
        }
        if (errors_ >= 0 && fds[1].revents != 0) drain_stderr();
        if (fds[0].revents != 0) {
            char buf[4096];
            const ssize_t got = ::read(from_child_, buf, sizeof buf);
            if (got > 0) {
                pending_.append(buf, static_cast<std::size_t>(got));
                if (pending_.size() > (1u << 20)) {
                    kill_group();  // it may write on for as long as it likes: not waited for
                    reap(time_limit_);
                    throw program_error(fmt::format(
                        "{} wrote more than 1 MiB without a line break (docs/external-methods.md): its process group "
                        "was killed",
                        name_));
                }
            } else if (got == 0) {
                close_fd(from_child_);
            } else if (errno != EINTR && errno != EAGAIN) {
                throw_errno("read", name_);
            }
        }
    }
}

std::string ProgramProcess::ask(std::string_view request, std::string_view what) {
    if (status_) throw program_error(fmt::format("{} has ended already", name_));
    std::string line(request);
    line += '\n';
    // A program that ended makes the write fail with EPIPE, not raise SIGPIPE
    // (iobench's handler would end the run): blocked here, and a pending one discarded.
    sigset_t pipe_set, old;
    ::sigemptyset(&pipe_set);
    ::sigaddset(&pipe_set, SIGPIPE);
    ::pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
    bool broken = false;
    for (std::size_t at = 0; at < line.size();) {
        const ssize_t n = ::write(to_child_, line.data() + at, line.size() - at);
        if (n > 0) {
            at += static_cast<std::size_t>(n);
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else {
            broken = true;
            break;
        }
    }
    if (broken) {
        const timespec zero{0, 0};
        while (::sigtimedwait(&pipe_set, nullptr, &zero) == SIGPIPE) {
        }
    }
    ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
    std::optional<std::string> answer;
    if (!broken) answer = read_line(what);
    if (!answer) {
        throw program_error(
            with_last_words(fmt::format("{} {} instead of answering {}", name_, ended(reap(time_limit_)), what)));
    }
    return *answer;
}

int ProgramProcess::reap(double seconds) {
    if (status_) return *status_;
    const auto deadline = clock_type::now() + std::chrono::duration<double>(seconds);
    int status = 0;
    rusage ru{};
    bool killed = false;
    for (;;) {
        const pid_t got = ::wait4(pid_, &status, WNOHANG, &ru);
        if (got == pid_) break;
        if (got < 0 && errno != EINTR) {
            status = -1;
            break;
        }
        drain_stderr();
        if (!killed && clock_type::now() >= deadline) {
            kill_group();
            killed = true;
        }
        ::usleep(2000);
    }
    drain_stderr();
    // Whatever else its group started (a shell's children) ends with it.
    ::kill(-pid_, SIGKILL);
    status_ = status;
    reap_orphans();
    if (status != -1)
        usage_ = ChildUsage{seconds_of(ru.ru_utime), seconds_of(ru.ru_stime), static_cast<double>(ru.ru_maxrss) * 1024.0};
    return status;
}

void ProgramProcess::reap_orphans() {
#ifdef __linux__
    const pid_t self = ::getpid();
    // Killing one may hand its own children to iobench: a few rounds.
    for (int round = 0; round < 8; ++round) {
        bool found = false;
        DIR* proc = ::opendir("/proc");
        if (proc == nullptr) return;
        while (const dirent* e = ::readdir(proc)) {
            if (e->d_name[0] < '1' || e->d_name[0] > '9') continue;
            char text[512];
            const int fd = ::open(fmt::format("/proc/{}/stat", e->d_name).c_str(), O_RDONLY | O_CLOEXEC);
            if (fd < 0) continue;
            const ssize_t n = ::read(fd, text, sizeof text - 1);
            ::close(fd);
            if (n <= 0) continue;
            text[n] = '\0';
            // "pid (comm) state ppid pgrp ...": after the last ')'.
            const char* close = std::strrchr(text, ')');
            char state = 0;
            long ppid = 0, pgrp = 0;
            unsigned long long started = 0;
            if (!close ||
                std::sscanf(close + 1, " %c %ld %ld %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %llu",
                            &state, &ppid, &pgrp, &started) != 4 ||
                ppid != self)
                continue;
            const pid_t orphan = static_cast<pid_t>(std::atol(e->d_name));
            if (orphan == pid_) continue;  // the program itself (reaped by wait4)
            // iobench's own children started before the program are not its.
            if (started < started_ticks_) continue;
            const char* open = std::strchr(text, '(');
            const std::string comm = open && close > open ? std::string(open + 1, close) : std::string("?");
            if (pgrp != pid_) {
                // Left the program's group (setsid, setpgid): still running, or a zombie.
                if (state != 'Z')
                    escaped_ += fmt::format("{}{} ({})", escaped_.empty() ? "" : ", ", orphan, printable(comm));
            }
            ::kill(orphan, SIGKILL);
            // Reaped, but not waited for past the time limit (a process in
            // uninterruptible sleep dies when its I/O ends).
            const auto deadline = clock_type::now() + std::chrono::duration<double>(time_limit_);
            int ignored = 0;
            while (::waitpid(orphan, &ignored, WNOHANG) == 0 && clock_type::now() < deadline) ::usleep(2000);
            found = true;
        }
        ::closedir(proc);
        if (!found) return;
    }
#endif
}

std::string ProgramProcess::ended(int status) const {
    if (status == -1) return "ended (its status could not be read)";
    if (WIFEXITED(status)) return fmt::format("exited with status {}", WEXITSTATUS(status));
    if (WIFSIGNALED(status)) return fmt::format("was killed by signal {} ({})", WTERMSIG(status), strsignal(WTERMSIG(status)));
    return "ended";
}

std::string ProgramProcess::with_last_words(std::string message) const {
    const std::string words = last_words();
    if (!words.empty()) message += fmt::format("; its last words: \"{}\"", printable(words));
    return message;
}

void ProgramProcess::abandon() {
    if (pid_ < 0 || status_) return;
    kill_group();
    reap(time_limit_);
}

std::string ProgramProcess::finish() {
    if (pid_ < 0) return {};
    close_fd(to_child_);
    const bool known = status_.has_value();
    const int status = reap(time_limit_);
    close_fd(from_child_);
    close_fd(errors_);
    if (!escaped_.empty())
        return fmt::format("{} left processes running outside its process group (setsid or setpgid): {}; killed",
                           name_, escaped_);
    if (known) return {};  // reported already, by whatever found it ended
    if (status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0) return {};
    return with_last_words(fmt::format("{} {} at the end of its requests", name_, ended(status)));
}

std::optional<double> ProgramProcess::cpu_seconds() const {
    timespec t{};
    if (!cpu_clock_ || status_ || ::clock_gettime(static_cast<clockid_t>(*cpu_clock_), &t) != 0) return std::nullopt;
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

OsCounters ProgramProcess::counters() const {
    OsCounters s;
    char text[1024];
    if (proc_io_ >= 0) {
        const ssize_t n = ::pread(proc_io_, text, sizeof text - 1, 0);
        if (n > 0) {
            text[n] = '\0';
            add_proc_io_counters(text, s);
        }
    }
    if (proc_stat_ >= 0) {
        const ssize_t n = ::pread(proc_stat_, text, sizeof text - 1, 0);
        const char* close = n > 0 ? static_cast<const char*>(::memrchr(text, ')', static_cast<std::size_t>(n))) : nullptr;
        if (close != nullptr) {
            text[n] = '\0';
            // After "pid (comm)": state is field 3; minflt 10, majflt 12, utime 14, stime 15.
            double field[16] = {};
            int index = 3;
            const char* p = close + 2;
            while (*p != '\0' && index <= 15) {
                if (*p == ' ') {
                    ++index;
                    ++p;
                    continue;
                }
                std::uint64_t v = 0;
                for (; *p >= '0' && *p <= '9'; ++p) v = v * 10 + static_cast<std::uint64_t>(*p - '0');
                while (*p != ' ' && *p != '\0') ++p;
                field[index] = static_cast<double>(v);
            }
            if (index > 15) {
                static const double tick = [] {
                    const long hz = ::sysconf(_SC_CLK_TCK);
                    return hz > 0 ? 1.0 / static_cast<double>(hz) : 0.01;
                }();
                s.set(OsCounter::page_faults, field[10] + field[12]);
                s.set(OsCounter::user_time, field[14] * tick);
                s.set(OsCounter::system_time, field[15] * tick);
            }
        }
    }
    // Its threads' own waiting for a CPU (not this process's).
    if (!status_)
        if (const auto waited = run_queue_seconds_of_process(pid_)) s.set(OsCounter::run_queue_time, *waited);
    return s;
}

#endif

}  // namespace iobench
