// The text of the locale workloads (ints_out_locale, ints_in_locale): the
// integers 0 .. N-1 with their digits grouped as a locale groups them
// ("1,234,567" in en_US). Built with std::to_chars and the locale's grouping
// data, never with a method under test.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "data/checksum.hpp"

namespace iobench {

/// How a locale groups the digits of an integer: the separator and the group
/// sizes, in the form of std::numpunct::grouping() and C's localeconv()
/// (each char one group size, rightmost group first; the last repeats;
/// CHAR_MAX or <= 0 ends grouping; empty: no grouping).
struct DigitGrouping {
    std::string separator;  ///< thousands separator, possibly several bytes (UTF-8)
    std::string grouping;   ///< group sizes, as numpunct::grouping()
};

/// `digits` (decimal, no sign) with `g.separator` inserted between the groups of `g`.
std::string group_digits(std::string_view digits, const DigitGrouping& g);

/// The integers 0 .. count-1, each grouped as `g` says, one per line.
Generator grouped_ints_text(std::uint64_t count, const DigitGrouping& g);

}  // namespace iobench
