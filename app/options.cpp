#include "app/options.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string_view>
#include <utility>

#include "generated/results_format.hpp"

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

double parse_time_limit(const std::string& text) {
    const auto number = leading_decimal(text);
    if (!number || number->second != text.size() || !(number->first > 0) || number->first > max_time_limit)
        throw usage_error(fmt::format("--time-limit {}: must be a number of seconds > 0 and at most {} (a day)",
                                      text.empty() ? "''" : text, max_time_limit));
    return number->first;
}

std::vector<int> parse_cpu_list(const std::string& text) {
    auto refuse = [&](const std::string& why) {
        return usage_error(fmt::format("--cpus {}: {}; give CPU numbers and ranges, e.g. 0,1 or 0-3",
                                       text.empty() ? "''" : text, why));
    };
    // A CPU number: decimal digits only, at most max_cpu_number.
    auto number = [&](std::string_view item) {
        if (item.empty() || item.size() > 4 || item.find_first_not_of("0123456789") != std::string_view::npos)
            throw refuse(fmt::format("'{}' is not a CPU number", item));
        const int n = std::stoi(std::string(item));
        if (n > max_cpu_number) throw refuse(fmt::format("CPU {} is above {}", n, max_cpu_number));
        return n;
    };
    std::vector<int> cpus;
    std::string_view rest = text;
    if (rest.empty()) throw refuse("no CPU given");
    for (;;) {
        const std::size_t comma = rest.find(',');
        const std::string_view item = rest.substr(0, comma);
        const std::size_t dash = item.find('-');
        if (dash == std::string_view::npos) {
            cpus.push_back(number(item));
        } else {
            const int first = number(item.substr(0, dash)), last = number(item.substr(dash + 1));
            if (last < first) throw refuse(fmt::format("the range {} ends below its start", item));
            for (int c = first; c <= last; ++c) cpus.push_back(c);
        }
        if (comma == std::string_view::npos) break;
        rest.remove_prefix(comma + 1);
    }
    std::sort(cpus.begin(), cpus.end());
    cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
    return cpus;
}

ListFormat parse_list_format(const std::string& text) {
    if (text == "names") return ListFormat::names;
    if (text == "md") return ListFormat::markdown;
    throw usage_error(fmt::format("--format {}: must be names (the benchmark names) or md (a Markdown table of the "
                                  "methods)",
                                  text));
}

