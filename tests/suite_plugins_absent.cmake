# cmake -DIOBENCH=exe [-DEMULATOR=a|b] [-DSUFFIX=.so|.dll] -DWORK=dir -P suite_plugins_absent.cmake
# A copy of iobench in a directory whose plugins/ holds no plugin and one
# reason the build wrote (iobench_logger_spdlog.not-built): `--list --suite
# loggers` lists spdlog's rows as skipped with that reason, every other
# logger's row as skipped naming the plugin it looked for, where, and the
# build command; the suite's own rows (fprintf) are listed to run; exit 0.
cmake_policy(VERSION 3.25)
if(NOT SUFFIX)
  set(SUFFIX .so)
endif()
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/plugins)
file(COPY ${IOBENCH} DESTINATION ${WORK})
# (a control character and a Windows line end: shown as '?', dropped)
file(WRITE ${WORK}/plugins/iobench_logger_spdlog.not-built "spdlog not built: planted\tby the test\r\nsecond line\n")
get_filename_component(name ${IOBENCH} NAME)
string(REPLACE "|" ";" EMULATOR "${EMULATOR}")
execute_process(COMMAND ${EMULATOR} ${WORK}/${name} --list --suite loggers
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "expected exit status 0, got ${rc}\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(SUFFIX STREQUAL ".dll")
  # (Windows, or wine: the directory as Windows names it, "X:\...\plugins")
  set(where "[A-Za-z]:[/\\\\][^\n]*[/\\\\]plugins")
else()
  file(REAL_PATH ${WORK} real_work)
  string(REGEX REPLACE "([.+*?()^$|])" "\\\\\\1" where "${real_work}/plugins")
endif()
string(REPLACE "." "\\." suffix "${SUFFIX}")
# expect_skipped(<row> <reason regex>): the row is listed as skipped with that reason.
function(expect_skipped row reason)
  string(REGEX REPLACE "([.+*])" "\\\\\\1" pattern "${row}")
  if(NOT out MATCHES "# ${pattern}: skipped, ${reason}\n")
    message(FATAL_ERROR "${row} is not listed as skipped with the reason '${reason}':\n${out}")
  endif()
endfunction()
string(CONCAT command_reason "not built: no iobench_logger_[a-z_]+${suffix} in ${where} "
  "\\(cmake --build <build dir> --target loggers\\)")
expect_skipped("ints_out/quill_bounded_dropping/threads:1" "${command_reason}")
expect_skipped("hello/fmtlog_block/threads:4/sink:shared" "${command_reason}")
expect_skipped("log/spdlog_st/threads:1" "spdlog not built: planted\\?by the test")
expect_skipped("hello/spdlog_mt/threads:4/sink:shared" "spdlog not built: planted\\?by the test")
if(NOT out MATCHES "\nlog/fprintf/threads:4/sink:shared\n")
  message(FATAL_ERROR "the suite's own rows are not listed:\n${out}")
endif()
file(REMOVE_RECURSE ${WORK})
