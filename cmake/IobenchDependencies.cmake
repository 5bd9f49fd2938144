# Dependencies: the installed package first (find_package), otherwise
# downloaded and built with FetchContent (FIND_PACKAGE_ARGS, CMake >= 3.24).
# tools/install-deps.sh installs all of them on Debian/Ubuntu.
include(FetchContent)

set(BENCHMARK_ENABLE_TESTING OFF CACHE BOOL "" FORCE)
set(BENCHMARK_ENABLE_GTEST_TESTS OFF CACHE BOOL "" FORCE)
set(BENCHMARK_ENABLE_INSTALL OFF CACHE BOOL "" FORCE)
FetchContent_Declare(benchmark
  GIT_REPOSITORY https://github.com/google/benchmark.git
  GIT_TAG v1.8.3
  FIND_PACKAGE_ARGS 1.7)
FetchContent_Declare(fmt
  GIT_REPOSITORY https://github.com/fmtlib/fmt.git
  GIT_TAG 10.2.1
  FIND_PACKAGE_ARGS 9)
FetchContent_Declare(nlohmann_json
  URL https://github.com/nlohmann/json/releases/download/v3.11.3/json.tar.xz
  FIND_PACKAGE_ARGS 3.10)
FetchContent_Declare(CLI11
  GIT_REPOSITORY https://github.com/CLIUtils/CLI11.git
  GIT_TAG v2.4.1
  FIND_PACKAGE_ARGS 2.1)
FetchContent_MakeAvailable(benchmark fmt nlohmann_json CLI11)

# xxHash (verification checksums) is used header-only (XXH_INLINE_ALL).
find_path(IOBENCH_XXHASH_INCLUDE_DIR xxhash.h)
if(NOT IOBENCH_XXHASH_INCLUDE_DIR)
  FetchContent_Declare(xxhash
    GIT_REPOSITORY https://github.com/Cyan4973/xxHash.git
    GIT_TAG v0.8.2)
  FetchContent_Populate(xxhash)
  set(IOBENCH_XXHASH_INCLUDE_DIR ${xxhash_SOURCE_DIR})
endif()
add_library(iobench_xxhash INTERFACE)
add_library(iobench::xxhash ALIAS iobench_xxhash)
target_include_directories(iobench_xxhash SYSTEM INTERFACE ${IOBENCH_XXHASH_INCLUDE_DIR})

if(benchmark_VERSION)
  set(IOBENCH_BENCHMARK_VERSION ${benchmark_VERSION})
else()
  set(IOBENCH_BENCHMARK_VERSION "1.8.3 (fetched)")
endif()
