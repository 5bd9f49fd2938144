// iostream: the C++ standard library's streams: std::ofstream (with '\n', with
// std::endl, with the rdbuf()->sputc trick, fed by std::to_chars),
// std::ifstream (operator>>, read(), std::getline), and std::cout with and
// without sync_with_stdio(false). (ifstream_read's `buf` is its read() size.) The
// file buffer is the library's own unless a suite sets `buf`, which goes to
// rdbuf()->pubsetbuf() before open (the point where libstdc++, libc++ and
// MSVC's library all honour it). Streams are opened in binary mode, so that
// Windows writes '\n' and not "\r\n": every platform writes and reads the same
// bytes (on POSIX std::ios::binary changes nothing).
#include <charconv>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <locale>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

#include <iobench/console_format.hpp>

#include <iobench/byte_fold.hpp>
#include <iobench/error.hpp>
#include <iobench/method.hpp>
#include "methods/buffer_sizes.hpp"
#include "methods/call_lock.hpp"

namespace iobench {
namespace {

/// Throws `io_error` when the stream failed, naming `what` was attempted.
template <class Char>
void check(const std::basic_ios<Char>& stream, const char* what, const std::string& path) {
    if (stream.fail()) throw io_error(what, path, std::error_code(errno ? errno : EIO, std::generic_category()));
}

/// std::locale(""): the user's locale. Throws `unavailable_error` when the
/// locale the environment names is not installed.
std::locale user_locale() {
    try {
        return std::locale("");
    } catch (const std::runtime_error& e) {
        throw unavailable_error(std::string("std::locale(\"\"): the user's locale is not installed: ") + e.what());
    }
}

/// The stream's name in errors ("ofstream::operator<<").
template <class S>
constexpr const char* stream_name = std::is_same_v<S, std::ofstream>    ? "ofstream"
                                    : std::is_same_v<S, std::ifstream>  ? "ifstream"
                                    : std::is_same_v<S, std::wofstream> ? "wofstream"
                                                                        : "wifstream";

/// A file stream of type S (std::ofstream, std::wifstream, ...) opened on
/// `path` in binary mode, so that '\n' stays one byte everywhere: output
/// streams are created or truncated. Buffered with `buffer_size` characters
/// of its own storage when non-zero (pubsetbuf before open), imbued with
/// the user's locale first when `UserLocale` (before open, so that the
/// file's codecvt is the locale's too). Throws `io_error`, and
/// `unavailable_error` when the user's locale is not installed.
template <class S, bool UserLocale = false>
struct OpenStream {
    std::unique_ptr<typename S::char_type[]> storage;  // outlives the stream
    S stream;

    OpenStream(const std::string& path, std::size_t buffer_size) {
        if constexpr (UserLocale) stream.imbue(user_locale());
        if (buffer_size != 0) {
            storage = std::make_unique<typename S::char_type[]>(buffer_size);
            stream.rdbuf()->pubsetbuf(storage.get(), static_cast<std::streamsize>(buffer_size));
        }
        constexpr bool output = std::is_base_of_v<std::basic_ostream<typename S::char_type>, S>;
        errno = 0;
        stream.open(path, output ? std::ios::out | std::ios::trunc | std::ios::binary : std::ios::in | std::ios::binary);
        check(stream, "open", path);
    }
    explicit OpenStream(const Sink& sink) : OpenStream(sink.path, sink.buffer_size) {}
    explicit OpenStream(const Source& source) : OpenStream(source.path, source.buffer_size) {}

