// stdio_fd: printf formatting written straight to a file descriptor, with no
// FILE* buffer in between: dprintf(fd, ...), and snprintf/sprintf into a local
// buffer followed by one write(2) -- the console benchmark's "pre-format, then
// syscall" rows and, for lines, the Go experiment's unbuffered
// Sprintf + f.Write. One system call per item. POSIX (dprintf, write).
#include <cstdio>
#include <string>

#include "core/console_format.hpp"
#include "core/method.hpp"

#ifndef _WIN32
#include "methods/posix_file.hpp"
#endif

namespace iobench {
namespace {

#ifndef _WIN32

/// Formatted text longer than this is a bug in the caller (lines are < 100 bytes).
constexpr std::size_t line_buffer_size = 256;

/// A printf format for `line`: prefix, "%llu", suffix (which hold no '%').
std::string line_format(const NumberedLine& line) {
    return std::string(line.prefix) + "%llu" + std::string(line.suffix);
}

/// Throws `io_error` for a failed dprintf (negative result).
void check_dprintf(int result, const std::string& path) {
    if (result < 0) throw_errno("dprintf", path);
}

/// Writes the `n` bytes snprintf/sprintf put in `buf` to `fd`.
void write_formatted(int fd, const char* buf, int n, const std::string& path) {
    if (n < 0 || static_cast<std::size_t>(n) >= line_buffer_size)
        throw io_error("snprintf", path, std::make_error_code(std::errc::value_too_large));
    write_all(fd, buf, static_cast<std::size_t>(n), path);
}

void dprintf_ints(const Sink& sink, std::uint64_t count) {
    unique_fd fd = create_file(sink.path);
    for (std::uint64_t i = 0; i < count; ++i)
        check_dprintf(::dprintf(fd.get(), "%llu\n", static_cast<unsigned long long>(i)), sink.path);
    fd.close();
}

void dprintf_lines(const Sink& sink, const NumberedLine& line, std::uint64_t count) {
    unique_fd fd = create_file(sink.path);
    const std::string format = line_format(line);
    for (std::uint64_t i = 0; i < count; ++i)
        check_dprintf(::dprintf(fd.get(), format.c_str(), static_cast<unsigned long long>(i)), sink.path);
    fd.close();
}

void dprintf_console(const StdoutSink&, std::string_view line, std::uint64_t count) {
    for (std::uint64_t i = 0; i < count; ++i) check_dprintf(::dprintf(STDOUT_FILENO, "%s", line.data()), "stdout");
}

void dprintf_print(const StdoutSink&, ConsoleFormat format, std::uint64_t count) {
    for_each_printf(format, count,
                    [](const char* f, auto... args) { check_dprintf(::dprintf(STDOUT_FILENO, f, args...), "stdout"); });
}

void snprintf_write_ints(const Sink& sink, std::uint64_t count) {
    unique_fd fd = create_file(sink.path);
    char buf[line_buffer_size];
    for (std::uint64_t i = 0; i < count; ++i)
        write_formatted(fd.get(), buf, std::snprintf(buf, sizeof buf, "%llu\n", static_cast<unsigned long long>(i)),
                        sink.path);
    fd.close();
}

void snprintf_write_lines(const Sink& sink, const NumberedLine& line, std::uint64_t count) {
    unique_fd fd = create_file(sink.path);
    const std::string format = line_format(line);
    char buf[line_buffer_size];
    for (std::uint64_t i = 0; i < count; ++i)
        write_formatted(fd.get(), buf,
                        std::snprintf(buf, sizeof buf, format.c_str(), static_cast<unsigned long long>(i)), sink.path);
    fd.close();
}

void snprintf_write_print(const StdoutSink&, ConsoleFormat format, std::uint64_t count) {
    char buf[line_buffer_size];
    for_each_printf(format, count, [&buf](const char* f, auto... args) {
        write_formatted(STDOUT_FILENO, buf, std::snprintf(buf, sizeof buf, f, args...), "stdout");
    });
}

void sprintf_write_ints(const Sink& sink, std::uint64_t count) {
    unique_fd fd = create_file(sink.path);
    char buf[line_buffer_size];
    for (std::uint64_t i = 0; i < count; ++i)
        write_formatted(fd.get(), buf, std::sprintf(buf, "%llu\n", static_cast<unsigned long long>(i)), sink.path);
    fd.close();
}

void sprintf_write_lines(const Sink& sink, const NumberedLine& line, std::uint64_t count) {
    unique_fd fd = create_file(sink.path);
    const std::string format = line_format(line);
    char buf[line_buffer_size];
    for (std::uint64_t i = 0; i < count; ++i)
        write_formatted(fd.get(), buf, std::sprintf(buf, format.c_str(), static_cast<unsigned long long>(i)),
                        sink.path);
    fd.close();
}

void sprintf_write_print(const StdoutSink&, ConsoleFormat format, std::uint64_t count) {
    char buf[line_buffer_size];
    for_each_printf(format, count, [&buf](const char* f, auto... args) {
        write_formatted(STDOUT_FILENO, buf, std::sprintf(buf, f, args...), "stdout");
    });
}

constexpr const char* unavailable = "";

#else  // _WIN32: the same names, listed as skipped.

constexpr const char* unavailable = "POSIX only: not built on Windows";
constexpr NotBuilt dprintf_ints = not_built;
constexpr NotBuilt dprintf_lines = not_built;
constexpr NotBuilt dprintf_console = not_built;
constexpr NotBuilt dprintf_print = not_built;
constexpr NotBuilt snprintf_write_ints = not_built;
constexpr NotBuilt snprintf_write_lines = not_built;
constexpr NotBuilt snprintf_write_print = not_built;
constexpr NotBuilt sprintf_write_ints = not_built;
constexpr NotBuilt sprintf_write_lines = not_built;
constexpr NotBuilt sprintf_write_print = not_built;

#endif

const MethodRegistrar registrar{{.family = "stdio_fd", .unavailable = unavailable}, {
    {.name = "dprintf",
     .description = "dprintf(fd, format, ...) per item: printf straight to a descriptor, no FILE* buffer",
     .put_ints = dprintf_ints,
     .put_lines = dprintf_lines,
     .put_console = dprintf_console,
     .print_console = dprintf_print},
    {.name = "snprintf_write",
     .description = "snprintf into a 256-byte local buffer, then one write(2) per item",
     .put_ints = snprintf_write_ints,
     .put_lines = snprintf_write_lines,
     .print_console = snprintf_write_print},
    {.name = "sprintf_write",
     .description = "sprintf (no size check) into a 256-byte local buffer, then one write(2) per item",
     .put_ints = sprintf_write_ints,
     .put_lines = sprintf_write_lines,
     .print_console = sprintf_write_print},
}};

}  // namespace
}  // namespace iobench
