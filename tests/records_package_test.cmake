# cmake -DIOBENCH_BUILD=dir -DWORK=dir -DGENERATOR=g -DBUILD_TYPE=t [-DCONFIGURE_ARGS=a|b] -P records_package_test.cmake
# A user's typed records and the team's logger that formats them
# (tests/example_records.cpp, docs/plugins.md "Your own records"), built out
# of iobench's tree as a plugin against the installed package
# (tests/package/records), loaded into the installed iobench: its rows are
# verified, and the same file built with one wrong byte in one line of 1,000
# fails, naming the line.
cmake_policy(VERSION 3.25)
string(REPLACE "|" ";" CONFIGURE_ARGS "${CONFIGURE_ARGS}")
file(REMOVE_RECURSE ${WORK})
set(prefix ${WORK}/prefix)
function(step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
  endif()
endfunction()
step("cmake --install" ${CMAKE_COMMAND} --install ${IOBENCH_BUILD} --prefix ${prefix})
step("configure" ${CMAKE_COMMAND} -S ${CMAKE_CURRENT_LIST_DIR}/package/records -B ${WORK}/build -G ${GENERATOR}
     -DCMAKE_BUILD_TYPE=${BUILD_TYPE} ${CONFIGURE_ARGS} -DCMAKE_PREFIX_PATH=${prefix}
     -Diobench_DIR=${prefix}/lib/cmake/iobench)
step("build" ${CMAKE_COMMAND} --build ${WORK}/build)
file(GLOB iobench ${prefix}/bin/iobench ${prefix}/bin/iobench.exe)
foreach(case verified mistake)
  if(case STREQUAL "verified")
    set(plugin records_plugin)
    set(rows "^example_orders/(example_logger|fmt_print)/threads:1$")
    set(expect verified -DCOUNT=2)
  else()
    set(plugin records_plugin_mistake)
    set(rows "^example_orders/example_logger/threads:1$")
    set(expect failed "-DFAILED_REGEX=^verification failed: line 1000 is no item's line")
  endif()
  file(GLOB plugin_file ${WORK}/build/${plugin}.so ${WORK}/build/${plugin}.dll)
  step("${case}" ${CMAKE_COMMAND} -DIOBENCH=${iobench}
       "-DARGS=--plugin|${plugin_file}|--scale|0.01|--benchmark_repetitions=1|--benchmark_min_time=0.001"
       "-DFILTER=${rows}" "-DROWS=${rows}" -DEXPECT=${expect} -DWORK=${WORK}/run-${case}
       -P ${CMAKE_CURRENT_LIST_DIR}/logger_run.cmake)
  message(STATUS "${case}: ${plugin} as expected")
endforeach()
file(REMOVE_RECURSE ${WORK})
