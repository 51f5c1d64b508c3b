#pragma once
/// @file fog.hpp
/// Fog of war: what a team knows of a map, shared by all its units, and units that explore toward a
/// goal, discovering cells as they move and replanning when a route meets a newly seen wall.
///
/// Overview
/// --------
/// A `TeamKnowledge` holds one team's view of a true map: every cell is unknown, known free or known
/// blocked. Memory is per team, not per unit: all units of a team read and extend the same view. Its
/// `belief()` is an ordinary `GridMap` for the team's searches: known-blocked cells are blocked,
/// known-free cells carry their true terrain cost, and unknown cells count as walkable (cost 1) —
/// optimism that makes units wander into dead ends until they see the way. Its `areas()` puts
/// unknown cells in area `kAreaUnknown` (known cells in area 0, or their true area when `reveal` is
/// given one), so a query's `AreaFilter` decides how unknown cells are treated: forbid them (only
/// known ground), or give them a multiplier (cautious units).
///
/// `reveal(truth, center, radius)` marks every cell within Chebyshev distance `radius` of `center` as
/// known (what a unit standing there sees; walls do not hide cells) and updates the belief.
///
/// `explore` walks one unit from start to goal: it reveals around the unit, plans on the belief with
/// a `GridPathfinder`, steps along the plan one cell at a time, reveals again after every step, and
/// replans at once when a cell or a diagonal corner of the remaining route turned out blocked. With a
/// sight radius >= 1 every cell next to the unit is known before it steps, so it never enters a
/// blocked cell; each replan follows a newly discovered wall, so it ends: `Found` (arrived) whenever
/// the goal is reachable on the true map (the belief only ever has more open cells than the truth),
/// `NoPath` once the team's knowledge proves the goal unreachable. The travelled cost (true costs:
/// length x terrain of the cell entered) is at least the optimal cost with full knowledge.
///
/// A walk can replan once per wall it meets, each plan a search of the whole belief: on a large maze,
/// thousands of searches. `ExploreOptions::budget` bounds the whole walk (its plans' expansions
/// together, a deadline, the pathfinder's memory); when it runs out the walk stops where the unit stands
/// with `BudgetExhausted` and `ExploreResult::limit` naming the limit.
///
/// Per-unit costs. `ExploreOptions` may carry the true areas, the unit's `AreaFilter` and weighted cost
/// layers (area_filter.hpp). A cell's area is learnt with the cell; the unit never enters (nor cuts the
/// corner of) a seen cell of a forbidden area and replans as soon as its route meets one; the travelled
/// cost is the combined cost `length x terrain x multiplier(area) + sum of weight x layer` of the cells
/// entered, at least the optimum of the same cost with full knowledge. The goal is reached whenever it
/// is reachable through allowed areas.
///
/// Memory per team: 2 bytes per padded cell (belief passability and knowledge) + 1 byte per padded
/// cell of areas, plus 4 bytes per padded cell when the true map has terrain costs; `memory_bytes()`
/// reports it. A 512 x 512 map costs about 0.8 MB per team, whatever the number of units.
///
/// Thread-safety: a TeamKnowledge is written by `reveal`; do not share it across threads while it is
/// written.

#include <gameplan/path/area_filter.hpp>
#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/grid_rules.hpp>
#include <gameplan/path/grid_search.hpp>
#include <gameplan/status.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace gameplan::path {

/// What a team knows of one cell.
enum class CellKnowledge : std::uint8_t {
    Unknown = 0,  ///< never seen
    Free = 1,     ///< seen passable
    Blocked = 2,  ///< seen blocked
};

/// Area of unknown cells in `TeamKnowledge::areas()`.
inline constexpr std::uint8_t kAreaUnknown = kMaxAreas - 1;
/// Largest sight radius of `reveal` and `explore` (cells).
inline constexpr std::int32_t kMaxSightRadius = 1024;

/// One team's knowledge of a map. See the file overview.
class TeamKnowledge {
public:
    /// An empty view (matches no map until `reset`).
    TeamKnowledge() = default;
    /// Everything unknown on `truth`'s shape. May throw std::bad_alloc.
    explicit TeamKnowledge(const GridMap& truth) { reset(truth); }

