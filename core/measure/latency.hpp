// Per-call latency (docs/design.md rule 9): the clocks that can time one
// call, each measured at start for its resolution and its cost, the one
// chosen, and the histogram its readings go into.
#pragma once

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#if defined(__x86_64__) || defined(_M_X64)
#define IOBENCH_CALL_CLOCK_TSC 1
#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
#define IOBENCH_RDTSC() __rdtsc()
#define IOBENCH_LFENCE() _mm_lfence()
#else
// GCC's and Clang's builtins, which <x86intrin.h>'s __rdtsc() calls: that
// header (some 55,000 lines of intrinsics) is then not parsed by every file
// that includes this one.
#define IOBENCH_RDTSC() __builtin_ia32_rdtsc()
#define IOBENCH_LFENCE() __builtin_ia32_lfence()
#endif
#endif

#if defined(__linux__)
#include <time.h>
#define IOBENCH_CALL_CLOCK_GETTIME 1
#endif

namespace iobench {

/// The clocks a per-call row can read before and after each call
/// (`--latency-clock NAME`, the JSON context's `latency_clock`):
///
///  name            reads                                    where
///  rdtsc           the time-stamp counter                   x86-64 with an invariant TSC
///  rdtscp          the same, after the earlier instructions  the same, with RDTSCP
///                  have executed (RDTSCP)
///  lfence_rdtsc    LFENCE then RDTSC: the same order, the   the same
///                  way Intel's manual gives for older CPUs
///  monotonic       clock_gettime(CLOCK_MONOTONIC) (vDSO)     Linux
///  monotonic_raw   clock_gettime(CLOCK_MONOTONIC_RAW)        Linux
///  qpc             QueryPerformanceCounter                   Windows
///  steady_clock    std::chrono::steady_clock                 everywhere
///  none            nothing: the calls are made untimed       everywhere (only by name: it
///                  (no percentiles; the row's wall time is   measures what the timing adds)
///                  then that of an untimed call loop)
///
/// An invariant TSC (CPUID 0x80000007, EDX bit 8) ticks at one rate on every
/// core whatever the frequency; its ticks are converted to nanoseconds with
/// a rate measured against steady_clock over the row's runs (TickRate).
enum class ClockKind { rdtsc, rdtscp, lfence_rdtsc, monotonic, monotonic_raw, qpc, steady_clock, none };

/// The name of `kind` ("rdtsc", ...), as --latency-clock takes it.
std::string_view to_string(ClockKind kind) noexcept;
/// The clock named `name`, or nothing when there is none of that name.
std::optional<ClockKind> clock_named(std::string_view name) noexcept;
/// Whether `kind` can be read on this machine (see ClockKind).
bool clock_available(ClockKind kind) noexcept;
/// Every clock that can time calls here, in ClockKind's order (not `none`).
std::vector<ClockKind> available_clocks();

/// Tells the CPU that this thread spins (x86's PAUSE, Arm's YIELD): the
/// other hyperthread of the core runs meanwhile. Nothing elsewhere.
inline void cpu_pause() noexcept {
#if defined(_MSC_VER) && !defined(__clang__) && defined(_M_X64)
    _mm_pause();
#elif defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
    __asm__ __volatile__("yield");
#endif
}

/// steady_clock's reading in nanoseconds.
inline std::uint64_t steady_ns() noexcept {
    return static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
            .count());
}

#if defined(_WIN32)
/// QueryPerformanceCounter's reading (latency.cpp: <windows.h> stays there).
std::uint64_t query_performance_counter() noexcept;
#endif

/// One type per clock, each with a static now() (ticks) and whether its
/// ticks are nanoseconds: what a timed loop is instantiated on
/// (with_clock), so that no branch on the clock is inside it.
namespace clocks {
#if defined(IOBENCH_CALL_CLOCK_TSC)
struct Rdtsc {
    static constexpr bool ticks_are_ns = false;
    static std::uint64_t now() noexcept { return IOBENCH_RDTSC(); }
};
struct Rdtscp {
    static constexpr bool ticks_are_ns = false;
    static std::uint64_t now() noexcept {
        unsigned aux = 0;
#if defined(_MSC_VER) && !defined(__clang__)
        return __rdtscp(&aux);
#else
        return __builtin_ia32_rdtscp(&aux);
#endif
    }
};
struct LfenceRdtsc {
    static constexpr bool ticks_are_ns = false;
    static std::uint64_t now() noexcept {
        IOBENCH_LFENCE();
        return IOBENCH_RDTSC();
    }
};
#endif
#if defined(IOBENCH_CALL_CLOCK_GETTIME)
template <clockid_t Id>
struct ClockGettime {
    static constexpr bool ticks_are_ns = true;
    static std::uint64_t now() noexcept {
        timespec ts{};
        clock_gettime(Id, &ts);
        return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000u + static_cast<std::uint64_t>(ts.tv_nsec);
    }
};
using Monotonic = ClockGettime<CLOCK_MONOTONIC>;
using MonotonicRaw = ClockGettime<CLOCK_MONOTONIC_RAW>;
#endif
#if defined(_WIN32)
struct Qpc {
    static constexpr bool ticks_are_ns = false;
    static std::uint64_t now() noexcept { return query_performance_counter(); }
};
#endif
struct Steady {
    static constexpr bool ticks_are_ns = true;
    static std::uint64_t now() noexcept { return steady_ns(); }
};
/// No clock: the calls of a row made untimed.
struct None {
    static constexpr bool ticks_are_ns = true;
    static std::uint64_t now() noexcept { return 0; }
};
}  // namespace clocks

