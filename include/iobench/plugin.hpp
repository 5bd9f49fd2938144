// Run-time plugins (docs/plugins.md): a method file built with CMake's
// iobench_add_plugin() into a shared library that `iobench --plugin PATH`
// loads. Included at the end of iobench/method.hpp (it needs Method and
// FamilyDefaults); a method file never includes it itself.
//
// A plugin shares the executable's C++ ABI (std::string, std::vector and
// Method cross between the two), so it must be built as iobench was. Nothing
// of C++ crosses before iobench has checked that:
//   1. While the library loads, each MethodRegistrar of the plugin only keeps
//      its family inside the plugin (plugin::Registrar, defined in
//      core/plugins/plugin_entry.cpp, which iobench_add_plugin compiles into every
//      plugin). It calls nothing in iobench and throws nothing: an error is
//      kept with the family.
//   2. iobench reads the plugin's build identity, a C struct of plain strings
//      (iobench_plugin_identity), and refuses the plugin unless it equals its
//      own (build_identity()).
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

#ifndef IOBENCH_METHOD_HPP
#error "iobench/plugin.hpp is included by iobench/method.hpp only"
#endif

/// The binary API's version: Method, Sink, Source, the operations' types and
/// the plugin entry points as iobench/method.hpp and this file declare them.
/// Raised whenever any of them changes (an operation added too): a plugin is
/// loaded only by an iobench of the same number, and one of another number is
/// refused with a line naming both (docs/plugins.md, "The API and its versions").
#define IOBENCH_API_VERSION 4
/// The major version of iobench's package (find_package(iobench 1)): a method
/// file that compiles against one release of it compiles against every later
/// release of the same major version.
#define IOBENCH_VERSION_MAJOR 1

#define IOBENCH_STRINGIFY_(x) #x
/// The value of macro `x` as a string literal.
#define IOBENCH_STRINGIFY(x) IOBENCH_STRINGIFY_(x)

extern "C" {
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
};
}

namespace iobench {

/// The bytes of iobench_build_identity every version has (`size`, `api_version`).
inline constexpr unsigned identity_version_prefix = 2 * sizeof(int);
static_assert(offsetof(iobench_build_identity, api_version) + sizeof(int) == identity_version_prefix);

/// The compiler, as its own macros name it.
#if defined(__clang__)
#define IOBENCH_COMPILER_IDENTITY                                                                  \
    "Clang " IOBENCH_STRINGIFY(__clang_major__) "." IOBENCH_STRINGIFY(__clang_minor__) "." IOBENCH_STRINGIFY( \
        __clang_patchlevel__)
#elif defined(__GNUC__) && defined(__MINGW64__)
#define IOBENCH_COMPILER_IDENTITY "GNU " __VERSION__ " (MinGW-w64)"
#elif defined(__GNUC__)
#define IOBENCH_COMPILER_IDENTITY "GNU " __VERSION__
#elif defined(_MSC_VER)
#define IOBENCH_COMPILER_IDENTITY "MSVC " IOBENCH_STRINGIFY(_MSC_FULL_VER)
#else
#define IOBENCH_COMPILER_IDENTITY "unknown"
#endif

/// The C++ standard library and the settings that change its ABI.
#if defined(_LIBCPP_VERSION)
#define IOBENCH_STDLIB_IDENTITY "libc++ " IOBENCH_STRINGIFY(_LIBCPP_VERSION) ", ABI " IOBENCH_STRINGIFY(_LIBCPP_ABI_VERSION)
#elif defined(__GLIBCXX__)
#if defined(_GLIBCXX_DEBUG)
#define IOBENCH_STDLIB_DEBUG ", debug mode"
#else
#define IOBENCH_STDLIB_DEBUG ""
#endif
#if _GLIBCXX_USE_CXX11_ABI
#define IOBENCH_STDLIB_IDENTITY "libstdc++ " IOBENCH_STRINGIFY(__GLIBCXX__) ", C++11 ABI" IOBENCH_STDLIB_DEBUG
#else
#define IOBENCH_STDLIB_IDENTITY "libstdc++ " IOBENCH_STRINGIFY(__GLIBCXX__) ", old ABI" IOBENCH_STDLIB_DEBUG
#endif
#elif defined(_MSVC_STL_UPDATE)
#if defined(_DLL) && defined(_DEBUG)
#define IOBENCH_MSVC_RUNTIME "/MDd"
#elif defined(_DLL)
#define IOBENCH_MSVC_RUNTIME "/MD"
#elif defined(_DEBUG)
#define IOBENCH_MSVC_RUNTIME "/MTd"
#else
#define IOBENCH_MSVC_RUNTIME "/MT"
#endif
#define IOBENCH_STDLIB_IDENTITY                                                                           \
    "MSVC STL " IOBENCH_STRINGIFY(_MSVC_STL_UPDATE) ", " IOBENCH_MSVC_RUNTIME ", _ITERATOR_DEBUG_LEVEL " \
        IOBENCH_STRINGIFY(_ITERATOR_DEBUG_LEVEL)
#else
#define IOBENCH_STDLIB_IDENTITY "unknown"
#endif

#if defined(IOBENCH_BUILD_TYPE)
#define IOBENCH_BUILD_TYPE_IDENTITY IOBENCH_BUILD_TYPE
#else
#define IOBENCH_BUILD_TYPE_IDENTITY "unknown"
#endif

/// The build identity of the translation unit that calls it: in iobench,
/// iobench's own; in a plugin (core/plugins/plugin_entry.cpp), the plugin's. Build
/// type from IOBENCH_BUILD_TYPE, which CMake defines for both.
inline iobench_build_identity build_identity() {
    return {sizeof(iobench_build_identity), IOBENCH_API_VERSION, operation_count,
            static_cast<unsigned>(sizeof(Method)), IOBENCH_COMPILER_IDENTITY, IOBENCH_STDLIB_IDENTITY,
            IOBENCH_BUILD_TYPE_IDENTITY};
}

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
