// The runner: puts every case onto Google Benchmark, timing each run by wall
// time (manual time: only Trial::run() is inside the measurement) and
// verifying every run.
#pragma once

#include <cstdint>
#include <chrono>
#include <optional>
#include <vector>

#include "core/engine/outcome.hpp"
#include "core/engine/session.hpp"
#include "core/engine/suite.hpp"
#include "core/measure/stopping_rule.hpp"
#include "core/os/instructions.hpp"
#include "core/os/os_counters.hpp"
#include "core/os/syscall_counts.hpp"

namespace iobench {

/// Registers each case as a Google Benchmark benchmark of the same name.
/// Every iteration: reset (not timed), run (timed, wall clock), verify (not
/// timed). A failed call or a failed verification ends the benchmark with an
/// error naming what went wrong; it then reports no time. Rows that pass carry
/// the counters bytes_per_second, items_per_second, verified (1) and
/// buffer_size (bytes: the `/buf` size, else the method's default,
/// buffer_size_used; absent when that is 0: unbuffered, or a library's
/// default buffer of a size the method does not set),
/// plus the trial's own counters (Trial::counters, e.g. resident_at_start). A trial
/// that times its work itself (Trial::measured_seconds: the console workloads,
/// whose call runs in a child process; program methods, whose program times
/// each run, docs/external-methods.md) gives the iteration time instead of the
/// runner's clock around run(). A benchmark whose trial's finish() finds a
/// problem (Trial::finish_problem: a program that exited with a status other
/// than 0 after its last run) fails with it.
/// Every row also carries what the operating system counted around run()
/// only (core/os/os_counters.hpp), per run: read_calls, write_calls, user_time,
/// system_time (seconds), page_faults, context_switches, read_bytes,
/// write_bytes (storage traffic), and bytes_per_call = bytes of the run /
/// read_calls (input workloads) or write_calls (output workloads). A counter
/// the platform does not provide is left out.
/// How each benchmark ended goes to `outcomes` under its name: ok; failed,
/// with the reason; or skipped, when the method turns out to be unavailable
/// at run time (`unavailable_error`), which is not a failure. A benchmark
/// that did not end ok also carries Outcome::error_message() as Google
/// Benchmark's error ("skipped: <reason>" for a skip).
/// `repetitions` (at least 1) is every benchmark's number of repetitions,
/// which the progress lines count; less than 1 throws std::invalid_argument.
/// Runs per repetition (Google Benchmark's iterations) are fixed per benchmark
/// before the suite starts, from one sizing run of each (size_run,
/// runs_per_repetition): enough runs for `min_time` seconds of measured time,
/// but never more than fit in 2 x `min_time` of their whole cost (reset and
/// verify included), so a tiny --scale cannot make a benchmark whose setup
/// costs more than its measured run iterate for minutes.
/// With a stopping `rule` (a suite's "min_repetitions", "target_interval"
/// and "budget_seconds") that can end a benchmark early (can_stop_early), a
/// benchmark runs no more repetitions once those that ended ok number at
/// least rule.min_repetitions and the interval of their median is tight,
/// or their wall time has reached the budget (stop_reason, on each
/// repetition's measured seconds per run and its wall time; a budget stop
/// is recorded in `outcomes`: Outcomes::record_budget_spent);
/// `repetitions` is then the most. Google Benchmark still calls the
/// repetitions left: they return at once, without a trial, as errors with
/// not_run_message, which the reporters drop (TeeReporter); they are no
/// outcome.
/// `cases`, `session` and `outcomes` must outlive the run. Progress goes to stderr: one
/// line per repetition started, with the repetitions done and an estimate of
/// the time left (a benchmark stopped by the rule has none left).
void register_benchmarks(const std::vector<Case>& cases, Session& session, Outcomes& outcomes, int repetitions,
                         double min_time, const std::optional<StoppingRule>& rule = std::nullopt);

/// True when the runner counts the instructions of `trial`'s measured calls
/// for its row (--instructions: the counter `instructions_per_item`): a
/// counter is on (`source` is not InstructionSource::none) and the measured
/// work runs in this process (not Trial::work_in_child; another process's
/// instructions are not this one's to count, and this process's would be
/// only its own waiting and pipe traffic: the row shows none, `-`), on one
/// thread (a per-call row of several threads counts none: the counter is
/// the calling thread's).
bool counts_instructions(const Trial& trial, InstructionSource source);

/// What one run of a benchmark costs, in seconds, and the system calls it made.
struct RunCost {
    double measured = 0;  ///< inside the measurement: what counts toward the minimum time
    double whole = 0;     ///< reset, run and verify: what the run costs the wall clock
    /// The system calls of the run (Trial::run() only: not its reset or
    /// verification), by kind (core/os/syscall_counts.hpp); std::nullopt
    /// where they cannot be counted (syscall_counts_unavailable).
    std::optional<SyscallCounts> syscalls;
    /// True when `syscalls` are exact, the same in every run of the same
    /// build: the run made them on one thread of this process. False when
    /// several threads (a per-call row's, a method's own) or another process
    /// (a program method's) share the work: then futex, memory and other
    /// calls depend on timing, and only write, read and sync calls are the
    /// method's own.
    bool syscalls_exact = false;
};

/// Most times one run of an iteration is done again because the host's
/// page reporting overlapped it (may_redo_run).
inline constexpr int max_runs_redone = 2;

/// Longest sizing run (measured seconds) of a benchmark whose runs may be
/// done again: half of the 2 s the kernel's free page reporting waits after
/// memory is freed before a pass (PAGE_REPORTING_DELAY), so that a run this
/// short can fall between two passes. Longer runs overlap a pass most times;
/// they are kept, with page_reported_bytes saying how much.
inline constexpr double redo_below_seconds = 1.0;

/// Smallest output (bytes per run) whose runs may be done again: 64 MiB,
/// 16,384 new page-cache pages, whose faults by the host would cost a run
/// some 30-80 ms (2-5 us a page: hello/limit's 1.2 GB runs took 0.3-0.8 s
/// longer with 500-630 MiB reported during them). A smaller run takes too
/// few pages for a pass to show in its time, and one whose process was
/// stopped (SIGSTOP) keeps its stopped time for the summary's note of it.
inline constexpr std::uint64_t redo_from_bytes = std::uint64_t{64} << 20;

/// True when a run whose counters were `counted` is done again, not kept:
/// the machine's kernel reported free memory to the hypervisor while it ran
/// (page_reported_bytes known and > 0: the host then faults in again every
/// page the run takes from that memory, measured 2-4x a new 1.2 GB file's
/// time: docs/methodology.md, "Page reporting during a run"), the run wrote
/// `output_bytes` >= redo_from_bytes (0 for a run that reads), the
/// benchmark's sizing run took under redo_below_seconds, and `attempt` (0
/// for the iteration's first run) is under max_runs_redone. The run done
/// again is reset and verified as any other; the row's counter runs_redone
/// says how many were. Asked only for a whole-run trial that does its work in
/// this process (Trial::threads 0, not work_in_child) and without
/// --instructions: a per-call row's histograms and a child's figures add up
/// over the runs, so none of theirs is left out.
bool may_redo_run(const OsCounters& counted, std::uint64_t output_bytes, double sizing_seconds, int attempt);

/// Runs per repetition of a benchmark whose runs cost `cost`: ceil(min_time /
/// measured) (Google Benchmark's own target: `min_time` seconds of measured
/// time), at most floor(2 x min_time / whole), at least 1 and at most 10^6.
std::int64_t runs_per_repetition(const RunCost& cost, double min_time);

/// One run of `c` (made, reset, run, verified, finished) timed both ways,
/// its system calls counted (RunCost::syscalls: the counters are open from
/// before the trial is made, so a program's process and the threads the run
/// starts are counted too; the measured repetitions never count, because a
/// counted system call costs more); std::nullopt when it does not end ok,
/// with how it ended in `*failure` (when given).
std::optional<RunCost> size_run(const Case& c, Session& session, Outcome* failure = nullptr);

/// One run of `c` outside Google Benchmark, through the same stages as a
/// benchmark's: the trial made, reset, run, verified and finished. Returns
/// the outcome the runner would record (for tests).
Outcome run_once(const Case& c, Session& session);

/// The benchmark whose repetition runs now, for what ends a run from
/// outside it (an exit() in a method, a watchdog: RunGuard, core/engine/run_guard.hpp): its name,
/// and while one of its measured calls is under way, when that call began
/// and whether its code runs in this process (not a program's).
struct RunInProgress {
    std::string name;
    std::optional<std::chrono::steady_clock::time_point> call_since;
    bool in_process = true;
};

/// What runs now (thread-safe); std::nullopt between repetitions.
std::optional<RunInProgress> run_in_progress();

/// The run is being ended from outside (RunGuard, core/engine/run_guard.hpp): a
/// measured call that returns after this waits until the process ends, so
/// that nothing reports while the rows so far are written.
void stop_runs();

/// Marks a run of a method's code outside its measured calls as begun
/// (`begun`) or ended: a per-call trial's memory probe, a whole run of its
/// calls made in its reset, before the first timed run (CallTrialBase). The
/// watchdog then holds it to the time limit as it holds a measured call
/// (stop_runs_if_call_overdue). Nothing outside a repetition or a sizing run.
void mark_method_call(bool begun);

/// stop_runs() when an in-process measured call has run for more than
/// `limit` seconds, checked and done at once (a call that returns meanwhile
/// is not stopped); true when it stopped them. Allocates nothing (a
/// watchdog calls it beside a fork).
bool stop_runs_if_call_overdue(double limit);

}  // namespace iobench
