// The input of the doubles_out workload: a fixed sequence of doubles, the same
// on every platform and compiler, and its shortest round-trip text.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "data/checksum.hpp"

namespace iobench {

/// Seed of the doubles_out sequence.
inline constexpr std::uint64_t doubles_seed = 0x10b0'0000'0000'0001ULL;

/// `count` doubles uniformly distributed in [DBL_MIN, DBL_MAX), as fast_io's
/// floating-point output benchmark draws them (uniform_real_distribution(DBL_MIN,
/// DBL_MAX) over mt19937_64): almost all lie between 1e306 and 1.8e308 and need
/// 16 or 17 significant digits. Drawn with splitmix64 (Steele, Lea and Flood
/// 2014) from `seed`, 53 random bits per value, because the standard library's
/// distributions differ between implementations and the values must not.
std::vector<double> random_doubles(std::uint64_t count, std::uint64_t seed = doubles_seed);

/// Every value of `values` in its shortest round-trip form (std::to_chars
/// without a format), each followed by '\n'. Its size is the reference size
/// of a doubles_out file; methods may write other exact forms (printf's %.17g).
Generator shortest_doubles_text(std::span<const double> values);

}  // namespace iobench
