# cmake -DIOBENCH=exe [-DEMULATOR=...] -DARGS=a;b -DREGEX=... -DWORK=dir [-DENV=VAR=value] -P plugin_refused.cmake
# Runs iobench with ARGS (and a results file) and checks that the plugin was
# refused: exit 2, one line on stderr matching REGEX, nothing on stdout,
# no results file and no working directory left. In ARGS, @FIFO@ and @DIR@
# stand for a FIFO and a directory made here, in WORK (removed afterwards).
cmake_policy(VERSION 3.25)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/dir ${WORK}/a-directory)
set(args "")
foreach(a ${ARGS})
  if(a STREQUAL "@FIFO@")
    execute_process(COMMAND mkfifo ${WORK}/plugin.so RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "mkfifo failed")
    endif()
    set(a ${WORK}/plugin.so)
  elseif(a STREQUAL "@DIR@")
    set(a ${WORK}/a-directory)
  endif()
  list(APPEND args "${a}")
endforeach()
# A FIFO opened for reading without O_NONBLOCK would block: the timeout ends
# the test rather than hanging it.
# ENV: VAR=value pairs the run gets (cmake -E env).
set(with_env "")
if(ENV)
  set(with_env ${CMAKE_COMMAND} -E env ${ENV})
endif()
execute_process(COMMAND ${with_env} ${EMULATOR} ${IOBENCH} ${args} --dir ${WORK}/dir --benchmark_out=${WORK}/out.json
                        --scale 0.001 --benchmark_min_time=0.001
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
if(NOT rc STREQUAL "2")
  message(FATAL_ERROR "expected exit status 2, got ${rc}\nstdout:\n${out}\nstderr:\n${err}")
endif()
string(REGEX MATCHALL "\n" lines "${err}")
list(LENGTH lines count)
if(NOT count EQUAL 1 OR NOT err MATCHES "^iobench: error: ")
  message(FATAL_ERROR "expected a one-line error, got ${count} lines:\n${err}")
endif()
if(NOT err MATCHES "${REGEX}")
  message(FATAL_ERROR "stderr does not match '${REGEX}':\n${err}")
endif()
if(NOT out STREQUAL "")
  message(FATAL_ERROR "a refused run printed on stdout:\n${out}")
endif()
file(GLOB left ${WORK}/out.json* ${WORK}/dir/*)
if(left)
  message(FATAL_ERROR "a refused run left ${left}")
endif()
file(REMOVE_RECURSE ${WORK})
message(STATUS "refused: ${err}")
