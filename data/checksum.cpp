#include "data/checksum.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "core/error.hpp"
#include "core/session.hpp"

namespace iobench {

struct Checksum::State {
    XXH3_state_t xxh;
};

Checksum::Checksum() : state_(std::make_unique<State>()) { XXH3_64bits_reset(&state_->xxh); }

Checksum::~Checksum() = default;

void Checksum::update(std::string_view bytes) {
    XXH3_64bits_update(&state_->xxh, bytes.data(), bytes.size());
    size_ += bytes.size();
}

std::uint64_t Checksum::digest() const { return XXH3_64bits_digest(&state_->xxh); }

Digest digest_of(const Generator& generate) {
    Checksum sum;
    generate([&](std::string_view chunk) { sum.update(chunk); });
    return {sum.size(), sum.digest()};
}

namespace {

constexpr std::size_t chunk_size = 1 << 20;

/// A FILE* that closes itself.
struct File {
    std::FILE* f;
    std::string path;
    explicit File(const std::filesystem::path& p) : f(std::fopen(p.string().c_str(), "rb")), path(p.string()) {
        if (!f) throw_errno("fopen", path);
    }
    ~File() { std::fclose(f); }
    File(const File&) = delete;
    File& operator=(const File&) = delete;
    /// Reads up to `size` bytes; 0 at end of file. Throws io_error on a read error.
    std::size_t read(char* buf, std::size_t size) {
        std::size_t n = std::fread(buf, 1, size, f);
        if (n < size && std::ferror(f)) throw_errno("fread", path);
        return n;
    }
};

}  // namespace

std::uint64_t write_generated_file(const std::filesystem::path& path, const Generator& generate,
                                   std::optional<std::uint64_t> room) {
    const std::string p = path.string();
    std::FILE* f = std::fopen(p.c_str(), "wb");
    if (!f) throw_errno("fopen", p);
    std::uint64_t size = 0;
    try {
        generate([&](std::string_view chunk) {
            if (room && chunk.size() > *room - size)
                throw io_error("write", p, std::make_error_code(std::errc::no_space_on_device));
            errno = 0;
            if (std::fwrite(chunk.data(), 1, chunk.size(), f) != chunk.size()) {
                // Stop here: the generator is not asked for another byte.
                const int err = errno != 0 ? errno : EIO;
                throw io_error("fwrite", p, std::error_code(err, std::generic_category()));
            }
            size += chunk.size();
        });
    } catch (...) {
        std::fclose(f);
        throw;
    }
    if (std::fflush(f) != 0) {
        const int err = errno;
        std::fclose(f);
        throw io_error("fflush", p, std::error_code(err, std::generic_category()));
    }
    if (std::fclose(f) != 0) throw_errno("fclose", p);
    return size;
}

std::uint64_t write_generated_file(const std::filesystem::path& path, const Generator& generate) {
    const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
    return write_generated_file(path, generate, room_for_file(dir));
}

Digest digest_file(const std::filesystem::path& path) {
    File file(path);
    std::vector<char> buf(chunk_size);
    Checksum sum;
    while (std::size_t n = file.read(buf.data(), buf.size())) sum.update({buf.data(), n});
    return {sum.size(), sum.digest()};
}

std::int64_t first_difference(const std::filesystem::path& path, const Generator& generate) {
    File file(path);
    std::vector<char> buf(chunk_size);
    std::int64_t offset = 0;
    std::int64_t found = -1;
    generate([&](std::string_view chunk) {
        while (found < 0 && !chunk.empty()) {
            std::size_t want = std::min(chunk.size(), buf.size());
            std::size_t got = file.read(buf.data(), want);
            auto mismatch = std::mismatch(chunk.begin(), chunk.begin() + static_cast<std::ptrdiff_t>(got), buf.begin());
            if (mismatch.first != chunk.begin() + static_cast<std::ptrdiff_t>(got) || got < want) {
                found = offset + (mismatch.first - chunk.begin());
                return;
            }
            offset += static_cast<std::int64_t>(got);
            chunk.remove_prefix(got);
        }
    });
    if (found < 0 && file.read(buf.data(), 1) != 0) found = offset;  // the file is longer
    return found;
}

}  // namespace iobench
