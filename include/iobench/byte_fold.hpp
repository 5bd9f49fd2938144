// The fold every file_read method computes over the bytes it reads, so that no
// read can be skipped and every byte is checked, in order, against the fold of
// the generated file. Header-only: the methods inline it into their loops.
//
// Algorithm (Fletcher's checksum over 64-bit words, modulo 2^64):
//   the stream is cut into 8-byte little-endian words w_0 .. w_{m-1} (the
//   last one padded with zero bytes); a = sum of w_i, b = sum of the running
//   values of a, i.e. b = sum of (m - i) * w_i. The digest mixes a, b and the
//   byte count with the splitmix64 finalizer.
// A changed byte changes a; a dropped, repeated or moved word changes the byte
// count or b (a swap of words i and j goes unnoticed only when
// (j - i) * (w_i - w_j) is a multiple of 2^64). Not a cryptographic hash, and
// not meant to be: it costs two additions per 8 bytes (4 words per step, so
// about 10 bytes per cycle, several times memory bandwidth), where a reader's
// memcpy from the page cache costs far more.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <iobench/load_le.hpp>

namespace iobench {

/// What a ReadBytes operation read: the number of bytes and their fold
/// (`ByteFold` below, a Fletcher-style sum over 64-bit words,
/// cheap next to memory bandwidth and sensitive to every byte and its order).
struct ReadResult {
    std::uint64_t bytes = 0;  ///< bytes read, end of file included
    std::uint64_t fold = 0;   ///< ByteFold::digest() of those bytes
    friend bool operator==(const ReadResult&, const ReadResult&) = default;
};

/// Streaming fold of a byte stream (see the algorithm above). Feed the bytes
/// in order, in chunks of any sizes: the digest depends only on their
/// concatenation.
class ByteFold {
public:
    /// Adds `size` bytes at `data`.
    void update(const void* data, std::size_t size) noexcept {
        const auto* p = static_cast<const unsigned char*>(data);
        bytes_ += size;
        if (pending_bytes_ != 0) {  // complete the word the previous chunk began
            while (size != 0 && pending_bytes_ < 8) {
                pending_ |= std::uint64_t{*p++} << (8 * pending_bytes_++);
                --size;
            }
            if (pending_bytes_ < 8) return;
            add(pending_);
            pending_ = 0;
            pending_bytes_ = 0;
        }
        const std::size_t words = size / 8;
        add_words(p, words);
        p += words * 8;
        size -= words * 8;
        for (std::size_t i = 0; i < size; ++i) pending_ |= std::uint64_t{p[i]} << (8 * i);
        pending_bytes_ = static_cast<unsigned>(size);
    }

    /// Bytes fed so far.
    std::uint64_t bytes() const noexcept { return bytes_; }

    /// The digest of every byte fed so far (the stream may continue).
    std::uint64_t digest() const noexcept {
        std::uint64_t a = a_, b = b_;
        if (pending_bytes_ != 0) {
            a += pending_;
            b += a;
        }
        std::uint64_t z = b ^ std::rotl(a, 29) ^ (bytes_ * 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }

    /// Byte count and digest, as a ReadBytes operation returns them.
    ReadResult result() const noexcept { return {bytes_, digest()}; }

private:
    void add(std::uint64_t w) noexcept {
        a_ += w;
        b_ += a_;
    }

    /// Four words per step: b gains 4a + 4w0 + 3w1 + 2w2 + w3, exactly what
    /// four single steps give, with a shorter dependency chain.
    void add_words(const unsigned char* p, std::size_t words) noexcept {
        std::uint64_t a = a_, b = b_;
        std::size_t i = 0;
        for (; i + 4 <= words; i += 4, p += 32) {
            const std::uint64_t w0 = load_u64_le(p), w1 = load_u64_le(p + 8), w2 = load_u64_le(p + 16), w3 = load_u64_le(p + 24);
            b += 4 * a + 4 * w0 + 3 * w1 + 2 * w2 + w3;
            a += w0 + w1 + w2 + w3;
        }
        for (; i < words; ++i, p += 8) {
            a += load_u64_le(p);
            b += a;
        }
        a_ = a;
        b_ = b;
    }

    std::uint64_t a_ = 0;
    std::uint64_t b_ = 0;
    std::uint64_t bytes_ = 0;
    std::uint64_t pending_ = 0;  // bytes of an incomplete word, first byte lowest
    unsigned pending_bytes_ = 0;
};

}  // namespace iobench
