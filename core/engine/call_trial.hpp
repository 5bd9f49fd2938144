// The trial of a per-call row (`/threads:N` in its name; docs/design.md rule
// 9): a method's sink opened, one call per item from N threads, each call
// timed with CallClock's clock into a histogram, the sinks closed; then every line
// checked (none torn, each thread's in its order, each item exactly once).
// Paced (`/rate:N`): each call due at a fixed rate and read from its due
// time; batched (`/batch:K`): the average of K calls one reading.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <vector>

#include "core/engine/session.hpp"
#include "core/engine/workload.hpp"
#include "core/measure/latency.hpp"
#include "core/os/memory_use.hpp"

namespace iobench {

/// What a per-call workload tells the call trial about its lines.
struct CallLines {
    /// The bytes of items 0 .. items-1 written in order by one thread (their
    /// size is the row's bytes; the digest cache key names them).
    ExpectedOutput expected;
    /// The item whose line `line` ('\n' included) is, exactly: its index,
    /// or -1 when the line is no item's (torn, joined, foreign). For a
    /// workload whose lines are all the same (`same_lines`) 0 for that line.
    std::function<std::int64_t(std::string_view line)> identify;
    /// True when every item writes the same line (hello): the check then
    /// counts the lines, as no order can be seen.
    bool same_lines = false;
};

/// One thread's state in a per-call row, on cache lines of its own
/// (alignas(64)): what its calls write is not on a line another thread
/// writes. (MSVC warns that the alignment pads it, C4324: that is the point.)
#ifdef _MSC_VER
#pragma warning(push)
#pragma warning(disable : 4324)
#endif
struct alignas(64) CallThreadState {
    LatencyHistogram histogram;      ///< its calls' readings, over every run so far
    std::uint64_t between_ticks = 0;  ///< clock ticks between one call's end reading and the next's start, every run
    HeapCounts heap;                 ///< this run: its open, calls and close
    HeapCounts argument_heap;        ///< this run: what making its calls' arguments allocated (taken out of `heap`)
    std::uint64_t started = 0, ended = 0;  ///< steady_clock ns, this run
    std::uint64_t calls_ended = 0;   ///< steady_clock ns when its last call returned (before its own close), this run
    std::uint64_t cpu_ns = 0;        ///< its CPU time over its part (open, calls, close), this run
    bool cpu_known = false;          ///< cpu_ns was read (thread_cpu_ns), this run
    std::uint64_t paced_ticks = 0;   ///< paced rows: clock ticks from its first call's due time to its last call's return, every run
    std::exception_ptr error;        ///< this run
};
#ifdef _MSC_VER
#pragma warning(pop)
#endif

/// Where the threads of a per-call run wait until every one has opened its
/// sink, so that their calls start together (as std::barrier's
/// arrive_and_wait / arrive_and_drop). A mutex and a condition variable:
/// std::barrier waits through std::atomic::wait, which libstdc++ builds on a
/// futex on Linux but on a fallback of its own elsewhere (MinGW); a test of 4
/// threads on one sink hung there twice in one run of the MinGW tests under
/// wine (300 s each; not reproduced in 15 runs after, so the barrier is
/// suspected, not proven).
class StartLine {
public:
    /// `threads`: how many arrive (each through exactly one of the calls below).
    explicit StartLine(std::ptrdiff_t threads) : waiting_for_(threads) {}
    /// Arrives, and waits until every thread has arrived or dropped.
    void arrive_and_wait() {
        std::unique_lock<std::mutex> lock(mutex_);
        if (--waiting_for_ <= 0) {
            lock.unlock();
            all_.notify_all();
            return;
        }
        all_.wait(lock, [this] { return waiting_for_ <= 0; });
    }
    /// Arrives without waiting (a thread that will make no call).
    void arrive_and_drop() {
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            --waiting_for_;
        }
        all_.notify_all();
    }

private:
    std::mutex mutex_;
    std::condition_variable all_;
    std::ptrdiff_t waiting_for_;  ///< threads yet to arrive; guarded by mutex_
};

/// How a per-call row paces and times its calls (Params::rate, burst,
/// batch), in the ticks of the clock that times them.
struct Pacing {
    std::uint64_t rate = 0;    ///< calls per second per thread; 0: closed loop
    unsigned group = 1;        ///< calls due together: the burst, or the batch of a paced batch row
    unsigned batch = 1;        ///< calls averaged into one reading (1: each call its own)
    double period_ticks = 0;   ///< ticks between two calls' due times (rate > 0)
    double ns_per_tick = 1;    ///< the clock's, measured at start (CallClock::figures)
    /// The callers give their CPU up while they wait (wait_until's
    /// yield_cpu): the row has at least as many as the machine's hardware threads.
    bool yield_while_waiting = false;
};

