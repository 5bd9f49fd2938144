// The print_console operation's messages as a method formats them: the
// printf format and arguments of each ConsoleFormat (the C console-output
// benchmark, the write-up "Console Output Benchmark (C/Linux x64)", docs/results/README.md#sources, strings and
// printf calls as in its source). Part of the method contract
// (iobench/method.hpp); the text each message must produce is the workloads'
// business (workloads/console_messages.hpp).
#pragma once

#include <cstdint>

#include <iobench/method.hpp>

namespace iobench {

/// The arguments of the formatted messages (the seed's values). Defined in
/// workloads/console.cpp rather than here, so that no compiler can format
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