/// Calls `f(clock)` with the clock type of `kind` (clocks::...); one not
/// built here is steady_clock (clock_available says which are).
template <class F>
decltype(auto) with_clock(ClockKind kind, F&& f) {
    switch (kind) {
#if defined(IOBENCH_CALL_CLOCK_TSC)
        case ClockKind::rdtsc: return f(clocks::Rdtsc{});
        case ClockKind::rdtscp: return f(clocks::Rdtscp{});
        case ClockKind::lfence_rdtsc: return f(clocks::LfenceRdtsc{});
#endif
#if defined(IOBENCH_CALL_CLOCK_GETTIME)
        case ClockKind::monotonic: return f(clocks::Monotonic{});
        case ClockKind::monotonic_raw: return f(clocks::MonotonicRaw{});
#endif
#if defined(_WIN32)
        case ClockKind::qpc: return f(clocks::Qpc{});
#endif
        case ClockKind::none: return f(clocks::None{});
        default: return f(clocks::Steady{});
    }
}

/// What a clock was measured to be here (measure_clock).
struct ClockFigures {
    std::string name;
    /// Nanoseconds per tick, against steady_clock over the measurement (1
    /// for a clock of nanoseconds).
    double ns_per_tick = 1;
    /// The smallest step of its readings, in ns: the least non-zero
    /// difference of two back-to-back readings. A reading is a multiple of
    /// it: a call shorter than it reads 0 or one step.
    double resolution_ns = 0;
    /// The most frequent non-zero back-to-back difference, in ns, and the
    /// share of the differences that are it (rdtsc on a VM: 10 ns, 0.9).
    double common_step_ns = 0, common_step_share = 0;
    /// The share of back-to-back differences that are 0 (a clock coarser than its reads).
    double zero_share = 0;
    /// What one reading costs, in ns of wall time: reads in blocks of 2,000
    /// over a steady_clock span of some milliseconds, the least block's time
    /// / 2,000 (an interrupted block does not count).
    double read_cost_ns = 0;
};

/// Measures `Clock` (a clocks:: type, or any with a static now() and
/// ticks_are_ns): its rate against steady_clock over about `span` (at least
/// 2 ms), its resolution over 20,000 back-to-back readings, its read cost.
template <class Clock>
ClockFigures measure_clock(std::string_view name, std::chrono::nanoseconds span = std::chrono::milliseconds(10)) {
    ClockFigures f;
    f.name = std::string(name);
    const std::uint64_t span_ns = static_cast<std::uint64_t>(std::max<std::int64_t>(span.count(), 2'000'000));
    // Read cost and rate: reads in blocks of 2,000 until the span has
    // passed; the cost is the least block's (a block the scheduler
    // interrupted, on a busy machine most of them, does not count), the
    // rate the whole span's.
    constexpr int block = 2000;
    const std::uint64_t ns0 = steady_ns(), ticks0 = Clock::now();
    std::uint64_t ns1 = ns0, ticks1 = ticks0, least = ~std::uint64_t{0};
    volatile std::uint64_t sink = 0;
    do {
        const std::uint64_t b0 = steady_ns();
        for (int i = 0; i < block; ++i) sink = Clock::now();
        ns1 = steady_ns();
        least = std::min(least, ns1 - b0);
    } while (ns1 - ns0 < span_ns);
    ticks1 = Clock::now();
    (void)sink;
    f.read_cost_ns = static_cast<double>(least) / block;
    f.ns_per_tick = Clock::ticks_are_ns || ticks1 == ticks0
                        ? 1.0
                        : static_cast<double>(ns1 - ns0) / static_cast<double>(ticks1 - ticks0);
    // Resolution: differences of back-to-back readings.
    constexpr int pairs = 20'000;
    std::map<std::uint64_t, std::uint64_t> deltas;  // ticks -> how often
    std::uint64_t zeros = 0;
    for (int i = 0; i < pairs; ++i) {
        const std::uint64_t a = Clock::now();
        const std::uint64_t b = Clock::now();
        if (b <= a) ++zeros;
        else ++deltas[b - a];
    }
    f.zero_share = static_cast<double>(zeros) / pairs;
    if (!deltas.empty()) {
        f.resolution_ns = static_cast<double>(deltas.begin()->first) * f.ns_per_tick;
        const auto common = std::max_element(deltas.begin(), deltas.end(),
                                             [](const auto& a, const auto& b) { return a.second < b.second; });
        f.common_step_ns = static_cast<double>(common->first) * f.ns_per_tick;
        f.common_step_share = static_cast<double>(common->second) / pairs;
    } else {
        // Never advanced between two readings: coarser than 20,000 reads.
        f.resolution_ns = f.read_cost_ns * pairs * 2;
    }
    return f;
}


