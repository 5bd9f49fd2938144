// A plugin family whose method writes one byte too few per line: its rows
// must fail verification like any method's (tests/plugins/CMakeLists.txt).
#include <cstdio>

#include <iobench/error.hpp>
#include <iobench/method.hpp>

namespace iobench {
namespace {

/// fwrite of each line but its last byte (the '\n').
void short_lines(const Sink& sink, std::string_view line, std::uint64_t count) {
    std::FILE* f = std::fopen(sink.path.c_str(), "wb");
    if (!f) throw_errno("fopen", sink.path);
    for (std::uint64_t i = 0; i < count; ++i) std::fwrite(line.data(), 1, line.size() - 1, f);
    if (std::fclose(f) != 0) throw_errno("fclose", sink.path);
}

/// Throws io_error from inside the plugin: iobench must catch it as its own.
void failing_write(const Sink& sink, std::string_view, std::uint64_t) {
    throw io_error("write", sink.path, std::make_error_code(std::errc::no_space_on_device));
}

/// Throws what is not a std::exception: a FAILED row, never std::terminate.
void throws_an_int(const Sink&, std::string_view, std::uint64_t) { throw 42; }

const MethodRegistrar registrar{{.family = "zz_plugin_broken"}, {
    {.name = "zz_plugin_short_lines",
     .description = "fwrite of each line without its '\\n' (wrong bytes, on purpose)",
     .put_repeat = short_lines},
    {.name = "zz_plugin_io_error",
     .description = "throws io_error (ENOSPC) from inside the plugin",
     .put_repeat = failing_write},
    {.name = "zz_plugin_throws_int",
     .description = "throws 42 from inside the plugin",
     .put_repeat = throws_an_int},
}};

}  // namespace
}  // namespace iobench