/// Waits until `Clock` reads `due` or later: sleeps while more than 2 ms
/// are left (to 1 ms before), then spins, pausing the CPU between readings
/// (a sleep overshoots by 50 µs or more, which would be counted in the call's
/// latency as if the method had caused it); with `yield_cpu` (a row with at
/// least as many callers as the machine has hardware threads) it gives its
/// CPU up between readings instead (sched_yield), so that a waiting caller
/// does not keep a due caller or the method's own thread off the CPU.
/// Returns the last reading.
template <class Clock>
std::uint64_t wait_until(std::uint64_t due, double ns_per_tick, bool yield_cpu = false) noexcept {
    for (;;) {
        const std::uint64_t now = Clock::now();
        if (now >= due) return now;
        const double left_ns = static_cast<double>(due - now) * ns_per_tick;
        if (left_ns > 2e6) std::this_thread::sleep_for(std::chrono::nanoseconds(static_cast<std::int64_t>(left_ns - 1e6)));
        else if (yield_cpu) std::this_thread::yield();
        else cpu_pause();
    }
}

/// The trial of a per-call row, for any per-call workload: the workload's
/// part is `call_items(sink, begin, end, state)`, which makes the calls
/// for items begin .. end-1 on `sink`, timing each (CallTrial below).
class CallTrialBase : public Trial {
public:
    /// The row of `method` with `params` (threads >= 1) on `workload`'s lines.
    CallTrialBase(Session& session, std::string_view workload, const Method& method, const Params& params,
                  CallLines lines);
    ~CallTrialBase() override;

    void reset() override;
    void run() override;
    std::string verify() override;
    void finish() override;
    /// From the first call to the last close, over every thread.
    std::optional<double> measured_seconds() const override { return seconds_; }
    /// Every reading of every thread over the timed runs so far (CallClock
    /// ticks: times ns_per_tick() for ns), of which the row's percentiles
    /// are; empty for an untimed row. A paced row's readings are from each
    /// call's due time.
    const LatencyHistogram& histogram() const noexcept { return merged_; }
    /// Nanoseconds per tick of the readings, measured over the timed runs.
    double ns_per_tick() const noexcept { return rate_.ns_per_tick(); }

protected:
    /// Makes the calls for items [begin, end) on `sink`, each timed with the
    /// clock `clock` into `state.histogram` (none: untimed), paced and
    /// batched as pacing() says. Throws what a call throws.
    virtual void call_items(ClockKind clock, CallSink sink, std::uint64_t begin, std::uint64_t end,
                            CallThreadState& state) = 0;
    /// The row's pacing and batching.
    const Pacing& pacing() const noexcept { return pacing_; }

private:
    /// The file thread `k` writes (sink:per_thread), or the one all share.
    const std::string& path_of(unsigned k) const { return paths_[shared_ ? 0 : k]; }
    /// Thread k's part of a run: its items, timed; its sink opened and
    /// closed unless shared. Exceptions go to its state's error.
    void thread_part(unsigned k, CallSink shared_sink, StartLine& start);
    /// The lines of `path` checked; "" when right. `only`: the thread whose
    /// file it is (sink:per_thread), or -1 for a shared file. A method that
    /// drops by design (Calls::drops) may have fewer lines than items: how
    /// many fewer is added to `missing`.
    std::string check_file(const std::string& path, int only, std::uint64_t& missing);
    /// What one run of the calls gave: steady_clock ns of the first call and
    /// of the last close, and the allocations of every thread.
    struct Executed {
        std::uint64_t first = 0, end = 0;
        std::uint64_t calls_end = 0;  ///< steady_clock ns when the last call of any thread returned
        HeapCounts heap;
        /// CPU time of the process's threads other than the callers (and
        /// the thread that opened and closed a shared sink) over the run, ns;
        /// nothing where a clock of CPU time is missing.
        std::optional<std::uint64_t> other_cpu_ns;
    };
    /// One run: the sinks opened, the calls made from every thread, the
    /// sinks closed. Rethrows the first error of a thread.
    Executed execute();
    /// The memory figures, from a run of their own before the timed ones
    /// (untimed; its output dropped): the most heap in use above the run's
    /// start (PeakHeap: an atomic add per allocation, kept out of the timed
    /// runs) and the process's peak resident set, where known. A probe run
    /// of 0.5 s or more keeps its figures in the session for the row's
    /// later trials, which then do not probe (reset()).
    void probe_memory();
    /// latency_overhead_ns of a row timed call by call: what timing adds to
    /// this method's own calls, in wall time per call. Before the first run,
    /// on one thread and a sink of its own (the row's first file, removed
    /// after; not verified): pairs of rounds of up to 10,000 calls (items
    /// 0 ..; as many as 0.25 ms holds, one for a call of 0.25 ms or more), timed
    /// as the row times them, then untimed, until 32 pairs or 20 ms (at
    /// least 5 pairs); the median of the pairs' differences, per call (a
    /// round the scheduler interrupted moves its pair's difference far up or
    /// far down, not the median). (Measured here against the rows' own timed
    /// less untimed wall time, docs/methodology.md.) A timed empty call
    /// (latency_empty_call_overhead_ns) overstates it for a call that does
    /// work: part of the readings' cost overlaps the call's own
    /// (docs/methodology.md, "The timing's own cost"). Throws what a call,
    /// the open or the close throws.
    void measure_timing_overhead();
    /// The thread that calls item `i`.
    unsigned owner(std::uint64_t i) const;

