// fmt: the {fmt} library (https://fmt.dev): fmt::print to a FILE*,
// fmt::format_to into a local buffer + obuf, fmt::format_int + obuf and
// + std::ofstream, fmt::format + std::ofstream, and fmt::output_file, fmt's
// own buffered file (one buffer, flushed with one write). Doubles come out in
// fmt's shortest round-trip form (Dragonbox). The rows of fast_io's tables
// ("fmt makes things slower") are rerun with these.
#include <fmt/args.h>
#include <fmt/format.h>
#include <fmt/os.h>
#ifdef _WIN32
#include <fcntl.h>  // _O_BINARY
#endif

#include <fstream>
#include <iterator>
#include <memory>
#include <string>

#include <iobench/console_format.hpp>
#include <iobench/error.hpp>
#include <iobench/method.hpp>
#include "methods/obuf_file.hpp"
#include "methods/stdio_stream.hpp"

namespace iobench {
namespace {

/// The fmt format of `line`: prefix, "{}", suffix (which hold no braces).
std::string line_format(const NumberedLine& line) {
    return std::string(line.prefix) + "{}" + std::string(line.suffix);
}

// --- fmt::print to a FILE* ---------------------------------------------------

void fmt_print_ints(const Sink& sink, std::uint64_t count) {
    StdioFile s;
    open_stream(s, sink.path, "wb", sink.buffer_size);
    for (std::uint64_t i = 0; i < count; ++i) fmt::print(s.f, "{}\n", i);
    s.close_output();
}

void fmt_print_lines(const Sink& sink, const NumberedLine& line, std::uint64_t count) {
    StdioFile s;
    open_stream(s, sink.path, "wb", sink.buffer_size);
    const std::string format = line_format(line);
    for (std::uint64_t i = 0; i < count; ++i) fmt::print(s.f, fmt::runtime(format), i);
    s.close_output();
}

void fmt_print_doubles(const Sink& sink, std::span<const double> values) {
    StdioFile s;
    open_stream(s, sink.path, "wb", sink.buffer_size);
    for (double v : values) fmt::print(s.f, "{}\n", v);
    s.close_output();
}

void fmt_print_console(const StdoutSink& out, std::string_view line, std::uint64_t count) {
    set_stdout_buffering(-1, out.buffer_size);
    for (std::uint64_t i = 0; i < count; ++i) fmt::print("{}", line);
    flush_stdout();
}

void fmt_print_print(const StdoutSink& out, ConsoleFormat format, std::uint64_t count) {
    set_stdout_buffering(-1, out.buffer_size);
    const ConsoleArgs& a = console_args;
    switch (format) {
    case ConsoleFormat::int_value:
        for (std::uint64_t i = 0; i < count; ++i) fmt::print("Value: {}\n", a.int_value);
        break;
    case ConsoleFormat::float_value:
        for (std::uint64_t i = 0; i < count; ++i) fmt::print("Value: {:.2f}\n", a.float_value);
        break;
    case ConsoleFormat::string_int:
        for (std::uint64_t i = 0; i < count; ++i) fmt::print("Message: {}, Count: {}\n", a.message, a.count);
        break;
    case ConsoleFormat::int_string:
        for (std::uint64_t i = 0; i < count; ++i) fmt::print("Value: {}, String: {}\n", a.value, a.string);
        break;
    case ConsoleFormat::datetime:
        for (std::uint64_t i = 0; i < count; ++i)
            fmt::print("[{:04}-{:02}-{:02} {:02}:{:02}:{:02}] {}: {} ({:.2f}%)\n", a.year, a.month, a.day, a.hour,
                       a.minute, a.second, a.status, a.status_value, a.percent);
        break;
    }
    flush_stdout();
}

// --- fmt::format_to / fmt::format_int + obuf ---------------------------------

void fmt_format_to_obuf_ints(const Sink& sink, std::uint64_t count) {
    obuf_file file(sink.path, sink.buffer_size);
    char text[64];
    for (std::uint64_t i = 0; i < count; ++i) {
        const char* end = fmt::format_to(text, "{}\n", i);
        file.out().write(text, static_cast<std::size_t>(end - text));
    }
    file.close();
}

void fmt_format_to_obuf_lines(const Sink& sink, const NumberedLine& line, std::uint64_t count) {
    obuf_file file(sink.path, sink.buffer_size);
    const std::string format = line_format(line);
    std::string text(line.prefix.size() + 20 + line.suffix.size(), '\0');
    for (std::uint64_t i = 0; i < count; ++i) {
        const char* end = fmt::format_to(text.data(), fmt::runtime(format), i);
        file.out().write(text.data(), static_cast<std::size_t>(end - text.data()));
    }
    file.close();
}

void fmt_format_to_obuf_doubles(const Sink& sink, std::span<const double> values) {
    obuf_file file(sink.path, sink.buffer_size);
    char text[64];
    for (double v : values) {
        const char* end = fmt::format_to(text, "{}\n", v);
        file.out().write(text, static_cast<std::size_t>(end - text));
    }
    file.close();
}

void fmt_format_int_obuf_ints(const Sink& sink, std::uint64_t count) {
    obuf_file file(sink.path, sink.buffer_size);
    auto& out = file.out();
    for (std::uint64_t i = 0; i < count; ++i) {
        const fmt::format_int text(i);
        out.write(text.data(), text.size());
        out.put('\n');
    }
    file.close();
}

void fmt_format_int_obuf_lines(const Sink& sink, const NumberedLine& line, std::uint64_t count) {
    obuf_file file(sink.path, sink.buffer_size);
    auto& out = file.out();
    for (std::uint64_t i = 0; i < count; ++i) {
        const fmt::format_int text(i);
        out.write(line.prefix);
        out.write(text.data(), text.size());
        out.write(line.suffix);
    }
    file.close();
}

// --- + std::ofstream ---------------------------------------------------------

/// A binary std::ofstream on `sink`, with `sink.buffer_size` bytes of buffer when non-zero.
struct OfstreamOutput {
    std::unique_ptr<char[]> storage;
    std::ofstream out;
    explicit OfstreamOutput(const Sink& sink) {
        if (sink.buffer_size != 0) {
            storage = std::make_unique<char[]>(sink.buffer_size);
            out.rdbuf()->pubsetbuf(storage.get(), static_cast<std::streamsize>(sink.buffer_size));
        }
        errno = 0;
        out.open(sink.path, std::ios::out | std::ios::trunc | std::ios::binary);
        if (!out) throw io_error("open", sink.path, std::error_code(errno ? errno : EIO, std::generic_category()));
    }
    void close(const std::string& path) {
        out.close();
        if (!out) throw io_error("ofstream::write", path, std::error_code(errno ? errno : EIO, std::generic_category()));
    }
};

void fmt_format_int_ofstream_ints(const Sink& sink, std::uint64_t count) {
    OfstreamOutput o(sink);
    for (std::uint64_t i = 0; i < count; ++i) {
        const fmt::format_int text(i);
        o.out.write(text.data(), static_cast<std::streamsize>(text.size()));
        o.out.put('\n');
    }
    o.close(sink.path);
}

void fmt_format_ofstream_ints(const Sink& sink, std::uint64_t count) {
    OfstreamOutput o(sink);
    for (std::uint64_t i = 0; i < count; ++i) o.out << fmt::format("{}\n", i);  // a std::string per item
    o.close(sink.path);
}

// --- fmt::output_file --------------------------------------------------------

/// fmt's default output_file buffer: max(BUFSIZ, 32 KiB) (fmt/os.h).
constexpr std::size_t output_file_default = BUFSIZ > 32768 ? BUFSIZ : 32768;

fmt::ostream open_output_file(const Sink& sink) {
#ifdef _WIN32
    // fmt's default flags plus _O_BINARY, so '\n' is not written as "\r\n".
    // output_file takes open flags or a buffer size, not both: both are set
    // in its parameter struct.
    fmt::detail::ostream_params params;
    params.oflag = fmt::file::WRONLY | fmt::file::CREATE | fmt::file::TRUNC | _O_BINARY;
    params.buffer_size = sink.buffer_size ? sink.buffer_size : output_file_default;
    return fmt::output_file(sink.path, params);
#else
    return fmt::output_file(sink.path, fmt::buffer_size = sink.buffer_size ? sink.buffer_size : output_file_default);
#endif
}

void fmt_output_file_ints(const Sink& sink, std::uint64_t count) {
    fmt::ostream out = open_output_file(sink);
    for (std::uint64_t i = 0; i < count; ++i) out.print("{}\n", i);
    out.close();
}

void fmt_output_file_repeat(const Sink& sink, std::string_view line, std::uint64_t count) {
    fmt::ostream out = open_output_file(sink);
    for (std::uint64_t i = 0; i < count; ++i) out.print("{}", line);
    out.close();
}

void fmt_output_file_lines(const Sink& sink, const NumberedLine& line, std::uint64_t count) {
    fmt::ostream out = open_output_file(sink);
    const std::string format = line_format(line);
    for (std::uint64_t i = 0; i < count; ++i) out.print(fmt::runtime(format), i);
    out.close();
}

void fmt_output_file_doubles(const Sink& sink, std::span<const double> values) {
    fmt::ostream out = open_output_file(sink);
    for (double v : values) out.print("{}\n", v);
    out.close();
}

// --- per call: fmt::print on a FILE*, which formats into memory and writes
// the message with one fwrite (under the stream's lock): whole among threads

void fmt_print_int_call(CallSink sink, std::uint64_t v) { fmt::print(call_stream(sink), "{}\n", v); }
void fmt_print_line_call(CallSink sink, std::string_view line) { fmt::print(call_stream(sink), "{}", line); }
void fmt_print_record_call(CallSink sink, const LogRecord& r) {
    fmt::print(call_stream(sink), "{}.{:06} {} [{}] request {} done in {} us: {}\n", r.time_us / 1000000,
               r.time_us % 1000000, level_name(r.level), r.logger, r.request, r.duration_us, r.text);
}

/// A record of typed fields: the anchor's two messages through fmt::print's
/// compile-time format, as a user writes them; any other record through
/// its format at run time (fmt::vformat_to with the fields as dynamic
/// arguments, kept per thread, so no call after the first few allocates,
/// then one fwrite).
void fmt_print_fields_call(CallSink sink, const FieldsRecord& r) {
    switch (r.message) {
    case AnchorMessage::ints_double:
        fmt::print(call_stream(sink), "Logging int: {}, int: {}, double: {}\n", r.fields[0].integer,
                   r.fields[1].integer, r.fields[2].real);
        return;
    case AnchorMessage::ints_string:
        fmt::print(call_stream(sink), "Logging int: {}, int: {}, string: {}\n", r.fields[0].integer,
                   r.fields[1].integer, r.fields[2].text);
        return;
    case AnchorMessage::none: break;
    }
    thread_local fmt::dynamic_format_arg_store<fmt::format_context> args;
    thread_local fmt::memory_buffer line;
    args.clear();
    for (std::size_t k = 0; k < r.count; ++k) {
        const Field& f = r.fields[k];
        switch (f.kind) {
        case Field::Kind::integer: args.push_back(f.integer); break;
        case Field::Kind::real: args.push_back(f.real); break;
        case Field::Kind::text: args.push_back(fmt::string_view(f.text.data(), f.text.size())); break;
        }
    }
    line.clear();
    fmt::vformat_to(std::back_inserter(line), fmt::string_view(r.format.data(), r.format.size()), args);
    line.push_back('\n');
    // One fwrite of the line, as fmt::print ends (whole among threads: the
    // stream's lock; a failed write is the close's ferror).
    std::fwrite(line.data(), 1, line.size(), call_stream(sink));
}

constexpr Calls fmt_print_calls{.open = open_call_stream,
                                 .close = close_call_stream,
                                 .put_int = fmt_print_int_call,
                                 .put_line = fmt_print_line_call,
                                 .put_record = fmt_print_record_call,
                                 .put_fields = fmt_print_fields_call,
                                 .shared = true};

const MethodRegistrar registrar{{.family = "fmt"}, {
    {.name = "fmt_print",
     .description = "fmt::print(f, \"{}\\n\", i) on a FILE* (console: fmt::print(...) to stdout)",
     .sizable_buffer = true,
     .put_ints = fmt_print_ints,
     .put_lines = fmt_print_lines,
     .put_doubles = fmt_print_doubles,
     .put_console = fmt_print_console,
     .print_console = fmt_print_print,
     .calls = &fmt_print_calls},
    {.name = "fmt_format_to_obuf",
     .description = "fmt::format_to(local buffer, \"{}\\n\", v), then obuf.write()",
     .default_buffer_size = obuf_buffer_size,
     .sizable_buffer = true,
     .put_ints = fmt_format_to_obuf_ints,
     .put_lines = fmt_format_to_obuf_lines,
     .put_doubles = fmt_format_to_obuf_doubles},
    {.name = "fmt_format_int_obuf",
     .description = "fmt::format_int(i), then obuf.write() and put('\\n')",
     .default_buffer_size = obuf_buffer_size,
     .sizable_buffer = true,
     .put_ints = fmt_format_int_obuf_ints,
     .put_lines = fmt_format_int_obuf_lines},
    {.name = "fmt_format_int_ofstream",
     .description = "fmt::format_int(i), then ofstream::write() and put('\\n')",
     .sizable_buffer = true,
     .put_ints = fmt_format_int_ofstream_ints},
    {.name = "fmt_format_ofstream",
     .description = "out << fmt::format(\"{}\\n\", i) on a std::ofstream: a std::string per item",
     .sizable_buffer = true,
     .put_ints = fmt_format_ofstream_ints},
    {.name = "fmt_output_file",
     .description = "fmt::output_file(path, fmt::buffer_size = buf): out.print(\"{}\\n\", i), fmt's own buffered file",
     .default_buffer_size = output_file_default,
     .sizable_buffer = true,
     .put_ints = fmt_output_file_ints,
     .put_repeat = fmt_output_file_repeat,
     .put_lines = fmt_output_file_lines,
     .put_doubles = fmt_output_file_doubles},
}};

}  // namespace
}  // namespace iobench
