# Checks that the C API's shared library LIB records the soname EXPECT (read with READELF): before 1.0 it
# must name the minor version, so that a program never loads a library whose structs differ from its header.
execute_process(COMMAND ${READELF} -d ${LIB} OUTPUT_VARIABLE dynamic RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${READELF} -d ${LIB} failed (${rc})")
endif()
if(NOT dynamic MATCHES "Library soname: \\[([^]]+)\\]")
  message(FATAL_ERROR "${LIB} records no soname")
endif()
if(NOT CMAKE_MATCH_1 STREQUAL EXPECT)
  message(FATAL_ERROR "${LIB} records the soname ${CMAKE_MATCH_1}, expected ${EXPECT}")
endif()
message(STATUS "soname ${CMAKE_MATCH_1}")
