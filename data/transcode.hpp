// The transcode workloads' text (fast_io's "Code Convert" table,
// fast_io's README, https://github.com/cppfastio/fast_io, section 5): N copies of the emoji U+1F684
// (HIGH-SPEED TRAIN) in UTF-8, and the same text in each target encoding.
// The encodings of the one code point are fixed by the standards (below), so
// the expected bytes need no converter at all; tests/workloads/transcode_test.cpp
// checks them against iconv(3).
#pragma once

#include <cstdint>
#include <string_view>

#include <iobench/encoding.hpp>
#include "data/checksum.hpp"

namespace iobench {

/// The code point every transcode input repeats: U+1F684, as in fast_io's
/// benchmarks/0020.utf/fill_nc.cc.
inline constexpr char32_t transcode_code_point = 0x1F684;

/// U+1F684 in UTF-8 (RFC 3629): F0 9F 9A 84, 4 bytes.
inline constexpr std::string_view emoji_utf8{"\xF0\x9F\x9A\x84", 4};

/// U+1F684 in `to`, no byte-order mark: UTF-16LE: the surrogate pair D83D DE84
/// as 3D D8 84 DE; UTF-32LE: 84 F6 01 00; GB18030: 95 30 8B 38 (GB 18030-2005
/// four-byte form: index U+1F684 - U+10000 = 63108 = ((5 * 10 + 0) * 126 + 10)
/// * 10 + 8, so bytes 0x90 + 5, 0x30 + 0, 0x81 + 10, 0x30 + 8). 4 bytes each.
std::string_view emoji_encoded(Encoding to);

/// Lower-case name of `to` as in benchmark names and iconv: "utf16le", "utf32le", "gb18030".
std::string_view to_string(Encoding to);

/// `count` copies of `emoji_utf8`: the input file (4 x count bytes).
Generator emoji_text(std::uint64_t count);

/// `count` copies of emoji_encoded(to): the expected output (4 x count bytes).
Generator emoji_text(Encoding to, std::uint64_t count);

}  // namespace iobench
