// A plugin method that misbehaves in its second call (the first is the
// sizing run), as IOBENCH_TEST_IN_RUN says: exit (calls exit(3)), _exit
// (_exit(0)), quick_exit (quick_exit(0)), hang (never returns), abort
// (abort(), as glibc does when it finds a double free) or segv (a write
// through a null pointer); exit_first, _exit_first, quick_exit_first,
// hang_first, abort_first and segv_first in its first call. Each must cost its own row only: the rows that finished before it
// kept in the results, one line naming it, the work directory removed, exit
// status 1 (tests/plugin_in_run.cmake).
// zz_hangs_in_call has the per-call shape only: with IOBENCH_TEST_IN_RUN=
// hang_line its 1,000th line (counted over every thread and run) never
// returns, which is in the first run of its calls, the sizing run's: it
// must end the run after --time-limit, with threads 1 and 4, a shared sink
// and one per thread (tests/plugin_call_hang.cmake). With throw_line that
// line and every later one throw: its row fails with the call's error, not
// as a run that could not be prepared. With abort_line that line calls
// abort(): the run ends with its row FAILED naming SIGABRT.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

#ifndef _WIN32
#include <unistd.h>
#endif

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
#ifndef _WIN32
        if (how == "_exit") ::_exit(0);
        if (how == "quick_exit") std::quick_exit(0);
#endif
        if (how == "hang")
            for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
        if (how == "abort") std::abort();
        if (how == "segv") {
            int* volatile nowhere = nullptr;
            *nowhere = 1;
        }
    }
    std::FILE* f = std::fopen(sink.path.c_str(), "wb");
    if (!f) throw_errno("fopen", sink.path);
    for (std::uint64_t i = 0; i < count; ++i) std::fwrite(line.data(), 1, line.size(), f);
    const bool failed = std::ferror(f) != 0;
    if (std::fclose(f) != 0 || failed) throw io_error("fwrite", sink.path, std::make_error_code(std::errc::io_error));
}

/// A file written with fwrite, behind a mutex (its calls may share it).
struct LockedFile {
    std::FILE* file = nullptr;
    std::mutex mutex;
};

CallSink open_file(const Sink& sink) {
    auto f = std::make_unique<LockedFile>();
    f->file = std::fopen(sink.path.c_str(), "wb");
    if (!f->file) throw_errno("fopen", sink.path);
    return f.release();
}

void close_file(CallSink sink) {
    const std::unique_ptr<LockedFile> f(static_cast<LockedFile*>(sink));
    if (std::fclose(f->file) != 0) throw io_error("fclose", "sink", std::make_error_code(std::errc::io_error));
}

void hanging_line(CallSink sink, std::string_view line) {
    static std::atomic<std::uint64_t> lines{0};
    const char* what = std::getenv("IOBENCH_TEST_IN_RUN");
    // This call's own count: reading `lines` again would race the other threads' calls.
    const std::uint64_t line_number = ++lines;
    if (line_number == 1000 && what && std::string(what) == "hang_line")
        for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
    if (line_number >= 1000 && what && std::string(what) == "throw_line")
        throw std::runtime_error("the 1,000th line failed");
    if (line_number == 1000 && what && std::string(what) == "abort_line") std::abort();  // as glibc does on a double free
    auto* f = static_cast<LockedFile*>(sink);
    const std::lock_guard<std::mutex> lock(f->mutex);
    std::fwrite(line.data(), 1, line.size(), f->file);
}

constexpr Calls hanging_calls{.open = open_file, .close = close_file, .put_line = hanging_line, .shared = true};

const MethodRegistrar registrar{{.family = "zz_plugin_in_run"}, {
    {.name = "zz_misbehaves_in_run", .description = "fwrite per line, but exits or hangs in its second call (tests)",
     .put_repeat = misbehaving_repeat},
    {.name = "zz_hangs_in_call", .description = "fwrite per line (per-call shape only), but hangs in its 1,000th line "
     "(tests)", .calls = &hanging_calls},
}};

}  // namespace
}  // namespace iobench
