// example: workloads compiled only into the tests, the ones
// docs/adding-a-workload.md shows and extends. Each declares what it takes
// and counts; the runner pairs it with every method that has its operation
// and adds the `limit` row it declares. tests/core/engine/pairs_test.cpp runs every pair.
#include <fmt/format.h>

#include <filesystem>
#include <string>
#include <system_error>

#include <iobench/error.hpp>
#include "core/engine/output_trial.hpp"
#include "core/engine/session.hpp"
#include "core/engine/workload.hpp"
#include "data/text.hpp"
#include "workloads/ints_in_trial.hpp"

namespace iobench {
namespace {

/// The line of example_tally: "tally <i>\n".
constexpr NumberedLine tally_line{"tally ", "\n"};

/// Writes "tally 0\n" .. "tally <N-1>\n" with a method's put_lines.
class ExampleTally final : public Workload {
public:
    ExampleTally()
        : Workload({.name = "example_tally",
                    .description = "write \"tally <i>\\n\" for i = 0..N-1 (N = 1M)",
                    .operation = Operation::put_lines,
                    .item_unit = "line",
                    .default_count = 1'000'000,
                    .reference = ReferenceKind::output}) {}
    /// What a run writes: the methods are verified against it, the `limit` row writes it.
    ExpectedOutput expected_output(Session& s) const override {
        const std::uint64_t n = count(s);
        return {fmt::format("example_tally:{}", n), numbered_text(tally_line.prefix, tally_line.suffix, n), n};
    }

protected:
    std::unique_ptr<Trial> make_method_trial(const Method& m, const Params& p, Session& s) const override {
        const ExpectedOutput expected = expected_output(s);
        return make_output_trial(s, name(), m, p, expected,
                                 [put = PutLines(m.put_lines), n = expected.items](const Sink& sink) {
                                     put(sink, tally_line, n);
                                 });
    }
};

const WorkloadRegistrar<ExampleTally> tally_registrar;

/// "0 1 2 ... <count-1>\n": the integers on one line, separated by spaces.
Generator spaced_ints_text(std::uint64_t count) {
    return [count](const ChunkFn& emit) {
        std::string chunk;
        for (std::uint64_t i = 0; i < count; ++i) {
            chunk += std::to_string(i);
            chunk += i + 1 < count ? ' ' : '\n';
            if (chunk.size() >= (1u << 16)) {
                emit(chunk);
                chunk.clear();
            }
        }
        emit(chunk);
    };
}

/// Reads 0..N-1 separated by spaces, not lines, with a method's get_ints.
class ExampleSpacedIn final : public Workload {
public:
    ExampleSpacedIn()
        : Workload({.name = "example_spaced_in",
                    .description = "read the integers 0..N-1, separated by spaces on one line (N = 1M)",
                    .operation = Operation::get_ints,
                    .item_unit = "integer",
                    .default_count = 1'000'000,
                    .reference = ReferenceKind::input}) {}
    /// What a run reads, generated once per session: the `limit` row reads it too.
    InputFile input_file(Session& s) const override {
        const std::uint64_t n = count(s);
        const Generator text = spaced_ints_text(n);
        return {s.input(fmt::format("example-spaced-{}.txt", n),
                        [&text](const std::filesystem::path& path) { write_generated_file(path, text); }),
                text, n};
    }

protected:
    std::unique_ptr<Trial> make_method_trial(const Method& m, const Params& p, Session& s) const override {
        const InputFile file = input_file(s);
        std::error_code ec;
        const std::uint64_t bytes = std::filesystem::file_size(file.path, ec);
        if (ec) throw io_error("stat", file.path.string(), ec);
        return std::make_unique<IntsInTrial>(file.path, bytes, m.get_ints, m, p, file.items);
    }
};

const WorkloadRegistrar<ExampleSpacedIn> spaced_in_registrar;

}  // namespace
}  // namespace iobench
