// What the command line says and how it ends: its exit statuses, its notes on
// stderr, standard output written and checked, a directory checked before a
// run writes into it.
#pragma once

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <utility>

namespace iobench::app {

/// Exit status of a run with a failed benchmark, or results or standard
/// output that could not be written (app/main.cpp's header says all).
inline constexpr int exit_failed = 1;
/// Exit status of bad input: an unknown flag, a bad value, a bad suite.
inline constexpr int exit_usage = 2;

/// Prints a diagnostic on stderr, flushed. A stderr that cannot be written
/// (closed, /dev/full, a full disk) loses the text and nothing else: the
/// exit status stays the one the run earned (fmt::print would throw).
template <class... Args>
void note(fmt::format_string<Args...> format, Args&&... args) noexcept {
    try {
        const std::string text = fmt::format(format, std::forward<Args>(args)...);
        std::fwrite(text.data(), 1, text.size(), stderr);
        std::fflush(stderr);
    } catch (...) {
    }
}

/// Throws usage_error ("--dir X: no such directory", "...: not a directory",
/// "...: cannot create files there: <why>") unless `dir` is an existing
/// directory we can create files in; `option` names where it was given.
/// Notes on stderr a directory that other users can write to too.
void check_writable_dir(const std::filesystem::path& dir, const char* option);

/// Prints `text` to standard output: exit status 0, or exit_failed (with
/// the reason on stderr) when it could not be written.
int print_or_fail(const std::string& text);

}  // namespace iobench::app
