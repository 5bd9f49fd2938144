#include "app/diagnostics.hpp"

#include <system_error>

#include "core/os/standard_output.hpp"
#include "core/os/usage_error.hpp"
#include "core/os/workdir.hpp"

namespace iobench::app {

namespace fs = std::filesystem;

void check_writable_dir(const fs::path& dir, const char* option) {
    if (dir.empty()) throw usage_error(fmt::format("{} '': give a directory", option));
    std::error_code ec;
    if (!fs::exists(dir, ec)) throw usage_error(fmt::format("{} {}: no such directory", option, dir.string()));
    if (!fs::is_directory(dir, ec)) throw usage_error(fmt::format("{} {}: not a directory", option, dir.string()));
    if (const std::string why = probe_directory(dir); !why.empty())
        throw usage_error(fmt::format("{} {}: cannot create files there: {}", option, dir.string(), why));
    note("{}", shared_directory_note(dir, option));
}

int print_or_fail(const std::string& text) {
    std::fputs(text.c_str(), stdout);
    const std::string failed = flush_stdout();
    if (failed.empty()) return 0;
    note("iobench: error: writing to standard output failed: {}\n", failed);
    return exit_failed;
}

}  // namespace iobench::app
