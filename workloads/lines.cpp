// lines: the Go file-I/O buffering experiment
// (the write-up "File I/O Buffering Experiment" (Go), docs/results/README.md#sources): 100,000 numbered lines
// "Line %d: This is buffered write data\n", i = 0 .. 99,999 (3,988,890 bytes),
// written unbuffered (one write per line), buffered, and with the durability
// variants (fsync, fdatasync, O_SYNC, O_DSYNC).
#include <fmt/format.h>

#include "workloads/output_trial.hpp"
#include "workloads/reference_trial.hpp"
#include "data/text.hpp"

namespace iobench {
namespace {

constexpr std::uint64_t published_count = 100'000;
// The buffered variant's text; the seed's unbuffered one says "unbuffered"
// instead, which would make the two files differ in size. One text for all.
constexpr NumberedLine line{"Line ", ": This is buffered write data\n"};

class Lines final : public Workload {
public:
    std::string_view name() const override { return "lines"; }
    std::string_view item_unit() const override { return "line"; }
    std::string_view description() const override {
        return "write \"Line <i>: This is buffered write data\\n\" for i = 0..N-1 (N = 100,000, 3,988,890 bytes)";
    }
    std::uint64_t default_count() const override { return published_count; }
    bool supports(const Method& m) const override { return m.put_lines.present() || is_output_reference(m); }
    std::unique_ptr<Trial> make_trial(const Method& m, const Params& p, Session& s) const override {
        const std::uint64_t count = s.scaled(published_count);
        return make_output_trial(s, "lines", m, p, fmt::format("lines:{}", count),
                                 numbered_text(line.prefix, line.suffix, count), count,
                                 [put = PutLines(m.put_lines), count](const Sink& sink) { put(sink, line, count); });
    }
};

const WorkloadRegistrar<Lines> lines_registrar;

}  // namespace
}  // namespace iobench
