// Running one per-call trial in a test (core/engine/call_trial.hpp): a
// registered workload on a registered method, or a LinesWorkload made for the
// test, in a temporary directory, once; what its verify() said and its counters.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include <iobench/workload.hpp>
#include "core/engine/case_trial.hpp"
#include "core/engine/session.hpp"
#include "core/engine/workload.hpp"
#include "test_dir.hpp"

namespace iobench::test {

/// What one run of a per-call trial gave.
struct CallRun {
    std::string verdict;  ///< verify()'s: "" when every line is right
    std::map<std::string, double> counters;
    std::optional<double> seconds;
    std::uint64_t items = 0;      ///< the run's, over every thread
    std::size_t buffer_size = 0;  ///< the method's buffer, bytes (0: none iobench sizes)
};

/// One run of `workload` on `method` at `scale`, from `threads` threads on
/// one sink (`shared`) or a sink each.
inline CallRun run_calls(double scale, const char* workload, const char* method, unsigned threads, bool shared) {
    TempDir dir;
    Session session(dir.path(), scale, false);
    const Workload* w = find_workload(workload);
    const Method* m = find_method(method);
    EXPECT_TRUE(w && m) << workload << " " << method;
    if (!w || !m) return {"not registered", {}, {}, 0, 0};
    auto trial = trial_for(*w, *m, Params{0, CacheState::warm, threads, shared}, session);
    trial->reset();
    trial->run();
    CallRun out{trial->verify(), trial->counters, trial->measured_seconds(), trial->items, trial->buffer_size};
    trial->finish();
    return out;
}

/// What making a one-thread trial of `w` on `method` says: "" when it is
/// made, else its error.
inline std::string trial_problem(const LinesWorkload& w, const char* method) {
    TempDir dir;
    Session session(dir.path(), 1.0, false);
    const std::unique_ptr<Workload> workload = make_lines_workload(w);
    try {
        trial_for(*workload, *find_method(method), Params{0, CacheState::warm, 1, false}, session);
    } catch (const std::exception& e) {
        return e.what();
    }
    return "";
}

}  // namespace iobench::test
