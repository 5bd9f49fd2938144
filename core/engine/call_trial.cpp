#include "core/engine/call_trial.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <system_error>
#include <utility>

#include "core/engine/runner.hpp"
#include "core/os/cleanup.hpp"
#include "core/os/cpu_time.hpp"
#include "core/os/page_cache.hpp"

namespace iobench {

namespace {

/// A probe run (CallTrialBase::probe_memory) of at least this many seconds
/// is the row's only one: its figures are kept for the row's later trials.
/// Measured: `--suite loggers --scale 0.01` ran 8 runs of each row for its 3
/// timed ones (a sizing trial, 3 repetitions, each trial probing first):
/// `hello/glog` 74 s for 3 x 2 timed runs of 3.9 and 5.1 s.
constexpr double long_probe_seconds = 0.5;

/// The first bytes of `line`, printable, for a message.
std::string shown(std::string_view line) {
    std::string out;
    for (char c : line.substr(0, 60)) {
        if (c == '\n') out += "\\n";
        else if (static_cast<unsigned char>(c) < 32) out += '?';
        else out += c;
    }
    if (line.size() > 60) out += "...";
    return out;
}

/// Calls `each(line)` for every line of the file at `path` ('\n' included; a
/// last line without one is passed as it is), until `each` returns false.
/// Throws std::system_error when the file cannot be read.
template <class Each>
void for_each_line(const std::string& path, Each each) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) throw std::system_error(errno, std::generic_category(), "cannot open " + path);
    std::vector<char> buffer(1 << 20);
    std::string carry;
    bool go = true;
    while (go) {
        const std::size_t n = std::fread(buffer.data(), 1, buffer.size(), f);
        if (n == 0) break;
        std::string_view chunk(buffer.data(), n);
        while (go && !chunk.empty()) {
            const std::size_t nl = chunk.find('\n');
            if (nl == std::string_view::npos) {
                carry.append(chunk);
                break;
            }
            if (carry.empty()) {
                go = each(chunk.substr(0, nl + 1));
            } else {
                carry.append(chunk.substr(0, nl + 1));
                go = each(std::string_view(carry));
                carry.clear();
            }
            chunk.remove_prefix(nl + 1);
        }
    }
    const bool failed = std::ferror(f) != 0;
    std::fclose(f);
    if (failed) throw std::system_error(EIO, std::generic_category(), "cannot read " + path);
    if (go && !carry.empty()) each(std::string_view(carry));
}

/// CallClock's clock; the best one selected first when none was (a
/// trial made outside iobench's main: tests, a user's own harness).
ClockKind clock_in_use() {
    if (!call_clock_selected()) select_call_clock();
    return CallClock::kind();
}

}  // namespace

std::string call_case_problem(const Method& method, const Params& params) {
    if (params.threads < 1 || params.threads > max_threads)
        return fmt::format("threads must be from 1 to {}, not {}", max_threads, params.threads);
    if (params.rate > max_rate)
        return fmt::format("rate must be at most {} calls per second per thread, not {}", max_rate, params.rate);
    if (params.burst > max_batch || params.batch > max_batch)
        return fmt::format("a burst or a batch holds at most {} calls, not {}", max_batch,
                           std::max(params.burst, params.batch));
    if (params.shared_sink && params.threads > 1 && !calls_of(method).shared)
        return fmt::format("{}'s sink is not safe to call from several threads at once (Calls::shared is false): "
                           "sink:per_thread only",
                           method.name);
    return "";
}

