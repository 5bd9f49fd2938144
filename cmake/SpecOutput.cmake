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
