# The programs of the program methods (docs/external-methods.md): one per
# language, methods/<language>/, built or copied into <build>/methods/<language>/
# when its toolchain is found here, and the header that tells
# methods/<language>.cpp where each one is or why it was not built
# (generated/language_programs.hpp). A language whose toolchain is missing has
# its methods listed as skipped with the reason, as a missing library does.
#
#   language  built with                                       run as
#   go        go build (no module to download: GOPROXY=off,    methods/go/iobench-go
#             GOTOOLCHAIN=local, caches in the build tree)
#   rust      rustc -C opt-level=3 (no crate)                  methods/rust/iobench-rust
#   java      javac + jar (CMake's UseJava)                    java -jar methods/java/iobench-java.jar
#   python    copied                                           python3 methods/python/iobench_methods.py
#   node      copied                                           node methods/node/iobench_methods.js
#
# The tools are cache variables, found on PATH and where their installers put
# them (Go: /usr/local/go/bin, $GOROOT/bin; Rust: ~/.cargo/bin): IOBENCH_GO,
# IOBENCH_RUSTC, Java_JAVAC_EXECUTABLE (FindJava), IOBENCH_PYTHON,
# IOBENCH_NODE. IOBENCH_LANGUAGES lists the languages to build (default: all
# five); one left out is listed as skipped. Windows builds (MinGW, MSVC): none
# is built, the process handling being POSIX only.

set(IOBENCH_LANGUAGES "go;rust;java;python;node" CACHE STRING
  "Languages whose program methods are built when their toolchain is found (docs/external-methods.md)")
set(IOBENCH_LANGUAGE_DIR ${PROJECT_BINARY_DIR}/methods)

set(_languages go rust java python node)
foreach(_lang IN LISTS _languages)
  set(_${_lang}_file "")
  set(_${_lang}_interpreter "")
  set(_${_lang}_option "")
  set(_${_lang}_toolchain "")
  set(_${_lang}_reason "")
  if(WIN32)
    set(_${_lang}_reason "program methods run on POSIX systems only: not built for Windows")
  elseif(NOT _lang IN_LIST IOBENCH_LANGUAGES)
    set(_${_lang}_reason "not in IOBENCH_LANGUAGES")
  endif()
endforeach()

# iobench_language_version(VAR COMMAND...): the first line COMMAND prints (stdout or stderr), or "".
function(iobench_language_version var)
  execute_process(COMMAND ${ARGN} OUTPUT_VARIABLE _out ERROR_VARIABLE _err RESULT_VARIABLE _rc TIMEOUT 60)
  set(_text "${_out}${_err}")
  string(REGEX REPLACE "\n.*" "" _text "${_text}")
  string(STRIP "${_text}" _text)
  if(NOT _rc EQUAL 0)
    set(_text "")
  endif()
  set(${var} "${_text}" PARENT_SCOPE)
endfunction()

set(_targets "")

# --- Go ---------------------------------------------------------------------
if(NOT _go_reason)
  find_program(IOBENCH_GO NAMES go HINTS /usr/local/go/bin "$ENV{GOROOT}/bin" DOC "The go tool (Go >= 1.18)")
  if(NOT IOBENCH_GO)
    set(_go_reason "no go tool found (set IOBENCH_GO)")
  else()
    iobench_language_version(_go_toolchain ${IOBENCH_GO} version)
    string(REGEX MATCH "go([0-9]+)\\.([0-9]+)" _m "${_go_toolchain}")
    if(NOT _m OR (CMAKE_MATCH_1 EQUAL 1 AND CMAKE_MATCH_2 LESS 18))
      set(_go_reason "${IOBENCH_GO} is not Go 1.18 or later (\"${_go_toolchain}\")")
    endif()
  endif()
endif()
if(NOT _go_reason)
  set(_go_file ${IOBENCH_LANGUAGE_DIR}/go/iobench-go)
  set(_go_home ${PROJECT_BINARY_DIR}/go-build)
  # Everything the go tool writes stays in the build tree (its cache, its
  # module directory, its telemetry under XDG_CONFIG_HOME), and it reaches no
  # network: the program needs no module and no other toolchain.
  add_custom_command(OUTPUT ${_go_file}
    COMMAND ${CMAKE_COMMAND} -E env GOCACHE=${_go_home}/cache GOPATH=${_go_home}/path
            XDG_CONFIG_HOME=${_go_home}/config GOPROXY=off GOTOOLCHAIN=local GOFLAGS=-buildvcs=false CGO_ENABLED=0
            ${IOBENCH_GO} build -trimpath -o ${_go_file} .
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}/methods/go
    DEPENDS ${PROJECT_SOURCE_DIR}/methods/go/main.go ${PROJECT_SOURCE_DIR}/methods/go/go.mod
    COMMENT "Building the Go methods' program (go build)"
    VERBATIM)
  list(APPEND _targets ${_go_file})
