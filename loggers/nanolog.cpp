// PlatformLab NanoLog (https://github.com/PlatformLab/NanoLog, the commit
// loggers/CMakeLists.txt pins), its C++17 mode: a binary logger. The caller
// copies a record's arguments, not its text, into a staging buffer of its own
// thread (1 MiB; when full, the caller waits: NanoLog never drops), NanoLog's
// compression thread packs them into the log file (O_DSYNC, as NanoLog opens
// it), and the text exists only when NanoLog's decoder (its LogDecompressor,
// Log::Decoder) reads the file back. So the rows time what a NanoLog user's
// threads pay (the calls; the close: NanoLog::sync(), every record in the
// file), and after each run, outside its time, Calls::decode turns the file
// into text with NanoLog's decoder, drops the context NanoLog puts before each
// message ("<date> <time>.<ns> <file>:<line> NOTICE[<thread>]: ", which no
// setting removes), and iobench verifies every line byte for byte.
// NanoLog formats with printf's language at compile time: ints_out, hello and
// log only (a "{}" record has no printf format; the logger benchmark's double
// would not print as {fmt}'s shortest text). One log file per process: one
// sink at a time. x86-64 only (NanoLog reads rdtsc).
#include <array>  // (NanoLogCpp17.h uses std::array without it: GCC 12 needs it first)

#include "NanoLogCpp17.h"

#include <cerrno>
#include <cinttypes>
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
void park_backend();
std::int64_t decode_to(const char* log, std::FILE* out);
}  // namespace iobench_nanolog

namespace iobench {
namespace {

using namespace NanoLog::LogLevels;

/// The path of the sink open now ("": none; NanoLog has one log file).
std::string open_path;

CallSink open_log(const Sink& sink) {
    if (!open_path.empty())
        throw io_error("NanoLog::setLogFile", sink.path,
                       std::make_error_code(std::errc::device_or_resource_busy));
    try {
        // (A new file: NanoLog appends to what it opens. Its compression
        // thread starts again for it, at the opening thread's priority.)
        NanoLog::setLogFile(sink.path.c_str());
    } catch (const std::exception& e) {
        throw io_error(std::string("NanoLog::setLogFile: ") + e.what(), sink.path,
                       std::make_error_code(std::errc::io_error));
    }
    open_path = sink.path;
    return &open_path;
}

/// Waits until every record of every thread is in the file (NanoLog::sync()),
/// then parks the compression thread until the next row.
void close_log(CallSink) {
    NanoLog::sync();
    iobench_nanolog::park_backend();
    open_path.clear();
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

/// Closes a FILE* of the decoder's work.
struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

/// `path` opened by fopen with a buffer of 1 MiB (the decoder prints a record
/// in several fprintf calls).
File open_file(const std::string& path, const char* mode) {
    File f(std::fopen(path.c_str(), mode));
    if (!f) throw_errno("fopen", path);
    std::setvbuf(f.get(), nullptr, _IOFBF, std::size_t{1} << 20);
    return f;
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

/// The row's binary log made text: NanoLog's decoder (Log::Decoder, records
/// in time order, each thread's in its order) prints it to <path>.decoded;
/// each record's message and '\n' then replace the binary log at `path`.
void decode_text(const Sink& sink, const std::string& decoded, const std::string& text) {
    {
        File out = open_file(decoded, "w");
        if (iobench_nanolog::decode_to(sink.path.c_str(), out.get()) < 0)
            throw io_error("NanoLog's Log::Decoder (not a NanoLog log?)", sink.path,
                           std::make_error_code(std::errc::invalid_argument));
        if (std::ferror(out.get()) || std::fclose(out.release()) != 0) throw_errno("fprintf", decoded);
    }
    {
        File in = open_file(decoded, "r"), out = open_file(text, "w");
        char* buffer = nullptr;
        std::size_t capacity = 0;
        ssize_t n = 0;
        while ((n = getline(&buffer, &capacity, in.get())) >= 0) {
            std::string_view line(buffer, static_cast<std::size_t>(n));
            if (line.ends_with('\n')) line.remove_suffix(1);
            if (line.ends_with('\r')) line.remove_suffix(1);  // (the decoder ends lines with "\r\n")
            bool note = false;
            const std::string_view message = message_of(line, note);
            if (note) continue;
            std::fwrite(message.data(), 1, message.size(), out.get());
            std::fputc('\n', out.get());
        }
        std::free(buffer);
        if (std::ferror(in.get())) throw_errno("getline", decoded);
        if (std::ferror(out.get()) || std::fclose(out.release()) != 0) throw_errno("fwrite", text);
    }
    if (std::rename(text.c_str(), sink.path.c_str()) != 0) throw_errno("rename", text);
}

/// While it lives, TZ is ":/etc/localtime" where it was not set: the same
/// zone (glibc reads /etc/localtime when TZ is unset), but read once. NanoLog's
/// decoder calls localtime() for each record's date, and with TZ unset glibc
/// checks /etc/localtime again on every call (measured: one newfstatat per
/// record, 1M per run of `hello` at --scale 0.01). The dates are dropped.
class LocalTimeReadOnce {
public:
    LocalTimeReadOnce() : set_(std::getenv("TZ") == nullptr && setenv("TZ", ":/etc/localtime", 0) == 0) {}
    ~LocalTimeReadOnce() {
        if (set_) unsetenv("TZ");
    }
    LocalTimeReadOnce(const LocalTimeReadOnce&) = delete;
    LocalTimeReadOnce& operator=(const LocalTimeReadOnce&) = delete;

private:
    bool set_;
};

/// decode_text, its work files removed whatever happens.
void decode_log(const Sink& sink) {
    const std::string decoded = sink.path + ".decoded", text = sink.path + ".text";
    const LocalTimeReadOnce zone;
    try {
        decode_text(sink, decoded, text);
    } catch (...) {
        std::remove(decoded.c_str());
        std::remove(text.c_str());
        throw;
    }
    std::remove(decoded.c_str());
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
