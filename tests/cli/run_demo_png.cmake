# `gameplan demo --png-every 10 --png-dir DIR --ticks 25` must write village_000000/10/20/25.png: PNG
# files (signature checked) of 960 x 448 pixels (the 120 x 56 generated map at 8 pixels per cell).
file(REMOVE_RECURSE ${DIR})
execute_process(COMMAND ${EXE} demo --ticks 25 --agents 12 --png-every 10 --png-dir ${DIR}/nested
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "exit ${rc}\n${out}\n${err}")
endif()
file(GLOB written RELATIVE ${DIR}/nested ${DIR}/nested/*.png)
list(SORT written)
if(NOT "${written}" STREQUAL "village_000000.png;village_000010.png;village_000020.png;village_000025.png")
  message(FATAL_ERROR "unexpected snapshots: '${written}'")
endif()
foreach(f ${written})
  file(READ ${DIR}/nested/${f} head LIMIT 24 HEX)
  # 8-byte signature, IHDR length and type, then width and height (big-endian).
  if(NOT head STREQUAL "89504e470d0a1a0a0000000d49484452000003c0000001c0")
    message(FATAL_ERROR "${f}: not a 960 x 448 PNG (header ${head})")
  endif()
endforeach()
