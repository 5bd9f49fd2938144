// iobench's command line: its own options, parsed by CLI11 in command_line.cpp
// alone (CLI11 is header-only, and its code is most of what compiling a file
// that includes it costs), and Google Benchmark's flags (app/options.hpp).
#pragma once

#include <optional>
#include <string>

#include "app/options.hpp"

namespace iobench {

/// iobench's own options, as given (checked and converted by main.cpp).
struct Options {
    bool list = false;
    std::optional<std::string> list_format;
    std::string suite;
    std::optional<std::string> dir;
    std::optional<std::string> scale;
    bool keep_files = false;
    std::optional<std::string> results_dir;
    std::optional<std::string> stdout_target;
    std::optional<std::string> file_size;
    std::optional<std::string> time_limit;  ///< --time-limit SECONDS (program methods)
    bool no_interleave = false;
    std::string instructions;  ///< --instructions: "perf", "valgrind" or "" (the best there is)
    bool instructions_given = false;  ///< --instructions was given
    std::string plugin;  ///< loaded before parsing (load_plugins); here for --help and its checks
    /// --baseline-method METHOD[,METHOD...], given once or more: each value as given.
    std::vector<std::string> baseline_method;
    /// --latency-clock NAME: the clock the per-call rows read (core/measure/latency.hpp's ClockKind names).
    std::optional<std::string> latency_clock;
    /// --cpus LIST: the CPUs the run and its threads are pinned to (parse_cpu_list).
    std::optional<std::string> cpus;
};

/// The command line, parsed: iobench's own options and Google Benchmark's flags.
struct CommandLine {
    Options opt;
    HarnessFlags harness;
};

/// Parses the command line into `cl`: the --benchmark_* flags checked
/// (check_harness_flags), the rest by CLI11. Returns the help text when
/// --help was asked for (print it, exit 0), std::nullopt to go on. Throws
/// usage_error for a bad option or value.
std::optional<std::string> parse_command_line(int argc, char** argv, CommandLine& cl);

}  // namespace iobench
