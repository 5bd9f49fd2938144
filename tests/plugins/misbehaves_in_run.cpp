// A plugin method that misbehaves in its second call (the first is the
// sizing run), as IOBENCH_TEST_IN_RUN says: exit (calls exit(3)) or hang
// (never returns); exit_first and hang_first in its first call. Either must cost its own row only: the rows that finished
// before it kept in the results, one line naming it, the work directory
// removed, exit status 1 (tests/plugin_in_run.cmake).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include <iobench/error.hpp>
#include <iobench/method.hpp>

namespace iobench {
namespace {

void misbehaving_repeat(const Sink& sink, std::string_view line, std::uint64_t count) {
    static int calls = 0;
    const char* what = std::getenv("IOBENCH_TEST_IN_RUN");
    std::string how = what ? what : "";
    // "_first": in its first call (the sizing run, before any repetition).
    const bool first = how.size() > 6 && how.compare(how.size() - 6, 6, "_first") == 0;
    if (first) how.resize(how.size() - 6);
    if (++calls == (first ? 1 : 2)) {
        if (how == "exit") std::exit(3);
        if (how == "hang")
            for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
    }
    std::FILE* f = std::fopen(sink.path.c_str(), "wb");
    if (!f) throw_errno("fopen", sink.path);
    for (std::uint64_t i = 0; i < count; ++i) std::fwrite(line.data(), 1, line.size(), f);
    const bool failed = std::ferror(f) != 0;
    if (std::fclose(f) != 0 || failed) throw io_error("fwrite", sink.path, std::make_error_code(std::errc::io_error));
}

const MethodRegistrar registrar{{.family = "zz_plugin_in_run"}, {
    {.name = "zz_misbehaves_in_run", .description = "fwrite per line, but exits or hangs in its second call (tests)",
     .put_repeat = misbehaving_repeat},
}};

}  // namespace
}  // namespace iobench
