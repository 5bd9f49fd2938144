// example: a method family compiled only into the tests, the one
// docs/adding-a-method.md shows and extends. Its methods write repeated lines
// (put_repeat: the hello and endl workloads) through calls no other family
// measures; tests/core/engine/pairs_test.cpp runs every pair of them.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>

#include <iobench/error.hpp>
#include <iobench/method.hpp>

namespace iobench {
namespace {

/// fprintf(f, "%.*s", size, line) per line on a FILE*: printf's precision
/// bounds the string, so the line needs no '\0'.
void fprintf_precision_repeat(const Sink& sink, std::string_view line, std::uint64_t count) {
    std::FILE* f = std::fopen(sink.path.c_str(), "wb");
    if (!f) throw_errno("fopen", sink.path);
    const int size = static_cast<int>(line.size());
    for (std::uint64_t i = 0; i < count; ++i) std::fprintf(f, "%.*s", size, line.data());
    const bool failed = std::ferror(f) != 0;
    if (std::fclose(f) != 0 || failed) throw io_error("fprintf", sink.path, std::make_error_code(std::errc::io_error));
}

/// std::copy of each line into a std::ostreambuf_iterator on a std::ofstream:
/// one sputc per character, no formatting.
void ostreambuf_iterator_repeat(const Sink& sink, std::string_view line, std::uint64_t count) {
    std::ofstream out(sink.path, std::ios::binary);
    if (!out) throw io_error("std::ofstream", sink.path, std::make_error_code(std::errc::io_error));
    std::ostreambuf_iterator<char> it(out);
    for (std::uint64_t i = 0; i < count; ++i) it = std::copy(line.begin(), line.end(), it);
    out.close();
    if (it.failed() || !out) throw io_error("std::ofstream", sink.path, std::make_error_code(std::errc::io_error));
}

const MethodRegistrar registrar{{.family = "example"}, {
    {.name = "example_fprintf_precision",
     .description = "fprintf(f, \"%.*s\", size, line) per line on a FILE*",
     .put_repeat = fprintf_precision_repeat},
    {.name = "example_ostreambuf_iterator",
     .description = "std::copy(line, std::ostreambuf_iterator<char>(ofstream)) per line",
     .put_repeat = ostreambuf_iterator_repeat},
}};

}  // namespace
}  // namespace iobench
