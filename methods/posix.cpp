// posix: one write(2) per line, no user-space buffer: the unbuffered baseline
// every buffered method is measured against.
#include <charconv>

#include "core/method.hpp"
#include "methods/posix_file.hpp"

namespace iobench {
namespace {

void write_ints(const Sink& sink, std::uint64_t count) {
    unique_fd fd = create_file(sink.path);
    char line[24];
    for (std::uint64_t i = 0; i < count; ++i) {
        char* end = std::to_chars(line, line + sizeof line - 1, i).ptr;
        *end++ = '\n';
        write_all(fd.get(), line, static_cast<std::size_t>(end - line), sink.path);
    }
    fd.close();
}

void write_repeat(const Sink& sink, std::string_view line, std::uint64_t count) {
    unique_fd fd = create_file(sink.path);
    for (std::uint64_t i = 0; i < count; ++i) write_all(fd.get(), line.data(), line.size(), sink.path);
    fd.close();
}

const MethodRegistrar registrar{
    {.name = "write",
     .family = "posix",
     .description = "write(2) once per line (std::to_chars for integers): one syscall per item",
     .put_ints = write_ints,
     .put_repeat = write_repeat},
};

}  // namespace
}  // namespace iobench
