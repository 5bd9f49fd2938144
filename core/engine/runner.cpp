#include "core/engine/runner.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/engine/case_trial.hpp"
#include "core/measure/stopping_rule.hpp"
#include "core/os/instructions.hpp"
#include "core/os/os_counters.hpp"

namespace iobench {

namespace {

using clock_type = std::chrono::steady_clock;

/// "42 s", "3 min 20 s", "1 h 05 min".
std::string format_duration(double seconds) {
    const auto s = static_cast<long long>(std::llround(seconds));
    if (s < 60) return fmt::format("{} s", s);
    if (s < 3600) return fmt::format("{} min {:02} s", s / 60, s % 60);
    return fmt::format("{} h {:02} min", s / 3600, s % 3600 / 60);
}

/// Prints one line per repetition started, with how many of all the run's
/// repetitions have started and an estimate of the time left. Every
/// benchmark runs a fixed number of runs per repetition (Iterations), so
/// Google Benchmark calls it exactly once per repetition. The estimate is,
/// over every benchmark, the repetitions it has left times the duration of
/// its latest repetition, or, before its first, its runs per repetition
/// times the whole cost of its sizing run (reset, run and verify). A
/// benchmark that met the suite's stopping rule (stopped) has no
/// repetitions left: they leave the count and the estimate.
class Progress {
public:
    /// `expected[i]`: the estimated seconds of one repetition of benchmark i.
    Progress(std::vector<double> expected, int repetitions)
        : benchmarks_(expected.size()), repetitions_(repetitions), state_(expected.size()) {
        for (std::size_t i = 0; i < expected.size(); ++i) state_[i].expected_seconds = expected[i];
    }

    /// Benchmark `index` is about to run a repetition.
    void starting(std::size_t index, const std::string& name) {
        Bench& b = state_[index];
        ++b.repetitions;
        ++started_;
        call_start_ = clock_type::now();
        std::string line = fmt::format("iobench: [{}/{}] {}", started_,
                                       benchmarks_ * static_cast<std::size_t>(repetitions_) - not_run_, name);
        if (repetitions_ > 1) line += fmt::format(", repetition {}/{}", b.repetitions, repetitions_);
        line += fmt::format("; about {} left", format_duration(seconds_left(index)));
        std::fprintf(stderr, "%s\n", line.c_str());
        std::fflush(stderr);
    }

    /// The repetition that `starting` announced has ended.
    void finished(std::size_t index) {
        state_[index].expected_seconds = std::chrono::duration<double>(clock_type::now() - call_start_).count();
    }

    /// Benchmark `index` met the stopping rule: it runs no more repetitions.
    void stopped(std::size_t index) {
        Bench& b = state_[index];
        not_run_ += static_cast<std::size_t>(std::max(0, repetitions_ - b.repetitions));
        b.repetitions = repetitions_;
    }

private:
    struct Bench {
        int repetitions = 0;            ///< repetitions started
        double expected_seconds = 0;    ///< of one repetition: the latest one's, or the sizing estimate
    };

    /// Estimated seconds until every repetition has run, counting the one
    /// of benchmark `current` just announced as still to run.
    double seconds_left(std::size_t current) const {
        double left = state_[current].expected_seconds;
        for (const Bench& b : state_) left += std::max(0, repetitions_ - b.repetitions) * b.expected_seconds;
        return left;
    }

