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

#include <cstdint>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include <iobench/error.hpp>
#include <iobench/method.hpp>
#include "loggers/field_args.hpp"

namespace iobench {
namespace {

/// The file the one logger writes (for the error messages).
struct FmtlogSink {
    std::string path;
};

CallSink open_log(const Sink& sink) {
    auto log = std::make_unique<FmtlogSink>();
    log->path = sink.path;
    // Opened here in binary mode ("wb"): fmtlog's setLogFile(path) opens
    // with "w", which on Windows writes each '\n' as "\r\n". fmtlog owns
    // and closes it (manageFp), as it does a file it opens.
    std::FILE* file = std::fopen(sink.path.c_str(), "wb");
    if (!file) throw_errno("fopen", sink.path);
    fmtlog::setLogFile(file, /*manageFp=*/true);
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

/// A format fmtlog knows only at run time, as fmtlog keeps it: its text (for
/// the life of the process: fmtlog formats with the text it was first given)
/// and its logId.
struct RuntimeFormat {
    std::string_view text;
    std::uint32_t* id = nullptr;
};

/// The RuntimeFormat of `format` for arguments of the types Args: fmtlog
/// binds a format and its arguments' types to a call site (the logId its
/// macro keeps in a static, set by the site's first call), so a record's
/// format gets one logId per format text, found by the thread's last one
/// (its text compared) or else in a table under a mutex, whose entries stay
/// put (std::unordered_map moves no element) as long as the process.
template <class... Args>
RuntimeFormat runtime_format(std::string_view format) {
    thread_local RuntimeFormat last;
    if (last.id && last.text == format) return last;
    static std::mutex mutex;
    static std::unordered_map<std::string, std::uint32_t> ids;
    const std::lock_guard<std::mutex> lock(mutex);
    const auto entry = ids.try_emplace(std::string(format), 0U).first;
    last = {entry->first, &entry->second};
    return last;
}

/// A record of typed fields, queued by its fields' types and formatted by the
/// polling thread: the logger benchmark's two messages through logi's
/// literal format, as that benchmark calls fmtlog; any other record through
/// its format at run time (a logId per format: runtime_format).
void log_fields(CallSink, const FieldsRecord& r) {
    switch (r.message) {
    case AnchorMessage::ints_double:
        logi("Logging int: {}, int: {}, double: {}", r.fields[0].integer, r.fields[1].integer, r.fields[2].real);
        return;
    case AnchorMessage::ints_string:
        logi("Logging int: {}, int: {}, string: {}", r.fields[0].integer, r.fields[1].integer, r.fields[2].text);
        return;
    case AnchorMessage::none: break;
    }
    loggers::with_field_args(r, [&](const auto&... args) {
        const RuntimeFormat format = runtime_format<decltype(args)...>(r.format);
        fmtlogWrapper<>::impl.log(*format.id, fmtlogWrapper<>::impl.tscns.rdtsc(), __FILE__ ":records", fmtlog::INF,
                                  fmt::runtime(fmt::string_view(format.text.data(), format.text.size())), args...);
    });
}

constexpr Calls calls{.open = open_log,
                      .close = close_log,
                      .put_int = log_int,
                      .put_line = log_line,
                      .put_record = log_record,
                      .put_fields = log_fields,
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
