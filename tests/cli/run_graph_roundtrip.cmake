# Writes a graph with `EXE WRITE_ARGS --out OUT` (exit 0), then searches it with `EXE graph OUT QUERY_ARGS`
# and requires exit code 0 and output matching EXPECT_REGEX: what one command writes, the other reads.
file(REMOVE "${OUT}")
execute_process(COMMAND ${EXE} ${WRITE_ARGS} --out ${OUT} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${WRITE_ARGS} --out ${OUT}: exit ${rc}\n${out}\n${err}")
endif()
execute_process(COMMAND ${EXE} graph ${OUT} ${QUERY_ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "graph ${OUT} ${QUERY_ARGS}: exit ${rc}\n${out}\n${err}")
endif()
if(NOT out MATCHES "${EXPECT_REGEX}")
  message(FATAL_ERROR "graph ${OUT} ${QUERY_ARGS}: output does not match '${EXPECT_REGEX}':\n${out}")
endif()
