#include "data/transcode.hpp"

#include "data/text.hpp"

namespace iobench {

std::string_view emoji_encoded(Encoding to) {
    switch (to) {
    case Encoding::utf16le:
        return {"\x3D\xD8\x84\xDE", 4};
    case Encoding::utf32le:
        return {"\x84\xF6\x01\x00", 4};
    case Encoding::gb18030:
        return {"\x95\x30\x8B\x38", 4};
    }
    return {};
}

std::string_view to_string(Encoding to) {
    switch (to) {
    case Encoding::utf16le:
        return "utf16le";
    case Encoding::utf32le:
        return "utf32le";
    case Encoding::gb18030:
        return "gb18030";
    }
    return "?";
}

Generator emoji_text(std::uint64_t count) { return repeated_text(emoji_utf8, count); }

Generator emoji_text(Encoding to, std::uint64_t count) { return repeated_text(emoji_encoded(to), count); }

}  // namespace iobench
