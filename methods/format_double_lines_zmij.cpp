// obuf's AVX2 double line kernel with Żmij's digit search compiled into its
// loop (detail::format_double_lines_avx2_inlined, methods/format_double_lines.hpp):
// built where Żmij's sources are part of this build (IOBENCH_HAVE_ZMIJ_SOURCES,
// cmake/IobenchZmij.cmake), empty elsewhere.
//
// Żmij's public zmij::to_decimal(double) is a call into its library per double
// that takes the double apart again and checks the cases the kernel has already
// left to format_double (zero, subnormals, infinity, NaN). Its digit search
// itself is a function of zmij.cc's own (`to_decimal(bin_sig, raw_exp, regular,
// data)` in its unnamed namespace, always inlined), so this file compiles
// zmij.cc, unmodified and at the commit the build pins, into this translation
// unit with its namespace renamed (`zmij` -> `iobench_zmij_inlined`: none of
// its symbols meets the library's), and calls that function from the kernel's
// loop for the normal doubles the kernel writes. Its result is what
// zmij::to_decimal returns for them (the shorter candidate times 10 plus the
// extra digit where there is one), so the bytes are the same; the tests run
// both (tests/methods/obuf_double_lines_test.cpp).
#include "methods/format_double_lines.hpp"

#if IOBENCH_DOUBLE_LINES_AVX2 && defined(IOBENCH_HAVE_ZMIJ_SOURCES)

#include <bit>
#include <cstddef>
#include <cstdint>

// zmij.h was included above (namespace zmij); zmij.cc includes it again, under the new name.
#undef ZMIJ_H_
#define zmij iobench_zmij_inlined
#if defined(_MSC_VER) && !defined(__clang__)
#pragma warning(push, 0)
#endif
#include <zmij.cc>  // from Żmij's source folder, a system include folder: its warnings are not ours
#if defined(_MSC_VER) && !defined(__clang__)
#pragma warning(pop)
#endif
#undef zmij

namespace iobench::detail {

namespace {

/// zmij::to_decimal(|v|) for a normal double v (biased exponent 1 .. 2046,
/// as double_line_fast requires; the sign is the kernel's, `negative` is
/// false), from zmij.cc's own digit search, inlined (ZMIJ_INLINE: always
/// inlined but in a build for size, -Os, where zmij.cc makes it plain inline).
struct normal_to_decimal {
    IOBENCH_ALWAYS_INLINE zmij::dec_fp<> operator()(double v) const noexcept {
        constexpr int fraction_bits = 52;
        const auto bits = std::bit_cast<std::uint64_t>(v);
        const std::uint64_t fraction = bits & ((std::uint64_t{1} << fraction_bits) - 1);
        const auto biased_exponent = static_cast<std::int64_t>(bits >> fraction_bits & 0x7ff);
        // A zero fraction (a power of 2) is the irregular case: the next
        // double below is nearer than the one above.
        const ::shortest_decimal d = ::to_decimal<double>(fraction | std::uint64_t{1} << fraction_bits,
                                                          biased_exponent, fraction != 0, ::static_data);
        // The extra digit where there is one, by a mask as zmij::to_decimal
        // takes it (a conditional here cost 3 instructions a double more).
        const auto last = (0 - static_cast<std::uint64_t>(d.has_last_digit)) & static_cast<std::uint64_t>(d.last_digit);
        return {d.sig * 10 + last, d.exp, false};
    }
};

}  // namespace

IOBENCH_TARGET_AVX2 char* format_double_lines_avx2_inlined(char* out, const double* v, std::size_t n) noexcept {
    return format_double_lines_avx2_with(out, v, n, normal_to_decimal{});
}

}  // namespace iobench::detail

#endif
