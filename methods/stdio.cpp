// stdio: the C library's buffered FILE* streams (fprintf, fwrite, fputs,
// fputc, puts, printf, ..., fscanf), on files and on stdout.
//
// Buffering: a stream keeps the library's own buffer unless a suite sets
// `buf`; then iobench allocates `buf` bytes and hands them to setvbuf before
// the first write. (setvbuf(f, NULL, _IOFBF, n) would not do: glibc ignores n
// when it is not given the buffer, and keeps its default of st_blksize bytes.)
// The *_IONBF / *_IOLBF / *_IOFBF methods set that buffering mode explicitly,
// as the console benchmark's "Buffer Mode Impact" table does. One exception:
// for `fread` (file_read), `buf` is the size of each fread call, the stream
// keeping the library's buffer, as in the C file-reading seed. Files are opened
// in binary mode ("wb", "rb"), so that Windows writes '\n' and not "\r\n":
// every platform writes and reads the same bytes.
#include <cinttypes>
#include <clocale>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <utility>

#include <iobench/byte_fold.hpp>
#include <iobench/console_format.hpp>
#include <iobench/error.hpp>
#include <iobench/method.hpp>
#include "methods/buffer_sizes.hpp"
#include "methods/stdio_stream.hpp"

namespace iobench {
namespace {

// --- files ---------------------------------------------------------------

void fprintf_ints(const Sink& sink, std::uint64_t count) {
    StdioFile s;
    open_stream(s, sink.path, "wb", sink.buffer_size);
    for (std::uint64_t i = 0; i < count; ++i) std::fprintf(s.f, "%llu\n", static_cast<unsigned long long>(i));
    s.close_output();
}

/// fprintf of every line, with the stream's buffering set to `Mode` (-1: the library's default).
template <int Mode>
void fprintf_lines(const Sink& sink, const NumberedLine& line, std::uint64_t count) {
    StdioFile s;
    open_stream(s, sink.path, "wb", sink.buffer_size, Mode);
    const std::string format = printf_format(line);
    for (std::uint64_t i = 0; i < count; ++i) std::fprintf(s.f, format.c_str(), static_cast<unsigned long long>(i));
    s.close_output();
}

void fprintf_doubles(const Sink& sink, std::span<const double> values) {
    StdioFile s;
    open_stream(s, sink.path, "wb", sink.buffer_size);
    for (double v : values) std::fprintf(s.f, "%.17g\n", v);
    s.close_output();
}

/// Writes one line with a stdio call: `line` to `f` (stdout for the calls
/// without a stream argument: printf, putchar). `line.data()` is
/// NUL-terminated, for the calls that take a C string.
using PutLine = void (*)(std::FILE* f, std::string_view line);

void put_fwrite(std::FILE* f, std::string_view line) { std::fwrite(line.data(), 1, line.size(), f); }
void put_fputs(std::FILE* f, std::string_view line) { std::fputs(line.data(), f); }
void put_fputc(std::FILE* f, std::string_view line) {
    for (char c : line) std::fputc(static_cast<unsigned char>(c), f);
}
void put_putchar(std::FILE*, std::string_view line) {
    for (char c : line) std::putchar(static_cast<unsigned char>(c));
}
void put_printf(std::FILE*, std::string_view line) { std::printf("%s", line.data()); }
/// The line is the format, as in printf("Hello, C!!!!\n"); it holds no '%'.
/// (Written with a literal, GCC would call puts instead.)
void put_printf_literal(std::FILE*, std::string_view line) {
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-security"
#endif
    std::printf(line.data());
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
}
#ifdef IOBENCH_HAVE_FWRITE_UNLOCKED
void put_fwrite_unlocked(std::FILE* f, std::string_view line) { fwrite_unlocked(line.data(), 1, line.size(), f); }
#endif
#ifdef IOBENCH_HAVE_FPUTS_UNLOCKED
void put_fputs_unlocked(std::FILE* f, std::string_view line) { fputs_unlocked(line.data(), f); }
#endif

/// put_repeat with `Put` (a direct call, inlined: no indirection per line).
template <PutLine Put>
void repeat_to_file(const Sink& sink, std::string_view line, std::uint64_t count) {
    StdioFile s;
    open_stream(s, sink.path, "wb", sink.buffer_size);
    const std::string text(line);  // NUL-terminated
    const std::string_view view = text;
    for (std::uint64_t i = 0; i < count; ++i) Put(s.f, view);
    s.close_output();
}

/// put_console with `Put` on stdout, its buffering set to `Mode` (-1: as the
/// process has it) with a buffer of `buf` bytes, else `DefaultSize` (0: the library's).
template <PutLine Put, int Mode = -1, std::size_t DefaultSize = 0>
void repeat_to_stdout(const StdoutSink& out, std::string_view line, std::uint64_t count) {
    set_stdout_buffering(Mode, out.buffer_size ? out.buffer_size : DefaultSize);
    const std::string text(line);  // NUL-terminated
    const std::string_view view = text;
    for (std::uint64_t i = 0; i < count; ++i) Put(stdout, view);
    flush_stdout();
}

/// fscanf(f, format, &v) with a `Value` until it fails, which must be at end
/// of file. `what` names a value in the error ("an integer").
template <class Value, class T>
void fscanf_all(const Source& source, std::vector<T>& values, const char* format, const char* what) {
    StdioFile s;
    open_stream(s, source.path, "rb", source.buffer_size);
    Value v = 0;
    while (std::fscanf(s.f, format, &v) == 1) values.push_back(v);
    const bool at_end = std::feof(s.f) != 0;
    const bool failed = std::ferror(s.f) != 0;
    const long offset = std::ftell(s.f);
    if (failed) throw io_error("fscanf", source.path, std::error_code(EIO, std::generic_category()));
    if (!at_end)
        throw parse_error("fscanf(" + source.path + "): not " + what + " at byte " + std::to_string(offset));
}

void fscanf_ints(const Source& source, std::vector<std::uint64_t>& values) {
    fscanf_all<unsigned long long>(source, values, "%llu", "an integer");
}

void fscanf_doubles(const Source& source, std::vector<double>& values) {
    fscanf_all<double>(source, values, "%lf", "a number");
}

// --- the user's locale (ints_out_locale, ints_in_locale) ----------------

/// The C library's global locale switched to the user's (setlocale(LC_ALL,
/// "")) for the lifetime of the object, the previous one restored after.
/// Throws `unavailable_error` when the locale the environment names is not
/// installed, or when the C library's printf/scanf lack the ' flag.
class UserCLocale {
public:
    UserCLocale() {
#ifdef _WIN32
        throw unavailable_error("the Windows C runtimes' printf and scanf have no ' (digit grouping) flag");
#else
        const char* previous = std::setlocale(LC_ALL, nullptr);
        saved_ = previous ? previous : "C";
        if (!std::setlocale(LC_ALL, ""))
            throw unavailable_error("setlocale(LC_ALL, \"\") failed: the user's locale is not installed");
#endif
    }
    ~UserCLocale() { std::setlocale(LC_ALL, saved_.c_str()); }
    UserCLocale(const UserCLocale&) = delete;
    UserCLocale& operator=(const UserCLocale&) = delete;

private:
    std::string saved_;
};

// The ' flag (POSIX, not ISO C) groups the digits as LC_NUMERIC says. On
// Windows UserCLocale throws first: no format with it is compiled there (MSVC
// rightly reports it as an unknown flag, C4476).
void fprintf_locale_ints(const Sink& sink, std::uint64_t count) {
    UserCLocale locale;
#ifndef _WIN32
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat"
#endif
    StdioFile s;
    open_stream(s, sink.path, "wb", sink.buffer_size);
    for (std::uint64_t i = 0; i < count; ++i) std::fprintf(s.f, "%'llu\n", static_cast<unsigned long long>(i));
    s.close_output();
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
#else
    (void)sink, (void)count;
#endif
}

void fscanf_locale_ints(const Source& source, std::vector<std::uint64_t>& values) {
    UserCLocale locale;
#ifndef _WIN32
    fscanf_all<unsigned long long>(source, values, "%'llu", "an integer");
#else
    (void)source, (void)values;
#endif
}

// --- reading whole files (file_read) -------------------------------------

/// Bytes per fread call when a suite sets no `buf`: as for read(2).
constexpr std::size_t fread_default_request = default_buffer_size;

/// Throws `io_error` when the stream saw a read error.
void check_read(std::FILE* f, const char* call, const std::string& path) {
    if (std::ferror(f)) throw io_error(call, path, std::error_code(errno ? errno : EIO, std::generic_category()));
}

/// fread of `request` bytes per call into a buffer of ours until end of file.
ReadResult fread_all(StdioFile& s, std::size_t request) {
    std::unique_ptr<char[]> buf(new char[request]);
    ByteFold fold;
    for (;;) {
        const std::size_t n = std::fread(buf.get(), 1, request, s.f);
        fold.update(buf.get(), n);
        if (n < request) break;
    }
    check_read(s.f, "fread", s.path);
    return fold.result();
}

/// The seed's fread: `buf` bytes per fread call; the stream keeps the C
/// library's own buffer (glibc: st_blksize, 4 KiB on most file systems), so
/// calls smaller than it are served from it (fewer, larger read(2)s).
ReadResult fread_file(const Source& source) {
    StdioFile s;
    open_stream(s, source.path, "rb", 0);
    ReadResult r = fread_all(s, source.buffer_size ? source.buffer_size : fread_default_request);
    std::fclose(std::exchange(s.f, nullptr));
    return r;
}

/// Bytes per fread call of fread_setvbuf: the seed's smallest buffer size.
constexpr std::size_t setvbuf_request = 512;

/// 512-byte freads on a stream given a buffer of `buf` bytes with setvbuf:
/// the stream's buffer size is what varies.
ReadResult fread_setvbuf_file(const Source& source) {
    StdioFile s;
    open_stream(s, source.path, "rb", source.buffer_size);
    ReadResult r = fread_all(s, setvbuf_request);
    std::fclose(std::exchange(s.f, nullptr));
    return r;
}

/// Longest line fgets_file reads in one call (longer lines take several).
constexpr int fgets_line = 4096;

/// fgets line by line (the stream's buffer: `buf` bytes with setvbuf, or the
/// library's); each line's length found with strlen, as a C program does.
ReadResult fgets_file(const Source& source) {
    StdioFile s;
    open_stream(s, source.path, "rb", source.buffer_size);
    char line[fgets_line];
    ByteFold fold;
    while (std::fgets(line, fgets_line, s.f)) fold.update(line, std::strlen(line));
    check_read(s.f, "fgets", source.path);
    std::fclose(std::exchange(s.f, nullptr));
    return fold.result();
}

// --- stdout --------------------------------------------------------------

/// printf of the formatted message, stdout as in repeat_to_stdout.
template <int Mode, std::size_t DefaultSize>
void printf_print(const StdoutSink& out, ConsoleFormat format, std::uint64_t count) {
    set_stdout_buffering(Mode, out.buffer_size ? out.buffer_size : DefaultSize);
    for_each_printf(format, count, [](const char* f, auto... args) { std::printf(f, args...); });
    flush_stdout();
}

void fprintf_print(const StdoutSink& out, ConsoleFormat format, std::uint64_t count) {
    set_stdout_buffering(-1, out.buffer_size);
    for_each_printf(format, count, [](const char* f, auto... args) { std::fprintf(stdout, f, args...); });
    flush_stdout();
}

void puts_console(const StdoutSink& out, std::string_view line, std::uint64_t count) {
    set_stdout_buffering(-1, out.buffer_size);
    const std::string text(line.substr(0, line.size() - 1));  // puts adds the '\n'
    for (std::uint64_t i = 0; i < count; ++i) std::puts(text.c_str());
    flush_stdout();
}

// Where the C library lacks the *_unlocked calls, the methods are still
// registered, with the reason.
#if defined(IOBENCH_HAVE_FWRITE_UNLOCKED)
constexpr const char* no_fwrite_unlocked = "";
constexpr PutRepeat fwrite_unlocked_repeat = repeat_to_file<put_fwrite_unlocked>;
constexpr PutConsole fwrite_unlocked_console = repeat_to_stdout<put_fwrite_unlocked>;
#else
constexpr const char* no_fwrite_unlocked = "fwrite_unlocked is not in this C library";
constexpr NotBuilt fwrite_unlocked_repeat = not_built, fwrite_unlocked_console = not_built;
#endif
#if defined(IOBENCH_HAVE_FPUTS_UNLOCKED)
constexpr const char* no_fputs_unlocked = "";
constexpr PutRepeat fputs_unlocked_repeat = repeat_to_file<put_fputs_unlocked>;
constexpr PutConsole fputs_unlocked_console = repeat_to_stdout<put_fputs_unlocked>;
#else
constexpr const char* no_fputs_unlocked = "fputs_unlocked is not in this C library";
constexpr NotBuilt fputs_unlocked_repeat = not_built, fputs_unlocked_console = not_built;
#endif

// --- per-call sinks: a FILE* per sink; each call takes the stream's lock, so
// one call's bytes stay whole among other threads' (C11 7.21.2: each stream
// has a lock; POSIX flockfile) -------------------------------------------


void fprintf_int_call(CallSink sink, std::uint64_t v) {
    std::fprintf(call_stream(sink), "%llu\n", static_cast<unsigned long long>(v));
}
void fprintf_line_call(CallSink sink, std::string_view line) { std::fprintf(call_stream(sink), "%s", line.data()); }
void fprintf_record_call(CallSink sink, const LogRecord& r) {
    std::fprintf(call_stream(sink), log_record_printf_format, static_cast<unsigned long long>(r.time_us / 1000000),
                 static_cast<unsigned long long>(r.time_us % 1000000), level_name(r.level).data(), r.logger.data(),
                 static_cast<unsigned long long>(r.request), static_cast<unsigned long long>(r.duration_us),
                 r.text.data());
}
void fwrite_line_call(CallSink sink, std::string_view line) {
    std::fwrite(line.data(), 1, line.size(), call_stream(sink));
}

constexpr Calls fprintf_calls{.open = open_call_stream,
                               .close = close_call_stream,
                               .put_int = fprintf_int_call,
                               .put_line = fprintf_line_call,
                               .put_record = fprintf_record_call,
                               .shared = true};
constexpr Calls fwrite_calls{.open = open_call_stream, .close = close_call_stream, .put_line = fwrite_line_call, .shared = true};

const MethodRegistrar registrar{{.family = "stdio"}, {
    {.name = "fprintf",
     .description = "fprintf(f, \"%llu\\n\", i) / (f, \"Line %llu: ...\\n\", i) / (f, \"%.17g\\n\", v) on a FILE*; "
                    "console: fprintf(stdout, ...); ints_out_locale: fprintf(f, \"%'llu\\n\", i) after "
                    "setlocale(LC_ALL, \"\")",
     .sizable_buffer = true,
     .put_ints = fprintf_ints,
     .put_lines = fprintf_lines<-1>,
     .put_doubles = fprintf_doubles,
     .print_console = fprintf_print,
     .put_ints_locale = fprintf_locale_ints,
     .calls = &fprintf_calls},
    {.name = "fprintf_IONBF",
     .description = "fprintf on a FILE* made unbuffered with setvbuf(f, NULL, _IONBF, 0)",
     .put_lines = fprintf_lines<_IONBF>},
    {.name = "fprintf_IOLBF",
     .description = "fprintf on a FILE* made line buffered with setvbuf(f, buf, _IOLBF, size)",
     .sizable_buffer = true,
     .put_lines = fprintf_lines<_IOLBF>},
    {.name = "fwrite",
     .description = "fwrite(line, 1, size, f) per line on a FILE* (console: on stdout)",
     .sizable_buffer = true,
     .put_repeat = repeat_to_file<put_fwrite>,
     .put_console = repeat_to_stdout<put_fwrite>,
     .calls = &fwrite_calls},
    {.name = "fputs",
     .description = "fputs(line, f) per line on a FILE* (console: on stdout)",
     .sizable_buffer = true,
     .put_repeat = repeat_to_file<put_fputs>,
     .put_console = repeat_to_stdout<put_fputs>},
    {.name = "fputc",
     .description = "fputc(c, f) for every character (console: on stdout)",
     .sizable_buffer = true,
     .put_repeat = repeat_to_file<put_fputc>,
     .put_console = repeat_to_stdout<put_fputc>},
    {.name = "fwrite_unlocked",
     .description = "fwrite_unlocked(line, 1, size, f) per line: fwrite without the stream lock",
     .sizable_buffer = true,
     .unavailable = no_fwrite_unlocked,
     .put_repeat = fwrite_unlocked_repeat,
     .put_console = fwrite_unlocked_console},
    {.name = "fputs_unlocked",
     .description = "fputs_unlocked(line, f) per line: fputs without the stream lock",
     .sizable_buffer = true,
     .unavailable = no_fputs_unlocked,
     .put_repeat = fputs_unlocked_repeat,
     .put_console = fputs_unlocked_console},
    {.name = "printf",
     .description = "printf(\"%s\", line) / printf(format, args...) on stdout as the program has it",
     .sizable_buffer = true,
     .put_console = repeat_to_stdout<put_printf>,
     .print_console = printf_print<-1, 0>},
    {.name = "printf_literal",
     .description = "printf(line): the line itself as the format string",
     .sizable_buffer = true,
     .put_console = repeat_to_stdout<put_printf_literal>},
    {.name = "printf_IONBF",
     .description = "printf after setvbuf(stdout, NULL, _IONBF, 0): unbuffered",
     .put_console = repeat_to_stdout<put_printf, _IONBF>,
     .print_console = printf_print<_IONBF, 0>},
    {.name = "printf_IOLBF",
     .description = "printf after setvbuf(stdout, buf, _IOLBF, BUFSIZ): flushed at every '\\n'",
     .default_buffer_size = BUFSIZ,
     .sizable_buffer = true,
     .put_console = repeat_to_stdout<put_printf, _IOLBF, BUFSIZ>,
     .print_console = printf_print<_IOLBF, BUFSIZ>},
    {.name = "printf_IOFBF",
     .description = "printf after setvbuf(stdout, buf, _IOFBF, BUFSIZ): fully buffered, as in the seed",
     .default_buffer_size = BUFSIZ,
     .sizable_buffer = true,
     .put_console = repeat_to_stdout<put_printf, _IOFBF, BUFSIZ>,
     .print_console = printf_print<_IOFBF, BUFSIZ>},
    {.name = "puts",
     .description = "puts(text): the line without its '\\n', which puts adds",
     .sizable_buffer = true,
     .put_console = puts_console},
    {.name = "putchar",
     .description = "putchar(c) for every character",
     .sizable_buffer = true,
     .put_console = repeat_to_stdout<put_putchar>},
    {.name = "fscanf",
     .description = "fscanf(f, \"%llu\", &v) / fscanf(f, \"%lf\", &v) until end of file; ints_in_locale: "
                    "fscanf(f, \"%'llu\", &v) after setlocale(LC_ALL, \"\")",
     .sizable_buffer = true,
     .get_ints = fscanf_ints,
     .get_doubles = fscanf_doubles,
     .get_ints_locale = fscanf_locale_ints},
    {.name = "fread",
     .description = "fread of `buf` bytes (" + size_text(fread_default_request) +
                    ") per call, the stream keeping the C library's own buffer (the seed's fread)",
     .default_buffer_size = fread_default_request,
     .sizable_buffer = true,
     .read_bytes = fread_file},
    {.name = "fread_setvbuf",
     .description = "fread of 512 bytes per call on a stream given `buf` bytes with setvbuf",
     .sizable_buffer = true,
     .read_bytes = fread_setvbuf_file},
    {.name = "fgets",
     .description = "fgets(line, 4096, f) + strlen per line (stream buffer: `buf` bytes with setvbuf)",
     .sizable_buffer = true,
     .read_bytes = fgets_file},
}};

}  // namespace
}  // namespace iobench
