// The rules by which the console summary flags and explains a row: one
// value each, the same as iobench-compare's (tools/iobench_compare/rules.py)
// and the README's legend; all three are tested against
// tests/data/report_rules.json, which says what each rule means.
#pragma once

#include "core/measure/median_interval.hpp"

namespace iobench::report_rules {

/// A cv (standard deviation / mean of the repetitions' times) at or above
/// this fraction marks the row with "!" (5 %).
inline constexpr double cv_flag = 0.05;

/// A 95 % interval of the median whose half-width is more than this
/// fraction of the median marks the row with "!" (±5 %).
inline constexpr double interval_flag = 0.05;

/// The level of the distribution-free interval of the median (order
/// statistics: median_interval_rank).
inline constexpr double confidence = 0.95;

/// The fewest repetitions with a 95 % interval of the median (below it the
/// column shows "-"): the smallest n with median_interval_rank(n, 0.95) > 0.
inline constexpr int min_repetitions_for_interval = 6;

// The engine computes the same interval for a suite's stopping rule
// (core/measure/stopping_rule.hpp): one level, one fewest count.
static_assert(confidence == median_interval_level);
static_assert(min_repetitions_for_interval == min_samples_for_median_interval);

/// Stolen time (steal_time) or time waiting for a CPU (cpu_wait) of at least
/// this fraction of a run's wall time, beside a flagged spread, names the
/// host or other work as its cause (1 %).
inline constexpr double interference_share = 0.01;

/// Below this many seconds of measured time in a repetition's runs the sys
/// share is left out: the kernel splits CPU time into user and system by
/// scheduler ticks of 1-10 ms (50 ms).
inline constexpr double min_seconds_for_cpu_share = 0.05;

/// A repetition that spent more than this share of the median run's wall
/// time, and more than stopped_min_seconds, longer off a CPU than the
/// repetitions' median did is named as stopped or blocked.
inline constexpr double stopped_share = 0.5;

/// See stopped_share: 5 ms.
inline constexpr double stopped_min_seconds = 0.005;

/// A repetition whose time waiting for a CPU (cpu_wait, the machine's: any
/// task's) and stolen by the host add up to more than this share of its wall
/// time has no time off a CPU that can be told: on a busy machine the
/// machine's waiting is not this process's, and wall - CPU - waiting can even
/// go below 0. Such repetitions are left out of the stopped-or-blocked note
/// (absent rather than wrong).
inline constexpr double stopped_max_wait_share = 0.25;

}  // namespace iobench::report_rules
