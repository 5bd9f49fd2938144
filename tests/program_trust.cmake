# cmake -DIOBENCH=exe -DGO_PROGRAM=iobench-go -DCASE=name -DWORK=dir -P program_trust.cmake
# A program method's file is looked for first in an installed tree beside the
# executable (<exe dir>/../libexec/iobench/methods/go/iobench-go): with the
# executable one level below a directory others can write to, that place is
# theirs to plant a program in. iobench runs a program only when no other
# user than the caller and root can change it or a directory above it
# (core/programs/program.hpp, check_program). Each CASE links IOBENCH to
# WORK/bin/iobench, puts a go program at WORK/libexec/iobench/methods/go/
# and runs ints_out/go_bufio.Writer:
#   planted_shared       WORK/libexec of mode 0777, the program a script that
#                        leaves WORK/ran: exit 2, one line naming the
#                        directory, and the script never ran
#   planted_other_owner  WORK/libexec owned by uid 54321 (root only: chown): the same
#   installed            a copy of GO_PROGRAM, mode 0755: the row runs, and the
#                        results' context names the file and its owner
# Without a Go toolchain (GO_PROGRAM absent), or where chown cannot run, the
# case prints "iobench-test-skipped" (the test's SKIP_REGULAR_EXPRESSION).
cmake_policy(VERSION 3.25)
if(NOT EXISTS "${GO_PROGRAM}")
  message("iobench-test-skipped: no go program was built (${GO_PROGRAM})")
  return()
endif()
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/bin ${WORK}/work ${WORK}/libexec/iobench/methods/go)
# /proc/self/exe names the link iobench was started through: a hard link
# (the same file system as the build), else a copy.
file(CREATE_LINK ${IOBENCH} ${WORK}/bin/iobench COPY_ON_ERROR)
set(program ${WORK}/libexec/iobench/methods/go/iobench-go)
set(expect_exit 2)
if(CASE STREQUAL "planted_shared" OR CASE STREQUAL "planted_other_owner")
  file(WRITE ${program} "#!/bin/sh\ntouch ${WORK}/ran\necho ready\n")
  file(CHMOD ${program} FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
  if(CASE STREQUAL "planted_shared")
    file(CHMOD ${WORK}/libexec DIRECTORY_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_WRITE
         GROUP_EXECUTE WORLD_READ WORLD_WRITE WORLD_EXECUTE)
    set(why "every user may write to the directory ${WORK}/libexec \\(mode 777\\)")
  else()
    execute_process(COMMAND chown -R 54321 ${WORK}/libexec RESULT_VARIABLE rc ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      file(REMOVE_RECURSE ${WORK})
      message("iobench-test-skipped: chown: ${err}")
      return()
    endif()
    set(why "the (directory|file) ${WORK}/libexec[^ ]* belongs to uid 54321")
  endif()
elseif(CASE STREQUAL "installed")
  file(COPY_FILE ${GO_PROGRAM} ${program})
  set(expect_exit 0)
else()
  message(FATAL_ERROR "unknown CASE ${CASE}")
endif()
execute_process(COMMAND ${WORK}/bin/iobench --benchmark_filter=^ints_out/go_bufio.Writer$ --scale 0.001
                        --benchmark_repetitions=1 --benchmark_min_time=0.001 --dir ${WORK}/work
                        --benchmark_out=${WORK}/out.json
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
if(NOT rc STREQUAL expect_exit)
  message(FATAL_ERROR "${CASE}: expected exit status ${expect_exit}, got ${rc}\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(expect_exit EQUAL 2)
  string(REGEX MATCHALL "\n" lines "${err}")
  list(LENGTH lines count)
  if(NOT count EQUAL 1 OR NOT err MATCHES "^iobench: error: program method go_bufio.Writer: ${program}: refused: ${why}, so another user could change the code iobench would run")
    message(FATAL_ERROR "${CASE}: expected one line refusing the program (${why}), got:\n${err}")
  endif()
  if(EXISTS ${WORK}/ran)
    message(FATAL_ERROR "${CASE}: the planted program ran")
  endif()
  if(EXISTS ${WORK}/out.json OR NOT out STREQUAL "")
    message(FATAL_ERROR "${CASE}: a refused run wrote results or a summary:\n${out}")
  endif()
else()
  file(READ ${WORK}/out.json json)
  string(JSON programs GET "${json}" context programs)
  execute_process(COMMAND stat -c %U ${program} OUTPUT_VARIABLE owner OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT programs STREQUAL "go_bufio.Writer: ${program} (owner ${owner})")
    message(FATAL_ERROR "${CASE}: context.programs is '${programs}', not the installed program of ${owner}")
  endif()
endif()
file(REMOVE_RECURSE ${WORK})
message(STATUS "${CASE}: ${err}")
