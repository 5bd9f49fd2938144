# iobench_pinned_sources(<name> LABEL <text> REPOSITORY <url> COMMIT <sha>
#                        MARKERS <file>... SOURCE_SUBDIR <dir>)
#
# The sources of a third-party project pinned to one commit (fast_io, Żmij),
# taken from the first place that has them:
#   1. FETCHCONTENT_SOURCE_DIR_<NAME> (an unmodified copy of that commit);
#   2. ../shared/third_party/<name> next to the source tree, when such a copy
#      lies there (then cached as FETCHCONTENT_SOURCE_DIR_<NAME>);
#   3. fetched with FetchContent, when git can reach REPOSITORY (asked first:
#      FetchContent stops the configuration when it cannot clone).
# MARKERS are files (relative to the sources) that must exist; SOURCE_SUBDIR is
# given to FetchContent_Declare, so a folder without a CMakeLists.txt keeps the
# project's own CMake project (its tests, examples) out of iobench's build.
#
# Sets in the caller <name>_SOURCE_DIR to the sources when they were found,
# else <name>_NOT_FOUND_REASON to why not ("<LABEL> not built: ...").
function(iobench_pinned_sources name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "LABEL;REPOSITORY;COMMIT;SOURCE_SUBDIR" "MARKERS")
  string(TOUPPER "${name}" upper)
  set(source_dir_variable FETCHCONTENT_SOURCE_DIR_${upper})
  list(GET arg_MARKERS 0 first_marker)

  set(copy ${PROJECT_SOURCE_DIR}/../shared/third_party/${name})
  if(NOT ${source_dir_variable} AND EXISTS ${copy}/${first_marker})
    get_filename_component(copy ${copy} ABSOLUTE)
    set(${source_dir_variable} ${copy} CACHE PATH
      "An unmodified copy of ${arg_LABEL} at the pinned commit (used instead of downloading it)")
  endif()

  set(reason "")
  if(${source_dir_variable})
    if(NOT EXISTS ${${source_dir_variable}}/${first_marker})
      set(reason "${source_dir_variable} holds no ${first_marker}")
    endif()
  elseif(NOT FETCHCONTENT_FULLY_DISCONNECTED)
    find_package(Git QUIET)
    if(NOT GIT_EXECUTABLE)
      set(reason "no git to fetch it and no ${source_dir_variable}")
    else()
      execute_process(COMMAND ${GIT_EXECUTABLE} ls-remote ${arg_REPOSITORY} HEAD
        RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET TIMEOUT 60)
      if(NOT rc EQUAL 0)
        set(reason "${arg_REPOSITORY} cannot be reached and ${source_dir_variable} is not set")
      endif()
    endif()
  endif()

  if(NOT reason)
    FetchContent_Declare(${name}
      GIT_REPOSITORY ${arg_REPOSITORY}
      GIT_TAG ${arg_COMMIT}
      SOURCE_SUBDIR ${arg_SOURCE_SUBDIR})
    FetchContent_MakeAvailable(${name})
    foreach(marker IN LISTS arg_MARKERS)
      if(NOT EXISTS ${${name}_SOURCE_DIR}/${marker})
        string(JOIN " and " markers ${arg_MARKERS})
        set(reason "${${name}_SOURCE_DIR} holds no ${markers}")
        break()
      endif()
    endforeach()
  endif()

  if(reason)
    set(${name}_NOT_FOUND_REASON "${arg_LABEL} not built: ${reason}" PARENT_SCOPE)
  else()
    set(${name}_SOURCE_DIR ${${name}_SOURCE_DIR} PARENT_SCOPE)
  endif()
endfunction()
