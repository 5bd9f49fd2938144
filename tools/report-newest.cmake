# Writes the HTML report of the newest result file in a directory next to it
# (results/<name>.json -> results/<name>.html) with tools/iobench-compare, for
# the main job to run after iobench has written its results:
#
#   cmake -DRESULTS_DIR=<dir> [-DPYTHON=<python3>] -P tools/report-newest.cmake
#
# The tool runs as `python -m iobench_compare` from this source tree (no pip
# install): with PYTHON if given, else through the launcher tools/iobench-compare
# where there is a `sh` (it finds a Python with the dependencies itself), else
# with python3 or python from PATH. Prints the report's path; when no Python
# has the dependencies (the tool's exit status 3) it says how to get them and
# succeeds all the same: the JSON is the result, the report a view of it. Any
# other failure of the tool fails the script.

cmake_minimum_required(VERSION 3.18)

if(NOT RESULTS_DIR)
  message(FATAL_ERROR "report-newest.cmake: give -DRESULTS_DIR=<directory of the result files>")
endif()
get_filename_component(_tools "${CMAKE_CURRENT_LIST_DIR}" ABSOLUTE)

# The newest *.json: the one the run before this just wrote (iobench writes a new file each run).
file(GLOB _results "${RESULTS_DIR}/*.json")
set(_newest "")
set(_newest_time "")
foreach(path IN LISTS _results)
  file(TIMESTAMP "${path}" _time "%Y%m%d%H%M%S" UTC)
  if(_newest STREQUAL "" OR _time STRGREATER _newest_time
     OR (_time STREQUAL _newest_time AND path STRGREATER _newest))
    set(_newest "${path}")
    set(_newest_time "${_time}")
  endif()
endforeach()
if(_newest STREQUAL "")
  message(FATAL_ERROR "report-newest.cmake: no result file (*.json) in ${RESULTS_DIR}")
endif()
string(REGEX REPLACE "\\.json$" ".html" _html "${_newest}")

if(PYTHON)
  set(_command ${CMAKE_COMMAND} -E env "PYTHONPATH=${_tools}" PYTHONDONTWRITEBYTECODE=1 "${PYTHON}" -m iobench_compare)
else()
  find_program(_sh sh)
  if(_sh)
    set(_command "${_sh}" "${_tools}/iobench-compare")
  else()
    find_program(_python NAMES python3 python)
    if(NOT _python)
      set(_python python3)
    endif()
    set(_command ${CMAKE_COMMAND} -E env "PYTHONPATH=${_tools}" PYTHONDONTWRITEBYTECODE=1 "${_python}" -m iobench_compare)
  endif()
endif()

execute_process(COMMAND ${_command} --format html -o "${_html}" "${_newest}"
  RESULT_VARIABLE _status ERROR_VARIABLE _error)
string(STRIP "${_error}" _error)
if(_status EQUAL 0)
  message("iobench: HTML report written to ${_html}")
elseif(_status EQUAL 3)  # no Python with the dependencies: the tool's message says what to install
  message("iobench: no HTML report: ${_error}\n"
          "iobench: once installed: tools/iobench-compare --format html -o ${_html} ${_newest}")
elseif(_status MATCHES "No such file|not found")  # no Python at all
  message("iobench: no HTML report: no Python 3 (${_status}): install python3-scipy, python3-matplotlib and "
          "python3-tabulate (Debian/Ubuntu: tools/install-deps.sh --tools), or pip install ./tools in a virtual "
          "environment, then: tools/iobench-compare --format html -o ${_html} ${_newest}")
else()
  message(FATAL_ERROR "iobench: the HTML report of ${_newest} failed (exit status ${_status}): ${_error}")
endif()
