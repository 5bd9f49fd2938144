# cmake -DIOBENCH=exe -DCASE=other_owner_dir|shared_dir -DWORK=dir -P binsize_trust.cmake
# The binary_size workload's programs (hello-<method>) are looked for in
# binsize/ beside the executable, then ../libexec/iobench/binsize/ from it,
# then the build directory compiled into it: each such file is code iobench
# runs, checked as a plugin is (core/os/trusted_file.hpp). Each CASE links
# IOBENCH to WORK/bin/iobench and has WORK/bin/binsize/hello-fwrite be a
# script that leaves WORK/ran:
#   other_owner_dir  WORK/bin owned by uid 12345 (root only: chown), which
#                    plants the program as itself (setpriv): the file is
#                    named as its
#   shared_dir       WORK/bin/binsize of mode 0777, the program the caller's:
#                    the directory is named (anyone could replace the file)
# Either way binary_size/fwrite fails with one line saying who could change
# what, exit status 1, and the planted program never runs.
# Where chown cannot run (not root) other_owner_dir prints
# "iobench-test-skipped" (the test's SKIP_REGULAR_EXPRESSION).
cmake_policy(VERSION 3.25)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/bin ${WORK}/work)
# /proc/self/exe names the link iobench was started through: a hard link
# (the same file system as the build), else a copy.
file(CREATE_LINK ${IOBENCH} ${WORK}/bin/iobench COPY_ON_ERROR)
set(other 12345)
set(as_other "")
execute_process(COMMAND setpriv --reuid=${other} --regid=${other} --clear-groups true RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
if(rc EQUAL 0)
  set(as_other setpriv --reuid=${other} --regid=${other} --clear-groups)
endif()
if(CASE STREQUAL "other_owner_dir")
  execute_process(COMMAND chown ${other} ${WORK}/bin RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT as_other)
    file(REMOVE_RECURSE ${WORK})
    message("iobench-test-skipped: chown or setpriv: ${err}")
    return()
  endif()
  set(why "the file ${WORK}/bin/binsize/hello-fwrite belongs to uid ${other}")
elseif(CASE STREQUAL "shared_dir")
  file(MAKE_DIRECTORY ${WORK}/bin/binsize)
  file(CHMOD ${WORK}/bin/binsize DIRECTORY_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_WRITE
       GROUP_EXECUTE WORLD_READ WORLD_WRITE WORLD_EXECUTE)
  set(why "every user may write to the directory ${WORK}/bin/binsize \\(mode 777\\)")
else()
  message(FATAL_ERROR "unknown CASE ${CASE}")
endif()
# The program planted: by the other user in its own directory.
if(NOT CASE STREQUAL "other_owner_dir")
  set(as_other "")
endif()
execute_process(COMMAND ${as_other} sh -c
  "mkdir -p '${WORK}/bin/binsize' && printf '#!/bin/sh\\ntouch %s/ran\\n' '${WORK}' >'${WORK}/bin/binsize/hello-fwrite' && chmod 755 '${WORK}/bin/binsize/hello-fwrite'"
  RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${CASE}: planting the program failed: ${err}")
endif()
execute_process(COMMAND ${WORK}/bin/iobench --suite binary-size --benchmark_filter=^binary_size/fwrite$ --scale 0.0001
                        --benchmark_repetitions=1 --benchmark_min_time=0.001 --dir ${WORK}/work
                        --benchmark_out=${WORK}/out.json
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
if(EXISTS ${WORK}/ran)
  message(FATAL_ERROR "${CASE}: the planted program ran (exit status ${rc})\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(NOT rc STREQUAL "1")
  message(FATAL_ERROR "${CASE}: expected exit status 1, got ${rc}\nstdout:\n${out}\nstderr:\n${err}")
endif()
set(refused "binary_size program hello-fwrite ${WORK}/bin/binsize/hello-fwrite: refused: ${why}, so another user could change the code iobench would run")
if(NOT out MATCHES "fwrite +FAILED: [^\n]*${refused}")
  message(FATAL_ERROR "${CASE}: the summary does not show the row refused (${refused}):\n${out}\nstderr:\n${err}")
endif()
file(GLOB left ${WORK}/work/*)
if(left)
  message(FATAL_ERROR "${CASE}: the work directory was left: ${left}")
endif()
file(REMOVE_RECURSE ${WORK})
message(STATUS "${CASE}: ${out}")