    OpenCalls open_;
    CloseCalls close_;
    DecodeCalls decode_;  ///< Calls::decode, or null: the output is text as written
    std::size_t buffer_size_;
    unsigned threads_;
    bool shared_;
    CallLines lines_;
    bool drops_;  ///< Calls::drops: missing lines are counted (records_dropped), not a failure
    std::uint64_t dropped_ = 0;  ///< lines missing in the runs verified so far
    std::uint64_t verified_runs_ = 0;  ///< runs verified so far
    ClockKind clock_;  ///< CallClock's, when the trial was made
    std::vector<std::string> paths_;  ///< one (shared, or 1 thread) or one per thread
    std::vector<std::uint64_t> begin_;  ///< first item of each thread, then items
    std::vector<CallThreadState> state_;  ///< per thread
    TickRate rate_;
    Pacing pacing_;
    LatencyHistogram merged_;              ///< histogram()
    double end_to_end_ns_ = 0, drain_ns_ = 0, other_cpu_ns_ = 0;  ///< sums over the timed runs
    bool other_cpu_known_ = true;          ///< every timed run knew its other_cpu_ns
    std::optional<double> seconds_;
    HeapCounts heap_;                      ///< every thread, every run so far
    std::uint64_t runs_ = 0;               ///< timed runs so far
    bool probed_ = false;                  ///< probe_memory() made
    Session* session_;                     ///< where a long row's probe figures are kept
    std::string row_;                      ///< the row's key among them: workload, method, parameters
    std::exception_ptr probe_error_;       ///< what its calls threw: the next run() throws it
};

/// A CallTrialBase whose calls are `Item`'s: `item.arg(i)` prepares the
/// argument of item i (outside the timed call, and when Item has
/// `arg_may_allocate()`, outside the row's heap count) and `item.call(sink,
/// arg)` makes the call (the method's function, through its pointer).
template <class Item>
class CallTrial final : public CallTrialBase {
public:
    CallTrial(Session& session, std::string_view workload, const Method& method, const Params& params,
              CallLines lines, Item item)
        : CallTrialBase(session, workload, method, params, std::move(lines)), item_(std::move(item)) {}

protected:
    void call_items(ClockKind clock, CallSink sink, std::uint64_t begin, std::uint64_t end,
                    CallThreadState& state) override {
        const Pacing& p = pacing();
        if (p.rate > 0 && clock == ClockKind::none) {
            paced_calls<clocks::Steady, false>(sink, begin, end, state);  // paced, untimed
            return;
        }
        with_clock(clock, [&](auto c) {
            using Clock = decltype(c);
            if constexpr (std::is_same_v<Clock, clocks::None>) timed_calls<Clock>(sink, begin, end, state);
            else if (p.rate > 0) paced_calls<Clock, true>(sink, begin, end, state);
            else if (p.batch > 1) batch_calls<Clock>(sink, begin, end, state);
            else timed_calls<Clock>(sink, begin, end, state);
        });
    }

private:
    /// The argument of item `i`; its allocations counted into `state.argument_heap`.
    auto argument(std::uint64_t i, CallThreadState& state) const {
        if constexpr (requires { Item::arg_may_allocate(); }) {
            const HeapCounts before = this_thread_heap_counts();
            auto arg = item_.arg(i);
            const HeapCounts after = this_thread_heap_counts();
            state.argument_heap.allocations += after.allocations - before.allocations;
            state.argument_heap.bytes += after.bytes - before.bytes;
            return arg;
        } else {
            return item_.arg(i);
        }
    }
    /// The calls of items [begin, end), each between two readings of
    /// `Clock`; nothing else between them (the argument is made before the
    /// first reading, the reading recorded after the second).
    template <class Clock>
    void timed_calls(CallSink sink, std::uint64_t begin, std::uint64_t end, CallThreadState& state) {
        if constexpr (std::is_same_v<Clock, clocks::None>) {
            for (std::uint64_t i = begin; i < end; ++i) item_.call(sink, argument(i, state));
        } else {
            std::uint64_t between = 0;
            std::uint64_t last = Clock::now();
            for (std::uint64_t i = begin; i < end; ++i) {
                const auto arg = argument(i, state);
                const std::uint64_t t0 = Clock::now();
                item_.call(sink, arg);
                const std::uint64_t t1 = Clock::now();
                state.histogram.record(t1 - t0);
                between += t0 - last;
                last = t1;
            }
            state.between_ticks += between;
        }
    }

