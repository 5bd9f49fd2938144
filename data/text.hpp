// Deterministic generators of the workloads' text, independent of every method
// under test (they use std::to_chars and memcpy, never obuf), so a method's
// output can be checked against them.
#pragma once

#include <cstdint>
#include <string_view>

#include "data/checksum.hpp"

namespace iobench {

/// The integers 0 .. count-1 in decimal, one per line.
Generator ints_text(std::uint64_t count);

/// Size in bytes of `ints_text(count)`; 78,888,890 for count = 10,000,000.
std::uint64_t ints_text_size(std::uint64_t count);

/// `line` repeated `count` times.
Generator repeated_text(std::string_view line, std::uint64_t count);

/// Lines 0 .. count-1, line i being `prefix`, i in decimal, `suffix` (which
/// carries the line's '\n'): the text of the `lines` workload.
Generator numbered_text(std::string_view prefix, std::string_view suffix, std::uint64_t count);

}  // namespace iobench