CallTrialBase::CallTrialBase(Session& session, std::string_view workload, const Method& method,
                             const Params& params, CallLines lines)
    : open_(calls_of(method).open),
      close_(calls_of(method).close),
      decode_(calls_of(method).decode),
      buffer_size_(params.buffer_size),
      threads_(params.threads),
      shared_(params.shared_sink || params.threads == 1),
      lines_(std::move(lines)),
      drops_(calls_of(method).drops),
      clock_(clock_in_use()),
      state_(params.threads),
      session_(&session),
      row_(fmt::format("{}/{}/b{}/t{}/s{}/r{}/u{}/k{}", workload, method.name, params.buffer_size, params.threads,
                       params.shared_sink, params.rate, params.burst, params.batch)) {
    const Digest& expected = session.expected(lines_.expected.key, lines_.expected.bytes);
    bytes = expected.size;
    items = lines_.expected.items;
    buffer_size = buffer_size_used(method, params);
    threads = params.threads;
    const std::string base = fmt::format("{}-{}", workload, method.name);
    if (shared_) paths_.push_back(session.output(base).string());
    else
        for (unsigned k = 0; k < threads_; ++k) paths_.push_back(session.output(fmt::format("{}-t{}", base, k)).string());
    for (unsigned k = 0; k <= threads_; ++k) begin_.push_back(items * k / threads_);
    pacing_.rate = params.rate;
    pacing_.batch = std::max(1u, params.batch);
    // A paced batch is due as one burst.
    pacing_.group = params.rate > 0 ? (pacing_.batch > 1 ? pacing_.batch : std::max(1u, params.burst)) : 1;
    if (params.rate > 0) {
        const bool ns_ticks = clock_ == ClockKind::none || CallClock::ticks_are_ns();
        pacing_.ns_per_tick = ns_ticks ? 1.0 : CallClock::figures().ns_per_tick;
        pacing_.period_ticks = 1e9 / static_cast<double>(params.rate) / pacing_.ns_per_tick;
        pacing_.yield_while_waiting = threads_ >= std::max(1u, std::thread::hardware_concurrency());
        counters["rate_asked_per_s"] = static_cast<double>(params.rate);
    }
    if (clock_ != ClockKind::none) {
        const TimingCost cost = timing_cost(clock_);
        counters["latency_empty_call_overhead_ns"] = cost.wall_ns;
        counters["latency_empty_call_ns"] = cost.reading_ns;
        counters["latency_resolution_ns"] = CallClock::figures().resolution_ns;
    }
}

CallTrialBase::~CallTrialBase() = default;

void CallTrialBase::reset() {
    for (const std::string& p : paths_) remove_and_settle(p, bytes / paths_.size());
    if (!probed_) {
        // Before the first run: the memory it holds, in a run of its own.
        // What a call (or an open) throws there is the method's failure,
        // not the preparation's: thrown by the run, as a timed call's is.
        probed_ = true;
        try {
            // A row whose probe run took long_probe_seconds or more probes
            // once (its sizing run's trial) and its repetitions report those
            // figures: such a run is its own warm-up, and probing it again
            // before each repetition would double the row's wall time.
            if (const std::map<std::string, double>* kept = session_->kept_probe(row_))
                for (const auto& [name, value] : *kept) counters[name] = value;
            else
                probe_memory();
            if (clock_ != ClockKind::none && pacing_.rate == 0 && pacing_.batch == 1) measure_timing_overhead();
        } catch (...) {
            probe_error_ = std::current_exception();
        }
        for (const std::string& p : paths_) remove_and_settle(p, bytes / paths_.size());
    }
}

unsigned CallTrialBase::owner(std::uint64_t i) const {
    const auto it = std::upper_bound(begin_.begin(), begin_.end(), i);
    return static_cast<unsigned>(it - begin_.begin()) - 1;
}

void CallTrialBase::thread_part(unsigned k, CallSink shared_sink, StartLine& start) {
    // This thread's allocations: its sink's open and close, and its calls.
    CallThreadState& state = state_[k];
    HeapCountScope heap(state.heap);
    CallSink sink = shared_sink;
    const std::optional<std::uint64_t> cpu0 = thread_cpu_ns();
    try {
        if (!shared_) sink = open_(Sink{path_of(k), buffer_size_});
    } catch (...) {
        state.error = std::current_exception();
        start.arrive_and_drop();  // the others do not wait for this thread
        return;
    }
    start.arrive_and_wait();
    state.started = steady_ns();
    try {
        call_items(clock_, sink, begin_[k], begin_[k + 1], state);
    } catch (...) {
        state.error = std::current_exception();
    }
    state.calls_ended = steady_ns();
    if (!shared_) {
        try {
            close_(sink);
        } catch (...) {
            if (!state.error) state.error = std::current_exception();
        }
    }
    state.ended = steady_ns();
    const std::optional<std::uint64_t> cpu1 = thread_cpu_ns();
    state.cpu_known = cpu0 && cpu1;
    state.cpu_ns = state.cpu_known ? *cpu1 - std::min(*cpu0, *cpu1) : 0;
}

