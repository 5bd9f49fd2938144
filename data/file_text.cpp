#include "data/file_text.hpp"

#include <vector>

#include "data/random.hpp"

namespace iobench {

namespace {

constexpr std::size_t chunk_size = 1 << 20;
constexpr std::uint64_t max_line_chars = 126;

}  // namespace

Generator random_lines_text(std::uint64_t size, std::uint64_t seed) {
    return [size, seed](const ChunkFn& emit) {
        std::vector<char> buf(chunk_size + max_line_chars + 8);
        char* p = buf.data();
        char* const limit = buf.data() + chunk_size;
        std::uint64_t state = seed;
        std::uint64_t left = size;
        while (left != 0) {
            std::uint64_t chars = splitmix64(state) % (max_line_chars + 1);
            if (chars + 1 > left) chars = left - 1;  // the last line ends at `size`
            for (std::uint64_t i = 0; i < chars; i += 8) {
                std::uint64_t bits = splitmix64(state);
                for (std::uint64_t k = i; k < chars && k < i + 8; ++k, bits >>= 8)
                    *p++ = static_cast<char>(' ' + (((bits & 0xFF) * 95) >> 8));  // ' ' .. '~'
            }
            *p++ = '\n';
            left -= chars + 1;
            if (p >= limit) {
                emit({buf.data(), static_cast<std::size_t>(p - buf.data())});
                p = buf.data();
            }
        }
        if (p != buf.data()) emit({buf.data(), static_cast<std::size_t>(p - buf.data())});
    };
}

}  // namespace iobench
