#include "core/engine/call_trial.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <system_error>
#include <utility>

#include "core/engine/runner.hpp"
#include "core/os/cleanup.hpp"
#include "core/os/page_cache.hpp"

namespace iobench {

namespace {

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

}  // namespace

std::string call_case_problem(const Method& method, const Params& params) {
    if (params.threads < 1 || params.threads > max_threads)
        return fmt::format("threads must be from 1 to {}, not {}", max_threads, params.threads);
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
      buffer_size_(params.buffer_size),
      threads_(params.threads),
      shared_(params.shared_sink || params.threads == 1),
      lines_(std::move(lines)),
      histograms_(params.threads),
      errors_(params.threads),
      started_(params.threads),
      ended_(params.threads),
      thread_heap_(params.threads) {
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
    counters["latency_overhead_ns"] = timing_overhead_ns();
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
            probe_memory();
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

void CallTrialBase::thread_part(unsigned k, CallSink shared_sink, std::barrier<>& start) {
    // This thread's allocations: its sink's open and close, and its calls.
    HeapCountScope heap(thread_heap_[k]);
    CallSink sink = shared_sink;
    try {
        if (!shared_) sink = open_(Sink{path_of(k), buffer_size_});
    } catch (...) {
        errors_[k] = std::current_exception();
        start.arrive_and_drop();  // the others do not wait for this thread
        return;
    }
    start.arrive_and_wait();
    started_[k] = CallClock::steady_ns();
    try {
        call_items(sink, begin_[k], begin_[k + 1], histograms_[k]);
    } catch (...) {
        errors_[k] = std::current_exception();
    }
    if (!shared_) {
        try {
            close_(sink);
        } catch (...) {
            if (!errors_[k]) errors_[k] = std::current_exception();
        }
    }
    ended_[k] = CallClock::steady_ns();
}

CallTrialBase::Executed CallTrialBase::execute() {
    std::fill(errors_.begin(), errors_.end(), nullptr);
    std::fill(thread_heap_.begin(), thread_heap_.end(), HeapCounts{});
    // What this thread allocates for iobench itself (the threads, the
    // barrier) is not the method's: counted here, and dropped, so that the
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
    std::barrier<> start(static_cast<std::ptrdiff_t>(threads_));
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
    done.end = *std::max_element(ended_.begin(), ended_.end());
    if (shared_) {
        HeapCountScope heap(done.heap);
        try {
            close_(sink);
        } catch (...) {
            if (!errors_[0]) errors_[0] = std::current_exception();
        }
        done.end = CallClock::steady_ns();
    }
    rate_.stop();
    done.heap += others.take();
    for (const HeapCounts& h : thread_heap_) done.heap += h;
    for (const std::exception_ptr& e : errors_)
        if (e) std::rethrow_exception(e);
    done.first = *std::min_element(started_.begin(), started_.end());
    return done;
}

void CallTrialBase::run() {
    seconds_.reset();
    if (probe_error_) std::rethrow_exception(std::exchange(probe_error_, nullptr));
    const Executed done = execute();
    seconds_ = static_cast<double>(done.end - done.first) * 1e-9;
    ++runs_;
    if (heap_counted()) {
        heap_ += done.heap;
        const double calls = static_cast<double>(items) * static_cast<double>(runs_);
        counters["heap_allocations_per_item"] = static_cast<double>(heap_.allocations) / calls;
        counters["heap_bytes_per_item"] = static_cast<double>(heap_.bytes) / calls;
    }
    LatencyHistogram merged;
    for (const LatencyHistogram& h : histograms_) merged.merge(h);
    const LatencySummary s = summarize(merged, rate_.ns_per_tick());
    counters["latency_p50_ns"] = s.p50;
    counters["latency_p90_ns"] = s.p90;
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
    std::swap(kept, histograms_);
    const TickRate rate = rate_;
    const std::optional<std::uint64_t> resident_before = reset_peak_resident();
    std::optional<std::uint64_t> heap_peak;
    // The method's code runs here, before any timed run: held to the time
    // limit as a measured call is (a call that never returns ends the run).
    mark_method_call(true);
    try {
        PeakHeap heap;
        execute();
        heap_peak = heap.take();
        mark_method_call(false);
    } catch (...) {
        mark_method_call(false);
        std::swap(kept, histograms_);
        rate_ = rate;
        throw;
    }
    const std::optional<std::uint64_t> resident_peak = resident_before ? peak_resident() : std::nullopt;
    std::swap(kept, histograms_);
    rate_ = rate;
    if (heap_peak_tracked()) counters["peak_heap_bytes"] = static_cast<double>(*heap_peak);
    if (resident_peak) counters["peak_resident_bytes"] = static_cast<double>(*resident_peak);
}

std::string CallTrialBase::check_file(const std::string& path, int only) {
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
    if (count != want) return fmt::format("{} lines, expected {}", count, want);
    return "";
}

std::string CallTrialBase::verify() {
    try {
        if (shared_) return check_file(paths_[0], threads_ == 1 ? 0 : -1);
        for (unsigned k = 0; k < threads_; ++k)
            if (std::string problem = check_file(paths_[k], static_cast<int>(k)); !problem.empty())
                return fmt::format("thread {}'s file: {}", k, problem);
    } catch (const std::exception& e) {
        return fmt::format("cannot read the output back: {}", e.what());
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