CallTrialBase::Executed CallTrialBase::execute() {
    for (CallThreadState& t : state_) {
        t.error = nullptr;
        t.heap = t.argument_heap = HeapCounts{};
        t.started = t.ended = t.calls_ended = t.cpu_ns = 0;
        t.cpu_known = false;
    }
    // CPU time over the run: the process's, and this thread's (which opens
    // and closes a shared sink, and is the caller of a one-thread row).
    const std::optional<std::uint64_t> process_cpu0 = process_cpu_ns(), own_cpu0 = thread_cpu_ns();
    // What this thread allocates for iobench itself (the threads, the
    // start line) is not the method's: counted here, and dropped, so that the
    // other-threads count below sees only the method's own threads.
    HeapCounts iobench_own;
    HeapCountScope own_heap(iobench_own);
    Executed done;
    OtherThreadsHeapCount others;
    CallSink sink = nullptr;
    if (shared_) {
        HeapCountScope heap(done.heap);
        sink = open_(Sink{paths_[0], buffer_size_});
    }
    StartLine start(static_cast<std::ptrdiff_t>(threads_));
    rate_.start();
    if (threads_ == 1) {
        thread_part(0, sink, start);
    } else {
        std::vector<std::thread> workers;
        workers.reserve(threads_);
        try {
            for (unsigned k = 0; k < threads_; ++k) workers.emplace_back([this, k, sink, &start] { thread_part(k, sink, start); });
        } catch (...) {
            // A thread that could not be started never arrives: the others
            // would wait for it for ever. Not expected below max_threads.
            std::terminate();
        }
        for (std::thread& t : workers) t.join();
    }
    for (const CallThreadState& t : state_) done.end = std::max(done.end, t.ended);
    if (shared_) {
        HeapCountScope heap(done.heap);
        try {
            close_(sink);
        } catch (...) {
            if (!state_[0].error) state_[0].error = std::current_exception();
        }
        done.end = steady_ns();
    }
    rate_.stop();
    const std::optional<std::uint64_t> process_cpu1 = process_cpu_ns(), own_cpu1 = thread_cpu_ns();
    for (const CallThreadState& t : state_) done.calls_end = std::max(done.calls_end, t.calls_ended);
    if (process_cpu0 && process_cpu1 && own_cpu0 && own_cpu1) {
        // Process less this thread less the workers (on one thread this
        // thread is the caller: its part is inside its own reading).
        std::uint64_t callers = *own_cpu1 - std::min(*own_cpu0, *own_cpu1);
        bool known = true;
        if (threads_ > 1)
            for (const CallThreadState& t : state_) {
                callers += t.cpu_ns;
                known = known && t.cpu_known;
            }
        const std::uint64_t process = *process_cpu1 - std::min(*process_cpu0, *process_cpu1);
        if (known) done.other_cpu_ns = process - std::min(process, callers);
    }
    done.heap += others.take();
    for (const CallThreadState& t : state_) {
        // The method's allocations: what making the arguments allocated is the workload's.
        done.heap.allocations += t.heap.allocations - std::min(t.heap.allocations, t.argument_heap.allocations);
        done.heap.bytes += t.heap.bytes - std::min(t.heap.bytes, t.argument_heap.bytes);
    }
    for (const CallThreadState& t : state_)
        if (t.error) std::rethrow_exception(t.error);
    done.first = state_[0].started;
    for (const CallThreadState& t : state_) done.first = std::min(done.first, t.started);
    return done;
}

void CallTrialBase::run() {
    seconds_.reset();
    if (probe_error_) std::rethrow_exception(std::exchange(probe_error_, nullptr));
    const Executed done = execute();
    seconds_ = static_cast<double>(done.end - done.first) * 1e-9;
    ++runs_;
    // The whole run, as an asynchronous method's user sees it: from the
    // first call to the close's return (its backend's draining included),
    // the part of it after the last call, and the CPU time of the threads
    // that are not callers (its backend's); averages over the runs.
    end_to_end_ns_ += static_cast<double>(done.end - done.first);
    drain_ns_ += static_cast<double>(done.end - std::min(done.end, std::max(done.first, done.calls_end)));
    if (done.other_cpu_ns) other_cpu_ns_ += static_cast<double>(*done.other_cpu_ns);
    else other_cpu_known_ = false;
    const double run_count = static_cast<double>(runs_);
    counters["end_to_end_ns"] = end_to_end_ns_ / run_count;
    counters["drain_ns"] = drain_ns_ / run_count;
    if (other_cpu_known_) counters["other_threads_cpu_ns"] = other_cpu_ns_ / run_count;
    else counters.erase("other_threads_cpu_ns");
    if (pacing_.rate > 0) {
        // Each thread's calls per second, from its first call's due time to
        // its last call's return, over the threads and runs.
        std::uint64_t ticks = 0;
        for (const CallThreadState& t : state_) ticks += t.paced_ticks;
        const double tick_ns = clock_ == ClockKind::none ? 1.0 : rate_.ns_per_tick();
        if (ticks > 0)
            counters["rate_achieved_per_s"] =
                static_cast<double>(items) * run_count / (static_cast<double>(ticks) * tick_ns * 1e-9);
    }
    if (heap_counted()) {
        heap_ += done.heap;
        const double calls = static_cast<double>(items) * static_cast<double>(runs_);
        counters["heap_allocations_per_item"] = static_cast<double>(heap_.allocations) / calls;
        counters["heap_bytes_per_item"] = static_cast<double>(heap_.bytes) / calls;
    }
    // A thread's wall time per item: what one call costs it, the timing and
    // making the argument included (beside latency_overhead_ns).
    counters["latency_wall_ns_per_item"] = *seconds_ * 1e9 * threads_ / static_cast<double>(items);
    if (clock_ == ClockKind::none) return;  // untimed: no readings
    LatencyHistogram merged;
    std::uint64_t between = 0;
    for (const CallThreadState& t : state_) {
        merged.merge(t.histogram);
        between += t.between_ticks;
    }
    const double ns_per_tick = rate_.ns_per_tick();
    const LatencySummary s = summarize(merged, ns_per_tick);
    merged_ = std::move(merged);
    if (pacing_.rate == 0 && pacing_.batch == 1)
        counters["latency_between_calls_ns"] =
            static_cast<double>(between) * ns_per_tick / (static_cast<double>(items) * static_cast<double>(runs_));
    counters["latency_p50_ns"] = s.p50;
    counters["latency_p75_ns"] = s.p75;
    counters["latency_p90_ns"] = s.p90;
    counters["latency_p95_ns"] = s.p95;
    counters["latency_p99_ns"] = s.p99;
    counters["latency_p999_ns"] = s.p999;
    counters["latency_max_ns"] = s.max;
    counters["latency_calls"] = static_cast<double>(s.calls);
}

