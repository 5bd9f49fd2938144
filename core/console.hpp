// The messages of the C console-output benchmark
// (shared/seeds/console-output-benchmark-c-linux.md, strings and printf calls
// as in its source): what the console workloads print and what each method's
// formatted output must be, byte for byte.
#pragma once

#include <cstdint>
#include <string_view>

#include "core/method.hpp"

namespace iobench {

/// The seed's three test strings, as written (13, 62 and 142 bytes). The
/// seed's table headings say 14, 63 and 142 B: its fwrite/write rows passed
/// sizeof, so the short and medium rows also wrote the C string's '\0'.
inline constexpr std::string_view console_short_text = "Hello, C!!!!\n";
inline constexpr std::string_view console_medium_text =
    "Hello, C!!!! This is a medium length string for benchmarking.\n";
inline constexpr std::string_view console_long_text =
    "Hello, C!!!! This is a much longer string that contains more data for testing console output performance "
    "with various methods available in C.\n";

/// The arguments of the formatted messages (the seed's values). Defined in
/// core/workload_console.cpp rather than here, so that no compiler can format
/// them at compile time: every method formats them at run time.
struct ConsoleArgs {
    int int_value;         ///< 12345, "Value: %d\n"
    double float_value;    ///< 123.45, "Value: %.2f\n"
    const char* message;   ///< "Hello", "Message: %s, Count: %d\n"
    int count;             ///< 42
    int value;             ///< 42, "Value: %d, String: %s\n"
    const char* string;    ///< "test"
    int year, month, day;  ///< 2024-01-15, "[%04d-%02d-%02d %02d:%02d:%02d] %s: %d (%.2f%%)\n"
    int hour, minute, second;  ///< 10:30:45 (fixed, so the output can be verified)
    const char* status;    ///< "Status"
    int status_value;      ///< 100
    double percent;        ///< 99.5
};

/// The one instance of the arguments.
extern const ConsoleArgs console_args;

/// The exact text message `format` produces (one line, ending with '\n'):
/// "Value: 12345\n", "Value: 123.45\n", "Message: Hello, Count: 42\n",
/// "Value: 42, String: test\n", "[2024-01-15 10:30:45] Status: 100 (99.50%)\n".
std::string_view console_text(ConsoleFormat format);

/// Short name of a message for workload names: "int", "float", "str_int", "int_str", "datetime".
std::string_view console_format_name(ConsoleFormat format);

/// Calls `print(printf_format, args...)` `count` times with the seed's printf
/// format and arguments of message `format`. `print` is a generic lambda
/// wrapping one printf-family call (printf, fprintf, dprintf, snprintf, ...),
/// inlined into the loop: no indirection per message.
template <class Print>
void for_each_printf(ConsoleFormat format, std::uint64_t count, Print&& print) {
    const ConsoleArgs& a = console_args;
    switch (format) {
    case ConsoleFormat::int_value:
        for (std::uint64_t i = 0; i < count; ++i) print("Value: %d\n", a.int_value);
        break;
    case ConsoleFormat::float_value:
        for (std::uint64_t i = 0; i < count; ++i) print("Value: %.2f\n", a.float_value);
        break;
    case ConsoleFormat::string_int:
        for (std::uint64_t i = 0; i < count; ++i) print("Message: %s, Count: %d\n", a.message, a.count);
        break;
    case ConsoleFormat::int_string:
        for (std::uint64_t i = 0; i < count; ++i) print("Value: %d, String: %s\n", a.value, a.string);
        break;
    case ConsoleFormat::datetime:
        for (std::uint64_t i = 0; i < count; ++i)
            print("[%04d-%02d-%02d %02d:%02d:%02d] %s: %d (%.2f%%)\n", a.year, a.month, a.day, a.hour, a.minute,
                  a.second, a.status, a.status_value, a.percent);
        break;
    }
}

}  // namespace iobench
