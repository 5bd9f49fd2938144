// PlatformLab NanoLog (https://github.com/PlatformLab/NanoLog, the commit
// loggers/CMakeLists.txt pins), its C++17 mode: a binary logger. The caller
// copies a record's arguments, not its text, into a staging buffer of its own
// thread (1 MiB; when full, the caller waits: NanoLog never drops), NanoLog's
// compression thread packs them into the log file (O_DSYNC, as NanoLog opens
// it), and the text exists only when NanoLog's decoder (its LogDecompressor,
// Log::Decoder) reads the file back. So the rows time what a NanoLog user's
// threads pay (the calls; the close: NanoLog::sync(), every record in the
// file), and after each run, outside its time, Calls::decode turns the file
// into text with NanoLog's decoder (in a child process), drops the context NanoLog puts before each
// message ("<date> <time>.<ns> <file>:<line> NOTICE[<thread>]: ", which no
// setting removes), and iobench verifies every line byte for byte.
// NanoLog formats with printf's language at compile time: ints_out, hello and
// log only (a "{}" record has no printf format; the logger benchmark's double
// would not print as {fmt}'s shortest text). One log file per process: one
// sink at a time. x86-64 only (NanoLog reads rdtsc).
#include <array>  // (NanoLogCpp17.h uses std::array without it: GCC 12 needs it first)

#include "Log.h"
#include "NanoLogCpp17.h"

#include <fcntl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cinttypes>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

#include <iobench/error.hpp>
#include <iobench/method.hpp>

namespace iobench_nanolog {  // loggers/nanolog_runtime.cpp
/// Parks NanoLog's compression thread (asleep, no CPU) until unpark_backend.
void park_backend();
/// Lets it run again.
void unpark_backend();
}  // namespace iobench_nanolog

namespace iobench {
namespace {

using namespace NanoLog::LogLevels;

/// True while a sink is open (NanoLog has one log file: one sink at a time;
/// a second open, from another thread of a sink:per_thread row, fails).
std::atomic<bool> sink_open{false};

CallSink open_log(const Sink& sink) {
    if (sink_open.exchange(true))
        throw io_error("NanoLog::setLogFile (NanoLog writes one log file at a time)", sink.path,
                       std::make_error_code(std::errc::device_or_resource_busy));
    iobench_nanolog::unpark_backend();
    try {
        // (A new file: NanoLog appends to what it opens. Its compression
        // thread starts again for it.)
        NanoLog::setLogFile(sink.path.c_str());
    } catch (const std::exception& e) {
        iobench_nanolog::park_backend();
        sink_open = false;
        throw io_error(std::string("NanoLog::setLogFile: ") + e.what(), sink.path,
                       std::make_error_code(std::errc::io_error));
    }
    return &sink_open;
}

/// Waits until every record of every thread is in the file (NanoLog::sync()),
/// then parks the compression thread until the next row.
void close_log(CallSink) {
    NanoLog::sync();
    iobench_nanolog::park_backend();
    sink_open = false;
}

void log_int(CallSink, std::uint64_t value) { NANO_LOG(NOTICE, "%" PRIu64, value); }

void log_line(CallSink, std::string_view line) {
    NANO_LOG(NOTICE, "%.*s", static_cast<int>(line.size() - 1), line.data());
}

void log_record(CallSink, const LogRecord& r) {
    NANO_LOG(NOTICE, "%" PRIu64 ".%06" PRIu64 " %s [%s] request %" PRIu64 " done in %" PRIu64 " us: %s",
             r.time_us / 1000000, r.time_us % 1000000, level_name(r.level).data(), r.logger.data(), r.request,
             r.duration_us, r.text.data());
}

/// The message of one line NanoLog's decoder printed: what follows the
/// context's "]: ". `note` is set for the decoder's own lines (empty ones and
/// "# " notes), which are left out; any other line is kept as it is (no
/// item's line: the row fails).
std::string_view message_of(std::string_view line, bool& note) {
    note = false;
    if (const std::size_t end = line.find("]: "); end != std::string_view::npos) return line.substr(end + 3);
    note = line.empty() || line.starts_with("# ");
    return line;
}

/// What the decoder prints, cut into lines on its way to `out`: each line's
/// message (message_of) and '\n', NanoLog's notes left out. Used as the
/// cookie of a FILE* (fopencookie) that the decoder prints to.
struct Stripper {
    std::FILE* out;
    std::string line;  ///< the line printed so far, without its '\n'

