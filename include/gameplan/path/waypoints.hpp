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
#include <gameplan/path/graph_search.hpp>
#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/grid_rules.hpp>
#include <gameplan/path/grid_search.hpp>
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

/// A waypoint graph: the graph, the cell of each node, and the rule it was built with.
struct WaypointGraph {
    Graph graph;                   ///< undirected (two arcs per edge), ids "x,y", positions at cell centres
    std::vector<GridPoint> cells;  ///< cells[n] is node n's cell
    /// The limit of `WaypointOptions::budget` that stopped the build (`BudgetExhausted`), else `None`.
    search::BudgetLimit limit = search::BudgetLimit::None;
    /// The line-of-sight rule and range the graph was built with (`WaypointOptions`): `WaypointPathfinder`
    /// joins a query's two cells to the graph by the same rule.
    Movement movement = Movement::Eight;
    DiagonalRule diagonal = DiagonalRule::NoCornerCutting;
    double max_distance = std::numeric_limits<double>::infinity();
    /// Node of `cell`, or kNoGraphNode when the cell is no waypoint. O(log nodes).
    [[nodiscard]] GraphNode node_at(GridPoint cell) const;
};

/// Appends to `out` (cleared first) every convex obstacle corner cell of `map` (see the overview), in row
/// order. O(cells).
void convex_corners(const GridMap& map, std::vector<GridPoint>& out);

/// Fills `out` with the waypoints `build_waypoint_graph` places: the `given` cells in order, then (with
/// `corners`) every convex obstacle corner, each cell once (its first place kept). Precondition: the given
/// cells lie on the map. O(cells); for counting waypoints before a build (`kMaxWaypoints`).
void waypoint_cells(const GridMap& map, std::span<const GridPoint> given, bool corners, std::vector<GridPoint>& out);

/// Builds the waypoint graph of `map` from `given` waypoints plus, per options, the convex corners. Returns
/// `Found` and fills `out`; `InvalidQuery` or `BudgetExhausted` (see the overview) leave `out` empty but
/// for `out.limit`.
Status build_waypoint_graph(const GridMap& map, std::span<const GridPoint> given, const WaypointOptions& options,
                            WaypointGraph& out);

/// Paths between any two free cells over a built waypoint graph, without building it again: the
/// reusable query object of waypoint graphs, with the shape of the other pathfinders (`begin` / `step` /
/// `finish`, `find_path` for all three; `GraphSearchOptions`: heuristic, weight, budget).
///
/// `begin` joins the start to every waypoint it sees and the goal to every waypoint that sees it, by the
/// graph's own rule (`WaypointGraph::movement`, `diagonal`, `max_distance`), then A* runs from the start's
/// waypoints (each at its distance from the start) to a goal reached through the goal's waypoints; the
/// heuristic is the straight-line distance to the goal (exact lower bound: every cost is a length). When
/// the start sees the goal (within `max_distance`) the answer is the straight segment, with no search.
/// The path is that of a waypoint graph built with the two cells as given waypoints, without rebuilding:
/// the shortest that turns only at waypoints (see the overview: not the any-angle optimum).
///
/// The result is a `GridPath` whose cells are the start, the waypoints turned at and the goal, and whose
/// cost is the Euclidean length between their centres (`ThetaStar`'s form).
///
/// Statuses: `Found`; `NoPath`; `BudgetExhausted` (`budget_limit()` says which: the expansions, the
/// deadline, or the memory, which counts the engine's arrays and the pathfinder's own, 24 bytes per
/// waypoint); `InvalidQuery` (an end off the map or blocked, a map with terrain costs, a graph not made
/// by `build_waypoint_graph` or a map it does not fit: a waypoint off it or blocked, weight < 1).
///
/// Cost: `begin` tests line of sight from each end to every waypoint within `max_distance` (O(waypoints
/// x segment length), the part that grows with the graph: about 0.9 ms for a long query over the 3,633
/// corners of a 512 x 512 game map, most of it these tests; `max_distance` or fewer waypoints shorten
/// it), the search O((V + E) log V). After warm-up (or `reserve`) a query
/// allocates nothing but the output path's growth. The graph and the map must outlive the search and not
/// change between `begin` and `finish`. Thread-safety: one pathfinder per thread.
class WaypointPathfinder {
public:
    WaypointPathfinder() = default;
    /// Sizes the state for `graph`, so that even the first query does not allocate.
    void reserve(const WaypointGraph& graph);
    /// Starts a query from cell `start` to cell `goal` of `map` (the map the graph was built from).
    Status begin(const WaypointGraph& graph, const GridMap& map, GridPoint start, GridPoint goal,
                 const GraphSearchOptions& options = {});
    /// Expands at most `slice_expansions` waypoints; `InProgress` if the slice ran out first.
    Status step(std::uint64_t slice_expansions = UINT64_MAX);
    /// Writes the path into `out` (cleared when there is none) and returns the status.
    Status finish(GridPath& out) const;
    /// begin + step + finish.
    Status find_path(const WaypointGraph& graph, const GridMap& map, GridPoint start, GridPoint goal,
                     const GraphSearchOptions& options, GridPath& out);

