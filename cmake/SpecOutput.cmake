# What the generators of cmake/Generate*.cmake share (included by each).

# spec_write(TEXT): writes TEXT to OUTPUT, rewritten only when it changes (so
# that a spec's edit rebuilds only what its header reaches, and nothing when
# the header's text is the same).
function(spec_write text)
  file(WRITE "${OUTPUT}.new" "${text}")
  file(COPY_FILE "${OUTPUT}.new" "${OUTPUT}" ONLY_IF_DIFFERENT)
  file(REMOVE "${OUTPUT}.new")
endfunction()

# spec_cxx_literal(TEXT VAR): TEXT as the body of a C++ string literal (backslashes and quotes escaped).
function(spec_cxx_literal text var)
  string(REPLACE "\\" "\\\\" text "${text}")
  string(REPLACE "\"" "\\\"" text "${text}")
  set(${var} "${text}" PARENT_SCOPE)
endfunction()

# spec_indices(VAR MEMBER...): the indices 0..n-1 of the list at MEMBER... of
# the caller's `spec` (the JSON text), empty for an empty list.
function(spec_indices var)
  string(JSON n LENGTH "${spec}" ${ARGN})
  set(indices "")
  if(n GREATER 0)
    math(EXPR last "${n} - 1")
    foreach(i RANGE ${last})
      list(APPEND indices ${i})
    endforeach()
  endif()
  set(${var} "${indices}" PARENT_SCOPE)
endfunction()

# spec_error(TEXT): stops the generator with TEXT on one line of its own.
# CMake wraps a message's plain text at the terminal's width, where the line
# breaks depend on the length of the spec's path; an indented line it prints as
# it is, so the error reads (and a test matches it) the same from every checkout.
function(spec_error text)
  message(FATAL_ERROR "a spec refused:\n  ${text}")
endfunction()

# spec_require_name(NAME WHERE): stops the generator, naming SPEC and WHERE,
# unless NAME can be a C++ name as the headers write it (a-z, 0-9, _).
function(spec_require_name name where)
  if(NOT name MATCHES "^[a-z][a-z0-9_]*$")
    spec_error("${SPEC}: ${where}: \"${name}\" is no C++ name (a-z, 0-9, _)")
  endif()
endfunction()
