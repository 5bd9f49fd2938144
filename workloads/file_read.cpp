// file_read: the C file-reading benchmark
// (the write-up "C File Reading Benchmark" (Windows), docs/results/README.md#sources): read one large text file
// to its end with every method, over buffer sizes (/buf:<bytes>, the seed's
// x axis) with the page cache warm (read once before measuring, as the seed
// did) or cold (/cache:cold: written back and dropped before every run).
// The seed read 12.85 GiB; here the size is --file-size (1 GiB by default,
// times --scale when not given). The file is generated once per run in --dir
// and shared by every method; every byte a method reads is folded
// (iobench/byte_fold.hpp) and the fold compared with the generator's.
//
// A cold row's label says how the pages were dropped ("cache dropped: fdatasync
// + posix_fadvise(POSIX_FADV_DONTNEED)" on Linux, "cache dropped:
// FILE_FLAG_NO_BUFFERING open + standby list purge" on Windows as
// administrator: drop_from_page_cache); where they cannot be (wine, a file
// system not known to purge) the row is skipped with the reason.
//
// Counters: `resident_at_start`, the fraction of the file's pages in the page
// cache when a measured read began (mincore; the mean over the run's
// iterations; 0 when every page had been dropped; absent on Windows, which
// has no call that tells). Where more
// than half the file stays in memory after the drop (tmpfs keeps every page:
// the pages are the file) a cold row is skipped with that reason: it would be
// a warm run.
#include <fmt/format.h>

#include <cstdio>
#include <map>
#include <system_error>

#include <iobench/byte_fold.hpp>
#include <iobench/error.hpp>
#include "core/engine/session.hpp"
#include "core/engine/workload.hpp"
#include "core/os/page_cache.hpp"
#include "data/file_text.hpp"

namespace iobench {
namespace {

/// What a correct read of the generated file of a given size returns, and
/// its line count (the text depends only on its size: the seed is fixed).
struct Expected {
    ReadResult read;
    std::uint64_t lines = 0;
};

/// Expected results by file size, filled while a file is generated.
std::map<std::uint64_t, Expected>& expected_by_size() {
    static std::map<std::uint64_t, Expected> cache;
    return cache;
}

/// Writes the file_read input of `size` bytes at `path` (with fwrite: the
/// generator, not a method under test) and records its expected fold.
void write_text_file(const std::filesystem::path& path, std::uint64_t size) {
    ByteFold fold;
    std::uint64_t lines = 0;
    write_generated_file(path, [&](const ChunkFn& emit) {
        random_lines_text(size)([&](std::string_view chunk) {
            fold.update(chunk.data(), chunk.size());
            for (char c : chunk) lines += c == '\n';
            emit(chunk);
        });
    });
    expected_by_size()[size] = {fold.result(), lines};
}

class FileReadTrial final : public Trial {
public:
    FileReadTrial(Session& s, const Method& m, const Params& p, std::uint64_t size)
        : path_(s.input(fmt::format("file-{}.txt", size), size,
                        [size](const std::filesystem::path& path) { write_text_file(path, size); })),
          source_{path_.string(), p.buffer_size},
          read_(m.read_bytes),
          cache_(p.cache) {
        expected_ = expected_by_size().at(size);  // recorded when the file was written
        input = true;
        bytes = size;
        items = expected_.lines != 0 ? expected_.lines : 1;
        buffer_size = buffer_size_used(m, p);
    }

    void reset() override {
        if (cache_ == CacheState::cold) {
            label = "cache dropped: " + drop_from_page_cache(path_);
            // A file system whose pages are the file (tmpfs, ramfs) keeps
            // them: such a "cold" run is a warm one, and is not reported as cold.
            if (const auto resident = resident_fraction(path_); resident && *resident > 0.5)
                throw unavailable_error(fmt::format(
                    "no cold page cache here: {:.0f}% of the file stayed in memory after its pages were dropped "
                    "(tmpfs and ramfs keep every page: the pages are the file)",
                    100 * *resident));
        } else if (!warmed_) {
            read_through(path_);  // the seed's warm-up run
            warmed_ = true;
        }
        if (const auto resident = resident_fraction(path_)) {
            resident_sum_ += *resident;
            ++resident_runs_;
            counters["resident_at_start"] = resident_sum_ / static_cast<double>(resident_runs_);
        }
        got_ = {};
    }

    void run() override { got_ = read_(source_); }

    std::string verify() override {
        if (got_ == expected_.read) return "";
        return fmt::format("read {} bytes with fold {:016x}, expected {} bytes with fold {:016x}", got_.bytes,
                           got_.fold, expected_.read.bytes, expected_.read.fold);
    }

private:
    std::filesystem::path path_;
    Source source_;
    ReadBytes read_;
    CacheState cache_;
    Expected expected_;
    ReadResult got_;
    bool warmed_ = false;
    double resident_sum_ = 0;
    std::uint64_t resident_runs_ = 0;
};

class FileRead final : public Workload {
public:
    FileRead()
        : Workload({.name = "file_read",
                    .description = "read a generated text file (--file-size, 1 GiB) to its end, folding every byte; "
                                   "/buf: bytes per read, /cache:warm|cold page cache",
                    .operation = Operation::read_bytes,
                    .item_unit = "line",
                    .default_count = std::uint64_t{1} << 30,  // bytes: the file size at scale 1
                    .compared_per_byte = true,
                    .sized_input = true,
                    .axes = {.cache_state = true}}) {}

protected:
    std::unique_ptr<Trial> make_method_trial(const Method& m, const Params& p, Session& s) const override {
        return std::make_unique<FileReadTrial>(s, m, p, count(s));
    }
};

const WorkloadRegistrar<FileRead> file_read_registrar;

}  // namespace
}  // namespace iobench
