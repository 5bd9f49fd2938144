// console_*: the C console-output benchmark
// (the write-up "Console Output Benchmark (C/Linux x64)", docs/results/README.md#sources): 10,000 messages (the
// seed's ITERATIONS) written to standard output, which points at the run's
// target (--stdout-target: /dev/null as in the seed, a file, or a pipe). Each
// measured call runs in a child process (workloads/console_trial.cpp).
#include <fmt/format.h>

#include <memory>
#include <string>

#include "core/engine/session.hpp"
#include "core/engine/workload.hpp"
#include "workloads/console_messages.hpp"
#include "workloads/console_trial.hpp"

namespace iobench {

std::string_view console_text(ConsoleFormat format) {
    switch (format) {
    case ConsoleFormat::int_value: return "Value: 12345\n";
    case ConsoleFormat::float_value: return "Value: 123.45\n";
    case ConsoleFormat::string_int: return "Message: Hello, Count: 42\n";
    case ConsoleFormat::int_string: return "Value: 42, String: test\n";
    case ConsoleFormat::datetime: return "[2024-01-15 10:30:45] Status: 100 (99.50%)\n";
    }
    return "";
}

std::string_view console_format_name(ConsoleFormat format) {
    switch (format) {
    case ConsoleFormat::int_value: return "int";
    case ConsoleFormat::float_value: return "float";
    case ConsoleFormat::string_int: return "str_int";
    case ConsoleFormat::int_string: return "int_str";
    case ConsoleFormat::datetime: return "datetime";
    }
    return "";
}

namespace {

constexpr std::uint64_t published_count = 10'000;

/// console_short, console_medium, console_long: a line of text.
class ConsoleText final : public Workload {
public:
    ConsoleText(std::string name, std::string description, std::string_view line)
        : Workload({.name = std::move(name),
                    .description = std::move(description),
                    .operation = Operation::put_console,
                    .item_unit = "message",
                    .default_count = published_count,
                    .axes = {.stdout_target = true}}),
          line_(line) {}

protected:
    std::unique_ptr<Trial> make_method_trial(const Method& m, const Params& p, Session& s) const override {
        return make_console_trial(s, m, p, name(), ConsoleMessage{m.put_console, nullptr, line_, ConsoleFormat::int_value},
                                  count(s));
    }

private:
    std::string_view line_;
};

/// console_int, console_float, console_str_int, console_int_str, console_datetime: a formatted message.
class ConsoleFormatted final : public Workload {
public:
    explicit ConsoleFormatted(ConsoleFormat format)
        : Workload({.name = fmt::format("console_{}", console_format_name(format)),
                    .description = fmt::format("print \"{}\\n\" to stdout N times (N = 10,000)",
                                               console_text(format).substr(0, console_text(format).size() - 1)),
                    .operation = Operation::print_console,
                    .item_unit = "message",
                    .default_count = published_count,
                    .axes = {.stdout_target = true}}),
          format_(format) {}

protected:
    std::unique_ptr<Trial> make_method_trial(const Method& m, const Params& p, Session& s) const override {
        return make_console_trial(s, m, p, name(),
                                  ConsoleMessage{nullptr, m.print_console, console_text(format_), format_}, count(s));
    }

private:
    ConsoleFormat format_;
};

[[maybe_unused]] const bool registered = [] {
    register_workload(std::make_unique<ConsoleText>(
        "console_short", "write \"Hello, C!!!!\\n\" (13 bytes) to stdout N times (N = 10,000)", console_short_text));
    register_workload(std::make_unique<ConsoleText>(
        "console_medium", "write the seed's medium string (62 bytes) to stdout N times (N = 10,000)",
        console_medium_text));
    register_workload(std::make_unique<ConsoleText>(
        "console_long", "write the seed's long string (142 bytes) to stdout N times (N = 10,000)", console_long_text));
    for (ConsoleFormat f : {ConsoleFormat::int_value, ConsoleFormat::float_value, ConsoleFormat::string_int,
                            ConsoleFormat::int_string, ConsoleFormat::datetime})
        register_workload(std::make_unique<ConsoleFormatted>(f));
    return true;
}();

}  // namespace
}  // namespace iobench
