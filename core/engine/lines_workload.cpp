// Workloads from outside (iobench/workload.hpp): a LinesWorkload becomes a
// Workload with per-call rows only (each line one put_line call, or each
// typed record one put_fields call) and a `limit` row, verified line by line
// as the built-in per-call workloads are.
#include <fmt/format.h>

#include <iterator>
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

/// The line of item `i` of `w` appended to `out`: its `line`, or iobench's
/// formatting of its record (append_fields_line).
void append_line(const LinesWorkload& w, std::uint64_t i, std::string& out) {
    if (w.line) {
        w.line(i, out);
        return;
    }
    thread_local RecordFields fields;
    fields.clear();
    w.record(i, fields);
    try {
        append_fields_line(fields.record(w.record_format, w.message), out);
    } catch (const std::invalid_argument& e) {
        throw std::runtime_error(fmt::format("workload {}: record {}: {}", w.name, i, e.what()));
    }
}

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
            append_line(w, i, text);
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
        append_line(w_, i, text);
        return text;
    }

    LinesWorkload w_;
    std::unordered_multimap<std::uint64_t, std::uint64_t> index_;
};

/// A call of a workload of lines: put_line(line i).
struct LineItem {
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

/// A call of a workload of typed records: put_fields(record i).
struct RecordItem {
    PutFieldsCall put;
    void (*record)(std::uint64_t, RecordFields&);
    std::string format;  ///< the workload's record_format (NUL-terminated, as FieldsRecord::format says)
    AnchorMessage message;
    /// A user's record function may allocate: not the method's allocations.
    static constexpr bool arg_may_allocate() { return true; }
    /// Record i, in this thread's fields (valid until its next arg).
    FieldsRecord arg(std::uint64_t i) const {
        thread_local RecordFields fields;
        fields.clear();
        record(i, fields);
        return fields.record(format, message);
    }
    void call(CallSink sink, const FieldsRecord& fields) const { put(sink, fields); }
};

class ExternalLines final : public Workload {
public:
    explicit ExternalLines(const LinesWorkload& w)
        : Workload({.name = w.name,
                    .description = w.description,
                    .item_unit = w.item_unit,
                    .default_count = w.default_count,
                    .reference = ReferenceKind::output,
                    .call_item = w.line ? CallItem::put_line : CallItem::put_fields,
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
                        append_line(w, i, chunk);
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
    /// One put_line(line i), or put_fields(record i), per call; the line or
    /// record is made before the call's clock starts.
    std::unique_ptr<Trial> make_call_trial(const Method& m, const Params& p, Session& s) const override {
        const ExpectedOutput expected = expected_output(s);
        auto index = std::make_shared<const LineIndex>(w_, expected.items);
        CallLines lines{expected, [index](std::string_view line) { return index->identify(line); }};
        if (w_.line)
            return std::make_unique<CallTrial<LineItem>>(s, name(), m, p, std::move(lines),
                                                         LineItem{calls_of(m).put_line, w_.line});
        RecordItem item{calls_of(m).put_fields, w_.record, w_.record_format, w_.message};
        return std::make_unique<CallTrial<RecordItem>>(s, name(), m, p, std::move(lines), std::move(item));
    }

private:
    LinesWorkload w_;
};

}  // namespace

void append_fields_line(const FieldsRecord& record, std::string& out) {
    const std::string_view format = record.format;
    std::size_t field = 0;
    for (std::size_t k = 0; k < format.size(); ++k) {
        const char c = format[k];
        if (c == '\n') throw std::invalid_argument("its format holds a '\\n' (the line's only '\\n' is its last)");
        if (c != '{' && c != '}') {
            out += c;
            continue;
        }
        if (c == '}' || k + 1 == format.size() || format[k + 1] != '}')
            throw std::invalid_argument(fmt::format("its format has a '{}' at byte {} that is no \"{{}}\" (a record's "
                                                    "format has plain \"{{}}\" only)",
                                                    c, k));
        ++k;
        if (field == record.count)
            throw std::invalid_argument(fmt::format("its format has more \"{{}}\" than its {} field(s)", record.count));
        const Field& f = record.fields[field++];
        switch (f.kind) {
        case Field::Kind::integer: out += fmt::format_int(f.integer).str(); break;
        case Field::Kind::real: fmt::format_to(std::back_inserter(out), "{}", f.real); break;
        case Field::Kind::text:
            if (f.text.find('\n') != std::string_view::npos)
                throw std::invalid_argument(fmt::format("field {} is a text that holds a '\\n'", field - 1));
            out += f.text;
            break;
        }
    }
    if (field != record.count)
        throw std::invalid_argument(
            fmt::format("its format has {} \"{{}}\" for its {} field(s)", field, record.count));
    out += '\n';
}

std::unique_ptr<Workload> make_lines_workload(const LinesWorkload& w) {
    if (!valid_name(w.name))
        throw std::invalid_argument(fmt::format(
            "workload \"{}\": a workload's name is letters, digits and _ . + - only, not empty", w.name));
    if (!w.line && !w.record)
        throw std::invalid_argument(fmt::format("workload {} has no line function and no record function", w.name));
    if (w.line && w.record)
        throw std::invalid_argument(fmt::format(
            "workload {} has both a line function and a record function: give one (lines, or typed records)", w.name));
    if (w.record && w.record_format.empty())
        throw std::invalid_argument(fmt::format("workload {} has a record function and no record_format", w.name));
    if (w.default_count == 0) throw std::invalid_argument(fmt::format("workload {} has a default_count of 0", w.name));
    if (w.item_unit.empty())
        throw std::invalid_argument(fmt::format("workload {} has no item_unit", w.name));
    return std::make_unique<ExternalLines>(w);
}

}  // namespace iobench
