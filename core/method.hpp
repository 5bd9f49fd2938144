// The method model: one I/O method is a set of plain function pointers, one per
// operation it can perform. A method family (methods/*.cpp) registers its methods
// from a static initializer; the runner pairs each workload with every method
// that provides the operation the workload needs.
//
// Rule 1 of DESIGN.md: the runner calls an operation once per measured run, and
// the operation owns its loop over items, so no indirection happens per item.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace iobench {

/// Where an output operation writes: a regular file it must create (or
/// truncate), fill and close within the call.
struct Sink {
    std::string path;         ///< file to create; its directory exists
    std::size_t buffer_size;  ///< user-space buffer in bytes; 0 = the method's default
};

/// Where an input operation reads from: an existing regular file it opens,
/// reads to the end and closes within the call.
struct Source {
    std::string path;         ///< file to read
    std::size_t buffer_size;  ///< user-space buffer in bytes; 0 = the method's default
};

/// Writes the integers 0 .. count-1 in decimal, each followed by '\n'.
/// Throws `io_error` when a call fails (open, write, close: a full disk, say).
using PutInts = void (*)(const Sink& sink, std::uint64_t count);

/// Writes `line` `count` times (the line carries its own '\n').
/// Throws `io_error` when a call fails.
using PutRepeat = void (*)(const Sink& sink, std::string_view line, std::uint64_t count);

/// Reads every white-space separated decimal integer of the file, appending
/// each to `values` (which arrives empty, with capacity for the expected count
/// reserved, so every method pays the same for the vector). Throws `io_error`
/// or `parse_error`.
using GetInts = void (*)(const Source& source, std::vector<std::uint64_t>& values);

/// One I/O method: the function a user calls, and the operations it implements.
/// Operations it lacks stay null; the runner does not pair it with workloads
/// that need them.
struct Method {
    std::string name{};       ///< benchmark-name part: the call a user makes ("fprintf", "write", "obuf")
    std::string family{};     ///< the file in methods/ that registers it ("stdio", "posix", ...)
    std::string description{};  ///< one line for --list and the docs
    /// Default user-space buffer in bytes when the method has one it can size
    /// (0 = unbuffered, or a buffer the method cannot size).
    std::size_t default_buffer_size = 0;
    /// True when the method honours `Sink::buffer_size` / `Source::buffer_size`,
    /// so a suite may sweep it as the `buf` parameter.
    bool sizable_buffer = false;
    /// Why the method cannot run on this build ("not in this C library", ...);
    /// empty when it can. An unavailable method is listed as skipped, never hidden.
    std::string unavailable{};

    PutInts put_ints = nullptr;
    PutRepeat put_repeat = nullptr;
    GetInts get_ints = nullptr;
};

/// Adds a method to the registry. Throws `std::logic_error` when a method of the
/// same name is already registered (two families must not claim one name).
void register_method(Method method);

/// Every registered method, in registration order by family then name.
const std::vector<Method>& methods();

/// The method called `name`, or nullptr.
const Method* find_method(std::string_view name);

/// Stand-ins for the operations of a method that is not built on this
/// platform or configuration (registered with `Method::unavailable` set, so it
/// is listed as skipped with its reason and paired with the right workloads).
/// The runner never calls them; if something does, they throw `std::logic_error`.
namespace not_built {
void put_ints(const Sink& sink, std::uint64_t count);
void put_repeat(const Sink& sink, std::string_view line, std::uint64_t count);
void get_ints(const Source& source, std::vector<std::uint64_t>& values);
}  // namespace not_built

/// Registers methods from a static initializer:
/// `const iobench::MethodRegistrar registrar{{ {.name = "fprintf", ...}, ... }};`
struct MethodRegistrar {
    MethodRegistrar(std::initializer_list<Method> list) {
        for (const Method& m : list) register_method(m);
    }
};

}  // namespace iobench
