# The rooms of the source tree (docs/design.md, "The parts, and which way
# they may depend"), each a CMake target, so that the compiler holds the
# layering: an include of a room a file's room does not link is a "no such
# file" error, not a review comment.
#
# iobench_room(FOLDER [MAY_INCLUDE <folder>...|ANYTHING] [HEADERS <file>...]
#              [SOURCES <file>...] [OTHER <file>...] [INCLUDE_DIRECTORIES <dir>...]
#              [LINK <target>...])
#   FOLDER       the room's folder from the source root, as the code includes
#                it: core/engine, methods, include/iobench.
#   MAY_INCLUDE  the rooms (folders) whose headers its files may include, its
#                own among them; ANYTHING for tests/, tools/, docs/.
#   HEADERS      its headers (names in FOLDER), which the rooms that may
#                include it reach as "FOLDER/name" and no other room does.
#   SOURCES      its translation units (names in FOLDER): compiled once, by the
#                OBJECT library iobench_<id>_objects (id: FOLDER with "_" for
#                "/"), which links the room's own target PRIVATE and nothing of
#                ours above it. One of iobench's four libraries takes its
#                objects (iobench_add_library in IobenchLibraries.cmake).
#   OTHER        files of FOLDER that are the room's but compiled elsewhere (a
#                plugin's entry point, a template CMake fills in).
#   INCLUDE_DIRECTORIES, LINK: what the room's target hands on besides its
#                headers (the generated headers' directory, iobench::headers).
#
# The target iobench_room_<id> (INTERFACE) puts a directory of the build tree
# on the include path that holds FOLDER/<header> for each of HEADERS, each a
# one-line header that includes the source tree's file (so the compiler's
# messages and the editor lead to the file itself); it links the targets of
# MAY_INCLUDE, since a header of a room below may include a room further
# below. So a room's files see their own room and the rooms below it, never
# one above: tests/check_layers.cmake holds the finer rule (the direct
# includes of a file exactly as MAY_INCLUDE says) and checks docs/design.md's
# table against what these targets link, from iobench_write_rooms' file.

include_guard(GLOBAL)

set(IOBENCH_ROOMS_DIR ${PROJECT_BINARY_DIR}/rooms)

# _iobench_room_id(FOLDER VAR): the room's name in target names (core/engine -> core_engine).
function(_iobench_room_id folder var)
  string(REPLACE "/" "_" id "${folder}")
  set(${var} "${id}" PARENT_SCOPE)
endfunction()

function(iobench_room folder)
  cmake_parse_arguments(PARSE_ARGV 1 arg "ANYTHING" ""
    "MAY_INCLUDE;HEADERS;SOURCES;OTHER;INCLUDE_DIRECTORIES;LINK")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "iobench_room(${folder}): unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  _iobench_room_id("${folder}" id)
  set(room iobench_room_${id})
  add_library(${room} INTERFACE)
  set(source_dir ${PROJECT_SOURCE_DIR}/${folder})
  if(arg_HEADERS)
    set(view ${IOBENCH_ROOMS_DIR}/${id})
    target_include_directories(${room} INTERFACE ${view})
    foreach(header IN LISTS arg_HEADERS)
      if(NOT EXISTS ${source_dir}/${header})
        message(FATAL_ERROR "iobench_room(${folder}): no header ${folder}/${header}")
      endif()
      get_filename_component(at ${view}/${folder}/${header} DIRECTORY)
      file(RELATIVE_PATH path ${at} ${source_dir}/${header})
      # Rewritten only when its text changes, so a reconfigure rebuilds nothing.
      file(CONFIGURE OUTPUT ${view}/${folder}/${header}
        CONTENT "// ${folder}/${header} of the room ${folder} (cmake/IobenchRooms.cmake).\n#include \"${path}\"\n")
    endforeach()
  endif()
  if(arg_INCLUDE_DIRECTORIES)
    target_include_directories(${room} INTERFACE ${arg_INCLUDE_DIRECTORIES})
  endif()
  if(arg_LINK)
    target_link_libraries(${room} INTERFACE ${arg_LINK})
  endif()
  foreach(below IN LISTS arg_MAY_INCLUDE)
    if(NOT below STREQUAL folder)
      _iobench_room_id("${below}" below_id)
      target_link_libraries(${room} INTERFACE iobench_room_${below_id})
    endif()
  endforeach()
  if(arg_SOURCES)
    list(TRANSFORM arg_SOURCES PREPEND ${source_dir}/ OUTPUT_VARIABLE sources)
    add_library(iobench_${id}_objects OBJECT ${sources})
    target_link_libraries(iobench_${id}_objects PRIVATE ${room} iobench_third_party)
    iobench_apply_options(iobench_${id}_objects)
    # The headers the build generates from the specs (generated/, cmake/IobenchGenerated.cmake)
    # are written before any room's file is compiled: core/os's reach every room above it.
    add_dependencies(iobench_${id}_objects iobench_generated)
  endif()
  set_property(GLOBAL APPEND PROPERTY IOBENCH_ROOMS "${folder}")
  set_property(GLOBAL PROPERTY IOBENCH_ROOM_${id}_ANYTHING ${arg_ANYTHING})
  set_property(GLOBAL PROPERTY IOBENCH_ROOM_${id}_FILES ${arg_HEADERS} ${arg_SOURCES} ${arg_OTHER})
  file(RELATIVE_PATH declared ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_LIST_FILE})
  set_property(GLOBAL PROPERTY IOBENCH_ROOM_${id}_DECLARED_IN ${declared})
endfunction()

# iobench_write_rooms(FILE): writes, at generate time, what the room targets
# link, as a CMake script tests/check_layers.cmake reads: IOBENCH_ROOMS (the
# folders), and per room id IOBENCH_ROOM_<id>_LINKS (the room targets that its
# target and its objects link, read back from the targets, so that a link
# added anywhere shows), _ANYTHING, _FILES (the files it lists) and
# _DECLARED_IN (the CMake file that declares it).
function(iobench_write_rooms file)
  get_property(folders GLOBAL PROPERTY IOBENCH_ROOMS)
  set(text "# Written by cmake/IobenchRooms.cmake (iobench_write_rooms) from the room targets.\n")
  string(APPEND text "set(IOBENCH_ROOMS \"${folders}\")\n")
  foreach(folder IN LISTS folders)
    _iobench_room_id("${folder}" id)
    set(links "$<TARGET_PROPERTY:iobench_room_${id},INTERFACE_LINK_LIBRARIES>")
    if(TARGET iobench_${id}_objects)
      string(APPEND links ";$<TARGET_PROPERTY:iobench_${id}_objects,LINK_LIBRARIES>")
    endif()
    get_property(anything GLOBAL PROPERTY IOBENCH_ROOM_${id}_ANYTHING)
    get_property(files GLOBAL PROPERTY IOBENCH_ROOM_${id}_FILES)
    get_property(declared GLOBAL PROPERTY IOBENCH_ROOM_${id}_DECLARED_IN)
    string(APPEND text "set(IOBENCH_ROOM_${id}_LINKS \"$<FILTER:${links},INCLUDE,^iobench_room_>\")\n")
    string(APPEND text "set(IOBENCH_ROOM_${id}_ANYTHING \"${anything}\")\n")
    string(APPEND text "set(IOBENCH_ROOM_${id}_FILES \"${files}\")\n")
    string(APPEND text "set(IOBENCH_ROOM_${id}_DECLARED_IN \"${declared}\")\n")
  endforeach()
  file(GENERATE OUTPUT ${file} CONTENT "${text}")
endfunction()