/// Measures the clock `kind` (clock_available) as measure_clock does.
ClockFigures measure_clock(ClockKind kind);

/// The clock a row's calls are timed with when none is named: of `measured`
/// (not empty), the cheapest to read whose resolution is at most
/// `resolution_ns_at_most` (so below the calls it times: a system call is
/// ~100 ns); when none is, the one of the finest resolution.
const ClockFigures& choose_clock(std::span<const ClockFigures> measured, double resolution_ns_at_most = 100);

/// The clock the per-call rows read (set once at start: select_call_clock).
class CallClock {
public:
    /// The clock in use: the one select_call_clock chose, else (before it) steady_clock.
    static ClockKind kind() noexcept { return kind_; }
    /// Its figures (measured when it was selected).
    static const ClockFigures& figures();
    /// "rdtsc": the clock in use.
    static std::string_view name() noexcept { return to_string(kind_); }
    /// Its reading now, in its ticks (a branch on the clock: timed loops use
    /// with_clock instead).
    static std::uint64_t now() noexcept {
        return with_clock(kind_, [](auto c) { return decltype(c)::now(); });
    }
    /// True when its ticks are nanoseconds.
    static bool ticks_are_ns() noexcept {
        return with_clock(kind_, [](auto c) { return decltype(c)::ticks_are_ns; });
    }

private:
    friend void select_call_clock(std::optional<ClockKind> named);
    static ClockKind kind_;
};

/// Measures every available clock and selects the one choose_clock picks,
/// or the one `named` (--latency-clock; it must be clock_available, or
/// `none`). Figures of every clock measured: call_clocks_measured().
void select_call_clock(std::optional<ClockKind> named = std::nullopt);

/// Whether select_call_clock has run (a per-call trial made before runs it first).
bool call_clock_selected() noexcept;

/// The figures of each clock select_call_clock measured (empty before; only
/// the named one when a clock was named).
const std::vector<ClockFigures>& call_clocks_measured();

/// The JSON context's `latency_clock`: the clock in use, its resolution and
/// read cost, and every other candidate's ("rdtsc: resolution 10.0 ns
/// (step 10.0 ns in 90% of back-to-back readings), read cost 9.2 ns; chosen
/// of: rdtscp 10.0 ns / 17.5 ns, ...").
std::string describe_call_clock();

/// True when a latency figure of `value_ns` is within 4 steps of a clock of
/// `resolution_ns`: an upper bound, not a measurement (the call took at
/// most that, and as few as value - 1 step).
bool at_clock_resolution(double value_ns, double resolution_ns) noexcept;
/// The number of steps at_clock_resolution allows.
inline constexpr double resolution_steps = 4;

/// Nanoseconds per tick of CallClock, measured over one or more spans: each
/// span's steady_clock nanoseconds against its ticks, summed over the spans
/// (a row's every run so far).
class TickRate {
public:
    /// A span starts: both clocks read.
    void start() noexcept {
        ns0_ = steady_ns();
        ticks0_ = CallClock::now();
    }
    /// The span started last ends.
    void stop() noexcept {
        const std::uint64_t ticks = CallClock::now(), ns = steady_ns();
        ticks_ += ticks - ticks0_;
        ns_ += ns - ns0_;
    }
    /// Nanoseconds per tick over every span so far; 1 for a clock of
    /// nanoseconds; the rate measured at start (CallClock::figures) before
    /// any span of a measurable length.
    double ns_per_tick() const noexcept {
        if (CallClock::ticks_are_ns()) return 1;
        if (ticks_ == 0 || ns_ == 0) return CallClock::figures().ns_per_tick;
        return static_cast<double>(ns_) / static_cast<double>(ticks_);
    }

private:
    std::uint64_t ns0_ = 0, ticks0_ = 0, ns_ = 0, ticks_ = 0;
};

