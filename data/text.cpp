#include "data/text.hpp"

#include <algorithm>
#include <charconv>
#include <string>
#include <vector>

namespace iobench {

namespace {
constexpr std::size_t chunk_size = 1 << 20;
}

Generator ints_text(std::uint64_t count) {
    return [count](const ChunkFn& emit) {
        std::vector<char> buf(chunk_size + 32);
        char* p = buf.data();
        char* const limit = buf.data() + chunk_size;
        for (std::uint64_t i = 0; i < count; ++i) {
            p = std::to_chars(p, p + 24, i).ptr;
            *p++ = '\n';
            if (p >= limit) {
                emit({buf.data(), static_cast<std::size_t>(p - buf.data())});
                p = buf.data();
            }
        }
        if (p != buf.data()) emit({buf.data(), static_cast<std::size_t>(p - buf.data())});
    };
}

std::uint64_t ints_text_size(std::uint64_t count) {
    // Every number n < count takes digits(n) + 1 bytes; count them per decade.
    std::uint64_t size = 0;
    std::uint64_t low = 0;
    std::uint64_t high = 10;
    for (std::uint64_t digits = 1; low < count; ++digits) {
        std::uint64_t end = count < high ? count : high;
        size += (end - low) * (digits + 1);
        low = high;
        if (high > UINT64_MAX / 10) high = UINT64_MAX;
        else high *= 10;
    }
    return size;
}

Generator repeated_text(std::string_view line, std::uint64_t count) {
    return [text = std::string(line), count](const ChunkFn& emit) {
        if (text.empty() || count == 0) return;
        const std::uint64_t per_chunk = std::max<std::uint64_t>(1, chunk_size / text.size());
        std::string chunk;
        chunk.reserve(per_chunk * text.size());
        for (std::uint64_t i = 0; i < per_chunk; ++i) chunk += text;
        for (std::uint64_t left = count; left > 0;) {
            std::uint64_t n = std::min(left, per_chunk);
            emit(std::string_view(chunk).substr(0, n * text.size()));
            left -= n;
        }
    };
}

Generator numbered_text(std::string_view prefix, std::string_view suffix, std::uint64_t count) {
    return [pre = std::string(prefix), suf = std::string(suffix), count](const ChunkFn& emit) {
        const std::size_t line_max = pre.size() + 20 + suf.size();
        std::vector<char> buf(chunk_size + line_max);
        char* p = buf.data();
        char* const limit = buf.data() + chunk_size;
        for (std::uint64_t i = 0; i < count; ++i) {
            p = std::copy(pre.begin(), pre.end(), p);
            p = std::to_chars(p, p + 20, i).ptr;
            p = std::copy(suf.begin(), suf.end(), p);
            if (p >= limit) {
                emit({buf.data(), static_cast<std::size_t>(p - buf.data())});
                p = buf.data();
            }
        }
        if (p != buf.data()) emit({buf.data(), static_cast<std::size_t>(p - buf.data())});
    };
}

}  // namespace iobench
