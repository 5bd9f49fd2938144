// spdlog (https://github.com/gabime/spdlog, the version the build found:
// Debian's libspdlog-dev 1.10.0 here) as its users configure it, each logger
// on a basic_file_sink with the pattern "%v" (the message alone, then '\n'),
// so that every line it writes is the workload's line, byte for byte:
//   spdlog_st            spdlog::logger on a basic_file_sink_st: no lock (one thread)
//   spdlog_mt            the same on a basic_file_sink_mt: a std::mutex per message (a shared sink)
//   spdlog_async_block   spdlog::async_logger on its own thread pool (spdlog's default queue of 8,192
//                        messages, one backend thread), a full queue blocks the caller
//   spdlog_async_overrun the same, a full queue overwrites its oldest message (overrun_oldest):
//                        it drops records by design (Calls::drops), counted as records_dropped
// The per-call shape only (iobench/calls.hpp): one logger call per item, as a
// program makes them. An asynchronous logger's close waits for its backend:
// the pool is destroyed (its thread writes every message queued before it
// ends), then the file is flushed; the row's time includes that, and its
// system calls and CPU time are the process's (the backend thread writes).
// Built as the plugin iobench_logger_spdlog by the `loggers` target.
#include <spdlog/async.h>
#include <spdlog/async_logger.h>
#include <spdlog/logger.h>
#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/version.h>

#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

#include <iobench/error.hpp>
#include <iobench/method.hpp>
#include "loggers/field_args.hpp"

#define IOBENCH_SPDLOG_VERSION \
    "spdlog " IOBENCH_STRINGIFY(SPDLOG_VER_MAJOR) "." IOBENCH_STRINGIFY(SPDLOG_VER_MINOR) "." IOBENCH_STRINGIFY(SPDLOG_VER_PATCH)

