# Building for 64-bit Windows with Microsoft's own compiler, cl.exe 19.44 of
# the MSVC toolset 14.44 and the Windows SDK 10.0.26100, run under wine on
# Linux (ci/install-msvc.sh unpacks them; docs/windows.md). The compiler,
# linker, librarian and resource compiler are the wrappers in msvc-wine/,
# which run the .exe under wine and translate paths both ways, so that Ninja
# and CMake see a compiler that takes and prints Linux paths (and Ninja's
# /showIncludes dependency tracking works). The manifest tool is LLVM's
# llvm-mt: the SDK's mt.exe fails under wine.
#
# The toolset is IOBENCH_MSVC_ROOT (environment, at configure and build time)
# or build/deps/msvc of this source tree. Libraries built by this compiler
# (Google Benchmark, GoogleTest, {fmt}: ci/build-windows-deps.sh msvc) and
# the header-only ones are looked up only in IOBENCH_MSVC_DEPS.
#
# The C runtime is linked statically (/MT): wine brings its own
# msvcp140.dll/vcruntime140.dll, older than what the 14.44 STL calls, and a
# static runtime makes each .exe carry the toolset's own (and run on Windows
# without the redistributable). Debug information is embedded in the objects
# (/Z7): /Zi's PDB server (mspdbsrv) fails under wine (C1902).

set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR AMD64)

set(_iobench_msvc_wrappers ${CMAKE_CURRENT_LIST_DIR}/msvc-wine)
if(DEFINED ENV{IOBENCH_MSVC_ROOT})
  set(_iobench_msvc_root $ENV{IOBENCH_MSVC_ROOT})
else()
  get_filename_component(_iobench_msvc_root ${CMAKE_CURRENT_LIST_DIR}/../../build/deps/msvc ABSOLUTE)
endif()
if(NOT EXISTS ${_iobench_msvc_root}/toolset/VC/Tools/MSVC)
  message(FATAL_ERROR "No MSVC toolset in ${_iobench_msvc_root}/toolset: run ci/install-msvc.sh (or set IOBENCH_MSVC_ROOT)")
endif()

set(CMAKE_C_COMPILER ${_iobench_msvc_wrappers}/cl)
set(CMAKE_CXX_COMPILER ${_iobench_msvc_wrappers}/cl)
set(CMAKE_LINKER ${_iobench_msvc_wrappers}/link CACHE FILEPATH "link.exe under wine")
set(CMAKE_AR ${_iobench_msvc_wrappers}/lib CACHE FILEPATH "lib.exe under wine")
set(CMAKE_RC_COMPILER ${_iobench_msvc_wrappers}/rc)
set(CMAKE_MT ${_iobench_msvc_wrappers}/mt CACHE FILEPATH "llvm-mt")

# Also for the dependencies' projects (ci/build-windows-deps.sh), whatever
# their cmake_minimum_required says.
set(CMAKE_POLICY_DEFAULT_CMP0091 NEW)
set(CMAKE_POLICY_DEFAULT_CMP0141 NEW)
set(CMAKE_MSVC_RUNTIME_LIBRARY "MultiThreaded$<$<CONFIG:Debug>:Debug>")
set(CMAKE_MSVC_DEBUG_INFORMATION_FORMAT Embedded)

set(IOBENCH_MSVC_DEPS "" CACHE PATH
  "Prefix holding Google Benchmark, GoogleTest, fmt, nlohmann_json, CLI11 and xxHash built for MSVC (ci/build-windows-deps.sh msvc)")
set(CMAKE_FIND_ROOT_PATH ${IOBENCH_MSVC_DEPS})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# ctest, test discovery and the main job run the .exe files under wine.
include(${CMAKE_CURRENT_LIST_DIR}/wine-emulator.cmake)
