// obuf / ibuf: iobench's own buffered writer and reader over a raw file
// descriptor (methods/obuf.hpp, methods/ibuf.hpp): one user-space buffer of
// `buf` bytes (obuf_buffer_size), flushed with one write(2); integers
// formatted and parsed without locale or format strings, doubles written in
// their shortest round-trip form straight into the buffer (format_double:
// Żmij where the build has it, else Dragonbox's digits; dragonbox_obuf always
// takes Dragonbox's). They show how close a method can get to the
// memory-bound limit. On Windows the same buffer runs over a Win32 file
// HANDLE (methods/native_file.hpp), flushed with one WriteFile and refilled
// with one ReadFile, under the same method names.
#include <charconv>
#include <mutex>
#include <string>

#include <iobench/method.hpp>
#include "methods/call_lock.hpp"
#include "methods/obuf_file.hpp"
#include "methods/obuf_writes.hpp"

namespace iobench {
namespace {

#ifdef _WIN32
constexpr const char* obuf_writer =
    "iobench's buffered writer on a Win32 file HANDLE (flushed with WriteFile): put_uint_lines(block) / "
    "write_repeated(line, n) / put_double_lines(block)";
constexpr const char* ibuf_reader = "iobench's buffered reader on a Win32 file HANDLE (refilled with ReadFile)";
#else
constexpr const char* obuf_writer =
    "iobench's buffered writer on a file descriptor: put_uint_lines(block) / write_repeated(line, n) / "
    "put_double_lines(block)";
constexpr const char* ibuf_reader = "iobench's buffered reader on a file descriptor";
#endif
/// How the AVX2 double kernel takes Żmij's digits in this build (methods/format_double_lines.hpp).
#if IOBENCH_DOUBLE_LINES_AVX2 && defined(IOBENCH_HAVE_ZMIJ_SOURCES)
constexpr const char* zmij_digits_in_kernel = "Żmij's digit search compiled into its loop";
#else
constexpr const char* zmij_digits_in_kernel = "zmij::to_decimal, a call per double";
#endif
/// obuf's description up to its doubles, naming where this build's doubles come from.
const std::string obuf_doubles_description =
    std::string(obuf_writer) + (default_double_digits == double_digits::zmij
                                    ? "; doubles with Żmij: its digits in obuf's AVX2 line kernel (" +
                                          std::string(zmij_digits_in_kernel) +
                                          "), two doubles at a time, where the CPU has AVX2, else its own writer "
                                          "(zmij::write, its digits where std::to_chars writes fixed notation)"
                                    : "; doubles with Dragonbox's digits (this build has no Żmij)");
/// obuf's description, with how its integers are written.
const std::string obuf_description =
    obuf_doubles_description +
    "; integers " + std::to_string(detail::int_lines_block) +
    " lines per put_uint_lines call, by a line kernel chosen at run time: four numbers at a time with "
    "AVX2 where the CPU has it, else table lookups (scalar_obuf, sse2_obuf: the other kernels)";
/// ibuf's description, naming the double parser this build uses.
const std::string ibuf_description =
    std::string(ibuf_reader) +
    ": get_uints(block) / get_doubles(block) until end of file, 1024 numbers per call; integers by a block parser "
    "chosen at run time: 64-byte windows with AVX2 where the CPU has it, eight numbers at a time, else 32-byte blocks "
    "with SSE2 (x86-64) or NEON (ARM64; scalar_ibuf, sse2_ibuf: the other parsers); doubles parsed with " +
    std::string(detail::double_parser_name);

void obuf_ints(const Sink& sink, std::uint64_t count) {
    obuf_file file(sink.path, sink.buffer_size);
    write_int_lines(file.out(), count);
    file.close();
}

/// obuf's put_ints with line kernel `Kernel` whatever the CPU would choose
/// (the kernels' rows beside obuf; sse2_obuf is skipped where the build has
/// no SSE2 kernel: not x86-64).
template <uint_line_kernel Kernel>
void kernel_obuf_ints(const Sink& sink, std::uint64_t count) {
    obuf_file file(sink.path, sink.buffer_size);
    write_int_lines(file.out(), count, Kernel);
    file.close();
}

#if IOBENCH_IBUF_SSE2
#define IOBENCH_SSE2_OBUF(fn) fn
constexpr const char* sse2_obuf_unavailable = "";
#else
#define IOBENCH_SSE2_OBUF(fn) ::iobench::not_built
constexpr const char* sse2_obuf_unavailable = "x86-64 only (SSE2)";
#endif

void obuf_repeat(const Sink& sink, std::string_view line, std::uint64_t count) {
    obuf_file file(sink.path, sink.buffer_size);
    write_repeated(file.out(), line, count);
    file.close();
}

void obuf_lines(const Sink& sink, const NumberedLine& line, std::uint64_t count) {
    obuf_file file(sink.path, sink.buffer_size);
    write_numbered_lines(file.out(), line, count);
    file.close();
}

void obuf_doubles(const Sink& sink, std::span<const double> values) {
    obuf_file file(sink.path, sink.buffer_size);
    write_double_lines(file.out(), values);
    file.close();
}

/// obuf's put_doubles with line kernel `Kernel` whatever the CPU would
/// choose (scalar_obuf's doubles: format_double one at a time).
template <double_line_kernel Kernel>
void kernel_obuf_doubles(const Sink& sink, std::span<const double> values) {
    obuf_file file(sink.path, sink.buffer_size);
    write_double_lines(file.out(), values, Kernel);
    file.close();
}

/// The doubles of obuf with Dragonbox's digits whatever the build has.
void dragonbox_obuf_doubles(const Sink& sink, std::span<const double> values) {
    obuf_file file(sink.path, sink.buffer_size);
    write_double_lines<double_digits::dragonbox>(file.out(), values);
    file.close();
}

void obuf_console(const StdoutSink& sink, std::string_view line, std::uint64_t count) {
    auto out = stdout_obuf(sink.buffer_size);
    write_repeated(out, line, count);
    out.flush();
}

/// get_uints with block parser `parser` into a block on the stack, appended
/// to `values` a block at a time: the parser writes through a plain pointer,
/// with no capacity check per number, and `values` grows as a vector does
/// should its reserved capacity not suffice. (Writing straight into the
/// reserved capacity past size() would be undefined behaviour, and resize()
/// would first zero it.)
void read_ints(const Source& source, std::vector<std::uint64_t>& values, uint_block_parser parser) {
    ibuf_file file(source.path, source.buffer_size);
    auto& in = file.in();
    std::uint64_t block[1024];
    while (const std::size_t n = in.get_uints(block, parser)) values.insert(values.end(), block, block + n);
    file.close();
}

/// ibuf's get_ints: read_ints with the parser in use (the CPU's best).
void ibuf_ints(const Source& source, std::vector<std::uint64_t>& values) {
    read_ints(source, values, uint_block_parser_in_use());
}

/// ibuf_ints with block parser `Parser` whatever the CPU would choose (the
/// parsers' rows beside ibuf; sse2_ibuf is skipped where the build has no
/// SSE2 parser: not x86-64).
template <uint_block_parser Parser>
void parser_ibuf_ints(const Source& source, std::vector<std::uint64_t>& values) {
    read_ints(source, values, Parser);
}

/// get_doubles into a block on the stack, appended a block at a time (as ibuf_ints).
void ibuf_doubles(const Source& source, std::vector<double>& values) {
    ibuf_file file(source.path, source.buffer_size);
    auto& in = file.in();
    double block[1024];
    while (const std::size_t n = in.get_doubles(block)) values.insert(values.end(), block, block + n);
    file.close();
}

/// obuf shared between threads: every call takes the lock once (fast_io's
/// obuf_file_mutex). Uncontended here: the cost measured is the lock itself.
class obuf_mutex {
public:
    explicit obuf_mutex(obuf_file::buffer_type& out) : out_(out) {}
    void print_uint_line(std::uint64_t v) {
        std::lock_guard lock(mutex_);
        out_.put_uint(v);
        out_.put('\n');
    }
    void write(std::string_view text) {
        std::lock_guard lock(mutex_);
        out_.write(text);
    }
    void print_line(const NumberedLine& line, std::uint64_t i) {
        std::lock_guard lock(mutex_);
        out_.write(line.prefix);
        out_.put_uint(i);
        out_.write(line.suffix);
    }

private:
    obuf_file::buffer_type& out_;
    std::mutex mutex_;
};

void obuf_mutex_ints(const Sink& sink, std::uint64_t count) {
    obuf_file file(sink.path, sink.buffer_size);
    obuf_mutex out(file.out());
    for (std::uint64_t i = 0; i < count; ++i) out.print_uint_line(i);
    file.close();
}

void obuf_mutex_repeat(const Sink& sink, std::string_view line, std::uint64_t count) {
    obuf_file file(sink.path, sink.buffer_size);
    obuf_mutex out(file.out());
    for (std::uint64_t i = 0; i < count; ++i) out.write(line);
    file.close();
}

void obuf_mutex_lines(const Sink& sink, const NumberedLine& line, std::uint64_t count) {
    obuf_file file(sink.path, sink.buffer_size);
    obuf_mutex out(file.out());
    for (std::uint64_t i = 0; i < count; ++i) out.print_line(line, i);
    file.close();
}

void to_chars_obuf_ints(const Sink& sink, std::uint64_t count) {
    obuf_file file(sink.path, sink.buffer_size);
    {
        obuf_file::buffer_type::cursor out(file.out());
        char text[64];
        for (std::uint64_t i = 0; i < count; ++i) {
            char* end = std::to_chars(text, text + 20, i).ptr;
            *end++ = '\n';
            out.write(text, static_cast<std::size_t>(end - text));
        }
    }
    file.close();
}

void to_chars_obuf_doubles(const Sink& sink, std::span<const double> values) {
    obuf_file file(sink.path, sink.buffer_size);
    {
        obuf_file::buffer_type::cursor out(file.out());
        char text[64];
        for (double v : values) {
            char* end = std::to_chars(text, text + 39, v).ptr;  // shortest round-trip form
            *end++ = '\n';
            out.write(text, static_cast<std::size_t>(end - text));
        }
    }
    file.close();
}

// --- per call: an obuf_file per sink; obuf_mutex's calls hold a std::mutex
// for the whole call, which makes one sink safe to share ---------------------

/// An obuf on a file, and the mutex obuf_mutex's calls take.
struct CallObuf {
    CallObuf(const std::string& path, std::size_t buffer_size) : file(path, buffer_size) {}
    obuf_file file;
    std::mutex mutex;
};

CallSink obuf_open(const Sink& sink) { return new CallObuf(sink.path, sink.buffer_size); }

void obuf_close(CallSink sink) {
    std::unique_ptr<CallObuf> s(static_cast<CallObuf*>(sink));
    s->file.close();
}

template <bool Locked>
void obuf_int_call(CallSink sink, std::uint64_t v) {
    auto& s = *static_cast<CallObuf*>(sink);
    const CallLock<Locked> lock(s.mutex);
    s.file.out().put_uint(v);
    s.file.out().put('\n');
}

template <bool Locked>
void obuf_line_call(CallSink sink, std::string_view line) {
    auto& s = *static_cast<CallObuf*>(sink);
    const CallLock<Locked> lock(s.mutex);
    s.file.out().write(line);
}

/// The record with obuf's own calls (write_log_record).
template <bool Locked>
void obuf_record_call(CallSink sink, const LogRecord& r) {
    auto& s = *static_cast<CallObuf*>(sink);
    const CallLock<Locked> lock(s.mutex);
    write_log_record(s.file.out(), r);
}

constexpr Calls obuf_calls{.open = obuf_open,
                            .close = obuf_close,
                            .put_int = obuf_int_call<false>,
                            .put_line = obuf_line_call<false>,
                            .put_record = obuf_record_call<false>};
constexpr Calls obuf_mutex_calls{.open = obuf_open,
                                 .close = obuf_close,
                                 .put_int = obuf_int_call<true>,
                                 .put_line = obuf_line_call<true>,
                                 .put_record = obuf_record_call<true>,
                                 .shared = true};

const MethodRegistrar registrar{{.family = "obuf"}, {
    {.name = "obuf",
     .description = obuf_description,
     .default_buffer_size = obuf_buffer_size,
     .sizable_buffer = true,
     .put_ints = obuf_ints,
     .put_repeat = obuf_repeat,
     .put_lines = obuf_lines,
     .put_doubles = obuf_doubles,
     .put_console = obuf_console,
     .calls = &obuf_calls},
    {.name = "obuf_mutex",
     .description = "obuf with a std::mutex taken once per call (one item per call): thread-safe obuf",
     .default_buffer_size = obuf_buffer_size,
     .sizable_buffer = true,
     .put_ints = obuf_mutex_ints,
     .put_repeat = obuf_mutex_repeat,
     .put_lines = obuf_mutex_lines,
     .calls = &obuf_mutex_calls},
    {.name = "to_chars_obuf",
     .description = "std::to_chars into a local buffer, then obuf.write(): the standard formatter over obuf",
     .default_buffer_size = obuf_buffer_size,
     .sizable_buffer = true,
     .put_ints = to_chars_obuf_ints,
     .put_doubles = to_chars_obuf_doubles},
    {.name = "dragonbox_obuf",
     .description = "obuf's put_double with Dragonbox's digits (jkj::dragonbox::to_decimal) in obuf's own writer: "
                    "the same text, in place, from the other algorithm",
     .default_buffer_size = obuf_buffer_size,
     .sizable_buffer = true,
     .put_doubles = dragonbox_obuf_doubles},
    {.name = "scalar_obuf",
     .description = "obuf's put_ints and put_doubles with its scalar line kernels whatever the CPU has (integers by "
                    "table lookups, one number at a time; doubles one at a time with format_double): the kernels obuf "
                    "runs where the CPU has no AVX2",
     .default_buffer_size = obuf_buffer_size,
     .sizable_buffer = true,
     .put_ints = kernel_obuf_ints<uint_line_kernel::scalar>,
     .put_doubles = kernel_obuf_doubles<double_line_kernel::scalar>},
    {.name = "sse2_obuf",
     .description = "obuf's put_ints with its SSE2 line kernel (two numbers at a time), which obuf never chooses "
                    "itself (more instructions per number than the scalar kernel)",
     .default_buffer_size = obuf_buffer_size,
     .sizable_buffer = true,
     .unavailable = sse2_obuf_unavailable,
     .put_ints = IOBENCH_SSE2_OBUF(kernel_obuf_ints<uint_line_kernel::sse2>)},
    {.name = "ibuf",
     .description = ibuf_description,
     .default_buffer_size = obuf_buffer_size,
     .sizable_buffer = true,
     .get_ints = ibuf_ints,
     .get_doubles = ibuf_doubles},
    {.name = "scalar_ibuf",
     .description = "ibuf's get_uints with no block parser (one 8-byte load per number of up to 7 digits) whatever "
                    "the CPU has: what ibuf runs off x86-64 and ARM64",
     .default_buffer_size = obuf_buffer_size,
     .sizable_buffer = true,
     .get_ints = parser_ibuf_ints<uint_block_parser::scalar>},
    {.name = "sse2_ibuf",
     .description = "ibuf's get_uints with its SSE2 block parser (32-byte blocks, two numbers at a time) whatever "
                    "the CPU has: what ibuf runs on an x86-64 CPU without AVX2",
     .default_buffer_size = obuf_buffer_size,
     .sizable_buffer = true,
     .unavailable = sse2_obuf_unavailable,
     .get_ints = IOBENCH_SSE2_OBUF(parser_ibuf_ints<uint_block_parser::sse2>)},
}};

}  // namespace
}  // namespace iobench
