# The main job as a build target, `main-job`: the default suite at the
# published counts (or as IOBENCH_MAIN_JOB_ARGS say: the MinGW build under wine
# runs --scale 0.1), results in results/ of the source tree, then an HTML
# report next to the JSON when the comparison tool can run. A build target in
# the console pool rather than a ctest test, so that its progress lines and
# summary reach the terminal as iobench prints them (ctest would prefix every
# line with the test number). The workflow presets run it as their last step:
#   cmake --workflow --preset linux-release

set(IOBENCH_MAIN_JOB_ARGS "" CACHE STRING "Further iobench arguments of the main job (a ;-list, e.g. --scale;0.1)")
set(IOBENCH_RESULTS_DIR "${PROJECT_SOURCE_DIR}/results" CACHE PATH "Where the main job writes its results")

# Lists (the wine emulator's command, the arguments) cross the command line
# with "|" between their items: a ";" would split the argument.
string(REPLACE ";" "|" _iobench_emulator "${CMAKE_CROSSCOMPILING_EMULATOR}")
string(REPLACE ";" "|" _iobench_main_job_args "${IOBENCH_MAIN_JOB_ARGS}")
add_custom_target(main-job
  COMMAND ${CMAKE_COMMAND}
          "-DIOBENCH=$<TARGET_FILE:iobench>"
          "-DEMULATOR=${_iobench_emulator}"
          "-DRESULTS_DIR=${IOBENCH_RESULTS_DIR}"
          "-DARGS=${_iobench_main_job_args}"
          "-DTOOLS_DIR=${PROJECT_SOURCE_DIR}/tools"
          -P ${PROJECT_SOURCE_DIR}/cmake/main-job.cmake
  DEPENDS iobench
  USES_TERMINAL
  VERBATIM
  COMMENT "The main job: iobench --suite default")
