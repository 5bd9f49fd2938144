// Checks of the command line that need no CLI parser: sizes, the scale
// against the selected workloads' counts, and Google Benchmark's own flags,
// which iobench validates itself so that a bad value is one line naming the
// flag and exit status 2 (Google Benchmark 1.7.1 accepts some and runs
// nothing, or aborts).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/engine/suite.hpp"
#include "core/os/usage_error.hpp"

namespace iobench {

/// Largest accepted number of repetitions (`--benchmark_repetitions`, a
/// suite's "repetitions"): each one reruns every benchmark and Google
/// Benchmark keeps every run in memory.
inline constexpr int max_repetitions = max_suite_repetitions;

/// Largest accepted `--benchmark_min_time` (and a suite's "min_time") in
/// seconds: one day.
inline constexpr double max_min_time = max_suite_min_time;

/// Largest scaled count of items (or bytes, for a sized input): 2^53, the largest
/// integer a double holds exactly.
inline constexpr double max_scaled_count = 9007199254740992.0;

/// Parses a size in bytes: a number with an optional binary suffix K, M, G or
/// T (also KiB, MiB, ...; 1K = 1024), e.g. "4096", "512M", "12.85G" (rounded
/// to whole bytes), from 1 byte to 2^62; decimal only ("0x1p30" is refused).
/// Throws usage_error naming `option`.
std::uint64_t parse_size(const std::string& text, const char* option);

/// Parses the value of `--scale`: a decimal number, the whole text ("0.01",
/// "1e-3"; not "", "0x10" or " 1"). Throws usage_error naming the text;
/// check_scale() then checks the range.
double parse_scale(const std::string& text);

/// Largest accepted `--time-limit` in seconds: one day.
inline constexpr double max_time_limit = 86400;

/// Parses the value of `--time-limit`: seconds a program method's process may
/// take to start or to answer one run (docs/external-methods.md), a decimal
/// number > 0 and at most max_time_limit. Throws usage_error naming the text.
double parse_time_limit(const std::string& text);

/// The largest CPU number `--cpus` takes (Linux's CPU_SETSIZE - 1).
inline constexpr int max_cpu_number = 1023;

/// Parses the value of `--cpus`: CPU numbers and ranges, comma-separated
/// ("0", "0,1", "0-3", "0-1,6"), as taskset's --cpu-list and fio's
/// cpus_allowed take them; returns them sorted, each once. Throws usage_error
/// naming the text for anything else (an empty item, a letter, a range whose
/// end is below its start, a number above max_cpu_number).
std::vector<int> parse_cpu_list(const std::string& text);

/// What `--list` prints, chosen with `--format`.
enum class ListFormat {
    names,     ///< "names": the suite's benchmark names, one per line (skipped pairs as "# NAME: skipped, REASON")
    markdown,  ///< "md": every registered method as a Markdown table (docs/methods.md)
};

/// Parses the value of `--format`: "names" or "md". Throws usage_error naming
/// the value and the accepted ones.
ListFormat parse_list_format(const std::string& text);

/// The Google Benchmark flags of a command line, checked.
struct HarnessFlags {
    /// Flags handed to Google Benchmark as given (after iobench's own defaults).
    std::vector<std::string> pass;
    /// --benchmark_filter (applied by iobench to its own names); "" = all.
    std::string filter;
    /// --benchmark_out=FILE: written by iobench, never given to Google Benchmark.
    std::optional<std::string> out_file;
    /// --benchmark_enable_random_interleaving, when given.
    std::optional<bool> interleave;
    /// --benchmark_repetitions, when given (1..max_repetitions).
    std::optional<int> repetitions;
    /// --benchmark_min_time in seconds, when given (0 < t <= max_min_time).
    std::optional<double> min_time;
    /// --benchmark_min_warmup_time in seconds, when given (0 <= t <= max_min_time).
    std::optional<double> min_warmup_time;
    /// --benchmark_display_aggregates_only (default false: the console
    /// reporter gets every repetition, from which its summary computes the
    /// median's confidence interval; it prints no per-repetition table; the
    /// results file always has every run).
    bool display_aggregates_only = false;
    /// --benchmark_report_aggregates_only (default false): the console and
    /// the results file get the aggregates only (applied by iobench's
    /// reporter, TeeReporter, never given to Google Benchmark).
    bool report_aggregates_only = false;
    /// --benchmark_context=KEY=VALUE[,KEY=VALUE...]: the user's keys, in
    /// the given order, added to the results file's context.
    std::vector<std::pair<std::string, std::string>> context;
};

/// Every key the results file's context can have without the user's
/// (Google Benchmark's, then iobench's: the context_keys of
/// tools/iobench_compare/spec/results_format.json, from which the build
/// generates the list): a --benchmark_context key may be none of them.
std::span<const std::string_view> reserved_context_keys();

/// One `--benchmark_*` flag iobench accepts (harness_flag_specs()): the
/// one place its value's check, what iobench keeps of it and its --help line
/// are written.
struct HarnessFlagSpec {
    std::string_view name;    ///< "--benchmark_repetitions"
    std::string_view syntax;  ///< what follows "=" ("N", "SECONDS", "true|false"); "" when it takes nothing
    std::string_view help;    ///< its --help line; "" for a flag accepted but not listed
    /// Checks the value (std::nullopt: given without "="), keeps what iobench
    /// uses in `flags`, returns true when Google Benchmark gets the flag too.
    /// Throws (an internal type) with what the flag accepts.
    bool (*apply)(const std::optional<std::string>& value, HarnessFlags& flags);
};

/// Every `--benchmark_*` flag iobench accepts, in --help's order.
std::span<const HarnessFlagSpec> harness_flag_specs();

/// The --help lines of the listed flags, generated from harness_flag_specs().
std::string harness_flags_help();

/// Checks every `--benchmark_*` argument: known flag, a value of the right
/// type and range (repetitions 1..max_repetitions, min_time > 0 seconds,
/// out_format json, format console, time_unit ms, booleans true/false).
/// `--benchmark_list_tests` is refused (iobench has --list). Throws
/// usage_error naming the flag and what it accepts.
HarnessFlags check_harness_flags(const std::vector<std::string>& args);

/// Checks `scale` against the counts of `cases` (Workload::default_count, a
/// sized input's too unless `explicit_file_size`: --file-size sets it): it must be finite and
/// > 0, no count may round to 0 items and none may exceed max_scaled_count,
/// or its workload's own bound (WorkloadSpec::max_count: 100M lines for a
/// workload of lines from outside).
/// `origin` names where the scale came from ("--scale", "suite quick: scale").
/// Throws usage_error with the workload and the accepted range.
void check_scale(double scale, const std::string& origin, const std::vector<Case>& cases, bool explicit_file_size);

}  // namespace iobench
