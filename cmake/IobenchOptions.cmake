# Warnings and sanitizers, applied PRIVATE to iobench's own targets, and the
# flag string recorded in the results (IOBENCH_CXX_FLAGS).

option(IOBENCH_WARNINGS_AS_ERRORS "Stop the build at a warning in iobench's own code (/WX, -Werror)" OFF)

set(IOBENCH_OWN_FLAGS "")
if(MSVC)
  # /Zc:__cplusplus: __cplusplus says C++20 (202002L) instead of 199711L.
  list(APPEND IOBENCH_OWN_FLAGS /W4 /permissive- /Zc:__cplusplus /utf-8)
  if(IOBENCH_WARNINGS_AS_ERRORS)
    list(APPEND IOBENCH_OWN_FLAGS /WX)
  endif()
else()
  list(APPEND IOBENCH_OWN_FLAGS -Wall -Wextra -Wpedantic -Wshadow)
  if(IOBENCH_WARNINGS_AS_ERRORS)
    list(APPEND IOBENCH_OWN_FLAGS -Werror)
  endif()
endif()

set(IOBENCH_SANITIZER_FLAGS "")
if(IOBENCH_SANITIZE)
  if(MSVC)
    set(IOBENCH_SANITIZER_FLAGS /fsanitize=address)
  else()
    set(IOBENCH_SANITIZER_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  endif()
endif()

# The flags of the build configuration plus ours, as one string per configuration.
set(_iobench_config_flags "")
foreach(_config Debug Release RelWithDebInfo MinSizeRel)
  string(TOUPPER ${_config} _upper)
  string(APPEND _iobench_config_flags "$<$<CONFIG:${_config}>:${CMAKE_CXX_FLAGS_${_upper}}>")
endforeach()
# MSVC's runtime library is a property, not a flag: recorded as the flag it stands for.
if(MSVC)
  set(_runtime "${CMAKE_MSVC_RUNTIME_LIBRARY}")
  if(NOT _runtime)
    set(_runtime "MultiThreaded$<$<CONFIG:Debug>:Debug>DLL")  # CMake's default
  endif()
  if(_runtime MATCHES "DLL")
    set(_runtime_flag /MD)
  else()
    set(_runtime_flag /MT)
  endif()
  if(_runtime MATCHES [[\$<\$<CONFIG:Debug>:Debug>]])
    string(APPEND _runtime_flag "$<$<CONFIG:Debug>:d>")
  elseif(_runtime MATCHES "Debug")
    string(APPEND _runtime_flag d)
  endif()
  string(APPEND _iobench_config_flags " ${_runtime_flag}")
endif()
list(JOIN IOBENCH_OWN_FLAGS " " _own)
list(JOIN IOBENCH_SANITIZER_FLAGS " " _san)
string(STRIP "${CMAKE_CXX_FLAGS} ${_iobench_config_flags} ${_own} ${_san}" IOBENCH_CXX_FLAGS)

# iobench_windows_definitions(TARGET): on Windows, <windows.h> without the
# rarely used APIs and without its min/max macros (which break std::min), for
# every source of TARGET instead of a #define block before each include.
function(iobench_windows_definitions target)
  if(WIN32)
    target_compile_definitions(${target} PRIVATE WIN32_LEAN_AND_MEAN NOMINMAX)
  endif()
endfunction()

# Applies warnings, sanitizers and the build description to `target`.
# iobench_cxx20(TARGET): C++20 without compiler extensions, for TARGET alone
# (nothing global: a project that adds iobench keeps its own standard).
function(iobench_cxx20 target)
  target_compile_features(${target} PRIVATE cxx_std_20)
  set_target_properties(${target} PROPERTIES CXX_EXTENSIONS OFF)
endfunction()

function(iobench_apply_options target)
  iobench_cxx20(${target})
  target_compile_options(${target} PRIVATE ${IOBENCH_OWN_FLAGS} ${IOBENCH_SANITIZER_FLAGS})
  if(IOBENCH_SANITIZER_FLAGS AND NOT MSVC)
    target_link_options(${target} PRIVATE ${IOBENCH_SANITIZER_FLAGS})
    # The runtime's default options (why: the file's header), read from the
    # executable itself.
    get_target_property(_type ${target} TYPE)
    if(_type STREQUAL "EXECUTABLE")
      target_sources(${target} PRIVATE ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../core/os/sanitizer_defaults.cpp)
      # Linked at a fixed address: the sanitizers' data (UBSan's type and
      # source descriptors above all) made a position-independent test binary
      # carry 2.4 M relocations, applied at each start: 0.19 s a start with
      # them, 0.13 s without (the command-line tests start iobench hundreds
      # of times).
      if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
        target_link_options(${target} PRIVATE -no-pie)
      endif()
    endif()
  endif()
  if(MSVC)
    # fopen, getenv, ...: the portable calls are the point, not their _s variants.
    target_compile_definitions(${target} PRIVATE _CRT_SECURE_NO_WARNINGS)
  endif()
  iobench_windows_definitions(${target})
  iobench_build_type_definition(_build_type)  # cmake/iobenchFunctions.cmake
  target_compile_definitions(${target} PRIVATE
    ${_build_type}
    "IOBENCH_CXX_FLAGS=\"${IOBENCH_CXX_FLAGS}\"")
endfunction()

# The fast_io method family (methods/fast_io.cpp, cmake/IobenchFastIo.cmake):
# ON requires it, AUTO builds it when fast_io can be had and compiles here,
# OFF lists it as skipped.
set(IOBENCH_WITH_FAST_IO AUTO CACHE STRING "Build the fast_io method family: ON, OFF or AUTO")
set_property(CACHE IOBENCH_WITH_FAST_IO PROPERTY STRINGS ON OFF AUTO)

# Żmij for obuf's doubles (methods/format_double.hpp, cmake/IobenchZmij.cmake):
# ON requires it, AUTO uses it when it can be had and compiles here, OFF
# takes the digits from Dragonbox (as the dragonbox_obuf method always does).
set(IOBENCH_WITH_ZMIJ AUTO CACHE STRING "Write obuf's doubles with Żmij: ON, OFF or AUTO")
set_property(CACHE IOBENCH_WITH_ZMIJ PROPERTY STRINGS ON OFF AUTO)