namespace iobench {
namespace {

/// The pattern: the message, then "\n", nothing else.
void set_message_only(spdlog::logger& logger) {
    logger.set_formatter(std::make_unique<spdlog::pattern_formatter>("%v", spdlog::pattern_time_type::local, "\n"));
}

// --- synchronous: the caller formats and writes --------------------------------

/// A logger writing to a new file at `path` through a sink of type `FileSink`.
/// spdlog reports an error of a call to its error handler (by default a
/// line on stderr, and the run goes on): here the handler throws, so a
/// failed write fails the run.
template <class FileSink>
CallSink open_sync(const Sink& sink) {
    auto logger = std::make_unique<spdlog::logger>("iobench", std::make_shared<FileSink>(sink.path, /*truncate=*/true));
    set_message_only(*logger);
    logger->set_error_handler([path = sink.path](const std::string& what) {
        throw std::runtime_error("spdlog(" + path + "): " + what);
    });
    return logger.release();
}

void close_sync(CallSink sink) {
    std::unique_ptr<spdlog::logger> logger(static_cast<spdlog::logger*>(sink));
    logger->flush();
}

spdlog::logger& sync_logger(CallSink sink) { return *static_cast<spdlog::logger*>(sink); }

// --- asynchronous: the caller queues, spdlog's thread pool formats and writes ---

/// An async_logger with its own thread pool, and the first error its
/// backend met (reported by close: a backend cannot throw to the caller).
struct AsyncLog {
    std::shared_ptr<spdlog::details::thread_pool> pool;
    std::shared_ptr<spdlog::sinks::basic_file_sink_mt> file;
    std::shared_ptr<spdlog::async_logger> logger;
    std::string path;
    std::mutex error_mutex;
    std::string error;  ///< guarded by error_mutex
};

template <spdlog::async_overflow_policy Policy>
CallSink open_async(const Sink& sink) {
    auto log = std::make_unique<AsyncLog>();
    log->path = sink.path;
    log->pool = std::make_shared<spdlog::details::thread_pool>(spdlog::details::default_async_q_size, 1U);
    log->file = std::make_shared<spdlog::sinks::basic_file_sink_mt>(sink.path, /*truncate=*/true);
    log->logger = std::make_shared<spdlog::async_logger>("iobench", log->file, log->pool, Policy);
    set_message_only(*log->logger);
    AsyncLog* raw = log.get();
    log->logger->set_error_handler([raw](const std::string& what) {
        const std::lock_guard<std::mutex> lock(raw->error_mutex);
        if (raw->error.empty()) raw->error = what;
    });
    return log.release();
}

/// Waits for the backend to write every message queued (the pool's
/// destructor ends its thread after them), flushes the file, and throws the
/// first error the backend met.
void close_async(CallSink sink) {
    std::unique_ptr<AsyncLog> log(static_cast<AsyncLog*>(sink));
    log->logger->flush();  // queued: done by the backend before it ends
    log->pool.reset();     // joins the backend thread
    log->logger.reset();
    log->file->flush();
    if (!log->error.empty()) throw std::runtime_error("spdlog(" + log->path + "): " + log->error);
}

spdlog::async_logger& async_of(CallSink sink) { return *static_cast<AsyncLog*>(sink)->logger; }

// --- the calls: the same messages for both kinds ---------------------------------

template <class Logger, Logger& (*Of)(CallSink)>
void log_line(CallSink sink, std::string_view line) {
    Of(sink).info(line.substr(0, line.size() - 1));
}

template <class Logger, Logger& (*Of)(CallSink)>
void log_int(CallSink sink, std::uint64_t value) {
    Of(sink).info("{}", value);
}

/// The record formatted by spdlog (its {fmt}, in the backend for an
/// asynchronous logger) as the message; the pattern adds only the '\n'.
template <class Logger, Logger& (*Of)(CallSink)>
void log_record(CallSink sink, const LogRecord& r) {
    Of(sink).info("{}.{:06} {} [{}] request {} done in {} us: {}", r.time_us / 1000000, r.time_us % 1000000,
                  level_name(r.level), r.logger, r.request, r.duration_us, r.text);
}

/// A record of typed fields: the logger benchmark's two messages through a
/// literal format, as that benchmark calls spdlog; any other record through
/// its format at run time (fmt::runtime), its fields as typed arguments.
/// spdlog formats in the caller in both kinds of logger.
template <class Logger, Logger& (*Of)(CallSink)>
void log_fields(CallSink sink, const FieldsRecord& r) {
    switch (r.message) {
    case AnchorMessage::ints_double:
        Of(sink).info("Logging int: {}, int: {}, double: {}", r.fields[0].integer, r.fields[1].integer,
                      r.fields[2].real);
        return;
    case AnchorMessage::ints_string:
        Of(sink).info("Logging int: {}, int: {}, string: {}", r.fields[0].integer, r.fields[1].integer,
                      r.fields[2].text);
        return;
    case AnchorMessage::none: break;
    }
    const fmt::string_view format(r.format.data(), r.format.size());
    loggers::with_field_args(r, [&](const auto&... args) { Of(sink).info(fmt::runtime(format), args...); });
}

using S = spdlog::logger;
using A = spdlog::async_logger;

constexpr Calls st_calls{.open = open_sync<spdlog::sinks::basic_file_sink_st>,
                         .close = close_sync,
                         .put_int = log_int<S, sync_logger>,
                         .put_line = log_line<S, sync_logger>,
                         .put_record = log_record<S, sync_logger>,
                         .put_fields = log_fields<S, sync_logger>};
constexpr Calls mt_calls{.open = open_sync<spdlog::sinks::basic_file_sink_mt>,
                         .close = close_sync,
                         .put_int = log_int<S, sync_logger>,
                         .put_line = log_line<S, sync_logger>,
                         .put_record = log_record<S, sync_logger>,
                         .put_fields = log_fields<S, sync_logger>,
                         .shared = true};
constexpr Calls block_calls{.open = open_async<spdlog::async_overflow_policy::block>,
                            .close = close_async,
                            .put_int = log_int<A, async_of>,
                            .put_line = log_line<A, async_of>,
                            .put_record = log_record<A, async_of>,
                            .put_fields = log_fields<A, async_of>,
                            .shared = true};
constexpr Calls overrun_calls{.open = open_async<spdlog::async_overflow_policy::overrun_oldest>,
                              .close = close_async,
                              .put_int = log_int<A, async_of>,
                              .put_line = log_line<A, async_of>,
                              .put_record = log_record<A, async_of>,
                              .put_fields = log_fields<A, async_of>,
                              .shared = true,
                              .drops = true};

const MethodRegistrar registrar{{.family = "spdlog"}, {
    {.name = "spdlog_st",
     .description = IOBENCH_SPDLOG_VERSION ": spdlog::logger on a basic_file_sink_st, pattern \"%v\" (one thread)",
     .calls = &st_calls},
    {.name = "spdlog_mt",
     .description = IOBENCH_SPDLOG_VERSION ": spdlog::logger on a basic_file_sink_mt (a mutex per message), pattern \"%v\"",
     .calls = &mt_calls},
    {.name = "spdlog_async_block",
     .description = IOBENCH_SPDLOG_VERSION ": async_logger, its own thread pool (queue of 8192, 1 thread), "
                    "async_overflow_policy::block; close waits for the backend",
     .process_counters = true,
     .calls = &block_calls},
    {.name = "spdlog_async_overrun",
     .description = IOBENCH_SPDLOG_VERSION ": async_logger as spdlog_async_block with overrun_oldest: a full queue "
                    "drops its oldest message (records_dropped)",
     .process_counters = true,
     .calls = &overrun_calls},
}};

}  // namespace
}  // namespace iobench
