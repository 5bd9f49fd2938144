// A suite's stopping rule: a benchmark runs no more repetitions once the
// interval of its median is tight, or its time budget is spent, between a
// fewest and a most repetitions (the adaptive stopping of pyperf's and
// nanobench's runs, with iobench's distribution-free interval of the median
// as the criterion).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/measure/median_interval.hpp"

namespace iobench {

/// A suite's rule for ending a benchmark's repetitions before the most it
/// may run (the suite's "repetitions", or --benchmark_repetitions): once it
/// has run `min_repetitions` or more, and the 95 % distribution-free interval
/// of the median of their times per run (median_interval_rank, as the
/// summary's "95% CI" column) lies within ±`target_interval` of that median,
/// it runs no more; nor, with a time budget, once those repetitions have
/// taken `budget_seconds` of wall time. A suite declares it with
/// "min_repetitions", "target_interval" and, optionally, "budget_seconds"
/// (core/engine/suite.cpp checks them).
struct StoppingRule {
    /// Repetitions a benchmark runs before the rule may end it: at least
    /// min_samples_for_median_interval (6), the fewest with a 95 % interval.
    int min_repetitions = min_samples_for_median_interval;
    /// The widest interval that ends a benchmark, as a fraction of its
    /// median: half-width / median <= target_interval (0.02: ±2 %); > 0 and < 1.
    double target_interval = 0;
    /// The time budget, in seconds of wall time (each verified repetition's
    /// reset, runs and verification): a benchmark whose verified repetitions
    /// have taken this long runs no more once it has run min_repetitions,
    /// tight or not (a suite's "budget_seconds"); 0: no budget, only the
    /// interval ends it. Not applied with --instructions (app/plan.cpp).
    double budget_seconds = 0;
};

/// Why a benchmark runs no more repetitions (stop_reason).
enum class StopReason {
    none,      ///< it goes on
    interval,  ///< its interval is tight (interval_is_tight)
    budget,    ///< its interval is not, but its time budget is spent
};

/// The half-width of the 95 % distribution-free interval of the median of
/// `times` (times per run of a benchmark's repetitions, in any one unit, any
/// order), as a fraction of that median: max(median - x_(k), x_(n+1-k) -
/// median) / median with k = median_interval_rank(n, 0.95) and the median
/// as Google Benchmark computes its median aggregate (the mean of the middle
/// two of an even count). std::nullopt with fewer than
/// min_samples_for_median_interval times or a median that is not > 0.
std::optional<double> relative_median_interval(std::span<const double> times);

/// True when a benchmark whose repetitions took `times` per run needs no
/// more under `rule`: there are at least rule.min_repetitions of them and
/// relative_median_interval(times) <= rule.target_interval. The bound on
/// repetitions is Google Benchmark's: the caller never asks past it.
bool interval_is_tight(std::span<const double> times, const StoppingRule& rule);

/// Whether `rule` ends a benchmark whose repetitions took `times` per run
/// and `seconds` of wall time in all: StopReason::interval when
/// interval_is_tight(times, rule); else StopReason::budget when it has run
/// rule.min_repetitions or more and rule.budget_seconds > 0 and `seconds`
/// >= rule.budget_seconds; else StopReason::none.
StopReason stop_reason(std::span<const double> times, double seconds, const StoppingRule& rule);

/// The rule in words, as the results file's context key "stopping_rule"
/// says it: "at least 6 and at most 9 repetitions; a benchmark stops once
/// the 95 % interval of its median is within ±2 % of the median", and with a
/// budget ", or once its repetitions have taken 60 s (wall time, with their
/// resets and verification)".
std::string describe(const StoppingRule& rule, int max_repetitions);

/// True when `rule` can end a benchmark run `max_repetitions` times before
/// the last: max_repetitions > rule.min_repetitions. (With fewer, e.g.
/// --benchmark_repetitions=3 or --instructions' single repetition, the rule
/// has nothing to stop and the run does not claim it.)
inline bool can_stop_early(const StoppingRule& rule, int max_repetitions) {
    return max_repetitions > rule.min_repetitions;
}

/// Google Benchmark's error message for a repetition that was not run
/// because its benchmark had met the stopping rule: Google Benchmark 1.7
/// calls every repetition it was given (interleaved at random), so the runner
/// returns at once from those, with this error. Such rows are no results and
/// no failure: the reporters drop them before anything is computed or
/// written (core/report/report.hpp, TeeReporter).
inline constexpr std::string_view not_run_message =
    "not run: the benchmark had met the suite's stopping rule (its interval was tight, or its time budget spent)";

}  // namespace iobench
