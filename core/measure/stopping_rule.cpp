#include "core/measure/stopping_rule.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace iobench {

std::optional<double> relative_median_interval(std::span<const double> times) {
    const int n = static_cast<int>(times.size());
    const int k = median_interval_rank(n, median_interval_level);
    if (n < min_samples_for_median_interval || k == 0) return std::nullopt;
    std::vector<double> sorted(times.begin(), times.end());
    std::sort(sorted.begin(), sorted.end());
    const auto at = [&](int i) { return sorted[static_cast<std::size_t>(i)]; };
    const double median = n % 2 ? at(n / 2) : (at(n / 2 - 1) + at(n / 2)) / 2;
    if (!(median > 0)) return std::nullopt;
    const double half = std::max(median - at(k - 1), at(n - k) - median);
    return half / median;
}

bool interval_is_tight(std::span<const double> times, const StoppingRule& rule) {
    if (static_cast<int>(times.size()) < rule.min_repetitions) return false;
    const std::optional<double> interval = relative_median_interval(times);
    return interval && *interval <= rule.target_interval;
}

StopReason stop_reason(std::span<const double> times, double seconds, const StoppingRule& rule) {
    if (interval_is_tight(times, rule)) return StopReason::interval;
    if (rule.budget_seconds > 0 && static_cast<int>(times.size()) >= rule.min_repetitions &&
        seconds >= rule.budget_seconds)
        return StopReason::budget;
    return StopReason::none;
}

std::string describe(const StoppingRule& rule, int max_repetitions) {
    std::string text = fmt::format("at least {} and at most {} repetitions; a benchmark stops once the {:g} % "
                                   "interval of its median is within ±{:.4g} % of the median",
                                   rule.min_repetitions, max_repetitions, 100 * median_interval_level,
                                   100 * rule.target_interval);
    if (rule.budget_seconds > 0)
        text += fmt::format(", or once its repetitions have taken {:g} s (wall time, with their resets and "
                            "verification)",
                            rule.budget_seconds);
    return text;
}

}  // namespace iobench
