// A plugin built against another definition of a structure that crosses
// between a plugin and iobench: tests/plugins/CMakeLists.txt builds it with a
// changed copy of iobench/calls.hpp found before the real one (Calls with a
// member more, or two members swapped). iobench must refuse it naming Calls
// and both its sizes (or its layout), before it reads anything else of it.
#include <cstdio>
#include <memory>

#include <iobench/error.hpp>
#include <iobench/method.hpp>

namespace iobench {
namespace {

CallSink open_file(const Sink& sink) {
    std::FILE* f = std::fopen(sink.path.c_str(), "wb");
    if (!f) throw_errno("fopen", sink.path);
    return f;
}

void close_file(CallSink sink) {
    if (std::fclose(static_cast<std::FILE*>(sink)) != 0)
        throw io_error("fclose", "sink", std::make_error_code(std::errc::io_error));
}

void put_line(CallSink sink, std::string_view line) {
    std::fwrite(line.data(), 1, line.size(), static_cast<std::FILE*>(sink));
}

constexpr Calls changed_calls{.open = open_file, .close = close_file, .put_line = put_line};

const MethodRegistrar registrar{{.family = "zz_changed_layout"}, {
    {.name = "zz_changed_layout", .description = "fwrite per line, built with another Calls (tests)",
     .calls = &changed_calls},
}};

}  // namespace
}  // namespace iobench
