// ints_out and ints_in: fast_io's "I/O for 10 million integers" table
// (fast_io's README, https://github.com/cppfastio/fast_io): write 0 .. N-1 in decimal, one per line,
// then read the file back. N = 10,000,000, 78,888,890 bytes.
#include <fmt/format.h>

#include <cstdint>
#include <cstdio>

#include <iobench/error.hpp>
#include "core/engine/call_trial.hpp"
#include "core/engine/output_trial.hpp"
#include "core/engine/session.hpp"
#include "core/programs/program_trial.hpp"
#include "data/text.hpp"
#include "workloads/ints_in_trial.hpp"

namespace iobench {
namespace {

constexpr std::uint64_t published_count = 10'000'000;

class IntsOut final : public Workload {
public:
    IntsOut()
        : Workload({.name = "ints_out",
                    .description = "write the integers 0..N-1 in decimal, one per line (N = 10M, 78,888,890 bytes)",
                    .operation = Operation::put_ints,
                    .item_unit = "integer",
                    .default_count = published_count,
                    .reference = ReferenceKind::output,
                    .program_methods = true,
                    .call_item = CallItem::put_int}) {}
    ExpectedOutput expected_output(Session& s) const override {
        const std::uint64_t n = count(s);
        return {fmt::format("ints:{}", n), ints_text(n), n};
    }

protected:
    std::unique_ptr<Trial> make_method_trial(const Method& m, const Params& p, Session& s) const override {
        const ExpectedOutput expected = expected_output(s);
        return make_output_trial(s, name(), m, p, expected,
                                 [put = PutInts(m.put_ints), n = expected.items](const Sink& sink) { put(sink, n); });
    }
    std::unique_ptr<Trial> make_program_trial(const Method& m, const Params& p, Session& s) const override {
        const ExpectedOutput expected = expected_output(s);
        return std::make_unique<ProgramOutputTrial>(s, name(), m, p, expected,
                                                    ProgramCall{Operation::put_ints, expected.items, {}});
    }
    /// One put_int(i) per call.
    std::unique_ptr<Trial> make_call_trial(const Method& m, const Params& p, Session& s) const override {
        struct Item {
            PutIntCall put;
            std::uint64_t arg(std::uint64_t i) const { return i; }
            void call(CallSink sink, std::uint64_t v) const { put(sink, v); }
        };
        return std::make_unique<CallTrial<Item>>(s, name(), m, p, CallLines{expected_output(s), identify_int},
                                                 Item{calls_of(m).put_int});
    }

private:
    /// The integer a line of ints_text is: decimal digits, no leading zero,
    /// then '\n'; -1 for any other line.
    static std::int64_t identify_int(std::string_view line) {
        if (line.size() < 2 || line.size() > 21 || (line[0] == '0' && line.size() > 2)) return -1;
        std::uint64_t v = 0;
        for (char c : line.substr(0, line.size() - 1)) {
            if (c < '0' || c > '9') return -1;
            v = v * 10 + static_cast<unsigned>(c - '0');
        }
        return v > static_cast<std::uint64_t>(INT64_MAX) ? -1 : static_cast<std::int64_t>(v);
    }
};

/// The ints_in input: the ints_out text of `count` integers, written once per session.
const std::filesystem::path& ints_input(Session& s, std::uint64_t count) {
    return s.input(fmt::format("ints-{}.txt", count), ints_text_size(count),
                   [count](const std::filesystem::path& path) { write_generated_file(path, ints_text(count)); });
}

class IntsIn final : public Workload {
public:
    IntsIn()
        : Workload({.name = "ints_in",
                    .description = "read the ints_out file back into a std::vector<uint64_t> (page cache warm)",
                    .operation = Operation::get_ints,
                    .item_unit = "integer",
                    .default_count = published_count,
                    .reference = ReferenceKind::input,
                    .program_methods = true}) {}
    InputFile input_file(Session& s) const override {
        const std::uint64_t n = count(s);
        return {ints_input(s, n), ints_text(n), n};
    }

protected:
    std::unique_ptr<Trial> make_method_trial(const Method& m, const Params& p, Session& s) const override {
        const InputFile file = input_file(s);
        return std::make_unique<IntsInTrial>(file.path, ints_text_size(file.items), m.get_ints, m, p, file.items);
    }
    std::unique_ptr<Trial> make_program_trial(const Method& m, const Params& p, Session& s) const override {
        const InputFile file = input_file(s);
        return std::make_unique<ProgramIntsInTrial>(s, file.path, ints_text_size(file.items), m, p, file.items);
    }
};

const WorkloadRegistrar<IntsOut> ints_out_registrar;
const WorkloadRegistrar<IntsIn> ints_in_registrar;

}  // namespace
IntsInTrial::IntsInTrial(const std::filesystem::path& file, std::uint64_t file_bytes, GetInts get, const Method& m,
                         const Params& p, std::uint64_t count)
    : source_{file.string(), p.buffer_size}, get_(get), count_(count) {
    input = true;
    items = count;
    bytes = file_bytes;
    buffer_size = buffer_size_used(m, p);
    reserve_resident(values_, count);
}

std::string IntsInTrial::verify() {
    // The file holds 0 .. count-1 in order: every value must equal its index.
    std::uint64_t sum = 0;
    std::string first;
    for (std::size_t i = 0; i < values_.size(); ++i) {
        sum += values_[i];
        if (first.empty() && values_[i] != i)
            first = fmt::format("; first difference at index {}: got {}, expected {}", i, values_[i], i);
    }
    const std::uint64_t expected_sum = count_ % 2 == 0 ? (count_ / 2) * (count_ - 1) : count_ * ((count_ - 1) / 2);
    if (values_.size() == count_ && sum == expected_sum && first.empty()) return "";
    return fmt::format("parsed values differ: {} integers with sum {}, expected {} with sum {}{}", values_.size(), sum,
                       count_, expected_sum, first);
}

}  // namespace iobench