    /// Forgets everything: every cell unknown (walkable in the belief). O(cells). May throw std::bad_alloc.
    void reset(const GridMap& truth);
    /// True if sized for a map of this shape.
    [[nodiscard]] bool matches(const GridMap& map) const noexcept {
        return map.width() == m_belief.width() && map.height() == m_belief.height();
    }
    /// Reveals every cell of `truth` within Chebyshev distance `radius` (0..kMaxSightRadius) of `center`.
    /// `truth_areas` (optional, matching `truth`) gives known cells their true area. Returns the number of
    /// cells newly known blocked. O(radius^2); allocates only when the truth has terrain costs and the
    /// belief's cost array is first needed.
    std::size_t reveal(const GridMap& truth, GridPoint center, std::int32_t radius, const AreaMap* truth_areas = nullptr);
    /// Knowledge of `p` (Unknown off the map).
    [[nodiscard]] CellKnowledge state(GridPoint p) const noexcept;
    /// The map the team's searches run on (see the overview). Its version() changes with every reveal
    /// that changed a cell's passability or cost.
    [[nodiscard]] const GridMap& belief() const noexcept { return m_belief; }
    /// Areas of the belief: kAreaUnknown for unknown cells.
    [[nodiscard]] const AreaMap& areas() const noexcept { return m_areas; }
    /// Number of known cells (free or blocked).
    [[nodiscard]] std::size_t known_count() const noexcept { return m_known_count; }
    /// Bytes held by this view.
    [[nodiscard]] std::size_t memory_bytes() const noexcept;

private:
    GridMap m_belief;
    AreaMap m_areas;
    std::vector<std::uint8_t> m_state;  // padded, CellKnowledge
    std::size_t m_known_count = 0;
};

/// How `explore` moves and what it may see.
struct ExploreOptions {
    Movement movement = Movement::Eight;                    ///< 4- or 8-connected
    DiagonalRule diagonal = DiagonalRule::NoCornerCutting;  ///< diagonal rule for Movement::Eight
    std::int32_t sight = 5;          ///< Chebyshev sight radius, in [1, kMaxSightRadius]
    /// Planning cost multiplier of unknown cells, in (0, kMaxAreaMultiplier] (1 = optimistic).
    double unknown_multiplier = 1.0;
    std::uint64_t max_steps = 0;     ///< step budget (0 = 4 x cells + 16); then BudgetExhausted
    /// Budget of the whole walk: `max_expansions` counts the cells all its plans expand together,
    /// `deadline` is read before each plan and by the plan's search, `max_memory_bytes` bounds the
    /// pathfinder's state (the search's per-cell arrays and open list). Then BudgetExhausted, with
    /// ExploreResult::limit naming the limit. Default: unlimited.
    search::Budget budget{};
    /// Optional true area of every cell (matching the true map). A cell's area becomes known when the
    /// cell is seen; unknown cells are in `kAreaUnknown`. Not owned; must outlive the walk.
    const AreaMap* areas = nullptr;
    /// Optional filter of the unit (area_filter.hpp): it never enters a seen cell of a forbidden area
    /// (nor cuts its corner) and pays the area multipliers; unknown cells are allowed at
    /// `unknown_multiplier` unless the filter forbids `kAreaUnknown`. Not owned.
    const AreaFilter* filter = nullptr;
    /// Optional weighted cost layers (entering c adds weight x layer(c)), known to the team everywhere
    /// (an influence map, say). Not owned; the span and layers must outlive the walk.
    std::span<const CostLayer> layers{};
};

/// What `explore` did.
struct ExploreResult {
    std::vector<GridPoint> path;  ///< every cell the unit stood on, start first
    double travelled = 0.0;       ///< true cost of the walk: each step's cost under the query's rule
                                  ///< (length x terrain x area multiplier of the cell entered + layers)
    std::uint64_t steps = 0;      ///< cells moved
    std::uint64_t replans = 0;    ///< plans made after the first one
    std::uint64_t expanded = 0;   ///< cells expanded by all plans
    /// The limit of ExploreOptions::budget that ended the walk (`None` unless explore returned
    /// BudgetExhausted because of it; a walk stopped by `max_steps` leaves it `None`).
    search::BudgetLimit limit = search::BudgetLimit::None;
};

/// Walks units of a team toward goals on a true map (see the overview). Reusable: it keeps its
/// pathfinder and plan buffer between walks.
class Explorer {
public:
    /// Walks a unit of `team` from `start` to `goal` on `truth`. `team` must match `truth` and keeps
    /// what the walk revealed (other units of the team profit from it). Returns `Found` (arrived),
    /// `NoPath` (the team's knowledge proves the goal unreachable), `BudgetExhausted`
    /// (options.max_steps or options.budget; `out.limit` tells which), or `InvalidQuery` (a point off the map, a blocked start, a team for another
    /// map shape, sight or multiplier out of range, areas or a layer for another map shape, a negative or
    /// non-finite layer weight, a start in a forbidden area). Allocates only to grow `out.path` and its buffers.
    Status explore(const GridMap& truth, TeamKnowledge& team, GridPoint start, GridPoint goal,
                   const ExploreOptions& options, ExploreResult& out);

private:
    GridPathfinder m_finder;
    GridPath m_plan;
    AreaFilter m_filter;
};

}  // namespace gameplan::path