    [[nodiscard]] Status status() const noexcept { return m_status; }
    /// Counters of the current search (waypoints expanded; 0 for a straight segment).
    [[nodiscard]] const search::SearchStats& stats() const noexcept { return m_context.stats(); }
    /// Which limit of `options.budget` ended the search (`None` unless status() is `BudgetExhausted`).
    [[nodiscard]] search::BudgetLimit budget_limit() const noexcept;
    /// Waypoints the start sees / that see the goal (0 before a search, and for a straight segment).
    [[nodiscard]] std::size_t start_links() const noexcept { return m_sources.size(); }
    [[nodiscard]] std::size_t goal_links() const noexcept { return m_goal_links; }
    /// Bytes the pathfinder holds, as the memory budget counts them.
    [[nodiscard]] std::size_t memory_bytes() const noexcept;

private:
    // The waypoint graph plus one node past its last, the goal, reached from the waypoints that see it.
    struct Space {
        const WaypointPathfinder* owner = nullptr;
        [[nodiscard]] std::size_t node_bound() const noexcept { return owner->m_graph->graph.node_count() + 1; }
        [[nodiscard]] double heuristic(search::NodeIndex node) const noexcept { return owner->heuristic(node); }
        [[nodiscard]] bool is_goal(search::NodeIndex node) const noexcept { return node == owner->m_goal_node; }
        [[nodiscard]] std::size_t memory_bytes() const noexcept { return owner->own_bytes(); }
        template <class Sink>
        void expand(search::NodeIndex node, Sink&& sink) const {
            if (node == owner->m_goal_node) return;
            for (const GraphArc& a : owner->m_graph->graph.arcs(node)) sink(a.to, a.cost, 0u);
            if (owner->m_goal_mark[node] == owner->m_generation) sink(owner->m_goal_node, owner->m_goal_cost[node], 0u);
        }
    };
    [[nodiscard]] double heuristic(search::NodeIndex node) const noexcept;
    [[nodiscard]] std::size_t own_bytes() const noexcept;

    search::SearchContext<double> m_context;
    const WaypointGraph* m_graph = nullptr;
    GridPoint m_start{}, m_goal{};
    search::NodeIndex m_goal_node = 0;
    std::vector<search::NodeIndex> m_sources;  // waypoints the start sees
    std::vector<double> m_source_costs;        // ... at these distances
    std::vector<std::uint32_t> m_goal_mark;    // == m_generation: the waypoint sees the goal
    std::vector<double> m_goal_cost;           // ... at this distance
    std::uint32_t m_generation = 0;
    std::size_t m_goal_links = 0;
    double m_h_scale = 1.0;  // weight, 0 for Dijkstra
    bool m_direct = false;   // answered by the straight segment (or start == goal)
    search::BudgetLimit m_limit = search::BudgetLimit::None;  // a limit begin ran into itself
    Status m_status = Status::NoPath;
};

}  // namespace gameplan::path
