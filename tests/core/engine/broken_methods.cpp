// Deliberately wrong methods, linked only into the tests: each produces output
// that differs from the workload's expectation in one way, so the tests can
// prove that verification catches it and the runner reports an error, not a time.
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include <iobench/byte_fold.hpp>
#include <iobench/error.hpp>
#include <iobench/method.hpp>

namespace iobench {
namespace {

std::FILE* create(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) throw_errno("fopen", path);
    return f;
}

/// Writes one integer too many (0 .. count): size and checksum differ.
void extra_line_ints(const Sink& sink, std::uint64_t count) {
    std::FILE* f = create(sink.path);
    for (std::uint64_t i = 0; i <= count; ++i) std::fprintf(f, "%llu\n", static_cast<unsigned long long>(i));
    std::fclose(f);
}

/// Writes the right number of bytes with one letter changed in the last line:
/// only the checksum differs.
void one_byte_off_repeat(const Sink& sink, std::string_view line, std::uint64_t count) {
    std::FILE* f = create(sink.path);
    for (std::uint64_t i = 0; i + 1 < count; ++i) std::fwrite(line.data(), 1, line.size(), f);
    std::string last(line);
    last[0] = static_cast<char>(last[0] ^ 0x20);
    std::fwrite(last.data(), 1, last.size(), f);
    std::fclose(f);
}

/// Reads the values but drops the first one.
void drops_first_ints(const Source& source, std::vector<std::uint64_t>& values) {
    std::FILE* f = std::fopen(source.path.c_str(), "r");
    if (!f) throw_errno("fopen", source.path);
    unsigned long long v = 0;
    bool first = true;
    while (std::fscanf(f, "%llu", &v) == 1) {
        if (!first) values.push_back(v);
        first = false;
    }
    std::fclose(f);
}

/// Reads the whole file but leaves the second 4 KiB block out of the fold:
/// the byte count differs.
ReadResult skips_block_read(const Source& source) {
    std::FILE* f = std::fopen(source.path.c_str(), "rb");
    if (!f) throw_errno("fopen", source.path);
    char buf[4096];
    ByteFold fold;
    for (int block = 0;; ++block) {
        const std::size_t n = std::fread(buf, 1, sizeof buf, f);
        if (block != 1) fold.update(buf, n);
        if (n < sizeof buf) break;
    }
    std::fclose(f);
    return fold.result();
}

/// Reads every byte but folds the first two 8-byte words in swapped order:
/// the byte count is right, only the fold differs.
ReadResult swaps_words_read(const Source& source) {
    std::FILE* f = std::fopen(source.path.c_str(), "rb");
    if (!f) throw_errno("fopen", source.path);
    std::vector<char> all;
    char buf[4096];
    while (const std::size_t n = std::fread(buf, 1, sizeof buf, f)) all.insert(all.end(), buf, buf + n);
    std::fclose(f);
    if (all.size() >= 16) std::swap_ranges(all.begin(), all.begin() + 8, all.begin() + 8);
    ByteFold fold;
    fold.update(all.data(), all.size());
    return fold.result();
}

/// Refuses to run, as a method the kernel or file system refuses would.
ReadResult unavailable_read(const Source&) { throw unavailable_error("test: refused by the platform"); }

/// Parses the doubles with float precision (strtof): values differ in their low bits.
void float_precision_doubles(const Source& source, std::vector<double>& values) {
    std::FILE* f = std::fopen(source.path.c_str(), "rb");
    if (!f) throw_errno("fopen", source.path);
    char line[64];
    while (std::fgets(line, sizeof line, f)) values.push_back(static_cast<double>(std::strtof(line, nullptr)));
    std::fclose(f);
}

/// Drops the last line in its first run of the process only (a rare fault:
/// the runs after it are right): the sizing run's failure must fail the
/// benchmark, though every repetition after it verifies.
void first_run_drops_line_ints(const Sink& sink, std::uint64_t count) {
    static bool first = true;
    const bool drop = std::exchange(first, false);
    std::FILE* f = create(sink.path);
    for (std::uint64_t i = 0; i < count - (drop && count > 0 ? 1 : 0); ++i)
        std::fprintf(f, "%llu\n", static_cast<unsigned long long>(i));
    std::fclose(f);
}

/// Fails as a full disk would.
void disk_full_ints(const Sink& sink, std::uint64_t) {
    throw io_error("write", sink.path, std::error_code(ENOSPC, std::generic_category()));
}

const MethodRegistrar registrar{{.family = "zz_broken"}, {
    {.name = "broken_extra_line", .description = "test: one line too many",
     .put_ints = extra_line_ints},
    {.name = "broken_one_byte", .description = "test: one byte changed",
     .put_repeat = one_byte_off_repeat},
    {.name = "broken_drops_first", .description = "test: drops the first value",
     .get_ints = drops_first_ints},
    {.name = "broken_first_run_only", .description = "test: drops the last line in its first run only",
     .put_ints = first_run_drops_line_ints},
    {.name = "broken_disk_full", .description = "test: write fails with ENOSPC",
     .put_ints = disk_full_ints},
    {.name = "broken_skips_block", .description = "test: leaves a 4 KiB block unread",
     .read_bytes = skips_block_read},
    {.name = "broken_swaps_words", .description = "test: two words in the wrong order",
     .read_bytes = swaps_words_read},
    {.name = "broken_unavailable", .description = "test: refused at run time",
     .read_bytes = unavailable_read},
    {.name = "broken_float_doubles", .description = "test: doubles parsed as floats",
     .get_doubles = float_precision_doubles},
}};

}  // namespace
}  // namespace iobench
