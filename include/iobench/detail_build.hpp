// Not part of iobench's API (docs/plugins.md, "The API and its versions"):
// what iobench/method.hpp needs to register a family where it is built
// (iobench's own tree, a user's executable) and to name a compiler. A method
// file never includes it and never names anything in it: it may change in any
// release. Included by iobench/method.hpp.
#pragma once

#include <initializer_list>
#include <string>

#include <iobench/api.hpp>

#ifndef IOBENCH_METHOD_HPP
#error "iobench/detail_build.hpp is included by iobench/method.hpp only"
#endif

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

namespace iobench {

/// The flags CMake gave every file of this executable, recorded by
/// iobench_add_executable (a generated source calls it at start-up):
/// CMAKE_CXX_FLAGS, those of the build type, and iobench's optimisation
/// flags where its package adds them; empty where it was not made that way.
/// Each -D definition and the optimisation level once, as the compiler
/// takes them (the last -O...): "-O2 -DNDEBUG", not "-O3 -DNDEBUG -O2 -DNDEBUG".
IOBENCH_API const std::string& added_build_flags();
/// Sets added_build_flags(); for iobench_add_executable's generated source.
IOBENCH_API void set_added_build_flags(const char* flags);

namespace registrars {
/// The registrar of iobench's own families (FamilyOrigin::own).
struct Own {
    IOBENCH_API Own(const FamilyDefaults& defaults, std::initializer_list<Method> list);
};
/// The registrar of a family built into an executable with
/// iobench_add_executable (FamilyOrigin::added). The inline constructor
/// records the compiler of the file it is in (added_family_builds).
struct Added {
    Added(const FamilyDefaults& defaults, std::initializer_list<Method> list)
        : Added(defaults, list, IOBENCH_COMPILER_IDENTITY, IOBENCH_STDLIB_IDENTITY, IOBENCH_BUILD_TYPE_IDENTITY) {}
    IOBENCH_API Added(const FamilyDefaults& defaults, std::initializer_list<Method> list, const char* compiler,
                      const char* standard_library, const char* build_type);
};
}  // namespace registrars

}  // namespace iobench
