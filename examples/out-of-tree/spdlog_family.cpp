// spdlog: the file sinks of the spdlog logging library (https://github.com/gabime/spdlog)
// measured as a user of a logger would measure them against fwrite and obuf:
// a logger on a basic_file_sink with the pattern "%v" (the message alone, then
// '\n'), so every line it writes is the workload's line, byte for byte.
//   spdlog_st  basic_file_sink_st: no lock (one thread)
//   spdlog_mt  basic_file_sink_mt: a std::mutex taken per message
// Both have the per-call shape too (one logger call per message), the
// `_mt` one on a sink several threads may share.
// The sink writes through a FILE* (fwrite, the C library's default buffer);
// spdlog formats integers with {fmt}. This is an iobench method file like
// those in methods/ of iobench: it builds unchanged into an executable
// (iobench_add_executable) and into a plugin (iobench_add_plugin).
#include <spdlog/logger.h>
#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/basic_file_sink.h>

#include <memory>
#include <stdexcept>
#include <string>

#include <iobench/error.hpp>
#include <iobench/method.hpp>

namespace iobench {
namespace {

/// A logger writing to a new file at `path` through a sink of type `FileSink`,
/// each message followed by '\n' and nothing else. spdlog reports an error
/// of a call to its error handler (by default a line on stderr, and the run
/// goes on): here the handler throws, so a failed write fails the run.
template <class FileSink>
spdlog::logger open_logger(const std::string& path) {
    spdlog::logger logger("iobench", std::make_shared<FileSink>(path, /*truncate=*/true));
    logger.set_formatter(std::make_unique<spdlog::pattern_formatter>("%v", spdlog::pattern_time_type::local, "\n"));
    logger.set_error_handler([path](const std::string& what) { throw std::runtime_error("spdlog(" + path + "): " + what); });
    return logger;
}

/// Logs `line` (without its '\n', which the pattern adds) `count` times.
template <class FileSink>
void put_repeat(const Sink& sink, std::string_view line, std::uint64_t count) {
    spdlog::logger logger = open_logger<FileSink>(sink.path);
    const std::string_view message = line.substr(0, line.size() - 1);
    for (std::uint64_t i = 0; i < count; ++i) logger.info(message);
    logger.flush();
}

/// Logs the integers 0..count-1, each formatted by spdlog ("{}").
template <class FileSink>
void put_ints(const Sink& sink, std::uint64_t count) {
    spdlog::logger logger = open_logger<FileSink>(sink.path);
    for (std::uint64_t i = 0; i < count; ++i) logger.info("{}", i);
    logger.flush();
}

// --- per call (iobench/calls.hpp): the logger a program keeps, one call per
// message, as the `latency` and `threads` suites call it -----------------------

/// A logger on its sink, for per-call writing.
template <class FileSink>
CallSink open_calls(const Sink& sink) {
    return new spdlog::logger(open_logger<FileSink>(sink.path));
}

void close_calls(CallSink sink) {
    std::unique_ptr<spdlog::logger> logger(static_cast<spdlog::logger*>(sink));
    logger->flush();
}

void log_line(CallSink sink, std::string_view line) {
    static_cast<spdlog::logger*>(sink)->info(line.substr(0, line.size() - 1));
}

void log_int(CallSink sink, std::uint64_t value) { static_cast<spdlog::logger*>(sink)->info("{}", value); }

/// The record formatted by spdlog (its {fmt}) as the message; the pattern
/// "%v" adds nothing but the '\n'.
void log_record(CallSink sink, const LogRecord& r) {
    static_cast<spdlog::logger*>(sink)->info("{}.{:06} {} [{}] request {} done in {} us: {}", r.time_us / 1000000,
                                             r.time_us % 1000000, level_name(r.level), r.logger, r.request,
                                             r.duration_us, r.text);
}

constexpr Calls st_calls{.open = open_calls<spdlog::sinks::basic_file_sink_st>,
                          .close = close_calls,
                          .put_int = log_int,
                          .put_line = log_line,
                          .put_record = log_record};
constexpr Calls mt_calls{.open = open_calls<spdlog::sinks::basic_file_sink_mt>,
                          .close = close_calls,
                          .put_int = log_int,
                          .put_line = log_line,
                          .put_record = log_record,
                          .shared = true};

const MethodRegistrar registrar{{.family = "spdlog"}, {
    {.name = "spdlog_st",
     .description = "spdlog::logger on a basic_file_sink_st, pattern \"%v\": logger.info(line), logger.info(\"{}\", i)",
     .put_ints = put_ints<spdlog::sinks::basic_file_sink_st>,
     .put_repeat = put_repeat<spdlog::sinks::basic_file_sink_st>,
     .calls = &st_calls},
    {.name = "spdlog_mt",
     .description = "the same on a basic_file_sink_mt: a std::mutex locked per message",
     .put_ints = put_ints<spdlog::sinks::basic_file_sink_mt>,
     .put_repeat = put_repeat<spdlog::sinks::basic_file_sink_mt>,
     .calls = &mt_calls},
}};

}  // namespace
}  // namespace iobench
