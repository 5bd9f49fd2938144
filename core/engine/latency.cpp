#include "core/engine/latency.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#if defined(IOBENCH_CALL_CLOCK_TSC) && !defined(_MSC_VER)
#include <cpuid.h>
#endif

namespace iobench {

namespace {

/// True when the CPU has an invariant TSC (CPUID leaf 0x80000007, EDX bit 8).
bool invariant_tsc() {
#if defined(IOBENCH_CALL_CLOCK_TSC)
#if defined(_MSC_VER) && !defined(__clang__)
    int regs[4] = {};
    __cpuid(regs, static_cast<int>(0x80000000u));
    if (static_cast<unsigned>(regs[0]) < 0x80000007u) return false;
    __cpuid(regs, static_cast<int>(0x80000007u));
    return (static_cast<unsigned>(regs[3]) >> 8) & 1u;
#else
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (__get_cpuid_max(0x80000000u, nullptr) < 0x80000007u) return false;
    if (!__get_cpuid(0x80000007u, &a, &b, &c, &d)) return false;
    return (d >> 8) & 1u;
#endif
#else
    return false;
#endif
}

/// The empty call whose timing is the clock's own cost.
void empty_call(void*, std::uint64_t) {}

}  // namespace

const bool CallClock::use_tsc_ = invariant_tsc();

void LatencyHistogram::merge(const LatencyHistogram& other) {
    for (std::size_t i = 0; i < counts_.size(); ++i) counts_[i] += other.counts_[i];
    count_ += other.count_;
    max_ = std::max(max_, other.max_);
}

std::uint64_t LatencyHistogram::bucket_upper(std::size_t index) noexcept {
    if (index < 256) return index;
    const std::size_t shift = (index >> sub_bucket_bits) - 1;
    const std::uint64_t mantissa = index - (shift << sub_bucket_bits);  // 128 .. 255
    return ((mantissa + 1) << shift) - 1;
}

std::uint64_t LatencyHistogram::quantile(double q) const noexcept {
    if (count_ == 0) return 0;
    std::uint64_t rank = static_cast<std::uint64_t>(std::floor(q * static_cast<double>(count_))) + 1;
    rank = std::min(rank, count_);
    std::uint64_t seen = 0;
    for (std::size_t i = 0; i < counts_.size(); ++i) {
        seen += counts_[i];
        if (seen >= rank) return std::min(bucket_upper(i), max_);
    }
    return max_;
}

LatencySummary summarize(const LatencyHistogram& h, double ns_per_tick) {
    LatencySummary s;
    s.p50 = static_cast<double>(h.quantile(0.5)) * ns_per_tick;
    s.p90 = static_cast<double>(h.quantile(0.9)) * ns_per_tick;
    s.p99 = static_cast<double>(h.quantile(0.99)) * ns_per_tick;
    s.p999 = static_cast<double>(h.quantile(0.999)) * ns_per_tick;
    s.max = static_cast<double>(h.max()) * ns_per_tick;
    s.calls = h.count();
    return s;
}

std::string describe_call_clock() {
    const std::string clock = CallClock::ticks_are_ns()
                                  ? "steady_clock (nanoseconds)"
                                  : "rdtsc (invariant TSC; ns per tick measured against steady_clock over each run)";
    return fmt::format("{}, {:.1f} ns per timed empty call", clock, timing_overhead_ns());
}

double timing_overhead_ns(std::uint64_t calls) {
    // Through a volatile pointer, as a row calls its method: the call is
    // neither inlined nor removed.
    void (*volatile call)(void*, std::uint64_t) = empty_call;
    LatencyHistogram h;
    TickRate rate;
    rate.start();
    for (std::uint64_t i = 0; i < calls; ++i) {
        const std::uint64_t t0 = CallClock::now();
        call(nullptr, i);
        const std::uint64_t t1 = CallClock::now();
        h.record(t1 - t0);
    }
    rate.stop();
    return static_cast<double>(h.quantile(0.5)) * rate.ns_per_tick();
}

}  // namespace iobench
