// A plugin that changes the working directory, as code iobench did not build
// may: at load (its constructor, when IOBENCH_TEST_CHDIR_AT_LOAD names a
// directory) and in its method's run (IOBENCH_TEST_CHDIR). iobench's work
// directory and results must stay where the command line's relative paths
// said when it started (tests/plugin_chdir.cmake).
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include <iobench/error.hpp>
#include <iobench/method.hpp>

namespace iobench {
namespace {

/// Changes the working directory to the directory named by `variable`, if set.
void change_directory(const char* variable) {
    if (const char* to = std::getenv(variable); to && *to) std::filesystem::current_path(to);
}

/// fwrite of each line, after changing the working directory.
void chdir_fwrite_repeat(const Sink& sink, std::string_view line, std::uint64_t count) {
    change_directory("IOBENCH_TEST_CHDIR");
    std::FILE* f = std::fopen(sink.path.c_str(), "wb");
    if (!f) throw_errno("fopen", sink.path);
    for (std::uint64_t i = 0; i < count; ++i) std::fwrite(line.data(), 1, line.size(), f);
    const bool failed = std::ferror(f) != 0;
    if (std::fclose(f) != 0 || failed) throw io_error("fwrite", sink.path, std::make_error_code(std::errc::io_error));
}

const bool changed_at_load = (change_directory("IOBENCH_TEST_CHDIR_AT_LOAD"), true);

const MethodRegistrar registrar{{.family = "zz_plugin_chdir"}, {
    {.name = "zz_chdir_fwrite",
     .description = "fwrite per line, after changing the working directory (tests)",
     .put_repeat = chdir_fwrite_repeat},
}};

}  // namespace
}  // namespace iobench
