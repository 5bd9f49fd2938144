# iobench_add_executable() and iobench_add_plugin(): a method file (one
# family, registered with MethodRegistrar, including <iobench/method.hpp> and
# <iobench/error.hpp>) built into an executable that is iobench with the file's
# families, or into a plugin that `iobench --plugin PATH` loads
# (docs/plugins.md). The same file builds unchanged in methods/ of iobench.
#
# Used by iobench's own build (iobench is made with iobench_add_executable),
# by a project that adds iobench with add_subdirectory or FetchContent, and
# by the installed package (find_package(iobench), iobenchConfig.cmake). In
# iobench's build and installed the libraries are the same static libraries
# (cmake/IobenchLibraries.cmake), linked whole (their registrars are static
# objects nothing refers to, which a linker would otherwise drop).

include_guard(GLOBAL)

if(CMAKE_VERSION VERSION_LESS 3.24)
  message(FATAL_ERROR "iobench's CMake functions need CMake 3.24 or newer ($<LINK_LIBRARY:WHOLE_ARCHIVE>); this is ${CMAKE_VERSION}")
endif()

# iobench_build_type_definition(VAR): the compile definition of the build
# type a translation unit records (iobench/plugin.hpp, the results' build_type):
# the configuration, or "none" without one. (A function, not a variable: a
# project that adds iobench as a subdirectory does not see its variables.)
function(iobench_build_type_definition var)
  set(${var} "IOBENCH_BUILD_TYPE=\"$<IF:$<BOOL:$<CONFIG>>,$<CONFIG>,none>\"" PARENT_SCOPE)
endfunction()

# _iobench_compile_like_iobench(TARGET): the method files of TARGET compiled
# as iobench's own methods were: C++20 without compiler extensions and, for
# an installed iobench (whose package records them), its build type's
# optimisation flags after the project's own (-O2 where iobench had -O2 and
# the project's Release has -O3: the last one counts). MSVC's defaults are
# the same for both already.
function(_iobench_compile_like_iobench target)
  set_target_properties(${target} PROPERTIES CXX_EXTENSIONS OFF)
  get_property(_type GLOBAL PROPERTY IOBENCH_PACKAGE_BUILD_TYPE)
  get_property(_flags GLOBAL PROPERTY IOBENCH_PACKAGE_CONFIG_FLAGS)
  if(_type AND _flags AND NOT MSVC)
    separate_arguments(_list NATIVE_COMMAND "${_flags}")
    target_compile_options(${target} PRIVATE "$<$<CONFIG:${_type}>:${_list}>")
  endif()
endfunction()

# _iobench_record_build_flags(TARGET): a generated source of TARGET that
# records, at start-up, the flags CMake gives its files (iobench/method.hpp:
# added_build_flags): CMAKE_CXX_FLAGS, those of the build type, and the
# optimisation flags _iobench_compile_like_iobench adds. A raw string, so any
# quote in a flag stays as it is.
function(_iobench_record_build_flags target)
  # $<CONFIG:...> ignores case, as CMAKE_CXX_FLAGS_<CONFIG> does: each configuration once, in capitals.
  set(_configs Debug Release RelWithDebInfo MinSizeRel ${CMAKE_CONFIGURATION_TYPES} ${CMAKE_BUILD_TYPE})
  list(TRANSFORM _configs TOUPPER)
  list(REMOVE_DUPLICATES _configs)
  set(_config_flags "")
  foreach(_config IN LISTS _configs)
    string(APPEND _config_flags "$<$<CONFIG:${_config}>:${CMAKE_CXX_FLAGS_${_config}}>")
  endforeach()
  get_property(_type GLOBAL PROPERTY IOBENCH_PACKAGE_BUILD_TYPE)
  get_property(_flags GLOBAL PROPERTY IOBENCH_PACKAGE_CONFIG_FLAGS)
  if(_type AND _flags AND NOT MSVC)
    string(APPEND _config_flags "$<$<CONFIG:${_type}>: ${_flags}>")
  endif()
  set(_file "${CMAKE_CURRENT_BINARY_DIR}/${target}_build_flags_$<CONFIG>.cpp")
  file(GENERATE OUTPUT "${_file}" CONTENT
"// ${target}: the flags of its files, for the results' context (iobench_add_executable).
#include <iobench/method.hpp>
namespace {
[[maybe_unused]] const bool recorded = (iobench::set_added_build_flags(R\"iobench(${CMAKE_CXX_FLAGS} ${_config_flags})iobench\"), true);
}  // namespace
")
  target_sources(${target} PRIVATE "${_file}")
endfunction()

# iobench_add_executable(NAME [SOURCES...])
#   An executable that is iobench in every way (suites, --list, verification,
#   counters, the limit rows, the JSON, the summary, --plugin) with the method
#   families of SOURCES registered beside iobench's own.
function(iobench_add_executable name)
  set(_sources ${ARGN})
  if(NOT _sources)
    # No family of its own (iobench itself): main() is in iobench::main, and
    # an executable needs one source of its own.
    set(_sources ${CMAKE_CURRENT_BINARY_DIR}/${name}_no_families.cpp)
    file(CONFIGURE OUTPUT ${_sources} CONTENT "// ${name}: iobench's own families only (iobench_add_executable).\n")
  endif()
  add_executable(${name} ${_sources})
  target_link_libraries(${name} PRIVATE
    "$<LINK_LIBRARY:WHOLE_ARCHIVE,iobench::core,iobench::workloads,iobench::methods,iobench::main>")
  target_link_libraries(${name} PRIVATE iobench::headers)
  # The families of SOURCES are added ones (iobench/method.hpp: FamilyOrigin):
  # they join the suites beside the methods a suite names, and the results
  # say what they were compiled with (context: added_families).
  iobench_build_type_definition(_build_type)
  target_compile_definitions(${name} PRIVATE IOBENCH_ADDED_FAMILY ${_build_type})
  _iobench_compile_like_iobench(${name})
  if(ARGN)
    _iobench_record_build_flags(${name})
  endif()
  # The executable's symbols are what a plugin calls (iobench/api.hpp).
  set_target_properties(${name} PROPERTIES ENABLE_EXPORTS ON)
endfunction()

# iobench_add_plugin(NAME SOURCES...)
#   A shared library (CMake MODULE) of the method families of SOURCES, loaded
#   at run time with `iobench --plugin PATH` (or by an executable made with
#   iobench_add_executable). It must be built with the compiler, standard
#   library and build type iobench was built with, and against its method
#   API, which iobench checks when it loads it; its optimisation flags are
#   iobench's (_iobench_compile_like_iobench).
function(iobench_add_plugin name)
  if(ARGC LESS 2)
    message(FATAL_ERROR "iobench_add_plugin(${name}): give the method files of the plugin")
  endif()
  get_property(_entry GLOBAL PROPERTY IOBENCH_PLUGIN_ENTRY)
  add_library(${name} MODULE ${ARGN} ${_entry})
  # iobench::iobench: the executable whose symbols the plugin may call (on
  # Windows its import library; elsewhere nothing is linked, the symbols bind
  # when the plugin is loaded).
  target_link_libraries(${name} PRIVATE iobench::headers iobench::iobench)
  iobench_build_type_definition(_build_type)
  target_compile_definitions(${name} PRIVATE IOBENCH_PLUGIN ${_build_type})
  _iobench_compile_like_iobench(${name})
  # Only the two entry points leave the plugin (core/plugins/plugin_entry.cpp); the
  # name is NAME.so / NAME.dll, without a "lib" in front.
  set_target_properties(${name} PROPERTIES
    CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON PREFIX "")
endfunction()
