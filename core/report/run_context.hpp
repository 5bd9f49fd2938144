// The results file's context of a run, after Google Benchmark's own keys: the
// environment, the run's settings, what did not run, and what the run
// measured before its first benchmark (a new file's pages against an
// overwrite's, the per-call clock). The keys are those of
// tools/iobench_compare/spec/results_format.json's context_keys (README: "context").
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/engine/session.hpp"
#include "core/engine/suite.hpp"
#include "core/measure/stopping_rule.hpp"
#include "core/os/page_supply.hpp"

namespace iobench {

/// What the context says of a run besides the environment: its settings as
/// the command line and the suite decided them.
struct RunFacts {
    std::string suite;                   ///< the suite's name
    double scale = 1;                    ///< --scale
    std::vector<Case> cases;             ///< the cases that run
    std::vector<Skipped> skipped;        ///< the pairs not built here, with the reason
    bool interleave = true;              ///< repetitions interleaved across benchmarks
    std::string pinned;                  ///< the CPUs the run is pinned to (pin_to_cpus), "" when not pinned
    std::string programs;                ///< the program methods' files and owners, "" when none runs
    std::optional<StoppingRule> stopping_rule;
    int repetitions = 1;                 ///< the most repetitions, with a stopping rule
    bool instructions = false;           ///< --instructions: counts, not times
    std::string valgrind;                ///< with --instructions under valgrind: its file and owner, else ""
};

/// The context of `run` in `dir`, whose inputs `session` sized. Where an
/// output table has a limit row (and the run counts no instructions) it
/// measures what a new file's pages cost against an overwrite's (some 0.3 s,
/// 64 MiB to 1 GiB by the scale) into `page_cost`; where a row is per-call it
/// describes the call clock select_call_clock chose (call that first).
std::map<std::string, std::string> run_context(const RunFacts& run, const Session& session,
                                               const std::filesystem::path& dir,
                                               std::optional<PageCost>& page_cost);

}  // namespace iobench
