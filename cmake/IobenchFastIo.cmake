# fast_io (https://github.com/cppfastio/fast_io), header-only C++20, for the
# fast_io method family (methods/fast_io.cpp) and its binary_size program.
# Pinned to one commit and fetched with FetchContent; a machine that cannot
# reach the repository points FETCHCONTENT_SOURCE_DIR_FAST_IO at an unmodified
# copy of that commit (its include/ folder is all that is used). When
# FETCHCONTENT_SOURCE_DIR_FAST_IO is not set and such a copy lies at
# ../shared/third_party/fast_io next to the source tree, that copy is used.
#
# Sets IOBENCH_FAST_IO_FOUND, the target iobench::fast_io (its headers, as
# system headers: their warnings are not ours), and adds to
# IOBENCH_METHOD_DEFINITIONS / IOBENCH_METHOD_LIBRARIES:
#   IOBENCH_HAVE_FAST_IO         fast_io's own files (obuf_file, ibuf_file, code_cvt files) compile here
#   IOBENCH_HAVE_FAST_IO_LEGACY  its FILE* and filebuf wrappers (c_file, filebuf_file) compile here
#   IOBENCH_HAVE_FAST_IO_I18N    its locale support (native_l10n, imbue) compiles here
#   IOBENCH_FAST_IO_NOT_BUILT / _LEGACY_NOT_BUILT / _I18N_NOT_BUILT: the reason, when one does not
# (and then adds what is missing to IOBENCH_METHODS_MISSING).
# AUTO (the default) never fails the configuration: what cannot be had or
# compiled is listed as skipped with the reason. ON makes a missing fast_io an error.

