// A plugin whose constructor misbehaves as IOBENCH_TEST_AT_LOAD says:
// close_stdout (closes descriptor 1), throw, throw_noexcept (a throw
// through a noexcept function: std::terminate), exit0 (exit(0)), abort,
// _exit0 (_exit(0)) or quick_exit0 (quick_exit(0), POSIX systems). Each
// must refuse the plugin: exit status 2 and one line naming it, never a
// status or a silence of the plugin's making (tests/plugins/CMakeLists.txt).
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include <iobench/method.hpp>

#ifdef _WIN32
#include <io.h>
#else
#include <unistd.h>
#endif

namespace iobench {
namespace {

const bool misbehaved = [] {
    const char* what = std::getenv("IOBENCH_TEST_AT_LOAD");
    const std::string how = what ? what : "";
    if (how == "close_stdout") {
#ifdef _WIN32
        _close(1);
#else
        ::close(1);
#endif
    } else if (how == "throw") {
        throw std::runtime_error("the plugin's constructor says no");
    } else if (how == "throw_noexcept") {
        // Through a noexcept function: std::terminate at once, in every
        // build, as a throw through glibc's noexcept dlopen() is in an
        // optimized one.
        // (GCC's -Wterminate says so: here that is the point.)
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wterminate"
#endif
        [&]() noexcept { throw std::runtime_error("the plugin's constructor says no, noexcept"); }();
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
    } else if (how == "exit0") {
        std::exit(0);
    } else if (how == "abort") {
        std::abort();
#ifndef _WIN32
    } else if (how == "_exit0") {
        ::_exit(0);
    } else if (how == "quick_exit0") {
        std::quick_exit(0);
#endif
    }
    return true;
}();

void nothing_repeat(const Sink&, std::string_view, std::uint64_t) {}

const MethodRegistrar registrar{{.family = "zz_plugin_misbehaves"}, {
    {.name = "zz_misbehaves", .description = "a method of a plugin whose constructor misbehaves (tests)",
     .put_repeat = nothing_repeat},
}};

}  // namespace
}  // namespace iobench
