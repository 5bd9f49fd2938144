# Runs the main job (cmake -P, from the `main-job` target of
# cmake/IobenchMainJob.cmake): iobench --suite default --results-dir
# RESULTS_DIR ARGS..., with its output straight on the terminal, then the
# HTML report of the new results file next to it (tools/report-newest.cmake:
# results/<name>.html), or how to get it when no Python has the tool's
# dependencies.
# Fails (non-zero exit) when iobench does.
cmake_minimum_required(VERSION 3.25)

# EMULATOR and ARGS arrive with "|" between their items (cmake/IobenchMainJob.cmake).
string(REPLACE "|" ";" EMULATOR "${EMULATOR}")
string(REPLACE "|" ";" ARGS "${ARGS}")
file(GLOB before "${RESULTS_DIR}/*.json")
set(command ${EMULATOR} ${IOBENCH} --suite default --results-dir ${RESULTS_DIR} ${ARGS})
execute_process(COMMAND ${command} RESULT_VARIABLE status)
file(GLOB after "${RESULTS_DIR}/*.json")
list(REMOVE_ITEM after ${before} "")
if(after)  # a results file was written: the newest one in RESULTS_DIR
  execute_process(COMMAND ${CMAKE_COMMAND} "-DRESULTS_DIR=${RESULTS_DIR}" -P "${TOOLS_DIR}/report-newest.cmake")
endif()

if(NOT status EQUAL 0)
  message(FATAL_ERROR "iobench exited with status ${status}")
endif()
