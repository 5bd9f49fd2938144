# cmake -DCONSUMER=dir -DWORK=dir -DBUILD_TYPE=... -DGENERATOR=Ninja -DEXE=name -DPLUGIN=name
#       -DFAMILY=name -DMETHODS=a;b [-DWORKLOADS=hello;ints_out]
#       [-DIOBENCH_BUILD=dir | -DIOBENCH_SOURCE=dir] [-DCONFIGURE_ARGS=...] [-DEMULATOR=...]
#       [-DMISMATCH_BUILD_TYPE=...] -P package_test.cmake
# A user's project (CONSUMER) built against iobench from outside:
#   IOBENCH_BUILD: `cmake --install` of that build tree to WORK/prefix, then
#     find_package(iobench) from there; the installed iobench then loads the
#     project's plugin;
#   IOBENCH_SOURCE: iobench taken into the project with FetchContent.
# Then the project's executable runs `--suite quick` on its family's methods
# (every row verified: tests/plugin_run.cmake), and the project's plugin is
# loaded into iobench (rows verified, the context lists the plugin). With
# MISMATCH_BUILD_TYPE the plugin is built a second time with that build type
# and must be refused (exit 2, one line naming both builds).
cmake_policy(VERSION 3.25)
string(REPLACE "|" ";" CONFIGURE_ARGS "${CONFIGURE_ARGS}")
file(REMOVE_RECURSE ${WORK})
set(prefix ${WORK}/prefix)
set(timing "")

function(step what)
  string(TIMESTAMP t0 "%s")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(TIMESTAMP t1 "%s")
  math(EXPR s "${t1} - ${t0}")
  set(timing "${timing} ${what} ${s} s;" PARENT_SCOPE)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
  endif()
endfunction()