void CallTrialBase::probe_memory() {
    if (!heap_peak_tracked() && !reset_peak_resident()) return;  // nothing to measure here
    // The probe's calls are timed into histograms of their own, dropped
    // (made before the peaks are reset: they are iobench's, not the method's).
    std::vector<LatencyHistogram> kept(threads_);
    std::vector<std::uint64_t> kept_between(threads_), kept_paced(threads_);
    const auto swap_kept = [&] {
        for (unsigned k = 0; k < threads_; ++k) {
            std::swap(kept[k], state_[k].histogram);
            std::swap(kept_between[k], state_[k].between_ticks);
            std::swap(kept_paced[k], state_[k].paced_ticks);
        }
    };
    swap_kept();
    const TickRate rate = rate_;
    const std::optional<std::uint64_t> resident_before = reset_peak_resident();
    std::optional<std::uint64_t> heap_peak;
    // The method's code runs here, before any timed run: held to the time
    // limit as a measured call is (a call that never returns ends the run).
    mark_method_call(true);
    const std::uint64_t probe_start = steady_ns();
    try {
        PeakHeap heap;
        execute();
        heap_peak = heap.take();
        mark_method_call(false);
    } catch (...) {
        mark_method_call(false);
        swap_kept();
        rate_ = rate;
        throw;
    }
    const std::optional<std::uint64_t> resident_peak = resident_before ? peak_resident() : std::nullopt;
    swap_kept();
    rate_ = rate;
    std::map<std::string, double> figures;
    if (heap_peak_tracked()) figures["peak_heap_bytes"] = static_cast<double>(*heap_peak);
    if (resident_peak) figures["peak_resident_bytes"] = static_cast<double>(*resident_peak);
    for (const auto& [name, value] : figures) counters[name] = value;
    if (static_cast<double>(steady_ns() - probe_start) * 1e-9 >= long_probe_seconds)
        session_->keep_probe(row_, std::move(figures));
}

