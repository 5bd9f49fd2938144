#include "core/engine/output_trial.hpp"

#include <fmt/format.h>

#include <system_error>

#include "core/os/cleanup.hpp"
#include "core/os/page_cache.hpp"

namespace iobench {

OutputTrial::OutputTrial(Session& session, std::string_view workload, const Method& method, const Params& params,
                         const ExpectedOutput& expected)
    : sink_{session.output(fmt::format("{}-{}", workload, method.name)).string(), params.buffer_size},
      generate_(expected.bytes),
      expected_(session.expected(expected.key, generate_)) {
    bytes = expected_.size;
    items = expected.items;
    buffer_size = buffer_size_used(method, params);
}

void OutputTrial::reset() { remove_and_settle(sink_.path, expected_.size); }

void OutputTrial::settle_without_warming() { remove_and_settle(sink_.path, 0); }

std::string OutputTrial::verify() {
    Digest got;
    try {
        got = digest_file(sink_.path);
    } catch (const std::exception& e) {
        return fmt::format("cannot read the output back: {}", e.what());
    }
    if (got == expected_) return "";
    std::string where;
    try {
        const std::int64_t at = first_difference(sink_.path, generate_);
        if (at >= 0) where = fmt::format("; first difference at byte {}", at);
    } catch (const std::exception&) {
        // The digests already say it differs; the offset is only a hint.
    }
    return fmt::format("output differs: {} bytes with checksum {:016x}, expected {} bytes with checksum {:016x}{}",
                       got.size, got.checksum, expected_.size, expected_.checksum, where);
}

void OutputTrial::finish() {
    std::error_code ec;
    std::filesystem::remove(sink_.path, ec);
    forget_on_interrupt(sink_.path);
}

}  // namespace iobench
