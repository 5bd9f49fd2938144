// Workloads from outside (docs/plugins.md, "Your own workload"): your own
// lines, your own records, written by every method with a per-call shape
// (put_line: fprintf, write, ofstream, obuf, a logger of your own, ...) one
// call per line, from one thread or several, every call timed and every line
// checked as iobench's own workloads are. A workload file registers itself as a
// method file does, and builds the same three ways: in iobench's tree, into
// your executable (iobench_add_executable), into a plugin (iobench_add_plugin).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include <iobench/method.hpp>

namespace iobench {

/// A workload of lines that you give: line i is whatever `line(i, out)`
/// appends. Its rows are per-call rows (`<name>/<method>/threads:<n>`: each
/// line one put_line call of the method, Calls::put_line) and a `limit` row
/// (the same bytes, prepared in memory, written in 1 MiB system calls).
struct LinesWorkload {
    std::string name;         ///< benchmark-name part: letters, digits and "_.+-" (valid_name)
    std::string description;  ///< one line for --list
    std::string item_unit = "line";  ///< what one line is, singular ("record", "request"): the rows' item_unit
    std::uint64_t default_count = 0;  ///< lines at scale 1 (--scale multiplies it); at least 1
    /// Appends line `i` to `out` (0 <= i < count): not empty, ending with its
    /// only '\n', without a '\0', the same text for the same i on every call,
    /// thread and platform, and no two lines alike (a line names its item: a
    /// sequence number, a timestamp, as a log's records do). Called outside
    /// the measurement; may be called from several threads at once.
    void (*line)(std::uint64_t i, std::string& out) = nullptr;
};

/// Most lines a LinesWorkload may have at its scale (the check keeps an
/// index of 16 bytes a line while it reads the output back).
inline constexpr std::uint64_t max_lines_workload_count = 100'000'000;

namespace registrars {
/// Registers a LinesWorkload of this executable (iobench's own tree, or a
/// user's executable built with iobench_add_executable). A workload whose
/// name is not valid or taken, or that has no `line` or a count of 0, is not
/// registered: the error is kept in registration_errors(), and iobench
/// exits 2 saying it before anything runs.
struct Lines {
    IOBENCH_API explicit Lines(const LinesWorkload& workload);
};
}  // namespace registrars

namespace plugin {
/// The LinesRegistrar of a workload file built into a plugin: keeps the
/// workload in the plugin (core/plugins/plugin_entry.cpp) until iobench has
/// checked the plugin's identity. Never throws, never calls into iobench.
struct IOBENCH_PLUGIN_LOCAL Lines {
    explicit Lines(const LinesWorkload& workload) noexcept;
};
/// Name of the plugin's entry point returning the workloads its registrars
/// kept (`const std::vector<iobench::LinesWorkload>* iobench_plugin_workloads(void)`).
inline constexpr const char workloads_symbol[] = "iobench_plugin_workloads";
/// Type of the entry point `workloads_symbol`.
using WorkloadsFn = const std::vector<LinesWorkload>* (*)();
}  // namespace plugin

/// Registers a workload of lines from a static initializer:
/// `const iobench::LinesRegistrar registrar{{.name = "my_log", .description = "...", .default_count = 1'000'000, .line = my_line}};`
/// The same file builds in iobench's tree, into an executable of yours and
/// into a plugin (as MethodRegistrar does).
#if defined(IOBENCH_PLUGIN)
using LinesRegistrar = plugin::Lines;
#else
using LinesRegistrar = registrars::Lines;
#endif

}  // namespace iobench
