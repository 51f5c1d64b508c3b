#pragma once
/// @file waypoints.hpp
/// Waypoint graphs from grid maps: waypoints (given, and/or generated at the convex corners of
/// obstacles) joined wherever they see each other — the visibility graph of the map's cells.
///
/// Overview
/// --------
/// A designer places waypoints where agents should turn (doorways, corners); the game then searches the
/// small graph of waypoints instead of the grid. `build_waypoint_graph` makes that graph from a map:
///
/// - Waypoints: the cells given, plus (with `WaypointOptions::corners`) every free cell at a *convex
///   obstacle corner*: a free cell c with a diagonal neighbour c + (dx, dy) blocked while both
///   c + (dx, 0) and c + (0, dy) are free — the cell an agent rounds a corner from, which is why they
///   make good waypoints. The graph's paths are the shortest that turn only at waypoints, not the
///   shortest any-angle paths: a cell-centre path may save a little by turning at another cell, and a
///   continuous one by turning at the obstacle corner itself (on the `rooms` example, 37.78 through
///   corner waypoints, 37.32 with every free cell a waypoint, 36.00 on the navigation mesh, navmesh.hpp,
///   which finds the exact optimum).
/// - Edges: two waypoints are joined (both ways) when the segment between their cell centres has line
///   of sight under the options' movement rule (`line_of_sight`, smoothing.hpp: never through a blocked
///   cell, never squeezing between two blocked cells that touch diagonally under NoCornerCutting), and
///   they are at most `max_distance` apart. The cost is the Euclidean distance between the centres.
/// - The result is a `Graph` (graph.hpp) with ids "x,y", positions at the cell centres (x + 0.5, y + 0.5)
///   — so `GraphPathfinder` searches it with the Euclidean heuristic (scale 1) — and the cell of every
///   node. Given waypoints come first, in order (duplicates merged), then the corners in row order.
///
/// Statuses: `Found` (built), `InvalidQuery` (an empty map, a map with terrain costs — line-of-sight
/// costs are lengths on uniform maps —, a given waypoint off the map or blocked, max_distance not > 0,
/// or more waypoints than `kMaxWaypoints`), `BudgetExhausted` (a limit of `WaypointOptions::budget` ran
/// out; `WaypointGraph::limit` says which, and nothing else is filled).
///
/// Cost: O(cells) to find corners, then one line-of-sight check per pair of waypoints no farther apart
/// than `max_distance`, each O(segment length): a 512 × 512 game map has a few thousand corners, a few
/// million pairs, a second or so; use `max_distance`, or given waypoints only, for big maps. Memory: the
/// graph (two 16-byte arcs per edge) plus about 60 bytes per waypoint; while it is built, up to 96 bytes
/// per edge, 192 per waypoint and a byte per cell of the map. The budget bounds it:
/// `max_memory_bytes` against that build-time estimate (checked as edges are found, so an open map of
/// many corners stops before it takes gigabytes),
/// `max_expansions` against the number of pairs checked for line of sight, and `deadline` every 1,024
/// pairs.
///
/// Thread-safety: reentrant; reads the map only.

#include <gameplan/path/graph.hpp>
#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/grid_rules.hpp>
#include <gameplan/search/search_context.hpp>
#include <gameplan/status.hpp>

#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace gameplan::path {

/// Largest number of waypoints `build_waypoint_graph` accepts (it checks all pairs).
inline constexpr std::size_t kMaxWaypoints = 20000;

/// How waypoints are placed and joined.
struct WaypointOptions {
    bool corners = true;                                     ///< add a waypoint at every convex obstacle corner
    Movement movement = Movement::Eight;                     ///< line-of-sight rule (see smoothing.hpp)
    DiagonalRule diagonal = DiagonalRule::NoCornerCutting;   ///< line-of-sight rule for Movement::Eight
    double max_distance = std::numeric_limits<double>::infinity();  ///< join only pairs at most this far apart
    /// Limits on the build: `max_expansions` counts pairs checked for line of sight, `max_memory_bytes`
    /// bounds the build's estimate of what it holds (see the overview), `deadline` the wall clock.
    search::Budget budget{};
};

/// A waypoint graph: the graph and the cell of each node.
struct WaypointGraph {
    Graph graph;                   ///< undirected (two arcs per edge), ids "x,y", positions at cell centres
    std::vector<GridPoint> cells;  ///< cells[n] is node n's cell
    /// The limit of `WaypointOptions::budget` that stopped the build (`BudgetExhausted`), else `None`.
    search::BudgetLimit limit = search::BudgetLimit::None;
    /// Node of `cell`, or kNoGraphNode when the cell is no waypoint. O(log nodes).
    [[nodiscard]] GraphNode node_at(GridPoint cell) const;
};

/// Appends to `out` (cleared first) every convex obstacle corner cell of `map` (see the overview), in row
/// order. O(cells).
void convex_corners(const GridMap& map, std::vector<GridPoint>& out);

/// Builds the waypoint graph of `map` from `given` waypoints plus, per options, the convex corners. Returns
/// `Found` and fills `out`; `InvalidQuery` or `BudgetExhausted` (see the overview) leave `out` empty but
/// for `out.limit`.
Status build_waypoint_graph(const GridMap& map, std::span<const GridPoint> given, const WaypointOptions& options,
                            WaypointGraph& out);

}  // namespace gameplan::path
