// The target encodings of the transcode workloads and of the Transcode
// operation (iobench/method.hpp).
#pragma once

namespace iobench {

/// Target encoding of a Transcode operation (the source is always UTF-8).
/// Every target is written without a byte-order mark.
enum class Encoding {
    utf16le,  ///< UTF-16, little-endian code units (surrogate pairs above U+FFFF)
    utf32le,  ///< UTF-32, little-endian code units
    gb18030,  ///< GB 18030-2005 (four bytes for every code point above U+FFFF)
};

}  // namespace iobench
