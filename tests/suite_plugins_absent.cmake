# cmake -DIOBENCH=exe -DWORK=dir -P suite_plugins_absent.cmake
# A copy of iobench in a directory with no plugins/ beside it: `--list
# --suite loggers` lists every logger's row as skipped, naming the plugin it
# looked for, where, and the build command; the suite's own rows (fprintf)
# are listed to run; exit 0.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
file(COPY ${IOBENCH} DESTINATION ${WORK})
get_filename_component(name ${IOBENCH} NAME)
execute_process(COMMAND ${WORK}/${name} --list --suite loggers
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "expected exit status 0, got ${rc}\nstdout:\n${out}\nstderr:\n${err}")
endif()
file(REAL_PATH ${WORK} real_work)
foreach(row "log/spdlog_st/threads:1" "hello/spdlog_mt/threads:4/sink:shared" "ints_out/quill_bounded_dropping/threads:1")
  string(REGEX REPLACE "([.+*])" "\\\\\\1" pattern "${row}")
  if(NOT out MATCHES "# ${pattern}: skipped, not built: no iobench_logger_[a-z_]+\\.so in ${real_work}/plugins \\(cmake --build <build dir> --target loggers\\)\n")
    message(FATAL_ERROR "${row} is not listed as skipped with the reason:\n${out}")
  endif()
endforeach()
if(NOT out MATCHES "\nlog/fprintf/threads:4/sink:shared\n")
  message(FATAL_ERROR "the suite's own rows are not listed:\n${out}")
endif()
file(REMOVE_RECURSE ${WORK})
