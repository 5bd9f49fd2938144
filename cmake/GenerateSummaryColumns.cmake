# Writes the console summary's table of columns, a C++ header, from the one
# file that says what the columns are (tools/iobench_compare/spec/summary_columns.json,
# which iobench-compare reads as package data): the enumerations of its
# "fields", "formats" and "shown" (each with its explanation as the comment),
# the flags its columns name, and `columns`, one entry per column in order.
#   cmake -DSPEC=<summary_columns.json> -DOUTPUT=<generated/summary_columns.hpp>
#         [-DADD_COLUMN_FILE=<one more column, a JSON file>] -P cmake/GenerateSummaryColumns.cmake
# ADD_COLUMN_FILE appends a column to the spec's (the test that a new column is
# one spec entry: tests/CMakeLists.txt, summary.new_column). The output is rewritten only
# when its text changes. Fails naming the spec and the entry on a bad value.
cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/SpecOutput.cmake)

file(READ "${SPEC}" spec)
if(ADD_COLUMN_FILE)
  file(READ "${ADD_COLUMN_FILE}" column)
  string(JSON count LENGTH "${spec}" columns)
  string(JSON spec SET "${spec}" columns ${count} "${column}")
endif()

# The enumerators of the spec's object SECTION, each with its explanation: NAMES_VAR gets the names.
function(enumerators section names_var text_var)
  spec_indices(indices ${section})
  set(names "")
  set(text "")
  foreach(i IN LISTS indices)
    string(JSON name MEMBER "${spec}" ${section} ${i})
    string(JSON what GET "${spec}" ${section} ${name})
    spec_require_name("${name}" "${section}")
    list(APPEND names ${name})
    string(REPLACE "\n" " " what "${what}")
    string(APPEND text "    ${name},  ///< ${what}\n")
  endforeach()
  set(${names_var} "${names}" PARENT_SCOPE)
  set(${text_var} "${text}" PARENT_SCOPE)
endfunction()

enumerators(fields field_names field_text)
enumerators(formats format_names format_text)
enumerators(shown shown_names shown_text)

# A column's member NAME: TYPE text (a literal, "" for null), bool, number or one of NAMES.
function(member index name type out)
  string(JSON kind TYPE "${spec}" columns ${index} ${name})
  string(JSON value GET "${spec}" columns ${index} ${name})
  string(JSON key GET "${spec}" columns ${index} key)
  if(type STREQUAL "text")
    if(kind STREQUAL "NULL")
      set(value "")
    elseif(NOT kind STREQUAL "STRING")
      message(FATAL_ERROR "${SPEC}: column ${key}: ${name} is ${kind}, not a text or null")
    endif()
    spec_cxx_literal("${value}" value)
    set(value "\"${value}\"")
  elseif(type STREQUAL "bool")
    if(NOT kind STREQUAL "BOOLEAN")
      message(FATAL_ERROR "${SPEC}: column ${key}: ${name} is ${kind}, not true or false")
    endif()
    string(TOLOWER "${value}" value)
    if(value STREQUAL "on")
      set(value true)
    elseif(value STREQUAL "off")
      set(value false)
    endif()
  elseif(type STREQUAL "number")
    if(NOT kind STREQUAL "NUMBER" OR NOT value MATCHES "^[0-9]+$")
      message(FATAL_ERROR "${SPEC}: column ${key}: ${name} is not a whole number of characters: ${value}")
    endif()
  else()
    set(names "${ARGN}")
    if(kind STREQUAL "NULL" AND "none" IN_LIST names)
      set(value none)
    elseif(NOT value IN_LIST names)
      list(JOIN names ", " said)
      message(FATAL_ERROR "${SPEC}: column ${key}: ${name} \"${value}\" is none of ${said}")
    endif()
    set(value "${type}::${value}")
  endif()
  set(${out} "${value}" PARENT_SCOPE)
endfunction()

spec_indices(columns columns)
# The flags, the rules of core/report/report_rules.hpp a column names, in their order.
set(flag_names none)
foreach(i IN LISTS columns)
  string(JSON kind TYPE "${spec}" columns ${i} flag)
  if(NOT kind STREQUAL "NULL")
    string(JSON flag GET "${spec}" columns ${i} flag)
    list(APPEND flag_names ${flag})
  endif()
endforeach()
list(REMOVE_DUPLICATES flag_names)
list(JOIN flag_names ", " flag_list)

set(rows "")
foreach(i IN LISTS columns)
  set(cells "")
  foreach(spec_member IN ITEMS key:text header:text align:Align width:number grows:bool unit:text field:Field
                               counter:text format:Format flag:Flag reference:text shown:Shown)
    string(REPLACE ":" ";" pair "${spec_member}")
    list(GET pair 0 name)
    list(GET pair 1 type)
    if(type STREQUAL "Align")
      member(${i} ${name} Align value left right)
    elseif(type STREQUAL "Field")
      member(${i} ${name} Field value ${field_names})
    elseif(type STREQUAL "Format")
      member(${i} ${name} Format value ${format_names})
    elseif(type STREQUAL "Flag")
      member(${i} ${name} Flag value ${flag_names})
    elseif(type STREQUAL "Shown")
      member(${i} ${name} Shown value ${shown_names})
    else()
      member(${i} ${name} ${type} value)
    endif()
    list(APPEND cells "${value}")
  endforeach()
  list(JOIN cells ", " cells)
  string(APPEND rows "    {${cells}},\n")
endforeach()

set(spec_name tools/iobench_compare/spec/summary_columns.json)
if(ADD_COLUMN_FILE)
  string(APPEND spec_name " and one column more")
endif()
set(text "// Generated by cmake/GenerateSummaryColumns.cmake from ${spec_name}:
// edit that file, not this one. The console summary's columns, in order (laid
// out by core/report/summary.cpp from this table alone); iobench-compare reads
// the same file (tools/iobench_compare/columns.py).
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

namespace iobench::summary_columns {

/// How a cell is aligned within its column.
enum class Align { left, right };

/// What a cell shows of its row (the spec's \"fields\").
enum class Field {
${field_text}};

/// How a cell's value is written (the spec's \"formats\"): core/report/number_format.hpp's
/// kinds (tests/data/number_format.json), the text as it is, or an interval's half-width.
enum class Format {
${format_text}};

/// The rule of core/report/report_rules.hpp that appends \"!\" to a cell, or none.
enum class Flag { ${flag_list} };

/// Which tables show a column (the spec's \"shown\").
enum class Shown {
${shown_text}};

/// One column of a summary table.
struct Column {
    std::string_view key;     ///< its name in the spec
    std::string_view header;  ///< the text above it
    Align align;
    std::size_t width;        ///< least width in characters; longer texts are not cut
    bool grows;               ///< widened to its longest text
    std::string_view unit;    ///< the unit of the value before it is written (\"\" for text)
    Field field;
    std::string_view counter;    ///< the counter read (Field::counter, cpu_share, throughput, ...), else \"\"
    Format format;
    Flag flag;
    std::string_view reference;  ///< the text on a reference (`limit`) row instead of the value, or \"\"
    Shown shown;
};

/// Every column, in the order of the tables. The first is the rows' label:
/// a row that did not run shows it and then its reason.
inline constexpr auto columns = std::to_array<Column>({
${rows}});

}  // namespace iobench::summary_columns
")
spec_write("${text}")
