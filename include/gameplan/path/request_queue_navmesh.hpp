#pragma once
/// @file request_queue_navmesh.hpp
/// Frame-budgeted request queues for any-angle navmesh searches: `NavmeshRequestQueue` (Polyanya on a
/// `Navmesh`, see navmesh.hpp) and `NavmeshHierarchyRequestQueue` (the preprocessed tier on a
/// `NavmeshHierarchy`, see navmesh_hierarchy.hpp).
///
/// Overview
/// --------
/// They are the grid `PathRequestQueue`'s scheduler (`SearchRequestQueue`, request_queue.hpp) over the
/// two navmesh pathfinders, and share its handles (`PathHandle`), states (`RequestState`), options
/// (`QueueOptions`) and update counters (`QueueUpdateStats`):
///
/// - `update(n)` expands at most n search nodes in total (Polyanya: search nodes popped; the hierarchy:
///   corners settled), counted exactly: each search runs in slices through its pathfinder's
///   `step(slice)`, and the slices sum to at most n. Work that expands nothing is not counted: a
///   request's `begin` (locating its points, the straight-segment test, and for the hierarchy the sweeps
///   of the corners visible from the start and the goal) and a request answered by the straight segment.
/// - Order: integer priority, higher first, then submission order; `QueueOptions::aging_frames` = N > 0
///   counts every N updates of waiting as one priority level. Up to `QueueOptions::lanes` searches run at
///   once (one pathfinder each); the budget is split evenly over them in a lane order that rotates every
///   update, and budget left over by searches that finish goes to the others and to new requests.
/// - Statuses are the pathfinder's: `Found`, `NoPath`, `InvalidQuery` (a point outside the free space,
///   or a hierarchy not built), `BudgetExhausted` (the request's own `options.budget`). A request's
///   result is exactly what a direct `find_path` with the same options returns: the same status, turning
///   points, cost and expansion count.
/// - Handles are salted (slot + generation): an old handle never reaches a newer request.
///
/// Changes. A built mesh is immutable, but the same `Navmesh` object may be built again from its changed
/// map between two updates: the queue watches `Navmesh::map_version()` (for the hierarchy queue, that of
/// the hierarchy's mesh, rebuilt together with the hierarchy between two updates). A running search whose
/// mesh was rebuilt is restarted from scratch (`SearchRequestResult::restarts` counts this); with
/// `QueueOptions::revalidate_done`, a finished result not yet taken goes back to the queue (same rank)
/// and is searched again on the new mesh. `SearchRequestResult::map_version` is the map version of the
/// mesh a result was found on. The mesh (and the hierarchy) must outlive the queue.
///
/// Memory: after `reserve`, and with `take` handing path buffers back and forth, submitting, updating and
/// taking allocate nothing (paths longer than reserved grow their buffer once).
///
/// Thread-safety: none; one queue is used by one thread. Different queues may run on different threads.

#include <gameplan/path/navmesh.hpp>
#include <gameplan/path/navmesh_hierarchy.hpp>
#include <gameplan/path/request_queue.hpp>
#include <gameplan/path/request_queue_graph.hpp>
#include <gameplan/status.hpp>

#include <cstdint>
#include <vector>

namespace gameplan::path {

/// An any-angle query for `NavmeshRequestQueue` or `NavmeshHierarchyRequestQueue`.
struct NavmeshRequest {
    NavPoint start;                   ///< a point of the free space (`cell_centre` for a cell)
    NavPoint goal;                    ///< a point of the free space
    NavmeshSearchOptions options{};   ///< per-request budget
    std::int32_t priority = 0;        ///< higher runs first
};

/// A finished navmesh request: status, turning points and Euclidean length, expansions, restarts.
using NavmeshRequestResult = SearchRequestResult<NavmeshPath>;

namespace detail {
// What the two navmesh queues share: requests, paths and results; a finished result is searched again
// after its mesh was rebuilt (never kept).
struct NavmeshQueueTraitsBase {
    using Request = NavmeshRequest;
    using Path = NavmeshPath;
    using Result = NavmeshRequestResult;
    static std::vector<NavPoint>& buffer(NavmeshPath& path) noexcept { return path.points; }
    template <class Space>
    static bool still_valid(const Space&, const NavmeshRequest&, const Result&) noexcept { return false; }
    // A mesh has no costs, and a search never goes on through a rebuild (it holds positions in the old mesh).
    static constexpr bool kSearchesGoOn = false;
};
struct NavmeshQueueTraits : NavmeshQueueTraitsBase {
    using Space = Navmesh;
    using Finder = NavmeshPathfinder;
    static std::uint64_t version(const Navmesh& mesh) noexcept { return mesh.map_version(); }
};
struct NavmeshHierarchyQueueTraits : NavmeshQueueTraitsBase {
    using Space = NavmeshHierarchy;
    using Finder = NavmeshHierarchyPathfinder;
    static std::uint64_t version(const NavmeshHierarchy& hierarchy) noexcept {
        return hierarchy.mesh() != nullptr ? hierarchy.mesh()->map_version() : 0;
    }
};
}  // namespace detail

// `SearchRequestQueue` (request_queue.hpp, the grid queue's scheduler) over these traits, instantiated in
// request_queue_navmesh.cpp.
extern template class SearchRequestQueue<detail::NavmeshQueueTraits>;
extern template class SearchRequestQueue<detail::NavmeshHierarchyQueueTraits>;

/// Queue of Polyanya searches (`NavmeshPathfinder`) over one mesh. Results: `NavmeshRequestResult`.
using NavmeshRequestQueue = SearchRequestQueue<detail::NavmeshQueueTraits>;
/// Queue of hierarchy searches (`NavmeshHierarchyPathfinder`) over one built hierarchy. Results:
/// `NavmeshRequestResult`.
using NavmeshHierarchyRequestQueue = SearchRequestQueue<detail::NavmeshHierarchyQueueTraits>;

}  // namespace gameplan::path
