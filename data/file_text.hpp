// The input of the file_read workload: a text file of an exact size, lines of
// random printable ASCII, the same on every platform and compiler.
#pragma once

#include <cstdint>

#include "data/checksum.hpp"

namespace iobench {

/// Seed of the file_read text.
inline constexpr std::uint64_t file_text_seed = 0x10b0'0000'0000'0004ULL;

/// Exactly `size` bytes of text: lines of 0 to 126 characters drawn uniformly
/// from the 95 printable ASCII characters (' ' .. '~'), each line ending with
/// '\n' (the last one shortened so that the text ends with '\n' at byte
/// `size`). About 64 bytes per line on average, so line readers (fgets,
/// std::getline) make about 16.8 million calls per GiB. Random bits from
/// splitmix64 seeded with `seed` (data/doubles.cpp), identical everywhere.
Generator random_lines_text(std::uint64_t size, std::uint64_t seed = file_text_seed);

}  // namespace iobench
