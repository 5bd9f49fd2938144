#include "core/options.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string_view>
#include <utility>

namespace iobench {

namespace {

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::optional<bool> parse_bool(const std::string& text) {
    const std::string v = lower(text);
    if (v == "true" || v == "1" || v == "yes" || v == "y" || v == "on" || v == "t") return true;
    if (v == "false" || v == "0" || v == "no" || v == "n" || v == "off" || v == "f") return false;
    return std::nullopt;
}

std::optional<long long> parse_integer(const std::string& text) {
    long long v = 0;
    const char* end = text.data() + text.size();
    auto [p, ec] = std::from_chars(text.data(), end, v);
    if (ec != std::errc() || p != end || text.empty()) return std::nullopt;
    return v;
}

/// The decimal number at the start of `text` (digits, '.', an exponent, as
/// std::from_chars reads them: no sign '+', no spaces, no hexadecimal 0x10 or
/// 0x1p30, which strtod would take) and the characters it used; nothing when
/// `text` does not start with one.
std::optional<std::pair<double, std::size_t>> leading_decimal(std::string_view text) {
    double v = 0;
    const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v, std::chars_format::general);
    if (ec != std::errc()) return std::nullopt;
    return std::pair{v, static_cast<std::size_t>(p - text.data())};
}

/// `text` as a finite decimal number, the whole of it.
std::optional<double> parse_number(const std::string& text) {
    const auto number = leading_decimal(text);
    if (!number || number->second != text.size() || !std::isfinite(number->first)) return std::nullopt;
    return number->first;
}

}  // namespace

std::uint64_t parse_size(const std::string& text, const char* option) {
    const auto number = leading_decimal(text);
    const double value = number ? number->first : 0;
    const std::size_t used = number ? number->second : 0;
    std::string suffix = text.substr(used);
    for (char& c : suffix) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (suffix.size() > 1 && (suffix.ends_with("IB") || suffix.ends_with("B"))) suffix.resize(1);
    double unit = 0;
    if (suffix.empty() || suffix == "B") unit = 1;
    else if (suffix == "K") unit = 0x1p10;
    else if (suffix == "M") unit = 0x1p20;
    else if (suffix == "G") unit = 0x1p30;
    else if (suffix == "T") unit = 0x1p40;
    const double bytes = value * unit;
    if (used == 0 || unit == 0 || !(bytes >= 1) || bytes > 0x1p62)
        throw usage_error(fmt::format("{} {}: must be a size in bytes from 1 to 4096P, optionally with K, M, G or T "
                                      "(e.g. 512M, 12.85G)",
                                      option, text.empty() ? "''" : text));
    return static_cast<std::uint64_t>(std::llround(bytes));
}

double parse_scale(const std::string& text) {
    const auto number = leading_decimal(text);
    if (!number || number->second != text.size())
        throw usage_error(fmt::format("--scale {}: must be a positive number (e.g. 0.01)", text.empty() ? "''" : text));
    return number->first;
}

ListFormat parse_list_format(const std::string& text) {
    if (text == "names") return ListFormat::names;
    if (text == "md") return ListFormat::markdown;
    throw usage_error(fmt::format("--format {}: must be names (the benchmark names) or md (a Markdown table of the "
                                  "methods)",
                                  text));
}

