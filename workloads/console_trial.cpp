// The harness of the console workloads (workloads/console.cpp): what both
// platforms share, and the POSIX child (Windows: console_trial_windows.cpp).
//
// Each measured call runs in a child process made for the run (POSIX: fork(2)):
//  - the child gives C's stdout the state a program started with that stdout
//    has (full buffering, 4 KiB), so no run inherits the buffer mode, a user
//    buffer (setvbuf) or std::ios::sync_with_stdio(false) from an earlier one;
//  - as in the seed (1,000 warm-up calls before 10,000 timed ones), it first
//    writes N/10 messages to /dev/null, untimed, then points fd 1 at the
//    target (dup2) and times the N messages;
//  - iobench's own stdout is never redirected, so its report cannot mix with
//    the measured output;
//  - the child times the call itself (steady_clock, the clock the runner uses)
//    and reports the time, the bytes passed to write calls (/proc/self/io on
//    Linux) and the operating system's counters of the call (the same ones the
//    runner takes around every other run: core/os/os_counters.hpp) through a
//    pipe; fork and exit stay outside the measurement.
#include "workloads/console_trial.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <stdexcept>
#include <system_error>

#include <iobench/error.hpp>
#include "core/engine/session.hpp"
#include "core/os/cleanup.hpp"
#include "core/os/os_counters.hpp"
#include "data/checksum.hpp"
#include "data/text.hpp"
#include "workloads/console_child.hpp"

#ifndef _WIN32
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#if __has_include(<stdio_ext.h>)
#include <stdio_ext.h>  // __fpurge (glibc, musl)
#define IOBENCH_HAVE_FPURGE 1
#endif
#include <unistd.h>

#include <atomic>
#include <pthread.h>

#include <thread>
#endif

