#include "core/engine/reference_trial.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <span>
#include <stdexcept>
#include <system_error>

#include <iobench/byte_fold.hpp>
#include "core/engine/output_trial.hpp"
#include "core/os/page_cache.hpp"

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace iobench {

namespace {

/// Asks for transparent huge pages for the untouched memory at [data, data +
/// size) (Linux, 2 MiB-aligned part only; nothing elsewhere or when refused):
/// the 1.2 GB prepared for hello are then 600 huge pages, not 300,000 small
/// ones, and copying them costs no page walks that a method with a small
/// buffer does not pay (measured: hello/limit 229-253 ms in 7 of 9 runs,
/// median 243 ms, against 551-883 ms with small pages).
void ask_for_huge_pages(char* data, std::size_t size) {
#ifdef __linux__
    constexpr std::uintptr_t huge = std::uintptr_t{2} << 20;
    const auto begin = (reinterpret_cast<std::uintptr_t>(data) + huge - 1) & ~(huge - 1);
    const auto end = (reinterpret_cast<std::uintptr_t>(data) + size) & ~(huge - 1);
    if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
    (void)data;
    (void)size;
#endif
}

/// Untouched memory for `size` bytes starting at a 2 MiB boundary: in huge
/// pages where the kernel gives them (ask_for_huge_pages), and at a cache line,
/// where the kernel's copy of a write(2)'s bytes runs fastest (a source 16 bytes
/// past one, where an allocation of its own starts, made ext4's copy 24 %
/// slower: methods/buffer_sizes.hpp, obuf_buffer_alignment).
class AlignedBytes {
public:
    explicit AlignedBytes(std::size_t size) : raw_(new char[size + huge]), size_(size) {
        const auto at = reinterpret_cast<std::uintptr_t>(raw_.get());
        data_ = raw_.get() + ((huge - (at & (huge - 1))) & (huge - 1));
        ask_for_huge_pages(data_, size_);
    }
    char* data() const { return data_; }
    std::size_t size() const { return size_; }
    std::span<const char> bytes() const { return {data_, size_}; }

private:
    static constexpr std::size_t huge = std::size_t{2} << 20;
    std::unique_ptr<char[]> raw_;  // default-initialised: untouched until written
    char* data_ = nullptr;
    std::size_t size_;
};

/// `size` bytes of `expected`'s output in memory aligned by AlignedBytes.
/// Throws std::logic_error when the generator gives another count.
AlignedBytes prepared_bytes(const ExpectedOutput& expected, std::size_t size) {
    AlignedBytes out(size);
    std::size_t at = 0;
    expected.bytes([&](std::string_view chunk) {
        if (chunk.size() > size - at) throw std::logic_error("the expected output is longer than its digest says");
        std::memcpy(out.data() + at, chunk.data(), chunk.size());
        at += chunk.size();
    });
    if (at != size) throw std::logic_error("the expected output is shorter than its digest says");
    return out;
}

class OutputReferenceTrial final : public OutputTrial {
public:
    OutputReferenceTrial(Session& s, std::string_view workload, const Method& m, const Params& p,
                         const ExpectedOutput& expected)
        : OutputTrial(s, workload, m, p, expected),
          put_(m.put_prepared),
          overwrite_(m.overwrites_existing),
          text_(prepared_bytes(expected, bytes)) {}
    /// The output trial's settle; for `limit_overwrite`, without its warming
    /// (settle_without_warming), the file it writes over (zeros of the
    /// output's size, flushed: a run that wrote nothing fails verification);
    /// then one read of every page of the prepared bytes: memory left idle
    /// between repetitions may have been taken back by a hypervisor, and its
    /// faults belong to no method.
    void reset() override {
        if (overwrite_) {
            settle_without_warming();  // the zeros below are the pages the run writes over
            write_zero_file(sink_.path, text_.size());
        } else {
            OutputTrial::reset();
        }
        const volatile char* p = text_.data();
        char sum = 0;
        for (std::size_t at = 0; at < text_.size(); at += 4096) sum = static_cast<char>(sum + p[at]);
        touched_ = sum;
    }
    void run() override { put_(sink_, text_.bytes()); }

private:
    PutPrepared put_;
    bool overwrite_;  // Method::overwrites_existing
    char touched_ = 0;  // keeps the page reads of reset()
    AlignedBytes text_;
};

/// The `memcpy` row of an output workload (Method::copy_prepared): the
/// workload's bytes, prepared in memory when the trial is made, copied into a
/// buffer of their size; no file, no system call. The reset is the output
/// trial's settle (so the machine is in the state every output row starts
/// from; no page-cache warming, as no page-cache page is taken) and then
/// reads every page of the bytes and writes every page of the copy's buffer,
/// so that the run takes no page fault (a hypervisor may have taken
/// idle memory back between repetitions).
/// Verified by the copy's size and checksum, as a file is.
class MemoryCopyTrial final : public OutputTrial {
public:
    MemoryCopyTrial(Session& s, std::string_view workload, const Method& m, const Params& p,
                    const ExpectedOutput& expected)
        : OutputTrial(s, workload, m, p, expected),
          copy_(m.copy_prepared),
          text_(prepared_bytes(expected, bytes)),
          copy_to_(bytes) {}
    void reset() override {
        settle_without_warming();  // no file: the copy's pages are the ones touched below
        volatile char* to = copy_to_.data();
        const volatile char* from = text_.data();
        for (std::size_t at = 0; at < text_.size(); at += 4096) to[at] = from[at];
    }
    void run() override { copy_(std::span<char>(copy_to_.data(), copy_to_.size()), text_.bytes()); }
    std::string verify() override {
        const std::string_view got(copy_to_.data(), copy_to_.size());
        const Digest digest = digest_of([&](const ChunkFn& emit) { emit(got); });
        if (digest == expected_digest()) return "";
        const std::string_view want(text_.data(), text_.size());
        const auto diff = std::mismatch(got.begin(), got.end(), want.begin());
        return fmt::format("copy differs: {} bytes with checksum {:016x}, expected {} bytes with checksum {:016x}; "
                           "first difference at byte {}",
                           digest.size, digest.checksum, expected_digest().size, expected_digest().checksum,
                           diff.first - got.begin());
    }

private:
    CopyPrepared copy_;
    AlignedBytes text_;
    AlignedBytes copy_to_;
};

/// The fold of what `generate` produces, computed once per input file.
ReadResult expected_fold(const std::filesystem::path& input, const Generator& generate) {
    static std::map<std::filesystem::path, ReadResult> cache;
    auto it = cache.find(input);
    if (it != cache.end()) return it->second;
    ByteFold fold;
    generate([&](std::string_view chunk) { fold.update(chunk.data(), chunk.size()); });
    return cache.emplace(input, fold.result()).first->second;
}

class InputReferenceTrial final : public Trial {
public:
    InputReferenceTrial(const InputFile& file, const Method& m, const Params& p)
        : source_{file.path.string(), p.buffer_size}, read_(m.read_bytes), expected_(expected_fold(file.path, file.bytes)) {
        input = true;
        items = file.items;
        bytes = expected_.bytes;
        buffer_size = buffer_size_used(m, p);
    }
    void reset() override { got_ = {}; }
    void run() override { got_ = read_(source_); }
    std::string verify() override {
        if (got_ == expected_) return "";
        return fmt::format("read {} bytes with fold {:016x}, expected {} bytes with fold {:016x}", got_.bytes,
                           got_.fold, expected_.bytes, expected_.fold);
    }

private:
    Source source_;
    ReadBytes read_;
    ReadResult expected_;
    ReadResult got_;
};

}  // namespace

std::unique_ptr<Trial> make_reference_trial(const Workload& workload, const Method& method, const Params& params,
                                            Session& session) {
    switch (workload.spec().reference) {
    case ReferenceKind::output:
        if (method.copy_prepared.present())
            return std::make_unique<MemoryCopyTrial>(session, workload.name(), method, params,
                                                     workload.expected_output(session));
        return std::make_unique<OutputReferenceTrial>(session, workload.name(), method, params,
                                                      workload.expected_output(session));
    case ReferenceKind::input:
        return std::make_unique<InputReferenceTrial>(workload.input_file(session), method, params);
    case ReferenceKind::none:
        break;
    }
    throw std::logic_error(fmt::format("workload {} has no reference row", workload.name()));
}

}  // namespace iobench