void CallTrialBase::measure_timing_overhead() {
    const std::uint64_t most = std::min<std::uint64_t>(items, 10000);
    if (most == 0) return;
    constexpr int max_pairs = 32;
    constexpr std::uint64_t round_ns = 250'000;
    constexpr std::uint64_t budget_ns = 20'000'000;
    // A state of its own: these readings are not the row's.
    const auto scratch = std::make_unique<CallThreadState>();
    std::vector<double> differences;  // each pair of rounds: timed less untimed, ns per call
    // The method's code runs here: held to the time limit as a measured call is.
    mark_method_call(true);
    CallSink sink = nullptr;
    try {
        sink = open_(Sink{paths_[0], buffer_size_});
        // The rounds' size: doubled from 1 call until a round takes 0.25 ms or
        // holds `most` (a call of 20 ms is measured in rounds of one): a
        // short round is seldom interrupted by the scheduler.
        std::uint64_t n = 1;
        for (;;) {
            const std::uint64_t t0 = steady_ns();
            call_items(clock_, sink, 0, n, *scratch);
            if (steady_ns() - t0 >= round_ns || n == most) break;
            n = std::min(most, 2 * n);
        }
        const std::uint64_t begun = steady_ns();
        for (int pair = 0; pair < max_pairs; ++pair) {
            const std::uint64_t t0 = steady_ns();
            call_items(clock_, sink, 0, n, *scratch);
            const std::uint64_t t1 = steady_ns();
            call_items(ClockKind::none, sink, 0, n, *scratch);
            const std::uint64_t t2 = steady_ns();
            differences.push_back((static_cast<double>(t1 - t0) - static_cast<double>(t2 - t1)) /
                                  static_cast<double>(n));
            if (pair >= 4 && t2 - begun > budget_ns) break;
        }
        CallSink open_sink = std::exchange(sink, nullptr);
        close_(open_sink);
    } catch (...) {
        if (sink) {
            try {
                close_(sink);
            } catch (...) {  // the first error is the one reported
            }
        }
        mark_method_call(false);
        throw;
    }
    mark_method_call(false);
    // The median of the pairs' differences: a round the scheduler
    // interrupted moves its pair's difference far up (a timed round) or far
    // down (an untimed one), and the median stays with the pairs it spared.
    std::sort(differences.begin(), differences.end());
    const std::size_t h = differences.size() / 2;
    const double median = differences.size() % 2 ? differences[h] : (differences[h - 1] + differences[h]) / 2;
    counters["latency_overhead_ns"] = std::max(0.0, median);
}

std::string CallTrialBase::check_file(const std::string& path, int only, std::uint64_t& missing) {
    std::vector<bool> seen(lines_.same_lines ? 0 : items, false);
    std::vector<std::int64_t> last(threads_, -1);
    std::uint64_t count = 0, line_number = 0;
    std::string problem;
    for_each_line(path, [&](std::string_view line) {
        ++line_number;
        const std::int64_t i = line.empty() || line.back() != '\n' ? -1 : lines_.identify(line);
        if (i < 0 || static_cast<std::uint64_t>(i) >= items) {
            problem = fmt::format("line {} is no item's line (torn, joined or foreign): \"{}\"", line_number, shown(line));
            return false;
        }
        ++count;
        if (lines_.same_lines) return true;
        const auto item = static_cast<std::uint64_t>(i);
        if (seen[item]) {
            problem = fmt::format("line {}: item {} written twice", line_number, item);
            return false;
        }
        seen[item] = true;
        const unsigned k = owner(item);
        if (only >= 0 && k != static_cast<unsigned>(only)) {
            problem = fmt::format("line {}: item {} is thread {}'s, in thread {}'s file", line_number, item, k, only);
            return false;
        }
        if (i <= last[k]) {
            problem = fmt::format("line {}: thread {}'s item {} after its item {}: out of its order", line_number, k,
                                  item, last[k]);
            return false;
        }
        last[k] = i;
        return true;
    });
    if (!problem.empty()) return problem;
    const std::uint64_t want = only >= 0 ? begin_[only + 1] - begin_[only] : items;
    // (Fewer lines from a method that drops by design: each line present
    // was checked above, whole, once and in its thread's order.)
    if (drops_ && count < want) {
        missing += want - count;
        return "";
    }
    if (count != want) return fmt::format("{} lines, expected {}", count, want);
    return "";
}

std::string CallTrialBase::verify() {
    std::uint64_t missing = 0;
    try {
        // A binary log made text by the method's own decoder first (outside the run's time).
        if (decode_)
            for (const std::string& p : paths_) decode_(Sink{p, buffer_size_});
        if (shared_) {
            if (std::string problem = check_file(paths_[0], threads_ == 1 ? 0 : -1, missing); !problem.empty())
                return problem;
        } else {
            for (unsigned k = 0; k < threads_; ++k)
                if (std::string problem = check_file(paths_[k], static_cast<int>(k), missing); !problem.empty())
                    return fmt::format("thread {}'s file: {}", k, problem);
        }
    } catch (const std::exception& e) {
        return fmt::format("cannot read the output back: {}", e.what());
    }
    if (drops_) {
        // Records lost by design: per run, averaged over the runs verified
        // (0 when the logger kept up).
        dropped_ += missing;
        ++verified_runs_;
        counters["records_dropped"] = static_cast<double>(dropped_) / static_cast<double>(verified_runs_);
    }
    return "";
}

void CallTrialBase::finish() {
    for (const std::string& p : paths_) {
        std::error_code ec;
        std::filesystem::remove(p, ec);
        forget_on_interrupt(p);
    }
}

}  // namespace iobench
