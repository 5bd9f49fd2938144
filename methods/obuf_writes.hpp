// What obuf's methods write for each output operation, in one place for every
// device obuf runs over: a file descriptor or HANDLE (methods/obuf.cpp) and
// the hand-off devices (methods/obuf_overlapped.cpp), so that their rows do
// the same work. Each writes through a cursor of its own over `out`
// (basic_obuf::cursor: the position in registers) and leaves the bytes in the
// obuf for the caller to flush; errors are the obuf's (its device's io_error).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include <iobench/method.hpp>
#include "methods/obuf.hpp"

namespace iobench {

namespace detail {

/// The numbers write_int_lines hands to one put_uint_lines call (8 KiB of
/// them on the stack). Each call costs about 154 instructions besides its
/// numbers' (the kernel's constants, its loops' set-up, the fill's; the
/// slope of ints_out/obuf's count over blocks of 256 to 2048 with the avx2
/// kernel): 0.60 an integer at 256, 0.15 at 1024 (docs/methodology.md).
inline constexpr std::size_t int_lines_block = 1024;
static_assert(int_lines_block % 32 == 0, "the fills store 8 (SSE2) or 32 (AVX2) numbers a pass");

/// A block of int_lines_block numbers.
using int_block = std::uint64_t[int_lines_block];

/// Fills `block` with first, first + 1, ..., first + int_lines_block - 1:
/// 16-byte stores of two numbers at a time on x86-64 (which GCC's -O2 does
/// not vectorize itself), four of them per pass.
inline void fill_counting(int_block& block, std::uint64_t first) noexcept {
#if IOBENCH_IBUF_SSE2
    const auto pair = [first](std::uint64_t k) {  // first + k and first + k + 1, wrapping as unsigned
        return _mm_set_epi64x(static_cast<long long>(first + k + 1), static_cast<long long>(first + k));
    };
    __m128i a = pair(0), b = pair(2), c = pair(4), d = pair(6);
    const __m128i step = _mm_set1_epi64x(8);
    for (std::uint64_t* p = block; p != block + int_lines_block; p += 8) {
        _mm_storeu_si128(reinterpret_cast<__m128i*>(p), a);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(p + 2), b);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(p + 4), c);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(p + 6), d);
        a = _mm_add_epi64(a, step);
        b = _mm_add_epi64(b, step);
        c = _mm_add_epi64(c, step);
        d = _mm_add_epi64(d, step);
    }
#else
    for (std::size_t j = 0; j < int_lines_block; ++j) block[j] = first + j;
#endif
}

#if IOBENCH_IBUF_SSE2
/// fill_counting with 32-byte stores of four numbers at a time, eight of
/// them per pass (0.6 instructions a number against the SSE2 loop's 1.4).
/// Runs only where cpu_has_avx2_bmi2().
IOBENCH_TARGET_AVX2 inline void fill_counting_avx2(int_block& block, std::uint64_t first) noexcept {
    const auto f = static_cast<long long>(first);  // first + k .. first + k + 3, wrapping as unsigned
    const __m256i step4 = _mm256_set1_epi64x(4), step = _mm256_set1_epi64x(32);
    __m256i a = _mm256_add_epi64(_mm256_set1_epi64x(f), _mm256_setr_epi64x(0, 1, 2, 3));
    __m256i b = _mm256_add_epi64(a, step4), c = _mm256_add_epi64(b, step4), d = _mm256_add_epi64(c, step4);
    __m256i e = _mm256_add_epi64(d, step4), g = _mm256_add_epi64(e, step4), h = _mm256_add_epi64(g, step4);
    __m256i i = _mm256_add_epi64(h, step4);
    for (std::uint64_t* p = block; p != block + int_lines_block; p += 32) {
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), a);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(p + 4), b);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(p + 8), c);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(p + 12), d);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(p + 16), e);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(p + 20), g);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(p + 24), h);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(p + 28), i);
        a = _mm256_add_epi64(a, step);
        b = _mm256_add_epi64(b, step);
        c = _mm256_add_epi64(c, step);
        d = _mm256_add_epi64(d, step);
        e = _mm256_add_epi64(e, step);
        g = _mm256_add_epi64(g, step);
        h = _mm256_add_epi64(h, step);
        i = _mm256_add_epi64(i, step);
    }
}
#endif

