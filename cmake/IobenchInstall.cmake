# cmake --install build/<preset> --prefix P installs what a project of its own
# needs to measure its own method families beside iobench's (docs/plugins.md):
#   P/bin/iobench                      the executable (plus, on Windows, its import library in P/lib)
#   P/libexec/iobench/binsize/         the binary_size workload's programs
#   P/libexec/iobench/methods/<lang>/  the program methods' programs (Go, Rust, Java, Python, Node.js)
#   P/include/iobench/*.hpp            the public API: what a method file includes
#                                      (<iobench/method.hpp>, <iobench/error.hpp>; docs/plugins.md)
#   P/lib/libiobench_{core,workloads,methods,main}.a   the libraries, static
#   P/lib/libiobench_zmij.a            Żmij, where it was built here (cmake/IobenchZmij.cmake)
#   P/share/iobench/plugin_entry.cpp   compiled into every plugin
#   P/lib/cmake/iobench/               iobenchConfig.cmake (+ version file, targets,
#                                      iobench_add_executable and iobench_add_plugin)
# so that a project says find_package(iobench 1 REQUIRED).
include(CMakePackageConfigHelpers)

# The directories the installation makes are rwxr-xr-x whatever the umask of
# the shell that installs (under umask 000 they were 0777: another user
# could have put a program in libexec/iobench/methods/ that iobench runs).
# Files get CMake's explicit permissions (0644; 0755 for executables) anyway.
set(CMAKE_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS
  OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)

# The installed libraries name their dependencies as imported targets, which
# a project finds again with find_package: a dependency that was downloaded
# and built here (FetchContent) has no installed package to find.
set(_iobench_downloaded "")
foreach(_dep benchmark::benchmark fmt::fmt nlohmann_json::nlohmann_json)
  get_target_property(_target ${_dep} ALIASED_TARGET)
  if(NOT _target)
    set(_target ${_dep})
  endif()
  get_target_property(_imported ${_target} IMPORTED)
  if(NOT _imported)
    list(APPEND _iobench_downloaded ${_dep})
  endif()
endforeach()
set(_iobench_install_default ${IOBENCH_TOP_LEVEL})
if(_iobench_downloaded)
  set(_iobench_install_default OFF)
endif()
option(IOBENCH_INSTALL "Install iobench and its CMake package (find_package(iobench))" ${_iobench_install_default})
if(NOT IOBENCH_INSTALL)
  if(_iobench_downloaded AND IOBENCH_TOP_LEVEL)
    list(JOIN _iobench_downloaded ", " _list)
    message(STATUS "iobench: no install rules: ${_list} were downloaded (FetchContent), not found installed, "
      "and an installed iobench package could not find them again")
  endif()
  return()
endif()
if(_iobench_downloaded)
  list(JOIN _iobench_downloaded ", " _list)
  message(FATAL_ERROR "IOBENCH_INSTALL=ON: ${_list} were downloaded (FetchContent), not found installed; install "
    "them (tools/install-deps.sh) so that the installed package can find them")
endif()

# The static libraries are the ones this tree builds and links
# (cmake/IobenchLibraries.cmake); what the package's config must find again
# for them is said below.
set(IOBENCH_PACKAGE_NEEDS_BOOST OFF)
if("Boost::iostreams" IN_LIST IOBENCH_METHOD_LIBRARIES)
  set(IOBENCH_PACKAGE_NEEDS_BOOST ON)
endif()
set(_iobench_zmij_target "")
if(TARGET iobench_zmij)
  # Żmij (obuf's doubles): the library built here is installed with iobench's
  # (libiobench_zmij.a: its own name, next to any libzmij of the system).
  set_target_properties(iobench_zmij PROPERTIES OUTPUT_NAME iobench_zmij)
  set(_iobench_zmij_target iobench_zmij)
endif()

set(IOBENCH_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/iobench)
install(TARGETS iobench iobench_headers iobench_core iobench_workloads iobench_methods iobench_main
                ${_iobench_zmij_target}
  EXPORT iobenchTargets
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
# The binary_size workload's programs, where an installed iobench looks for
# them (workloads/binary_size.cpp: ../libexec/iobench/binsize from bin/).
install(TARGETS ${IOBENCH_BINSIZE_TARGETS} RUNTIME DESTINATION libexec/iobench/binsize OPTIONAL)  # iobench_programs
# The program methods' programs (core/programs/program.hpp: ../libexec/iobench/methods/<language>/ from bin/).
foreach(_program IN LISTS IOBENCH_LANGUAGE_PROGRAMS)
  string(REPLACE "|" ";" _program "${_program}")
  list(GET _program 0 _language)
  list(GET _program 1 _file)
  install(PROGRAMS ${_file} DESTINATION libexec/iobench/methods/${_language} OPTIONAL)  # iobench_programs
endforeach()
# The public API, include/iobench/*.hpp: the directory as it is (a project
# includes <iobench/method.hpp>; iobench::headers adds P/include).
install(DIRECTORY include/iobench DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.hpp")
install(FILES core/plugins/plugin_entry.cpp DESTINATION ${CMAKE_INSTALL_DATADIR}/iobench)
install(EXPORT iobenchTargets NAMESPACE iobench:: DESTINATION ${IOBENCH_CMAKE_DIR})

# What the package's config must find again: the build type and toolchain
# a plugin has to match are said there too.
set(IOBENCH_PACKAGE_BUILD_TYPE "${CMAKE_BUILD_TYPE}")
# Its optimisation flags, which a project's families get too (cmake/iobenchFunctions.cmake).
string(TOUPPER "${CMAKE_BUILD_TYPE}" _upper)
set(IOBENCH_PACKAGE_CONFIG_FLAGS "")
if(_upper)
  set(IOBENCH_PACKAGE_CONFIG_FLAGS "${CMAKE_CXX_FLAGS_${_upper}}")
endif()
configure_package_config_file(cmake/iobenchConfig.cmake.in ${PROJECT_BINARY_DIR}/iobenchConfig.cmake
  INSTALL_DESTINATION ${IOBENCH_CMAKE_DIR}
  PATH_VARS CMAKE_INSTALL_DATADIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/iobenchConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/iobenchConfig.cmake ${PROJECT_BINARY_DIR}/iobenchConfigVersion.cmake
              cmake/iobenchFunctions.cmake
  DESTINATION ${IOBENCH_CMAKE_DIR})