set(IOBENCH_FAST_IO_REPOSITORY https://github.com/cppfastio/fast_io.git)
set(IOBENCH_FAST_IO_COMMIT 1abeb865bf87cd567e8c5026be4d16a739603665)
set(IOBENCH_FAST_IO_FOUND OFF)
set(_fast_io_reason "")

string(TOUPPER "${IOBENCH_WITH_FAST_IO}" _fast_io_mode)
if(_fast_io_mode STREQUAL "OFF" OR NOT _fast_io_mode)
  set(_fast_io_reason "fast_io not built: IOBENCH_WITH_FAST_IO=OFF")
else()
  iobench_pinned_sources(fast_io LABEL fast_io
    REPOSITORY ${IOBENCH_FAST_IO_REPOSITORY} COMMIT ${IOBENCH_FAST_IO_COMMIT}
    MARKERS include/fast_io.h
    SOURCE_SUBDIR include)  # only the headers are used: fast_io's own CMake project is not added
  set(_fast_io_available OFF)
  if(fast_io_SOURCE_DIR)
    set(_fast_io_available ON)
  else()
    set(_fast_io_reason "${fast_io_NOT_FOUND_REASON}")
  endif()
  if(_fast_io_available)
    set(IOBENCH_FAST_IO_INCLUDE_DIR ${fast_io_SOURCE_DIR}/include)
    include(CheckCXXSourceCompiles)
    set(CMAKE_REQUIRED_INCLUDES ${IOBENCH_FAST_IO_INCLUDE_DIR})
    set(CMAKE_REQUIRED_QUIET ON)
    # Compiled as iobench's own targets are (iobench_cxx20): C++20, no extensions.
    set(CMAKE_REQUIRED_FLAGS "${CMAKE_CXX20_STANDARD_COMPILE_OPTION}")
    # What methods/fast_io.cpp uses, in three parts that compile or not
    # independently: each a function of one probe, and all three first in
    # one program (each probe compiles fast_io's headers: seconds apiece),
    # the parts tried alone only when that fails.
    set(_fast_io_probe_device [[
#include <fast_io_device.h>
#include <fast_io_unit/gb18030.h>
#include <cstdint>
int probe_device(char** argv) {
  fast_io::obuf_file out(fast_io::mnp::os_c_str(argv[0]));
  fast_io::print_freestanding(out, std::uint64_t{1}, char{10}, 0.5);
  fast_io::obuf_file_mutex locked(fast_io::mnp::os_c_str(argv[0]));
  fast_io::print_freestanding(locked, std::uint64_t{1}, char{10});
  fast_io::ibuf_file in(fast_io::mnp::os_c_str(argv[0]));
  std::uint64_t v{};
  bool ok = fast_io::scan_freestanding(in, v);
  fast_io::u8ogb18030_file gb(fast_io::mnp::os_c_str(argv[0]));
  char8_t const text[] = u8"x";
  write(gb, text, text + 1);
  return ok;
}]])
    set(_fast_io_probe_legacy [[
#include <fast_io.h>
#include <fast_io_legacy.h>
#include <cstdint>
int probe_legacy(char** argv) {
  fast_io::c_file f(fast_io::mnp::os_c_str(argv[0]), fast_io::open_mode::out);
  fast_io::print_freestanding(f, std::uint64_t{1}, char{10});
  fast_io::c_file_unlocked u(fast_io::mnp::os_c_str(argv[0]), fast_io::open_mode::out);
  fast_io::print_freestanding(u, std::uint64_t{1}, char{10});
  fast_io::filebuf_file b(fast_io::mnp::os_c_str(argv[0]), fast_io::open_mode::out);
  fast_io::print_freestanding(b, std::uint64_t{1}, char{10});
  return 0;
}]])
    set(_fast_io_probe_i18n [[
#include <fast_io_device.h>
#include <fast_io_i18n.h>
#include <cstdint>
int probe_i18n(char** argv) {
  fast_io::native_l10n loc(fast_io::mnp::os_c_str(argv[0]));
  fast_io::obuf_file out(fast_io::mnp::os_c_str(argv[0]));
  fast_io::print_freestanding(fast_io::imbue(loc, out), std::uint64_t{1}, char{10});
  return 0;
}]])
    check_cxx_source_compiles("${_fast_io_probe_device}\n${_fast_io_probe_legacy}\n${_fast_io_probe_i18n}
int main(int, char** argv) { return probe_device(argv) + probe_legacy(argv) + probe_i18n(argv); }"
      IOBENCH_FAST_IO_ALL_COMPILES)
    if(IOBENCH_FAST_IO_ALL_COMPILES)
      set(IOBENCH_FAST_IO_COMPILES ON)
      set(IOBENCH_FAST_IO_LEGACY_COMPILES ON)
      set(IOBENCH_FAST_IO_I18N_COMPILES ON)
    else()
      foreach(_part device legacy i18n)
        string(TOUPPER ${_part} _PART)
        if(_part STREQUAL "device")
          set(_var IOBENCH_FAST_IO_COMPILES)
        else()
          set(_var IOBENCH_FAST_IO_${_PART}_COMPILES)
        endif()
        check_cxx_source_compiles("${_fast_io_probe_${_part}}
int main(int, char** argv) { return probe_${_part}(argv); }" ${_var})
      endforeach()
    endif()
    unset(CMAKE_REQUIRED_INCLUDES)
    unset(CMAKE_REQUIRED_QUIET)
    unset(CMAKE_REQUIRED_FLAGS)
    set(_fast_io_compiler "${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION}")
    if(IOBENCH_FAST_IO_COMPILES)
      set(IOBENCH_FAST_IO_FOUND ON)
      add_library(iobench_fast_io INTERFACE)
      add_library(iobench::fast_io ALIAS iobench_fast_io)
      target_include_directories(iobench_fast_io SYSTEM INTERFACE ${IOBENCH_FAST_IO_INCLUDE_DIR})
      target_link_libraries(iobench_fast_io INTERFACE ${CMAKE_DL_LIBS})
      list(APPEND IOBENCH_METHOD_LIBRARIES iobench::fast_io)
      list(APPEND IOBENCH_METHOD_DEFINITIONS IOBENCH_HAVE_FAST_IO)
      if(IOBENCH_FAST_IO_LEGACY_COMPILES)
        list(APPEND IOBENCH_METHOD_DEFINITIONS IOBENCH_HAVE_FAST_IO_LEGACY)
      else()
        list(APPEND IOBENCH_METHODS_MISSING "fast_io FILE*/filebuf")
        list(APPEND IOBENCH_METHOD_DEFINITIONS
          "IOBENCH_FAST_IO_LEGACY_NOT_BUILT=\"fast_io's FILE* and filebuf support does not compile with ${_fast_io_compiler} and this C library\"")
      endif()
      if(IOBENCH_FAST_IO_I18N_COMPILES)
        list(APPEND IOBENCH_METHOD_DEFINITIONS IOBENCH_HAVE_FAST_IO_I18N)
      else()
        list(APPEND IOBENCH_METHODS_MISSING "fast_io locale")
        list(APPEND IOBENCH_METHOD_DEFINITIONS
          "IOBENCH_FAST_IO_I18N_NOT_BUILT=\"fast_io's locale support does not compile with ${_fast_io_compiler}\"")
      endif()
    else()
      set(_fast_io_reason "fast_io does not compile with ${_fast_io_compiler}")
    endif()
  endif()
  if(NOT IOBENCH_FAST_IO_FOUND AND _fast_io_mode STREQUAL "ON")
    message(FATAL_ERROR "iobench: IOBENCH_WITH_FAST_IO=ON but ${_fast_io_reason}")
  endif()
endif()

if(IOBENCH_FAST_IO_FOUND)
  message(STATUS "iobench: fast_io ${IOBENCH_FAST_IO_COMMIT} from ${fast_io_SOURCE_DIR}: the fast_io methods are built"
    " (FILE*/filebuf: ${IOBENCH_FAST_IO_LEGACY_COMPILES}, locale: ${IOBENCH_FAST_IO_I18N_COMPILES})")
else()
  list(APPEND IOBENCH_METHODS_MISSING fast_io)
  list(APPEND IOBENCH_METHOD_DEFINITIONS "IOBENCH_FAST_IO_NOT_BUILT=\"${_fast_io_reason}\"")
  message(STATUS "iobench: ${_fast_io_reason}: the fast_io methods are listed as skipped")
endif()
