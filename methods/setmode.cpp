// setmode: standard output in a translation mode of the Microsoft C runtime,
// set with _setmode(_fileno(stdout), mode) as a Windows program does before it
// prints. iobench's console child runs every other method with stdout in
// _O_BINARY ('\n' written as it is, the same bytes as on POSIX); these show
// what the runtime's text modes cost:
//  - _O_TEXT, the mode a Windows program's stdout starts in: the runtime
//    writes every '\n' as "\r\n";
//  - _O_U8TEXT, for Unicode output through the wide calls (wprintf): UTF-16
//    text converted to UTF-8, every '\n' written as "\r\n" too (narrow calls
//    such as printf are refused in it).
// The console harness reads the mode back after the call and checks the
// output with "\r\n" line ends (workloads/console_child.hpp: LineEnds).
// stdout keeps the buffer the harness leaves it (the runtime's 4,096 bytes
// for a file or a pipe, its buffering per call for NUL): the mode is what
// these rows vary, so their buffer is not sized. (Wine's msvcrt.dll refuses
// an odd-sized buffer in _O_U8TEXT: fflush fails with EINVAL.)
// Windows only: listed elsewhere, skipped with the reason.
#include <string>

#include <iobench/method.hpp>

#ifdef _WIN32
#include <fcntl.h>
#include <io.h>
#include <windows.h>

#include <cstdio>
#include <cwchar>

#include <iobench/console_format.hpp>
#include <iobench/error.hpp>
#include "methods/stdio_stream.hpp"  // flush_stdout
#endif

namespace iobench {
namespace {

#ifdef _WIN32
constexpr const char* unavailable = "";

/// Puts stdout's descriptor in `Mode` (_O_TEXT, _O_U8TEXT), as a Windows
/// program does with _setmode(_fileno(stdout), Mode). Throws `io_error`.
template <int Mode>
void set_stdout_mode() {
    if (_setmode(_fileno(stdout), Mode) == -1) throw_errno("_setmode", "stdout");
}

/// `text` (UTF-8) as UTF-16, as a program's wide literal holds it. Throws `io_error`.
std::wstring wide(std::string_view text) {
    if (text.empty()) return {};
    const int n = MultiByteToWideChar(CP_UTF8, 0, text.data(), static_cast<int>(text.size()), nullptr, 0);
    if (n <= 0)
        throw io_error("MultiByteToWideChar", "stdout",
                       std::error_code(static_cast<int>(GetLastError()), std::system_category()));
    std::wstring out(static_cast<std::size_t>(n), L'\0');
    MultiByteToWideChar(CP_UTF8, 0, text.data(), static_cast<int>(text.size()), out.data(), n);
    return out;
}

/// printf("%s", line) in _O_TEXT.
void printf_text_console(const StdoutSink&, std::string_view line, std::uint64_t count) {
    set_stdout_mode<_O_TEXT>();
    for (std::uint64_t i = 0; i < count; ++i) std::printf("%s", line.data());
    flush_stdout();
}

/// printf(format, args...) in _O_TEXT.
void printf_text_print(const StdoutSink&, ConsoleFormat format, std::uint64_t count) {
    set_stdout_mode<_O_TEXT>();
    for_each_printf(format, count, [](const char* f, auto... args) { std::printf(f, args...); });
    flush_stdout();
}

/// wprintf(L"%ls", line) in _O_U8TEXT, the line converted to UTF-16 once.
void wprintf_u8text_console(const StdoutSink&, std::string_view line, std::uint64_t count) {
    set_stdout_mode<_O_U8TEXT>();
    const std::wstring text = wide(line);
    for (std::uint64_t i = 0; i < count; ++i) std::wprintf(L"%ls", text.c_str());
    flush_stdout();
}

/// The formatted messages with wprintf in _O_U8TEXT: the seed's formats as
/// wide strings, its string arguments converted to UTF-16 once (%ls).
void wprintf_u8text_print(const StdoutSink&, ConsoleFormat format, std::uint64_t count) {
    set_stdout_mode<_O_U8TEXT>();
    const ConsoleArgs& a = console_args;
    const std::wstring message = wide(a.message), string = wide(a.string), status = wide(a.status);
    switch (format) {
    case ConsoleFormat::int_value:
        for (std::uint64_t i = 0; i < count; ++i) std::wprintf(L"Value: %d\n", a.int_value);
        break;
    case ConsoleFormat::float_value:
        for (std::uint64_t i = 0; i < count; ++i) std::wprintf(L"Value: %.2f\n", a.float_value);
        break;
    case ConsoleFormat::string_int:
        for (std::uint64_t i = 0; i < count; ++i) std::wprintf(L"Message: %ls, Count: %d\n", message.c_str(), a.count);
        break;
    case ConsoleFormat::int_string:
        for (std::uint64_t i = 0; i < count; ++i) std::wprintf(L"Value: %d, String: %ls\n", a.value, string.c_str());
        break;
    case ConsoleFormat::datetime:
        for (std::uint64_t i = 0; i < count; ++i)
            std::wprintf(L"[%04d-%02d-%02d %02d:%02d:%02d] %ls: %d (%.2f%%)\n", a.year, a.month, a.day, a.hour,
                         a.minute, a.second, status.c_str(), a.status_value, a.percent);
        break;
    }
    flush_stdout();
}

#define IOBENCH_SETMODE(fn) fn
#else
constexpr const char* unavailable = "Windows only: _setmode is the Microsoft C runtime's";
#define IOBENCH_SETMODE(fn) ::iobench::not_built
#endif

const MethodRegistrar registrar{{.family = "setmode", .unavailable = unavailable}, {
    {.name = "printf_O_TEXT",
     .description = "printf(\"%s\", line) / printf(format, args...) after _setmode(_fileno(stdout), _O_TEXT), the "
                    "mode a Windows program's stdout starts in: every '\\n' written as \"\\r\\n\"",
     .put_console = IOBENCH_SETMODE(printf_text_console),
     .print_console = IOBENCH_SETMODE(printf_text_print)},
    {.name = "wprintf_O_U8TEXT",
     .description = "wprintf(L\"%ls\", line) / wprintf(L\"...\", args...) after _setmode(_fileno(stdout), "
                    "_O_U8TEXT): UTF-16 text written as UTF-8, every '\\n' as \"\\r\\n\"",
     .put_console = IOBENCH_SETMODE(wprintf_u8text_console),
     .print_console = IOBENCH_SETMODE(wprintf_u8text_print)},
}};

}  // namespace
}  // namespace iobench
