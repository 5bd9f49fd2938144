// lines: the Go file-I/O buffering experiment
// (the write-up "File I/O Buffering Experiment" (Go), docs/results/README.md#sources): 100,000 numbered lines
// "Line %d: This is buffered write data\n", i = 0 .. 99,999 (3,988,890 bytes),
// written unbuffered (one write per line), buffered, and with the durability
// variants (fsync, fdatasync, O_SYNC, O_DSYNC).
#include <fmt/format.h>

#include "core/engine/output_trial.hpp"
#include "core/engine/session.hpp"
#include "core/programs/program_trial.hpp"
#include "data/text.hpp"

namespace iobench {
namespace {

constexpr std::uint64_t published_count = 100'000;
// The buffered variant's text; the seed's unbuffered one says "unbuffered"
// instead, which would make the two files differ in size. One text for all.
constexpr NumberedLine line{"Line ", ": This is buffered write data\n"};

class Lines final : public Workload {
public:
    Lines()
        : Workload({.name = "lines",
                    .description = "write \"Line <i>: This is buffered write data\\n\" for i = 0..N-1 (N = 100,000, "
                                   "3,988,890 bytes)",
                    .operation = Operation::put_lines,
                    .item_unit = "line",
                    .default_count = published_count,
                    .reference = ReferenceKind::output,
                    .program_methods = true}) {}
    ExpectedOutput expected_output(Session& s) const override {
        const std::uint64_t n = count(s);
        return {fmt::format("lines:{}", n), numbered_text(line.prefix, line.suffix, n), n};
    }

protected:
    std::unique_ptr<Trial> make_method_trial(const Method& m, const Params& p, Session& s) const override {
        const ExpectedOutput expected = expected_output(s);
        return make_output_trial(s, name(), m, p, expected,
                                 [put = PutLines(m.put_lines), n = expected.items](const Sink& sink) { put(sink, line, n); });
    }
    std::unique_ptr<Trial> make_program_trial(const Method& m, const Params& p, Session& s) const override {
        const ExpectedOutput expected = expected_output(s);
        const ProgramCall call{Operation::put_lines, expected.items, {std::string(line.prefix), std::string(line.suffix)}};
        return std::make_unique<ProgramOutputTrial>(s, name(), m, p, expected, call);
    }
};

const WorkloadRegistrar<Lines> lines_registrar;

}  // namespace
}  // namespace iobench
