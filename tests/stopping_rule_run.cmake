# cmake -DIOBENCH=exe [-DEMULATOR=...] -DSUITE=tests/data/suite_stopping_rule.json -DWORK=dir [-DWARMUP=ON]
#       -P stopping_rule_run.cmake
# Runs iobench on a suite whose stopping rule every run meets (at most 9
# repetitions, at least 6, an interval within ±90 % of the median: a
# repetition of 0.1 s of runs twice as slow as the median one would be
# needed to miss it) and checks the run as a reader sees it: exit 0; every
# benchmark has exactly 6 repetition rows, none an error, each saying 6
# repetitions; its 4 aggregates (mean, median, stddev, cv) say 6 repetitions
# and 6 iterations (Google Benchmark's would say 9); the context says the
# rule; the summary names the rows that ran 6 of at most 9; the progress
# lines count no 7th repetition.
# Under an EMULATOR (wine) a repetition twice as slow as the median one
# happens (the wineserver, a busy machine): there each benchmark must run 6
# to 9 repetitions, every row and aggregate of it saying the same number, and
# the summary must name those that ran fewer than 9; natively, exactly 6.
# WARMUP: the same with --benchmark_min_warmup_time, whose warm-up calls the
# rule would count as repetitions: it is not applied (stderr says so), every
# benchmark runs all 9, and neither the context nor the summary claims a rule.
cmake_policy(VERSION 3.25)
string(REPLACE "|" ";" EMULATOR "${EMULATOR}")
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/dir)
set(args "")
set(ran 6)
if(WARMUP)
  set(args --benchmark_min_warmup_time=0.01)
  set(ran 9)
endif()
execute_process(COMMAND ${EMULATOR} ${IOBENCH} --suite ${SUITE} --dir ${WORK}/dir --benchmark_out=${WORK}/out.json ${args}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "expected exit status 0, got ${rc}\nstdout:\n${out}\nstderr:\n${err}")
endif()
set(benchmarks ints_out/obuf ints_out/limit)
set(rule "at least 6 and at most 9 repetitions; a benchmark stops once the 95 % interval of its median is within ±90 % of the median")
file(READ ${WORK}/out.json json)
string(JSON context_rule ERROR_VARIABLE no_rule GET "${json}" context stopping_rule)
if(WARMUP)
  if(NOT no_rule)
    message(FATAL_ERROR "with a warm-up the context claims a stopping rule: ${context_rule}")
  endif()
  if(NOT err MATCHES "iobench: the suite's stopping rule is not applied with --benchmark_min_warmup_time")
    message(FATAL_ERROR "stderr does not say the rule is not applied:\n${err}")
  endif()
elseif(no_rule OR NOT context_rule STREQUAL rule)
  message(FATAL_ERROR "context.stopping_rule is '${context_rule}' (${no_rule}), not '${rule}'")
endif()
string(JSON rows LENGTH "${json}" benchmarks)
math(EXPR last "${rows} - 1")
foreach(i RANGE ${last})
  string(JSON name GET "${json}" benchmarks ${i} run_name)
  string(JSON run_type GET "${json}" benchmarks ${i} run_type)
  string(JSON repetitions GET "${json}" benchmarks ${i} repetitions)
  string(JSON iterations GET "${json}" benchmarks ${i} iterations)
  string(JSON error ERROR_VARIABLE no_error GET "${json}" benchmarks ${i} error_occurred)
  if(NOT no_error)
    string(JSON message ERROR_VARIABLE ignored GET "${json}" benchmarks ${i} error_message)
    message(FATAL_ERROR "row ${i} (${name}, ${run_type}) is an error: ${message}")
  endif()
  # The repetitions benchmark `name` ran: its first row's count, which
  # every other row of it must say too.
  if(NOT DEFINED ran_${name})
    set(ran_${name} ${repetitions})
    if(NOT repetitions EQUAL ran AND (WARMUP OR NOT EMULATOR OR repetitions LESS 6 OR repetitions GREATER 9))
      message(FATAL_ERROR "row ${i} (${name}, ${run_type}) says ${repetitions} repetitions, not ${ran}")
    endif()
  endif()
  if(NOT repetitions EQUAL ran_${name})
    message(FATAL_ERROR "row ${i} (${name}, ${run_type}) says ${repetitions} repetitions, another row of it ${ran_${name}}")
  endif()
  if(run_type STREQUAL "aggregate")
    string(JSON aggregate GET "${json}" benchmarks ${i} aggregate_name)
    if(NOT iterations EQUAL ran_${name})
      message(FATAL_ERROR "the ${aggregate} of ${name} says ${iterations} iterations, not the ${ran_${name}} repetitions that ran")
    endif()
    list(APPEND aggregates_of_${name} ${aggregate})
  else()
    list(APPEND repetitions_of_${name} ${i})
  endif()
endforeach()
foreach(b ${benchmarks})
  list(LENGTH repetitions_of_${b} n)
  list(LENGTH aggregates_of_${b} na)
  if(NOT n EQUAL ran_${b} OR NOT na EQUAL 4)
    message(FATAL_ERROR "${b}: ${n} repetition rows and ${na} aggregates (${aggregates_of_${b}}), expected ${ran_${b}} and 4")
  endif()
  if(ran_${b} LESS 9)
    list(APPEND fewer ${b})
  endif()
endforeach()
if(WARMUP)
  if(out MATCHES "stopping rule")
    message(FATAL_ERROR "with a warm-up the summary claims a stopping rule:\n${out}")
  endif()
elseif(NOT EMULATOR AND NOT out MATCHES "\n- repetitions where fewer than 9 ran: 6 for ints_out/obuf, ints_out/limit \\(the suite's stopping rule: ")
  message(FATAL_ERROR "the summary does not name the rows that ran 6 of at most 9:\n${out}")
elseif(EMULATOR AND fewer)
  string(REGEX MATCH "\n- repetitions where fewer than 9 ran: [^\n]*\\(the suite's stopping rule: " note "${out}")
  foreach(b ${fewer})
    if(NOT note MATCHES "[0-9] for ([^ ]+, )*${b}[,( ]")
      message(FATAL_ERROR "the summary does not name ${b}, which ran fewer than 9:\n${out}")
    endif()
  endforeach()
endif()
if(out MATCHES "FAILED|not run" OR (NOT WARMUP AND NOT EMULATOR AND err MATCHES "repetition [7-9]/9|\\[1[3-8]/"))
  message(FATAL_ERROR "a repetition not run shows:\nstdout:\n${out}\nstderr:\n${err}")
endif()
file(REMOVE_RECURSE ${WORK})
message(STATUS "${benchmarks}: fewer than 9 repetitions: ${fewer}")
