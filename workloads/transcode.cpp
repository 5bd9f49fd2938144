// transcode_utf16le, transcode_utf32le, transcode_gb18030: fast_io's "Code
// Convert" tables (fast_io's README, https://github.com/cppfastio/fast_io, section 5): a UTF-8 file
// of N copies of U+1F684 (N = 100M, 400 MB) converted to UTF-16LE, UTF-32LE
// and GB18030 (4 bytes per code point in each). One workload per target
// encoding, because Params (core/engine/workload.hpp) has no encoding parameter; with
// one, the three would be `transcode/<method>/to:<encoding>`.
#include <fmt/format.h>

#include <stdexcept>

#include "core/engine/output_trial.hpp"
#include "core/engine/session.hpp"
#include "data/transcode.hpp"

namespace iobench {

namespace {

constexpr std::uint64_t published_count = 100'000'000;

class TranscodeTrial final : public OutputTrial {
public:
    TranscodeTrial(Session& s, std::string_view workload, const Method& m, const Params& p, Encoding to,
                   std::uint64_t count)
        : OutputTrial(s, workload, m, p, {fmt::format("emoji:{}:{}", to_string(to), count), emoji_text(to, count), count}),
          source_{s.input(fmt::format("emoji-{}.txt", count), 4 * count,  // 4 UTF-8 bytes per emoji
                          [count](const std::filesystem::path& path) { write_generated_file(path, emoji_text(count)); })
                      .string(),
                  p.buffer_size},
          transcode_(m.transcode),
          to_(to) {}
    void run() override { transcode_(source_, sink_, to_); }

private:
    Source source_;
    Transcode transcode_;
    Encoding to_;
};

/// Converts the emoji file to one target encoding (items: code points).
class TranscodeWorkload : public Workload {
public:
    explicit TranscodeWorkload(Encoding to)
        : Workload({.name = fmt::format("transcode_{}", to_string(to)),
                    .description = fmt::format(
                        "convert a UTF-8 file of N x U+1F684 to {} (N = 100M, 400 MB in, 400 MB out)",
                        to == Encoding::utf16le ? "UTF-16LE" : to == Encoding::utf32le ? "UTF-32LE" : "GB18030"),
                    .operation = Operation::transcode,
                    .item_unit = "code point",
                    .default_count = published_count}),
          to_(to) {}

protected:
    std::unique_ptr<Trial> make_method_trial(const Method& m, const Params& p, Session& s) const override {
        return std::make_unique<TranscodeTrial>(s, name(), m, p, to_, count(s));
    }

private:
    Encoding to_;
};

struct TranscodeUtf16le final : TranscodeWorkload {
    TranscodeUtf16le() : TranscodeWorkload(Encoding::utf16le) {}
};
struct TranscodeUtf32le final : TranscodeWorkload {
    TranscodeUtf32le() : TranscodeWorkload(Encoding::utf32le) {}
};
struct TranscodeGb18030 final : TranscodeWorkload {
    TranscodeGb18030() : TranscodeWorkload(Encoding::gb18030) {}
};

const WorkloadRegistrar<TranscodeUtf16le> utf16le_registrar;
const WorkloadRegistrar<TranscodeUtf32le> utf32le_registrar;
const WorkloadRegistrar<TranscodeGb18030> gb18030_registrar;

}  // namespace
}  // namespace iobench
