# Runs the main job (cmake -P, from the `main-job` target of
# cmake/IobenchMainJob.cmake): iobench --suite default --results-dir
# RESULTS_DIR ARGS..., with its output straight on the terminal.
# Fails (non-zero exit) when iobench does.
cmake_minimum_required(VERSION 3.25)

file(GLOB before "${RESULTS_DIR}/*.json")
set(command ${EMULATOR} ${IOBENCH} --suite default --results-dir ${RESULTS_DIR} ${ARGS})
execute_process(COMMAND ${command} RESULT_VARIABLE status)
file(GLOB after "${RESULTS_DIR}/*.json")
list(REMOVE_ITEM after ${before} "")

if(NOT status EQUAL 0)
  message(FATAL_ERROR "iobench exited with status ${status}")
endif()
