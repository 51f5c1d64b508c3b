#pragma once
/// @file request_queue_graph.hpp
/// Frame-budgeted request queues for graph and hex-map searches: `GraphRequestQueue` (A* / Dijkstra on
/// a `Graph`, see graph_search.hpp) and `HexRequestQueue` (A* / Dijkstra on a hex map, see hex_grid.hpp).
///
/// Overview
/// --------
/// They work like the grid `PathRequestQueue` (request_queue.hpp) and share its handles (`PathHandle`),
/// states (`RequestState`), options (`QueueOptions`) and update counters (`QueueUpdateStats`):
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
/// the queue watches `GridMap::version()`. A running search whose map changed is restarted from scratch
/// (`SearchRequestResult::restarts` counts this). With `QueueOptions::revalidate_done`, a finished
/// result not yet taken goes back to the queue (same rank) and is searched again on the new map.
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

#include <cstdint>
#include <span>
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

/// A finished graph or hex request.
template <class Path>
struct SearchRequestResult {
    Status status = Status::NoPath;     ///< Found, NoPath, BudgetExhausted (per-request budget), InvalidQuery
    Path path;                          ///< the path and its cost (empty when not found)
    std::uint64_t expanded = 0;         ///< expansions spent on this request, restarts included
    std::uint32_t restarts = 0;         ///< restarts because the map changed while it ran (hex only)
    std::uint64_t map_version = 0;      ///< the map version the result was computed on (hex; 0 for graphs)
    std::uint64_t submitted_frame = 0;  ///< value of `frame()` when submitted
    std::uint64_t completed_frame = 0;  ///< value of `frame()` in the update that finished it
};

namespace detail {
struct GraphQueueTraits {
    using Space = Graph;
    using Request = GraphRequest;
    using Path = GraphPath;
    using Finder = GraphPathfinder;
};
struct HexQueueTraits {
    using Space = GridMap;
    using Request = HexRequest;
    using Path = GridPath;
    using Finder = HexPathfinder;
};
}  // namespace detail

/// Frame-budgeted queue of graph or hex requests over one graph / map. See the file overview.
template <class Traits>
class SearchRequestQueue {
public:
    using Space = typename Traits::Space;
    using Request = typename Traits::Request;
    using Path = typename Traits::Path;
    using Result = SearchRequestResult<Path>;

    /// A queue over `space` (a `Graph` or a hex `GridMap`), which must outlive it. Sizes one pathfinder
    /// per lane for it. May throw std::bad_alloc.
    explicit SearchRequestQueue(const Space& space, const QueueOptions& options = {});
    SearchRequestQueue(const SearchRequestQueue&) = delete;
    SearchRequestQueue& operator=(const SearchRequestQueue&) = delete;

    /// Pre-sizes for `requests` simultaneous requests with room for paths of `path_length` nodes or cells.
    void reserve(std::size_t requests, std::size_t path_length = 0);
    /// Queues a request and returns its handle. O(log pending).
    PathHandle submit(const Request& request);
    /// Cancels a pending or running request, or discards a finished result. False for a stale handle.
    bool cancel(PathHandle handle) noexcept;
    /// State of a request. O(1).
    [[nodiscard]] RequestState state(PathHandle handle) const noexcept;
    /// Expansions spent on a request so far (0 for a pending request or a stale handle).
    [[nodiscard]] std::uint64_t expanded(PathHandle handle) const noexcept;
    /// The result of a finished request, or nullptr unless state(handle) == Done (valid until the next
    /// non-const call).
    [[nodiscard]] const Result* result(PathHandle handle) const noexcept;
    /// Moves a finished result into `out` (its old path buffer goes back to the queue) and frees the slot.
    bool take(PathHandle handle, Result& out) noexcept;
    /// Advances the searches by at most `max_expansions` expansions in total (see the overview).
    QueueUpdateStats update(std::uint64_t max_expansions);

    /// Handles of the requests finished by the last update, in the order they finished.
    [[nodiscard]] std::span<const PathHandle> completed() const noexcept { return m_completed; }
    /// Number of updates so far.
    [[nodiscard]] std::uint64_t frame() const noexcept { return m_frame; }
    /// Requests waiting for a lane.
    [[nodiscard]] std::size_t pending_count() const noexcept { return m_pending_count; }
    /// Requests being searched.
    [[nodiscard]] std::size_t running_count() const noexcept;
    /// Requests submitted and not yet cancelled or taken.
    [[nodiscard]] std::size_t size() const noexcept { return m_live; }

private:
    struct Slot {
        Request request;
        Result result;
        std::uint64_t sequence = 0;
        std::int64_t rank = 0;
        std::uint32_t generation = 1;
        std::uint32_t lane = UINT32_MAX;
        RequestState state = RequestState::Unknown;
        std::uint32_t next_free = UINT32_MAX;
    };
    struct PendingEntry {
        std::int64_t rank;
        std::uint64_t sequence;
        std::uint32_t slot;
        std::uint32_t generation;
    };
    struct Lane {
        typename Traits::Finder finder;
        std::uint32_t slot = UINT32_MAX;
        std::uint64_t version = 0;  // map version the search started on
    };

    [[nodiscard]] const Slot* live_slot(PathHandle handle) const noexcept;
    [[nodiscard]] std::uint64_t version() const noexcept;
    void push_pending(std::uint32_t slot);
    bool pop_pending(std::uint32_t& slot) noexcept;
    void release(std::uint32_t slot) noexcept;
    Status begin(Lane& lane, const Slot& slot);
    void start(Lane& lane, std::uint32_t slot, QueueUpdateStats& stats);
    void complete(Lane& lane, Status status, QueueUpdateStats& stats);
    void requeue_done(QueueUpdateStats& stats);

    const Space* m_space;
    QueueOptions m_options;
    std::vector<Slot> m_slots;
    std::vector<Lane> m_lanes;
    std::vector<PendingEntry> m_pending;
    std::vector<PathHandle> m_completed;
    std::uint32_t m_free = UINT32_MAX;
    std::size_t m_pending_count = 0;
    std::size_t m_live = 0;
    std::uint64_t m_sequence = 0;
    std::uint64_t m_frame = 0;
    std::uint64_t m_seen_version = 0;
    std::uint32_t m_lane_cursor = 0;
};

extern template class SearchRequestQueue<detail::GraphQueueTraits>;
extern template class SearchRequestQueue<detail::HexQueueTraits>;

/// Queue of graph searches (`GraphPathfinder`). Results: `GraphRequestResult`.
using GraphRequestQueue = SearchRequestQueue<detail::GraphQueueTraits>;
using GraphRequestResult = SearchRequestResult<GraphPath>;
/// Queue of hex-map searches (`HexPathfinder`). Results: `HexRequestResult`.
using HexRequestQueue = SearchRequestQueue<detail::HexQueueTraits>;
using HexRequestResult = SearchRequestResult<GridPath>;

}  // namespace gameplan::path
