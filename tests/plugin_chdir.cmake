# cmake -DIOBENCH=exe -DPLUGIN=chdir_plugin -DWORK=dir -DWHEN=run|load -P plugin_chdir.cmake
# A plugin changes the working directory (in its method's run, or when it is
# loaded); iobench started in WORK/start with `--dir . --benchmark_out=rel.json`
# must write its results to WORK/start/rel.json, remove its work directory
# there, and leave WORK/elsewhere (where the plugin went) untouched.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/start ${WORK}/elsewhere)
if(WHEN STREQUAL "load")
  set(ENV{IOBENCH_TEST_CHDIR_AT_LOAD} ${WORK}/elsewhere)
else()
  set(ENV{IOBENCH_TEST_CHDIR} ${WORK}/elsewhere)
endif()
execute_process(COMMAND ${IOBENCH} --plugin ${PLUGIN} "--benchmark_filter=^hello/zz_chdir_fwrite$" --scale 0.001
                        --benchmark_repetitions=1 --benchmark_min_time=0.001 --dir . --benchmark_out=rel.json
  WORKING_DIRECTORY ${WORK}/start RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "exit ${rc}:\n${out}\n${err}")
endif()
if(NOT EXISTS ${WORK}/start/rel.json)
  message(FATAL_ERROR "no results in the directory iobench started in:\n${err}")
endif()
file(GLOB left ${WORK}/start/iobench-* ${WORK}/elsewhere/*)
if(left)
  message(FATAL_ERROR "left behind, or written where the plugin went: ${left}\n${err}")
endif()
if(WHEN STREQUAL "load" AND NOT err MATCHES "iobench: warning: a plugin changed the working directory to [^\n]*elsewhere; back to [^\n]*start\n")
  message(FATAL_ERROR "no warning that a plugin changed the working directory:\n${err}")
endif()
file(READ ${WORK}/start/rel.json json)
string(JSON verified GET "${json}" benchmarks 0 verified)
if(NOT verified EQUAL 1)
  message(FATAL_ERROR "the row is not verified:\n${json}")
endif()
message(STATUS "results in start/rel.json, nothing in elsewhere/ (${WHEN})")
file(REMOVE_RECURSE ${WORK})
