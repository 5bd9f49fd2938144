#pragma once
// Little-endian loads of unaligned bytes, the same value on every platform.

#include <bit>
#include <cstdint>
#include <cstring>

namespace iobench {

/// The 8 bytes at `p` (any alignment) as one integer, the first byte in the
/// lowest 8 bits on every platform (byte-swapped where the CPU is big-endian).
inline std::uint64_t load_u64_le(const void* p) noexcept {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    if constexpr (std::endian::native == std::endian::big) {
        std::uint64_t r = 0;
        for (int i = 0; i < 8; ++i) r |= ((w >> (8 * i)) & 0xFF) << (8 * (7 - i));
        w = r;
    }
    return w;
}

}  // namespace iobench
