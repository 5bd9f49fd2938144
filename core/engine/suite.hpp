// Suites: named selections of workloads x methods x parameters, read from JSON
// (suites/*.json are compiled into the binary; a path to any other file works too).
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <iobench/method.hpp>
#include "core/engine/session.hpp"
#include "core/engine/workload.hpp"
#include "core/measure/stopping_rule.hpp"

namespace iobench {

/// A suite file that cannot be read or does not describe a valid suite.
class suite_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// One benchmark: a workload run by a method with its parameters.
struct Case {
    const Workload* workload = nullptr;
    const Method* method = nullptr;
    Params params;
    /// `<workload>/<method>[/buf:<bytes>][/cache:warm|cold]`, the same on every platform.
    std::string name;
};

/// A pair that cannot run on this build, with the reason.
struct Skipped {
    std::string name;
    std::string reason;
};

/// A plugin a suite loads itself (its "plugins" key: the `loggers` suite's
/// loggers, each built as a plugin by the `loggers` build target).
struct SuitePlugin {
    std::string file;                  ///< the plugin file's name, without its suffix ("iobench_logger_spdlog")
    std::vector<std::string> methods;  ///< the methods it registers, which the suite's entries name
};

/// Why each plugin of a suite that is not loaded is not: its file (as
/// SuitePlugin::file) and the reason ("not built: ..."); the suite's cases of
/// its methods are then listed as skipped with that reason.
using AbsentPlugins = std::vector<std::pair<std::string, std::string>>;

/// What a suite selects, and the defaults it sets for the harness.
struct Suite {
    std::string name;
    std::string description;
    std::vector<Case> cases;
    std::vector<Skipped> skipped;
    std::optional<int> repetitions;  ///< --benchmark_repetitions unless given on the command line
    std::optional<double> min_time;  ///< --benchmark_min_time in seconds, likewise
    std::optional<double> scale;     ///< --scale, likewise
    std::optional<StdoutTarget> stdout_target;  ///< --stdout-target, likewise
    /// "min_repetitions", "target_interval" and "budget_seconds" (optional):
    /// a benchmark stops repeating once the interval of its median is tight,
    /// or its time budget is spent; `repetitions` is then the most.
    std::optional<StoppingRule> stopping_rule;
    std::vector<SuitePlugin> plugins;  ///< "plugins": loaded by iobench before the suite is read
};

/// Largest "repetitions" a suite may set (as --benchmark_repetitions).
inline constexpr int max_suite_repetitions = 1000;
/// Largest "min_time" a suite may set, in seconds (one day).
inline constexpr double max_suite_min_time = 86400;
/// Largest "budget_seconds" a suite may set (one day, as max_suite_min_time).
inline constexpr double max_suite_budget_seconds = 86400;

/// Largest suite file read, in bytes (16 MiB: a suite is a few kilobytes; a
/// link to /dev/zero or a huge file is refused, not read into memory).
inline constexpr std::size_t max_suite_file_bytes = std::size_t{16} << 20;

/// Builds the name of a benchmark:
/// `<workload>/<method>[/buf:<bytes>][/cache:<state>][/threads:<n>[/sink:<s>]<pacing_suffix>]`.
std::string case_name(const Workload& workload, const Method& method, const Params& params);

/// A per-call row's pacing and batching, as its name ends:
/// `[/rate:<calls per second>[/burst:<k>]][/batch:<k>]` (a paced batch is one
/// burst: no `/burst`); "" for a closed-loop
/// row timed call by call.
std::string pacing_suffix(const Params& params);

/// Every workload paired with every method it takes (Workload::takes: the
/// suite "all"), with the page cache warm and cold where the workload has
/// the cache axis.
Suite all_pairs();

/// Reads a suite: `name_or_path` is the name of a built-in suite ("default",
/// "quick") or a path to a JSON file. Throws `suite_error` naming the suite and
/// the problem (unknown workload or method, a method that cannot run the
/// workload, malformed JSON, a number beyond a double, a missing file, a FIFO,
/// device or socket, a file beyond max_suite_file_bytes, a value
/// of the wrong type or range, naming its key: "repetitions" must be a whole
/// number from 1 to max_suite_repetitions; "min_repetitions" a whole number
/// from min_samples_for_median_interval to "repetitions", given with
/// "target_interval", a fraction > 0 and < 1, and with "repetitions";
/// "budget_seconds", > 0 and at most max_suite_budget_seconds, only with them).
/// "plugins": an array of {"file": name, "methods": [names]}; a method of
/// such a plugin that is not registered (`absent` says why its plugin is not
/// loaded) makes skipped cases with that reason, not an error.
Suite load_suite(const std::string& name_or_path, const AbsentPlugins& absent = {});

/// Parses suite JSON text; `origin` names it in error messages.
Suite parse_suite(const std::string& text, const std::string& origin, const AbsentPlugins& absent = {});

/// The "plugins" of suite `name_or_path` alone (none when it has none), read
/// before any plugin is loaded. Throws suite_error as load_suite does.
std::vector<SuitePlugin> suite_plugins(const std::string& name_or_path);

/// Google Benchmark's --benchmark_filter semantics (an extended regular
/// expression searched in the name; a leading '-' negates; "", "all" and "."
/// select everything), applied by iobench to its own names before anything
/// is registered, so that the progress count is exact.
class NameFilter {
public:
    /// Throws usage_error (core/os/usage_error.hpp) when `spec` is not a valid regular expression.
    explicit NameFilter(std::string spec);
    /// True when `name` is selected.
    bool selects(const std::string& name) const;

private:
    bool all_ = false;
    bool negate_ = false;
    struct Pattern;  // the std::regex (core/engine/name_filter.cpp): <regex> stays out of this header
    std::shared_ptr<const Pattern> re_;
};

/// The items (Case, Skipped: anything with a `name`) that `spec` selects, in order.
template <class Item>
std::vector<Item> filter_cases(const std::vector<Item>& items, const std::string& spec) {
    const NameFilter filter(spec);
    std::vector<Item> out;
    for (const Item& item : items)
        if (filter.selects(item.name)) out.push_back(item);
    return out;
}

/// Names of the built-in suites.
std::vector<std::string> builtin_suites();

}  // namespace iobench
