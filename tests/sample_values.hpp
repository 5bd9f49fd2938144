// Unsigned integers that exercise a decimal formatter or parser: every value
// below a bound, each power of ten and its neighbours (every length 1..20),
// the top of the range, and pseudo-random values of every magnitude.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

namespace iobench::test {

/// 0 .. `small` - 1, then 10^k - 1, 10^k, 10^k + 1 for k = 0..19,
/// UINT64_MAX - 1 and UINT64_MAX, then `random` values of a fixed-seed
/// generator shifted right by 0..63 bits (so every length appears).
inline std::vector<std::uint64_t> sample_values(std::uint64_t small, int random) {
    std::vector<std::uint64_t> values;
    for (std::uint64_t v = 0; v < small; ++v) values.push_back(v);
    std::uint64_t p = 1;
    for (int k = 0; k < 20; ++k) {
        values.push_back(p - 1);
        values.push_back(p);
        values.push_back(p + 1);
        if (k < 19) p *= 10;
    }
    values.push_back(UINT64_MAX - 1);
    values.push_back(UINT64_MAX);
    std::mt19937_64 rng(20240601);
    for (int i = 0; i < random; ++i) {
        const std::uint64_t bits = rng();  // two draws in a fixed order, the same on every compiler
        const std::uint64_t shift = rng() % 64;
        values.push_back(bits >> shift);
    }
    return values;
}

}  // namespace iobench::test
