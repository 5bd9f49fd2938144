# cmake -DIOBENCH=exe -DWORK=dir -P cpus_context.cmake
# --cpus 0 pins the run: it runs verified, and the results' context says
# "cpus": "0 (sched_setaffinity; ...; allowed before: ...)".
cmake_policy(VERSION 3.25)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/dir)
execute_process(COMMAND ${IOBENCH} --cpus 0 "--benchmark_filter=^hello/obuf$" --scale 0.001 --benchmark_repetitions=1
                        --dir ${WORK}/dir --benchmark_out=${WORK}/out.json
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "expected exit status 0, got ${rc}\nstdout:\n${out}\nstderr:\n${err}")
endif()
file(READ ${WORK}/out.json json)
string(JSON cpus GET "${json}" context cpus)
if(NOT cpus MATCHES "^0 \\(sched_setaffinity; every thread started afterwards inherits it; allowed before: [0-9][0-9,-]*\\)$")
  message(FATAL_ERROR "the context's cpus says '${cpus}'")
endif()
file(REMOVE_RECURSE ${WORK})
message(STATUS "cpus: ${cpus}")
