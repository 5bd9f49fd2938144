#include "core/measure/latency.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <stdexcept>

#if defined(IOBENCH_CALL_CLOCK_TSC) && !defined(_MSC_VER)
#include <cpuid.h>
#endif
#if defined(_WIN32)
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>
#endif

namespace iobench {

namespace {

#if defined(IOBENCH_CALL_CLOCK_TSC)
/// CPUID leaf `leaf`'s registers (eax, ebx, ecx, edx); zeros where the leaf
/// is beyond the highest one of its range.
std::array<unsigned, 4> cpuid(unsigned leaf) {
    std::array<unsigned, 4> r{};
#if defined(_MSC_VER) && !defined(__clang__)
    int regs[4] = {};
    __cpuid(regs, static_cast<int>(leaf & 0x80000000u));
    if (static_cast<unsigned>(regs[0]) < leaf) return r;
    __cpuid(regs, static_cast<int>(leaf));
    for (int i = 0; i < 4; ++i) r[static_cast<std::size_t>(i)] = static_cast<unsigned>(regs[i]);
#else
    if (__get_cpuid_max(leaf & 0x80000000u, nullptr) < leaf) return r;
    __get_cpuid(leaf, &r[0], &r[1], &r[2], &r[3]);
#endif
    return r;
}
#endif

#if defined(IOBENCH_CALL_CLOCK_TSC)
/// True when the CPU has an invariant TSC (CPUID leaf 0x80000007, EDX bit 8).
bool invariant_tsc() { return (cpuid(0x80000007u)[3] >> 8) & 1u; }
/// True when the CPU has RDTSCP (CPUID leaf 0x80000001, EDX bit 27).
bool has_rdtscp() { return (cpuid(0x80000001u)[3] >> 27) & 1u; }
#endif

/// The empty call whose timing is the clock's own cost.
void empty_call(void*, std::uint64_t) {}

constexpr std::pair<ClockKind, std::string_view> clock_names[] = {
    {ClockKind::rdtsc, "rdtsc"},
    {ClockKind::rdtscp, "rdtscp"},
    {ClockKind::lfence_rdtsc, "lfence_rdtsc"},
    {ClockKind::monotonic, "monotonic"},
    {ClockKind::monotonic_raw, "monotonic_raw"},
    {ClockKind::qpc, "qpc"},
    {ClockKind::steady_clock, "steady_clock"},
    {ClockKind::none, "none"},
};

/// The figures of every clock measured (select_call_clock), and of the one in use.
std::vector<ClockFigures>& measured_clocks() {
    static std::vector<ClockFigures> m;
    return m;
}
ClockFigures& selected_figures() {
    static ClockFigures f{.name = "steady_clock"};
    return f;
}

}  // namespace

ClockKind CallClock::kind_ = ClockKind::steady_clock;

#if defined(_WIN32)
std::uint64_t query_performance_counter() noexcept {
    LARGE_INTEGER v;
    QueryPerformanceCounter(&v);
    return static_cast<std::uint64_t>(v.QuadPart);
}
#endif

std::string_view to_string(ClockKind kind) noexcept {
    for (const auto& [k, name] : clock_names)
        if (k == kind) return name;
    return "?";
}

std::optional<ClockKind> clock_named(std::string_view name) noexcept {
    for (const auto& [k, n] : clock_names)
        if (n == name) return k;
    return std::nullopt;
}

bool clock_available(ClockKind kind) noexcept {
    switch (kind) {
        case ClockKind::rdtsc:
        case ClockKind::lfence_rdtsc: {
#if defined(IOBENCH_CALL_CLOCK_TSC)
            static const bool tsc = invariant_tsc();
            return tsc;
#else
            return false;
#endif
        }
        case ClockKind::rdtscp: {
#if defined(IOBENCH_CALL_CLOCK_TSC)
            static const bool tscp = invariant_tsc() && has_rdtscp();
            return tscp;
#else
            return false;
#endif
        }
        case ClockKind::monotonic:
        case ClockKind::monotonic_raw:
#if defined(IOBENCH_CALL_CLOCK_GETTIME)
            return true;
#else
            return false;
#endif
        case ClockKind::qpc:
#if defined(_WIN32)
            return true;
#else
            return false;
#endif
        case ClockKind::steady_clock:
        case ClockKind::none: return true;
    }
    return false;
}

std::vector<ClockKind> available_clocks() {
    std::vector<ClockKind> out;
    for (const auto& [k, name] : clock_names)
        if (k != ClockKind::none && clock_available(k)) out.push_back(k);
    return out;
}

ClockFigures measure_clock(ClockKind kind) {
    if (!clock_available(kind) || kind == ClockKind::none)
        throw std::invalid_argument(fmt::format("clock {} cannot be read here", to_string(kind)));
    return with_clock(kind, [kind](auto c) { return measure_clock<decltype(c)>(to_string(kind)); });
}

const ClockFigures& choose_clock(std::span<const ClockFigures> measured, double resolution_ns_at_most) {
    if (measured.empty()) throw std::invalid_argument("choose_clock: no clock measured");
    const ClockFigures* best = nullptr;
    for (const ClockFigures& f : measured)
        if (f.resolution_ns <= resolution_ns_at_most && (!best || f.read_cost_ns < best->read_cost_ns)) best = &f;
    if (best) return *best;
    for (const ClockFigures& f : measured)
        if (!best || f.resolution_ns < best->resolution_ns) best = &f;
    return *best;
}

namespace {
bool clock_selected = false;
}  // namespace

bool call_clock_selected() noexcept { return clock_selected; }

void select_call_clock(std::optional<ClockKind> named) {
    clock_selected = true;
    std::vector<ClockFigures>& all = measured_clocks();
    all.clear();
    if (named && *named == ClockKind::none) {
        CallClock::kind_ = ClockKind::none;
        selected_figures() = ClockFigures{.name = "none", .ns_per_tick = 1};
        return;
    }
    if (named) {
        if (!clock_available(*named))
            throw std::invalid_argument(fmt::format("clock {} cannot be read here", to_string(*named)));
        all.push_back(measure_clock(*named));
        CallClock::kind_ = *named;
        selected_figures() = all.back();
        return;
    }
    for (ClockKind k : available_clocks()) all.push_back(measure_clock(k));
    const ClockFigures& chosen = choose_clock(all);
    CallClock::kind_ = *clock_named(chosen.name);
    selected_figures() = chosen;
}

const ClockFigures& CallClock::figures() { return selected_figures(); }

const std::vector<ClockFigures>& call_clocks_measured() { return measured_clocks(); }

bool at_clock_resolution(double value_ns, double resolution_ns) noexcept {
    return resolution_ns > 0 && value_ns <= resolution_steps * resolution_ns;
}

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

std::uint64_t LatencyHistogram::count_above(std::uint64_t value) const noexcept {
    std::uint64_t n = 0;
    for (std::size_t i = index(value) + 1; i < counts_.size(); ++i) n += counts_[i];
    return n;
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
    s.p75 = static_cast<double>(h.quantile(0.75)) * ns_per_tick;
    s.p90 = static_cast<double>(h.quantile(0.9)) * ns_per_tick;
    s.p95 = static_cast<double>(h.quantile(0.95)) * ns_per_tick;
    s.p99 = static_cast<double>(h.quantile(0.99)) * ns_per_tick;
    s.p999 = static_cast<double>(h.quantile(0.999)) * ns_per_tick;
    s.max = static_cast<double>(h.max()) * ns_per_tick;
    s.calls = h.count();
    return s;
}

std::string describe_call_clock() {
    const ClockFigures& f = CallClock::figures();
    if (CallClock::kind() == ClockKind::none)
        return "none (--latency-clock none: the per-call rows' calls are untimed, no percentiles)";
    const auto figures = [](const ClockFigures& c) {
        return fmt::format("resolution {:.1f} ns (step {:.1f} ns in {:.0f}% of back-to-back readings, 0 in {:.0f}%), "
                           "read cost {:.1f} ns",
                           c.resolution_ns, c.common_step_ns, 100 * c.common_step_share, 100 * c.zero_share,
                           c.read_cost_ns);
    };
    std::string text = fmt::format("{}: {}", f.name, figures(f));
    if (!f.name.empty() && f.ns_per_tick != 1.0)
        text += fmt::format(", {:.4f} ns per tick (measured against steady_clock over each row's runs)", f.ns_per_tick);
    std::vector<std::string> others;
    for (const ClockFigures& c : call_clocks_measured())
        if (c.name != f.name)
            others.push_back(fmt::format("{} {:.1f} ns / {:.1f} ns", c.name, c.resolution_ns, c.read_cost_ns));
    if (!others.empty())
        text += fmt::format("; chosen over (resolution / read cost) {}", fmt::join(others, ", "));
    else if (call_clocks_measured().size() == 1)
        text += " (--latency-clock)";
    return text;
}

TimingCost timing_cost(ClockKind kind, std::uint64_t calls) {
    // Through a volatile pointer, as a row calls its method: the call is
    // neither inlined nor removed.
    void (*volatile call)(void*, std::uint64_t) = empty_call;
    TimingCost cost;
    if (kind == ClockKind::none) return cost;
    return with_clock(kind, [&](auto c) {
        using Clock = decltype(c);
        double timed = 0, untimed = 0;
        LatencyHistogram h;  // every round's readings
        std::uint64_t ticks = 0, ticks_ns = 0;
        const std::uint64_t per_round = std::min<std::uint64_t>(calls, 10'000);
        const std::uint64_t rounds = std::max<std::uint64_t>(1, calls / per_round);
        for (std::uint64_t round = 0; round < rounds; ++round) {
            LatencyHistogram round_h;
            const std::uint64_t t0 = steady_ns(), k0 = Clock::now();
            for (std::uint64_t i = 0; i < per_round; ++i) {
                const std::uint64_t a = Clock::now();
                call(nullptr, i);
                const std::uint64_t b = Clock::now();
                round_h.record(b - a);
            }
            const std::uint64_t k1 = Clock::now(), t1 = steady_ns();
            ticks += k1 - k0;
            ticks_ns += t1 - t0;
            h.merge(round_h);
            const std::uint64_t u0 = steady_ns();
            for (std::uint64_t i = 0; i < per_round; ++i) call(nullptr, i);
            const std::uint64_t u1 = steady_ns();
            const double tn = static_cast<double>(t1 - t0) / static_cast<double>(per_round);
            const double un = static_cast<double>(u1 - u0) / static_cast<double>(per_round);
            timed = round == 0 ? tn : std::min(timed, tn);
            untimed = round == 0 ? un : std::min(untimed, un);
        }
        const double ns_per_tick =
            Clock::ticks_are_ns || ticks == 0 ? 1.0 : static_cast<double>(ticks_ns) / static_cast<double>(ticks);
        cost.wall_ns = std::max(0.0, timed - untimed);
        cost.reading_ns = static_cast<double>(h.quantile(0.5)) * ns_per_tick;
        return cost;
    });
}

}  // namespace iobench
