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
  loggers loggers-anchor own-methods paced quick read-back threads transcode)
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

# The specs, each the one file that says what its facts are, which
# iobench-compare reads as package data (tools/iobench_compare/spec/): the
# build writes a header of each (generated/<header>) with the script
# cmake/Generate<script>.cmake, run again when the spec or the script changes.
set(IOBENCH_SPEC_DIR ${PROJECT_SOURCE_DIR}/tools/iobench_compare/spec)
set(IOBENCH_SPEC_HEADERS "")
function(iobench_generate_from_spec spec header script what)
  set(output ${IOBENCH_GENERATED_DIR}/generated/${header})
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -DSPEC=${IOBENCH_SPEC_DIR}/${spec} -DOUTPUT=${output}
            -P ${PROJECT_SOURCE_DIR}/cmake/Generate${script}.cmake
    DEPENDS ${IOBENCH_SPEC_DIR}/${spec} ${PROJECT_SOURCE_DIR}/cmake/Generate${script}.cmake
            ${PROJECT_SOURCE_DIR}/cmake/SpecOutput.cmake
    COMMENT "Generating ${what} (generated/${header})"
    VERBATIM)
  set(IOBENCH_SPEC_HEADERS ${IOBENCH_SPEC_HEADERS} ${output} PARENT_SCOPE)
endfunction()
iobench_generate_from_spec(summary_columns.json summary_columns.hpp SummaryColumns "the summary's columns")
iobench_generate_from_spec(report_rules.json report_rules.hpp ReportRules "the report rules")
iobench_generate_from_spec(os_counters.json os_counter_list.hpp OsCounters "the list of the OS counters")
iobench_generate_from_spec(results_format.json results_format.hpp ResultsFormat "the results format's names")
set(IOBENCH_SUMMARY_COLUMNS_SPEC ${IOBENCH_SPEC_DIR}/summary_columns.json)
set(IOBENCH_REPORT_RULES_SPEC ${IOBENCH_SPEC_DIR}/report_rules.json)
set(IOBENCH_OS_COUNTERS_SPEC ${IOBENCH_SPEC_DIR}/os_counters.json)
set(IOBENCH_RESULTS_FORMAT_SPEC ${IOBENCH_SPEC_DIR}/results_format.json)

# Every room's objects, and every test that compiles iobench's own headers, depend on this target.
add_custom_target(iobench_generated DEPENDS iobench_git_commit ${IOBENCH_GENERATED_DIR}/builtin_suites.cpp
  ${IOBENCH_SPEC_HEADERS})
