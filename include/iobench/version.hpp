// iobench's version and its binary API's number: written here once. CMake
// reads them from this file (project(iobench VERSION ...), the package's
// version file), and so does the iobench-compare Python package
// (tools/iobench_compare/__init__.py), whose version is iobench's.
#pragma once

/// The major version of iobench's package (find_package(iobench 1)): a method
/// file that compiles against one release of it compiles against every later
/// release of the same major version.
#define IOBENCH_VERSION_MAJOR 1
/// The minor version: raised by a release that adds to the API.
#define IOBENCH_VERSION_MINOR 0
/// The patch version: raised by a release that fixes without adding.
#define IOBENCH_VERSION_PATCH 0

/// The binary API's version: the structures that cross between a plugin and
/// iobench (iobench/plugin.hpp lists them), the operations' types and the
/// plugin entry points as iobench/method.hpp and iobench/plugin.hpp declare
/// them. Raised whenever any of them changes (an operation added too): a
/// plugin is loaded only by an iobench of the same number, and one of another
/// number is refused with a line naming both (docs/plugins.md, "The API and
/// its versions").
#define IOBENCH_API_VERSION 8
