// Quill (https://github.com/odygrd/quill, v12.1.0, pinned by loggers/CMakeLists.txt),
// an asynchronous logger: the caller copies its arguments into a queue of its
// own thread, Quill's backend thread formats them (its bundled {fmt}) and
// writes them. Configured to write the message and '\n' only (the pattern
// "%(message)"), so every line is verified byte for byte. One queue type per
// plugin, chosen by IOBENCH_QUILL_QUEUE (Quill supports one FrontendOptions
// per program; each plugin, built with hidden visibility, has its own Quill
// and its own backend thread):
//   0  quill_unbounded         UnboundedBlocking (Quill's default): the queue grows, 128 KiB at first
//   1  quill_bounded_blocking  BoundedBlocking, 128 KiB: a full queue blocks the caller
//   2  quill_bounded_dropping  BoundedDropping, 128 KiB: a full queue drops the record
//                              (Calls::drops: counted as records_dropped)
// The close waits for the backend (flush_log, then the logger removed and its
// file closed) and, with the last sink, stops the backend thread: the row's
// time includes that. The backend runs while a sink is open, as fmtlog's
// polling thread and spdlog's thread pool do: an idle Quill backend wakes
// every 100 us (BackendOptions::sleep_duration), which would be CPU time in
// other rows' counters, and a backend thread left running in a DLL is joined
// during the process's exit under the loader lock (it hangs under wine). The
// system calls and CPU time are the process's (process_counters): the backend
// thread writes.
#include <quill/Backend.h>
#include <quill/Frontend.h>
#include <quill/LogMacros.h>
#include <quill/Logger.h>
#include <quill/sinks/FileSink.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>

#include <iobench/error.hpp>
#include <iobench/method.hpp>
#include "loggers/field_args.hpp"

