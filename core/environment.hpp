// What the results need so they can be compared across machines, compilers and
// operating systems (rule 5 of docs/design.md), recorded by iobench itself rather
// than trusted from Google Benchmark's context.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace iobench {

/// Ordered (key, value) pairs for the JSON context: compiler, standard
/// library, build type and flags, OS and kernel, CPU model, target directory
/// and its file system (filesystem_type, core/error.hpp), page size, BUFSIZ,
/// iobench version and git commit.
std::vector<std::pair<std::string, std::string>> describe_environment(const std::filesystem::path& dir);

/// Short compiler name for result file names: "gcc", "clang", "msvc", "mingw-gcc", ...
std::string compiler_short_name();

/// Base name of a results file: "<compiler>-<version>-<YYYY-MM-DD>", e.g. "gcc-12.2.0-2026-11-21".
std::string results_basename();

}  // namespace iobench
