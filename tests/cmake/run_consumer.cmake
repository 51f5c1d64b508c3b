# Configures, builds and runs tests/cmake/consumer in MODE against the gameplan tree SOURCE.
# find_package mode first installs gameplan into a scratch prefix.
set(work ${WORK_DIR}/${MODE})
file(REMOVE_RECURSE ${work})
set(prefix_arg "")
if(MODE STREQUAL "find_package")
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE} -B ${work}/gameplan-build -DCMAKE_BUILD_TYPE=Release
                          -DGAMEPLAN_TESTS=OFF -DGAMEPLAN_BENCHMARKS=OFF -DGAMEPLAN_TOOLS=OFF -DGAMEPLAN_EXAMPLES=OFF
                          -DGAMEPLAN_INSTALL=ON -DCMAKE_INSTALL_PREFIX=${work}/prefix
                  RESULT_VARIABLE rc)
  if(rc)
  message(FATAL_ERROR "configuring gameplan failed")
endif()
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${work}/gameplan-build -j2 --target install RESULT_VARIABLE rc)
  if(rc)
  message(FATAL_ERROR "installing gameplan failed")
endif()
  set(prefix_arg -DCMAKE_PREFIX_PATH=${work}/prefix)
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE}/tests/cmake/consumer -B ${work}/build -DMODE=${MODE}
                        -DGAMEPLAN_SOURCE=${SOURCE} -DCMAKE_BUILD_TYPE=Release ${prefix_arg} RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "configuring the consumer (${MODE}) failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${work}/build -j2 RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "building the consumer (${MODE}) failed")
endif()
execute_process(COMMAND ${work}/build/consumer RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "the consumer (${MODE}) failed")
endif()
