// Boost.Log (the Boost the build found: Debian's libboost-log-dev 1.74 here)
// as its users set it up: a logger source (logger_mt) whose records the
// logging core hands to a sink, a text_ostream_backend on a std::ofstream with
// the formatter `expr::smessage` (the message, then the '\n' the backend adds),
// so that every line is verified byte for byte. Two sink frontends:
//   boost_log_sync   synchronous_sink: the caller formats and writes, under the frontend's mutex
//   boost_log_async  asynchronous_sink (its unbounded queue and its own thread): the caller
//                    queues the record; the close stops the thread after it has written every
//                    record (the row's time includes that)
// The logging core is one per program: a sink is added by open and removed
// by close (one at a time: a run's shared sink).
#include <boost/log/core.hpp>
#include <boost/log/expressions.hpp>
#include <boost/log/sinks/async_frontend.hpp>
#include <boost/log/sinks/sync_frontend.hpp>
#include <boost/log/sinks/text_ostream_backend.hpp>
#include <boost/log/sources/logger.hpp>
#include <boost/log/sources/record_ostream.hpp>
#include <boost/version.hpp>

#include <fstream>
#include <iomanip>
#include <memory>
#include <string>

#include <iobench/error.hpp>
#include <iobench/method.hpp>

namespace iobench {
namespace {

namespace logging = boost::log;
using Backend = logging::sinks::text_ostream_backend;

/// A logger source, the file its sink writes and the sink of frontend `Frontend`.
template <class Frontend>
struct BoostLog {
    logging::sources::logger_mt logger;
    std::shared_ptr<std::ofstream> file;
    boost::shared_ptr<Frontend> sink;
    std::string path;
};

template <class Frontend>
CallSink open_log(const Sink& sink) {
    auto log = std::make_unique<BoostLog<Frontend>>();
    log->path = sink.path;
    log->file = std::make_shared<std::ofstream>(sink.path, std::ios::binary | std::ios::trunc);
    if (!*log->file) throw_errno("open", sink.path);
    auto backend = boost::make_shared<Backend>();
    backend->add_stream(boost::shared_ptr<std::ostream>(log->file.get(), [](std::ostream*) {}));
    log->sink = boost::make_shared<Frontend>(backend);
    log->sink->set_formatter(logging::expressions::stream << logging::expressions::smessage);
    logging::core::get()->add_sink(log->sink);
    return log.release();
}

/// Removes the sink from the core (an asynchronous one first stops its
/// thread, after it has written every record queued), then closes the file.
template <class Frontend>
void close_log(CallSink sink) {
    std::unique_ptr<BoostLog<Frontend>> log(static_cast<BoostLog<Frontend>*>(sink));
    logging::core::get()->remove_sink(log->sink);
    if constexpr (requires { log->sink->stop(); }) log->sink->stop();
    log->sink->flush();
    log->sink.reset();
    log->file->close();
    if (log->file->fail()) throw_errno("close", log->path);
}

template <class Frontend>
logging::sources::logger_mt& logger_of(CallSink sink) {
    return static_cast<BoostLog<Frontend>*>(sink)->logger;
}

template <class Frontend>
void log_line(CallSink sink, std::string_view line) {
    BOOST_LOG(logger_of<Frontend>(sink)) << line.substr(0, line.size() - 1);
}

template <class Frontend>
void log_int(CallSink sink, std::uint64_t value) {
    BOOST_LOG(logger_of<Frontend>(sink)) << value;
}

/// The record formatted into the record's stream (std::ostream inserters).
template <class Frontend>
void log_record(CallSink sink, const LogRecord& r) {
    BOOST_LOG(logger_of<Frontend>(sink)) << r.time_us / 1000000 << '.' << std::setw(6) << std::setfill('0')
                                         << r.time_us % 1000000 << ' ' << level_name(r.level) << " [" << r.logger
                                         << "] request " << r.request << " done in " << r.duration_us
                                         << " us: " << r.text;
}

using Sync = logging::sinks::synchronous_sink<Backend>;
using Async = logging::sinks::asynchronous_sink<Backend>;

template <class Frontend>
constexpr Calls calls_of_frontend{.open = open_log<Frontend>,
                                  .close = close_log<Frontend>,
                                  .put_int = log_int<Frontend>,
                                  .put_line = log_line<Frontend>,
                                  .put_record = log_record<Frontend>,
                                  .shared = true};

const MethodRegistrar registrar{{.family = "boost_log"}, {
    {.name = "boost_log_sync",
     .description = "Boost.Log (BOOST_VERSION " IOBENCH_STRINGIFY(BOOST_VERSION) "): logger_mt, synchronous_sink, "
                    "text_ostream_backend on an ofstream, formatter smessage",
     .calls = &calls_of_frontend<Sync>},
    {.name = "boost_log_async",
     .description = "Boost.Log (BOOST_VERSION " IOBENCH_STRINGIFY(BOOST_VERSION) "): logger_mt, asynchronous_sink "
                    "(unbounded queue, its own thread), text_ostream_backend; close waits for the thread",
     .process_counters = true,
     .calls = &calls_of_frontend<Async>},
}};

}  // namespace
}  // namespace iobench
