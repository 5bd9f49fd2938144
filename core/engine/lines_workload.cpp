// Workloads from outside (iobench/workload.hpp): a LinesWorkload becomes a
// Workload with per-call rows only (each line one put_line call) and a
// `limit` row, verified line by line as the built-in per-call workloads are.
#include <fmt/format.h>

#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>

#include <iobench/workload.hpp>
#include "core/engine/call_trial.hpp"
#include "core/engine/session.hpp"
#include "core/engine/workload.hpp"

namespace iobench {

namespace {

/// Every line of `w` from 0 to count-1, by the hash of its text: what the
/// check of a run's output finds a line's item by. Throws std::runtime_error
/// naming the first line that breaks the contract (empty, no '\n' at its end
/// only, a '\0', the same text as an earlier line).
class LineIndex {
public:
    LineIndex(const LinesWorkload& w, std::uint64_t count) : w_(w) {
        index_.reserve(static_cast<std::size_t>(count));
        std::string text;
        for (std::uint64_t i = 0; i < count; ++i) {
            text.clear();
            w.line(i, text);
            if (text.empty() || text.back() != '\n' || text.find('\n') != text.size() - 1 ||
                text.find('\0') != std::string::npos)
                throw std::runtime_error(fmt::format(
                    "workload {}: line {} is not one line ending with '\\n' (without '\\0'): a LinesWorkload's "
                    "line(i, out) appends exactly one",
                    w.name, i));
            const std::uint64_t h = hash(text);
            const auto [first, last] = index_.equal_range(h);
            for (auto it = first; it != last; ++it)
                if (line_of(it->second) == text)
                    throw std::runtime_error(fmt::format(
                        "workload {}: lines {} and {} are the same text: a LinesWorkload's lines must differ (each "
                        "names its item, so that the order of each thread's lines can be checked)",
                        w.name, it->second, i));
            index_.emplace(h, i);
        }
    }

    /// The item whose line `line` is, exactly, or -1.
    std::int64_t identify(std::string_view line) const {
        const auto [first, last] = index_.equal_range(hash(line));
        for (auto it = first; it != last; ++it)
            if (line_of(it->second) == line) return static_cast<std::int64_t>(it->second);
        return -1;
    }

private:
    static std::uint64_t hash(std::string_view text) { return std::hash<std::string_view>{}(text); }
    std::string line_of(std::uint64_t i) const {
        std::string text;
        w_.line(i, text);
        return text;
    }

    LinesWorkload w_;
    std::unordered_multimap<std::uint64_t, std::uint64_t> index_;
};

class ExternalLines final : public Workload {
public:
    explicit ExternalLines(const LinesWorkload& w)
        : Workload({.name = w.name,
                    .description = w.description,
                    .item_unit = w.item_unit,
                    .default_count = w.default_count,
                    .reference = ReferenceKind::output,
                    .call_item = CallItem::put_line,
                    .calls_only = true,
                    .max_count = max_lines_workload_count}),
          w_(w) {}

    ExpectedOutput expected_output(Session& s) const override {
        const std::uint64_t n = count(s);
        if (n > max_lines_workload_count)
            throw std::runtime_error(fmt::format("workload {}: {} lines at this scale, more than the {} a workload of "
                                                 "lines may have",
                                                 name(), n, max_lines_workload_count));
        return {fmt::format("lines:{}:{}", name(), n), [w = w_, n](const ChunkFn& emit) {
                    std::string chunk;
                    for (std::uint64_t i = 0; i < n; ++i) {
                        w.line(i, chunk);
                        if (chunk.size() >= (1u << 20)) {
                            emit(chunk);
                            chunk.clear();
                        }
                    }
                    if (!chunk.empty()) emit(chunk);
                },
                n};
    }

protected:
    std::unique_ptr<Trial> make_method_trial(const Method& m, const Params&, Session&) const override {
        throw std::logic_error(fmt::format("workload {} has per-call rows only ({})", name(), m.name));
    }
    /// One put_line(line i) per call; the line is made before the call's clock starts.
    std::unique_ptr<Trial> make_call_trial(const Method& m, const Params& p, Session& s) const override {
        struct Item {
            PutLineCall put;
            void (*line)(std::uint64_t, std::string&);
            /// A user's line function may allocate: not the method's allocations.
            static constexpr bool arg_may_allocate() { return true; }
            /// Line i in this thread's buffer (valid until its next arg): no
            /// allocation per line inside the run once the buffer has grown.
            std::string_view arg(std::uint64_t i) const {
                thread_local std::string text;
                text.clear();
                line(i, text);
                return text;  // NUL-terminated, as put_line wants
            }
            void call(CallSink sink, std::string_view text) const { put(sink, text); }
        };
        const ExpectedOutput expected = expected_output(s);
        auto index = std::make_shared<const LineIndex>(w_, expected.items);
        CallLines lines{expected, [index](std::string_view line) { return index->identify(line); }};
        return std::make_unique<CallTrial<Item>>(s, name(), m, p, std::move(lines), Item{calls_of(m).put_line, w_.line});
    }

private:
    LinesWorkload w_;
};

}  // namespace

std::unique_ptr<Workload> make_lines_workload(const LinesWorkload& w) {
    if (!valid_name(w.name))
        throw std::invalid_argument(fmt::format(
            "workload \"{}\": a workload's name is letters, digits and _ . + - only, not empty", w.name));
    if (!w.line) throw std::invalid_argument(fmt::format("workload {} has no line function", w.name));
    if (w.default_count == 0) throw std::invalid_argument(fmt::format("workload {} has a default_count of 0", w.name));
    if (w.item_unit.empty())
        throw std::invalid_argument(fmt::format("workload {} has no item_unit", w.name));
    return std::make_unique<ExternalLines>(w);
}

}  // namespace iobench
