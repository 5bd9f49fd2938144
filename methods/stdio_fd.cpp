// stdio_fd: printf formatting written straight to a file descriptor, with no
// FILE* buffer in between: dprintf(fd, ...), and snprintf/sprintf into a local
// buffer followed by one write(2) -- the console benchmark's "pre-format, then
// syscall" rows and, for lines, the Go experiment's unbuffered
// Sprintf + f.Write. One system call per item. POSIX (dprintf, write).
#include <cstdio>
#include <string>

#include <iobench/console_format.hpp>
#include <iobench/method.hpp>

#ifndef _WIN32
#include "methods/posix_file.hpp"
#endif

namespace iobench {
namespace {

#ifndef _WIN32

/// Formatted text longer than this is a bug in the caller (lines are < 100 bytes).
constexpr std::size_t line_buffer_size = 256;

/// Writes the `n` bytes snprintf/sprintf put in `buf` to `fd`.
void write_formatted(int fd, const char* buf, int n, const std::string& path) {
    if (n < 0 || static_cast<std::size_t>(n) >= line_buffer_size)
        throw io_error("snprintf", path, std::make_error_code(std::errc::value_too_large));
    write_all(fd, buf, static_cast<std::size_t>(n), path);
}

// How each method prints one item to a descriptor: `(fd, path, format,
// args...)`, one system call per item. Inlined into the loops below.

/// dprintf(fd, format, args...). Throws `io_error` when it fails.
struct Dprintf {
    template <class... Args>
    void operator()(int fd, const std::string& path, const char* format, Args... args) const {
        if (::dprintf(fd, format, args...) < 0) throw_errno("dprintf", path);
    }
};

/// snprintf into a local buffer, then one write(2).
struct SnprintfWrite {
    template <class... Args>
    void operator()(int fd, const std::string& path, const char* format, Args... args) const {
        char buf[line_buffer_size];
        write_formatted(fd, buf, std::snprintf(buf, sizeof buf, format, args...), path);
    }
};

/// sprintf (no size check) into a local buffer, then one write(2).
struct SprintfWrite {
    template <class... Args>
    void operator()(int fd, const std::string& path, const char* format, Args... args) const {
        char buf[line_buffer_size];
        write_formatted(fd, buf, std::sprintf(buf, format, args...), path);
    }
};

template <class Print>
void print_ints(const Sink& sink, std::uint64_t count) {
    unique_fd fd = create_file(sink.path);
    for (std::uint64_t i = 0; i < count; ++i) Print{}(fd.get(), sink.path, "%llu\n", static_cast<unsigned long long>(i));
    fd.close();
}

template <class Print>
void print_lines(const Sink& sink, const NumberedLine& line, std::uint64_t count) {
    unique_fd fd = create_file(sink.path);
    const std::string format = printf_format(line);
    for (std::uint64_t i = 0; i < count; ++i)
        Print{}(fd.get(), sink.path, format.c_str(), static_cast<unsigned long long>(i));
    fd.close();
}

template <class Print>
void print_console(const StdoutSink&, ConsoleFormat format, std::uint64_t count) {
    const std::string path = "stdout";
    for_each_printf(format, count, [&path](const char* f, auto... args) { Print{}(STDOUT_FILENO, path, f, args...); });
}

void dprintf_console(const StdoutSink&, std::string_view line, std::uint64_t count) {
    const std::string path = "stdout";
    for (std::uint64_t i = 0; i < count; ++i) Dprintf{}(STDOUT_FILENO, path, "%s", line.data());
}

constexpr const char* unavailable = "";
// The table below names each operation's function through IOBENCH_STDIO_FD:
// the function here, `not_built` (listed as skipped with `unavailable`) on
// Windows, whose build never sees these names.
#define IOBENCH_STDIO_FD(...) __VA_ARGS__
#else
constexpr const char* unavailable = "POSIX only: not built on Windows";
#define IOBENCH_STDIO_FD(...) ::iobench::not_built
#endif

const MethodRegistrar registrar{{.family = "stdio_fd", .unavailable = unavailable}, {
    {.name = "dprintf",
     .description = "dprintf(fd, format, ...) per item: printf straight to a descriptor, no FILE* buffer",
     .put_ints = IOBENCH_STDIO_FD(print_ints<Dprintf>),
     .put_lines = IOBENCH_STDIO_FD(print_lines<Dprintf>),
     .put_console = IOBENCH_STDIO_FD(dprintf_console),
     .print_console = IOBENCH_STDIO_FD(print_console<Dprintf>)},
    {.name = "snprintf_write",
     .description = "snprintf into a 256-byte local buffer, then one write(2) per item",
     .put_ints = IOBENCH_STDIO_FD(print_ints<SnprintfWrite>),
     .put_lines = IOBENCH_STDIO_FD(print_lines<SnprintfWrite>),
     .print_console = IOBENCH_STDIO_FD(print_console<SnprintfWrite>)},
    {.name = "sprintf_write",
     .description = "sprintf (no size check) into a 256-byte local buffer, then one write(2) per item",
     .put_ints = IOBENCH_STDIO_FD(print_ints<SprintfWrite>),
     .put_lines = IOBENCH_STDIO_FD(print_lines<SprintfWrite>),
     .print_console = IOBENCH_STDIO_FD(print_console<SprintfWrite>)},
}};

}  // namespace
}  // namespace iobench
