# cmake -DCOMMAND=exe -DEMULATOR=... -DARGS=a;b -DEXIT_CODE=2 -DREGEX=... [-DFORBID=...] -P expect_exit.cmake
# Runs the command, fails unless it exits with EXIT_CODE and its stderr
# (or stdout, for exit 0) matches REGEX, and (when FORBID is given) neither
# its stdout nor its stderr matches FORBID.
execute_process(COMMAND ${EMULATOR} ${COMMAND} ${ARGS}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc STREQUAL EXIT_CODE)
  message(FATAL_ERROR "expected exit status ${EXIT_CODE}, got ${rc}\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(EXIT_CODE EQUAL 0)
  set(text "${out}")
else()
  set(text "${err}")
  string(REGEX MATCHALL "\n" lines "${err}")
  list(LENGTH lines count)
  if(NOT count EQUAL 1)
    message(FATAL_ERROR "expected a one-line error, got ${count} lines:\n${err}")
  endif()
endif()
if(REGEX STREQUAL "")
  message(FATAL_ERROR "expect_exit.cmake: give a REGEX the output must match")
endif()
if(DEFINED FORBID AND NOT FORBID STREQUAL "" AND ("${out}${err}" MATCHES "${FORBID}"))
  message(FATAL_ERROR "output matches the forbidden '${FORBID}':\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(NOT text MATCHES "${REGEX}")
  message(FATAL_ERROR "output does not match '${REGEX}':\nstdout:\n${out}\nstderr:\n${err}")
endif()
message(STATUS "exit status ${rc}: ${err}")
