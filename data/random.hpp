// The pseudo-random sequence behind the generated inputs: the same bits on
// every platform and compiler, so every build writes and expects the same data.
#pragma once

#include <cstdint>

namespace iobench {

/// splitmix64 (Steele, Lea and Flood 2014): advances `state` and returns the
/// next 64 random bits of its sequence.
inline std::uint64_t splitmix64(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

}  // namespace iobench
