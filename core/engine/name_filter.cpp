// NameFilter (core/engine/suite.hpp): Google Benchmark's --benchmark_filter
// semantics with std::regex, in a translation unit of its own so that <regex>
// and its instantiations are compiled once, beside the suite parser rather
// than inside it (and kept out of suite.hpp, which nine files include).
#include <fmt/format.h>

#include <memory>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include "core/engine/suite.hpp"
#include "core/os/usage_error.hpp"

namespace iobench {

namespace {

/// Longest --benchmark_filter accepted, in bytes: names are under 100.
constexpr std::size_t max_filter_length = 1024;

/// True when the extended regular expression `re` repeats, without bound, a
/// group that itself holds a repetition ("(a*)*", "(x+y)+", "((a*)b){2,}"):
/// std::regex backtracks through every way of splitting the text between
/// the two, which takes time exponential in the nesting (five
/// levels took 33 s on names of 30 characters).
bool has_nested_repetition(std::string_view re) {
    std::vector<bool> repeats_inside;  // per open group: holds a repetition
    bool last_group_repeats = false;   // the group just closed held one
    bool just_closed = false;          // the previous character closed a group
    for (std::size_t i = 0; i < re.size(); ++i) {
        const char c = re[i];
        const bool after_group = just_closed;
        just_closed = false;
        if (c == '\\') {
            ++i;  // an escaped character is a literal
        } else if (c == '[') {
            // A bracket expression: ']' right after '[' or "[^" is a literal.
            std::size_t j = i + 1;
            if (j < re.size() && re[j] == '^') ++j;
            if (j < re.size() && re[j] == ']') ++j;
            while (j < re.size() && re[j] != ']') ++j;
            i = j;
        } else if (c == '(') {
            repeats_inside.push_back(false);
        } else if (c == ')') {
            if (repeats_inside.empty()) continue;  // unbalanced: std::regex says so
            last_group_repeats = repeats_inside.back();
            repeats_inside.pop_back();
            just_closed = true;
            if (last_group_repeats && !repeats_inside.empty()) repeats_inside.back() = true;
        } else if (c == '*' || c == '+' || c == '{') {
            if (after_group && last_group_repeats && (c != '{' || re.find(',', i) < re.find('}', i)))
                return true;
            if (!repeats_inside.empty()) repeats_inside.back() = true;
        }
    }
    return false;
}

}  // namespace

struct NameFilter::Pattern {
    std::regex re;
};

NameFilter::NameFilter(std::string spec) {
    if (spec.size() > max_filter_length)
        throw usage_error(fmt::format("--benchmark_filter: {} bytes, more than the {} a filter may have", spec.size(),
                                      max_filter_length));
    if (spec.empty() || spec == "all" || spec == ".") {
        all_ = true;
        return;
    }
    if (spec[0] == '-') {
        negate_ = true;
        spec.erase(0, 1);
    }
    if (has_nested_repetition(spec))
        throw usage_error(fmt::format("--benchmark_filter={}: a group repeated without bound holds a repetition "
                                      "itself (as in \"(a*)*\"), which can take exponential time to match: write it "
                                      "without the nested repetition",
                                      spec));
    try {
        re_ = std::make_shared<const Pattern>(Pattern{std::regex(spec, std::regex::extended)});
    } catch (const std::regex_error& e) {
        throw usage_error(fmt::format("--benchmark_filter={}: not a valid regular expression ({})", spec, e.what()));
    }
}

bool NameFilter::selects(const std::string& name) const { return all_ || std::regex_search(name, re_->re) != negate_; }

}  // namespace iobench
