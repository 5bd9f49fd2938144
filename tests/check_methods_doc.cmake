# cmake -DCOMMAND=iobench -DDOC=docs/methods.md -DDOC_NAME=docs/methods.md -P check_methods_doc.cmake
# The test docs.methods: fails, saying where and how to regenerate the file,
# unless `iobench --list --format md` prints exactly the committed DOC.
cmake_policy(SET CMP0007 NEW)  # keep empty lines: line numbers count them
execute_process(COMMAND ${COMMAND} --list --format md
  RESULT_VARIABLE rc OUTPUT_VARIABLE generated ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "iobench --list --format md exited with ${rc}:\n${err}")
endif()
file(READ ${DOC} committed)
if(generated STREQUAL committed)
  message(STATUS "${DOC_NAME} is what iobench --list --format md prints")
  return()
endif()

# The first line that differs (';' is a list separator to CMake: kept apart).
string(REPLACE ";" "<semicolon>" generated_lines "${generated}")
string(REPLACE ";" "<semicolon>" committed_lines "${committed}")
string(REPLACE "\n" ";" generated_lines "${generated_lines}")
string(REPLACE "\n" ";" committed_lines "${committed_lines}")
list(LENGTH generated_lines generated_count)
list(LENGTH committed_lines committed_count)
set(line 0)
while(line LESS generated_count AND line LESS committed_count)
  list(GET generated_lines ${line} g)
  list(GET committed_lines ${line} c)
  if(NOT g STREQUAL c)
    break()
  endif()
  math(EXPR line "${line} + 1")
endwhile()
set(g "(end of output)")
set(c "(end of file)")
if(line LESS generated_count)
  list(GET generated_lines ${line} g)
endif()
if(line LESS committed_count)
  list(GET committed_lines ${line} c)
endif()
math(EXPR shown "${line} + 1")
foreach(v g c)
  string(REPLACE "<semicolon>" ";" ${v} "${${v}}")
endforeach()
message(FATAL_ERROR
  "${DOC_NAME} is out of date: it differs from `iobench --list --format md` at line ${shown}\n"
  "  committed: ${c}\n"
  "  generated: ${g}\n"
  "A method was added, renamed, described anew or made (un)available. Regenerate the file and commit it:\n"
  "  ${COMMAND} --list --format md > ${DOC}")
