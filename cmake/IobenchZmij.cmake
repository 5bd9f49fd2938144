# Żmij (https://github.com/vitaut/zmij, Victor Zverovich, MIT), the shortest
# round-trip text of a double, for obuf's format_double
# (methods/format_double.hpp). Found installed (zmij.h and a library named
# zmij), otherwise built here from its sources pinned to one commit: fetched
# with FetchContent, or taken from FETCHCONTENT_SOURCE_DIR_ZMIJ (an unmodified
# copy of that commit). When FETCHCONTENT_SOURCE_DIR_ZMIJ is not set and such
# a copy lies at ../shared/third_party/zmij next to the source tree, that copy
# is used. Only zmij.cc and zmij.h are used: Żmij's own CMakeLists.txt (its
# tests and example) is not added.
#
# Sets IOBENCH_ZMIJ_FOUND and, when found, the target iobench::zmij: the
# library, its header (as a system header: its warnings are not ours) and the
# definition IOBENCH_HAVE_ZMIJ, which every file that includes
# methods/obuf.hpp must see alike (iobench_methods links it PUBLIC); built
# from its sources, IOBENCH_HAVE_ZMIJ_SOURCES too (zmij.cc beside zmij.h, its
# digit search as methods/format_double_lines_zmij.cpp calls it: then
# IOBENCH_ZMIJ_SOURCES_INLINED is ON).
# Otherwise obuf takes its digits from Dragonbox (the configuration says why)
# and "Żmij" is added to IOBENCH_METHODS_MISSING (obuf's description differs). AUTO (the default) never fails the
# configuration; ON makes a missing or failing Żmij an error.

