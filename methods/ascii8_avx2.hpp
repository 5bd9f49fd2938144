// Eight decimal digits of each of four numbers below 10^8 at once, in one
// 256-bit register: the conversion both AVX2 line kernels of obuf share (the
// integer lines of methods/format_uint_lines.hpp, the doubles' significands of
// methods/format_double_lines.hpp). Built on x86-64 only (IOBENCH_IBUF_SSE2),
// run only where cpu_has_avx2_bmi2().
#pragma once

#include <cstdint>

#include "methods/parse_uint.hpp"  // IOBENCH_IBUF_SSE2, IOBENCH_TARGET_AVX2, IOBENCH_OPAQUE_SCALAR

#if IOBENCH_IBUF_SSE2

namespace iobench::detail {

/// The vector constants of ascii8_x4, made once per kernel call and kept in registers.
struct ascii8_constants {
    __m256i div10000;      ///< 64-bit lanes: 2^45 / 10^4, rounded up (x / 10^4 == x * this >> 45 below 10^8)
    __m256i ten_thousand;  ///< 64-bit lanes: 10^4
    __m256i div100;        ///< 16-bit lanes: 5243 (x / 100 == mulhi(x, this) >> 3 below 43,699)
    __m256i pair_weight;   ///< 32-bit lanes: 100 * 2^16 - 1
    __m256i div10;         ///< 16-bit lanes: 6554 (x / 10 == mulhi(x, this) below 16,389)
    __m256i digit_weight;  ///< 16-bit lanes: 10 * 2^8 - 1
    __m256i zeros;         ///< '0' in every byte
};

/// 32 bytes of `value` repeated: a vector constant read from memory with one
/// load (load_constant), rather than built from an immediate (two or three
/// instructions).
template <class T>
struct alignas(32) repeated_lanes {
    T lanes[32 / sizeof(T)];
};
template <class T, T value>
inline constexpr repeated_lanes<T> broadcast_constant = [] {
    repeated_lanes<T> r{};
    for (T& lane : r.lanes) lane = value;
    return r;
}();

/// The vector at `c` (a broadcast_constant), loaded through a pointer the
/// compiler cannot see through: GCC 12 otherwise builds a known vector
/// again from immediates (mov, vmovq, vpbroadcast) where it needs it, in
/// every pass of a loop, or keeps a copy of it on the stack.
template <class T>
IOBENCH_ALWAYS_INLINE IOBENCH_TARGET_AVX2 __m256i load_constant(const repeated_lanes<T>& c) noexcept {
    const T* lanes = c.lanes;
    IOBENCH_OPAQUE_SCALAR(lanes);  // a load, not the value built again from immediates
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(lanes));
}

/// The constants, each loaded once (load_constant).
IOBENCH_TARGET_AVX2 inline ascii8_constants make_ascii8_constants() noexcept {
    return {load_constant(broadcast_constant<std::uint64_t, 3518437209>),
            load_constant(broadcast_constant<std::uint64_t, 10000>),
            load_constant(broadcast_constant<std::uint16_t, 5243>),
            load_constant(broadcast_constant<std::uint32_t, 100 * 65536 - 1>),
            load_constant(broadcast_constant<std::uint16_t, 6554>),
            load_constant(broadcast_constant<std::uint16_t, 10 * 256 - 1>),
            load_constant(broadcast_constant<std::uint8_t, '0'>)};
}

/// The 8 ASCII digits (leading zeros kept, first digit in the lowest byte) of
/// each of the four numbers below 10^8 in the 64-bit lanes of `x`, in 16
/// instructions: each number cut into two 4-digit groups by a 32-bit
/// reciprocal multiply, each group into two pairs of digits, each pair into
/// two digits -- Wojciech Muła's SIMD itoa ("SSE: conversion integers to
/// decimal representation", 2011), written here from that description --
/// with each split's remainder and shift folded into one multiply: for a
/// group g with h = g / 100, g * 2^16 - h * (100 * 2^16 - 1) is h, then
/// g - 100 h above it (a 32-bit multiply instead of a 16-bit multiply, a
/// subtract, a shift and an OR); for a pair p with t = p / 10,
/// p * 2^8 + '0' * 257 - t * (10 * 2^8 - 1) is '0' + t, then '0' + p - 10 t
/// (the OR of '0' folded in as well). Undefined for lanes of 10^8 or more.
IOBENCH_ALWAYS_INLINE IOBENCH_TARGET_AVX2 __m256i ascii8_x4(__m256i x, const ascii8_constants& k) noexcept {
    const __m256i q = _mm256_srli_epi64(_mm256_mul_epu32(x, k.div10000), 45);
    const __m256i r = _mm256_sub_epi64(x, _mm256_mul_epu32(q, k.ten_thousand));
    const __m256i quads = _mm256_or_si256(q, _mm256_slli_epi64(r, 32));  // 32-bit lanes: first 4 digits, last 4
    const __m256i h = _mm256_srli_epi16(_mm256_mulhi_epu16(quads, k.div100), 3);
    const __m256i pairs = _mm256_sub_epi32(_mm256_slli_epi32(quads, 16), _mm256_mullo_epi32(h, k.pair_weight));
    const __m256i t = _mm256_mulhi_epu16(pairs, k.div10);  // 16-bit lanes: pairs of digits in order
    return _mm256_sub_epi16(_mm256_add_epi16(_mm256_slli_epi16(pairs, 8), k.zeros),
                            _mm256_mullo_epi16(t, k.digit_weight));
}

}  // namespace iobench::detail

#endif  // IOBENCH_IBUF_SSE2
