// fmtlog (https://github.com/MengRao/fmtlog, the commit loggers/CMakeLists.txt
// pins), an asynchronous logger: the caller copies its arguments into a queue
// of its own thread, a polling thread formats them ({fmt} 11.1.3, the
// version fmtlog pins, header-only and kept inside this plugin: iobench's own
// {fmt} is another version) and writes them. The header pattern is empty, so
// a line is the message and '\n', verified byte for byte. fmtlog is one
// logger per program (its state is static): one plugin per queue policy,
// chosen by FMTLOG_BLOCK as fmtlog chooses it:
//   FMTLOG_BLOCK=1  fmtlog_block  a full queue (1 MiB per thread) blocks the caller
//   FMTLOG_BLOCK=0  fmtlog_drop   a full queue discards the record (fmtlog's default;
//                                 Calls::drops: counted as records_dropped)
// The polling thread polls every 10 us; the close stops it, polls what is
// left and closes the file: the row's time includes that. One sink at a
// time (a run's shared one): fmtlog has one log file.
#include "fmtlog.h"

#include <memory>
#include <string>

#include <iobench/error.hpp>
#include <iobench/method.hpp>

namespace iobench {
namespace {

/// The file the one logger writes (for the error messages).
struct FmtlogSink {
    std::string path;
};

CallSink open_log(const Sink& sink) {
    auto log = std::make_unique<FmtlogSink>();
    log->path = sink.path;
    fmtlog::setLogFile(sink.path.c_str(), /*truncate=*/true);
    fmtlog::setHeaderPattern("");
    fmtlog::startPollingThread(10'000);
    return log.release();
}

/// Stops the polling thread, writes what the queues still hold, closes the file.
void close_log(CallSink sink) {
    std::unique_ptr<FmtlogSink> log(static_cast<FmtlogSink*>(sink));
    fmtlog::stopPollingThread();
    fmtlog::poll(/*forceFlush=*/true);
    fmtlog::closeLogFile();
}

void log_line(CallSink, std::string_view line) { logi("{}", line.substr(0, line.size() - 1)); }

void log_int(CallSink, std::uint64_t value) { logi("{}", value); }

/// The record's fields queued, formatted by the polling thread.
void log_record(CallSink, const LogRecord& r) {
    logi("{}.{:06} {} [{}] request {} done in {} us: {}", r.time_us / 1000000, r.time_us % 1000000,
         level_name(r.level), r.logger, r.request, r.duration_us, r.text);
}

constexpr Calls calls{.open = open_log,
                      .close = close_log,
                      .put_int = log_int,
                      .put_line = log_line,
                      .put_record = log_record,
                      .shared = true,
                      .drops = FMTLOG_BLOCK == 0};

#define IOBENCH_FMTLOG_VERSION "fmtlog " IOBENCH_FMTLOG_COMMIT " with {fmt} " IOBENCH_STRINGIFY(FMT_VERSION)

#if FMTLOG_BLOCK
const MethodRegistrar registrar{{.family = "fmtlog_block"}, {
    {.name = "fmtlog_block",
     .description = IOBENCH_FMTLOG_VERSION ": empty header, polling thread every 10 us, FMTLOG_BLOCK=1: a full "
                    "queue blocks the caller",
     .process_counters = true,
     .calls = &calls},
}};
#else
const MethodRegistrar registrar{{.family = "fmtlog_drop"}, {
    {.name = "fmtlog_drop",
     .description = IOBENCH_FMTLOG_VERSION ": empty header, polling thread every 10 us, FMTLOG_BLOCK=0 (fmtlog's "
                    "default): a full queue discards the record (records_dropped)",
     .process_counters = true,
     .calls = &calls},
}};
#endif

}  // namespace
}  // namespace iobench