    void put_line() {
        std::string_view text = line;
        if (text.ends_with('\r')) text.remove_suffix(1);  // (the decoder ends lines with "\r\n")
        bool note = false;
        const std::string_view message = message_of(text, note);
        if (!note) {
            std::fwrite(message.data(), 1, message.size(), out);
            std::fputc('\n', out);
        }
        line.clear();
    }
};

ssize_t strip_write(void* cookie, const char* data, std::size_t size) {
    auto& s = *static_cast<Stripper*>(cookie);
    for (std::size_t start = 0; start < size;) {
        const void* found = std::memchr(data + start, '\n', size - start);
        const std::size_t end = found ? static_cast<std::size_t>(static_cast<const char*>(found) - data) : size;
        s.line.append(data + start, end - start);
        if (!found) break;
        s.put_line();
        start = end + 1;
    }
    return std::ferror(s.out) ? -1 : static_cast<ssize_t>(size);
}

int strip_close(void* cookie) {
    auto& s = *static_cast<Stripper*>(cookie);
    if (!s.line.empty()) s.put_line();  // (a last line without '\n': kept, and checked)
    return std::ferror(s.out) ? -1 : 0;
}

/// In the child process of decode_log: NanoLog's decoder (Log::Decoder,
/// records in time order, each thread's in its order) reads the log open at
/// `log_fd` and prints it through a Stripper to a new file at `path`. Ends
/// the process: 0 when done, 1 after writing why not to `report`.
[[noreturn]] void decode_in_child(int log_fd, const std::string& path, int report) {
    const auto fail = [&](const std::string& why) {
        const ssize_t written = write(report, why.data(), why.size());
        (void)written;
        _exit(1);
    };
    // (iobench's handlers, inherited, are the parent's: a signal ends this
    // process quietly, and the parent cleans up; one ignored stays ignored.)
    for (const int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) {
        struct sigaction now {};
        if (sigaction(sig, nullptr, &now) == 0 && now.sa_handler != SIG_IGN) std::signal(sig, SIG_DFL);
    }
    // NanoLog's decoder calls localtime() for each record's date, and with TZ
    // unset glibc checks /etc/localtime again on every call (measured: one
    // newfstatat per record, 1M per run of `hello` at --scale 0.01): here the
    // same zone, read once (glibc reads /etc/localtime when TZ is unset). In
    // this process only; the dates are dropped anyway.
    if (std::getenv("TZ") == nullptr) setenv("TZ", ":/etc/localtime", 1);
    std::FILE* out = std::fopen(path.c_str(), "w");
    if (!out) fail("fopen(" + path + "): " + std::strerror(errno));
    std::setvbuf(out, nullptr, _IOFBF, std::size_t{1} << 20);
    Stripper stripper{out, {}};
    std::FILE* text = fopencookie(&stripper, "w", cookie_io_functions_t{nullptr, strip_write, nullptr, strip_close});
    if (!text) fail(std::string("fopencookie: ") + std::strerror(errno));
    std::setvbuf(text, nullptr, _IOFBF, std::size_t{1} << 20);  // (the decoder prints a record in pieces)
    NanoLogInternal::Log::Decoder decoder;
    const std::string log = "/proc/self/fd/" + std::to_string(log_fd);
    if (!decoder.open(log.c_str())) fail("NanoLog's Log::Decoder cannot read the log (no NanoLog log?)");
    if (decoder.decompressTo(text) < 0) fail("NanoLog's Log::Decoder::decompressTo failed");
    errno = 0;
    if (std::fclose(text) != 0 || std::ferror(out) || std::fclose(out) != 0)
        fail("fwrite(" + path + "): " + std::strerror(errno != 0 ? errno : EIO));
    _exit(0);
}

/// The row's binary log made text, at the same path: the log kept open and
/// its path unlinked, a child process (fork) decodes it into a new file of
/// that path. In a process of its own, so that the decoder's leaks (its
/// constructor's 1 GiB metadata buffer and 1 MiB fragment, which its
/// destructor never frees), its exit(-1) on a corrupt log and the TZ it
/// needs stay out of iobench; no file but the sink's own is made.
void decode_log(const Sink& sink) {
    const int log_fd = open(sink.path.c_str(), O_RDONLY | O_CLOEXEC);
    if (log_fd < 0) throw_errno("open", sink.path);
    int report[2];
    if (unlink(sink.path.c_str()) != 0 || pipe2(report, O_CLOEXEC) != 0) {
        const int error = errno;
        close(log_fd);
        throw io_error("unlink, pipe2", sink.path, std::error_code(error, std::generic_category()));
    }
    const pid_t child = fork();
    if (child == 0) {
        close(report[0]);
        decode_in_child(log_fd, sink.path, report[1]);
    }
    const int fork_error = errno;
    close(report[1]);
    close(log_fd);
    std::string why;
    char buffer[512];
    for (ssize_t n = 0; child > 0 && ((n = read(report[0], buffer, sizeof buffer)) > 0 || (n < 0 && errno == EINTR));)
        if (n > 0) why.append(buffer, static_cast<std::size_t>(n));
    close(report[0]);
    if (child < 0) throw io_error("fork", sink.path, std::error_code(fork_error, std::generic_category()));
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return;
    if (why.empty())
        why = WIFEXITED(status) ? "NanoLog's decoder ended with status " + std::to_string(WEXITSTATUS(status))
                                : "NanoLog's decoder ended by signal " + std::to_string(WTERMSIG(status));
    throw io_error(why, sink.path, std::make_error_code(std::errc::io_error));
}

constexpr Calls calls{.open = open_log,
                      .close = close_log,
                      .put_int = log_int,
                      .put_line = log_line,
                      .put_record = log_record,
                      .decode = decode_log,
                      .shared = true};

#define IOBENCH_NANOLOG_TEXT "PlatformLab NanoLog " IOBENCH_NANOLOG_COMMIT " (C++17 NANO_LOG)"

const MethodRegistrar registrar{{.family = "nanolog"}, {
    {.name = "nanolog",
     .description = IOBENCH_NANOLOG_TEXT ": a binary log (arguments packed by its compression thread, O_DSYNC); "
                    "the close is NanoLog::sync(); each run's log read back, untimed, by NanoLog's decoder and "
                    "verified without the context it prints before each message",
     .process_counters = true,
     .calls = &calls},
}};

}  // namespace
}  // namespace iobench
