# Sources of the io module (gameplan_io), gathered by src/sources.cmake.
set(GAMEPLAN_IO_SOURCES
  load_error.cpp domain_json.cpp movingai.cpp image.cpp map_image.cpp scenario_json.cpp json_locator.cpp json_document.cpp read_file.cpp
  graph_json.cpp graph_write.cpp  # graph files (JSON, CSV edge lists): readers and writers
  # spreadsheet (CSV) domains, the domain writers, and loading either format (or standard input)
  domain_csv.cpp domain_file.cpp
  # lint: every problem of a domain file at once (tolerant readers of both formats)
  lint.cpp domain_json_tolerant.cpp
  pddl.cpp        # PDDL domains and problems, grounded into GOAP domains
  layer_file.cpp  # cost layer files (plain text matrices of non-negative numbers)
  save.cpp        # save files: a running game's planning and pathfinding state
)
# The files above that call libpng (PNG pictures); builds without libpng leave them out.
set(GAMEPLAN_IO_PNG_SOURCES image.cpp)
list(TRANSFORM GAMEPLAN_IO_SOURCES PREPEND ${CMAKE_CURRENT_LIST_DIR}/)
list(TRANSFORM GAMEPLAN_IO_PNG_SOURCES PREPEND ${CMAKE_CURRENT_LIST_DIR}/)