/// write_int_lines with `fill` (fill_counting or fill_counting_avx2) filling each block.
template <class Obuf, class Fill>
void write_int_lines_filled(Obuf& out, std::uint64_t count, uint_line_kernel kernel, Fill fill) {
    typename Obuf::cursor cur(out);
    int_block block;
    for (std::uint64_t i = 0; i < count;) {
        const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(int_lines_block, count - i));
        fill(block, i);  // a whole block (the numbers past count are not written)
        cur.put_uint_lines(kernel, block, n);
        i += n;
    }
}
}  // namespace detail

/// put_ints: 0 .. count-1, one per line, with line kernel `kernel` (which
/// this CPU must run: cpu_runs), int_lines_block numbers per put_uint_lines
/// call, each block filled with AVX2 stores where the kernel is avx2.
template <class Obuf>
void write_int_lines(Obuf& out, std::uint64_t count, uint_line_kernel kernel) {
#if IOBENCH_IBUF_SSE2
    if (kernel == uint_line_kernel::avx2) {
        detail::write_int_lines_filled(out, count, kernel, [](detail::int_block& block, std::uint64_t first) {
            detail::fill_counting_avx2(block, first);
        });
        return;
    }
#endif
    detail::write_int_lines_filled(out, count, kernel, [](detail::int_block& block, std::uint64_t first) {
        detail::fill_counting(block, first);
    });
}

/// put_ints with the line kernel in use (uint_line_kernel_in_use()).
template <class Obuf>
void write_int_lines(Obuf& out, std::uint64_t count) {
    write_int_lines(out, count, uint_line_kernel_in_use());
}

/// put_repeat: `line`, `count` times (cursor::write_repeated).
template <class Obuf>
void write_repeated(Obuf& out, std::string_view line, std::uint64_t count) {
    typename Obuf::cursor cur(out);
    cur.write_repeated(line, count);
}

/// put_lines: line i = prefix, i, suffix, for i = 0 .. count-1.
template <class Obuf>
void write_numbered_lines(Obuf& out, const NumberedLine& line, std::uint64_t count) {
    typename Obuf::cursor cur(out);
    for (std::uint64_t i = 0; i < count; ++i) {
        cur.write(line.prefix);
        cur.put_uint(i);
        cur.write(line.suffix);
    }
}

/// put_doubles: every value in its shortest round-trip form, one per line,
/// with line kernel `kernel` (which this CPU must run: cpu_runs), the block
/// as one put_double_lines call.
template <class Obuf>
void write_double_lines(Obuf& out, std::span<const double> values, double_line_kernel kernel) {
    typename Obuf::cursor cur(out);
    cur.put_double_lines(kernel, values.data(), values.size());
}

/// put_doubles: every value in its shortest round-trip form, one per line,
/// its digits from `Digits` (format_double): with the line kernel in use
/// (double_line_kernel_in_use()) for the default digits, with the scalar
/// one for the others (the AVX2 kernel takes Żmij's digits), the block as
/// one put_double_lines call either way.
template <double_digits Digits = default_double_digits, class Obuf>
void write_double_lines(Obuf& out, std::span<const double> values) {
    if constexpr (Digits == default_double_digits) {
        write_double_lines(out, values, double_line_kernel_in_use());
    } else {
        typename Obuf::cursor cur(out);
        cur.template put_double_lines<Digits>(double_line_kernel::scalar, values.data(), values.size());
    }
}

/// One record of the `log` workload (iobench/calls.hpp, LogRecord) as its
/// line, with obuf's own calls: put_uint for the numbers, the six digits of
/// microseconds written out by hand.
template <class Obuf>
void write_log_record(Obuf& out, const LogRecord& r) {
    out.put_uint(r.time_us / 1000000);
    char micro[7] = {'.'};
    std::uint64_t us = r.time_us % 1000000;
    for (int k = 6; k >= 1; --k, us /= 10) micro[k] = static_cast<char>('0' + us % 10);
    out.write(micro, 7);
    out.put(' ');
    out.write(level_name(r.level));
    out.write(" [", 2);
    out.write(r.logger);
    out.write("] request ", 10);
    out.put_uint(r.request);
    out.write(" done in ", 9);
    out.put_uint(r.duration_us);
    out.write(" us: ", 5);
    out.write(r.text);
    out.put('\n');
}

}  // namespace iobench
