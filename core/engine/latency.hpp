// Per-call latency (docs/design.md rule 9): the clock that times one call,
// and the histogram its readings go into.
#pragma once

#include <bit>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#if defined(__x86_64__) || defined(_M_X64)
#define IOBENCH_CALL_CLOCK_TSC 1
#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
#define IOBENCH_RDTSC() __rdtsc()
#else
// GCC's and Clang's builtin, which <x86intrin.h>'s __rdtsc() calls: that
// header (some 55,000 lines of intrinsics) is then not parsed by every file
// that includes this one.
#define IOBENCH_RDTSC() __builtin_ia32_rdtsc()
#endif
#endif

namespace iobench {

/// The clock a per-call row reads before and after each call: the cheapest
/// monotonic clock of the platform. On x86-64 with an invariant time-stamp
/// counter (CPUID 0x80000007, EDX bit 8: it ticks at one rate on every core,
/// whatever the frequency) that is `rdtsc`, converted to nanoseconds with a
/// rate measured against std::chrono::steady_clock over each run; elsewhere
/// steady_clock itself (clock_gettime(CLOCK_MONOTONIC) through the vDSO on
/// Linux, QueryPerformanceCounter on Windows), whose ticks are nanoseconds.
/// What each costs here: docs/methodology.md, "Timing one call".
class CallClock {
public:
    /// A reading, in ticks of the clock in use.
    static std::uint64_t now() noexcept {
#if defined(IOBENCH_CALL_CLOCK_TSC)
        if (use_tsc_) return IOBENCH_RDTSC();
#endif
        return steady_ns();
    }
    /// steady_clock's reading in nanoseconds.
    static std::uint64_t steady_ns() noexcept {
        return static_cast<std::uint64_t>(
            std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
                .count());
    }
    /// "rdtsc" or "steady_clock": the clock now() reads (the JSON context's `latency_clock`).
    static std::string_view name() noexcept { return use_tsc_ ? "rdtsc" : "steady_clock"; }
    /// True when now() counts nanoseconds (steady_clock) rather than TSC ticks.
    static bool ticks_are_ns() noexcept { return !use_tsc_; }

private:
    static const bool use_tsc_;  ///< set once at start-up (latency.cpp): an invariant TSC on x86-64
};

/// The JSON context's `latency_clock`: the clock, and what timing one call
/// with it costs here ("rdtsc (invariant TSC; ns per tick measured against
/// steady_clock over each run), 12 ns per timed empty call").
std::string describe_call_clock();

/// Nanoseconds per tick of CallClock, measured over one or more spans: each
/// span's steady_clock nanoseconds against its ticks.
class TickRate {
public:
    /// A span starts: both clocks read.
    void start() noexcept {
        ns0_ = CallClock::steady_ns();
        ticks0_ = CallClock::now();
    }
    /// The span started last ends.
    void stop() noexcept {
        const std::uint64_t ticks = CallClock::now(), ns = CallClock::steady_ns();
        ticks_ += ticks - ticks0_;
        ns_ += ns - ns0_;
    }
    /// Nanoseconds per tick over every span so far (1 for a clock of
    /// nanoseconds, and before any span of a measurable length).
    double ns_per_tick() const noexcept {
        if (CallClock::ticks_are_ns() || ticks_ == 0 || ns_ == 0) return 1;
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
/// times `ns_per_tick`): latency_p50_ns, latency_p90_ns, latency_p99_ns,
/// latency_p999_ns, latency_max_ns, plus latency_calls (readings counted).
struct LatencySummary {
    double p50 = 0, p90 = 0, p99 = 0, p999 = 0, max = 0;
    std::uint64_t calls = 0;
};

/// `histogram`'s percentiles in nanoseconds.
LatencySummary summarize(const LatencyHistogram& histogram, double ns_per_tick);

/// What timing one call costs with CallClock, in nanoseconds: the median
/// reading around an empty call made as a per-call row makes its calls
/// (through a function pointer), over `calls` calls. Measured once per trial
/// and stated on its row as latency_overhead_ns, never subtracted.
double timing_overhead_ns(std::uint64_t calls = 100'000);

}  // namespace iobench