namespace {

/// A value a flag refuses: what it accepts, said after the argument.
struct bad_value {
    std::string accepted;
};

/// The value of a flag that needs one ("--flag=" and "--flag" refused).
const std::string& required(const std::optional<std::string>& value, std::string_view name) {
    if (!value || value->empty()) throw bad_value{fmt::format("needs a value ({}=...)", name)};
    return *value;
}

/// A boolean flag's value: "--flag" alone means true, as in Google Benchmark.
bool boolean(const std::optional<std::string>& value) {
    if (!value) return true;
    const auto b = parse_bool(*value);
    if (!b) throw bad_value{"must be true or false"};
    return *b;
}

/// Seconds > 0 (or >= 0 when `zero_allowed`), at most max_min_time.
double seconds(const std::optional<std::string>& value, std::string_view name, bool zero_allowed) {
    const auto t = parse_number(required(value, name));
    if (!t || (zero_allowed ? *t < 0 : !(*t > 0)) || *t > max_min_time)
        throw bad_value{fmt::format("must be a number of seconds {} and at most {} (e.g. 0.5)",
                                    zero_allowed ? ">= 0" : "> 0", max_min_time)};
    return *t;
}

using Value = std::optional<std::string>;

/// Every --benchmark_* flag iobench accepts, once: how its value is
/// checked and kept, whether Google Benchmark gets it, its --help line.
constexpr HarnessFlagSpec harness_flag_table[] = {
    {"--benchmark_filter", "REGEX", "run the benchmarks whose name matches (as Google Benchmark matches)",
     [](const Value& v, HarnessFlags& f) {
         f.filter = v.value_or("");
         return false;  // iobench filters its own names
     }},
    {"--benchmark_out", "FILE", "write the JSON results to FILE (replaced atomically; a failed run writes "
                                "FILE.failed instead)",
     [](const Value& v, HarnessFlags& f) {
         f.out_file = required(v, "--benchmark_out");
         return false;  // iobench writes the file itself
     }},
    {"--benchmark_out_format", "json", "the only format of the results file",
     [](const Value& v, HarnessFlags&) {
         if (required(v, "--benchmark_out_format") != "json")
             throw bad_value{"iobench writes results as Google Benchmark JSON only (--benchmark_out_format=json)"};
         return false;
     }},
    {"--benchmark_repetitions", "N", "repetitions of every benchmark (1..{max_repetitions}; default: the suite's)",
     [](const Value& v, HarnessFlags& f) {
         const auto n = parse_integer(required(v, "--benchmark_repetitions"));
         if (!n || *n < 1 || *n > max_repetitions)
             throw bad_value{fmt::format("must be a whole number from 1 to {}", max_repetitions)};
         f.repetitions = static_cast<int>(*n);
         return true;
     }},
    {"--benchmark_min_time", "SECONDS", "measured time a repetition's runs add up to at least (default: the "
                                        "suite's, else 0.5)",
     [](const Value& v, HarnessFlags& f) {
         f.min_time = seconds(v, "--benchmark_min_time", false);
         return true;
     }},
    {"--benchmark_min_warmup_time", "SECONDS", "",
     [](const Value& v, HarnessFlags& f) {
         f.min_warmup_time = seconds(v, "--benchmark_min_warmup_time", true);
         return true;
     }},
    {"--benchmark_enable_random_interleaving", "true|false",
     "repetitions of all benchmarks in random order (default true; or --no-interleave)",
     [](const Value& v, HarnessFlags& f) {
         f.interleave = boolean(v);
         return true;
     }},
    {"--benchmark_display_aggregates_only", "true|false",
     "the console gets the aggregates only (the results file keeps every run)",
     [](const Value& v, HarnessFlags& f) {
         // Applied by iobench's reporter: given to Google Benchmark, it would
         // also take the single runs from the results file.
         f.display_aggregates_only = boolean(v);
         return false;
     }},
    {"--benchmark_report_aggregates_only", "true|false", "",
     [](const Value& v, HarnessFlags& f) {
         // Applied by iobench's reporter too: it must see every repetition
         // to leave out those a stopping rule did not run, and count the rest.
         f.report_aggregates_only = boolean(v);
         return false;
     }},
    {"--benchmark_counters_tabular", "true|false", "",
     [](const Value& v, HarnessFlags&) {
         boolean(v);
         return true;
     }},
    {"--benchmark_format", "console", "",
     [](const Value& v, HarnessFlags&) {
         if (required(v, "--benchmark_format") != "console")
             throw bad_value{"iobench prints its console table only; write JSON with --benchmark_out=FILE or "
                             "--results-dir DIR"};
         return true;
     }},
    {"--benchmark_time_unit", "ms", "",
     [](const Value& v, HarnessFlags&) {
         if (required(v, "--benchmark_time_unit") != "ms")
             throw bad_value{"iobench reports every time in ms (the only accepted value is ms)"};
         return true;
     }},
    {"--benchmark_color", "auto|true|false", "",
     [](const Value& v, HarnessFlags&) {
         if (v && *v != "auto" && !parse_bool(*v)) throw bad_value{"must be auto, true or false"};
         return true;
     }},
    {"--benchmark_context", "KEY=VALUE[,KEY=VALUE...]",
     "keys and values added to the results file's context (a key of its own is refused)",
     [](const Value& v, HarnessFlags& flags) {
         // Google Benchmark's syntax: pairs separated by ',', each split at its first '='.
         const std::string& text = required(v, "--benchmark_context");
         std::size_t begin = 0;
         for (;;) {
             const std::size_t comma = std::min(text.find(',', begin), text.size());
             const std::string pair = text.substr(begin, comma - begin);
             const std::size_t eq = pair.find('=');
             if (eq == std::string::npos || eq == 0) throw bad_value{"must be KEY=VALUE[,KEY=VALUE...]"};
             std::string key = pair.substr(0, eq);
             const auto reserved = reserved_context_keys();
             if (std::find(reserved.begin(), reserved.end(), key) != reserved.end())
                 throw bad_value{fmt::format("{} is a key of the results file's own context: choose another", key)};
             for (const auto& [k, value] : flags.context)
                 if (k == key) throw bad_value{fmt::format("{} is given twice", key)};
             flags.context.emplace_back(std::move(key), pair.substr(eq + 1));
             if (comma == text.size()) break;
             begin = comma + 1;
         }
         return true;
     }},
    {"--benchmark_perf_counters", "NAMES", "",
     [](const Value& v, HarnessFlags&) {
         required(v, "--benchmark_perf_counters");
         return true;
     }},
    {"--benchmark_list_tests", "", "",
     [](const Value&, HarnessFlags&) -> bool { throw bad_value{"use --list (iobench's own names)"}; }},
};

}  // namespace