namespace iobench {

/// Messages of the untimed warm-up before a run of `count` messages of
/// `bytes` in all through a buffer of `buffer_size` bytes (0: unknown): a
/// tenth of the run, as the seed ran 1,000 before its 10,000, and at least
/// enough to fill the buffer twice (64 KiB if smaller or unknown), so that
/// the measured call touches no page of its buffers for the first time in
/// the child. With a tenth only, console_short's 13 KB warm-up left 12 of the
/// 16 pages of obuf's buffer (64 KiB at the time) untouched: 16 page faults in its measured call
/// against 4 for console_medium, which is why it was the slower of the two.
std::uint64_t console_warmup_messages(std::uint64_t count, std::uint64_t bytes, std::size_t buffer_size) {
    const std::uint64_t per_message = std::max<std::uint64_t>(1, bytes / std::max<std::uint64_t>(1, count));
    const std::uint64_t fill = 2 * std::max<std::uint64_t>(buffer_size, 64 << 10) / per_message + 1;
    return std::max<std::uint64_t>({count / 10, fill, 1});
}

// --- shared by both harnesses (workloads/console_child.hpp) ---------------

namespace {

/// True in builds with AddressSanitizer (and UndefinedBehaviorSanitizer, which
/// iobench enables with it): their runtime writes to a pipe of its own to probe
/// memory (16 bytes per probe, counted in /proc/self/io), so there the byte
/// count of a run is only a lower bound of what reached stdout.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool sanitized_build = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool sanitized_build = true;
#else
constexpr bool sanitized_build = false;
#endif
#else
constexpr bool sanitized_build = false;
#endif

/// `line` with every '\n' written as "\r\n": what the C runtime writes in a
/// Windows text mode.
std::string with_crlf(std::string_view line) {
    std::string out;
    for (char c : line) {
        if (c == '\n') out += '\r';
        out += c;
    }
    return out;
}

/// `target`, unless it is the null device and what is written there cannot
/// be counted here: then unavailable_error, before anything is made.
StdoutTarget verifiable(StdoutTarget target) {
    if (target == StdoutTarget::devnull && !null_device_unverifiable().empty())
        throw unavailable_error(null_device_unverifiable());
    return target;
}

}  // namespace

void set_report_error(ChildReport& r, std::string_view text) noexcept {
    const std::size_t n = std::min(text.size(), sizeof r.error - 1);
    std::memcpy(r.error, text.data(), n);
    r.error[n] = '\0';
}

void call_console_method(const ConsoleMessage& msg, const StdoutSink& out, std::uint64_t count) {
    if (msg.put) msg.put(out, msg.line, count);
    else msg.print(out, msg.format, count);
}

void measure_console_call(const ConsoleMessage& msg, const StdoutSink& out, std::uint64_t count, ChildReport& r) {
    const std::optional<std::uint64_t> before = bytes_written_so_far();
    const OsCounters os_before = take_os_snapshot();
    const auto start = std::chrono::steady_clock::now();
    try {
        call_console_method(msg, out, count);
        r.ok = 1;
    } catch (const unavailable_error& e) {
        r.skipped = 1;
        set_report_error(r, e.what());
    } catch (const std::exception& e) {
        set_report_error(r, e.what());
    } catch (...) {
        set_report_error(r, "an exception that is not a std::exception");
    }
    const auto stop = std::chrono::steady_clock::now();
    const OsCounters os_after = take_os_snapshot();
    const std::optional<std::uint64_t> after = bytes_written_so_far();
    r.seconds = std::chrono::duration<double>(stop - start).count();
    r.counters = os_counters_between(os_before, os_after);
    if (before && after) {
        r.bytes_known = 1;
        r.bytes = *after - *before;
    }
}

ConsoleTrialBase::ConsoleTrialBase(Session& s, const Method& m, const Params& p, std::string_view workload,
                                   const ConsoleMessage& msg, std::uint64_t count)
    : msg_(msg),
      out_{p.buffer_size},
      count_(count),
      target_kind_(verifiable(s.stdout_target())),
      path_(s.output(fmt::format("{}-{}", workload, m.name))),
      session_(s),
      line_(msg.line),
      generate_(repeated_text(msg.line, count)),
      expected_(s.expected(fmt::format("console:{}:{}", msg.line, count), generate_)) {
    items = count;
    bytes = expected_.size;
    buffer_size = buffer_size_used(m, p);
    work_in_child = true;  // each call in a child (forked, or made with CreateProcessW)
}

void ConsoleTrialBase::finish() {
    close_all();
    std::error_code ec;
    std::filesystem::remove(path_, ec);
    forget_on_interrupt(path_);
}

std::string ConsoleTrialBase::pipe_digest(Digest& got) {
    join_reader();
    got = pipe_digest_;
    return pipe_error_;
}

void ConsoleTrialBase::throw_unless_ok() const {
    if (report_.skipped) throw unavailable_error(report_.error);
    if (!report_.ok) throw std::runtime_error(report_.error);
}

std::string ConsoleTrialBase::verify() {
    // The bytes the messages take as the call wrote them: with "\r\n" line
    // ends where the C runtime translated them (a Windows text mode).
    Generator generate = generate_;
    Digest expected = expected_;
    if (report_.line_ends == static_cast<int>(LineEnds::crlf)) {
        const std::string line = with_crlf(line_);
        generate = repeated_text(line, count_);
        expected = session_.expected(fmt::format("console:{}:{}", line, count_), generate);
    }
    bytes = expected.size;  // what a run wrote: the rates of the row are of these bytes
    // Where the process runs under a tool that writes on its own (the
    // sanitizers' memory probes, valgrind's scheduler pipe), the bytes
    // passed to write calls are only a lower bound of what reached stdout;
    // the same tools make the call counts inexact, which os_counters
    // finds out for itself (it then reports no call counts).
    const bool exact = !sanitized_build && report_.counters.has(OsCounter::write_calls);
    std::string bytes_problem;
    if (report_.bytes_known && (exact ? report_.bytes != expected.size : report_.bytes < expected.size))
        bytes_problem = fmt::format("the method passed {} bytes to write calls, expected {}{}", report_.bytes,
                                    exact ? "" : "at least ", expected.size);
    if (target_kind_ == StdoutTarget::devnull) {
        // The null device keeps nothing: the byte count is all there is to check.
        if (!report_.bytes_known) return "the child could not count the bytes written to the null device";
        return bytes_problem;
    }
    Digest got;
    if (target_kind_ == StdoutTarget::pipe) {
        if (std::string failed = pipe_digest(got); !failed.empty()) return failed;
    } else {
        try {
            got = digest_file(path_);
        } catch (const std::exception& e) {
            return fmt::format("cannot read the output back: {}", e.what());
        }
    }
    if (got == expected) return bytes_problem;
    std::string where;
    if (target_kind_ == StdoutTarget::file) {
        try {
            const std::int64_t at = first_difference(path_, generate);
            if (at >= 0) where = fmt::format("; first difference at byte {}", at);
        } catch (const std::exception&) {
        }
    }
    return fmt::format("output differs: {} bytes with checksum {:016x}, expected {} bytes with checksum {:016x}{}",
                       got.size, got.checksum, expected.size, expected.checksum, where);
}

#ifndef _WIN32
// --- POSIX: a fork(2)ed child -------------------------------------------

namespace {

/// "wchar" of /proc/self/io, read with plain system calls (no stdio in the child).
std::optional<std::uint64_t> read_wchar() noexcept {
    const int fd = ::open("/proc/self/io", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return std::nullopt;
    char text[512];
    const ssize_t n = ::read(fd, text, sizeof text - 1);
    ::close(fd);
    if (n <= 0) return std::nullopt;
    text[n] = '\0';
    const char* p = std::strstr(text, "wchar: ");
    if (!p) return std::nullopt;
    return std::strtoull(p + 7, nullptr, 10);
}

/// Writes all of `size` bytes to `fd`, ignoring errors (the child's last act).
void write_fully(int fd, const void* data, std::size_t size) {
    const char* p = static_cast<const char*>(data);
    while (size > 0) {
        const ssize_t n = ::write(fd, p, size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        p += n;
        size -= static_cast<std::size_t>(n);
    }
}

/// In the forked child: fd 1 to `target`, fresh stdout, a warm-up of
/// `warmup` messages (console_warmup_messages), the timed call, the report to `report_fd`. Never returns.
[[noreturn]] void child_main(int target, int report_fd, const ConsoleMessage& msg, const StdoutSink& out,
                             std::uint64_t count, std::uint64_t warmup) {
    ChildReport r;
    // os_counters checks its counters once per process with a write and a
    // read of its own: done here, before any byte is counted.
    (void)take_os_snapshot();
    if (::dup2(target, STDOUT_FILENO) < 0) {
        std::snprintf(r.error, sizeof r.error, "dup2(target, 1): %s", std::strerror(errno));
    } else {
        // The state a program whose stdout is this target starts with, as
        // glibc sets it up on first output: line buffering for a terminal,
        // full buffering otherwise, with a buffer of min(BUFSIZ, st_blksize)
        // bytes (4,096 for /dev/null, pipes, ext4 and tmpfs files). A buffer of
        // our own, because setvbuf cannot hand the choice back to the library
        // once stdout has had a buffer (in the parent).
        struct stat st {};
        std::size_t size = BUFSIZ;
        if (::fstat(STDOUT_FILENO, &st) == 0 && st.st_blksize > 0 && static_cast<std::size_t>(st.st_blksize) < size)
            size = static_cast<std::size_t>(st.st_blksize);
        static char* const buffer = new char[size];  // the child's for its whole life
        std::setvbuf(stdout, buffer, ::isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF, size);
        std::clearerr(stdout);
        // A warm-up to /dev/null, untimed (warmup_messages), as the seed runs
        // 1,000 before its 10,000: buffers allocated, pages touched,
        // one-time settings made (std::ios::sync_with_stdio(false)).
        const int null_fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
        if (null_fd >= 0 && ::dup2(null_fd, STDOUT_FILENO) >= 0) {
            try {
                call_console_method(msg, out, warmup);
            } catch (...) {
                // reported by the measured call, which fails the same way
            }
#ifdef IOBENCH_HAVE_FPURGE
            // What a method that does not flush left of the warm-up in
            // stdout's buffer must not reach the target with the measured
            // output (the measured call alone is verified).
            ::__fpurge(stdout);
#endif
            ::dup2(target, STDOUT_FILENO);
        }
        if (null_fd >= 0) ::close(null_fd);
        if (target != STDOUT_FILENO) ::close(target);
        std::clearerr(stdout);
        measure_console_call(msg, out, count, r);
    }
    // Whatever the method left in stdout's buffer is discarded (_exit does
    // not flush): a method that did not flush fails verification.
    write_fully(report_fd, &r, sizeof r);
    ::_exit(0);
}

class ConsoleTrial final : public ConsoleTrialBase {
public:
    ConsoleTrial(Session& s, const Method& m, const Params& p, std::string_view workload, const ConsoleMessage& msg,
                 std::uint64_t count)
        : ConsoleTrialBase(s, m, p, workload, msg, count) {}
    ~ConsoleTrial() override { close_all(); }

    void reset() override {
        close_all();
        report_ = {};
        if (target_kind_ == StdoutTarget::devnull) {
            target_ = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
            if (target_ < 0) throw_errno("open", "/dev/null");
        } else if (target_kind_ == StdoutTarget::file) {
            target_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
            if (target_ < 0) throw_errno("open", path_.string());
        } else {
            int fds[2];
            if (::pipe2(fds, O_CLOEXEC) != 0) throw_errno("pipe2", "stdout pipe");
            pipe_read_ = fds[0];
            target_ = fds[1];
            pipe_digest_ = {};
            pipe_error_.clear();
            // Everything the reader needs is allocated here, and run() forks only
            // once the reader is past its start: a fork while another thread holds
            // an allocator lock (the sanitizers' included) can leave the child
            // waiting for that lock forever.
            pipe_sum_ = std::make_unique<Checksum>();
            pipe_buf_.resize(1 << 16);
            reader_started_ = false;
            // pthread_create, not std::thread: std::thread puts its state on
            // the heap, and the forked child would inherit that block with no
            // thread to free it (a leak report in every child under valgrind).
            const int rc = ::pthread_create(&reader_, nullptr, &ConsoleTrial::drain_pipe_thread, this);
            if (rc != 0) throw io_error("pthread_create", "stdout pipe reader", std::error_code(rc, std::generic_category()));
            reader_running_ = true;
            while (!reader_started_.load()) std::this_thread::yield();
        }
    }

    void run() override {
        int report[2];
        if (::pipe2(report, O_CLOEXEC) != 0) throw_errno("pipe2", "child report");
        // Nothing iobench buffered may reach the target through the child.
        std::fflush(stdout);
        std::cout.flush();
        std::fflush(stderr);
        const pid_t pid = ::fork();
        if (pid < 0) {
            const int err = errno;
            ::close(report[0]);
            ::close(report[1]);
            throw io_error("fork", "console child", std::error_code(err, std::generic_category()));
        }
        if (pid == 0) {
            ::close(report[0]);
            if (pipe_read_ >= 0) ::close(pipe_read_);
            child_main(target_, report[1], msg_, out_, count_, console_warmup_messages(count_, bytes, buffer_size));
        }
        ::close(report[1]);
        ::close(target_);  // the child holds the target now; the pipe reader sees EOF when it exits
        target_ = -1;
        std::size_t got = 0;
        auto* dst = reinterpret_cast<char*>(&report_);
        while (got < sizeof report_) {
            const ssize_t n = ::read(report[0], dst + got, sizeof report_ - got);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            got += static_cast<std::size_t>(n);
        }
        ::close(report[0]);
        int status = 0;
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        if (got != sizeof report_) {
            report_ = {};
            if (WIFSIGNALED(status))
                throw std::runtime_error(fmt::format("the child process running the method died of signal {}",
                                                     WTERMSIG(status)));
            throw std::runtime_error(fmt::format("the child process running the method exited with status {} "
                                                 "without a report",
                                                 WIFEXITED(status) ? WEXITSTATUS(status) : -1));
        }
        throw_unless_ok();
    }

private:

    /// The reader thread: drains the pipe until every writer has closed it,
    /// checksumming what it reads.
    /// Allocates nothing and takes no lock (see reset()).
    void drain_pipe() {
        reader_started_ = true;
        int error = 0;
        for (;;) {
            const ssize_t n = ::read(pipe_read_, pipe_buf_.data(), pipe_buf_.size());
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) error = errno;
            if (n <= 0) break;
            pipe_sum_->update({pipe_buf_.data(), static_cast<std::size_t>(n)});
        }
        pipe_digest_ = {pipe_sum_->size(), pipe_sum_->digest()};
        if (error != 0) pipe_error_ = fmt::format("reading the stdout pipe failed: {}", std::strerror(error));
    }

    static void* drain_pipe_thread(void* self) {
        static_cast<ConsoleTrial*>(self)->drain_pipe();
        return nullptr;
    }

    void join_reader() override {
        if (!reader_running_) return;
        ::pthread_join(reader_, nullptr);
        reader_running_ = false;
    }

    void close_all() override {
        if (target_ >= 0) ::close(target_);
        target_ = -1;
        join_reader();  // returns: no writer is left once target_ is closed
        if (pipe_read_ >= 0) ::close(pipe_read_);
        pipe_read_ = -1;
    }

    int target_ = -1;
    int pipe_read_ = -1;
    pthread_t reader_{};
    bool reader_running_ = false;
    std::atomic<bool> reader_started_ = false;
    std::unique_ptr<Checksum> pipe_sum_;
    std::vector<char> pipe_buf_;
};

}  // namespace

std::optional<std::uint64_t> bytes_written_so_far() noexcept { return read_wchar(); }

const std::string& null_device_unverifiable() {
    static const std::string why =
        read_wchar() ? "" : "cannot verify output to /dev/null on this system (no /proc/self/io); use "
                            "--stdout-target file or pipe";
    return why;
}

std::unique_ptr<Trial> make_console_trial(Session& s, const Method& m, const Params& p, std::string_view workload,
                                          const ConsoleMessage& msg, std::uint64_t count) {
    return std::make_unique<ConsoleTrial>(s, m, p, workload, msg, count);
}

std::optional<int> console_child_main(int, char**) { return std::nullopt; }

#endif  // !_WIN32

}  // namespace iobench
