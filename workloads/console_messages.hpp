// The text the console workloads print and check, byte for byte: the C
// console-output benchmark's strings (the write-up "Console Output Benchmark (C/Linux x64)", docs/results/README.md#sources)
// and the exact output of each formatted message (iobench/console_format.hpp).
#pragma once

#include <string_view>

#include <iobench/method.hpp>

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

/// The exact text message `format` produces (one line, ending with '\n'):
/// "Value: 12345\n", "Value: 123.45\n", "Message: Hello, Count: 42\n",
/// "Value: 42, String: test\n", "[2024-01-15 10:30:45] Status: 100 (99.50%)\n".
std::string_view console_text(ConsoleFormat format);

/// Short name of a message for workload names: "int", "float", "str_int", "int_str", "datetime".
std::string_view console_format_name(ConsoleFormat format);

}  // namespace iobench
