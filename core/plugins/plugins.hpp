// Loading run-time plugins (`iobench --plugin PATH`, docs/plugins.md): shared
// libraries built from method files with CMake's iobench_add_plugin(), whose
// families join the registry before the command line is parsed further.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace iobench {

/// A plugin loaded into this process: what the results' context records of it.
struct LoadedPlugin {
    std::string path;                   ///< absolute path of the file loaded, every link resolved
    std::string owner;                  ///< the user owning it ("root"; "" on Windows, where it is not read)
    std::string sha256;                 ///< SHA-256 of that file, 64 lowercase hex digits
    std::string built_with;             ///< its build identity: compiler, standard library, build type, API
    std::vector<std::string> families;  ///< the families it registered, in its registrars' order
    std::vector<std::string> methods;   ///< their methods, in registration order
    /// Each method's description (Method::description), in the order of
    /// `methods`: where a logger's plugin names its library and version.
    std::vector<std::string> descriptions;
    std::vector<std::string> workloads;  ///< the workloads it registered (iobench/workload.hpp)
};

/// Loads the plugin at `path` and registers its families (iobench/plugin.hpp
/// says in which order, and why nothing of C++ crosses before its build is
/// checked). Throws usage_error (exit 2) with one line naming the path, and
/// registers nothing, when: the path is not a regular file (missing, a
/// directory, a FIFO or device, which is never opened in a way that could
/// block); another user than the caller and root could change it or a
/// directory above it (TrustedFile; not read on Windows); it is the same file as a plugin loaded before; it is not a shared
/// library this system can load; it has no iobench entry points (not built
/// with iobench_add_plugin); it was built with another compiler, standard
/// library, build type or method API than this iobench (both named); it
/// registers no family; a registrar failed; or a method or family name is
/// taken already (by iobench or an earlier plugin). A plugin is never
/// unloaded: its methods' functions live in it.
LoadedPlugin load_plugin(const std::filesystem::path& path);

/// What `plugin` registered, for a line naming it: its families, then its
/// workloads ("example", "workload example_log", "example; workloads a, b").
std::string registered_text(const LoadedPlugin& plugin);

/// Every plugin loaded so far, in loading order.
const std::vector<LoadedPlugin>& loaded_plugins();

/// The values of every `--plugin PATH` and `--plugin=PATH` in `args` (the
/// arguments after the program's name), in order, so that the plugins can be
/// loaded before the command line is parsed. Throws usage_error for a
/// `--plugin` without a value (last, or followed by another option's "--").
std::vector<std::string> plugin_arguments(const std::vector<std::string>& args);

/// The build identity of this executable, as `load_plugin` compares it:
/// "GNU 12.2.0, libstdc++ 20230528, C++11 ABI, Release, iobench API 1 (13
/// operations, Method of 456 bytes)".
std::string build_identity_text();

}  // namespace iobench