namespace iobench {
namespace {

struct Options : quill::FrontendOptions {
#if IOBENCH_QUILL_QUEUE == 0
    static constexpr quill::QueueType queue_type = quill::QueueType::UnboundedBlocking;
#elif IOBENCH_QUILL_QUEUE == 1
    static constexpr quill::QueueType queue_type = quill::QueueType::BoundedBlocking;
#else
    static constexpr quill::QueueType queue_type = quill::QueueType::BoundedDropping;
#endif
};
using Frontend = quill::FrontendImpl<Options>;
using Logger = quill::LoggerImpl<Options>;

/// The first error Quill's backend reported (not its notes, "Quill INFO:
/// Dropped ..." and blocking counts), reported by the next close.
std::mutex error_mutex;
std::string backend_error;  // guarded by error_mutex

/// Starts the backend (its defaults, but errors kept for the close).
void start_backend() {
    quill::BackendOptions options;
    // Each plugin's Quill has its own backend thread, on purpose (one queue
    // type per plugin): its check for a second backend in the process (a lock
    // file in /tmp) is off.
    options.check_backend_singleton_instance = false;
    options.error_notifier = [](const std::string& message) {
        if (message.find("Quill INFO:") != std::string::npos) return;
        const std::lock_guard<std::mutex> lock(error_mutex);
        if (backend_error.empty()) backend_error = message;
    };
    quill::Backend::start(options);
    // (A start that starts nothing would leave the first flush waiting
    // forever: what MinGW-w64's build did, loggers/CMakeLists.txt.)
    if (!quill::Backend::is_running()) throw std::runtime_error("quill: Backend::start() started no backend thread");
}

/// The sinks open; the backend runs while one is (guarded by backend_mutex:
/// Quill's start and stop may not run at once).
std::mutex backend_mutex;
unsigned open_sinks = 0;

/// Starts the backend for the first open sink; throws when it does not start.
void sink_opened() {
    const std::lock_guard<std::mutex> lock(backend_mutex);
    if (open_sinks == 0) start_backend();
    ++open_sinks;
}

/// Stops the backend (its thread joined) after the last sink.
void sink_closed() {
    const std::lock_guard<std::mutex> lock(backend_mutex);
    if (--open_sinks == 0) quill::Backend::stop();
}

/// A logger on a file sink of its own.
struct QuillLog {
    Logger* logger = nullptr;
    std::string path;
};

CallSink open_log(const Sink& sink) {
    sink_opened();
    try {
        static std::atomic<unsigned> opened{0};
        const std::string name = "iobench" + std::to_string(opened++);
        quill::FileSinkConfig config;
        config.set_open_mode('w');
        auto file = Frontend::create_or_get_sink<quill::FileSink>(sink.path, config);
        auto log = std::make_unique<QuillLog>();
        log->path = sink.path;
        log->logger =
            Frontend::create_or_get_logger(name, std::move(file), quill::PatternFormatterOptions{"%(message)"});
        return log.release();
    } catch (...) {
        sink_closed();
        throw;
    }
}

/// Waits until the backend wrote every record of the logger, then removes
/// it (its file is closed), the backend stopped after the last sink; throws
/// an error the backend reported.
void close_log(CallSink sink) {
    std::unique_ptr<QuillLog> log(static_cast<QuillLog*>(sink));
    try {
        log->logger->flush_log(0);
        Frontend::remove_logger_blocking(log->logger, 0);
    } catch (...) {
        sink_closed();
        throw;
    }
    // Stopped before its errors are read: what it reports while it stops
    // is this row's (its error notifier takes error_mutex: not held here).
    sink_closed();
    const std::lock_guard<std::mutex> lock(error_mutex);
    if (!backend_error.empty())
        throw std::runtime_error("quill(" + log->path + "): " + std::exchange(backend_error, std::string()));
}

Logger* logger_of(CallSink sink) { return static_cast<QuillLog*>(sink)->logger; }

void log_line(CallSink sink, std::string_view line) {
    LOG_INFO(logger_of(sink), "{}", line.substr(0, line.size() - 1));
}

void log_int(CallSink sink, std::uint64_t value) { LOG_INFO(logger_of(sink), "{}", value); }

/// The record's fields copied into the queue, formatted by the backend.
void log_record(CallSink sink, const LogRecord& r) {
    LOG_INFO(logger_of(sink), "{}.{:06} {} [{}] request {} done in {} us: {}", r.time_us / 1000000,
             r.time_us % 1000000, level_name(r.level), r.logger, r.request, r.duration_us, r.text);
}

/// A record of typed fields, copied into the queue by their types and
/// formatted by the backend: the logger benchmark's two messages through
/// LOG_INFO's literal format, as that benchmark calls Quill; any other record
/// through LOG_DYNAMIC with its format at run time (which Quill keeps by
/// pointer: a copy kept for the process, loggers::interned_format, so that no
/// later row's format can take the address of an earlier one's).
void log_fields(CallSink sink, const FieldsRecord& r) {
    switch (r.message) {
    case AnchorMessage::ints_double:
        LOG_INFO(logger_of(sink), "Logging int: {}, int: {}, double: {}", r.fields[0].integer, r.fields[1].integer,
                 r.fields[2].real);
        return;
    case AnchorMessage::ints_string:
        LOG_INFO(logger_of(sink), "Logging int: {}, int: {}, string: {}", r.fields[0].integer, r.fields[1].integer,
                 r.fields[2].text);
        return;
    case AnchorMessage::none: break;
    }
    loggers::with_field_args(r, [&](const auto&... args) {
        LOG_DYNAMIC(logger_of(sink), quill::LogLevel::Info, loggers::interned_format(r.format), args...);
    });
}

constexpr Calls calls{.open = open_log,
                      .close = close_log,
                      .put_int = log_int,
                      .put_line = log_line,
                      .put_record = log_record,
                      .put_fields = log_fields,
                      .shared = true,
                      .drops = IOBENCH_QUILL_QUEUE == 2};

// The version the build pinned (loggers/CMakeLists.txt), checked against the headers'.
static_assert(quill::Version == IOBENCH_QUILL_VERSION_NUMBER, "Quill's headers are not the version the build pinned");
#define IOBENCH_QUILL_VERSION "Quill " IOBENCH_QUILL_VERSION_TEXT

#if IOBENCH_QUILL_QUEUE == 0
const MethodRegistrar registrar{{.family = "quill_unbounded"}, {
    {.name = "quill_unbounded",
     .description = IOBENCH_QUILL_VERSION ": FileSink, pattern \"%(message)\", UnboundedBlocking queue (Quill's "
                    "default, 128 KiB at first); close waits for the backend and stops it",
     .process_counters = true,
     .calls = &calls},
}};
#elif IOBENCH_QUILL_QUEUE == 1
const MethodRegistrar registrar{{.family = "quill_bounded_blocking"}, {
    {.name = "quill_bounded_blocking",
     .description = IOBENCH_QUILL_VERSION ": FileSink, pattern \"%(message)\", BoundedBlocking queue of 128 KiB: a "
                    "full queue blocks the caller; close waits for the backend and stops it",
     .process_counters = true,
     .calls = &calls},
}};
#else
const MethodRegistrar registrar{{.family = "quill_bounded_dropping"}, {
    {.name = "quill_bounded_dropping",
     .description = IOBENCH_QUILL_VERSION ": FileSink, pattern \"%(message)\", BoundedDropping queue of 128 KiB: a "
                    "full queue drops the record (records_dropped); close waits for the backend and stops it",
     .process_counters = true,
     .calls = &calls},
}};
#endif

}  // namespace
}  // namespace iobench
