# Dependencies: the installed package first (find_package), otherwise
# downloaded and built with FetchContent (FIND_PACKAGE_ARGS, CMake >= 3.24).
# tools/install-deps.sh installs all of them on Debian/Ubuntu.
include(FetchContent)

set(BENCHMARK_ENABLE_TESTING OFF CACHE BOOL "" FORCE)
set(BENCHMARK_ENABLE_GTEST_TESTS OFF CACHE BOOL "" FORCE)
set(BENCHMARK_ENABLE_WERROR OFF CACHE BOOL "" FORCE)  # a newer compiler's warning must not stop the build
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
  # No CMakeLists.txt at its top: MakeAvailable only populates it.
  FetchContent_MakeAvailable(xxhash)
  set(IOBENCH_XXHASH_INCLUDE_DIR ${xxhash_SOURCE_DIR})
endif()
add_library(iobench_xxhash INTERFACE)
add_library(iobench::xxhash ALIAS iobench_xxhash)
target_include_directories(iobench_xxhash SYSTEM INTERFACE ${IOBENCH_XXHASH_INCLUDE_DIR})

# Dragonbox (the shortest round-trip digits of a double, for obuf's
# put_double) is used header-only (dragonbox/dragonbox.h): Debian's
# libdragonbox-dev puts it under include/dragonbox-<version>/.
find_package(dragonbox 1.1 QUIET CONFIG)
if(TARGET dragonbox::dragonbox)
  get_target_property(IOBENCH_DRAGONBOX_INCLUDE_DIR dragonbox::dragonbox INTERFACE_INCLUDE_DIRECTORIES)
else()
  find_path(IOBENCH_DRAGONBOX_INCLUDE_DIR dragonbox/dragonbox.h)
endif()
if(NOT IOBENCH_DRAGONBOX_INCLUDE_DIR)
  FetchContent_Declare(dragonbox
    GIT_REPOSITORY https://github.com/jk-jeon/dragonbox.git
    GIT_TAG 1.1.3
    SOURCE_SUBDIR include)  # no CMakeLists.txt there: MakeAvailable only populates it
  FetchContent_MakeAvailable(dragonbox)
  set(IOBENCH_DRAGONBOX_INCLUDE_DIR ${dragonbox_SOURCE_DIR}/include)
endif()
add_library(iobench_dragonbox INTERFACE)
add_library(iobench::dragonbox ALIAS iobench_dragonbox)
target_include_directories(iobench_dragonbox SYSTEM INTERFACE ${IOBENCH_DRAGONBOX_INCLUDE_DIR})

# System libraries of the core: on Windows GetProcessMemoryInfo (psapi,
# core/os/os_counters.cpp) and the SHA-256 of a loaded plugin (bcrypt, Windows'
# own CNG: core/plugins/plugins.cpp); elsewhere that SHA-256 comes from OpenSSL's
# libcrypto, and loading a plugin from libdl (part of the C library since glibc 2.34).
if(WIN32)
  set(IOBENCH_CORE_SYSTEM_LIBRARIES psapi bcrypt)
else()
  find_package(OpenSSL 1.1 REQUIRED COMPONENTS Crypto)
  # Installed, the core names libcrypto by the path of the shared library
  # itself (libcrypto.so.3, the run-time package), so that a project built
  # against the installed iobench needs no OpenSSL of its own: the hash is
  # iobench's business, and find_package(iobench) does not look for OpenSSL.
  set(_iobench_crypto "${OPENSSL_CRYPTO_LIBRARY}")
  if(EXISTS "${_iobench_crypto}")
    file(REAL_PATH "${_iobench_crypto}" _iobench_crypto)
  endif()
  set(IOBENCH_CORE_SYSTEM_LIBRARIES "$<BUILD_INTERFACE:OpenSSL::Crypto>" "$<INSTALL_INTERFACE:${_iobench_crypto}>"
      ${CMAKE_DL_LIBS})
endif()

if(benchmark_VERSION)
  set(IOBENCH_BENCHMARK_VERSION ${benchmark_VERSION})
else()
  set(IOBENCH_BENCHMARK_VERSION "1.8.3 (fetched)")
endif()

# --- what the method families need beyond the core -------------------------
# IOBENCH_METHOD_DEFINITIONS / IOBENCH_METHOD_LIBRARIES go to iobench_methods.
# A method whose library or call is missing is still registered, as
# unavailable with the reason (see docs/adding-a-method.md), and what is
# missing is added to IOBENCH_METHODS_MISSING: docs/methods.md is checked
# against a build that lacks nothing (tests/CMakeLists.txt).
set(IOBENCH_METHOD_DEFINITIONS "")
set(IOBENCH_METHOD_LIBRARIES "")
set(IOBENCH_METHODS_MISSING "")

