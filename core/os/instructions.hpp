// Instructions per item (`iobench --instructions`): the user-space
// instructions the measured calls executed, a count that is the same from
// run to run where the time is not (a busy machine slows the CPU, not the
// program's instructions). Two sources, in order of preference:
//
//  perf      the CPU's own counter through perf_event_open(2)
//            (PERF_COUNT_HW_INSTRUCTIONS, user space only, the measuring
//            thread and the threads it starts during the call); needs a
//            CPU counter the kernel exposes (not in most virtual machines)
//            and perf_event_paranoid <= 2.
//  valgrind  iobench runs itself under valgrind's callgrind tool with its
//            instrumentation off, switched on only around each measured call
//            (callgrind's client requests CALLGRIND_START_INSTRUMENTATION /
//            STOP), and reads the count ("totals: Ir", every thread) from
//            the dump it requests after each benchmark
//            (CALLGRIND_DUMP_STATS_AT). Deterministic; the code runs ~50x
//            slower, so the times of such a run are not the figure.
//
// Neither source exists on Windows, and valgrind cannot run a build with
// AddressSanitizer (such a build counts with perf only): where neither can
// count, --instructions exits 2 with the reason of each.
#pragma once

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace iobench {

/// Where the instruction counts of a run come from.
enum class InstructionSource { none, perf, valgrind };

/// "perf", "valgrind" (the JSON context's `instructions_source`), "none".
std::string_view to_string(InstructionSource source);

/// Counts the user-space instructions of the measured calls of one
/// benchmark at a time: begin(), then start()/stop() around each call, then
/// take(). Only one exists (instruction_counter()); it counts nothing until
/// enable() succeeded.
class InstructionCounter {
public:
    /// Chooses `wanted` (perf or valgrind) or, for InstructionSource::none,
    /// the best available: perf when the kernel gives this thread a counter,
    /// else valgrind when this process runs under callgrind. Returns "" on
    /// success, else why neither works here (a sentence, for the user).
    std::string enable(InstructionSource wanted = InstructionSource::none);

    /// The source enable() chose (none before it succeeded).
    InstructionSource source() const { return source_; }

    /// Forgets what was counted so far: a benchmark starts.
    void begin();
    /// Counting on, right before the measured call.
    void start();
    /// Counting off, right after it.
    void stop();
    /// The instructions counted between start() and stop() since begin(),
    /// or std::nullopt when the count could not be read (`label` names the
    /// benchmark in valgrind's dump). Ends the benchmark.
    std::optional<double> take(std::string_view label);

private:
    InstructionSource source_ = InstructionSource::none;
    int perf_fd_ = -1;
    unsigned dumps_ = 0;  ///< dumps this process requested from callgrind
};

/// The process's one instruction counter.
InstructionCounter& instruction_counter();

/// Why perf_event_open gives this process no instruction counter ("" when
/// it does): the system's message, and perf_event_paranoid where it refuses.
std::string perf_instructions_unavailable();

/// True when this process runs under valgrind.
bool running_under_valgrind();

/// Why this build cannot run under valgrind ("" when it can): a build with
/// AddressSanitizer, a platform without valgrind, a build without
/// valgrind's header (valgrind/callgrind.h, package valgrind).
std::string valgrind_unsupported();

/// valgrind ended before the run under it did (it could not start the
/// program, or crashed): what() says how it ended. The run has no results.
class valgrind_failed : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Runs this same command again under `valgrind --tool=callgrind` with its
/// instrumentation off (`--instr-atstart=no`), its dumps in a private
/// temporary directory removed afterwards, and returns the exit status of
/// the run under it (128 + the signal number when a signal iobench passed on
/// ended it). `started` is called once the run has started. The signals
/// iobench cleans up after (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE,
/// SIGALRM, SIGUSR1, SIGUSR2) are passed on to it meanwhile. `valgrind` is
/// the program's absolute path (never searched on PATH; the caller checks
/// it). Throws std::runtime_error when it cannot be started, valgrind_failed
/// when valgrind ended without the run under it having ended
/// (record_exit_status() was not called there).
int rerun_under_valgrind(int argc, char** argv, const std::function<void()>& started, const std::string& valgrind);

/// Under a valgrind that rerun_under_valgrind() started: records `status` as
/// the run's exit status for the iobench that waits (a file in its private
/// directory), which so tells the run's own end from valgrind's. Elsewhere
/// nothing.
void record_exit_status(int status);

}  // namespace iobench
