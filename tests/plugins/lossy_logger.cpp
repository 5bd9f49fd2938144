// Loggers that lose records, on purpose (tests/plugins/CMakeLists.txt): the
// per-call verification must fail a logger that loses a record without being
// configured to drop (Calls::drops false), accept the missing lines of one
// that is, and still fail the latter when a line present is wrong or out of
// its thread's order.
//   zz_lossy_log            loses every 100th call's line, drops = false: FAILED
//   zz_dropping_log         the same, drops = true: verified, records_dropped = items / 100
//   zz_dropping_torn_log    drops = true, and the 50th line written has its last byte before the '\n' replaced: FAILED
//   zz_dropping_swapped_log drops = true, and the 50th and 51st lines are written swapped: FAILED
// Each is a FILE* under a mutex (a sink several threads may share).
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>

#include <iobench/error.hpp>
#include <iobench/method.hpp>

namespace iobench {
namespace {

enum class Loss { lose, torn, swapped };

/// A file, its lock and the count of calls made on it.
struct LossyLog {
    std::string path;
    std::FILE* file = nullptr;
    std::mutex mutex;
    std::uint64_t calls = 0;
    Loss loss = Loss::lose;
    std::string held;  ///< (swapped) the line held back, written after the next
};

template <Loss L>
CallSink open_log(const Sink& sink) {
    auto log = std::make_unique<LossyLog>();
    log->path = sink.path;
    log->loss = L;
    log->file = std::fopen(sink.path.c_str(), "wb");
    if (!log->file) throw_errno("fopen", sink.path);
    return log.release();
}

void close_log(CallSink sink) {
    std::unique_ptr<LossyLog> log(static_cast<LossyLog*>(sink));
    if (!log->held.empty()) std::fwrite(log->held.data(), 1, log->held.size(), log->file);
    if (std::fclose(log->file) != 0) throw_errno("fclose", log->path);
}

/// Writes `line` ('\n' last), or loses it, as the log's loss says.
void write_line(LossyLog& log, std::string line) {
    const std::lock_guard<std::mutex> lock(log.mutex);
    const std::uint64_t n = log.calls++;
    if (n % 100 == 99) return;  // lost
    if (log.loss == Loss::torn && n == 49) line[line.size() - 2] = '#';
    if (log.loss == Loss::swapped && n == 49) {
        log.held = std::move(line);
        return;
    }
    if (std::fwrite(line.data(), 1, line.size(), log.file) != line.size()) throw_errno("fwrite", log.path);
    if (!log.held.empty()) {
        std::fwrite(log.held.data(), 1, log.held.size(), log.file);
        log.held.clear();
    }
}

void log_line(CallSink sink, std::string_view line) { write_line(*static_cast<LossyLog*>(sink), std::string(line)); }

void log_int(CallSink sink, std::uint64_t value) {
    write_line(*static_cast<LossyLog*>(sink), std::to_string(value) + '\n');
}

void log_record(CallSink sink, const LogRecord& r) {
    char text[512];
    const int n = std::snprintf(text, sizeof text, log_record_printf_format,
                                static_cast<unsigned long long>(r.time_us / 1000000),
                                static_cast<unsigned long long>(r.time_us % 1000000), level_name(r.level).data(),
                                r.logger.data(), static_cast<unsigned long long>(r.request),
                                static_cast<unsigned long long>(r.duration_us), r.text.data());
    write_line(*static_cast<LossyLog*>(sink), std::string(text, static_cast<std::size_t>(n)));
}

constexpr Calls lossy_calls{.open = open_log<Loss::lose>, .close = close_log, .put_int = log_int,
                            .put_line = log_line, .put_record = log_record, .shared = true};
constexpr Calls dropping_calls{.open = open_log<Loss::lose>, .close = close_log, .put_int = log_int,
                               .put_line = log_line, .put_record = log_record, .shared = true, .drops = true};
constexpr Calls torn_calls{.open = open_log<Loss::torn>, .close = close_log, .put_int = log_int,
                           .put_line = log_line, .put_record = log_record, .shared = true, .drops = true};
constexpr Calls swapped_calls{.open = open_log<Loss::swapped>, .close = close_log, .put_int = log_int,
                              .put_line = log_line, .put_record = log_record, .shared = true, .drops = true};

const MethodRegistrar registrar{{.family = "zz_lossy"}, {
    {.name = "zz_lossy_log",
     .description = "loses every 100th record, not configured to drop (fails, on purpose)",
     .calls = &lossy_calls},
    {.name = "zz_dropping_log",
     .description = "loses every 100th record, configured to drop (Calls::drops): records_dropped",
     .calls = &dropping_calls},
    {.name = "zz_dropping_torn_log",
     .description = "configured to drop, and one line has a wrong byte (fails, on purpose)",
     .calls = &torn_calls},
    {.name = "zz_dropping_swapped_log",
     .description = "configured to drop, and two lines are swapped (fails, on purpose)",
     .calls = &swapped_calls},
}};

}  // namespace
}  // namespace iobench
