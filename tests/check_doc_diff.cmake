# cmake -DGIT=git -DDOC=docs/adding-a-method.md -DFILE=<source>/tests/example_family.cpp
#       -DFILE_REL=tests/example_family.cpp -DMARKER=example-family -DWORK_DIR=dir
#       [-DOUTPUT=before.cpp] -P check_doc_diff.cmake
#
# Keeps a how-to page (docs/adding-a-method.md, docs/adding-a-workload.md)
# true to the code. The page shows an example file (FILE, at FILE_REL in the
# repository, compiled only into the tests) before one addition, then the diff
# that made the addition. This script takes the two blocks marked
# `<!-- MARKER-before -->` and `<!-- MARKER-diff -->` out of DOC and fails,
# saying what differs, unless:
#   - the diff changes one file, FILE_REL, and only adds lines;
#   - `git apply -R` of the diff to FILE succeeds (its context and line
#     numbers are the file's), and gives exactly the "before" block.
# With OUTPUT it writes that "before" file there, which the tests then compile
# (tests/CMakeLists.txt): both sides of the diff are real code.
#
# cmake -DDOC=docs/plugins.md -DSOURCE_DIR=<source> -DBLOCKS=marker=path;... -P check_doc_diff.cmake
# The other kind of page (docs/plugins.md) shows whole files of the
# repository: each block marked `<!-- MARKER` must be the file at PATH (its
# fence's language: cmake for CMakeLists.txt, cpp for .cpp), byte for byte.

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

if(BLOCKS)
  string(REPLACE "|" ";" BLOCKS "${BLOCKS}")
  file(READ ${DOC} doc)
  string(REPLACE "\r\n" "\n" doc "${doc}")
  foreach(pair ${BLOCKS})
    string(REGEX MATCH "^([^=]+)=(.+)$" _ "${pair}")
    set(marker ${CMAKE_MATCH_1})
    set(path ${CMAKE_MATCH_2})
    set(lang cpp)
    if(path MATCHES "(CMakeLists.txt|\\.cmake)$")
      set(lang cmake)
    endif()
    doc_block("${doc}" "<!-- ${marker}" "${lang}" block)
    file(READ ${SOURCE_DIR}/${path} content)
    string(REPLACE "\r\n" "\n" content "${content}")
    if(NOT block STREQUAL content)
      message(FATAL_ERROR "${DOC}: the block marked ${marker} is not ${path} as it is now: copy the file "
        "into the page (or the page's change into the file)")
    endif()
  endforeach()
  message(STATUS "${DOC}: its blocks are the files ${BLOCKS}")
  return()
endif()

file(READ ${DOC} doc)
file(READ ${FILE} after)
# Line endings as in the repository, whatever a checkout made of them.
string(REPLACE "\r\n" "\n" doc "${doc}")
string(REPLACE "\r\n" "\n" after "${after}")
doc_block("${doc}" "<!-- ${MARKER}-before" "cpp" before_block)
doc_block("${doc}" "<!-- ${MARKER}-diff" "diff" diff)
string(CONCAT fix "Make the two blocks of ${DOC} ${FILE_REL} as it is now without its last addition, "
  "and the `git diff` that adds it.")

string(REGEX MATCHALL "\n\\+\\+\\+ [^\n]*" targets "\n${diff}")
if(NOT targets STREQUAL "\n+++ b/${FILE_REL}")
  message(FATAL_ERROR "${DOC}: the diff must change ${FILE_REL} and nothing else "
    "(its +++ lines: ${targets})\n${fix}")
endif()
string(REGEX MATCHALL "\n-[^\n]*" removed "\n${diff}")
list(FILTER removed EXCLUDE REGEX "^\n--- a/")
if(removed)
  message(FATAL_ERROR "${DOC}: the diff must only add lines (the page shows an addition); it "
    "removes:${removed}\n${fix}")
endif()

file(REMOVE_RECURSE ${WORK_DIR})
file(WRITE ${WORK_DIR}/${FILE_REL} "${after}")
file(WRITE ${WORK_DIR}/page.diff "${diff}")
execute_process(COMMAND ${GIT} apply -R --verbose page.diff
  WORKING_DIRECTORY ${WORK_DIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${DOC}: its diff is not what ${FILE_REL} adds: `git apply -R` of it "
    "fails:\n${out}\n${fix}")
endif()
file(READ ${WORK_DIR}/${FILE_REL} before)
if(NOT before STREQUAL before_block)
  file(WRITE ${WORK_DIR}/before-in-doc.cpp "${before_block}")
  message(FATAL_ERROR "${DOC}: the file shown before the diff is not ${FILE_REL} without the "
    "diff (compare ${WORK_DIR}/${FILE_REL} with ${WORK_DIR}/before-in-doc.cpp)\n${fix}")
endif()
if(OUTPUT)
  file(WRITE ${OUTPUT}.new "${before}")
  file(COPY_FILE ${OUTPUT}.new ${OUTPUT} ONLY_IF_DIFFERENT)
  file(REMOVE ${OUTPUT}.new)
endif()
message(STATUS "${DOC}: its example and diff are ${FILE_REL} before and after")