    /// Closes the file; a failed write or close becomes `io_error` naming `what`.
    void close(const char* what, const std::string& path) {
        stream.close();
        check(stream, what, path);
    }
};

/// An ofstream opened for output on `sink`.
using Output = OpenStream<std::ofstream>;

/// `out << i << '\n'` for 0 .. count-1 on a stream of type S (see OpenStream).
template <class S, bool UserLocale = false>
void stream_ints(const Sink& sink, std::uint64_t count) {
    OpenStream<S, UserLocale> o(sink);
    constexpr auto newline = static_cast<typename S::char_type>('\n');
    for (std::uint64_t i = 0; i < count; ++i) o.stream << i << newline;
    o.close((std::string(stream_name<S>) + "::operator<<").c_str(), sink.path);
}

/// `in >> v` until it fails on a stream of type S (see OpenStream), which
/// must be at end of file.
template <class S, class T, bool UserLocale = false>
void stream_values(const Source& source, std::vector<T>& values) {
    OpenStream<S, UserLocale> o(source);
    S& in = o.stream;
    T v = 0;
    while (in >> v) values.push_back(v);
    if (in.bad())
        throw io_error(std::string(stream_name<S>) + "::operator>>", source.path,
                       std::error_code(EIO, std::generic_category()));
    if (!in.eof())
        throw parse_error(std::string(stream_name<S>) + "(" + source.path + "): not " +
                          (std::is_integral_v<T> ? "an integer" : "a number") + " after " +
                          std::to_string(values.size()) + " values");
}

void ofstream_repeat(const Sink& sink, std::string_view line, std::uint64_t count) {
    Output o(sink);
    const auto size = static_cast<std::streamsize>(line.size());
    for (std::uint64_t i = 0; i < count; ++i) o.stream.write(line.data(), size);
    o.close("ofstream::write", sink.path);
}

/// Throws unless every streambuf call of a run succeeded.
void check_streambuf(bool ok, const std::string& path) {
    if (!ok) throw io_error("std::streambuf::sputn", path, std::error_code(EIO, std::generic_category()));
}

/// `line` without its final '\n' (the part a std::endl method writes before std::endl).
std::string_view body_of(std::string_view line) { return line.substr(0, line.size() - 1); }

void ofstream_lines(const Sink& sink, const NumberedLine& line, std::uint64_t count) {
    Output o(sink);
    for (std::uint64_t i = 0; i < count; ++i) o.stream << line.prefix << i << line.suffix;
    o.close("ofstream::operator<<", sink.path);
}

void ofstream_doubles(const Sink& sink, std::span<const double> values) {
    Output o(sink);
    o.stream << std::setprecision(17);  // %.17g: exact, not the shortest form
    for (double v : values) o.stream << v << '\n';
    o.close("ofstream::operator<<", sink.path);
}

void ofstream_endl_repeat(const Sink& sink, std::string_view line, std::uint64_t count) {
    Output o(sink);
    const std::string_view body = body_of(line);
    for (std::uint64_t i = 0; i < count; ++i) o.stream << body << std::endl;
    o.close("ofstream::operator<<", sink.path);
}

void ofstream_endl_lines(const Sink& sink, const NumberedLine& line, std::uint64_t count) {
    Output o(sink);
    const std::string_view suffix = body_of(line.suffix);
    for (std::uint64_t i = 0; i < count; ++i) o.stream << line.prefix << i << suffix << std::endl;
    o.close("ofstream::operator<<", sink.path);
}

void ofstream_sputc_ints(const Sink& sink, std::uint64_t count) {
    Output o(sink);
    std::streambuf* buf = o.stream.rdbuf();
    bool ok = true;
    for (std::uint64_t i = 0; i < count; ++i) {
        o.stream << i;
        ok &= buf->sputc('\n') != std::char_traits<char>::eof();
    }
    check_streambuf(ok, sink.path);
    o.close("ofstream::operator<<", sink.path);
}

void ofstream_sputc_repeat(const Sink& sink, std::string_view line, std::uint64_t count) {
    Output o(sink);
    std::streambuf* buf = o.stream.rdbuf();
    const std::string_view body = body_of(line);
    const auto size = static_cast<std::streamsize>(body.size());
    bool ok = true;
    for (std::uint64_t i = 0; i < count; ++i) {
        ok &= buf->sputn(body.data(), size) == size;
        ok &= buf->sputc('\n') != std::char_traits<char>::eof();
    }
    check_streambuf(ok, sink.path);
    o.close("ofstream::write", sink.path);
}

void ofstream_sputc_lines(const Sink& sink, const NumberedLine& line, std::uint64_t count) {
    Output o(sink);
    std::streambuf* buf = o.stream.rdbuf();
    const auto prefix = static_cast<std::streamsize>(line.prefix.size());
    const auto suffix = static_cast<std::streamsize>(line.suffix.size());
    bool ok = true;
    for (std::uint64_t i = 0; i < count; ++i) {
        ok &= buf->sputn(line.prefix.data(), prefix) == prefix;
        o.stream << i;
        ok &= buf->sputn(line.suffix.data(), suffix) == suffix;
    }
    check_streambuf(ok, sink.path);
    o.close("ofstream::operator<<", sink.path);
}

void to_chars_ofstream_ints(const Sink& sink, std::uint64_t count) {
    Output o(sink);
    char text[24];
    for (std::uint64_t i = 0; i < count; ++i) {
        char* end = std::to_chars(text, text + 20, i).ptr;
        *end++ = '\n';
        o.stream.write(text, end - text);
    }
    o.close("ofstream::write", sink.path);
}

void to_chars_ofstream_doubles(const Sink& sink, std::span<const double> values) {
    Output o(sink);
    char text[40];
    for (double v : values) {
        char* end = std::to_chars(text, text + 39, v).ptr;  // shortest round-trip form
        *end++ = '\n';
        o.stream.write(text, end - text);
    }
    o.close("ofstream::write", sink.path);
}

// --- reading whole files (file_read) -------------------------------------

/// Bytes per ifstream::read call when a suite sets no `buf`: as for read(2).
constexpr std::size_t read_default_request = default_buffer_size;

/// in.read() of `buf` bytes per call into a buffer of ours (the stream keeps
/// the library's own buffer, as `fread` does), gcount() bytes folded.
ReadResult ifstream_read_file(const Source& source) {
    OpenStream<std::ifstream> o(source.path, 0);
    std::ifstream& in = o.stream;
    const std::size_t request = source.buffer_size ? source.buffer_size : read_default_request;
    std::unique_ptr<char[]> buf(new char[request]);
    ByteFold fold;
    while (in) {
        in.read(buf.get(), static_cast<std::streamsize>(request));
        fold.update(buf.get(), static_cast<std::size_t>(in.gcount()));
    }
    if (in.bad()) throw io_error("ifstream::read", source.path, std::error_code(EIO, std::generic_category()));
    return fold.result();
}

/// std::getline(in, line) into one std::string (stream buffer: `buf` bytes
/// with pubsetbuf, or the library's), each line and its '\n' folded.
ReadResult getline_file(const Source& source) {
    OpenStream<std::ifstream> o(source);
    std::ifstream& in = o.stream;
    std::string line;
    ByteFold fold;
    while (std::getline(in, line)) {
        fold.update(line.data(), line.size());
        if (!in.eof()) fold.update("\n", 1);  // eof: the last line had no '\n'
    }
    if (in.bad()) throw io_error("std::getline", source.path, std::error_code(EIO, std::generic_category()));
    return fold.result();
}

/// std::getline, then std::from_chars for every white-space separated number of the line.
template <class T>
void getline_parse(const Source& source, std::vector<T>& values) {
    OpenStream<std::ifstream> o(source);
    std::ifstream& in = o.stream;
    std::string line;
    std::uint64_t number = 0;
    while (std::getline(in, line)) {
        ++number;
        const char* p = line.data();
        const char* const end = p + line.size();
        for (;;) {
            while (p != end && (*p == ' ' || static_cast<unsigned char>(*p) - 9u < 5u)) ++p;
            if (p == end) break;
            T v{};
            const auto [next, ec] = std::from_chars(p, end, v);
            if (ec != std::errc{} || (next != end && *next != ' ' && static_cast<unsigned char>(*next) - 9u >= 5u))
                throw parse_error("std::getline(" + source.path + "): line " + std::to_string(number) +
                                  " holds something that is not a number");
            values.push_back(v);
            p = next;
        }
    }
    if (in.bad()) throw io_error("std::getline", source.path, std::error_code(EIO, std::generic_category()));
}

void getline_ints(const Source& source, std::vector<std::uint64_t>& values) { getline_parse(source, values); }
void getline_doubles(const Source& source, std::vector<double>& values) { getline_parse(source, values); }

// --- std::cout -----------------------------------------------------------

/// Flushes std::cout; a failed write becomes `io_error`.
void flush_cout() {
    std::cout.flush();
    if (!std::cout) throw io_error("std::cout", "stdout", std::error_code(EIO, std::generic_category()));
}

/// std::cout << line. `Unsynced`: std::ios::sync_with_stdio(false) first, which
/// libstdc++ cannot undo for the rest of the process (libc++ and MSVC's library
/// ignore it): the runner calls console methods in a child process of their own.
template <bool Unsynced>
void cout_console(const StdoutSink&, std::string_view line, std::uint64_t count) {
    if constexpr (Unsynced) std::ios::sync_with_stdio(false);
    for (std::uint64_t i = 0; i < count; ++i) std::cout << line;
    flush_cout();
}

/// The formatted messages with operator<< (fixed, precision 2 and fill '0' set
/// once per run, as a program printing such lines would).
template <bool Unsynced>
void cout_print(const StdoutSink&, ConsoleFormat format, std::uint64_t count) {
    if constexpr (Unsynced) std::ios::sync_with_stdio(false);
    const ConsoleArgs& a = console_args;
    std::ostream& out = std::cout;
    const std::ios::fmtflags flags = out.flags();
    const std::streamsize precision = out.precision();
    const char fill = out.fill();
    out << std::fixed << std::setprecision(2) << std::setfill('0');
    switch (format) {
    case ConsoleFormat::int_value:
        for (std::uint64_t i = 0; i < count; ++i) out << "Value: " << a.int_value << '\n';
        break;
    case ConsoleFormat::float_value:
        for (std::uint64_t i = 0; i < count; ++i) out << "Value: " << a.float_value << '\n';
        break;
    case ConsoleFormat::string_int:
        for (std::uint64_t i = 0; i < count; ++i) out << "Message: " << a.message << ", Count: " << a.count << '\n';
        break;
    case ConsoleFormat::int_string:
        for (std::uint64_t i = 0; i < count; ++i) out << "Value: " << a.value << ", String: " << a.string << '\n';
        break;
    case ConsoleFormat::datetime:
        for (std::uint64_t i = 0; i < count; ++i)
            out << '[' << std::setw(4) << a.year << '-' << std::setw(2) << a.month << '-' << std::setw(2) << a.day
                << ' ' << std::setw(2) << a.hour << ':' << std::setw(2) << a.minute << ':' << std::setw(2) << a.second
                << "] " << a.status << ": " << a.status_value << " (" << a.percent << "%)\n";
        break;
    }
    out.flags(flags);
    out.precision(precision);
    out.fill(fill);
    flush_cout();
}

// --- per-call sinks: an ofstream; `Locked`: a std::mutex held for the whole
// of each call (ofstream_mutex), which makes one sink safe to share --------

/// An ofstream opened for per-call writing, with a mutex that the locked
/// calls take.
struct CallStream {
    explicit CallStream(const Sink& sink) : out(sink), path(sink.path) {}
    Output out;
    std::string path;
    std::mutex mutex;
};

CallSink ofstream_open(const Sink& sink) { return new CallStream(sink); }

void ofstream_close(CallSink sink) {
    std::unique_ptr<CallStream> s(static_cast<CallStream*>(sink));
    s->out.close("ofstream::operator<<", s->path);
}

template <bool Locked>
void ofstream_int_call(CallSink sink, std::uint64_t v) {
    auto& s = *static_cast<CallStream*>(sink);
    const CallLock<Locked> lock(s.mutex);
    s.out.stream << v << '\n';
}

template <bool Locked>
void ofstream_line_call(CallSink sink, std::string_view line) {
    auto& s = *static_cast<CallStream*>(sink);
    const CallLock<Locked> lock(s.mutex);
    s.out.stream.write(line.data(), static_cast<std::streamsize>(line.size()));
}

template <bool Locked>
void ofstream_record_call(CallSink sink, const LogRecord& r) {
    auto& s = *static_cast<CallStream*>(sink);
    const CallLock<Locked> lock(s.mutex);
    std::ofstream& out = s.out.stream;
    out << r.time_us / 1000000 << '.' << std::setw(6) << std::setfill('0') << r.time_us % 1000000 << std::setfill(' ')
        << ' ' << level_name(r.level) << " [" << r.logger << "] request " << r.request << " done in " << r.duration_us
        << " us: " << r.text << '\n';
}

constexpr Calls ofstream_calls{.open = ofstream_open,
                                .close = ofstream_close,
                                .put_int = ofstream_int_call<false>,
                                .put_line = ofstream_line_call<false>,
                                .put_record = ofstream_record_call<false>};
constexpr Calls ofstream_mutex_calls{.open = ofstream_open,
                                      .close = ofstream_close,
                                      .put_int = ofstream_int_call<true>,
                                      .put_line = ofstream_line_call<true>,
                                      .put_record = ofstream_record_call<true>,
                                      .shared = true};

const MethodRegistrar registrar{{.family = "iostream"}, {
    {.name = "ofstream",
     .description = "std::ofstream: out << i << '\\n' (ints), out.write(line) (repeated lines), "
                    "out << prefix << i << suffix (numbered lines), out << setprecision(17) << v << '\\n'; "
                    "ints_out_locale: imbued with std::locale(\"\")",
     .sizable_buffer = true,
     .put_ints = stream_ints<std::ofstream>,
     .put_repeat = ofstream_repeat,
     .put_lines = ofstream_lines,
     .put_doubles = ofstream_doubles,
     .put_ints_locale = stream_ints<std::ofstream, true>,
     .calls = &ofstream_calls},
    {.name = "ofstream_mutex",
     .description = "std::ofstream behind a std::mutex held for each call (per call only): the stream made safe to "
                    "share between threads",
     .sizable_buffer = true,
     .calls = &ofstream_mutex_calls},
    {.name = "ofstream_endl",
     .description = "std::ofstream: out << text << std::endl, which flushes the stream: one write per line",
     .sizable_buffer = true,
     .put_repeat = ofstream_endl_repeat,
     .put_lines = ofstream_endl_lines},
    {.name = "ofstream_sputc",
     .description = "std::ofstream with the rdbuf() trick: out << i; out.rdbuf()->sputc('\\n') (text: sputn + sputc)",
     .sizable_buffer = true,
     .put_ints = ofstream_sputc_ints,
     .put_repeat = ofstream_sputc_repeat,
     .put_lines = ofstream_sputc_lines},
    {.name = "to_chars_ofstream",
     .description = "std::to_chars into a local buffer, then out.write() on a std::ofstream",
     .sizable_buffer = true,
     .put_ints = to_chars_ofstream_ints,
     .put_doubles = to_chars_ofstream_doubles},
    {.name = "cout",
     .description = "std::cout << text / << values, synchronized with C stdio (the default)",
     .put_console = cout_console<false>,
     .print_console = cout_print<false>},
    {.name = "cout_unsynced",
     .description = "std::cout after std::ios::sync_with_stdio(false) (each run in a process of its own)",
     .put_console = cout_console<true>,
     .print_console = cout_print<true>},
    {.name = "ifstream",
     .description = "std::ifstream: in >> v (integers, doubles) until end of file; ints_in_locale: imbued with "
                    "std::locale(\"\")",
     .sizable_buffer = true,
     .get_ints = stream_values<std::ifstream, std::uint64_t>,
     .get_doubles = stream_values<std::ifstream, double>,
     .get_ints_locale = stream_values<std::ifstream, std::uint64_t, true>},
    {.name = "wofstream",
     .description = "std::wofstream: out << i << L'\\n' (wide stream, classic locale: the same bytes as ofstream)",
     .sizable_buffer = true,
     .put_ints = stream_ints<std::wofstream>},
    {.name = "wifstream",
     .description = "std::wifstream: in >> v until end of file (wide stream, classic locale)",
     .sizable_buffer = true,
     .get_ints = stream_values<std::wifstream, std::uint64_t>},
    {.name = "ifstream_read",
     .description = "std::ifstream::read of `buf` bytes (" + size_text(read_default_request) +
                    ") per call, the stream keeping the library's buffer",
     .default_buffer_size = read_default_request,
     .sizable_buffer = true,
     .read_bytes = ifstream_read_file},
    {.name = "getline",
     .description = "std::getline(ifstream, std::string) per line (numbers: then std::from_chars)",
     .sizable_buffer = true,
     .get_ints = getline_ints,
     .read_bytes = getline_file,
     .get_doubles = getline_doubles},
}};

}  // namespace
}  // namespace iobench
