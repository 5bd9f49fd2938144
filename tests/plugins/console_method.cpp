// A plugin family with a console method: on Windows the console workloads
// run each call in a child process, which must load the plugin again to find
// the method (tests/plugins/CMakeLists.txt: plugin.console_run).
#include <cstdio>

#include <iobench/error.hpp>
#include <iobench/method.hpp>

namespace iobench {
namespace {

/// fputs of every line to stdout, then fflush.
void fputs_console(const StdoutSink&, std::string_view line, std::uint64_t count) {
    for (std::uint64_t i = 0; i < count; ++i) std::fputs(line.data(), stdout);
    if (std::fflush(stdout) != 0) throw_errno("fflush", "stdout");
}

const MethodRegistrar registrar{{.family = "zz_plugin_console"}, {
    {.name = "zz_plugin_fputs_console",
     .description = "fputs(line, stdout) per message, from a plugin",
     .put_console = fputs_console},
}};

}  // namespace
}  // namespace iobench
