#pragma once
/// @file task_generator.hpp
/// Random layered STRIPS tasks: reproducible planning problems of any size, for measuring the planner
/// (its heuristics and search directions) and for testing it against references.
///
/// Overview
/// --------
/// `generate_layered_task` builds a `Domain`, a start state and a goal from a seed. The atoms are split
/// into `layers` layers of (nearly) equal size, like the tiers of a game's crafting tree: raw
/// resources at layer 0, intermediate goods, finished goods at the top layer. Every action belongs to a
/// layer k >= 1:
///
/// - preconditions: 1 .. `max_preconditions` distinct atoms of layer k - 1 that must be true;
/// - effects: 1 .. `max_effects` distinct atoms of layer k become true, and with probability
///   `delete_probability` one of its preconditions of layer >= 1 becomes false (the action consumes
///   it; layer-0 atoms are never deleted, so the raw resources stay available);
/// - cost: an integer in [min_cost, max_cost].
///
/// In the start state each layer-0 atom is true with probability `start_fraction` (the first one always),
/// everything else false. The goal asks for
/// `goal_atoms` distinct atoms of the top layer, chosen among those reachable when delete effects are
/// ignored (from the highest layer that has enough of them when the top layer has too few; layer 1 gives
/// what it has, possibly nothing), so the task is solvable in the relaxation; deletes may still make it unsolvable, which the planner then proves.
/// Plans are at least `layers - 1` actions long per goal atom chain, with sharing between chains.
///
/// Atoms are named `l<layer>_<index>` and actions `a<layer>_<index>`. The random stream is a
/// self-contained SplitMix64 generator, so the same options give the same task on every platform and
/// compiler. Complexity: O(actions x (max_preconditions + max_effects)) plus one relaxed-reachability
/// pass.

#include <gameplan/goap/domain.hpp>
#include <gameplan/goap/world_state.hpp>

#include <cstdint>

namespace gameplan::goap {

/// Size and shape of a random layered task. See the file overview.
struct LayeredTaskOptions {
    std::uint32_t atoms = 100;              ///< total atoms (>= 2 x layers)
    std::uint32_t actions = 500;            ///< total actions (>= 1)
    std::uint32_t layers = 5;               ///< atom layers (>= 2)
    std::uint32_t goal_atoms = 3;           ///< atoms in the goal (>= 1)
    std::uint32_t max_preconditions = 3;    ///< per action, >= 1
    std::uint32_t max_effects = 2;          ///< added atoms per action, >= 1
    double delete_probability = 0.5;        ///< chance that an action consumes one of its preconditions
    double start_fraction = 0.5;            ///< chance that a layer-0 atom is true in the start state
    std::uint32_t min_cost = 1;             ///< smallest action cost
    std::uint32_t max_cost = 5;             ///< largest action cost (>= min_cost)
    std::uint64_t seed = 0;                 ///< the same seed gives the same task
};

/// A generated planning task: plan from `start` to `goal` over `domain`.
struct GeneratedTask {
    Domain domain;
    WorldState start;
    Condition goal;
};

/// Builds the task `options` describe. Throws std::invalid_argument for options out of range
/// (fewer than two layers, fewer than two atoms per layer, no action, a zero count, max_cost <
/// min_cost, a probability or fraction outside [0, 1]).
[[nodiscard]] GeneratedTask generate_layered_task(const LayeredTaskOptions& options);

}  // namespace gameplan::goap
