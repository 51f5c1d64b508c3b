# The library's source files, listed once: each module lists its own in <module>/sources.cmake. The
# native build (src/CMakeLists.txt) and the WebAssembly build (web/CMakeLists.txt) both read these
# variables, so a file added to a module reaches both. Paths are absolute.
#   GAMEPLAN_SOURCES         gameplan: version.cpp and the goap and path modules
#   GAMEPLAN_IO_SOURCES      gameplan_io
#   GAMEPLAN_IO_PNG_SOURCES  the files of GAMEPLAN_IO_SOURCES that call libpng
include(${CMAKE_CURRENT_LIST_DIR}/goap/sources.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/path/sources.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/io/sources.cmake)
set(GAMEPLAN_SOURCES ${CMAKE_CURRENT_LIST_DIR}/version.cpp ${GAMEPLAN_GOAP_SOURCES} ${GAMEPLAN_PATH_SOURCES})