    std::size_t benchmarks_;
    int repetitions_;
    std::vector<Bench> state_;
    std::size_t started_ = 0;
    std::size_t not_run_ = 0;  ///< repetitions the stopping rule took off the count
    clock_type::time_point call_start_{};
};

/// Sets the operating system's counters of the run as Google Benchmark
/// counters, per run (averaged over the iterations), and bytes_per_call.
void report_os_counters(benchmark::State& state, const Method& method, const Trial& trial, const OsCounters& total) {
    const bool calls_counted = method.calls_not_counted.empty();
    for (unsigned i = 0; i < os_counter_count; ++i) {
        const auto c = static_cast<OsCounter>(i);
        if (!calls_counted && (c == OsCounter::read_calls || c == OsCounter::write_calls)) continue;
        if (total.has(c))
            state.counters[std::string(os_counter_name(c))] = benchmark::Counter(total[c], benchmark::Counter::kAvgIterations);
    }
    const OsCounter calls = trial.input ? OsCounter::read_calls : OsCounter::write_calls;
    if (calls_counted && total.has(calls) && total[calls] > 0 && state.iterations() > 0) {
        const double per_run = total[calls] / static_cast<double>(state.iterations());
        state.counters["bytes_per_call"] = static_cast<double>(trial.bytes) / per_run;
    }
}

/// Sets the system calls of the benchmark's sizing run as counters, per run:
/// syscalls (every call), syscalls_<kind> for each SyscallKind, and
/// syscalls_exact (RunCost::syscalls_exact: 1 or 0).
void report_syscalls(benchmark::State& state, const RunCost& sizing) {
    if (!sizing.syscalls) return;
    state.counters["syscalls"] = sizing.syscalls->all;
    for (std::size_t k = 0; k < syscall_kind_count; ++k)
        state.counters[fmt::format("syscalls_{}", to_string(static_cast<SyscallKind>(k)))] =
            sizing.syscalls->by_kind[k];
    state.counters["syscalls_exact"] = sizing.syscalls_exact ? 1 : 0;
}

}  // namespace

bool may_redo_run(const OsCounters& counted, std::uint64_t output_bytes, double sizing_seconds, int attempt) {
    return attempt < max_runs_redone && output_bytes >= redo_from_bytes && sizing_seconds < redo_below_seconds &&
           counted.has(OsCounter::page_reported_bytes) && counted[OsCounter::page_reported_bytes] > 0;
}

namespace {

// The stages of a benchmark's call, each ending in an Outcome (run_case and
// run_once go through the same ones).

/// `outcome`, or, when it is ok and the trial's finish() found a problem (a
/// program that exited with a status other than 0), the failure it makes;
/// a `state` given has the benchmark end with it.
Outcome finish_outcome(benchmark::State* state, const Trial& trial, Outcome outcome) {
    if (!outcome.ok()) return outcome;
    const std::string problem = trial.finish_problem();
    if (problem.empty()) return outcome;
    Outcome failed = Outcome::failed(problem);
    if (state) state->SkipWithError(failed.error_message().c_str());
    return failed;
}

Outcome make_trial(const Case& c, Session& session, std::unique_ptr<Trial>& trial) {
    return outcome_of([&] { trial = trial_for(*c.workload, *c.method, c.params, session); },
                      "preparing the files failed: ");
}

Outcome reset_trial(Trial& trial) {
    return outcome_of([&] { trial.reset(); }, "preparing the run failed: ");
}

/// What runs now: run_in_progress() reads it from any thread.
std::mutex in_progress_mutex;
std::optional<RunInProgress> in_progress;
/// Set by stop_runs(): a call that returns afterwards waits for the end.
bool runs_stopped = false;

/// Waits for the process to end, once stop_runs() was called.
void wait_if_stopped(std::unique_lock<std::mutex>& lock) {
    if (!runs_stopped) return;
    lock.unlock();
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
}

/// Marks benchmark `name`'s repetition as running (`name` empty: none).
void mark_repetition(const std::string& name, bool in_process) {
    std::unique_lock<std::mutex> lock(in_progress_mutex);
    wait_if_stopped(lock);
    if (name.empty()) in_progress.reset();
    else in_progress = RunInProgress{name, std::nullopt, in_process};
}

/// Marks a measured call of the running repetition as begun (or ended).
void mark_call(bool begun) {
    std::unique_lock<std::mutex> lock(in_progress_mutex);
    wait_if_stopped(lock);
    if (in_progress)
        in_progress->call_since = begun ? std::optional(clock_type::now()) : std::nullopt;
}

/// The measured call. `stop` gets the time it returned, before anything else happens.
Outcome run_trial(Trial& trial, clock_type::time_point& stop) {
    return outcome_of([&] {
        trial.run();
        stop = clock_type::now();
    });
}

Outcome verify_trial(Trial& trial) {
    const std::string mismatch = trial.verify();
    return mismatch.empty() ? Outcome{} : Outcome::failed("verification failed: " + mismatch);
}

/// The counters of a benchmark call whose runs were all verified (run_case):
/// bytes and items, what one run did, the trial's own figures and label, the
/// operating system's counters summed over the runs (`os_total`), the sizing
/// run's system calls, and instructions per item where `instructions` were
/// counted (user-space instructions over every run).
void report_verified_runs(benchmark::State& state, const Method& method, const Trial& trial, const OsCounters& os_total,
                          const RunCost& sizing, const std::optional<double>& instructions) {
    if (instructions && trial.items > 0 && state.iterations() > 0)
        state.counters["instructions_per_item"] =
            *instructions / (static_cast<double>(trial.items) * static_cast<double>(state.iterations()));
    state.SetBytesProcessed(static_cast<std::int64_t>(trial.bytes) * state.iterations());
    state.SetItemsProcessed(static_cast<std::int64_t>(trial.items) * state.iterations());
    state.counters["verified"] = 1;
    // What one run did, for readers comparing runs of different sizes.
    state.counters["items"] = static_cast<double>(trial.items);
    state.counters["bytes"] = static_cast<double>(trial.bytes);
    // Absent when unbuffered or unknown (0): no buffer has no size.
    if (trial.buffer_size != 0) state.counters["buffer_size"] = static_cast<double>(trial.buffer_size);
    // A trial's own figures are there when measured, and a measured 0 is
    // reported (a program's system time, a cold file's resident pages).
    for (const auto& [name, value] : trial.counters) state.counters[name] = value;
    if (!trial.label.empty()) state.SetLabel(trial.label);
    report_os_counters(state, method, trial, os_total);
    report_syscalls(state, sizing);
}

/// One call of benchmark `c` by Google Benchmark: as many runs as it asks
/// for, each reset, timed and verified, until one fails. Returns how the
/// call ended; an outcome other than ok has also ended the benchmark with
/// its error_message (Google Benchmark then reports no time). `measured`
/// gets the seconds of the runs' iteration times, summed.
/// `sizing`: the benchmark's sizing run, whose system calls the row reports.
Outcome run_case(benchmark::State& state, const Case& c, Session& session, double& measured, const RunCost& sizing) {
    std::unique_ptr<Trial> trial;
    Outcome outcome = make_trial(c, session, trial);
    if (!outcome.ok()) {
        state.SkipWithError(outcome.error_message().c_str());
        // Entered after the error, the loop runs no iteration, but the call
        // then reports the iteration count Google Benchmark asked for, as a
        // call that failed inside the loop does. Without it the count is 0,
        // and a repetition that fails here after others succeeded stops the
        // whole run in Google Benchmark's statistics (a CHECK that every
        // repetition ran the same count), losing every result.
        for (auto _ : state) {
        }
        return outcome;
    }
    OsCounters os_total;  // summed over the iterations
    std::int64_t runs = 0;
    // --instructions: counted around each measured call, in this process
    // (a call whose work runs in another process is not counted).
    InstructionCounter& instructions = instruction_counter();
    const bool count_instructions = counts_instructions(*trial, instructions.source());
    if (count_instructions) instructions.begin();
    // Runs done again because the host's page reporting overlapped them
    // (may_redo_run), counted where the machine publishes that reporting.
    // Only a whole-run trial of this process's: a per-call row's histograms
    // and a child's or program's figures add up over the runs, so a run of
    // theirs is never left out.
    const bool may_redo = !count_instructions && trial->threads == 0 && !trial->work_in_child;
    std::int64_t redone = 0;
    bool reporting_known = false;
    for (auto _ : state) {
        for (int attempt = 0;; ++attempt) {
            state.PauseTiming();
            outcome = reset_trial(*trial);
            if (!outcome.ok()) break;
            state.ResumeTiming();

            // The snapshots sit outside the clock's interval and take nothing
            // from it; what they cost themselves is subtracted from the counts.
            // A method's own threads, or a per-call row's: the whole process.
            const OsScope scope =
                c.method->process_counters || trial->threads > 1 ? OsScope::process : OsScope::thread;
            const OsCounters before = take_os_snapshot(scope);
            mark_call(true);
            if (count_instructions) instructions.start();
            const auto start = clock_type::now();
            clock_type::time_point stop;
            outcome = run_trial(*trial, stop);
            if (count_instructions) instructions.stop();
            mark_call(false);
            if (!outcome.ok()) break;
            const OsCounters after = take_os_snapshot(scope);
            const std::optional<double> own = trial->measured_seconds();
            const double seconds = own ? *own : std::chrono::duration<double>(stop - start).count();
            const std::optional<OsCounters> own_counters = trial->measured_counters();
            OsCounters counted = own_counters.value_or(os_counters_between(before, after, scope));
            if (trial->work_in_child && !own_counters) counted = machine_wide(counted);
            reporting_known = counted.has(OsCounter::page_reported_bytes);
            const std::uint64_t output_bytes = trial->input ? 0 : trial->bytes;
            const bool again = may_redo && may_redo_run(counted, output_bytes, sizing.measured, attempt);
            if (!again) {
                state.SetIterationTime(seconds);
                measured += seconds;
                if (runs++ == 0) os_total = counted;
                else os_total += counted;
            }

            state.PauseTiming();
            outcome = verify_trial(*trial);  // a run done again is verified too
            if (!outcome.ok()) break;
            state.ResumeTiming();
            if (!again) break;
            ++redone;
        }
        if (!outcome.ok()) break;
    }
    if (!outcome.ok()) state.SkipWithError(outcome.error_message().c_str());
    if (outcome.ok() && may_redo && reporting_known) state.counters["runs_redone"] = static_cast<double>(redone);
    const std::optional<double> instructions_counted =
        count_instructions ? instructions.take(c.name) : std::optional<double>();
    trial->finish();
    outcome = finish_outcome(&state, *trial, std::move(outcome));
    if (!outcome.ok()) return outcome;
    report_verified_runs(state, *c.method, *trial, os_total, sizing, instructions_counted);
    return outcome;
}

/// A repetition Google Benchmark calls after its benchmark met the stopping
/// rule: no trial, no run; an error (not_run_message) that the reporters
/// drop. The empty loop reports the iteration count Google Benchmark asked
/// for, as run_case's failure before its loop does (its statistics CHECK
/// that every repetition ran the same count).
void skip_repetition(benchmark::State& state) {
    state.SkipWithError(std::string(not_run_message).c_str());
    for (auto _ : state) {
    }
}

/// A repetition of a benchmark whose sizing run failed, or of a program
/// method's after an earlier one failed: no trial, no program started;
/// failed with `reason`. The empty
/// loop reports the iteration count Google Benchmark asked for (as
/// skip_repetition's does).
void fail_repetition(benchmark::State& state, const std::string& reason) {
    state.SkipWithError(reason.c_str());
    for (auto _ : state) {
    }
}

}  // namespace

std::optional<RunInProgress> run_in_progress() {
    const std::lock_guard<std::mutex> lock(in_progress_mutex);
    return in_progress;
}

void stop_runs() {
    const std::lock_guard<std::mutex> lock(in_progress_mutex);
    runs_stopped = true;
}

void mark_method_call(bool begun) { mark_call(begun); }

bool stop_runs_if_call_overdue(double limit) {
    const std::lock_guard<std::mutex> lock(in_progress_mutex);
    if (runs_stopped || !in_progress || !in_progress->in_process || !in_progress->call_since) return false;
    if (std::chrono::duration<double>(clock_type::now() - *in_progress->call_since).count() <= limit) return false;
    runs_stopped = true;
    return true;
}

bool counts_instructions(const Trial& trial, InstructionSource source) {
    return source != InstructionSource::none && !trial.work_in_child && trial.threads <= 1;
}

Outcome run_once(const Case& c, Session& session) {
    std::unique_ptr<Trial> trial;
    Outcome outcome = make_trial(c, session, trial);
    if (outcome.ok()) outcome = reset_trial(*trial);
    clock_type::time_point stop;
    if (outcome.ok()) outcome = run_trial(*trial, stop);
    if (outcome.ok()) outcome = verify_trial(*trial);
    if (trial) {
        trial->finish();
        outcome = finish_outcome(nullptr, *trial, std::move(outcome));
    }
    return outcome;
}

std::int64_t runs_per_repetition(const RunCost& cost, double min_time) {
    constexpr double most = 1e6;  // a bound for runs too short for the clock
    // Google Benchmark's rule: enough runs for min_time of measured time.
    double runs = cost.measured > 0 ? std::ceil(min_time / cost.measured) : most;
    // The bound: no more runs than fit in 2 x min_time of their whole cost.
    if (cost.whole > 0) runs = std::min(runs, std::floor(2 * min_time / cost.whole));
    return static_cast<std::int64_t>(std::clamp(runs, 1.0, most));
}

std::optional<RunCost> size_run(const Case& c, Session& session, Outcome* failure) {
    // Open before the trial is made: a program method's process starts then.
    SyscallCounter syscalls;
    const bool counting = syscalls.open().empty();
    std::unique_ptr<Trial> trial;
    if (Outcome made = make_trial(c, session, trial); !made.ok()) {
        if (failure) *failure = std::move(made);
        return std::nullopt;
    }
    const auto begin = clock_type::now();
    mark_repetition(c.name, c.method->program.file.empty());
    Outcome outcome = reset_trial(*trial);
    const auto start = clock_type::now();
    clock_type::time_point stop = start;
    mark_call(true);
    const std::optional<SyscallCounts> calls_before = counting ? syscalls.read() : std::nullopt;
    if (outcome.ok()) outcome = run_trial(*trial, stop);
    const std::optional<SyscallCounts> calls_after = counting ? syscalls.read() : std::nullopt;
    mark_call(false);
    mark_repetition("", true);
    if (outcome.ok()) outcome = verify_trial(*trial);
    const auto end = clock_type::now();
    trial->finish();
    if (Outcome finished = finish_outcome(nullptr, *trial, std::move(outcome)); !finished.ok()) {
        if (failure) *failure = std::move(finished);
        return std::nullopt;
    }
    RunCost cost;
    cost.measured = trial->measured_seconds().value_or(std::chrono::duration<double>(stop - start).count());
    cost.whole = std::chrono::duration<double>(end - begin).count();
    if (calls_before && calls_after) {
        cost.syscalls = counts_between(*calls_before, *calls_after);
        cost.syscalls_exact = !c.method->process_counters && trial->threads <= 1 && !trial->work_in_child;
    }
    return cost;
}

namespace {

/// What the sizing runs found, per benchmark: its runs per repetition, the
/// seconds its repetitions are expected to take, the cost of one run, and
/// the sizing run's outcome.
struct Sizing {
    std::vector<std::int64_t> runs;
    std::vector<double> expected;
    std::shared_ptr<std::vector<RunCost>> costs;
    std::vector<Outcome> outcomes;
};

/// One sizing run of each case, each sized to about `min_time` seconds a
/// repetition (runs_per_repetition). A sizing run that fails leaves 1 run:
/// the benchmark then fails with its reason, or is skipped with the reason
/// when it runs.
Sizing size_runs(const std::vector<Case>& cases, Session& session, double min_time) {
    if (!cases.empty()) {
        std::fprintf(stderr, "iobench: one sizing run of each benchmark first (runs per repetition)\n");
        std::fflush(stderr);
    }
    Sizing sizing{std::vector<std::int64_t>(cases.size(), 1), std::vector<double>(cases.size(), 0),
                  std::make_shared<std::vector<RunCost>>(cases.size()), std::vector<Outcome>(cases.size())};
    for (std::size_t i = 0; i < cases.size(); ++i) {
        if (const auto cost = size_run(cases[i], session, &sizing.outcomes[i])) {
            sizing.runs[i] = runs_per_repetition(*cost, min_time);
            sizing.expected[i] = static_cast<double>(sizing.runs[i]) * cost->whole;
            (*sizing.costs)[i] = *cost;
        }
    }
    return sizing;
}

/// A benchmark's repetitions so far, for the stopping rule: the times per
/// run of those that ended ok, and whether it has met the rule.
struct Repetitions {
    std::vector<double> times;
    double seconds = 0;  ///< wall time of those repetitions (StoppingRule::budget_seconds)
    int started = 0;     ///< repetitions started, ok or not
    bool stopped = false;
    /// Why its repetitions fail without running: its sizing run failed
    /// (a run whose output was wrong, or whose call threw, is a failed
    /// benchmark, however the runs after it go), or a program method's
    /// repetition did (its later repetitions do not start the program
    /// again: each would fail the same way, and a program that hangs
    /// would cost the time limit every time).
    std::optional<std::string> failed;
};

}  // namespace

void register_benchmarks(const std::vector<Case>& cases, Session& session, Outcomes& outcomes, int repetitions,
                         double min_time, const std::optional<StoppingRule>& rule) {
    if (repetitions < 1) throw std::invalid_argument("register_benchmarks: repetitions must be at least 1");
    Sizing sizing = size_runs(cases, session, min_time);
    const std::vector<std::int64_t>& runs = sizing.runs;
    const auto costs = sizing.costs;
    auto progress = std::make_shared<Progress>(std::move(sizing.expected), repetitions);
    auto so_far = std::make_shared<std::vector<Repetitions>>(cases.size());
    for (std::size_t i = 0; i < cases.size(); ++i)
        if (sizing.outcomes[i].status == Status::failed) {
            (*so_far)[i].failed = cases[i].method->program.file.empty()
                                      ? sizing.outcomes[i].reason + "; in its sizing run (its repetitions did not run)"
                                      : "not started again after its sizing run failed: " + sizing.outcomes[i].reason;
            progress->stopped(i);
        }
    const std::optional<StoppingRule> stopping =
        rule && can_stop_early(*rule, repetitions) ? rule : std::optional<StoppingRule>();
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const Case* c = &cases[i];
        auto* b = benchmark::RegisterBenchmark(
            c->name.c_str(),
            [c, i, progress, so_far, costs, stopping, repetitions, &session, &outcomes](benchmark::State& state) {
                Repetitions& mine = (*so_far)[i];
                if (mine.stopped) return skip_repetition(state);
                if (mine.failed) {
                    outcomes.record(c->name, Outcome::failed(*mine.failed));
                    return fail_repetition(state, *mine.failed);
                }
                progress->starting(i, c->name);
                ++mine.started;
                const clock_type::time_point began = clock_type::now();
                double measured = 0;
                mark_repetition(c->name, c->method->program.file.empty());
                Outcome outcome = run_case(state, *c, session, measured, (*costs)[i]);
                mark_repetition("", true);
                const bool ok = outcome.ok();
                if (outcome.status == Status::failed && !c->method->program.file.empty()) {
                    mine.failed = "not started again after an earlier repetition failed: " + outcome.reason;
                    progress->stopped(i);  // its later repetitions are not counted as to come
                }
                outcomes.record(c->name, std::move(outcome));
                progress->finished(i);
                // After the last repetition there is nothing to stop.
                if (!stopping || !ok || state.iterations() < 1 || mine.started >= repetitions) return;
                mine.times.push_back(measured / static_cast<double>(state.iterations()));
                mine.seconds += std::chrono::duration<double>(clock_type::now() - began).count();
                const StopReason why = stop_reason(mine.times, mine.seconds, *stopping);
                if (why == StopReason::none) return;
                if (why == StopReason::budget) outcomes.record_budget_spent(c->name);
                mine.stopped = true;
                progress->stopped(i);
            });
        b->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(runs[i])->Repetitions(repetitions);
    }
}

}  // namespace iobench
