// spdlog: the file sinks of the spdlog logging library (https://github.com/gabime/spdlog)
// measured as a user of a logger would measure them against fwrite and obuf:
// a logger on a basic_file_sink with the pattern "%v" (the message alone, then
// '\n'), so every line it writes is the workload's line, byte for byte.
//   spdlog_st  basic_file_sink_st: no lock (one thread)
//   spdlog_mt  basic_file_sink_mt: a std::mutex taken per message
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

const MethodRegistrar registrar{{.family = "spdlog"}, {
    {.name = "spdlog_st",
     .description = "spdlog::logger on a basic_file_sink_st, pattern \"%v\": logger.info(line), logger.info(\"{}\", i)",
     .put_ints = put_ints<spdlog::sinks::basic_file_sink_st>,
     .put_repeat = put_repeat<spdlog::sinks::basic_file_sink_st>},
    {.name = "spdlog_mt",
     .description = "the same on a basic_file_sink_mt: a std::mutex locked per message",
     .put_ints = put_ints<spdlog::sinks::basic_file_sink_mt>,
     .put_repeat = put_repeat<spdlog::sinks::basic_file_sink_mt>},
}};

}  // namespace
}  // namespace iobench
