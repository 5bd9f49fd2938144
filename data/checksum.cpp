#include "data/checksum.hpp"

#include <algorithm>
#include <cstdio>
#include <cerrno>
#include <cstring>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#define XXH_INLINE_ALL
#include <xxhash.h>

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

/// The error of `call` on `path`: `err` (an errno value) as a std::system_error
/// whose what() is "call(path): reason".
std::system_error file_error(const std::string& call, const std::string& path, int err) {
    return std::system_error(std::error_code(err, std::generic_category()), call + "(" + path + ")");
}

/// A FILE* that closes itself.
struct File {
    std::FILE* f;
    std::string path;
    explicit File(const std::filesystem::path& p) : f(std::fopen(p.string().c_str(), "rb")), path(p.string()) {
        if (!f) throw file_error("fopen", path, errno);
    }
    ~File() { std::fclose(f); }
    File(const File&) = delete;
    File& operator=(const File&) = delete;
    /// Reads up to `size` bytes; 0 at end of file. Throws std::system_error on a read error.
    std::size_t read(char* buf, std::size_t size) {
        std::size_t n = std::fread(buf, 1, size, f);
        if (n < size && std::ferror(f)) throw file_error("fread", path, errno);
        return n;
    }
};

}  // namespace

std::uint64_t write_generated_file(const std::filesystem::path& path, const Generator& generate,
                                   std::optional<std::uint64_t> room) {
    const std::string p = path.string();
    std::FILE* f = std::fopen(p.c_str(), "wb");
    if (!f) throw file_error("fopen", p, errno);
    std::uint64_t size = 0;
    try {
        generate([&](std::string_view chunk) {
            if (room && chunk.size() > *room - size) throw file_error("write", p, ENOSPC);
            errno = 0;
            if (std::fwrite(chunk.data(), 1, chunk.size(), f) != chunk.size()) {
                // Stop here: the generator is not asked for another byte.
                throw file_error("fwrite", p, errno != 0 ? errno : EIO);
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
        throw file_error("fflush", p, err);
    }
    if (std::fclose(f) != 0) throw file_error("fclose", p, errno);
    return size;
}

std::vector<char>& check_buffer() {
    thread_local std::vector<char> buffer(chunk_size);
    return buffer;
}

Digest digest_file(const std::filesystem::path& path) {
    File file(path);
    std::vector<char>& buf = check_buffer();
    Checksum sum;
    while (std::size_t n = file.read(buf.data(), buf.size())) sum.update({buf.data(), n});
    return {sum.size(), sum.digest()};
}

std::int64_t first_difference(const std::filesystem::path& path, const Generator& generate) {
    File file(path);
    std::vector<char>& buf = check_buffer();
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
