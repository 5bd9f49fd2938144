#include "data/grouped_text.hpp"

#include <charconv>
#include <climits>
#include <vector>

namespace iobench {

std::string group_digits(std::string_view digits, const DigitGrouping& g) {
    // Group sizes from the right: grouping[0] first, the last one repeating.
    std::vector<std::size_t> cuts;  // number of digits left of each separator, right to left
    std::size_t left = digits.size();
    for (std::size_t i = 0; !g.grouping.empty();) {
        const int size = static_cast<signed char>(g.grouping[i]);
        if (size <= 0 || g.grouping[i] == CHAR_MAX) break;
        if (left <= static_cast<std::size_t>(size)) break;
        left -= static_cast<std::size_t>(size);
        cuts.push_back(left);
        if (i + 1 < g.grouping.size()) ++i;
    }
    std::string out;
    out.reserve(digits.size() + cuts.size() * g.separator.size());
    std::size_t from = 0;
    for (auto it = cuts.rbegin(); it != cuts.rend(); ++it) {
        out.append(digits.substr(from, *it - from));
        out.append(g.separator);
        from = *it;
    }
    out.append(digits.substr(from));
    return out;
}

Generator grouped_ints_text(std::uint64_t count, const DigitGrouping& g) {
    return [count, g](const ChunkFn& emit) {
        constexpr std::size_t chunk_size = 1 << 20;
        std::string buf;
        buf.reserve(chunk_size + 128);
        char digits[24];
        for (std::uint64_t i = 0; i < count; ++i) {
            const char* end = std::to_chars(digits, digits + sizeof digits, i).ptr;
            buf += group_digits(std::string_view(digits, static_cast<std::size_t>(end - digits)), g);
            buf += '\n';
            if (buf.size() >= chunk_size) {
                emit(buf);
                buf.clear();
            }
        }
        if (!buf.empty()) emit(buf);
    };
}

}  // namespace iobench
