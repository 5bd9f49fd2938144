#include "data/doubles.hpp"

#include <charconv>
#include <cfloat>

#include "data/random.hpp"

namespace iobench {

std::vector<double> random_doubles(std::uint64_t count, std::uint64_t seed) {
    std::vector<double> values;
    values.reserve(count);
    std::uint64_t state = seed;
    for (std::uint64_t i = 0; i < count; ++i) {
        // u in [0, 1) with 53 random bits; every operation below is exactly
        // rounded IEEE arithmetic, so the values are the same everywhere.
        const double u = static_cast<double>(splitmix64(state) >> 11) * 0x1.0p-53;
        values.push_back(u * (DBL_MAX - DBL_MIN) + DBL_MIN);
    }
    return values;
}

Generator shortest_doubles_text(std::span<const double> values) {
    return [values](const ChunkFn& emit) {
        constexpr std::size_t chunk = 1 << 20;
        std::vector<char> buf(chunk + 64);
        char* p = buf.data();
        for (double v : values) {
            p = std::to_chars(p, p + 32, v).ptr;
            *p++ = '\n';
            if (p >= buf.data() + chunk) {
                emit({buf.data(), static_cast<std::size_t>(p - buf.data())});
                p = buf.data();
            }
        }
        if (p != buf.data()) emit({buf.data(), static_cast<std::size_t>(p - buf.data())});
    };
}

}  // namespace iobench
