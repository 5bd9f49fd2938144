# Generated sources: build description (configure time), git commit and the
# built-in suites (build time, rewritten only when their content changes).

set(IOBENCH_GENERATED_DIR ${PROJECT_BINARY_DIR}/generated)

if(CMAKE_CROSSCOMPILING)
  set(IOBENCH_COMPILER_TARGET "${CMAKE_CXX_COMPILER_TARGET}")
endif()
if(NOT IOBENCH_COMPILER_TARGET)
  set(IOBENCH_COMPILER_TARGET "${CMAKE_SYSTEM_NAME}-${CMAKE_SYSTEM_PROCESSOR}")
endif()
# valgrind, which --instructions runs where no hardware counter counts: an
# absolute path fixed here (IOBENCH_VALGRIND at run time may name another),
# never looked up on PATH at run time.
set(IOBENCH_VALGRIND_PATH "")
if(UNIX AND NOT CMAKE_CROSSCOMPILING)
  find_program(IOBENCH_VALGRIND valgrind DOC "valgrind, run by iobench --instructions (its absolute path is built in)")
  if(IOBENCH_VALGRIND)
    set(IOBENCH_VALGRIND_PATH "${IOBENCH_VALGRIND}")
  endif()
endif()
configure_file(${PROJECT_SOURCE_DIR}/core/os/build_info.hpp.in ${IOBENCH_GENERATED_DIR}/generated/build_info.hpp @ONLY)

# The built-in suites, suites/<name>.json each (listed, not globbed: a new
# suite is added here; Suite.EverySuiteFileIsBuiltIn checks the folder holds
# these and no other).
set(IOBENCH_SUITES
  binary-size buffer-sizes buffering console default durability endl fast_io file-read languages latency
  loggers own-methods paced quick read-back threads transcode)
set(IOBENCH_SUITE_FILES "")
foreach(_suite IN LISTS IOBENCH_SUITES)
  list(APPEND IOBENCH_SUITE_FILES ${PROJECT_SOURCE_DIR}/suites/${_suite}.json)
endforeach()
list(JOIN IOBENCH_SUITE_FILES "|" _iobench_suite_arg)
set(IOBENCH_GENERATED_SOURCES
  ${IOBENCH_GENERATED_DIR}/git_commit.cpp
  ${IOBENCH_GENERATED_DIR}/builtin_suites.cpp)

add_custom_target(iobench_git_commit
  COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -DOUTPUT=${IOBENCH_GENERATED_DIR}/git_commit.cpp
          -P ${PROJECT_SOURCE_DIR}/cmake/WriteGitCommit.cmake
  BYPRODUCTS ${IOBENCH_GENERATED_DIR}/git_commit.cpp
  COMMENT "Recording the git commit"
  VERBATIM)

add_custom_command(
  OUTPUT ${IOBENCH_GENERATED_DIR}/builtin_suites.cpp
  COMMAND ${CMAKE_COMMAND} -DOUTPUT=${IOBENCH_GENERATED_DIR}/builtin_suites.cpp
          "-DSUITES=${_iobench_suite_arg}" -P ${PROJECT_SOURCE_DIR}/cmake/EmbedSuites.cmake
  DEPENDS ${IOBENCH_SUITE_FILES} ${PROJECT_SOURCE_DIR}/cmake/EmbedSuites.cmake
  COMMENT "Embedding the suites"
  VERBATIM)

# The console summary's columns, from the one file that says what they are,
# which iobench-compare reads as package data (cmake/GenerateSummaryColumns.cmake).
set(IOBENCH_SUMMARY_COLUMNS_SPEC ${PROJECT_SOURCE_DIR}/tools/iobench_compare/spec/summary_columns.json)
add_custom_command(
  OUTPUT ${IOBENCH_GENERATED_DIR}/generated/summary_columns.hpp
  COMMAND ${CMAKE_COMMAND} -DSPEC=${IOBENCH_SUMMARY_COLUMNS_SPEC}
          -DOUTPUT=${IOBENCH_GENERATED_DIR}/generated/summary_columns.hpp
          -P ${PROJECT_SOURCE_DIR}/cmake/GenerateSummaryColumns.cmake
  DEPENDS ${IOBENCH_SUMMARY_COLUMNS_SPEC} ${PROJECT_SOURCE_DIR}/cmake/GenerateSummaryColumns.cmake
  COMMENT "Generating the summary's columns"
  VERBATIM)

# The report rules' values, from the file that says what they are (cmake/GenerateReportRules.cmake).
set(IOBENCH_REPORT_RULES_SPEC ${PROJECT_SOURCE_DIR}/tools/iobench_compare/spec/report_rules.json)
add_custom_command(
  OUTPUT ${IOBENCH_GENERATED_DIR}/generated/report_rules.hpp
  COMMAND ${CMAKE_COMMAND} -DSPEC=${IOBENCH_REPORT_RULES_SPEC} -DOUTPUT=${IOBENCH_GENERATED_DIR}/generated/report_rules.hpp
          -P ${PROJECT_SOURCE_DIR}/cmake/GenerateReportRules.cmake
  DEPENDS ${IOBENCH_REPORT_RULES_SPEC} ${PROJECT_SOURCE_DIR}/cmake/GenerateReportRules.cmake
  COMMENT "Generating the report rules"
  VERBATIM)

# The operating system's counters, from the file that says what they are (cmake/GenerateOsCounters.cmake).
set(IOBENCH_OS_COUNTERS_SPEC ${PROJECT_SOURCE_DIR}/tools/iobench_compare/spec/os_counters.json)
add_custom_command(
  OUTPUT ${IOBENCH_GENERATED_DIR}/generated/os_counter_list.hpp
  COMMAND ${CMAKE_COMMAND} -DSPEC=${IOBENCH_OS_COUNTERS_SPEC} -DOUTPUT=${IOBENCH_GENERATED_DIR}/generated/os_counter_list.hpp
          -P ${PROJECT_SOURCE_DIR}/cmake/GenerateOsCounters.cmake
  DEPENDS ${IOBENCH_OS_COUNTERS_SPEC} ${PROJECT_SOURCE_DIR}/cmake/GenerateOsCounters.cmake
  COMMENT "Generating the list of the operating system's counters"
  VERBATIM)

# Every room's objects, and every test that compiles iobench's own headers, depend on this target.
add_custom_target(iobench_generated DEPENDS iobench_git_commit ${IOBENCH_GENERATED_DIR}/builtin_suites.cpp
  ${IOBENCH_GENERATED_DIR}/generated/summary_columns.hpp ${IOBENCH_GENERATED_DIR}/generated/report_rules.hpp
  ${IOBENCH_GENERATED_DIR}/generated/os_counter_list.hpp)
