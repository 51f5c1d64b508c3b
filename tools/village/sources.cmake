# The village's source files and the domains compiled into it, listed once: tools/village/CMakeLists.txt
# (gameplan_village) and the WebAssembly build (web/CMakeLists.txt) both read them. Paths are absolute.
#   GAMEPLAN_VILLAGE_SOURCES       the simulation; render.cpp draws its pictures (gameplan_io's images)
#   GAMEPLAN_VILLAGE_DOMAIN_DIR    examples/goap/village
#   GAMEPLAN_VILLAGE_DOMAIN_FILES  the domains of its three kinds, compiled in (embed_domains.cmake)
set(GAMEPLAN_VILLAGE_SOURCES village.cpp generate.cpp render.cpp)
list(TRANSFORM GAMEPLAN_VILLAGE_SOURCES PREPEND ${CMAKE_CURRENT_LIST_DIR}/src/)
get_filename_component(GAMEPLAN_VILLAGE_DOMAIN_DIR ${CMAKE_CURRENT_LIST_DIR}/../../examples/goap/village ABSOLUTE)
set(GAMEPLAN_VILLAGE_DOMAIN_FILES woodcutter.json miner.json cook.json)
list(TRANSFORM GAMEPLAN_VILLAGE_DOMAIN_FILES PREPEND ${GAMEPLAN_VILLAGE_DOMAIN_DIR}/)
