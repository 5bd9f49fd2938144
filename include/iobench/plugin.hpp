// Run-time plugins (docs/plugins.md): a method file built with CMake's
// iobench_add_plugin() into a shared library that `iobench --plugin PATH`
// loads. Included at the end of iobench/method.hpp (it needs Method and
// FamilyDefaults); a method file never includes it itself.
//
// A plugin shares the executable's C++ ABI, so it must be built as iobench
// was. What crosses between the two as C++ objects: Method (and the Calls and
// ProgramCommand it holds), plugin::Family and LinesWorkload (read from the
// entry points), and the arguments and results of the operations and calls
// (Sink, Source, StdoutSink, NumberedLine, LogRecord, Field, FieldsRecord,
// RecordFields, ReadResult), with the
// std::string and std::vector inside them. Nothing of C++ crosses before
// iobench has checked that:
//   1. While the library loads, each MethodRegistrar of the plugin only keeps
//      its family inside the plugin (plugin::Registrar, defined in
//      core/plugins/plugin_entry.cpp, which iobench_add_plugin compiles into every
//      plugin). It calls nothing in iobench and throws nothing: an error is
//      kept with the family.
//   2. iobench reads the plugin's build identity, a C struct of plain strings
//      and the layout of each structure above (iobench_plugin_identity), and
//      refuses the plugin unless it equals its own (build_identity(), in
//      iobench/detail_identity.hpp).
//   3. Only then it reads the kept families (iobench_plugin_families) and
//      copies them into its registry, refusing a method or family name it
//      already has.
#pragma once

#include <cstddef>  // offsetof
#include <initializer_list>
#include <string>
#include <vector>
#include <version>  // the standard library's identifying macros

#include <iobench/api.hpp>
#include <iobench/version.hpp>

#ifndef IOBENCH_METHOD_HPP
#error "iobench/plugin.hpp is included by iobench/method.hpp only"
#endif


extern "C" {
/// The layout of one structure that crosses between a plugin and iobench, as
/// the side that filled it was compiled: plain C.
struct iobench_type_layout {
    const char* name;          ///< the structure's name: "Method", "Calls", "LinesWorkload", ...
    unsigned size;             ///< sizeof, in bytes
    unsigned align;            ///< alignof, in bytes
    unsigned long long hash;   ///< FNV-1a (64 bits) of each member's offset, size and alignment, in order
};

/// What a translation unit was built with, as plain C strings: what a plugin
/// and the executable that loads it must agree on. Every member is compared.
/// The first two never change, whatever API version comes: any iobench reads
/// `size` and, when `size` covers it, `api_version` of any plugin, and names
/// the version of one it refuses; the rest is read only when both are equal.
struct iobench_build_identity {
    unsigned size;                 ///< sizeof(iobench_build_identity) on the side that filled it, in bytes
    int api_version;               ///< IOBENCH_API_VERSION
    int operations;                ///< number of operations of Method (IOBENCH_OPERATIONS)
    unsigned method_size;          ///< sizeof(iobench::Method), in bytes
    const char* compiler;          ///< "GNU 12.2.0", "Clang 14.0.6", "MSVC 194435217"
    const char* standard_library;  ///< "libstdc++ 20230528, C++11 ABI", "MSVC STL 143, /MT, _ITERATOR_DEBUG_LEVEL 0"
    const char* build_type;        ///< CMake's build type: "Release", "Debug", ..., "none"
    /// Every structure that crosses the boundary (passed to or returned by a
    /// plugin's functions, or read from what its entry points return), in a
    /// fixed order: `layout_count` of them. A plugin whose layouts are not
    /// iobench's is refused naming the first that differs and both its sizes.
    unsigned layout_count;
    const iobench_type_layout* layouts;  ///< `layout_count` layouts
};
}

namespace iobench {

/// The bytes of iobench_build_identity every version has (`size`, `api_version`).
inline constexpr unsigned identity_version_prefix = 2 * sizeof(int);
static_assert(offsetof(iobench_build_identity, api_version) + sizeof(int) == identity_version_prefix);

namespace plugin {

/// One registrar's family as a plugin keeps it until iobench asks for it.
struct Family {
    std::string family;              ///< FamilyDefaults::family
    std::string unavailable;         ///< FamilyDefaults::unavailable
    std::vector<Method> methods;     ///< the registrar's entries, as given
    std::string error;               ///< what went wrong while keeping them; empty when nothing did
};

/// The MethodRegistrar of a method file built into a plugin (IOBENCH_PLUGIN
/// defined, by iobench_add_plugin): keeps the family in the plugin
/// (core/plugins/plugin_entry.cpp). Never throws, never calls into iobench.
struct IOBENCH_PLUGIN_LOCAL Registrar {
    Registrar(const FamilyDefaults& defaults, std::initializer_list<Method> list) noexcept;
};

/// Name of the plugin's entry point returning its build identity
/// (`const iobench_build_identity* iobench_plugin_identity(void)`).
inline constexpr const char identity_symbol[] = "iobench_plugin_identity";
/// Name of the plugin's entry point returning the families its registrars
/// kept (`const std::vector<iobench::plugin::Family>* iobench_plugin_families(void)`);
/// called only once the identities are equal.
inline constexpr const char families_symbol[] = "iobench_plugin_families";

/// Type of the entry point `identity_symbol`.
using IdentityFn = const iobench_build_identity* (*)();
/// Type of the entry point `families_symbol`.
using FamiliesFn = const std::vector<Family>* (*)();

}  // namespace plugin
}  // namespace iobench
