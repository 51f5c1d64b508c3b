#pragma once
/// @file gameplan.hpp
/// Umbrella header: the whole public core API (search engine, GOAP planner and agent runtime, pathfinding).
/// The text loaders live in <gameplan/io/...> and need the gameplan::io target.
#include <gameplan/config.hpp>
#include <gameplan/status.hpp>
#include <gameplan/search/search_context.hpp>
#include <gameplan/goap/world_state.hpp>
#include <gameplan/goap/domain.hpp>
#include <gameplan/goap/planner.hpp>
#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/grid_rules.hpp>
#include <gameplan/path/grid_search.hpp>
#include <gameplan/path/grid_space.hpp>
#include <gameplan/goap/blackboard.hpp>
#include <gameplan/goap/behaviour.hpp>
#include <gameplan/goap/agent_events.hpp>
#include <gameplan/goap/agent_batch.hpp>
#include <gameplan/goap/agent.hpp>
#include <gameplan/goap/agent_scenario.hpp>
#include <gameplan/goap/explain.hpp>
