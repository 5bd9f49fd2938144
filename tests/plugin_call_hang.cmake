# cmake -DIOBENCH=exe -DPLUGIN=plugin -DTHREADS=n -DSINK=shared|per_thread -DHOW=hang_line|throw_line|abort_line -DWORK=dir
#       -P plugin_call_hang.cmake
# A per-call method whose 1,000th line never returns, or throws
# (tests/plugins/misbehaves_in_run.cpp, zz_hangs_in_call): the line falls in
# the first run of its calls, in its sizing run, before any repetition.
#   hang_line   --time-limit 2 must end the run: exit status 1, one line
#               naming the benchmark, its row FAILED in the results, the work
#               directory removed; never a hang (the test gives it 60 s)
#   throw_line  its row FAILED with the call's error, not as a run that could
#               not be prepared; exit status 1
#   abort_line  (Linux) the crash ends the run as a hang does, its row FAILED
#               naming SIGABRT (a shared sink's method that is not thread-safe
#               once crashed iobench with a double free: no results at all)
cmake_policy(VERSION 3.25)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/dir)
file(WRITE ${WORK}/suite.json
  "{\"benchmarks\":[{\"workload\":\"hello\",\"methods\":[\"zz_hangs_in_call\"],\"threads\":[${THREADS}],\"sink\":[\"${SINK}\"]}]}")
execute_process(COMMAND ${CMAKE_COMMAND} -E env IOBENCH_TEST_IN_RUN=${HOW} ${IOBENCH} --plugin ${PLUGIN}
                        --suite ${WORK}/suite.json --scale 0.001 --benchmark_repetitions=1 --benchmark_min_time=0.001
                        --time-limit 2 --dir ${WORK}/dir --benchmark_out=${WORK}/out.json
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
set(name "hello/zz_hangs_in_call/threads:${THREADS}")
if(THREADS GREATER 1)
  set(name "${name}/sink:${SINK}")
endif()
if(NOT rc STREQUAL "1")
  message(FATAL_ERROR "${name} ${HOW}: expected exit status 1, got ${rc}\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(HOW STREQUAL "hang_line")
  set(why "its call did not return within the time limit of 2 s \\(--time-limit\\)")
  if(NOT err MATCHES "iobench: error: ${name}: ${why}; the run ends here, with the rows that finished before it\n")
    message(FATAL_ERROR "${name}: stderr does not name the benchmark and why:\n${err}")
  endif()
elseif(HOW STREQUAL "abort_line")
  set(why "crashed with SIGABRT \\(abort\\(\\): a failed assertion, or the C library finding its heap corrupted, a double free among them\\) during its run")
  if(NOT err MATCHES "iobench: error: ${name}: ${why}; the run ends here, with the rows that finished before it\n")
    message(FATAL_ERROR "${name}: stderr does not name the benchmark and why:\n${err}")
  endif()
else()
  # The throw is in the sizing run's first run of calls: the benchmark fails with it.
  set(why "the 1,000th line failed; in its sizing run \\(its repetitions did not run\\)")
endif()
if(NOT EXISTS ${WORK}/out.json.failed)
  message(FATAL_ERROR "${name} ${HOW}: no results file:\nstderr:\n${err}")
endif()
file(READ ${WORK}/out.json.failed json)
string(JSON message GET "${json}" benchmarks 0 error_message)
if(NOT message MATCHES "^${why}$")
  message(FATAL_ERROR "${name} ${HOW}: the results' row says '${message}'")
endif()
file(GLOB left ${WORK}/dir/*)
if(left)
  message(FATAL_ERROR "${name} ${HOW}: the work directory was left: ${left}")
endif()
file(REMOVE_RECURSE ${WORK})
message(STATUS "${name} ${HOW}: ${message}")
