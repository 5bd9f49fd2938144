// The distribution-free confidence interval of a median: the one computation
// behind the summary's "95% CI" column, the results file's median_ci_low and
// median_ci_high (core/report/) and a suite's stopping rule (core/measure/stopping_rule.hpp).
#pragma once

namespace iobench {

/// The distribution-free confidence interval of the median of `n` samples:
/// the largest k such that [x_(k), x_(n+1-k)] (1-based order statistics)
/// covers the median with probability >= `level`, from the binomial(n, 1/2)
/// distribution (e.g. W. J. Conover, Practical Nonparametric Statistics,
/// 3rd ed., 1999, section 3.2). Returns k, or 0 when even [x_(1), x_(n)] falls
/// short of `level` (n < 6 for 95 %). `coverage` receives the interval's
/// exact coverage when k > 0.
int median_interval_rank(int n, double level, double* coverage = nullptr);

/// The level of the interval of the median that iobench computes: 95 %
/// (report_rules::confidence, which the summary flags by, is the same).
inline constexpr double median_interval_level = 0.95;

/// The fewest samples with a median_interval_level interval of the median:
/// the smallest n with median_interval_rank(n, 0.95) > 0, 6 ([x_(1), x_(6)]
/// covers the median with probability 1 - 2/64 = 96.9 %; five samples' widest
/// interval only 93.75 %).
inline constexpr int min_samples_for_median_interval = 6;

}  // namespace iobench
