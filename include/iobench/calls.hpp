// The per-call shape of a method (docs/design.md rule 9): open a sink object,
// call it once per item (from one thread or from several), close it. It is
// the shape a logger, a server's stream or stdout has in real code, and the
// one iobench times call by call for latency percentiles and runs from
// several threads (`/threads:N` in a benchmark's name). A method's whole-run
// operations (iobench/method.hpp) stay what its throughput rows call.
// Included by iobench/method.hpp; a method file never includes it itself.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#ifndef IOBENCH_METHOD_HPP
#error "iobench/calls.hpp is included by iobench/method.hpp only"
#endif

namespace iobench {

/// Severity of a LogRecord.
enum class LogLevel : std::uint8_t { debug, info, warn, error };

/// The level's name as a record prints it: "DEBUG", "INFO", "WARN", "ERROR".
constexpr std::string_view level_name(LogLevel level) {
    switch (level) {
    case LogLevel::debug: return "DEBUG";
    case LogLevel::info: return "INFO";
    case LogLevel::warn: return "WARN";
    case LogLevel::error: return "ERROR";
    }
    return "?";
}

/// One structured record of the `log` workload, which a method formats
/// itself, as one line, exactly as printf would with
/// log_record_printf_format:
///
///     <seconds>.<microseconds, 6 digits> <LEVEL> [<logger>] request <request> done in <duration_us> us: <text>\n
///     1764300000.000013 INFO [net.http] request 1 done in 873 us: connection reused
///
/// (seconds = time_us / 1000000, microseconds = time_us % 1000000). The
/// strings hold no '\n' and no '%' and are NUL-terminated
/// (`text.data()[text.size()] == '\0'`), so they may be passed where a C
/// string is expected. Lines are 60 to 200 bytes long.
struct LogRecord {
    std::uint64_t time_us = 0;      ///< when, in microseconds since the Unix epoch
    LogLevel level = LogLevel::info;  ///< printed by level_name
    std::string_view logger;        ///< the logger's name ("net.http")
    std::uint64_t request = 0;      ///< first integer of the message
    std::uint64_t duration_us = 0;  ///< second integer of the message
    std::string_view text;          ///< the message's short string, 0 to 120 bytes
};

/// The record's line as a printf format, for the methods that print it with
/// printf-family calls; its arguments, in order: (unsigned long long)
/// (time_us / 1000000), (unsigned long long)(time_us % 1000000),
/// level_name(level).data(), logger.data(), (unsigned long long)request,
/// (unsigned long long)duration_us, text.data().
inline constexpr const char log_record_printf_format[] = "%llu.%06llu %s [%s] request %llu done in %llu us: %s\n";

/// One typed field of a FieldsRecord: an integer, a double or a text, as the
/// "{}" of the record's format prints it.
struct Field {
    /// What the field holds, and so which member is its value.
    enum class Kind : std::uint8_t {
        integer,  ///< `integer`, printed in decimal ("-42")
        real,     ///< `real`, printed as {fmt}'s "{}" prints a double: its shortest round-trip text
        text,     ///< `text`, printed as it is
    };
    Kind kind = Kind::integer;  ///< which of the three values below is the field's
    std::int64_t integer = 0;   ///< the value of a Kind::integer field
    double real = 0;            ///< the value of a Kind::real field
    /// The value of a Kind::text field: no '\n', NUL-terminated
    /// (`text.data()[text.size()] == '\0'`).
    std::string_view text;
};

/// Which message of the best-known logger benchmark (odygrd/logger_benchmarks,
/// the tables of Quill's README) a FieldsRecord is, if it is one: a logger may
/// then print it through its compile-time format path, as that benchmark does
/// (a literal format string in the logging macro). The line must still be the
/// record's `format` with its fields.
enum class AnchorMessage : std::uint8_t {
    none,         ///< any other record: the method formats `format` at run time
    ints_double,  ///< "Logging int: {}, int: {}, double: {}" (integer, integer, real)
    ints_string,  ///< "Logging int: {}, int: {}, string: {}" (integer, integer, text)
};

/// A record of typed fields that a method formats itself, in its own way (a
/// logger: in its backend, for an asynchronous one), as one line: `format`
/// with its i-th "{}" replaced by field i as Field::Kind says, then '\n'.
/// The format is {fmt}'s syntax restricted to plain "{}" (no index, no spec,
/// no other brace), so that `fmt::format(fmt::runtime(format), fields...)`,
/// a logger's `LOG_INFO(logger, format, fields...)` and a hand-written
/// formatter all print the same text; it holds no '\n'. The line is
/// checked byte for byte against iobench's own formatting of the record.
struct FieldsRecord {
    std::string_view format;         ///< "{}" placeholders, one per field, in order; NUL-terminated
    const Field* fields = nullptr;   ///< `count` fields
    std::size_t count = 0;           ///< how many fields (and "{}" in `format`)
    AnchorMessage message = AnchorMessage::none;  ///< one of the anchor's messages, or none
};

/// What a method's `open` returned: whatever the method keeps for one sink (a
/// FILE*, an obuf and its file, ...). iobench only passes it back.
using CallSink = void*;

/// Creates (or truncates) `sink.path` for per-call writing, with a buffer of
/// `sink.buffer_size` bytes (0: the method's default). Throws `io_error`.
using OpenCalls = CallSink (*)(const Sink& sink);
/// Writes what the sink still buffers, closes the file and frees the sink,
/// also when it throws (`io_error`: a write or the close failed). Called once
/// per open, after every call on the sink has returned.
using CloseCalls = void (*)(CallSink sink);
/// One call: writes `value` in decimal followed by '\n' (the `ints_out`
/// workload). Throws `io_error`.
using PutIntCall = void (*)(CallSink sink, std::uint64_t value);
/// One call: writes `line`, which carries its '\n' and is NUL-terminated (the
/// `hello` workload). Throws `io_error`.
using PutLineCall = void (*)(CallSink sink, std::string_view line);
/// One call: formats `record` as one line (LogRecord says how) and writes it
/// (the `log` workload). Throws `io_error`.
using PutRecordCall = void (*)(CallSink sink, const LogRecord& record);

/// One call: formats `record` as one line (FieldsRecord says how) and writes
/// it (the `log_ints_double` and `log_ints_string` workloads, and a
/// LinesWorkload of typed records). Throws `io_error`.
using PutFieldsCall = void (*)(CallSink sink, const FieldsRecord& record);

/// After a row's run, outside its time, before iobench reads the lines back:
/// turns what the method left at `sink.path` (a binary log) into its text,
/// one line per record, at the same path, as the method's users read its
/// output (a binary logger's own decoder: PlatformLab NanoLog's
/// LogDecompressor). Methods whose output is text leave it empty. Throws
/// `io_error` (a log that does not decode): the row then fails verification.
using DecodeCalls = void (*)(const Sink& sink);

/// A method's per-call shape: `open` and `close`, and one call per kind of
/// item it can write (declared `constexpr` in the method file, pointed to by
/// Method::calls: `.calls = &fprintf_calls`). A call writes its item whole: on a sink that several
/// threads share (`shared`), the bytes of one call never interleave with
/// another's. Each member is a function, `not_built` (the method has it, this
/// platform does not build it) or empty (the method lacks it).
struct Calls {
    Op<OpenCalls> open{};         ///< opens a sink
    Op<CloseCalls> close{};       ///< closes it
    Op<PutIntCall> put_int{};     ///< an integer per call (ints_out)
    Op<PutLineCall> put_line{};   ///< a prepared line per call (hello)
    Op<PutRecordCall> put_record{};  ///< a LogRecord per call, formatted by the method (log)
    Op<PutFieldsCall> put_fields{};  ///< a FieldsRecord per call, formatted by the method
    Op<DecodeCalls> decode{};  ///< the method's output made text, untimed, before it is verified
    /// True when several threads may call one sink at once and every call
    /// stays whole (a FILE*: its lock; write(2) of a whole line with
    /// O_APPEND; a mutex around an ofstream or an obuf); false when only one
    /// thread may (an obuf, an ofstream): its rows with several threads then
    /// give each thread a sink of its own (`sink:per_thread`) only.
    bool shared = false;
    /// True when the method is configured to drop records by design (an
    /// asynchronous logger whose full queue discards a record rather than
    /// block the caller: spdlog's overrun_oldest, Quill's bounded dropping
    /// queue). Its rows then accept missing lines: each line present must
    /// still be an item's, whole, once, and each thread's in its order, and
    /// the row reports how many it lost (`records_dropped`). False: a
    /// missing line fails the row, as a wrong one does.
    bool drops = false;
};

}  // namespace iobench