endif()

# --- Rust -------------------------------------------------------------------
if(NOT _rust_reason)
  find_program(IOBENCH_RUSTC NAMES rustc HINTS "$ENV{CARGO_HOME}/bin" "$ENV{HOME}/.cargo/bin"
    DOC "The Rust compiler (edition 2021: Rust >= 1.56)")
  if(NOT IOBENCH_RUSTC)
    set(_rust_reason "no rustc found (set IOBENCH_RUSTC)")
  else()
    iobench_language_version(_rust_toolchain ${IOBENCH_RUSTC} --version)
    if(NOT _rust_toolchain)
      set(_rust_reason "${IOBENCH_RUSTC} --version failed (no toolchain installed?)")
    endif()
  endif()
endif()
if(NOT _rust_reason)
  set(_rust_file ${IOBENCH_LANGUAGE_DIR}/rust/iobench-rust)
  # opt-level 3: what `cargo build --release` gives a crate.
  add_custom_command(OUTPUT ${_rust_file}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${IOBENCH_LANGUAGE_DIR}/rust
    COMMAND ${IOBENCH_RUSTC} --edition 2021 -C opt-level=3 -o ${_rust_file} ${PROJECT_SOURCE_DIR}/methods/rust/main.rs
    DEPENDS ${PROJECT_SOURCE_DIR}/methods/rust/main.rs
    COMMENT "Building the Rust methods' program (rustc -C opt-level=3)"
    VERBATIM)
  list(APPEND _targets ${_rust_file})
endif()

# --- Java -------------------------------------------------------------------
if(NOT _java_reason)
  find_package(Java 11 QUIET COMPONENTS Development Runtime)
  if(NOT Java_FOUND OR NOT Java_JAVA_EXECUTABLE OR NOT Java_JAR_EXECUTABLE)
    set(_java_reason "no JDK 11 or later found (javac, jar and java; set JAVA_HOME)")
  else()
    iobench_language_version(_java_toolchain ${Java_JAVA_EXECUTABLE} -version)
  endif()
endif()
if(NOT _java_reason)
  include(UseJava)
  set(CMAKE_JAVA_COMPILE_FLAGS -encoding UTF-8)
  add_jar(iobench_java_program ${PROJECT_SOURCE_DIR}/methods/java/IobenchMethods.java
    ENTRY_POINT IobenchMethods
    OUTPUT_NAME iobench-java
    OUTPUT_DIR ${IOBENCH_LANGUAGE_DIR}/java)
  set(_java_file ${IOBENCH_LANGUAGE_DIR}/java/iobench-java.jar)
  set(_java_interpreter ${Java_JAVA_EXECUTABLE})
  set(_java_option -jar)
endif()

# --- Python and Node.js: the interpreter, and the script beside the others ---
if(NOT _python_reason)
  find_program(IOBENCH_PYTHON NAMES python3 DOC "Python 3.8 or later, for the Python methods")
  if(NOT IOBENCH_PYTHON)
    set(_python_reason "no python3 found (set IOBENCH_PYTHON)")
  else()
    # The interpreter itself, not a launcher (pyenv's shim is a shell script
    # that would be timed into every start).
    execute_process(COMMAND ${IOBENCH_PYTHON} -c "import sys; assert sys.version_info >= (3, 8); print(sys.executable)"
      OUTPUT_VARIABLE _python_interpreter RESULT_VARIABLE _rc OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET TIMEOUT 60)
    iobench_language_version(_python_toolchain ${IOBENCH_PYTHON} --version)
    if(NOT _rc EQUAL 0 OR NOT _python_interpreter)
      set(_python_reason "${IOBENCH_PYTHON} is not Python 3.8 or later")
    endif()
  endif()
