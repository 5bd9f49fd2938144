# cmake -DIOBENCH=exe [-DEMULATOR=...] -DWORK=dir -DARGS=a;b [-DFILTER=regex] [-DNEEDS=file] -DROWS=regex -DEXPECT=verified|failed
#       [-DCOUNT=n] [-DFAILED_REGEX=regex] [-DDROPPED=reported|absent [-DDROPPED_EQUALS=n]] [-DFORBID=regex]
#       -P logger_run.cmake
# Runs iobench with ARGS (lists with "|" between items) and FILTER (the
# --benchmark_filter, which may hold a "|"), its results written
# to WORK/out.json, and checks the rows whose names match ROWS (at least
# COUNT of them, else one):
#   EXPECT=verified  exit 0, every repetition of each row verified (no error);
#   EXPECT=failed    exit 1, every repetition an error whose message matches
#                    FAILED_REGEX (the results then are out.json.failed);
#   DROPPED=reported each row carries records_dropped (its values are printed:
#                    0 is a logger that kept up), equal to DROPPED_EQUALS when
#                    given; absent: no row carries it.
# NEEDS: a file (a logger's plugin) without which the test is skipped, with
# the reason (the output says "iobench-test-skipped": the test's
# SKIP_REGULAR_EXPRESSION). FORBID: the summary must not match it.
cmake_policy(VERSION 3.25)
if(NEEDS AND NOT EXISTS "${NEEDS}")
  message("iobench-test-skipped: ${NEEDS} is not built (cmake --build <build dir> --target loggers)")
  return()
endif()
string(REPLACE "|" ";" ARGS "${ARGS}")
if(FILTER)
  list(APPEND ARGS "--benchmark_filter=${FILTER}")
endif()
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/dir)
string(REPLACE "|" ";" EMULATOR "${EMULATOR}")
execute_process(COMMAND ${EMULATOR} ${IOBENCH} ${ARGS} --dir ${WORK}/dir --benchmark_out=${WORK}/out.json
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(EXPECT STREQUAL "failed")
  set(expected_rc 1)
  set(results ${WORK}/out.json.failed)
else()
  set(expected_rc 0)
  set(results ${WORK}/out.json)
endif()
if(NOT rc EQUAL expected_rc)
  message(FATAL_ERROR "expected exit status ${expected_rc}, got ${rc}\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(FORBID AND out MATCHES "${FORBID}")
  message(FATAL_ERROR "the summary matches the forbidden '${FORBID}':\n${out}")
endif()
if(NOT COUNT)
  set(COUNT 1)
endif()
file(READ ${results} json)
string(JSON n LENGTH "${json}" benchmarks)
set(rows "")
set(matched 0)
math(EXPR last "${n} - 1")
foreach(i RANGE ${last})
  string(JSON name GET "${json}" benchmarks ${i} name)
  string(JSON run_type GET "${json}" benchmarks ${i} run_type)
  if(NOT run_type STREQUAL "iteration" OR NOT name MATCHES "${ROWS}")
    continue()
  endif()
  math(EXPR matched "${matched} + 1")
  list(APPEND rows "${name}")
  string(JSON error ERROR_VARIABLE no_error GET "${json}" benchmarks ${i} error_occurred)
  string(JSON message ERROR_VARIABLE no_message GET "${json}" benchmarks ${i} error_message)
  if(EXPECT STREQUAL "failed")
    if(NOT error OR NOT message MATCHES "${FAILED_REGEX}")
      message(FATAL_ERROR "${name}: expected an error matching '${FAILED_REGEX}', got '${message}'\nstdout:\n${out}")
    endif()
  elseif(error)
    message(FATAL_ERROR "${name}: ${message}\nstdout:\n${out}")
  endif()
  string(JSON dropped ERROR_VARIABLE no_dropped GET "${json}" benchmarks ${i} records_dropped)
  if(DROPPED STREQUAL "reported" AND NOT EXPECT STREQUAL "failed")
    if(no_dropped)
      message(FATAL_ERROR "${name}: no records_dropped counter\nstdout:\n${out}")
    endif()
    if(DEFINED DROPPED_EQUALS AND NOT dropped EQUAL DROPPED_EQUALS)
      message(FATAL_ERROR "${name}: records_dropped ${dropped}, expected ${DROPPED_EQUALS}")
    endif()
    message(STATUS "${name}: records_dropped ${dropped}")
  elseif(DROPPED STREQUAL "absent" AND NOT no_dropped)
    message(FATAL_ERROR "${name}: records_dropped ${dropped}, from a method that does not drop")
  endif()
endforeach()
list(REMOVE_DUPLICATES rows)
list(LENGTH rows distinct)
if(distinct LESS COUNT)
  message(FATAL_ERROR "expected at least ${COUNT} rows matching '${ROWS}', found ${distinct}: ${rows}\nstdout:\n${out}")
endif()
message(STATUS "${distinct} rows checked: ${rows}")
