# Cross-compiling for 64-bit Windows with MinGW-w64 (Debian/Ubuntu package
# g++-mingw-w64-x86-64-posix: the POSIX-threads variant, which has std::thread
# through winpthreads). The executables are linked statically (libstdc++,
# libgcc, winpthreads), so they run under wine, or on Windows, without DLLs
# beside them, and CMAKE_CROSSCOMPILING_EMULATOR runs them under wine: ctest,
# gtest_discover_tests and the main job execute the Windows binaries here.
#
# Libraries built for MinGW (Google Benchmark, GoogleTest) and the header-only
# ones are looked up only in IOBENCH_MINGW_DEPS (ci/build-windows-deps.sh mingw fills
# it) and in the MinGW sysroot, never in the build machine's /usr.

set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)

set(IOBENCH_MINGW_TRIPLET x86_64-w64-mingw32)
set(CMAKE_C_COMPILER ${IOBENCH_MINGW_TRIPLET}-gcc-posix)
set(CMAKE_CXX_COMPILER ${IOBENCH_MINGW_TRIPLET}-g++-posix)
set(CMAKE_RC_COMPILER ${IOBENCH_MINGW_TRIPLET}-windres)
set(CMAKE_CXX_COMPILER_TARGET ${IOBENCH_MINGW_TRIPLET})

set(IOBENCH_MINGW_DEPS "" CACHE PATH
  "Prefix holding Google Benchmark, GoogleTest, fmt, nlohmann_json, CLI11 and xxHash for MinGW (ci/build-windows-deps.sh mingw)")
set(CMAKE_FIND_ROOT_PATH /usr/${IOBENCH_MINGW_TRIPLET} ${IOBENCH_MINGW_DEPS})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# No libstdc++-6.dll, libgcc_s_seh-1.dll or libwinpthread-1.dll to copy,
# for executables and for plugins (MODULE libraries, docs/plugins.md) alike.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")
set(CMAKE_MODULE_LINKER_FLAGS_INIT "-static")

# ctest, test discovery and the main job run the .exe files under wine.
include(${CMAKE_CURRENT_LIST_DIR}/wine-emulator.cmake)
