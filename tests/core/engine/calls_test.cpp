// The per-call shape (iobench/calls.hpp, core/engine/call_trial.hpp): the
// latency histogram, the per-call trials on one thread and on several (a
// shared sink and one per thread), the stall a tail percentile must show,
// and the broken methods the line check must catch.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <cstdio>
#include <random>
#include <string>
#include <thread>
#include <memory>
#include <vector>

#include <iobench/error.hpp>
#include <iobench/method.hpp>
#include <iobench/workload.hpp>
#include "core/engine/call_trial.hpp"
#include "core/engine/case_trial.hpp"
#include "core/engine/session.hpp"
#include "core/engine/suite.hpp"
#include "core/measure/latency.hpp"
#include "core/os/cpu_time.hpp"
#include "core/os/emulator.hpp"
#include "core/os/memory_use.hpp"
#include "core/os/os_counters.hpp"
#include "data/log_records.hpp"
#include "call_run.hpp"
#include "test_dir.hpp"

namespace iobench {
namespace {

// --- methods of the tests -------------------------------------------------------

/// A FILE* and a count of the calls made on it; sinks that hold more derive from it.
struct CountedFile {
    std::FILE* f = nullptr;
    std::uint64_t calls = 0;
    std::string path;
    virtual ~CountedFile() = default;
};

/// Opens a `File` (a CountedFile) whose FILE* writes the sink's path.
template <class File>
CallSink open_file_of(const Sink& sink) {
    auto s = std::make_unique<File>();
    s->f = std::fopen(sink.path.c_str(), "wb");
    if (!s->f) throw_errno("fopen", sink.path);
    s->path = sink.path;
    return static_cast<CountedFile*>(s.release());
}

CallSink counted_open(const Sink& sink) { return open_file_of<CountedFile>(sink); }

/// Closes any CountedFile (its destructor ends what it holds).
void counted_close(CallSink sink) {
    std::unique_ptr<CountedFile> s(static_cast<CountedFile*>(sink));
    if (std::fclose(s->f) != 0) throw_errno("fclose", s->path);
}

/// fwrite of the line; every 1,000th call also sleeps 2 ms: a stall in one
/// call in 1,000, as a logger's flush would be.
void stall_line(CallSink sink, std::string_view line) {
    auto& s = *static_cast<CountedFile*>(sink);
    std::fwrite(line.data(), 1, line.size(), s.f);
    if (++s.calls % 1000 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(2));
}

/// Halves written by broken_torn_line, by every thread.
std::atomic<std::uint64_t> halves_written{0};

/// Claims a shareable sink, but writes each line in two fwrite calls, and
/// between them waits (up to 20 ms) until another thread has written a half:
/// with two threads or more on the sink, some line is torn, every time.
void torn_line(CallSink sink, std::string_view line) {
    auto& s = *static_cast<CountedFile*>(sink);
    const std::size_t half = line.size() / 2;
    std::fwrite(line.data(), 1, half, s.f);
    const std::uint64_t mine = ++halves_written;
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(20);
    while (halves_written.load() == mine && std::chrono::steady_clock::now() < until) std::this_thread::yield();
    std::fwrite(line.data() + half, 1, line.size() - half, s.f);
    ++halves_written;
}

/// Writes each pair of integers the wrong way round (1, 0, 3, 2, ...): every
/// line whole, the thread's order not kept (one sink per thread). The value
/// held is the sink's: a new sink starts afresh. (An odd last one is lost.)
struct HeldFile : CountedFile {
    bool holding = false;
    std::uint64_t value = 0;
};
void swapped_int(CallSink sink, std::uint64_t v) {
    auto& s = *static_cast<HeldFile*>(static_cast<CountedFile*>(sink));
    if (!s.holding) {
        s.holding = true;
        s.value = v;
        return;
    }
    std::fprintf(s.f, "%llu\n%llu\n", static_cast<unsigned long long>(v), static_cast<unsigned long long>(s.value));
    s.holding = false;
}

/// fwrite of a heap copy of the line: one allocation of 256 bytes or more per call.
void copying_line(CallSink sink, std::string_view line) {
    auto& s = *static_cast<CountedFile*>(sink);
    std::string copy;
    copy.reserve(256);
    copy.append(line);
    std::fwrite(copy.data(), 1, copy.size(), s.f);
}

/// A sink whose own thread makes 1,000 allocations of 100 bytes, started by
/// the open and joined by the close: the allocations of a method's threads.
struct BackgroundFile : CountedFile {
    std::thread worker;
    ~BackgroundFile() override {
        if (worker.joinable()) worker.join();
    }
};
void* volatile background_block;

CallSink background_open(const Sink& sink) {
    auto* s = static_cast<BackgroundFile*>(static_cast<CountedFile*>(open_file_of<BackgroundFile>(sink)));
    s->worker = std::thread([] {
        for (int k = 0; k < 1000; ++k) {
            char* p = new char[100];
            background_block = p;
            delete[] p;
        }
    });
    return static_cast<CountedFile*>(s);
}

/// A sink that holds 64 MiB, every page touched, from its open to its close.
struct ResidentFile : CountedFile {
    std::vector<char> block = std::vector<char>(64u << 20, 1);
};

void plain_line(CallSink sink, std::string_view line) {
    auto& s = *static_cast<CountedFile*>(sink);
    std::fwrite(line.data(), 1, line.size(), s.f);
}

/// The call of zz_stall_once that stalls, counted from 1 on each sink.
constexpr std::uint64_t stall_once_at = 5000;
/// How long zz_stall_once's stall lasted in its last run, steady_clock ns.
std::atomic<std::uint64_t> stall_once_ns{0};

/// fwrite of the line; the 5,000th call on a sink also sleeps 10 ms, once:
/// the stall of the coordinated-omission test.
void stall_once_line(CallSink sink, std::string_view line) {
    auto& s = *static_cast<CountedFile*>(sink);
    std::fwrite(line.data(), 1, line.size(), s.f);
    if (++s.calls == stall_once_at) {
        const std::uint64_t t0 = steady_ns();
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        stall_once_ns = steady_ns() - t0;
    }
}

/// fwrite of the line, then a spin of 5 us on steady_clock: a call that
/// does work far above what timing it costs.
void spin_line(CallSink sink, std::string_view line) {
    auto& s = *static_cast<CountedFile*>(sink);
    std::fwrite(line.data(), 1, line.size(), s.f);
    const std::uint64_t until = steady_ns() + 5'000;
    while (steady_ns() < until) {
    }
}

/// CPU time zz_backend's own thread uses in each run, ns.
constexpr std::uint64_t backend_cpu_ns = 30'000'000;

/// A sink whose own thread (a logger's backend) spins until it has used
/// backend_cpu_ns of CPU time, started by the open and joined by the close.
struct BackendFile : CountedFile {
    std::thread worker;
    ~BackendFile() override {
        if (worker.joinable()) worker.join();
    }
};

CallSink backend_open(const Sink& sink) {
    auto* s = static_cast<BackendFile*>(static_cast<CountedFile*>(open_file_of<BackendFile>(sink)));
    s->worker = std::thread([] {
        const std::uint64_t t0 = thread_cpu_ns().value_or(0);
        while (thread_cpu_ns().value_or(~std::uint64_t{0}) - t0 < backend_cpu_ns) {
        }
    });
    return static_cast<CountedFile*>(s);
}

/// The byte zz_encoded writes for each byte of a line (a "binary log": no
/// line of it is an item's until zz_encoded's decode undoes it).
constexpr unsigned char encoding_mask = 0x5A;

/// fwrite of the line with every byte (its '\n' too) XORed with encoding_mask.
void encoded_line(CallSink sink, std::string_view line) {
    auto& s = *static_cast<CountedFile*>(sink);
    for (const char c : line) std::fputc(static_cast<unsigned char>(c) ^ encoding_mask, s.f);
}

/// How long zz_encoded's decode sleeps before it decodes, ms (its time must
/// not be the row's).
constexpr int decode_sleep_ms = 300;

/// The file at `sink.path` XORed back with encoding_mask, less its last
/// `drop` lines, after a sleep of decode_sleep_ms.
void decode_file(const Sink& sink, int drop) {
    std::this_thread::sleep_for(std::chrono::milliseconds(decode_sleep_ms));
    std::string text;
    {
        std::ifstream in(sink.path, std::ios::binary);
        if (!in) throw_errno("open", sink.path);
        text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    for (char& c : text) c = static_cast<char>(static_cast<unsigned char>(c) ^ encoding_mask);
    for (int k = 0; k < drop && !text.empty(); ++k) text.erase(text.rfind('\n', text.size() - 2) + 1);
    std::ofstream(sink.path, std::ios::binary | std::ios::trunc) << text;
}
void decode_whole(const Sink& sink) { decode_file(sink, 0); }
void decode_losing_a_line(const Sink& sink) { decode_file(sink, 1); }

/// How many sinks zz_slow_close has opened, and how long its close sleeps, ms
/// (0: not at all).
std::atomic<int> slow_close_opens{0};
std::atomic<int> slow_close_ms{0};

CallSink slow_close_open(const Sink& sink) {
    ++slow_close_opens;
    return counted_open(sink);
}

/// counted_close after a sleep of slow_close_ms: a run as long as a test needs.
void slow_close(CallSink sink) {
    std::this_thread::sleep_for(std::chrono::milliseconds(slow_close_ms.load()));
    counted_close(sink);
}

constexpr Calls copying_calls{.open = counted_open, .close = counted_close, .put_line = copying_line};
constexpr Calls background_calls{.open = background_open, .close = counted_close, .put_line = plain_line};
constexpr Calls resident_calls{.open = open_file_of<ResidentFile>, .close = counted_close, .put_line = plain_line};

constexpr Calls stall_once_calls{.open = counted_open, .close = counted_close, .put_line = stall_once_line};
constexpr Calls backend_calls{.open = backend_open, .close = counted_close, .put_line = plain_line};
constexpr Calls stall_calls{.open = counted_open, .close = counted_close, .put_line = stall_line};
constexpr Calls spin_calls{.open = counted_open, .close = counted_close, .put_line = spin_line};
constexpr Calls torn_calls{.open = counted_open, .close = counted_close, .put_line = torn_line, .shared = true};
constexpr Calls encoded_calls{
    .open = counted_open, .close = counted_close, .put_line = encoded_line, .decode = decode_whole};
constexpr Calls encoded_lossy_calls{
    .open = counted_open, .close = counted_close, .put_line = encoded_line, .decode = decode_losing_a_line};
constexpr Calls slow_close_calls{.open = slow_close_open, .close = slow_close, .put_line = plain_line};
constexpr Calls swapped_calls{.open = open_file_of<HeldFile>, .close = counted_close, .put_int = swapped_int};

const MethodRegistrar calls_registrar{{.family = "zz_calls"}, {
    {.name = "zz_stall", .description = "fwrite per call; every 1,000th call sleeps 2 ms (tests)", .calls = &stall_calls},
    {.name = "zz_stall_once", .description = "fwrite per call; the 5,000th call sleeps 10 ms, once (tests)",
     .calls = &stall_once_calls},
    {.name = "zz_spin", .description = "fwrite per call, then a spin of 5 us (tests)", .calls = &spin_calls},
    {.name = "zz_backend", .description = "fwrite per call; the sink's own thread uses 30 ms of CPU time (tests)",
     .calls = &backend_calls},
    {.name = "zz_copying", .description = "fwrite of a heap copy of each line (tests)", .calls = &copying_calls},
    {.name = "zz_background",
     .description = "fwrite per call; the sink's own thread makes 1,000 allocations (tests)",
     .calls = &background_calls},
    {.name = "zz_resident", .description = "fwrite per call; the sink holds 64 MiB resident (tests)", .calls = &resident_calls},
    {.name = "zz_slow_close", .description = "fwrite per call; the close sleeps as a test says (tests)",
     .calls = &slow_close_calls},
    {.name = "zz_encoded", .description = "each line's bytes XORed, decoded after the run (tests)",
     .calls = &encoded_calls},
}};

const MethodRegistrar broken_registrar{{.family = "zz_broken"}, {
    {.name = "broken_torn_line",
     .description = "claims a shareable sink, writes each line in two halves (tests)",
     .calls = &torn_calls},
    {.name = "broken_swapped_ints", .description = "writes the integers in swapped pairs (tests)", .calls = &swapped_calls},
    {.name = "broken_lossy_decoder", .description = "zz_encoded whose decoder loses the last line (tests)",
     .calls = &encoded_lossy_calls},
}};

// --- running one per-call trial ---------------------------------------------------

using test::CallRun;
using test::run_calls;

/// A per-call run with its readings: how many were above 1 ms.
struct ReadRun {
    CallRun run;
    std::uint64_t over_1ms = 0;  ///< readings above 1 ms (within 1/128)
    /// Seconds the calling thread (a one-thread row's caller) waited on a
    /// run queue for a CPU during the timed run, where the system says.
    std::optional<double> run_queue_seconds;
    /// Seconds of the timed run the calling thread was off its CPU (wall time
    /// less its CPU time: asleep, blocked, or waiting for a CPU), where known.
    std::optional<double> off_cpu_seconds;
};

ReadRun run_read(double scale, const char* workload, const char* method, const Params& params) {
    test::TempDir dir;
    Session session(dir.path(), scale, false);
    const Workload* w = find_workload(workload);
    const Method* m = find_method(method);
    EXPECT_TRUE(w && m);
    auto trial = trial_for(*w, *m, params, session);
    trial->reset();
    const OsCounters before = take_os_snapshot(OsScope::thread);
    const std::optional<std::uint64_t> cpu0 = thread_cpu_ns();
    const std::uint64_t wall0 = steady_ns();
    trial->run();
    const std::uint64_t wall1 = steady_ns();
    const std::optional<std::uint64_t> cpu1 = thread_cpu_ns();
    const OsCounters after = take_os_snapshot(OsScope::thread);
    ReadRun out;
    if (cpu0 && cpu1)
        out.off_cpu_seconds = (static_cast<double>(wall1 - wall0) - static_cast<double>(*cpu1 - *cpu0)) * 1e-9;
    if (before.has(OsCounter::run_queue_time) && after.has(OsCounter::run_queue_time))
        out.run_queue_seconds = after[OsCounter::run_queue_time] - before[OsCounter::run_queue_time];
    out.run = {trial->verify(), trial->counters, trial->measured_seconds(), trial->items, trial->buffer_size};
    const auto* calls = dynamic_cast<const CallTrialBase*>(trial.get());
    EXPECT_TRUE(calls);
    if (calls) out.over_1ms = calls->histogram().count_above(static_cast<std::uint64_t>(1e6 / calls->ns_per_tick()));
    trial->finish();
    return out;
}

// --- the histogram -------------------------------------------------------------

TEST(LatencyHistogram, EveryValueIsInABucketWithin1In128) {
    std::mt19937_64 random(7);
    for (int k = 0; k < 200000; ++k) {
        const unsigned bits = static_cast<unsigned>(random() % 64) + 1;
        const std::uint64_t v = bits == 64 ? random() : random() & ((std::uint64_t{1} << bits) - 1);
        const std::size_t i = LatencyHistogram::index(v);
        ASSERT_LT(i, LatencyHistogram::bucket_count) << v;
        const std::uint64_t upper = LatencyHistogram::bucket_upper(i);
        ASSERT_GE(upper, v);
        ASSERT_LE(upper - v, v / 128) << v;  // relative error at most 1/128
        if (i > 0) {
            ASSERT_LT(LatencyHistogram::bucket_upper(i - 1), v) << v;
        }
    }
    EXPECT_EQ(LatencyHistogram::index(~std::uint64_t{0}), LatencyHistogram::bucket_count - 1);
}

TEST(LatencyHistogram, QuantileIsTheValueOfRankFloorQnPlusOne) {
    LatencyHistogram h;
    for (std::uint64_t v = 0; v < 200; ++v) h.record(v);  // exact below 256
    EXPECT_EQ(h.quantile(0.5), 100u);   // rank 101
    EXPECT_EQ(h.quantile(0.9), 180u);   // rank 181
    EXPECT_EQ(h.quantile(0.999), 199u);  // rank 200
    EXPECT_EQ(h.quantile(1.0), 199u);
    EXPECT_EQ(h.max(), 199u);
    // One value in 1,000 far above the rest is p99.9: fewer than 0.1 % above it.
    LatencyHistogram stalls;
    for (int i = 1; i <= 20000; ++i) stalls.record(i % 1000 == 0 ? 2'000'000 : 100);
    EXPECT_GE(stalls.quantile(0.999), 2'000'000u - 2'000'000u / 128);
    EXPECT_EQ(stalls.quantile(0.99), 100u);
    EXPECT_EQ(LatencyHistogram().quantile(0.5), 0u);
}

TEST(LatencyHistogram, SummaryHasEachPercentileOfTheLoggerBenchmarksTables) {
    LatencyHistogram h;
    for (std::uint64_t v = 0; v < 200; ++v) h.record(v);  // exact below 256
    const LatencySummary s = summarize(h, 2.0);          // 2 ns a tick
    EXPECT_EQ(s.p50, 200.0);   // rank 101: 100 ticks
    EXPECT_EQ(s.p75, 300.0);   // rank 151
    EXPECT_EQ(s.p90, 360.0);   // rank 181
    EXPECT_EQ(s.p95, 380.0);   // rank 191
    EXPECT_EQ(s.p99, 396.0);   // rank 199
    EXPECT_EQ(s.p999, 398.0);  // rank 200
    EXPECT_EQ(s.max, 398.0);
    EXPECT_EQ(s.calls, 200u);
}

TEST(LatencyHistogram, MergedIsTheHistogramOfBoth) {
    LatencyHistogram a, b, both;
    for (std::uint64_t v = 0; v < 5000; ++v) {
        (v % 3 ? a : b).record(v * 37);
        both.record(v * 37);
    }
    a.merge(b);
    EXPECT_EQ(a.count(), both.count());
    EXPECT_EQ(a.max(), both.max());
    for (double q : {0.1, 0.5, 0.9, 0.99, 0.999}) EXPECT_EQ(a.quantile(q), both.quantile(q)) << q;
}

/// Spins for about `ns` nanoseconds of steady_clock.
void spin_ns(std::uint64_t ns) {
    const std::uint64_t until = steady_ns() + ns;
    while (steady_ns() < until) {
    }
}

/// Selects the clock the process had when it ends (select_call_clock is global).
struct RestoreCallClock {
    ClockKind kind = CallClock::kind();
    ~RestoreCallClock() { select_call_clock(kind); }
};

TEST(CallClock, EveryClockIsMonotonicAndItsRateIsSteadyClocksWithin5PercentOver50ms) {
    const RestoreCallClock restore;
    const std::vector<ClockKind> clocks = available_clocks();
    ASSERT_FALSE(clocks.empty());
    EXPECT_TRUE(std::find(clocks.begin(), clocks.end(), ClockKind::steady_clock) != clocks.end());
#if defined(__x86_64__) && defined(__linux__)
    EXPECT_TRUE(std::find(clocks.begin(), clocks.end(), ClockKind::monotonic_raw) != clocks.end());
#endif
    for (ClockKind kind : clocks) {
        select_call_clock(kind);
        ASSERT_EQ(CallClock::kind(), kind);
        std::uint64_t last = CallClock::now();
        for (int i = 0; i < 100000; ++i) {
            const std::uint64_t t = CallClock::now();
            ASSERT_GE(t, last) << to_string(kind);
            last = t;
        }
        // The rate over one span of 50 ms converts the ticks of another
        // span of 50 ms to its steady_clock nanoseconds within 5 %: a rate
        // upside down (ns / ticks swapped) is off by a factor of the square
        // of the counter's GHz.
        TickRate rate;
        rate.start();
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        rate.stop();
        const std::uint64_t ns0 = steady_ns(), ticks0 = CallClock::now();
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        const std::uint64_t ticks1 = CallClock::now(), ns1 = steady_ns();
        const double converted = static_cast<double>(ticks1 - ticks0) * rate.ns_per_tick();
        EXPECT_NEAR(converted / static_cast<double>(ns1 - ns0), 1.0, 0.05) << to_string(kind);
        // The rate measured at start says the same.
        EXPECT_NEAR(CallClock::figures().ns_per_tick / rate.ns_per_tick(), 1.0, 0.05) << to_string(kind);
        EXPECT_GT(CallClock::figures().read_cost_ns, 0.0) << to_string(kind);
        EXPECT_LT(CallClock::figures().read_cost_ns, 10000.0) << to_string(kind);
        EXPECT_GT(CallClock::figures().resolution_ns, 0.0) << to_string(kind);
    }
}

TEST(CallClock, TheCheapestFineClockIsChosenElseTheFinest) {
    const std::vector<ClockFigures> measured = {
        {.name = "a", .resolution_ns = 10, .read_cost_ns = 20},
        {.name = "b", .resolution_ns = 1, .read_cost_ns = 30},
        {.name = "c", .resolution_ns = 300, .read_cost_ns = 5},  // cheapest, too coarse
    };
    EXPECT_EQ(choose_clock(measured).name, "a");
    EXPECT_EQ(choose_clock(measured, 5).name, "b");
    EXPECT_EQ(choose_clock(measured, 0.5).name, "b");  // none fine enough: the finest
    EXPECT_EQ(choose_clock(measured, 1000).name, "c");
    const RestoreCallClock restore;
    select_call_clock();
    const std::vector<ClockFigures>& all = call_clocks_measured();
    EXPECT_EQ(all.size(), available_clocks().size());
    EXPECT_EQ(CallClock::figures().name, choose_clock(all).name);
    EXPECT_EQ(CallClock::name(), CallClock::figures().name);
    EXPECT_EQ(describe_call_clock().rfind(std::string(CallClock::name()) + ": resolution ", 0), 0u)
        << describe_call_clock();
}

/// A clock of microseconds, as a coarse one is: steady_clock cut to whole µs.
struct MicrosecondClock {
    static constexpr bool ticks_are_ns = true;
    static std::uint64_t now() noexcept { return steady_ns() / 1000 * 1000; }
};

/// The p50 of `calls` calls of spin_ns(`ns`) timed with `Clock`, in ns.
template <class Clock>
double p50_of_spins(std::uint64_t ns, int calls = 2000) {
    LatencyHistogram h;
    for (int i = 0; i < calls; ++i) {
        const std::uint64_t t0 = Clock::now();
        spin_ns(ns);
        const std::uint64_t t1 = Clock::now();
        h.record(t1 - t0);
    }
    return summarize(h, 1.0).p50;
}

TEST(CallClock, AFigureWithin4StepsOfACoarseClockIsFlaggedAndNotWithAFineOne) {
    if (!cpu_emulator().empty())
        GTEST_SKIP() << "on an emulated CPU (" << cpu_emulator()
                     << "): a 300 ns call and the clock's readings around it take longer than one coarse step";
    const ClockFigures coarse = measure_clock<MicrosecondClock>("microseconds");
    EXPECT_EQ(coarse.resolution_ns, 1000.0);  // the least step
    EXPECT_GT(coarse.zero_share, 0.5);        // most back-to-back readings the same
    const ClockFigures fine = measure_clock<clocks::Steady>("steady_clock");
    EXPECT_LT(fine.resolution_ns, 1000.0);
    // A call of about 300 ns: with the coarse clock 0 or 1 step, flagged. A
    // quantile is its bucket's upper end: one step of 1,000 ns reads 1,003
    // (where reading the clock is slow, under wine, most calls span a step).
    const double coarse_p50 = p50_of_spins<MicrosecondClock>(300);
    EXPECT_LE(coarse_p50, static_cast<double>(LatencyHistogram::bucket_upper(LatencyHistogram::index(1000))));
    EXPECT_TRUE(at_clock_resolution(coarse_p50, coarse.resolution_ns));
    // A call of about 20 µs with the fine clock: a measurement.
    const double fine_p50 = p50_of_spins<clocks::Steady>(20000, 200);
    EXPECT_GE(fine_p50, 20000.0);
    EXPECT_FALSE(at_clock_resolution(fine_p50, fine.resolution_ns));
    // The bound: 4 steps.
    EXPECT_TRUE(at_clock_resolution(40.0, 10.0));
    EXPECT_FALSE(at_clock_resolution(41.0, 10.0));
    EXPECT_FALSE(at_clock_resolution(5.0, 0.0));  // unknown resolution: nothing flagged
}

TEST(CallClock, TheTimingsWallTimeCostIsItsLoopLessTheUntimedOne) {
    if (!cpu_emulator().empty())
        GTEST_SKIP() << "on an emulated CPU (" << cpu_emulator()
                     << "): a clock read's cost moves with the host's load by more than this test's margins "
                        "(measured under qemu at load 8: 2,666 ns per read against a 1,295 ns timed call)";
    const TimingCost cost = timing_cost(ClockKind::steady_clock, 100'000);
    // Two readings of steady_clock per call (each measured alone, least
    // blocks against least rounds: a wide margin for a busy machine), and far
    // below the microseconds an untimed loop's time subtracted the wrong way
    // round or not at all would not give.
    const double read = measure_clock(ClockKind::steady_clock).read_cost_ns;
    EXPECT_GT(cost.wall_ns, 0.25 * read);
    EXPECT_LT(cost.wall_ns, 20 * read + 100);
    EXPECT_GE(cost.reading_ns, 0.0);
    EXPECT_EQ(timing_cost(ClockKind::none).wall_ns, 0.0);
}

// --- per-call rows ------------------------------------------------------------------

TEST(CallTrial, ALongRowProbesItsMemoryOnceAShortRowInEachTrial) {
    // Two trials of one row in one session (a sizing run's, then a
    // repetition's), each reset and run once: the probe run is a run of its
    // own (an open more) in the first trial, and in the second only when
    // the first one's took less than 0.5 s.
    for (const int sleep_ms : {0, 600}) {
        slow_close_ms = sleep_ms;
        slow_close_opens = 0;
        test::TempDir dir;
        Session session(dir.path(), 1e-5, false);
        std::map<std::string, double> first;
        for (int trial_number = 0; trial_number < 2; ++trial_number) {
            auto trial = trial_for(*find_workload("hello"), *find_method("zz_slow_close"),
                                   Params{0, CacheState::warm, 1, false}, session);
            trial->reset();
            trial->run();
            EXPECT_EQ(trial->verify(), "");
            if (trial_number == 0) {
                first = trial->counters;
            } else if (first.count("peak_heap_bytes")) {  // (not counted in sanitizer builds)
                EXPECT_EQ(trial->counters.at("peak_heap_bytes"), first.at("peak_heap_bytes")) << sleep_ms;
            }
            trial->finish();
        }
        // Each trial opens its sinks for its run, and for the timing's
        // overhead (measure_timing_overhead: one open); the probe one more.
        EXPECT_EQ(slow_close_opens, sleep_ms == 0 ? 6 : 5) << sleep_ms;
    }
    slow_close_ms = 0;
}

TEST(CallTrial, ABinaryLogIsVerifiedAfterItsDecoderOutsideTheRunsTime) {
    // One sink, then a sink for each of two threads: each decoded before it is read.
    for (const auto& [threads, shared] : {std::pair{1u, true}, std::pair{2u, false}}) {
        const CallRun r = run_calls(1e-4, "hello", "zz_encoded", threads, shared);
        EXPECT_EQ(r.verdict, "") << threads;
        ASSERT_TRUE(r.seconds);
        // 10,000 lines into a FILE* (~1 ms here, 10 ms under wine): far below
        // the decoder's sleep, which is not the run's (on an emulated CPU,
        // where a run is 20 to 50 times slower, not compared).
        if (cpu_emulator().empty()) {
            EXPECT_LT(*r.seconds, decode_sleep_ms * 1e-3) << threads;
        }
    }
}

TEST(CallTrial, ADecoderThatLosesALineFailsTheRow) {
    const CallRun r = run_calls(1e-4, "hello", "broken_lossy_decoder", 1, false);
    EXPECT_EQ(r.verdict, "9999 lines, expected 10000");
}

TEST(CallTrial, AStallInOneCallIn1000IsP999AndNotP50) {
    // hello at 2e-4: 20,000 lines, 20 of them stalled for 2 ms.
    const CallRun r = run_calls(2e-4, "hello", "zz_stall", 1, false);
    ASSERT_EQ(r.verdict, "");
    EXPECT_EQ(r.counters.at("latency_calls"), 20000);
    // p99.9 is the least of the 20 stalls (ranks 19,981 to 20,000): a sleep of
    // 2 ms, overshot by the scheduler, read at the clock's rate; a rate off
    // by more than 2.5x (ns per tick upside down: 6.8x for a TSC at 2.6 GHz) is out.
    EXPECT_GE(r.counters.at("latency_p999_ns"), 1.9e6);
    EXPECT_LE(r.counters.at("latency_p999_ns"), 5e6);
    EXPECT_GE(r.counters.at("latency_max_ns"), r.counters.at("latency_p999_ns"));
    EXPECT_LE(r.counters.at("latency_max_ns"), 1e9);
    // The other calls: an fwrite into a buffer, well below a stall.
    EXPECT_GT(r.counters.at("latency_p50_ns"), 0);
    EXPECT_LT(r.counters.at("latency_p50_ns"), 1e5);
    EXPECT_LT(r.counters.at("latency_p99_ns"), 1e6);
    // The row's percentiles in order (p75 and p95 in the JSON only).
    EXPECT_LE(r.counters.at("latency_p50_ns"), r.counters.at("latency_p75_ns"));
    EXPECT_LE(r.counters.at("latency_p75_ns"), r.counters.at("latency_p90_ns"));
    EXPECT_LE(r.counters.at("latency_p90_ns"), r.counters.at("latency_p95_ns"));
    EXPECT_LE(r.counters.at("latency_p95_ns"), r.counters.at("latency_p99_ns"));
    EXPECT_GE(r.counters.at("latency_overhead_ns"), 0);
    EXPECT_LT(r.counters.at("latency_overhead_ns"), 1e4);
    ASSERT_TRUE(r.seconds);
    EXPECT_GE(*r.seconds, 20 * 2e-3);  // the stalls are inside the measured time
    EXPECT_LE(*r.seconds, 20 * 2e-3 + 2.0);
    EXPECT_NEAR(r.counters.at("latency_wall_ns_per_item"), *r.seconds * 1e9 / 20000, 1e-6 * *r.seconds * 1e9);
}

TEST(CallTrial, TheTimingsCostIsMeasuredOnTheRowsOwnCallsAndIsNotTheCallsTime) {
    // Calls of 5 us: latency_overhead_ns is timed less untimed calls of the
    // method (tens of ns), not a timed call's time (5 us and more), and the
    // calls made to measure it are not in the row's readings or its file.
    const CallRun r = run_calls(1e-4, "hello", "zz_spin", 1, false);
    ASSERT_EQ(r.verdict, "");
    EXPECT_EQ(r.counters.at("latency_calls"), 10000);
    EXPECT_GE(r.counters.at("latency_p50_ns"), 5000);
    ASSERT_TRUE(r.counters.count("latency_overhead_ns"));
    EXPECT_GE(r.counters.at("latency_overhead_ns"), 0);
    EXPECT_LT(r.counters.at("latency_overhead_ns"), 2500);
    ASSERT_TRUE(r.counters.count("latency_empty_call_overhead_ns"));
    EXPECT_LT(r.counters.at("latency_empty_call_overhead_ns"), 2500);
    // Paced and batched rows time otherwise: their calls are not measured so.
    test::TempDir dir;
    Session session(dir.path(), 1e-4, false);
    for (const auto& [rate, batch] : {std::pair<std::uint64_t, unsigned>{1'000'000, 0}, {0, 20}}) {
        Params p{0, CacheState::warm, 1, false};
        p.rate = rate;
        p.batch = batch;
        auto trial = trial_for(*find_workload("hello"), *find_method("zz_spin"), p, session);
        trial->reset();
        trial->run();
        EXPECT_EQ(trial->verify(), "");
        EXPECT_EQ(trial->counters.count("latency_overhead_ns"), 0u) << rate << " " << batch;
        EXPECT_TRUE(trial->counters.count("latency_empty_call_overhead_ns"));
        trial->finish();
    }
}

TEST(PacedCalls, AStallOf10msAt100000CallsPerSecondDelaysAbout1000CallsAndClosedLoopOne) {
    // hello at 2e-4: 20,000 lines from one thread; the 5,000th call sleeps 10 ms.
    const Params closed{0, CacheState::warm, 1, false};
    Params paced = closed;
    paced.rate = 100'000;  // a call due every 10 us: 0.2 s
    const ReadRun c = run_read(2e-4, "hello", "zz_stall_once", closed);
    const double closed_stall = static_cast<double>(stall_once_ns.load());
    const ReadRun p = run_read(2e-4, "hello", "zz_stall_once", paced);
    const double paced_stall = static_cast<double>(stall_once_ns.load());
    ASSERT_EQ(c.run.verdict, "");
    ASSERT_EQ(p.run.verdict, "");
    ASSERT_GE(paced_stall, 10e6);
    // Closed loop: the caller waited for the slow call and made the next
    // when it returned: one slow call. (A call the scheduler interrupts for
    // a millisecond is another: a few at most in 20,000 calls of ~1 us.)
    EXPECT_GE(c.over_1ms, 1u);
    EXPECT_LE(c.over_1ms, 10u);
    EXPECT_GE(c.run.counters.at("latency_max_ns"), 0.9 * closed_stall);
    EXPECT_LT(c.run.counters.at("latency_p999_ns"), 5e6);  // 1 call in 20,000: below p99.9
    // Open loop: every call due while the method slept waited for it, and
    // is late by what was left of the stall when it was due: the calls due
    // in the stall but its last millisecond are over 1 ms late, at least
    // (stall - 1 ms) x rate of them, as the run measured its stall (~900).
    const double due_in_stall = (paced_stall - 1e6) * 1e-9 * 100'000;
    EXPECT_GE(static_cast<double>(p.over_1ms), 0.95 * due_in_stall);
    // The machine only adds late calls: those due while the pacing thread
    // was off its CPU (the stall's sleep; waiting for a CPU: on a loaded
    // 2-core machine half of a 0.2 s run; blocked in a write), and those due
    // while it caught up, a share of them as large as a call's time is of
    // the 10 us between due times (~1 us: a tenth more). Bounded by what the
    // run measured: the thread's wall time less its CPU time, and a call's
    // time in the closed loop (doubled for the noise of another run).
    if (p.off_cpu_seconds) {
        const double call_s = c.run.counters.at("latency_wall_ns_per_item") * 1e-9;
        const double busy = std::min(0.8, 2 * call_s * 100'000);
#ifdef _WIN32
        const double cpu_tick_calls = 2 * 15.625e-3 * 100'000;  // Windows' CPU times advance in 15.625 ms ticks
#else
        const double cpu_tick_calls = 0;
#endif
        EXPECT_LE(static_cast<double>(p.over_1ms), *p.off_cpu_seconds * 100'000 / (1 - busy) + 1000 + cpu_tick_calls)
            << "off CPU " << *p.off_cpu_seconds << " s, a call " << call_s << " s";
    }
    std::printf("paced: %llu calls over 1 ms late (stall %.2f ms, off CPU %.1f ms, on a run queue %.1f ms); "
                "closed loop: %llu\n",
                static_cast<unsigned long long>(p.over_1ms), paced_stall * 1e-6, p.off_cpu_seconds.value_or(-1) * 1e3,
                p.run_queue_seconds.value_or(-1) * 1e3, static_cast<unsigned long long>(c.over_1ms));
    EXPECT_GE(p.run.counters.at("latency_p999_ns"), 5e6);
    EXPECT_GE(p.run.counters.at("latency_max_ns"), 0.9 * paced_stall);
    EXPECT_EQ(p.run.counters.at("latency_calls"), 20000);
    EXPECT_EQ(p.run.counters.at("rate_asked_per_s"), 100'000);
    // The caller catches up after the stall (its calls take ~1 us of the
    // 10 us between due times): the rate achieved is the rate asked, never
    // above it (no call is made before it is due), below it by what the
    // last call was late (a scheduler's delay: 50 ms allowed); 1 % above it
    // for the estimate of the clock's ticks-to-ns factor, which can move
    // between the due times and the count.
    EXPECT_LE(p.run.counters.at("rate_achieved_per_s"), 100'000 * 1.01);
    EXPECT_GE(p.run.counters.at("rate_achieved_per_s"), 20'000 / 0.25);
    EXPECT_FALSE(c.run.counters.count("rate_asked_per_s"));
    EXPECT_FALSE(p.run.counters.count("latency_between_calls_ns"));
    // Paced, the run lasts its 20,000 due times: 0.2 s at least.
    ASSERT_TRUE(p.run.seconds);
    EXPECT_GE(*p.run.seconds, 0.2 - 1e-5);
}

TEST(PacedCalls, ABatchAverageHidesTheStallThatEachCallShows) {
    // The method of odygrd/logger_benchmarks: 20 calls timed together, their average one reading.
    Params batched{0, CacheState::warm, 1, false};
    batched.batch = 20;
    const ReadRun b = run_read(2e-4, "hello", "zz_stall_once", batched);
    const double stall = static_cast<double>(stall_once_ns.load());
    ASSERT_EQ(b.run.verdict, "");
    EXPECT_EQ(b.run.counters.at("latency_calls"), 1000);  // 20,000 calls in batches of 20
    // The batch of the stall reads a 20th of it: its max, the stall / 20 and
    // at most the rest of its batch's 19 calls more, far below the stall.
    EXPECT_GE(b.run.counters.at("latency_max_ns"), stall / 20);
    EXPECT_LT(b.run.counters.at("latency_max_ns"), stall / 2);
    EXPECT_LT(b.run.counters.at("latency_p999_ns"), stall / 2);
    // Paced batches: a batch of 20 due every 20 / rate, its reading from its due time.
    Params paced = batched;
    paced.rate = 100'000;
    const ReadRun p = run_read(2e-4, "hello", "zz_stall_once", paced);
    ASSERT_EQ(p.run.verdict, "");
    EXPECT_EQ(p.run.counters.at("latency_calls"), 1000);
    // (the last batch is due 20 calls before the end: at most 20,000 calls in 19,980 / rate;
    // 1 % more for the clock's ticks-to-ns factor, whose estimate can move between the due
    // times and the count: 100,256 against 100,200 once in a sanitized ctest beside other shards)
    EXPECT_LE(p.run.counters.at("rate_achieved_per_s"), 100'000 * 20'000.0 / 19'980 * 1.01);
    EXPECT_GE(p.run.counters.at("rate_achieved_per_s"), 20'000 / 0.25);
}

TEST(PacedCalls, AWaitEndsAtItsDueTimeWhetherItSpinsOrYields) {
    // Both ways of waiting (a caller per hardware thread or more yields its
    // CPU instead of spinning): never before the due time, through the
    // sleep of a long wait too.
    for (const bool yield_cpu : {false, true}) {
        for (const std::uint64_t wait_ns : {0ULL, 200'000ULL, 3'000'000ULL}) {
            const std::uint64_t due = clocks::Steady::now() + wait_ns;
            const std::uint64_t read = wait_until<clocks::Steady>(due, 1.0, yield_cpu);
            EXPECT_GE(read, due) << yield_cpu << " " << wait_ns;
            EXPECT_GE(clocks::Steady::now(), due);
        }
    }
}

TEST(PacedCalls, BurstsAreDueTogetherAtTheRateAsked) {
    // 2,000 calls at 20,000 per second in bursts of 100: 20 bursts 5 ms apart, 0.1 s.
    Params paced{0, CacheState::warm, 2, false};
    paced.rate = 20'000;
    paced.burst = 100;
    const ReadRun p = run_read(2e-5, "hello", "fwrite", paced);
    ASSERT_EQ(p.run.verdict, "");
    EXPECT_EQ(p.run.counters.at("latency_calls"), 2000);
    // Each thread's last burst is due at 9 x 5 ms = 45 ms (1,000 calls each): the
    // rate achieved is its calls over that and the last burst's calls.
    ASSERT_TRUE(p.run.seconds);
    EXPECT_GE(*p.run.seconds, 0.045);
    // (at most 1,000 / 45 ms = 22,222; a last burst the scheduler delays by 38 ms: 12,000)
    EXPECT_LE(p.run.counters.at("rate_achieved_per_s"), 22'223);
    EXPECT_GE(p.run.counters.at("rate_achieved_per_s"), 12'000);
}

TEST(PacedCalls, OtherThreadsCpuTimeIsTheBackendsAndTheCloseWaitsForIt) {
    const CallRun backend = run_calls(1e-4, "hello", "zz_backend", 1, false);
    ASSERT_EQ(backend.verdict, "");
    const CallRun plain = run_calls(1e-4, "hello", "fwrite", 1, false);
    ASSERT_EQ(plain.verdict, "");
    if (!process_cpu_ns() || !thread_cpu_ns()) GTEST_SKIP() << "no CPU-time clock here";
    // The backend's thread spins for 30 ms of CPU time: measured within the
    // clocks' granularity (ns on Linux; Windows counts CPU time by the
    // scheduler's tick, 15.6 ms, in each of the readings subtracted).
#ifdef _WIN32
    constexpr double tick_ns = 2 * 15.625e6;
#else
    constexpr double tick_ns = 0;
#endif
    EXPECT_GE(backend.counters.at("other_threads_cpu_ns"), 0.95 * backend_cpu_ns - tick_ns);
    EXPECT_LE(backend.counters.at("other_threads_cpu_ns"), backend.counters.at("end_to_end_ns") + 20e6 + tick_ns);
    EXPECT_LT(plain.counters.at("other_threads_cpu_ns"), 5e6 + tick_ns);  // no thread but the caller
    // The close joins the backend: its wait is the drain, inside the end-to-end time.
    EXPECT_GT(backend.counters.at("drain_ns"), 0);
    EXPECT_LE(backend.counters.at("drain_ns"), backend.counters.at("end_to_end_ns"));
    ASSERT_TRUE(backend.seconds);
    EXPECT_NEAR(backend.counters.at("end_to_end_ns"), *backend.seconds * 1e9, 1);
    // Four callers on one sink: their CPU time is not the others'.
    const CallRun four = run_calls(1e-3, "hello", "fwrite", 4, true);
    ASSERT_EQ(four.verdict, "");
    EXPECT_LT(four.counters.at("other_threads_cpu_ns"), 5e6 + 4 * tick_ns);
}

TEST(CallTrial, AMethodThatNeverStallsHasNoStallAtP999) {
    const CallRun r = run_calls(2e-4, "hello", "fwrite", 1, false);
    ASSERT_EQ(r.verdict, "");
    EXPECT_EQ(r.counters.at("latency_calls"), 20000);
    EXPECT_LT(r.counters.at("latency_p999_ns"), 1.5e6);
    EXPECT_LE(r.counters.at("latency_p50_ns"), r.counters.at("latency_p99_ns"));
    EXPECT_LE(r.counters.at("latency_p99_ns"), r.counters.at("latency_max_ns"));
}

TEST(CallTrial, ThreadsOnASharedSinkWriteEveryLineWhole) {
    // ints_out at 1e-3: 10,000 integers from 4 threads on one FILE*.
    for (const char* method : {"fprintf", "write", "obuf_mutex", "ofstream_mutex", "fmt_print"}) {
        if (!find_workload("ints_out")->calls_unavailable(*find_method(method)).empty()) continue;  // write on Windows
        const CallRun r = run_calls(1e-3, "ints_out", method, 4, true);
        EXPECT_EQ(r.verdict, "") << method;
        EXPECT_EQ(r.counters.at("latency_calls"), 10000) << method;
    }
    const CallRun log = run_calls(1e-3, "log", "fprintf", 4, true);  // 1,000 records
    EXPECT_EQ(log.verdict, "");
}

TEST(CallTrial, ThreadsOnASinkEachWriteTheirOwnItemsInOrder) {
    for (const char* method : {"obuf", "ofstream", "fprintf", "obuf_thread"}) {
        const CallRun r = run_calls(1e-3, "log", method, 3, false);
        EXPECT_EQ(r.verdict, "") << method;
        EXPECT_EQ(r.counters.at("latency_calls"), 1000) << method;
    }
}

TEST(CallTrial, ATornLineIsCaught) {
    // 2,000 lines from 4 threads, each line in two halves with another thread's half between.
    const CallRun r = run_calls(2e-5, "hello", "broken_torn_line", 4, true);
    EXPECT_NE(r.verdict.find("is no item's line (torn, joined or foreign)"), std::string::npos) << r.verdict;
}

TEST(CallTrial, AThreadsLinesOutOfItsOrderAreCaught) {
    const CallRun one = run_calls(1e-5, "ints_out", "broken_swapped_ints", 1, false);
    EXPECT_NE(one.verdict.find("thread 0's item 0 after its item 1: out of its order"), std::string::npos) << one.verdict;
    const CallRun two = run_calls(1e-5, "ints_out", "broken_swapped_ints", 2, false);
    EXPECT_NE(two.verdict.find("out of its order"), std::string::npos) << two.verdict;
}

TEST(CallTrial, CallsNotBuiltHereAreUnavailableNotCalled) {
    // write's calls are POSIX only: on Windows not built, and refused as unavailable (a skipped row).
    const Method* write = find_method("write");
    ASSERT_TRUE(write);
    const std::string why = find_workload("log")->calls_unavailable(*write);
#ifdef _WIN32
    EXPECT_EQ(why, "POSIX only: not built on Windows");
    test::TempDir dir;
    Session session(dir.path(), 1e-3, false);
    EXPECT_THROW(trial_for(*find_workload("log"), *write, Params{0, CacheState::warm, 1, false}, session),
                 unavailable_error);
#else
    EXPECT_EQ(why, "");
#endif
}

TEST(CallTrial, ASinkThatCannotBeSharedIsRefusedWithTheReason) {
    const Method* obuf = find_method("obuf");
    ASSERT_TRUE(obuf);
    EXPECT_NE(call_case_problem(*obuf, Params{0, CacheState::warm, 2, true}).find("sink:per_thread only"),
              std::string::npos);
    EXPECT_EQ(call_case_problem(*obuf, Params{0, CacheState::warm, 2, false}), "");
    EXPECT_EQ(call_case_problem(*obuf, Params{0, CacheState::warm, 1, true}), "");  // one thread: nothing shared
    EXPECT_NE(call_case_problem(*obuf, Params{0, CacheState::warm, 0, false}), "");
    EXPECT_NE(call_case_problem(*obuf, Params{0, CacheState::warm, max_threads + 1, false}), "");
}

TEST(CallTrial, ARowCarriesTheCountersOfTheSpecAndTheReadmeNamesThem) {
    std::ifstream spec_file(std::string(IOBENCH_RESULTS_FORMAT_SPEC));
    const nlohmann::json spec = nlohmann::json::parse(spec_file);
    std::set<std::string> listed;
    std::set<std::string> everywhere;  // the README names them all
    for (const auto& c : spec.at("per_call_counters")) {
        const std::string name = c.at("counter").get<std::string>();
        everywhere.insert(name);
        // A counter only where its figure is known here: never 0 for unknown.
        const std::string where = c.value("only_where", "");
        if (where == "heap_counted" && !heap_counted()) continue;
        if (where == "heap_peak_tracked" && !heap_peak_tracked()) continue;
        if (where == "peak_resident_known" && !reset_peak_resident()) continue;
        if (where == "cpu_time_known" && !(process_cpu_ns() && thread_cpu_ns())) continue;
        if (where == "paced") continue;  // the row below is closed-loop
        ASSERT_TRUE(where.empty() || where == "heap_counted" || where == "heap_peak_tracked" ||
                    where == "peak_resident_known" || where == "cpu_time_known" || where == "paced" ||
                    where == "closed_loop")
            << where;
        listed.insert(name);
    }
    const CallRun r = run_calls(1e-4, "ints_out", "obuf", 1, false);
    ASSERT_EQ(r.verdict, "");
    std::set<std::string> carried;
    for (const auto& [name, value] : r.counters) carried.insert(name);
    EXPECT_EQ(carried, listed);
    std::ifstream readme_file(std::string(IOBENCH_TEST_DATA_DIR) + "/../../README.md");
    const std::string readme((std::istreambuf_iterator<char>(readme_file)), std::istreambuf_iterator<char>());
    for (const std::string& name : everywhere) EXPECT_NE(readme.find("`" + name + "`"), std::string::npos) << name;
#if defined(__linux__)
    EXPECT_TRUE(listed.count("peak_resident_bytes"));  // Linux resets its peak (clear_refs)
#endif
#if defined(_WIN32)
    EXPECT_TRUE(listed.count("heap_allocations_per_item"));  // operator new, counted on Windows
#endif
}

TEST(CallTrial, HeapAllocationsPerItemCountEveryThreadOrAreAbsentWhereUnknown) {
    const CallRun copying = run_calls(1e-3, "hello", "zz_copying", 2, false);
    ASSERT_EQ(copying.verdict, "");
    const CallRun obuf = run_calls(1e-3, "hello", "obuf", 2, false);
    ASSERT_EQ(obuf.verdict, "");
    const CallRun background = run_calls(1e-3, "hello", "zz_background", 1, false);
    ASSERT_EQ(background.verdict, "");
    if (!heap_counted()) {
        // A sanitizer build: unknown, so absent, never 0.
        for (const CallRun* r : {&copying, &obuf, &background}) {
            EXPECT_FALSE(r->counters.count("heap_allocations_per_item"));
            EXPECT_FALSE(r->counters.count("heap_bytes_per_item"));
        }
        GTEST_SKIP() << "allocations are not counted in a sanitizer build (memory_use_test.cpp tests the hook)";
    }
    // One copy per call, on both threads; the sinks' opens add a little.
    EXPECT_GE(copying.counters.at("heap_allocations_per_item"), 1.0);
    EXPECT_LT(copying.counters.at("heap_allocations_per_item"), 1.05);
    EXPECT_GE(copying.counters.at("heap_bytes_per_item"), 256.0);
    // obuf allocates its buffer at the open, and nothing per call.
    EXPECT_LT(obuf.counters.at("heap_allocations_per_item"), 0.01);
    EXPECT_GT(obuf.counters.at("heap_bytes_per_item"), 0.0);
    // The sink's own thread: its 1,000 allocations are the method's.
    const auto items = static_cast<double>(background.items);
    EXPECT_GE(background.counters.at("heap_allocations_per_item") * items, 1000.0);
    EXPECT_GE(background.counters.at("heap_bytes_per_item") * items, 100000.0);
}

TEST(CallTrial, PeakHeapAndResidentSetShowWhatASinkHolds) {
    const CallRun holding = run_calls(1e-3, "hello", "zz_resident", 1, false);
    ASSERT_EQ(holding.verdict, "");
    const CallRun obuf = run_calls(1e-3, "hello", "obuf", 4, false);
    ASSERT_EQ(obuf.verdict, "");
    if (reset_peak_resident()) {
        // The 64 MiB, every page touched, are resident while the sink is open.
        EXPECT_GE(holding.counters.at("peak_resident_bytes"), 64.0 * (1 << 20));
    } else {
        EXPECT_FALSE(holding.counters.count("peak_resident_bytes"));
    }
    if (!heap_peak_tracked()) {
        EXPECT_FALSE(holding.counters.count("peak_heap_bytes"));
        EXPECT_FALSE(obuf.counters.count("peak_heap_bytes"));
        GTEST_SKIP() << "the heap in use is not tracked in a sanitizer build (memory_use_test.cpp tests it)";
    }
    EXPECT_GE(holding.counters.at("peak_heap_bytes"), 64.0 * (1 << 20));
    EXPECT_LT(holding.counters.at("peak_heap_bytes"), 65.0 * (1 << 20));
    // Four sinks of one thread each, each with obuf's buffer, open at once.
    const auto buffer = static_cast<double>(obuf.buffer_size);
    ASSERT_GT(buffer, 0);
    EXPECT_GE(obuf.counters.at("peak_heap_bytes"), 4 * buffer);
    EXPECT_LT(obuf.counters.at("peak_heap_bytes"), 4 * buffer + (1 << 20));
}

// --- the log workload's records ----------------------------------------------------

TEST(LogRecords, LinesAre60To200BytesAndEveryMethodFormatsThemAlike) {
    std::size_t shortest = 1000, longest = 0;
    for (std::uint64_t i = 0; i < 30000; ++i) {
        const std::string line = log_line(i);
        shortest = std::min(shortest, line.size());
        longest = std::max(longest, line.size());
        ASSERT_EQ(line.back(), '\n');
        ASSERT_EQ(line.find('\n'), line.size() - 1);
        ASSERT_EQ(line.find('%'), std::string::npos);
        if (i > 0) {
            ASSERT_GT(log_record(i).time_us, log_record(i - 1).time_us);
        }
    }
    EXPECT_GE(shortest, 55u);
    EXPECT_LE(longest, 200u);
    EXPECT_LT(shortest + 100, longest);  // the lengths vary
    char text[512];
    const LogRecord r = log_record(12345);
    const int n = std::snprintf(text, sizeof text, log_record_printf_format,
                                static_cast<unsigned long long>(r.time_us / 1000000),
                                static_cast<unsigned long long>(r.time_us % 1000000), level_name(r.level).data(),
                                r.logger.data(), static_cast<unsigned long long>(r.request),
                                static_cast<unsigned long long>(r.duration_us), r.text.data());
    EXPECT_EQ(std::string(text, static_cast<std::size_t>(n)), log_line(12345));
}

// --- workloads from outside (iobench/workload.hpp) -------------------------------

void twice_the_same(std::uint64_t i, std::string& out) { out += "line " + std::to_string(i / 2) + "\n"; }
void two_lines(std::uint64_t i, std::string& out) { out += "a " + std::to_string(i) + "\nb\n"; }
void one_line(std::uint64_t i, std::string& out) { out += "record " + std::to_string(i) + "\n"; }

/// What making a trial of `w` on obuf says: "" when it is made, else its error.
std::string trial_problem(const LinesWorkload& w) { return test::trial_problem(w, "obuf"); }

TEST(LinesWorkload, LinesThatBreakTheContractAreRefusedNamingTheLine) {
    EXPECT_EQ(trial_problem({.name = "w", .description = "d", .default_count = 10, .line = twice_the_same}),
              "workload w: lines 0 and 1 are the same text: a LinesWorkload's lines must differ (each names its item, "
              "so that the order of each thread's lines can be checked)");
    EXPECT_EQ(trial_problem({.name = "w", .description = "d", .default_count = 10, .line = two_lines}),
              "workload w: line 0 is not one line ending with '\\n' (without '\\0'): a LinesWorkload's line(i, out) "
              "appends exactly one");
    EXPECT_EQ(trial_problem({.name = "w", .description = "d", .default_count = 10, .line = one_line}), "");
    EXPECT_THROW(make_lines_workload({.name = "a/b", .description = "d", .default_count = 1, .line = one_line}),
                 std::invalid_argument);
    EXPECT_THROW(make_lines_workload({.name = "w", .description = "d", .default_count = 0, .line = one_line}),
                 std::invalid_argument);
    EXPECT_THROW(make_lines_workload({.name = "w", .description = "d", .default_count = 1}), std::invalid_argument);
}

TEST(LinesWorkload, AUsersLinesFromThreadsAreCheckedLikeIobenchsOwn) {
    // example_log (tests/example_lines.cpp) at 1e-2: 1,000 records.
    const CallRun shared = run_calls(1e-2, "example_log", "fprintf", 4, true);
    EXPECT_EQ(shared.verdict, "");
    EXPECT_EQ(shared.counters.at("latency_calls"), 1000);
    const CallRun own = run_calls(1e-2, "example_log", "obuf", 3, false);
    EXPECT_EQ(own.verdict, "");
    const CallRun torn = run_calls(1e-2, "example_log", "broken_torn_line", 4, true);
    EXPECT_NE(torn.verdict.find("is no item's line"), std::string::npos) << torn.verdict;
}

/// Line i, after about 200 ns of work (a user's record made with care).
void slow_line(std::uint64_t i, std::string& out) {
    spin_ns(200);
    out += "record " + std::to_string(i) + "\n";
}

/// Line i, after about 5 us of work: far above what a busy machine's
/// scheduling adds to a run's mean time per item.
void slower_line(std::uint64_t i, std::string& out) {
    spin_ns(5000);
    out += "record " + std::to_string(i) + "\n";
}

/// One run of `w` (at scale 1) on `method` from one thread.
CallRun run_lines(const LinesWorkload& w, const char* method) {
    test::TempDir dir;
    Session session(dir.path(), 1.0, false);
    const std::unique_ptr<Workload> workload = make_lines_workload(w);
    auto trial = trial_for(*workload, *find_method(method), Params{0, CacheState::warm, 1, false}, session);
    trial->reset();
    trial->run();
    CallRun out{trial->verify(), trial->counters, trial->measured_seconds(), trial->items, trial->buffer_size};
    trial->finish();
    return out;
}

TEST(LinesWorkload, ALineFunctionOf200nsIsNotInTheCallsTimeNorInTheirAllocations) {
    // Three runs of each, alternately, each figure the least of its three: a
    // run the scheduler interrupted (a busy machine) does not count.
    const LinesWorkload workloads[] = {
        {.name = "fast", .description = "d", .default_count = 20000, .line = one_line},
        {.name = "slow", .description = "d", .default_count = 20000, .line = slow_line},
        {.name = "slower", .description = "d", .default_count = 20000, .line = slower_line},
    };
    std::map<std::string, double> least[3];
    CallRun last[3];
    for (int k = 0; k < 3; ++k)
        for (int w = 0; w < 3; ++w) {
            last[w] = run_lines(workloads[w], "fwrite");
            ASSERT_EQ(last[w].verdict, "");
            for (const char* name : {"latency_p50_ns", "latency_between_calls_ns", "latency_wall_ns_per_item"})
                least[w][name] = k == 0 ? last[w].counters.at(name) : std::min(least[w][name], last[w].counters.at(name));
        }
    const auto& fast = least[0];
    const auto& slow = least[1];
    const auto& slower = least[2];
    // The call is timed alone: 200 ns more to make each line is not in its
    // p50 (a median: what the scheduler adds to a few calls is not in it) ...
    EXPECT_LT(slow.at("latency_p50_ns") - fast.at("latency_p50_ns"), 100.0);
    EXPECT_LT(slower.at("latency_p50_ns") - fast.at("latency_p50_ns"), 100.0);
    // ... but between the calls, measured and shown apart, and in the wall
    // time: 5 us more a line (means over a run, so far above a busy
    // machine's noise) shows there as at least half of it.
    EXPECT_GT(slower.at("latency_between_calls_ns") - fast.at("latency_between_calls_ns"), 2500.0);
    EXPECT_GT(slower.at("latency_wall_ns_per_item") - fast.at("latency_wall_ns_per_item"), 2500.0);
    EXPECT_LT(slower.at("latency_between_calls_ns"), slower.at("latency_wall_ns_per_item"));
    const std::map<std::string, double>& fast_counters = last[0].counters;
    const std::map<std::string, double>& slow_counters = last[1].counters;
    // Each line's string (one_line allocates a temporary or two) is the
    // workload's, not the method's: fwrite allocates nothing per call.
    if (heap_counted()) {
        EXPECT_LT(fast_counters.at("heap_allocations_per_item"), 0.01);
        EXPECT_LT(slow_counters.at("heap_allocations_per_item"), 0.01);
    }
}

TEST(CallTrial, EachThreadsStateIsOnCacheLinesOfItsOwn) {
    static_assert(alignof(CallThreadState) >= 64);
    static_assert(sizeof(CallThreadState) % 64 == 0);
    std::vector<CallThreadState> states(3);
    for (const CallThreadState& s : states) EXPECT_EQ(reinterpret_cast<std::uintptr_t>(&s) % 64, 0u);
}

TEST(CallTrial, UntimedRowsHaveAWallTimeAndNoPercentiles) {
    const RestoreCallClock restore;
    select_call_clock(ClockKind::none);
    const CallRun r = run_calls(1e-3, "hello", "fwrite", 1, false);
    ASSERT_EQ(r.verdict, "");
    EXPECT_EQ(r.counters.count("latency_p50_ns"), 0u);
    EXPECT_EQ(r.counters.count("latency_overhead_ns"), 0u);
    EXPECT_EQ(r.counters.count("latency_empty_call_overhead_ns"), 0u);
    ASSERT_TRUE(r.seconds);
    EXPECT_NEAR(r.counters.at("latency_wall_ns_per_item"), *r.seconds * 1e9 / static_cast<double>(r.items), 1e-3);
}

// --- names and suites ---------------------------------------------------------------

TEST(CallSuites, NamesSayTheThreadsAndTheSink) {
    const Workload* w = find_workload("ints_out");
    const Method* m = find_method("fprintf");
    EXPECT_EQ(case_name(*w, *m, Params{}), "ints_out/fprintf");
    EXPECT_EQ(case_name(*w, *m, Params{0, CacheState::warm, 1, false}), "ints_out/fprintf/threads:1");
    EXPECT_EQ(case_name(*w, *m, Params{0, CacheState::warm, 4, true}), "ints_out/fprintf/threads:4/sink:shared");
    EXPECT_EQ(case_name(*w, *m, Params{0, CacheState::warm, 4, false}), "ints_out/fprintf/threads:4/sink:per_thread");
    EXPECT_EQ(case_name(*w, *m, Params{0, CacheState::warm, 4, true, 100000}),
              "ints_out/fprintf/threads:4/sink:shared/rate:100000");
    EXPECT_EQ(case_name(*w, *m, Params{0, CacheState::warm, 1, false, 1000, 20}),
              "ints_out/fprintf/threads:1/rate:1000/burst:20");
    EXPECT_EQ(case_name(*w, *m, Params{0, CacheState::warm, 1, false, 0, 0, 20}), "ints_out/fprintf/threads:1/batch:20");
    EXPECT_EQ(case_name(*w, *m, Params{0, CacheState::warm, 1, false, 0, 20, 1}), "ints_out/fprintf/threads:1");
}

TEST(CallSuites, ThreadsAndSinkAreReadAndRefused) {
    const Suite s = parse_suite(R"({"benchmarks": [
        {"workload": "hello", "methods": ["fwrite", "obuf", "limit"], "threads": [1, 2], "sink": ["shared", "per_thread"]},
        {"workload": "log", "methods": ["obuf"]}]})",
                                "t");
    std::vector<std::string> names, skipped;
    for (const Case& c : s.cases) names.push_back(c.name);
    for (const Skipped& k : s.skipped) skipped.push_back(k.name);
    EXPECT_EQ(names, (std::vector<std::string>{"hello/fwrite/threads:1", "hello/fwrite/threads:2/sink:shared",
                                               "hello/fwrite/threads:2/sink:per_thread", "hello/obuf/threads:1",
                                               "hello/obuf/threads:2/sink:per_thread", "hello/limit",
                                               "log/obuf/threads:1"}));
    EXPECT_EQ(skipped, (std::vector<std::string>{"hello/obuf/threads:2/sink:shared"}));
    const Suite paced = parse_suite(R"({"benchmarks": [
        {"workload": "hello", "methods": ["fwrite"], "threads": [1], "rate": [0, 1000], "burst": [1, 20], "batch": [1, 20]}]})",
                                    "t");
    std::vector<std::string> paced_names;
    for (const Case& c : paced.cases) paced_names.push_back(c.name);
    EXPECT_EQ(paced_names, (std::vector<std::string>{"hello/fwrite/threads:1", "hello/fwrite/threads:1/batch:20",
                                                     "hello/fwrite/threads:1/rate:1000",
                                                     "hello/fwrite/threads:1/rate:1000/batch:20",
                                                     "hello/fwrite/threads:1/rate:1000/burst:20"}));
    auto refused = [](const char* text) {
        try {
            parse_suite(text, "t");
        } catch (const suite_error& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_EQ(refused(R"({"benchmarks": [{"workload": "hello", "methods": ["fwrite"], "threads": [0]}]})"),
              "suite t: \"benchmarks[0].threads\" must hold whole numbers of threads from 1 to 1024, not 0");
    EXPECT_EQ(refused(R"({"benchmarks": [{"workload": "hello", "methods": ["fwrite"], "threads": [1025]}]})"),
              "suite t: \"benchmarks[0].threads\" must hold whole numbers of threads from 1 to 1024, not 1025");
    EXPECT_EQ(refused(R"({"benchmarks": [{"workload": "ints_in", "methods": ["fscanf"], "threads": [1]}]})"),
              "suite t: workload \"ints_in\" has no per-call rows: no \"threads\"");
    EXPECT_EQ(refused(R"({"benchmarks": [{"workload": "hello", "methods": ["fwrite"], "sink": ["shared"]}]})"),
              "suite t: \"benchmarks[0].sink\" needs \"threads\"");
    EXPECT_EQ(refused(R"({"benchmarks": [{"workload": "hello", "methods": ["fputs"], "threads": [2]}]})"),
              "suite t: method \"fputs\" has no per-call shape for workload \"hello\" (its calls lack what "
              "\"threads\" needs)");
    EXPECT_EQ(refused(R"({"benchmarks": [{"workload": "hello", "methods": ["fwrite"], "threads": [2], "sink": ["both"]}]})"),
              "suite t: \"benchmarks[0].sink\" values must be \"shared\" or \"per_thread\", not \"both\"");
    EXPECT_EQ(refused(R"({"benchmarks": [{"workload": "hello", "methods": ["fwrite"], "rate": [1000]}]})"),
              "suite t: \"benchmarks[0].rate\" needs \"threads\"");
    EXPECT_EQ(refused(R"({"benchmarks": [{"workload": "hello", "methods": ["fwrite"], "threads": [1], "burst": [2]}]})"),
              "suite t: \"benchmarks[0].burst\" needs \"rate\"");
    EXPECT_EQ(refused(R"({"benchmarks": [{"workload": "hello", "methods": ["fwrite"], "threads": [1], "rate": [-1]}]})"),
              "suite t: \"benchmarks[0].rate\" must hold whole numbers from 0 to 100000000 (calls per second per "
              "thread (0: as fast as it can)), not -1");
    EXPECT_EQ(refused(R"({"benchmarks": [{"workload": "hello", "methods": ["fwrite"], "threads": [1], "batch": [0]}]})"),
              "suite t: \"benchmarks[0].batch\" must hold whole numbers from 1 to 1000000 (calls per batch), not 0");
}

}  // namespace
}  // namespace iobench