    /// Closed loop, batched: each `batch` calls back to back between two
    /// readings, their time / their number one reading (the last batch
    /// may be shorter). The arguments are made inside the batch, as the
    /// loop of odygrd/logger_benchmarks makes them.
    template <class Clock>
    void batch_calls(CallSink sink, std::uint64_t begin, std::uint64_t end, CallThreadState& state) {
        const std::uint64_t batch = pacing().batch;
        for (std::uint64_t i = begin; i < end;) {
            const std::uint64_t stop = std::min(end, i + batch), n = stop - i;
            const std::uint64_t t0 = Clock::now();
            for (; i < stop; ++i) item_.call(sink, argument(i, state));
            const std::uint64_t t1 = Clock::now();
            state.histogram.record((t1 - t0) / n);
        }
    }
    /// Open loop: the calls of a group (a burst, or a batch) are due
    /// together, group g at the thread's start + g x group / rate; the
    /// thread waits (wait_until) for a group's due time unless it is already
    /// behind, then makes its calls back to back. Each call's reading is from
    /// its due time to its return (the correction for coordinated omission:
    /// a call that waited behind a slow one counts that wait); a batch's is
    /// from its due time to its last return / its calls. `Record`: false
    /// for an untimed row (paced all the same, by steady_clock).
    template <class Clock, bool Record>
    void paced_calls(CallSink sink, std::uint64_t begin, std::uint64_t end, CallThreadState& state) {
        const Pacing& p = pacing();
        const std::uint64_t start = Clock::now();
        std::uint64_t last = start;
        for (std::uint64_t i = begin; i < end;) {
            const std::uint64_t stop = std::min(end, i + p.group);
            [[maybe_unused]] const std::uint64_t n = stop - i;
            const std::uint64_t due =
                start + static_cast<std::uint64_t>(static_cast<double>(i - begin) * p.period_ticks);
            if (p.batch > 1) {
                const auto first = argument(i, state);
                wait_until<Clock>(due, p.ns_per_tick, p.yield_while_waiting);
                item_.call(sink, first);
                for (++i; i < stop; ++i) item_.call(sink, argument(i, state));
                last = Clock::now();
                if constexpr (Record) state.histogram.record((last - std::min(due, last)) / n);
            } else {
                // The first call's argument is made before its due time; a
                // later one's in the burst, after the calls before it.
                for (; i < stop; ++i) {
                    const auto arg = argument(i, state);
                    wait_until<Clock>(due, p.ns_per_tick, p.yield_while_waiting);
                    item_.call(sink, arg);
                    last = Clock::now();
                    if constexpr (Record) state.histogram.record(last - std::min(due, last));
                }
            }
        }
        state.paced_ticks += last - start;
    }

    Item item_;
};

/// Checks a per-call case before its trial is made: threads from 1 to
/// max_threads, and a shared sink only for a method whose calls allow it
/// (Calls::shared). Returns why not, "" when it can run.
std::string call_case_problem(const Method& method, const Params& params);

}  // namespace iobench
