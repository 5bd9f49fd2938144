// IOBENCH_API marks the functions of the method API (iobench/method.hpp,
// iobench/error.hpp) that live in the iobench executable, so that a plugin
// (docs/plugins.md) can call them in the executable that loads it.
//
// - ELF (Linux): default visibility; the executable exports its symbols
//   (CMake ENABLE_EXPORTS), and a plugin's calls bind to them at load time.
// - Windows: exported by the executable (dllexport: an export table and an
//   import library beside iobench.exe), imported by a plugin (dllimport),
//   which links that import library.
#pragma once

#if defined(_WIN32)
#if defined(IOBENCH_PLUGIN)
#define IOBENCH_API __declspec(dllimport)
#else
#define IOBENCH_API __declspec(dllexport)
#endif
/// What a plugin exports to iobench: its two entry points (iobench/plugin.hpp).
#define IOBENCH_PLUGIN_EXPORT __declspec(dllexport)
/// Private to a plugin.
#define IOBENCH_PLUGIN_LOCAL
#elif defined(__GNUC__)
#define IOBENCH_API __attribute__((visibility("default")))
#define IOBENCH_PLUGIN_EXPORT __attribute__((visibility("default")))
#define IOBENCH_PLUGIN_LOCAL __attribute__((visibility("hidden")))
#else
#define IOBENCH_API
#define IOBENCH_PLUGIN_EXPORT
#define IOBENCH_PLUGIN_LOCAL
#endif

#define IOBENCH_STRINGIFY_(x) #x
/// The value of macro `x` as a string literal: IOBENCH_STRINGIFY(SPDLOG_VER_MAJOR) is "1".
#define IOBENCH_STRINGIFY(x) IOBENCH_STRINGIFY_(x)
