// Suites: named selections of workloads x methods x parameters, read from JSON
// (suites/*.json are compiled into the binary; a path to any other file works too).
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/method.hpp"
#include "core/session.hpp"
#include "core/workload.hpp"

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
};

/// Largest "repetitions" a suite may set (as --benchmark_repetitions).
inline constexpr int max_suite_repetitions = 1000;
/// Largest "min_time" a suite may set, in seconds (one day).
inline constexpr double max_suite_min_time = 86400;

/// Builds the name of a benchmark.
std::string case_name(const Workload& workload, const Method& method, const Params& params);

/// Every workload paired with every method that supports it (the suite "all"),
/// with the page cache warm and cold where the workload has a cache state.
Suite all_pairs();

/// Reads a suite: `name_or_path` is the name of a built-in suite ("default",
/// "quick") or a path to a JSON file. Throws `suite_error` naming the suite and
/// the problem (unknown workload or method, a method that cannot run the
/// workload, malformed JSON, a number beyond a double, a missing file, a value
/// of the wrong type or range, naming its key: "repetitions" must be a whole
/// number from 1 to max_suite_repetitions).
Suite load_suite(const std::string& name_or_path);

/// Parses suite JSON text; `origin` names it in error messages.
Suite parse_suite(const std::string& text, const std::string& origin);

/// Names of the built-in suites.
std::vector<std::string> builtin_suites();

}  // namespace iobench