set(configure ${CMAKE_COMMAND} -S ${CONSUMER} -G ${GENERATOR} -DCMAKE_BUILD_TYPE=${BUILD_TYPE} ${CONFIGURE_ARGS})
if(IOBENCH_BUILD)
  if(CMAKE_HOST_UNIX)
    # Under umask 000 too (a shell of a careless user): nothing installed
    # may be writable by every user (iobench runs the programs in libexec/).
    step("cmake --install (umask 000)" sh -c "umask 000 && exec \"$0\" --install \"$1\" --prefix \"$2\""
         ${CMAKE_COMMAND} ${IOBENCH_BUILD} ${prefix})
    execute_process(COMMAND find ${prefix} -perm -o+w OUTPUT_VARIABLE writable OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(writable)
      message(FATAL_ERROR "installed under umask 000, every user may write to:\n${writable}")
    endif()
  else()
    step("cmake --install" ${CMAKE_COMMAND} --install ${IOBENCH_BUILD} --prefix ${prefix})
  endif()
  file(GLOB_RECURSE installed LIST_DIRECTORIES false ${prefix}/*)
  set(bytes 0)
  foreach(f ${installed})
    file(SIZE ${f} size)
    math(EXPR bytes "${bytes} + ${size}")
  endforeach()
  list(LENGTH installed files)
  message(STATUS "installed ${files} files, ${bytes} bytes, to ${prefix}")
  foreach(required bin/iobench include/iobench/method.hpp include/iobench/error.hpp
                   lib/cmake/iobench/iobenchConfig.cmake lib/cmake/iobench/iobenchConfigVersion.cmake
                   share/iobench/plugin_entry.cpp)
    file(GLOB found ${prefix}/${required} ${prefix}/${required}.exe)
    if(NOT found)
      message(FATAL_ERROR "not installed: ${required}")
    endif()
  endforeach()
  # The public API only: include/iobench/*.hpp, no folder of iobench's own tree.
  file(GLOB_RECURSE headers LIST_DIRECTORIES false RELATIVE ${prefix}/include ${prefix}/include/*)
  foreach(h ${headers})
    if(NOT h MATCHES "^iobench/[^/]+\\.hpp$")
      message(FATAL_ERROR "installed beside the public API (include/iobench/*.hpp): include/${h}")
    endif()
  endforeach()
  # The loggers built in the build tree (target loggers) are installed where
  # the installed iobench's loggers suite finds them: none of its rows skipped.
  # (the plugins themselves: not the reasons a configuration wrote for the
  # loggers it could not build, <plugin>.not-built)
  file(GLOB built_loggers RELATIVE ${IOBENCH_BUILD}/plugins ${IOBENCH_BUILD}/plugins/iobench_logger_*.so
       ${IOBENCH_BUILD}/plugins/iobench_logger_*.dll)
  if(built_loggers)
    foreach(l ${built_loggers})
      if(NOT EXISTS ${prefix}/lib/iobench/plugins/${l})
        message(FATAL_ERROR "the logger ${l} built in ${IOBENCH_BUILD}/plugins is not installed in lib/iobench/plugins")
      endif()
    endforeach()
    file(GLOB installed_iobench ${prefix}/bin/iobench ${prefix}/bin/iobench.exe)
    string(REPLACE "|" ";" emulator_list "${EMULATOR}")
    execute_process(COMMAND ${emulator_list} ${installed_iobench} --suite loggers --list
      RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    set(skipped "")
    foreach(l ${built_loggers})
      if(out MATCHES "skipped, not built: no ${l} ")
        list(APPEND skipped ${l})
      endif()
    endforeach()
    if(NOT rc EQUAL 0 OR skipped)
      message(FATAL_ERROR "the installed iobench's loggers suite (exit ${rc}) skips a logger it has (${skipped}):\n"
                          "${out}\n${err}")
    endif()
    list(LENGTH built_loggers n_loggers)
    message(STATUS "installed ${n_loggers} loggers, each loaded by the installed iobench's loggers suite")
  endif()
  # iobench_DIR too: a cross toolchain may look for packages in its sysroot only.
  list(APPEND configure -DCMAKE_PREFIX_PATH=${prefix} -Diobench_DIR=${prefix}/lib/cmake/iobench)
  file(GLOB iobench ${prefix}/bin/iobench ${prefix}/bin/iobench.exe)
else()
  list(APPEND configure -DIOBENCH_SOURCE_DIR=${IOBENCH_SOURCE})
endif()
step("configure" ${configure} -B ${WORK}/build)
step("build" ${CMAKE_COMMAND} --build ${WORK}/build)
if(NOT IOBENCH_BUILD)
  file(GLOB iobench ${WORK}/build/_deps/iobench-build/iobench ${WORK}/build/_deps/iobench-build/iobench.exe)
endif()
file(GLOB exe ${WORK}/build/${EXE} ${WORK}/build/${EXE}.exe)
file(GLOB plugin ${WORK}/build/${PLUGIN}.so ${WORK}/build/${PLUGIN}.dll ${WORK}/build/${PLUGIN}.dylib)
if(NOT exe OR NOT plugin OR NOT iobench)
  message(FATAL_ERROR "not built: ${EXE} (${exe}), ${PLUGIN} (${plugin}) or iobench (${iobench})")
endif()

string(REPLACE ";" "|" methods "${METHODS}")
string(REPLACE ";" "|" workloads "${WORKLOADS}")
string(REPLACE ";" "|" emulator "${EMULATOR}")
set(run ${CMAKE_COMMAND} "-DFAMILY=${FAMILY}" "-DMETHODS=${methods}" "-DWORKLOADS=${workloads}"
        "-DEMULATOR=${emulator}" -DSUITE=quick)
step("the executable, --suite quick" ${run} -DIOBENCH=${exe} -DWORK=${WORK}/run-exe -DADDED_BUILD_TYPE=${BUILD_TYPE}
     -P ${CMAKE_CURRENT_LIST_DIR}/plugin_run.cmake)
step("iobench --plugin, --suite quick" ${run} -DIOBENCH=${iobench} -DPLUGIN=${plugin} -DWORK=${WORK}/run-plugin
     -P ${CMAKE_CURRENT_LIST_DIR}/plugin_run.cmake)

if(LINES_WORKLOAD)
  # The workload file, built into the executable and into the plugin: its
  # per-call rows listed, and one of them run and verified, both ways.
  foreach(way exe plugin)
    if(way STREQUAL "exe")
      set(cmd ${EMULATOR} ${exe})
    else()
      set(cmd ${EMULATOR} ${iobench} --plugin ${plugin})
    endif()
    execute_process(COMMAND ${cmd} --list "--benchmark_filter=^${LINES_WORKLOAD}/"
      RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 0 OR NOT out MATCHES "(^|\n)${LINES_WORKLOAD}/obuf/threads:1\n" OR NOT out MATCHES "${LINES_WORKLOAD}/limit\n")
      message(FATAL_ERROR "${way}: workload ${LINES_WORKLOAD} not listed (exit ${rc}):\n${out}\n${err}")
    endif()
    file(MAKE_DIRECTORY ${WORK}/lines-${way})
    execute_process(COMMAND ${cmd} "--benchmark_filter=^${LINES_WORKLOAD}/obuf/threads:1$" --scale 0.01
                            --benchmark_repetitions=1 --benchmark_min_time=0.001 --dir ${WORK}/lines-${way}
                            --benchmark_out=${WORK}/lines-${way}/out.json
      RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "${way}: ${LINES_WORKLOAD}/obuf/threads:1 did not run (exit ${rc}):\n${out}\n${err}")
    endif()
    file(READ ${WORK}/lines-${way}/out.json json)
    string(JSON verified ERROR_VARIABLE no GET "${json}" benchmarks 0 verified)
    string(JSON name ERROR_VARIABLE no_name GET "${json}" benchmarks 0 name)
    if(no OR NOT verified EQUAL 1 OR NOT name STREQUAL "${LINES_WORKLOAD}/obuf/threads:1")
      message(FATAL_ERROR "${way}: the row of ${LINES_WORKLOAD} is not verified (${name}, ${verified}${no})")
    endif()
    message(STATUS "${way}: ${LINES_WORKLOAD}/obuf/threads:1 verified")
  endforeach()
endif()

if(MISMATCH_BUILD_TYPE)
  # The same plugin built another way: refused, both builds named.
  list(TRANSFORM configure REPLACE "^-DCMAKE_BUILD_TYPE=.*" "-DCMAKE_BUILD_TYPE=${MISMATCH_BUILD_TYPE}")
  step("configure (${MISMATCH_BUILD_TYPE})" ${configure} -B ${WORK}/mismatch)
  step("build the plugin (${MISMATCH_BUILD_TYPE})" ${CMAKE_COMMAND} --build ${WORK}/mismatch --target ${PLUGIN})
  file(GLOB other ${WORK}/mismatch/${PLUGIN}.so ${WORK}/mismatch/${PLUGIN}.dll)
  execute_process(COMMAND ${EMULATOR} ${iobench} --plugin ${other} --list
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REGEX MATCHALL "\n" lines "${err}")
  list(LENGTH lines count)
  if(NOT rc EQUAL 2 OR NOT count EQUAL 1 OR NOT out STREQUAL ""
     OR NOT err MATCHES "built with [^;]*, ${MISMATCH_BUILD_TYPE}, iobench API [0-9]+ [^;]*; this iobench: [^\n]*, ${BUILD_TYPE}, iobench API"
     OR NOT err MATCHES "Build the plugin with this iobench's compiler, standard library and build type")
    message(FATAL_ERROR "a ${MISMATCH_BUILD_TYPE} plugin was not refused as it should be (exit ${rc}):\n${out}\n${err}")
  endif()
  message(STATUS "refused: ${err}")
endif()
if(MISMATCH_COMPILER)
  # Configured with another compiler than iobench's: a warning that names both.
  execute_process(COMMAND ${configure} -B ${WORK}/other-compiler -DCMAKE_CXX_COMPILER=${MISMATCH_COMPILER}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REGEX REPLACE "[ \n]+" " " said "${err}")
  if(NOT rc EQUAL 0 OR NOT said MATCHES "iobench [0-9.]+ was built with [^;]+; this project compiles with ")
    message(FATAL_ERROR "configured with ${MISMATCH_COMPILER}: no warning naming both compilers (exit ${rc}):\n${err}")
  endif()
  message(STATUS "warned: ${said}")
  # Its executable built and run: the family's compiler is the other one, in
  # the context and in the summary (not against a sanitized iobench: another
  # compiler cannot link GCC's sanitizer runtime; report_test.cpp and
  # json_report_test.cpp check both texts there).
  if(SANITIZED)
    message(STATUS "iobench is sanitized: the executable is not built with ${MISMATCH_COMPILER}")
  else()
  step("build the executable (${MISMATCH_COMPILER})" ${CMAKE_COMMAND} --build ${WORK}/other-compiler --target ${EXE})
  get_filename_component(other_name "${MISMATCH_COMPILER}" NAME)
  if(other_name MATCHES "clang")
    set(other_id "Clang")
  else()
    set(other_id "GNU")
  endif()
  file(GLOB other_exe ${WORK}/other-compiler/${EXE} ${WORK}/other-compiler/${EXE}.exe)
  step("the executable (${MISMATCH_COMPILER}), --suite quick" ${run} -DIOBENCH=${other_exe} -DWORK=${WORK}/run-other
       -DADDED_BUILD_TYPE=${BUILD_TYPE} "-DADDED_COMPILER=^${other_id} [0-9]" -P ${CMAKE_CURRENT_LIST_DIR}/plugin_run.cmake)
  endif()
endif()
message(STATUS "times:${timing}")
file(REMOVE_RECURSE ${WORK})
