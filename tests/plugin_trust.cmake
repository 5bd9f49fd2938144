# cmake -DIOBENCH=exe -DPLUGIN=plugin.so -DOTHER=other-plugin.so -DCASE=name -DWORK=dir -P plugin_trust.cmake
# A plugin runs its code as the caller: iobench loads one only when no other
# user than the caller and root can change it or a directory above it
# (core/os/trusted_file.hpp), and loads the file the path names with every
# link followed. Each CASE puts a copy of PLUGIN somewhere in WORK (under the
# build tree, which only its owner may change) and runs `iobench --plugin
# COPY` on one of its rows:
#   world_writable_file  the copy writable by every user (o+w)  exit 2, the file named
#   shared_dir           in a directory of mode 0777          exit 2, the directory named
#   group_writable       mode 0664, a group not the caller's  exit 2 (root only: chgrp)
#   other_owner          the copy owned by uid 54321          exit 2 (root only: chown)
#   other_owner_dir      its directory owned by uid 54321     exit 2 (root only: chown)
#   sticky_dir           in a directory of mode 1777 (/tmp's)  loaded, exit 0
#   dotdot_link          given as WORK/lnk/../p.so where lnk -> WORK/real/sub: loaded from
#                        WORK/real/p.so (as the shell resolves it), not the lexical
#                        WORK/p.so, which is OTHER (a plugin iobench refuses)
# A plugin loaded runs one small row; stderr and the results' context name
# the file loaded, its owner and its SHA-256.
# Where chown or chgrp cannot run (not root) the case prints
# "iobench-test-skipped" (the test's SKIP_REGULAR_EXPRESSION).
cmake_policy(VERSION 3.25)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(dir ${WORK})
set(mode "OWNER_READ;OWNER_WRITE;OWNER_EXECUTE;GROUP_READ;GROUP_EXECUTE;WORLD_READ;WORLD_EXECUTE")
set(expect_exit 2)
set(given "")

if(CASE STREQUAL "world_writable_file")
  set(copy ${dir}/p.so)
  file(COPY_FILE ${PLUGIN} ${copy})
  file(CHMOD ${copy} FILE_PERMISSIONS ${mode} WORLD_WRITE)
  set(regex "every user may write to the file ${copy} \\(mode 757\\)")
elseif(CASE STREQUAL "shared_dir")
  set(dir ${WORK}/shared)
  file(MAKE_DIRECTORY ${dir})
  file(CHMOD ${dir} DIRECTORY_PERMISSIONS ${mode} GROUP_WRITE WORLD_WRITE)
  set(copy ${dir}/p.so)
  file(COPY_FILE ${PLUGIN} ${copy})
  set(regex "every user may write to the directory ${dir} \\(mode 777\\)")
elseif(CASE STREQUAL "sticky_dir")
  set(dir ${WORK}/sticky)
  file(MAKE_DIRECTORY ${dir})
  execute_process(COMMAND chmod 1777 ${dir} RESULT_VARIABLE rc)
  set(copy ${dir}/p.so)
  file(COPY_FILE ${PLUGIN} ${copy})
  set(expect_exit 0)
elseif(CASE STREQUAL "group_writable" OR CASE STREQUAL "other_owner" OR CASE STREQUAL "other_owner_dir")
  if(CASE STREQUAL "other_owner_dir")
    set(dir ${WORK}/theirs)
    file(MAKE_DIRECTORY ${dir})
  endif()
  set(copy ${dir}/p.so)
  file(COPY_FILE ${PLUGIN} ${copy})
  if(CASE STREQUAL "group_writable")
    file(CHMOD ${copy} FILE_PERMISSIONS ${mode} GROUP_WRITE)
    set(change chgrp 54321 ${copy})
    set(regex "the group \\(gid 54321\\) of the file ${copy} may write to it \\(mode 775\\)")
  elseif(CASE STREQUAL "other_owner")
    set(change chown 54321 ${copy})
    set(regex "the file ${copy} belongs to uid 54321")
  else()
    set(change chown 54321 ${dir})
    set(regex "the directory ${dir} belongs to uid 54321")
  endif()
  execute_process(COMMAND ${change} RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    file(REMOVE_RECURSE ${WORK})
    message("iobench-test-skipped: ${change}: ${err}")
    return()
  endif()
elseif(CASE STREQUAL "dotdot_link")
  file(MAKE_DIRECTORY ${WORK}/real/sub)
  file(COPY_FILE ${PLUGIN} ${WORK}/real/p.so)
  file(COPY_FILE ${OTHER} ${WORK}/p.so)
  file(CREATE_LINK ${WORK}/real/sub ${WORK}/lnk SYMBOLIC)
  set(given ${WORK}/lnk/../p.so)
  set(copy ${WORK}/real/p.so)
  set(expect_exit 0)
else()
  message(FATAL_ERROR "unknown CASE ${CASE}")
endif()
if(given STREQUAL "")
  set(given ${copy})
endif()

# One small row of the plugin's, with its results file.
file(MAKE_DIRECTORY ${WORK}/work)
execute_process(COMMAND ${IOBENCH} --plugin ${given} --benchmark_filter=^hello/example_fprintf_precision$
                        --scale 0.001 --benchmark_repetitions=1 --benchmark_min_time=0.001 --dir ${WORK}/work
                        --benchmark_out=${WORK}/out.json
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
if(NOT rc STREQUAL expect_exit)
  message(FATAL_ERROR "${CASE}: expected exit status ${expect_exit}, got ${rc}\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(expect_exit EQUAL 2)
  string(REGEX MATCHALL "\n" lines "${err}")
  list(LENGTH lines count)
  if(NOT count EQUAL 1 OR NOT err MATCHES "^iobench: error: --plugin ${given}: refused: ${regex}, so another user could change the code iobench would run as ")
    message(FATAL_ERROR "${CASE}: expected one line refusing it (${regex}), got:\n${err}")
  endif()
  if(NOT out STREQUAL "")
    message(FATAL_ERROR "${CASE}: a refused plugin's run printed on stdout:\n${out}")
  endif()
else()
  # Loaded, and named by its real path: the file that was loaded.
  if(NOT err MATCHES "iobench: plugin ${copy} \\(owner [^)]+\\): example ")
    message(FATAL_ERROR "${CASE}: stderr does not name the plugin loaded as ${copy}:\n${err}")
  endif()
  file(READ ${WORK}/out.json json)
  string(JSON path GET "${json}" context plugins 0 path)
  string(JSON owner GET "${json}" context plugins 0 owner)
  string(JSON sha GET "${json}" context plugins 0 sha256)
  file(SHA256 ${copy} expected_sha)
  execute_process(COMMAND stat -c %U ${copy} OUTPUT_VARIABLE expected_owner OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT path STREQUAL copy OR NOT owner STREQUAL expected_owner OR NOT sha STREQUAL expected_sha)
    message(FATAL_ERROR "${CASE}: the results name ${path} of ${owner} (sha256 ${sha}), not ${copy} of "
                        "${expected_owner} (${expected_sha})")
  endif()
endif()
file(REMOVE_RECURSE ${WORK})
message(STATUS "${CASE}: ${err}")
