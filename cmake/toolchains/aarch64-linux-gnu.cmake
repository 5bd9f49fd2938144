# Cross-compiling for Linux on 64-bit ARM (aarch64, ARMv8-A) with Debian's
# cross compiler (package g++-aarch64-linux-gnu) against Debian's arm64
# multiarch libraries (libfmt-dev:arm64 and the others ci/aarch64.sh installs,
# under /usr/lib/aarch64-linux-gnu; their headers are the build machine's
# /usr/include, shared by every architecture). CMAKE_CROSSCOMPILING_EMULATOR
# runs the ARM64 programs under qemu's user-mode emulator (package qemu-user):
# ctest, gtest_discover_tests and the main job execute them here
# (docs/architectures.md).
#
# Nothing of the build machine's architecture is linked: CMake looks for
# libraries and packages only under the aarch64 directories (the cross
# compiler's /usr/aarch64-linux-gnu and the multiarch
# /usr/lib/aarch64-linux-gnu, which CMAKE_LIBRARY_ARCHITECTURE names), and
# pkg-config reads only the arm64 .pc files.

set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(IOBENCH_AARCH64_TRIPLET aarch64-linux-gnu)
set(CMAKE_C_COMPILER ${IOBENCH_AARCH64_TRIPLET}-gcc)
set(CMAKE_CXX_COMPILER ${IOBENCH_AARCH64_TRIPLET}-g++)
set(CMAKE_LIBRARY_ARCHITECTURE ${IOBENCH_AARCH64_TRIPLET})

# The multiarch libraries live in the build machine's /usr (lib/aarch64-linux-gnu):
# / is searched too, and the architecture directory keeps the amd64 ones out.
set(CMAKE_FIND_ROOT_PATH /usr/${IOBENCH_AARCH64_TRIPLET} /)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# pkg-config (liburing): the arm64 .pc files and the architecture-independent ones only.
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/${IOBENCH_AARCH64_TRIPLET}/pkgconfig:/usr/share/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "")

# ctest, test discovery and the main job run the ARM64 programs under
# qemu-aarch64. Their dynamic loader and libraries are the arm64 multiarch
# packages' (libc6:arm64, which every arm64 -dev package brings:
# /lib/ld-linux-aarch64.so.1, /usr/lib/aarch64-linux-gnu), so qemu needs no
# -L root: with -L /usr/aarch64-linux-gnu qemu 7.2 looks every path a program
# opens up under that root first, and a console workload's child hung there.
find_program(IOBENCH_QEMU_AARCH64 NAMES qemu-aarch64 qemu-aarch64-static
  DOC "qemu's user-mode emulator for aarch64, to run the ARM64 executables on this machine")
if(IOBENCH_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${IOBENCH_QEMU_AARCH64})
endif()
