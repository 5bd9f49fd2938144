# iobench_add_library(PART ROOM...): one of iobench's four libraries (core,
# workloads, methods, main), the same kind of target in this tree and
# installed: iobench_<PART>, a STATIC library, ALIAS iobench::<PART>,
# installed as libiobench_<PART>.a (EXPORT_NAME <PART>), of the objects of
# the ROOMs (folders: each compiled once, by its own OBJECT library
# iobench_<id>_objects, cmake/IobenchRooms.cmake), with the link dependencies
# those objects need.
# An executable links the four whole (iobench_add_executable,
# cmake/iobenchFunctions.cmake): the workloads and methods register
# themselves from static initializers that nothing refers to.
function(iobench_add_library part)
  set(objects "")
  foreach(folder IN LISTS ARGN)
    string(REPLACE "/" "_" id "${folder}")
    list(APPEND objects $<TARGET_OBJECTS:iobench_${id}_objects>)
  endforeach()
  add_library(iobench_${part} STATIC ${objects})
  add_library(iobench::${part} ALIAS iobench_${part})
  set_target_properties(iobench_${part} PROPERTIES EXPORT_NAME ${part} LINKER_LANGUAGE CXX)
  # None names another: iobench_add_executable links all four whole, and
  # CMake refuses a library linked both whole and not.
  target_link_libraries(iobench_${part} INTERFACE iobench::headers
    benchmark::benchmark fmt::fmt nlohmann_json::nlohmann_json ${IOBENCH_CORE_SYSTEM_LIBRARIES})
endfunction()