std::span<const HarnessFlagSpec> harness_flag_specs() { return harness_flag_table; }

std::string harness_flags_help() {
    std::size_t width = 0;
    for (const HarnessFlagSpec& f : harness_flag_table)
        if (!f.help.empty()) width = std::max(width, f.name.size() + 1 + f.syntax.size());
    std::string text = "Google Benchmark flags pass through, checked (a bad value is exit 2):\n";
    for (const HarnessFlagSpec& f : harness_flag_table)
        if (!f.help.empty())
            text += fmt::format("  {:<{}}  {}\n", fmt::format("{}={}", f.name, f.syntax), width,
                                fmt::format(fmt::runtime(f.help), fmt::arg("max_repetitions", max_repetitions)));
    return text;
}

std::span<const std::string_view> reserved_context_keys() {
    // Google Benchmark's and iobench's, as the results format's spec lists them.
    return results_format::context_keys;
}

HarnessFlags check_harness_flags(const std::vector<std::string>& args) {
    HarnessFlags flags;
    for (const std::string& arg : args) {
        const auto eq = arg.find('=');
        const std::string name = arg.substr(0, eq);
        const Value value = eq == std::string::npos ? Value() : Value(arg.substr(eq + 1));
        const auto spec = std::find_if(std::begin(harness_flag_table), std::end(harness_flag_table),
                                       [&](const HarnessFlagSpec& f) { return f.name == name; });
        if (spec == std::end(harness_flag_table))
            throw usage_error(fmt::format("unrecognized command-line flag: {}", arg));
        try {
            if (spec->apply(value, flags)) flags.pass.push_back(arg);
        } catch (const bad_value& e) {
            throw usage_error(fmt::format("{}: {}", arg, e.accepted));
        }
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
    // The most a workload's count may become: its own bound, else 2^53.
    const auto most_of = [](const Case& c) {
        const std::uint64_t own = c.workload->spec().max_count;
        return own != 0 ? static_cast<double>(own) : max_scaled_count;
    };
    for (const Case& c : cases) {
        if (explicit_file_size && c.workload->spec().sized_input) continue;
        if (most_of(c) / static_cast<double>(c.workload->default_count()) <
            most_of(*largest) / static_cast<double>(largest->workload->default_count()))
            largest = &c;  // the tightest bound on the scale
    }
    const double low = static_cast<double>(smallest->workload->default_count());
    const double high = static_cast<double>(largest->workload->default_count());
    const double most = most_of(*largest);
    const std::string range =
        fmt::format("the selected benchmarks take a scale from {:g} to {:g}", 0.5 / low, most / high);
    if (low * scale < 0.5)
        throw usage_error(fmt::format("{} {}: {}'s {:.0f} items would round to 0 ({})", origin, scale,
                                      smallest->workload->name(), low, range));
    if (high * scale > most)
        throw usage_error(fmt::format("{} {}: {}'s {:.0f} items would become {:g}, more than {} ({})", origin, scale,
                                      largest->workload->name(), high, high * scale,
                                      largest->workload->spec().max_count != 0
                                          ? fmt::format("the {} it may have", largest->workload->spec().max_count)
                                          : std::string("2^53"),
                                      range));
}

}  // namespace iobench
