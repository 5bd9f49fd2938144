# cmake -DIOBENCH=exe -DPLUGIN=calls_only-plugin -DWORK=dir -P syscall_counts_run.cmake
# A per-call-only method of a plugin, run by the quick suite (which it joins
# with its one-thread per-call rows), twice: as built, and with
# IOBENCH_TEST_SYNC_EACH_FLUSH=1, which adds one fdatasync after each write of
# its buffer. Each row must carry the system calls by kind of its sizing run
# (syscalls_*), exactly: the same write calls both times (one per 64 KiB
# buffer, counted by the OS's write_calls too), no sync call as built, one
# per write with the change; every other kind the same. Exit 77 (skipped)
# where the results' context says the system calls are not counted here
# (syscall_counter: "not counted: ...").
cmake_policy(VERSION 3.25)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/dir)
set(filter "--benchmark_filter=^hello/buffered_log/threads:1$")

function(run name)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ${ARGN} ${IOBENCH} --plugin ${PLUGIN} --suite quick ${filter}
                          --scale 0.005 --dir ${WORK}/dir --benchmark_out=${WORK}/${name}.json --benchmark_repetitions=1
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${name}: expected exit status 0, got ${rc}\nstdout:\n${out}\nstderr:\n${err}")
  endif()
  file(READ ${WORK}/${name}.json json)
  string(JSON how GET "${json}" context syscall_counter)
  if(how MATCHES "^not counted")
    message(STATUS "skipped: ${how}")
    file(REMOVE_RECURSE ${WORK})
    # ctest's SKIP_RETURN_CODE: a script cannot exit 77 itself, so the test
    # greps this line (SKIP_REGULAR_EXPRESSION).
    message(FATAL_ERROR "SKIPPED: ${how}")
  endif()
  string(JSON row GET "${json}" benchmarks 0)
  string(JSON row_name GET "${row}" name)
  if(NOT row_name STREQUAL "hello/buffered_log/threads:1")
    message(FATAL_ERROR "${name}: the first row is ${row_name}")
  endif()
  foreach(counter syscalls syscalls_write syscalls_read syscalls_sync syscalls_futex syscalls_memory syscalls_other
                  syscalls_exact write_calls items)
    string(JSON value ERROR_VARIABLE missing GET "${row}" ${counter})
    if(missing)
      message(FATAL_ERROR "${name}: the row has no ${counter}:\n${row}")
    endif()
    string(REGEX REPLACE "\\.0*$" "" value "${value}")  # whole numbers here, whatever the JSON's notation
    if(NOT value MATCHES "^[0-9]+$")
      message(FATAL_ERROR "${name}: ${counter} is ${value}, not a whole number")
    endif()
    set(${name}_${counter} ${value} PARENT_SCOPE)
  endforeach()
endfunction()

run(plain)
run(synced IOBENCH_TEST_SYNC_EACH_FLUSH=1)

# hello at --scale 0.005: 500,000 lines of 12 bytes = 6,000,000
# bytes, written in 64 KiB buffers: 92 writes (91 full, the rest at close).
if(NOT plain_items EQUAL 500000)
  message(FATAL_ERROR "expected 500000 items, got ${plain_items}")
endif()
foreach(side plain synced)
  if(NOT ${side}_syscalls_write EQUAL 92)
    message(FATAL_ERROR "${side}: expected 92 write system calls, counted ${${side}_syscalls_write}")
  endif()
  if(NOT ${side}_syscalls_exact EQUAL 1)
    message(FATAL_ERROR "${side}: one thread in iobench's process: syscalls_exact must be 1")
  endif()
endforeach()
if(NOT plain_syscalls_sync EQUAL 0)
  message(FATAL_ERROR "as built: expected no sync system call, counted ${plain_syscalls_sync}")
endif()
if(NOT synced_syscalls_sync EQUAL 92)
  message(FATAL_ERROR "fdatasync after each write: expected 92 sync system calls, counted ${synced_syscalls_sync}")
endif()
foreach(kind read futex)
  if(NOT plain_syscalls_${kind} EQUAL synced_syscalls_${kind})
    message(FATAL_ERROR "${kind}: ${plain_syscalls_${kind}} as built, ${synced_syscalls_${kind}} with fdatasync")
  endif()
endforeach()
math(EXPR plain_sum "${plain_syscalls_write} + ${plain_syscalls_read} + ${plain_syscalls_sync} + ${plain_syscalls_futex} + ${plain_syscalls_memory} + ${plain_syscalls_other}")
if(NOT plain_sum EQUAL plain_syscalls)
  message(FATAL_ERROR "the kinds sum to ${plain_sum}, every call counted ${plain_syscalls}")
endif()
message(STATUS "write ${plain_syscalls_write}, sync ${plain_syscalls_sync} -> ${synced_syscalls_sync}, all ${plain_syscalls} -> ${synced_syscalls}")
file(REMOVE_RECURSE ${WORK})
