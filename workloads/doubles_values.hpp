// The values of doubles_out and doubles_in (workloads/doubles.cpp,
// workloads/doubles_in.cpp): one sequence (data/doubles.hpp), generated once
// per count and shared by both workloads' trials.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "data/checksum.hpp"

namespace iobench {

/// The count fast_io's "Output 10M double in round-trip mode" table uses.
inline constexpr std::uint64_t doubles_published_count = 10'000'000;

/// `count` doubles of random_doubles (data/doubles.hpp), generated on the
/// first call for that count and shared by every trial of either workload
/// that asks for the same count (80 MB at the published count); a call for
/// another count replaces them.
std::shared_ptr<const std::vector<double>> shared_doubles(std::uint64_t count);

/// The shortest round-trip text of shared_doubles(count), one value per line:
/// the generator both workloads verify against and the `limit` rows write or
/// read. It holds the values alive.
Generator shared_doubles_text(std::uint64_t count);

}  // namespace iobench
