# Sources of the goap module (part of gameplan), gathered by src/sources.cmake.
set(GAMEPLAN_GOAP_SOURCES
  domain.cpp planner.cpp numeric_planner.cpp
  # the agent runtime; agent_batch.cpp's ThreadPool uses std::thread
  agent.cpp agent_type.cpp agent_events.cpp agent_batch.cpp agent_scenario.cpp
  explain.cpp
  agent_state.cpp     # saving and restoring a running AgentSystem
  task_generator.cpp  # random layered STRIPS tasks (task_generator.hpp)
  auto_direction.cpp  # both directions at once, first answer wins (auto_direction.hpp)
)
list(TRANSFORM GAMEPLAN_GOAP_SOURCES PREPEND ${CMAKE_CURRENT_LIST_DIR}/)