/// A log-linear histogram of readings (HdrHistogram's layout, Gil Tene,
/// http://hdrhistogram.org: each power of two split into 128 equal buckets):
/// fixed memory (7,424 counters, 58 KiB), a constant-time record, any value of
/// 64 bits, a relative error of at most 1/128 (0.8 %), mergeable across
/// threads by adding counts. Values are in whatever unit they are recorded in
/// (CallClock ticks).
class LatencyHistogram {
public:
    static constexpr unsigned sub_bucket_bits = 7;  ///< 2^7 = 128 buckets per power of two
    static constexpr std::size_t bucket_count = (64 - sub_bucket_bits - 1) * (std::size_t{1} << sub_bucket_bits) + 256;

    LatencyHistogram() : counts_(bucket_count, 0) {}

    /// Counts one reading.
    void record(std::uint64_t value) noexcept {
        ++counts_[index(value)];
        ++count_;
        if (value > max_) max_ = value;
    }
    /// Adds every reading of `other`.
    void merge(const LatencyHistogram& other);
    /// Readings counted.
    std::uint64_t count() const noexcept { return count_; }
    /// The largest reading, exact.
    std::uint64_t max() const noexcept { return max_; }
    /// The reading at quantile `q` (0 < q <= 1): the one of rank floor(q x
    /// count) + 1 (at most count) in ascending order, given as the upper end
    /// of its bucket (never below the true value; at most max()). So fewer
    /// than (1 - q) x count readings are above it: with 1 call in 1,000
    /// stalling, p99.9 is a stall. 0 when nothing was counted.
    std::uint64_t quantile(double q) const noexcept;
    /// Readings in the buckets above `value`'s: none of them is at most
    /// `value`, and every reading above its bucket's upper end is counted
    /// (within 1/128 of `value`).
    std::uint64_t count_above(std::uint64_t value) const noexcept;

    /// The bucket of `value`: itself below 256, else 128 per power of two.
    static std::size_t index(std::uint64_t value) noexcept {
        if (value < 256) return static_cast<std::size_t>(value);
        const unsigned shift = static_cast<unsigned>(std::bit_width(value)) - (sub_bucket_bits + 1);
        return (std::size_t{shift} << sub_bucket_bits) + static_cast<std::size_t>(value >> shift);
    }
    /// The largest value of bucket `index`.
    static std::uint64_t bucket_upper(std::size_t index) noexcept;

private:
    std::vector<std::uint64_t> counts_;
    std::uint64_t count_ = 0;
    std::uint64_t max_ = 0;
};

/// The row fields of a latency histogram, in nanoseconds (readings in ticks
/// times `ns_per_tick`): latency_p50_ns, latency_p75_ns, latency_p90_ns,
/// latency_p95_ns, latency_p99_ns, latency_p999_ns, latency_max_ns, plus
/// latency_calls (readings counted). The logger benchmark's tables (Quill's
/// README) show p50, p75, p90, p95, p99 and p99.9: every one of them is here.
struct LatencySummary {
    double p50 = 0, p75 = 0, p90 = 0, p95 = 0, p99 = 0, p999 = 0, max = 0;
    std::uint64_t calls = 0;
};

/// `histogram`'s percentiles in nanoseconds.
LatencySummary summarize(const LatencyHistogram& histogram, double ns_per_tick);

/// What timing one call costs with the clock `kind`, over `calls` empty
/// calls made as a per-call row makes its calls (through a function pointer).
struct TimingCost {
    /// Wall time per call of the timed loop (two readings, a record in a
    /// histogram) less that of the same loop untimed, in ns: what the timing
    /// adds to an empty call (a row's `latency_empty_call_overhead_ns`;
    /// its `latency_overhead_ns` is measured on its own calls).
    double wall_ns = 0;
    /// The median reading around the empty call, in ns (the row's
    /// `latency_empty_call_ns`): what the clock shows for no work; at the
    /// clock's resolution it is one step, not a cost.
    double reading_ns = 0;
};

/// Measures TimingCost for `kind`: `calls` calls each way in rounds of
/// 10,000, alternately timed and untimed, the least round of each (a round
/// the scheduler interrupted does not count).
TimingCost timing_cost(ClockKind kind, std::uint64_t calls = 200'000);

}  // namespace iobench
