# Sources of the path module (part of gameplan), gathered by src/sources.cmake.
set(GAMEPLAN_PATH_SOURCES
  grid_map.cpp grid_rules.cpp grid_search.cpp jps.cpp jps_plus.cpp subgoal.cpp
  islands.cpp dead_ends.cpp distance_field.cpp request_queue.cpp batch.cpp  # batch.cpp: std::thread workers
  # per-cell penalties and the movement layer (units following paths, crowds without collisions)
  penalty_layer.cpp movement.cpp
  # two-tier hierarchical search (HPA*), smoothing and any-angle search
  cluster_flood.cpp hpa_build.cpp hpa_query.cpp smoothing.cpp theta_star.cpp
  # collision-free crowds: one-shot multi-agent solver (LaCAM + PIBT) and the lifelong stepper
  crowd_solver.cpp crowd_stepper.cpp sipp.cpp
  # graphs (CSR) and graph search
  graph.cpp graph_search.cpp request_queue_graph.cpp
  # hex grids (odd-r offset rows): islands and A*/Dijkstra
  hex_grid.cpp
  # waypoint (visibility) graphs from grid maps
  waypoints.cpp
  # navigation meshes from grid maps and Polyanya (Euclidean-optimal any-angle paths)
  navmesh_build.cpp navmesh_search.cpp
  # a contraction hierarchy over the sparse visibility graph of a mesh's corners (any-angle, preprocessed)
  navmesh_hierarchy.cpp
  # frame-budgeted request queues of the two navmesh searches
  request_queue_navmesh.cpp
  # area types, per-query filters, cost layers; influence maps; fog of war (per-team knowledge, explore)
  area_filter.cpp influence.cpp fog.cpp
  # saving and restoring running state (searches in progress, request queues, movement, map metadata)
  state_save.cpp
)
list(TRANSFORM GAMEPLAN_PATH_SOURCES PREPEND ${CMAKE_CURRENT_LIST_DIR}/)
