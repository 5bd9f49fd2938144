# Included by the Windows toolchain files (MinGW-w64, MSVC under wine): wine
# runs the .exe files of the build: 'wine' (Debian's wrapper picks the 64-bit loader)
# or the 64-bit loader itself, through wine-run.sh: a private wine prefix in the
# build tree and one persistent wineserver for every program of a test run, so
# that no program connects to a server while it exits (the "recvmsg:
# Connection reset by peer" failures); tests/CMakeLists.txt stops it when the
# tests end (fixture wine). WINEDEBUG=-all keeps wine's own diagnostics
# (fixme:/err: lines) out of the programs' stderr, which tests match.
find_program(IOBENCH_WINE NAMES wine wine64 PATHS /usr/lib/wine /usr/lib64/wine
  DOC "wine, to run the Windows executables on this machine")
if(IOBENCH_WINE)
  set(IOBENCH_WINE_PREFIX ${CMAKE_BINARY_DIR}/wineprefix)
  set(IOBENCH_WINE_RUN ${CMAKE_CURRENT_LIST_DIR}/wine-run.sh)
  set(CMAKE_CROSSCOMPILING_EMULATOR sh ${IOBENCH_WINE_RUN} ${IOBENCH_WINE} ${IOBENCH_WINE_PREFIX})
endif()