set(IOBENCH_ZMIJ_REPOSITORY https://github.com/vitaut/zmij.git)
set(IOBENCH_ZMIJ_COMMIT 132313d417e096e63c446f1be2deeb0b1eeb246f)
set(IOBENCH_ZMIJ_FOUND OFF)
set(IOBENCH_ZMIJ_SOURCES_INLINED OFF)
set(_zmij_reason "")

string(TOUPPER "${IOBENCH_WITH_ZMIJ}" _zmij_mode)
if(_zmij_mode STREQUAL "OFF" OR NOT _zmij_mode)
  set(_zmij_reason "Żmij not built: IOBENCH_WITH_ZMIJ=OFF")
else()
  # 1. Installed: its header and its library.
  find_path(IOBENCH_ZMIJ_INCLUDE_DIR zmij.h)
  find_library(IOBENCH_ZMIJ_LIBRARY zmij)
  set(_zmij_source_dir "")
  set(_zmij_from "")
  if(IOBENCH_ZMIJ_INCLUDE_DIR AND IOBENCH_ZMIJ_LIBRARY)
    set(_zmij_from "installed (${IOBENCH_ZMIJ_LIBRARY})")
  else()
    # 2. Its sources at the pinned commit. SOURCE_SUBDIR names a folder Żmij
    # does not have: only zmij.cc and zmij.h are used (its CMakeLists.txt would
    # add its tests).
    iobench_pinned_sources(zmij LABEL Żmij
      REPOSITORY ${IOBENCH_ZMIJ_REPOSITORY} COMMIT ${IOBENCH_ZMIJ_COMMIT}
      MARKERS zmij.cc zmij.h
      SOURCE_SUBDIR iobench-sources-only)
    if(zmij_SOURCE_DIR)
      set(_zmij_source_dir ${zmij_SOURCE_DIR})
      set(_zmij_from "${IOBENCH_ZMIJ_COMMIT} from ${zmij_SOURCE_DIR}")
    else()
      set(_zmij_reason "${zmij_NOT_FOUND_REASON}")
    endif()
  endif()

  if(_zmij_from)
    # Does it compile and link here, and give what format_double uses?
    set(_zmij_probe_dir ${PROJECT_BINARY_DIR}/zmij-probe)
    file(WRITE ${_zmij_probe_dir}/probe.cpp [[
#include <zmij.h>
#include <cstring>
int main() {
  char buffer[zmij::double_buffer_size];
  char* end = zmij::write(buffer, sizeof buffer, 0.1);
  zmij::dec_fp<> dec = zmij::to_decimal(0.1);
  return end - buffer == 3 && std::memcmp(buffer, "0.1", 3) == 0 && dec.exp < 0 ? 0 : 1;
}
]])
    if(_zmij_source_dir)
      set(_zmij_probe_sources ${_zmij_probe_dir}/probe.cpp ${_zmij_source_dir}/zmij.cc)
      set(_zmij_probe_include ${_zmij_source_dir})
      set(_zmij_probe_libraries "")
    else()
      set(_zmij_probe_sources ${_zmij_probe_dir}/probe.cpp)
      set(_zmij_probe_include ${IOBENCH_ZMIJ_INCLUDE_DIR})
      set(_zmij_probe_libraries LINK_LIBRARIES ${IOBENCH_ZMIJ_LIBRARY})
    endif()
    try_compile(IOBENCH_ZMIJ_COMPILES ${_zmij_probe_dir}/build
      SOURCES ${_zmij_probe_sources}
      CMAKE_FLAGS "-DINCLUDE_DIRECTORIES=${_zmij_probe_include}"
      ${_zmij_probe_libraries}
      CXX_STANDARD 20
      CXX_STANDARD_REQUIRED ON
      CXX_EXTENSIONS OFF
      OUTPUT_VARIABLE _zmij_probe_output)
    if(IOBENCH_ZMIJ_COMPILES)
      set(IOBENCH_ZMIJ_FOUND ON)
      if(_zmij_source_dir)
        # Built as its own library, without iobench's warnings (its code is not ours).
        add_library(iobench_zmij STATIC ${_zmij_source_dir}/zmij.cc)
        # Its warnings are not ours either (MSVC's C4804 on its bool arithmetic).
        target_compile_options(iobench_zmij PRIVATE $<IF:$<CXX_COMPILER_ID:MSVC>,/W0,-w>)
        target_include_directories(iobench_zmij SYSTEM PUBLIC $<BUILD_INTERFACE:${_zmij_source_dir}>)
        set_target_properties(iobench_zmij PROPERTIES EXPORT_NAME zmij POSITION_INDEPENDENT_CODE ON)
        # Its sources are part of this build: obuf's AVX2 double kernel
        # compiles zmij.cc's digit search into its loop
        # (methods/format_double_lines_zmij.cpp), which every file that
        # includes methods/obuf.hpp must know alike. Only where zmij.cc has
        # that search as that file calls it (the pinned commit does; other
        # sources keep the library call instead of failing the build).
        set(_zmij_inline_dir ${PROJECT_BINARY_DIR}/zmij-inline-probe)
        file(WRITE ${_zmij_inline_dir}/probe.cpp [[
#include <zmij.h>
#undef ZMIJ_H_
#define zmij iobench_zmij_probe
#include <zmij.cc>
#undef zmij
#include <cstdint>
int main() {
  const ::shortest_decimal d = ::to_decimal<double>(std::uint64_t{1} << 52, 1024, false, ::static_data);
  const zmij::dec_fp<> dec{d.sig * 10 + static_cast<std::uint64_t>(d.last_digit), d.exp, d.has_last_digit};
  return dec.sig == 0 ? 1 : 0;
}
]])
        try_compile(IOBENCH_ZMIJ_INLINES ${_zmij_inline_dir}/build
          SOURCES ${_zmij_inline_dir}/probe.cpp ${_zmij_source_dir}/zmij.cc
          CMAKE_FLAGS "-DINCLUDE_DIRECTORIES=${_zmij_source_dir}"
          CXX_STANDARD 20
          CXX_STANDARD_REQUIRED ON
          CXX_EXTENSIONS OFF)
        if(IOBENCH_ZMIJ_INLINES)
          target_compile_definitions(iobench_zmij INTERFACE IOBENCH_HAVE_ZMIJ_SOURCES)
          set(IOBENCH_ZMIJ_SOURCES_INLINED ON)
        else()
          message(STATUS "iobench: Żmij's zmij.cc lacks the digit search obuf's AVX2 double kernel inlines: "
            "the kernel calls zmij::to_decimal")
        endif()
      else()
        add_library(iobench_zmij INTERFACE)
        target_include_directories(iobench_zmij SYSTEM INTERFACE ${IOBENCH_ZMIJ_INCLUDE_DIR})
        target_link_libraries(iobench_zmij INTERFACE ${IOBENCH_ZMIJ_LIBRARY})
        set_target_properties(iobench_zmij PROPERTIES EXPORT_NAME zmij)
      endif()
      target_compile_definitions(iobench_zmij INTERFACE IOBENCH_HAVE_ZMIJ)
      add_library(iobench::zmij ALIAS iobench_zmij)
    else()
      set(_zmij_compiler "${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION}")
      set(_zmij_reason "Żmij does not compile with ${_zmij_compiler}")
    endif()
  endif()
  if(NOT IOBENCH_ZMIJ_FOUND AND _zmij_mode STREQUAL "ON")
    message(FATAL_ERROR "iobench: IOBENCH_WITH_ZMIJ=ON but ${_zmij_reason}")
  endif()
endif()

if(IOBENCH_ZMIJ_FOUND)
  message(STATUS "iobench: Żmij ${_zmij_from}: obuf writes doubles with Żmij (dragonbox_obuf with Dragonbox)")
else()
  list(APPEND IOBENCH_METHODS_MISSING Żmij)
  message(STATUS "iobench: ${_zmij_reason}: obuf writes doubles with Dragonbox's digits")
endif()