endif()
if(NOT _node_reason)
  find_program(IOBENCH_NODE NAMES node nodejs DOC "Node.js 12 or later, for the Node.js methods")
  if(NOT IOBENCH_NODE)
    set(_node_reason "no node found (set IOBENCH_NODE)")
  else()
    iobench_language_version(_node_toolchain ${IOBENCH_NODE} --version)
    string(REGEX MATCH "^v([0-9]+)" _m "${_node_toolchain}")
    if(NOT _m OR CMAKE_MATCH_1 LESS 12)
      set(_node_reason "${IOBENCH_NODE} is not Node.js 12 or later (\"${_node_toolchain}\")")
    else()
      set(_node_toolchain "node ${_node_toolchain}")
      set(_node_interpreter ${IOBENCH_NODE})
    endif()
  endif()
endif()
foreach(_script python/iobench_methods.py node/iobench_methods.js)
  get_filename_component(_lang_dir ${_script} DIRECTORY)
  if(NOT _${_lang_dir}_reason)
    set(_${_lang_dir}_file ${IOBENCH_LANGUAGE_DIR}/${_script})
    add_custom_command(OUTPUT ${IOBENCH_LANGUAGE_DIR}/${_script}
      COMMAND ${CMAKE_COMMAND} -E copy ${PROJECT_SOURCE_DIR}/methods/${_script} ${IOBENCH_LANGUAGE_DIR}/${_script}
      DEPENDS ${PROJECT_SOURCE_DIR}/methods/${_script}
      COMMENT "Copying methods/${_script}"
      VERBATIM)
    list(APPEND _targets ${IOBENCH_LANGUAGE_DIR}/${_script})
  endif()
endforeach()
add_custom_target(iobench_language_programs DEPENDS ${_targets})  # in all through iobench_programs only
# What cmake/IobenchInstall.cmake installs: <language>|<file> of every program built.
set(IOBENCH_LANGUAGE_PROGRAMS "")
foreach(_lang IN LISTS _languages)
  if(NOT _${_lang}_reason)
    list(APPEND IOBENCH_LANGUAGE_PROGRAMS "${_lang}|${_${_lang}_file}")
  endif()
endforeach()
if(TARGET iobench_java_program)
  set_target_properties(iobench_java_program PROPERTIES EXCLUDE_FROM_ALL ON)  # add_jar puts it in all
  add_dependencies(iobench_language_programs iobench_java_program)
endif()

# The header methods/<language>.cpp include.
set(_entries "")
foreach(_lang IN LISTS _languages)
  if(_${_lang}_reason)
    message(STATUS "iobench: ${_lang} methods not built: ${_${_lang}_reason}")
    if(NOT WIN32)
      list(APPEND IOBENCH_METHODS_MISSING "${_lang} methods")  # docs/methods.md lists them built
    endif()
    set(_${_lang}_file "")
    set(_${_lang}_interpreter "")
    set(_${_lang}_option "")
  else()
    message(STATUS "iobench: ${_lang} methods: ${_${_lang}_file} (${_${_lang}_toolchain})")
  endif()
  foreach(_field file interpreter option toolchain reason)
    string(REPLACE "\\" "\\\\" _value "${_${_lang}_${_field}}")
    string(REPLACE "\"" "\\\"" _value "${_value}")
    set(_${_field} "${_value}")
  endforeach()
  string(APPEND _entries "/// The ${_lang} methods' program.\n"
    "inline constexpr Program ${_lang}{\"${_file}\", \"${_interpreter}\", \"${_option}\", \"${_toolchain}\", \"${_reason}\"};\n")
endforeach()
file(CONFIGURE OUTPUT ${IOBENCH_GENERATED_DIR}/generated/language_programs.hpp @ONLY CONTENT [[
// Generated by cmake/IobenchLanguages.cmake: the program methods' programs of
// this build (docs/external-methods.md).
#pragma once

#include <string_view>

namespace iobench::languages {

/// One language's program, as this build made it.
struct Program {
    std::string_view file;         ///< absolute path of the program; "" when not built
    std::string_view interpreter;  ///< absolute path of the runtime that runs it; "" for an executable
    std::string_view option;       ///< the runtime's option before the file ("-jar"); "" when none
    std::string_view toolchain;    ///< the toolchain or runtime, as its --version says
    std::string_view not_built;    ///< why it was not built here; "" when it was
};

@_entries@
}  // namespace iobench::languages
]])
