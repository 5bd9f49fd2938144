// stdio: the C library's buffered FILE* streams (fprintf, fwrite, fscanf).
// The buffer is the library's own unless a suite sets `buf`, which goes to
// setvbuf(_IOFBF) before the first write.
#include <cinttypes>
#include <cstdio>

#include "core/error.hpp"
#include "core/method.hpp"

namespace iobench {
namespace {

/// A FILE* opened on `path`, with `buffer_size` bytes of full buffering when non-zero.
std::FILE* open_stream(const std::string& path, const char* mode, std::size_t buffer_size) {
    std::FILE* f = std::fopen(path.c_str(), mode);
    if (!f) throw_errno("fopen", path);
    if (buffer_size != 0 && std::setvbuf(f, nullptr, _IOFBF, buffer_size) != 0) {
        std::fclose(f);
        throw_errno("setvbuf", path);
    }
    return f;
}

/// Closes an output stream; a write error seen by ferror or fclose becomes `io_error`.
void close_output(std::FILE* f, const std::string& path) {
    const bool failed = std::ferror(f) != 0;
    const int saved = errno;
    if (std::fclose(f) != 0) throw_errno("fclose", path);
    if (failed) throw io_error("fwrite", path, std::error_code(saved, std::generic_category()));
}

void fprintf_ints(const Sink& sink, std::uint64_t count) {
    std::FILE* f = open_stream(sink.path, "w", sink.buffer_size);
    for (std::uint64_t i = 0; i < count; ++i) std::fprintf(f, "%llu\n", static_cast<unsigned long long>(i));
    close_output(f, sink.path);
}

void fwrite_repeat(const Sink& sink, std::string_view line, std::uint64_t count) {
    std::FILE* f = open_stream(sink.path, "wb", sink.buffer_size);
    for (std::uint64_t i = 0; i < count; ++i) std::fwrite(line.data(), 1, line.size(), f);
    close_output(f, sink.path);
}

void fscanf_ints(const Source& source, std::vector<std::uint64_t>& values) {
    std::FILE* f = open_stream(source.path, "r", source.buffer_size);
    unsigned long long v = 0;
    while (std::fscanf(f, "%llu", &v) == 1) values.push_back(v);
    const bool at_end = std::feof(f) != 0;
    const bool failed = std::ferror(f) != 0;
    const long offset = std::ftell(f);
    std::fclose(f);
    if (failed) throw io_error("fscanf", source.path, std::error_code(EIO, std::generic_category()));
    if (!at_end) throw parse_error("fscanf(" + source.path + "): not an integer at byte " + std::to_string(offset));
}

const MethodRegistrar registrar{
    {.name = "fprintf",
     .family = "stdio",
     .description = "fprintf(f, \"%llu\\n\", i) on a FILE*",
     .sizable_buffer = true,
     .put_ints = fprintf_ints},
    {.name = "fwrite",
     .family = "stdio",
     .description = "fwrite(line, 1, size, f) per line on a FILE*",
     .sizable_buffer = true,
     .put_repeat = fwrite_repeat},
    {.name = "fscanf",
     .family = "stdio",
     .description = "fscanf(f, \"%llu\", &v) until end of file",
     .sizable_buffer = true,
     .get_ints = fscanf_ints},
};

}  // namespace
}  // namespace iobench
