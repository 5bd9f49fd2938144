// Checksums of byte streams, used to verify what a method wrote or read.
// Depends on nothing else of iobench (docs/design.md): a failed call is a
// std::system_error, whose what() reads like iobench/error.hpp's io_error.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace iobench {

/// Streaming 64-bit checksum (XXH3-64 from the xxHash library; seed 0).
/// Order-sensitive: swapped lines change it. Feed bytes in any chunking: the
/// result depends only on the concatenated bytes.
class Checksum {
public:
    Checksum();
    ~Checksum();
    Checksum(const Checksum&) = delete;
    Checksum& operator=(const Checksum&) = delete;

    /// Adds `bytes` to the stream.
    void update(std::string_view bytes);
    /// Bytes fed so far.
    std::uint64_t size() const { return size_; }
    /// The checksum of every byte fed so far (the stream may continue).
    std::uint64_t digest() const;

private:
    struct State;
    std::unique_ptr<State> state_;
    std::uint64_t size_ = 0;
};

/// Size in bytes and checksum of a byte stream.
struct Digest {
    std::uint64_t size = 0;
    std::uint64_t checksum = 0;
    friend bool operator==(const Digest&, const Digest&) = default;
};

/// Receives one chunk of a generated stream.
using ChunkFn = std::function<void(std::string_view chunk)>;
/// Produces a stream as a sequence of chunks (of any sizes).
using Generator = std::function<void(const ChunkFn& emit)>;

/// Digest of what `generate` produces.
Digest digest_of(const Generator& generate);

/// Writes what `generate` produces to a new file at `path` (fopen/fwrite: not
/// a method under test). Returns the bytes written. Throws `std::system_error`
/// (what(): "call(path): reason", as io_error's) at the first write that fails
/// (ENOSPC, EFBIG, ...), without asking the generator for more, and when the
/// stream would outgrow `room` bytes (ENOSPC, before writing the chunk that
/// does not fit; std::nullopt: no bound), so that it never fills the disk. The
/// caller removes the partial file. (Bounded by the room of a directory:
/// write_generated_file in core/session.hpp.)
std::uint64_t write_generated_file(const std::filesystem::path& path, const Generator& generate,
                                   std::optional<std::uint64_t> room);

/// Digest of the file at `path`, read in 1 MiB chunks into check_buffer().
/// Throws `std::system_error` ("fopen(path): reason") when the file cannot
/// be opened or read.
Digest digest_file(const std::filesystem::path& path);

/// The 1 MiB buffer through which this thread reads outputs back to check
/// them (digest_file, first_difference): allocated once, at the first call,
/// and kept, so that checking a row never needs the memory a method before
/// it may have leaked (Session's constructor takes it on the main thread
/// before any method runs).
std::vector<char>& check_buffer();

/// Offset of the first byte where the file at `path` differs from what
/// `generate` produces (including one being shorter), or -1 when they are
/// equal. Used only to explain a mismatch, outside any measurement.
std::int64_t first_difference(const std::filesystem::path& path, const Generator& generate);

}  // namespace iobench
