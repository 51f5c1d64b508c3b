#pragma once
/// @file request_queue_graph.hpp
/// Frame-budgeted request queues for graph and hex-map searches: `GraphRequestQueue` (A* / Dijkstra on
/// a `Graph`, see graph_search.hpp) and `HexRequestQueue` (A* / Dijkstra on a hex map, see hex_grid.hpp).
///
/// Overview
/// --------
/// They are the grid `PathRequestQueue`'s scheduler (`SearchRequestQueue`, request_queue.hpp) over
/// other pathfinders, and share its handles (`PathHandle`), states (`RequestState`), options
/// (`QueueOptions`) and update counters (`QueueUpdateStats`):
///
/// - `update(n)` expands at most n search nodes (graph nodes or hex cells) in total, counted exactly:
///   each search runs in slices through its pathfinder's `step(slice)`, and the slices sum to at most n.
/// - Order: integer priority, higher first, then submission order; `QueueOptions::aging_frames` = N > 0
///   counts every N updates of waiting as one priority level. Up to `QueueOptions::lanes` searches run at
///   once (one pathfinder each); the budget is split evenly over them in a lane order that rotates every
///   update, and budget left over by searches that finish goes to the others and to new requests.
/// - Statuses are the pathfinder's: `Found`, `NoPath`, `InvalidQuery` (bad node or cell),
///   `BudgetExhausted` (the request's own `options.budget`). A request's result is exactly what a direct
///   `find_path` with the same options returns: the same status, path, cost and expansion count.
/// - Handles are salted (slot + generation): an old handle never reaches a newer request.
///
/// Changes. A `Graph` is immutable once built: the graph must outlive the queue. A hex map may change:
/// the queue watches `GridMap::version()`, as the square-grid queue does (request_queue.hpp, "Map
/// changes"). After a change of passability a running search is restarted from scratch
/// (`SearchRequestResult::restarts` counts this) and, with `QueueOptions::revalidate_done`, a finished
/// result not yet taken goes back to the queue (same rank) and is searched again on the new map. After
/// terrain-cost changes alone a running search goes on (reading the new costs, its path priced on the map
/// it finished on); a finished `NoPath` stands, other finished results are searched again;
/// `QueueOptions::restart_on_cost_change` treats cost changes as passability changes.
///
/// Memory: after `reserve`, and with `take` handing path buffers back and forth, submitting, updating and
/// taking allocate nothing (paths longer than reserved grow their buffer once).
///
/// Thread-safety: none; one queue is used by one thread. Different queues may run on different threads.

#include <gameplan/path/graph.hpp>
#include <gameplan/path/graph_search.hpp>
#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/hex_grid.hpp>
#include <gameplan/path/request_queue.hpp>
#include <gameplan/status.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

namespace gameplan::path {

/// A graph query for `GraphRequestQueue`.
struct GraphRequest {
    GraphNode start = kNoGraphNode;  ///< node index
    GraphNode goal = kNoGraphNode;   ///< node index
    GraphSearchOptions options{};    ///< heuristic, weight, per-request budget
    std::int32_t priority = 0;       ///< higher runs first
};

/// A hex-map query for `HexRequestQueue`.
struct HexRequest {
    GridPoint start;               ///< cell
    GridPoint goal;                ///< cell
    HexSearchOptions options{};    ///< heuristic, weight, per-request budget, islands precheck
    std::int32_t priority = 0;     ///< higher runs first
};

/// A finished graph, hex or navmesh request (navmesh: request_queue_navmesh.hpp).
template <class Path>
struct SearchRequestResult {
    Status status = Status::NoPath;     ///< Found, NoPath, BudgetExhausted (per-request budget), InvalidQuery
    search::BudgetLimit limit = search::BudgetLimit::None;  ///< the limit that ended it (None unless BudgetExhausted)
    Path path;                          ///< the path and its cost (empty when not found)
    std::uint64_t expanded = 0;         ///< expansions spent on this request, restarts included
    std::uint32_t restarts = 0;         ///< restarts because the map changed (hex) or the mesh was rebuilt while it ran
    std::uint64_t map_version = 0;      ///< the map version the result was computed on (hex, mesh; 0 for graphs)
    std::uint64_t submitted_frame = 0;  ///< value of `frame()` when submitted
    std::uint64_t completed_frame = 0;  ///< value of `frame()` in the update that finished it
};

namespace detail {
struct GraphQueueTraits {
    using Space = Graph;
    using Request = GraphRequest;
    using Path = GraphPath;
    using Result = SearchRequestResult<GraphPath>;
    using Finder = GraphPathfinder;
    static std::uint64_t version(const Graph&) noexcept { return 0; }  // immutable
    static constexpr bool kSearchesGoOn = false;  // (an immutable graph never changes)
    static std::vector<GraphNode>& buffer(GraphPath& path) noexcept { return path.nodes; }
    static bool still_valid(const Graph&, const GraphRequest&, const Result&) noexcept { return false; }
};
struct HexQueueTraits {
    using Space = GridMap;
    using Request = HexRequest;
    using Path = GridPath;
    using Result = SearchRequestResult<GridPath>;
    using Finder = HexPathfinder;
    static std::uint64_t version(const GridMap& map) noexcept { return map.version(); }
    /// Passability changed after version `since` (cost changes alone are absorbed, as on square grids).
    static bool structure_changed(const GridMap& map, std::uint64_t since) noexcept {
        return map.passability_changed_since(since);
    }
    /// Searches go on through cost changes, and through changes of passability when the queue allows it.
    static constexpr bool kSearchesGoOn = true;
    /// Every cell of a found path open and each next to the one before on the map as it is now.
    static bool still_legal(const GridMap& map, const HexRequest&, const Result& result) noexcept {
        return !result.path.cells.empty() && std::isfinite(hex_path_cost(map, result.path.cells));
    }
    static std::vector<GridPoint>& buffer(GridPath& path) noexcept { return path.cells; }
    /// After a change of passability a finished hex result is searched again (never kept).
    static bool still_valid(const GridMap&, const HexRequest&, const Result&) noexcept { return false; }
    /// Prices a found path on the map as it is now: the terrain cost of every cell entered.
    static void reprice(const GridMap& map, const HexRequest&, Result& result) noexcept {
        const double cost = hex_path_cost(map, result.path.cells);
        if (std::isfinite(cost)) result.path.cost = cost;
    }
};
}  // namespace detail

// The queues of graph or hex requests over one graph / map: `SearchRequestQueue` (request_queue.hpp, the
// grid queue's scheduler) over these traits, instantiated in request_queue_graph.cpp.
extern template class SearchRequestQueue<detail::GraphQueueTraits>;
extern template class SearchRequestQueue<detail::HexQueueTraits>;

/// Queue of graph searches (`GraphPathfinder`). Results: `GraphRequestResult`.
using GraphRequestQueue = SearchRequestQueue<detail::GraphQueueTraits>;
using GraphRequestResult = SearchRequestResult<GraphPath>;
/// Queue of hex-map searches (`HexPathfinder`). Results: `HexRequestResult`.
using HexRequestQueue = SearchRequestQueue<detail::HexQueueTraits>;
using HexRequestResult = SearchRequestResult<GridPath>;

}  // namespace gameplan::path