HarnessFlags check_harness_flags(const std::vector<std::string>& args) {
    HarnessFlags flags;
    for (const std::string& arg : args) {
        const auto eq = arg.find('=');
        const std::string name = arg.substr(0, eq);
        const bool has_value = eq != std::string::npos;
        const std::string value = has_value ? arg.substr(eq + 1) : "";
        auto bad = [&](const std::string& accepted) {
            return usage_error(fmt::format("{}: {}", arg, accepted));
        };
        auto need_value = [&] {
            if (!has_value || value.empty()) throw bad("needs a value (" + name + "=...)");
        };
        auto boolean = [&]() -> bool {
            if (!has_value) return true;  // "--flag" alone means true, as in Google Benchmark
            const auto b = parse_bool(value);
            if (!b) throw bad("must be true or false");
            return *b;
        };
        if (name == "--benchmark_filter") {
            flags.filter = value;
            continue;  // iobench filters its own names
        }
        if (name == "--benchmark_out") {
            need_value();
            flags.out_file = value;
            continue;  // iobench writes the file itself
        }
        if (name == "--benchmark_out_format") {
            need_value();
            if (value != "json")
                throw bad("iobench writes results as Google Benchmark JSON only (--benchmark_out_format=json)");
            continue;
        }
        if (name == "--benchmark_format") {
            need_value();
            if (value != "console")
                throw bad("iobench prints its console table only; write JSON with --benchmark_out=FILE or "
                          "--results-dir DIR");
        } else if (name == "--benchmark_time_unit") {
            need_value();
            if (value != "ms") throw bad("iobench reports every time in ms (the only accepted value is ms)");
        } else if (name == "--benchmark_repetitions") {
            need_value();
            const auto n = parse_integer(value);
            if (!n || *n < 1 || *n > max_repetitions)
                throw bad(fmt::format("must be a whole number from 1 to {}", max_repetitions));
            flags.repetitions = static_cast<int>(*n);
        } else if (name == "--benchmark_min_time" || name == "--benchmark_min_warmup_time") {
            need_value();
            const auto t = parse_number(value);
            const bool warmup = name == "--benchmark_min_warmup_time";
            if (!t || (warmup ? *t < 0 : !(*t > 0)) || *t > max_min_time)
                throw bad(fmt::format("must be a number of seconds {} and at most {} (e.g. 0.5)",
                                      warmup ? ">= 0" : "> 0", max_min_time));
            if (!warmup) flags.min_time = *t;
        } else if (name == "--benchmark_enable_random_interleaving") {
            flags.interleave = boolean();
        } else if (name == "--benchmark_display_aggregates_only") {
            // Applied by iobench's reporter: given to Google Benchmark, it would
            // also take the single runs from the results file.
            flags.display_aggregates_only = boolean();
            continue;
        } else if (name == "--benchmark_report_aggregates_only" || name == "--benchmark_counters_tabular") {
            boolean();
        } else if (name == "--benchmark_color") {
            if (has_value && value != "auto" && !parse_bool(value)) throw bad("must be auto, true or false");
        } else if (name == "--benchmark_context") {
            need_value();
            if (value.find('=') == std::string::npos) throw bad("must be KEY=VALUE[,KEY=VALUE...]");
        } else if (name == "--benchmark_perf_counters") {
            need_value();
        } else if (name == "--benchmark_list_tests") {
            throw bad("use --list (iobench's own names)");
        } else {
            throw usage_error(fmt::format("unrecognized command-line flag: {}", arg));
        }
        flags.pass.push_back(arg);
    }
    return flags;
}

void check_scale(double scale, const std::string& origin, const std::vector<Case>& cases, bool explicit_file_size) {
    if (!(scale > 0)) throw usage_error(fmt::format("{} {}: must be a positive number", origin, scale));
    if (!std::isfinite(scale)) throw usage_error(fmt::format("{} {}: must be a finite number", origin, scale));
    const Case* smallest = nullptr;
    const Case* largest = nullptr;
    for (const Case& c : cases) {
        if (explicit_file_size && c.workload->spec().sized_input) continue;  // its count is --file-size
        if (!smallest || c.workload->default_count() < smallest->workload->default_count()) smallest = &c;
        if (!largest || c.workload->default_count() > largest->workload->default_count()) largest = &c;
    }
    if (!smallest) return;
    const double low = static_cast<double>(smallest->workload->default_count());
    const double high = static_cast<double>(largest->workload->default_count());
    const std::string range = fmt::format("the selected benchmarks take a scale from {:g} to {:g}", 0.5 / low,
                                          max_scaled_count / high);
    if (low * scale < 0.5)
        throw usage_error(fmt::format("{} {}: {}'s {:.0f} items would round to 0 ({})", origin, scale,
                                      smallest->workload->name(), low, range));
    if (high * scale > max_scaled_count)
        throw usage_error(fmt::format("{} {}: {}'s {:.0f} items would become {:g}, more than 2^53 ({})", origin, scale,
                                      largest->workload->name(), high, high * scale, range));
}

}  // namespace iobench
