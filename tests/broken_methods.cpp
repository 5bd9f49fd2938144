// Deliberately wrong methods, linked only into the tests: each produces output
// that differs from the workload's expectation in one way, so the tests can
// prove that verification catches it and the runner reports an error, not a time.
#include <charconv>
#include <cstdio>
#include <string>

#include "core/error.hpp"
#include "core/method.hpp"

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

/// Fails as a full disk would.
void disk_full_ints(const Sink& sink, std::uint64_t) {
    throw io_error("write", sink.path, std::error_code(ENOSPC, std::generic_category()));
}

const MethodRegistrar registrar{
    {.name = "broken_extra_line", .family = "zz_broken", .description = "test: one line too many",
     .put_ints = extra_line_ints},
    {.name = "broken_one_byte", .family = "zz_broken", .description = "test: one byte changed",
     .put_repeat = one_byte_off_repeat},
    {.name = "broken_drops_first", .family = "zz_broken", .description = "test: drops the first value",
     .get_ints = drops_first_ints},
    {.name = "broken_disk_full", .family = "zz_broken", .description = "test: write fails with ENOSPC",
     .put_ints = disk_full_ints},
};

}  // namespace
}  // namespace iobench
