// glog (https://github.com/google/glog, the version the build found: Debian's
// libgoogle-glog-dev 0.6.0 here) as its users extend it: LOG(INFO) << ...,
// whose message glog builds in its per-thread stream, then hands to each
// LogSink added with google::AddLogSink. glog 0.6 starts every log file of
// its own with a header no flag removes ("Log file created at: ...", four
// lines; 0.7 has FLAGS_log_file_header) and a prefix per line: so the
// message goes to a LogSink of ours instead, which writes it and '\n' to a
// FILE* with one locked write (glog may call a sink from several threads at
// once), and every line is verified byte for byte. glog's own log files are
// off (SetLogDestination to ""), stderr gets nothing below FATAL.
//   glog   LOG(INFO) << fields, a LogSink writing to a FILE* (synchronous: the caller writes)
// glog sends each message to every sink added: one sink at a time (a run's
// shared one), as Boost.Log's core.
#include <glog/logging.h>

#include <cstdio>
#include <iomanip>
#include <memory>
#include <mutex>
#include <string>

#include <iobench/error.hpp>
#include <iobench/method.hpp>

namespace iobench {
namespace {

/// A LogSink writing each message and '\n' to its FILE*.
class FileSink final : public google::LogSink {
public:
    FileSink(std::FILE* f, std::string path) : f_(f), path_(std::move(path)) {}
    void send(google::LogSeverity, const char*, const char*, int, const google::LogMessageTime&, const char* message,
              std::size_t message_len) override {
        flockfile(f_);  // the message and its '\n' as one write among threads
        fwrite_unlocked(message, 1, message_len, f_);
        fputc_unlocked('\n', f_);
        funlockfile(f_);
    }
    std::FILE* file() const { return f_; }
    const std::string& path() const { return path_; }

private:
    std::FILE* f_;
    std::string path_;
};

/// glog set up once per process: initialised, its own log files and stderr off.
void start_glog() {
    static std::once_flag once;
    std::call_once(once, [] {
        google::InitGoogleLogging("iobench");
        for (google::LogSeverity s = google::GLOG_INFO; s < google::NUM_SEVERITIES; ++s)
            google::SetLogDestination(s, "");
        FLAGS_logtostderr = false;
        FLAGS_alsologtostderr = false;
        FLAGS_stderrthreshold = google::GLOG_FATAL;
    });
}

std::mutex open_mutex;
bool sink_open = false;  // guarded by open_mutex: glog sends every message to every sink

CallSink open_log(const Sink& sink) {
    start_glog();
    const std::lock_guard<std::mutex> lock(open_mutex);
    if (sink_open)
        throw io_error("glog: one sink at a time (glog sends every message to every LogSink)", sink.path,
                       std::make_error_code(std::errc::device_or_resource_busy));
    std::FILE* f = std::fopen(sink.path.c_str(), "wb");
    if (!f) throw_errno("fopen", sink.path);
    auto log = std::make_unique<FileSink>(f, sink.path);
    google::AddLogSink(log.get());
    sink_open = true;
    return log.release();
}

/// Removes the sink (glog holds its sinks' lock while it sends: after this
/// no call is in the sink), then closes the file.
void close_log(CallSink sink) {
    std::unique_ptr<FileSink> log(static_cast<FileSink*>(sink));
    google::RemoveLogSink(log.get());
    {
        const std::lock_guard<std::mutex> lock(open_mutex);
        sink_open = false;
    }
    const bool failed = std::ferror(log->file()) != 0;
    if (std::fclose(log->file()) != 0 || failed)
        throw io_error("fwrite", log->path(), std::make_error_code(std::errc::io_error));
}

void log_line(CallSink, std::string_view line) { LOG(INFO) << line.substr(0, line.size() - 1); }

void log_int(CallSink, std::uint64_t value) { LOG(INFO) << value; }

/// The record formatted into glog's stream (std::ostream inserters; the fill
/// set back, as glog keeps a thread's stream from one message to the next).
void log_record(CallSink, const LogRecord& r) {
    LOG(INFO) << r.time_us / 1000000 << '.' << std::setw(6) << std::setfill('0') << r.time_us % 1000000
              << std::setfill(' ') << ' ' << level_name(r.level) << " [" << r.logger << "] request " << r.request
              << " done in " << r.duration_us << " us: " << r.text;
}

constexpr Calls calls{.open = open_log,
                      .close = close_log,
                      .put_int = log_int,
                      .put_line = log_line,
                      .put_record = log_record,
                      .shared = true};

const MethodRegistrar registrar{{.family = "glog"}, {
    {.name = "glog",
     .description = "glog " IOBENCH_GLOG_VERSION_TEXT ": LOG(INFO) << ..., a LogSink writing each message and '\\n' "
                    "to a FILE* (glog's own log files off: 0.6 heads each with lines no flag removes)",
     .calls = &calls},
}};

}  // namespace
}  // namespace iobench
