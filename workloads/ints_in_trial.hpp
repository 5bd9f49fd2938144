// The trial of the workloads that read 0 .. N-1 back (ints_in, ints_in_locale):
// a file of the integers in order, parsed by a GetInts operation, verified by
// count, sum and index.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <iobench/method.hpp>
#include "core/engine/workload.hpp"

namespace iobench {

/// Reads `file` (`bytes` bytes holding the integers 0 .. count-1 in order, in
/// whatever text the workload wrote) with `get`; a run is correct when it
/// parsed exactly `count` values and value i is i.
class IntsInTrial final : public Trial {
public:
    IntsInTrial(const std::filesystem::path& file, std::uint64_t bytes, GetInts get, const Method& m, const Params& p,
                std::uint64_t count);
    void reset() override { values_.clear(); }
    void run() override { get_(source_, values_); }
    /// "" when the values are 0 .. count-1; otherwise the count, the sum and
    /// the first index whose value differs.
    std::string verify() override;

private:
    Source source_;
    GetInts get_;
    std::uint64_t count_;
    std::vector<std::uint64_t> values_;
};

}  // namespace iobench
