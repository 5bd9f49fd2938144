# iobench_add_library(PART SOURCES...): one of iobench's four libraries
# (core, workloads, methods, main), the same kind of target in this tree and
# installed:
#   iobench_<PART>_objects  the OBJECT library that compiles SOURCES once
#                           against iobench_internal (never installed);
#   iobench_<PART>          a STATIC library of those objects, ALIAS
#                           iobench::<PART>, installed as libiobench_<PART>.a
#                           (EXPORT_NAME <PART>) with the link dependencies
#                           its objects need.
# An executable links the four whole (iobench_add_executable,
# cmake/iobenchFunctions.cmake): the workloads and methods register
# themselves from static initializers that nothing refers to.
function(iobench_add_library part)
  add_library(iobench_${part}_objects OBJECT ${ARGN})
  target_link_libraries(iobench_${part}_objects PRIVATE iobench_internal)
  iobench_apply_options(iobench_${part}_objects)
  add_library(iobench_${part} STATIC $<TARGET_OBJECTS:iobench_${part}_objects>)
  add_library(iobench::${part} ALIAS iobench_${part})
  set_target_properties(iobench_${part} PROPERTIES EXPORT_NAME ${part} LINKER_LANGUAGE CXX)
  # None names another: iobench_add_executable links all four whole, and
  # CMake refuses a library linked both whole and not.
  target_link_libraries(iobench_${part} INTERFACE iobench::headers
    benchmark::benchmark fmt::fmt nlohmann_json::nlohmann_json ${IOBENCH_CORE_SYSTEM_LIBRARIES})
endfunction()
