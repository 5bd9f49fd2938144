// The plan of a run: what the command line and the suite decide before
// anything is written (the suite and its cases, the repetitions and the
// stopping rule, the results' target, every value checked).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "app/command_line.hpp"
#include "core/engine/session.hpp"
#include "core/engine/suite.hpp"
#include "core/measure/latency.hpp"
#include "core/measure/stopping_rule.hpp"
#include "core/os/instructions.hpp"

namespace iobench::app {

/// Google Benchmark's own default --benchmark_min_time, in seconds.
inline constexpr double default_min_time = 0.5;

/// What a run will do, decided from the command line and the suite before
/// anything is written.
struct Plan {
    iobench::Suite suite;
    std::vector<int> cpus;  ///< --cpus: the CPUs to pin the run to (none: not pinned)
    std::vector<iobench::Case> cases;      ///< the suite's cases the filter selects
    std::vector<iobench::Skipped> skipped;  ///< likewise, the pairs not built here
    bool interleave = true;
    iobench::StdoutTarget stdout_target = iobench::StdoutTarget::devnull;
    double scale = 1;
    std::uint64_t file_size = 0;  ///< --file-size in bytes; 0: the default
    double time_limit = iobench::Session::default_time_limit;  ///< --time-limit, seconds
    std::filesystem::path results_target;      ///< empty: no results file
    int repetitions = 1;  ///< the most, with a stopping rule
    /// The suite's stopping rule, where it can end a benchmark before
    /// `repetitions` (StoppingRule, can_stop_early); unset otherwise.
    std::optional<iobench::StoppingRule> stopping_rule;
    double min_time = default_min_time;  ///< seconds
    /// --instructions: the source asked for (none: the best there is); unset without it.
    std::optional<iobench::InstructionSource> instructions;
    /// The program methods' files with their owners, "method: files; ...",
    /// checked (check_program); "" when no program method runs.
    std::string programs;
    /// --baseline-method's methods, in order; each is a method of some case.
    std::vector<std::string> baseline_methods;
    /// --latency-clock: the clock the per-call rows read; unset: the one measured best at start.
    std::optional<iobench::ClockKind> latency_clock;
};

/// Decides the run from `cl` into `plan`: the suite (`absent`: why each of
/// its plugins is not loaded, which lists their methods' cases as skipped),
/// the cases, every value checked. Returns the exit status when the command
/// is done already (--list printed), std::nullopt to go on. Throws
/// usage_error.
std::optional<int> make_plan(const CommandLine& cl, const AbsentPlugins& absent, Plan& plan);

}  // namespace iobench::app
