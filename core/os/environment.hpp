// What the results need so they can be compared across machines, compilers and
// operating systems (rule 5 of docs/design.md), recorded by iobench itself rather
// than trusted from Google Benchmark's context.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace iobench {

/// Ordered (key, value) pairs for the JSON context: compiler, standard
/// library, build type and flags, OS and kernel, CPU model, target directory
/// and its file system (filesystem_type, iobench/error.hpp), page size, BUFSIZ,
/// iobench version and git commit.
std::vector<std::pair<std::string, std::string>> describe_environment(const std::filesystem::path& dir);

/// The version of wine this Windows program runs under ("8.0"), from the
/// `wine_get_version` export of wine's ntdll.dll, which Windows' own ntdll
/// does not have; "" on Windows itself and on every other platform. Under
/// wine some Windows calls succeed without doing what they do on Windows
/// (the I/O counters stay 0, a standby-list purge is a stub): callers say so
/// instead of reporting what did not happen.
std::string wine_version();

/// The running executable's full path ("" when it cannot be told): on Linux
/// /proc/self/exe (under qemu-user the program, not qemu), on Windows
/// GetModuleFileNameW of the process's module. What iobench finds beside
/// itself (plugins/, binsize/, language programs) is found from it.
std::filesystem::path executable_path();

/// Short compiler name for result file names: "gcc", "clang", "msvc", "mingw-gcc", ...
std::string compiler_short_name();

/// Base name of a results file: "<compiler>-<version>[-aarch64]-<suite>[-plugin]-<YYYY-MM-DD>",
/// e.g. "gcc-12.2.0-default-2026-11-21", "-aarch64" in an ARM64 build, "-plugin" when a plugin was loaded.
/// The suite's name keeps letters, digits, '.', '_' and '-' ('_' for others).
std::string results_basename(std::string_view suite, bool with_plugin);

}  // namespace iobench
