// win32: the Windows API called directly. `WriteFile` once per line on a
// HANDLE from CreateFileW, no user-space buffer: the unbuffered baseline on
// Windows, as write(2) is on POSIX (methods/posix.cpp). Buffered writing over
// a HANDLE is the `obuf` method on Windows (methods/obuf.cpp).
// Listed everywhere; built on Windows only, skipped elsewhere with the reason.
#include "core/method.hpp"

#ifdef _WIN32
#include <charconv>

#include "methods/win32_device.hpp"
#endif

namespace iobench {
namespace {

#ifdef _WIN32
constexpr const char* unavailable = "";

void writefile_ints(const Sink& sink, std::uint64_t count) {
    unique_handle file = create_file_handle(sink.path);
    char line[24];
    for (std::uint64_t i = 0; i < count; ++i) {
        char* end = std::to_chars(line, line + sizeof line - 1, i).ptr;
        *end++ = '\n';
        write_all(file.get(), line, static_cast<std::size_t>(end - line), sink.path);
    }
    file.close();
}

void writefile_repeat(const Sink& sink, std::string_view line, std::uint64_t count) {
    unique_handle file = create_file_handle(sink.path);
    for (std::uint64_t i = 0; i < count; ++i) write_all(file.get(), line.data(), line.size(), sink.path);
    file.close();
}
#else
constexpr const char* unavailable = "Windows only";
constexpr auto writefile_ints = not_built::put_ints;
constexpr auto writefile_repeat = not_built::put_repeat;
#endif

const MethodRegistrar registrar{
    {.name = "WriteFile",
     .family = "win32",
     .description = "WriteFile once per line on a CreateFileW HANDLE (std::to_chars for integers): one call per item",
     .unavailable = unavailable,
     .put_ints = writefile_ints,
     .put_repeat = writefile_repeat},
};

}  // namespace
}  // namespace iobench
