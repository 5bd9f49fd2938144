#include "core/report/number_format.hpp"

#include <fmt/format.h>

#include <cmath>

namespace iobench {

namespace {

/// Three significant digits, never in exponent form: "7.89", "64", "1014"
/// (Python's "{:.3g}" below 100, which drops trailing zeros).
std::string three_digits(double value) {
    if (value >= 100) return fmt::format("{:.0f}", value);
    return fmt::format("{:.3g}", value);
}

/// "1,205": an integer with a comma between groups of three digits.
std::string grouped(double value) {
    const auto whole = static_cast<unsigned long long>(std::llround(value));
    std::string digits = fmt::format("{}", whole);
    std::string text;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i != 0 && (digits.size() - i) % 3 == 0) text += ',';  // a group of three digits follows
        text += digits[i];
    }
    return text;
}

}  // namespace

std::string format_time(double seconds) {
    const double ms = seconds * 1e3;
    if (ms >= 1000) return fmt::format("{:.2f} s", seconds);
    if (ms >= 100) return fmt::format("{:.0f} ms", ms);
    if (ms >= 1) return fmt::format("{:.2f} ms", ms);
    if (ms >= 0.001) return fmt::format("{:.1f} us", ms * 1e3);
    const double ns = seconds * 1e9;
    if (ns >= 100) return fmt::format("{:.0f} ns", ns);
    if (ns >= 10) return fmt::format("{:.1f} ns", ns);
    return fmt::format("{:.2f} ns", ns);
}

std::string format_throughput(double bytes_per_second) {
    if (bytes_per_second >= 1e9) return fmt::format("{:.2f} GB/s", bytes_per_second / 1e9);
    if (bytes_per_second >= 1e6) return fmt::format("{:.1f} MB/s", bytes_per_second / 1e6);
    if (bytes_per_second >= 1e3) return fmt::format("{:.1f} kB/s", bytes_per_second / 1e3);
    return fmt::format("{:.0f} B/s", bytes_per_second);
}

std::string format_ratio(double ratio) {
    if (ratio >= 100) return fmt::format("{:.0f}x", ratio);
    if (ratio >= 10) return fmt::format("{:.1f}x", ratio);
    return fmt::format("{:.2f}x", ratio);
}

std::string format_count(double count) {
    if (count >= 1e9) return fmt::format("{:.2f} G", count / 1e9);
    if (count >= 1e6) return fmt::format("{:.2f} M", count / 1e6);
    if (count >= 100 || count == std::floor(count)) return grouped(count);
    return fmt::format("{:.1f}", count);
}

std::string format_bytes(double bytes) {
    constexpr double kib = 1024.0;
    if (bytes >= kib * kib * kib) return three_digits(bytes / (kib * kib * kib)) + " GiB";
    if (bytes >= kib * kib) return three_digits(bytes / (kib * kib)) + " MiB";
    if (bytes >= kib) return three_digits(bytes / kib) + " KiB";
    return three_digits(bytes) + " B";
}

std::string format_percent(double fraction) { return fmt::format("{:.1f}%", fraction * 100); }

}  // namespace iobench
