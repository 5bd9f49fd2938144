# cmake -DGIT=git -DDOC=docs/adding-a-method.md -DFAMILY=tests/example_family.cpp
#       -DWORK_DIR=dir [-DOUTPUT=before.cpp] -P check_adding_a_method.cmake
#
# Keeps docs/adding-a-method.md true to the code. The page shows the example
# family (FAMILY, compiled only into the tests) before one method was added,
# then the diff that adds it. This script takes the two blocks marked
# `<!-- example-family-before -->` and `<!-- example-family-diff -->` out of
# DOC and fails, saying what differs, unless:
#   - the diff changes one file, FAMILY, and only adds lines;
#   - `git apply -R` of the diff to FAMILY succeeds (its context and line
#     numbers are the file's), and gives exactly the "before" block.
# With OUTPUT it writes that "before" file there, which the tests then compile
# (tests/CMakeLists.txt): both sides of the diff are real code.

# The fenced block (```LANG) after the line holding MARKER in `text`.
function(doc_block text marker lang out_var)
  string(FIND "${text}" "${marker}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${DOC}: no ${marker} line (it marks the block the tests check)")
  endif()
  string(SUBSTRING "${text}" ${at} -1 rest)
  string(FIND "${rest}" "\n```${lang}\n" open)
  if(open EQUAL -1)
    message(FATAL_ERROR "${DOC}: no ```${lang} block after ${marker}")
  endif()
  string(LENGTH "\n```${lang}\n" fence)
  math(EXPR open "${open} + ${fence}")
  string(SUBSTRING "${rest}" ${open} -1 rest)
  string(FIND "${rest}" "\n```\n" close)
  if(close EQUAL -1)
    message(FATAL_ERROR "${DOC}: the ```${lang} block after ${marker} is not closed")
  endif()
  math(EXPR close "${close} + 1")
  string(SUBSTRING "${rest}" 0 ${close} block)
  set(${out_var} "${block}" PARENT_SCOPE)
endfunction()

file(READ ${DOC} doc)
file(READ ${FAMILY} after)
# Line endings as in the repository, whatever a checkout made of them.
string(REPLACE "\r\n" "\n" doc "${doc}")
string(REPLACE "\r\n" "\n" after "${after}")
doc_block("${doc}" "<!-- example-family-before" "cpp" before_block)
doc_block("${doc}" "<!-- example-family-diff" "diff" diff)
string(CONCAT fix "Make the two blocks of docs/adding-a-method.md tests/example_family.cpp as it is now "
  "without its last method, and the `git diff` that adds that method.")

string(REGEX MATCHALL "\n\\+\\+\\+ [^\n]*" targets "\n${diff}")
if(NOT targets STREQUAL "\n+++ b/tests/example_family.cpp")
  message(FATAL_ERROR "${DOC}: the diff must change tests/example_family.cpp and nothing else "
    "(its +++ lines: ${targets})\n${fix}")
endif()
string(REGEX MATCHALL "\n-[^\n]*" removed "\n${diff}")
list(FILTER removed EXCLUDE REGEX "^\n--- a/")
if(removed)
  message(FATAL_ERROR "${DOC}: the diff must only add lines (adding a method is a new function and a new "
    "registrar entry); it removes:${removed}\n${fix}")
endif()

file(REMOVE_RECURSE ${WORK_DIR})
file(WRITE ${WORK_DIR}/tests/example_family.cpp "${after}")
file(WRITE ${WORK_DIR}/adding-a-method.diff "${diff}")
execute_process(COMMAND ${GIT} apply -R --verbose adding-a-method.diff
  WORKING_DIRECTORY ${WORK_DIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${DOC}: its diff is not what tests/example_family.cpp adds: `git apply -R` of it "
    "fails:\n${out}\n${fix}")
endif()
file(READ ${WORK_DIR}/tests/example_family.cpp before)
if(NOT before STREQUAL before_block)
  file(WRITE ${WORK_DIR}/before-in-doc.cpp "${before_block}")
  message(FATAL_ERROR "${DOC}: the family shown before the diff is not tests/example_family.cpp without the "
    "diff (compare ${WORK_DIR}/tests/example_family.cpp with ${WORK_DIR}/before-in-doc.cpp)\n${fix}")
endif()
if(OUTPUT)
  file(WRITE ${OUTPUT}.new "${before}")
  file(COPY_FILE ${OUTPUT}.new ${OUTPUT} ONLY_IF_DIFFERENT)
  file(REMOVE ${OUTPUT}.new)
endif()
message(STATUS "${DOC}: its example family and diff are tests/example_family.cpp before and after")
