#pragma once
/// @file gameplan.hpp
/// Umbrella header: the whole public core API (search engine, GOAP planner and agent runtime, pathfinding).
/// Every public core header is listed here (the test headers.umbrella checks it).
/// The text loaders live in <gameplan/io/...> and need the gameplan::io target.
#include <gameplan/config.hpp>
#include <gameplan/status.hpp>
#include <gameplan/restore.hpp>
#include <gameplan/search/generation.hpp>
#include <gameplan/search/indexed_heap.hpp>
#include <gameplan/search/search_context.hpp>
#include <gameplan/goap/world_state.hpp>
#include <gameplan/goap/domain.hpp>
#include <gameplan/goap/planner.hpp>
#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/grid_rules.hpp>
#include <gameplan/path/penalty_layer.hpp>
#include <gameplan/path/area_filter.hpp>
#include <gameplan/path/influence.hpp>
#include <gameplan/path/fog.hpp>
#include <gameplan/path/grid_search.hpp>
#include <gameplan/path/movement.hpp>
#include <gameplan/path/grid_space.hpp>
#include <gameplan/path/jps.hpp>
#include <gameplan/path/jps_plus.hpp>
#include <gameplan/path/subgoal.hpp>
#include <gameplan/path/hpa.hpp>
#include <gameplan/path/smoothing.hpp>
#include <gameplan/path/navmesh.hpp>
#include <gameplan/path/theta_star.hpp>
#include <gameplan/path/islands.hpp>
#include <gameplan/path/dead_ends.hpp>
#include <gameplan/path/distance_field.hpp>
#include <gameplan/path/request_queue.hpp>
#include <gameplan/path/batch.hpp>
#include <gameplan/path/crowd.hpp>
#include <gameplan/path/graph.hpp>
#include <gameplan/path/graph_search.hpp>
#include <gameplan/path/hex_grid.hpp>
#include <gameplan/path/request_queue_graph.hpp>
#include <gameplan/path/waypoints.hpp>
#include <gameplan/goap/blackboard.hpp>
#include <gameplan/goap/behaviour.hpp>
#include <gameplan/goap/agent_events.hpp>
#include <gameplan/goap/agent_batch.hpp>
#include <gameplan/goap/agent.hpp>
#include <gameplan/goap/agent_scenario.hpp>
#include <gameplan/goap/explain.hpp>