# The GNU stdio calls without the stream lock (glibc, some BSDs).
include(CheckCXXSymbolExists)
set(CMAKE_REQUIRED_FLAGS "${CMAKE_CXX20_STANDARD_COMPILE_OPTION}")  # as iobench's targets compile
check_cxx_symbol_exists(fwrite_unlocked "cstdio" IOBENCH_HAVE_FWRITE_UNLOCKED)
check_cxx_symbol_exists(fputs_unlocked "cstdio" IOBENCH_HAVE_FPUTS_UNLOCKED)
unset(CMAKE_REQUIRED_FLAGS)
foreach(_symbol FWRITE_UNLOCKED FPUTS_UNLOCKED)
  if(IOBENCH_HAVE_${_symbol})
    list(APPEND IOBENCH_METHOD_DEFINITIONS IOBENCH_HAVE_${_symbol})
  else()
    string(TOLOWER ${_symbol} _call)
    list(APPEND IOBENCH_METHODS_MISSING ${_call})
  endif()
endforeach()

# Boost.Iostreams for the boost family: optional, never fetched (it is large).
option(IOBENCH_WITH_BOOST "Build the boost method family when Boost.Iostreams is installed" ON)
if(IOBENCH_WITH_BOOST)
  if(POLICY CMP0167)
    cmake_policy(SET CMP0167 NEW)  # Boost's own BoostConfig.cmake, not CMake's FindBoost
  endif()
  find_package(Boost 1.70 QUIET CONFIG COMPONENTS iostreams)
endif()
if(Boost_iostreams_FOUND OR TARGET Boost::iostreams)
  list(APPEND IOBENCH_METHOD_DEFINITIONS IOBENCH_HAVE_BOOST_IOSTREAMS)
  list(APPEND IOBENCH_METHOD_LIBRARIES Boost::iostreams)
  message(STATUS "iobench: Boost.Iostreams ${Boost_VERSION}: the boost methods are built")
else()
  list(APPEND IOBENCH_METHODS_MISSING Boost.Iostreams)
  message(STATUS "iobench: Boost.Iostreams not found (or IOBENCH_WITH_BOOST=OFF): the boost methods are listed as skipped")
endif()

# liburing for the io_uring family: Linux only, optional, never fetched.
option(IOBENCH_WITH_LIBURING "Build the io_uring method family when liburing is installed" ON)
if(IOBENCH_WITH_LIBURING AND CMAKE_SYSTEM_NAME STREQUAL "Linux")
  find_package(PkgConfig QUIET)
  if(PkgConfig_FOUND)
    pkg_check_modules(LIBURING QUIET IMPORTED_TARGET liburing)
  endif()
endif()
if(LIBURING_FOUND)
  list(APPEND IOBENCH_METHOD_DEFINITIONS IOBENCH_HAVE_LIBURING)
  list(APPEND IOBENCH_METHOD_LIBRARIES PkgConfig::LIBURING)
  message(STATUS "iobench: liburing ${LIBURING_VERSION}: the io_uring methods are built")
else()
  list(APPEND IOBENCH_METHODS_MISSING liburing)
  message(STATUS "iobench: liburing not found (or not Linux, or IOBENCH_WITH_LIBURING=OFF): the io_uring methods are listed as skipped")
endif()

# fast_float (https://github.com/fastfloat/fast_float), header-only, for
# ibuf's get_double (methods/ibuf.hpp): optional, never fetched; without it
# ibuf parses doubles with std::from_chars (and its description says so).
# Sets IOBENCH_FAST_FLOAT_FOUND; CMakeLists.txt gives the definition to every
# file that includes methods/ibuf.hpp.
option(IOBENCH_WITH_FAST_FLOAT "Parse ibuf's doubles with fast_float when it is installed" ON)
set(IOBENCH_FAST_FLOAT_FOUND OFF)
if(IOBENCH_WITH_FAST_FLOAT)
  find_package(FastFloat QUIET CONFIG)
endif()
if(TARGET FastFloat::fast_float)
  set(IOBENCH_FAST_FLOAT_FOUND ON)
  message(STATUS "iobench: fast_float ${FastFloat_VERSION}: ibuf parses doubles with fast_float::from_chars")
else()
  list(APPEND IOBENCH_METHODS_MISSING fast_float)
  message(STATUS "iobench: fast_float not found (or IOBENCH_WITH_FAST_FLOAT=OFF): ibuf parses doubles with std::from_chars")
endif()

# fast_io for the fast_io family: optional, pinned, header-only.
include(IobenchPinnedSources)
include(IobenchFastIo)

# Żmij for obuf's doubles: optional, pinned; Dragonbox where it is missing.
include(IobenchZmij)
