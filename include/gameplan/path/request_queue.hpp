#pragma once
/// @file request_queue.hpp
/// A frame-budgeted queue of path requests (pathfinding spread over several game frames).
///
/// Overview
/// --------
/// A game submits path requests whenever units need them and calls `update(max_expansions)` once per
/// frame; the queue advances the searches by at most that many cell expansions in total, so pathfinding
/// never stalls a frame, and hands finished paths back by handle.
///
/// Budget. `update(n)` expands at most n cells, counted exactly: each search runs in slices through
/// `GridPathfinder::step(slice)`, which never expands more than its slice, and the slices of one update
/// sum to at most n. (Work that expands nothing is not counted: starting a search, a request answered by
/// the islands precheck, a start equal to its goal, re-validating a finished path.)
///
/// Order (deterministic: no clocks, no threads, no addresses). Each request has an integer priority,
/// higher first; equal priorities run in submission order. With `QueueOptions::aging_frames` = N > 0,
/// every N updates a request has waited count as one priority level: a request submitted at frame s with
/// priority p ranks by p - s / N, so a steady stream of urgent requests cannot starve an old one. Up to
/// `QueueOptions::lanes` searches run at once, each in its own lane (its own `GridPathfinder`, about 20
/// bytes per map cell); the budget of an update is shared evenly between the running searches, in a lane
/// order that rotates every update, and budget left over by searches that finish is passed on to the
/// others and to newly started requests. One lane (the default) is a strict first-come, first-served
/// queue per priority; more lanes keep one long search from holding up the short ones behind it.
///
/// Handles are salted: slot index + generation. Cancelling or taking a result frees the slot and bumps
/// its generation, so an old handle can never reach a newer request (its state is `Unknown`).
///
/// Map changes. The queue watches `GridMap::version()`.
/// - A change of passability (`set_passable`, `reset`): a running search is restarted from scratch,
///   which re-validates it (a now-blocked start or goal gives `InvalidQuery`; the islands precheck may
///   answer `NoPath` at once); `PathResult::restarts` counts this. A finished result not yet taken is
///   re-validated at the next update: a found path is checked step by step against the new map (legal
///   steps, same cost; legality only for a request with `options.penalties` or cost layers, which change
///   freely) and kept if it holds (it may no longer be the cheapest), otherwise the request goes back to
///   the queue with its original rank; a request that found no path is queued again, since a path may
///   exist now.
/// - Terrain costs alone (`set_cost`; `GridMap::passability_changed_at()` tells them apart): a running
///   search goes on, reading the new costs from then on, as it reads cost layers. A game that paints
///   costs every frame (danger, traffic) would otherwise restart every search longer than one update's
///   budget forever. The path is legal; its `cost` is priced on the map it finished on, but it may not be
///   the cheapest there. A finished result not yet taken is re-checked as above (kept while legal at the
///   same cost, else searched again), except that a `NoPath` (or `InvalidQuery`) stands: costs open no
///   way. `QueueOptions::restart_on_cost_change` restores the strict behaviour (restart running searches
///   and re-queue every result that is not kept, as after a change of passability): then every result is
///   the optimum of one map version, but a search longer than the interval between cost changes never
///   finishes.
/// - Cells that open and close every few updates (gates, building, digging) restart a long search again
///   and again. With `QueueOptions::restart_on_passability_change` off, a running search goes on through
///   such changes too (reading the new passability from then on) and, when it ends, runs again only if it
///   found no path or its path crosses a cell that is no longer open (or breaks the diagonal rule); a
///   path it returns is legal on the map it finished on, but may miss a shorter way that opened meanwhile.
/// `PathResult::map_version` says which map version a result was checked against (and priced on).
///
/// Per-query costs. A request's options may carry areas, an area filter, penalties and weighted cost
/// layers (area_filter.hpp); its searches honour them exactly as a direct `GridPathfinder` query with
/// the same options (same cost, same path, same expansions). The objects and the `layers` span are not
/// copied: they must outlive the request. Layers may change between updates (a running search reads a
/// mix of old and new values; its path stays legal); re-validation after a map change checks a result
/// with penalties or layers for legality only, one with areas and a filter also for its cost.
///
/// Memory: after `reserve` (or once the largest number of simultaneous requests has been seen), and with
/// `take` handing path buffers back and forth, submitting, updating and taking allocate nothing.
///
/// Thread-safety: none; one queue is used by one thread (the game loop). Searches in different queues
/// may run on different threads.

#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/grid_search.hpp>
#include <gameplan/restore.hpp>
#include <gameplan/status.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace gameplan::path {

/// Salted handle of a path request: slot index + generation. Default-constructed = invalid.
struct PathHandle {
    std::uint32_t index = UINT32_MAX;  ///< slot in the queue
    std::uint32_t generation = 0;      ///< slot generation when issued (never 0 for a real handle)
    /// True for a handle issued by a queue (it may still be stale).
    [[nodiscard]] constexpr bool valid() const noexcept { return generation != 0; }
    friend constexpr bool operator==(const PathHandle&, const PathHandle&) noexcept = default;
};

/// Where a request stands.
enum class RequestState : std::uint8_t {
    Unknown,  ///< invalid or stale handle: never issued, cancelled, or its result was taken
    Pending,  ///< waiting for a lane
    Running,  ///< being searched (spread over updates)
    Done,     ///< finished; the result waits for `take`
};

/// One path request.
struct PathRequest {
    GridPoint start;                 ///< where the unit is
    GridPoint goal;                  ///< where it wants to go
    GridSearchOptions options{};     ///< rules, heuristic, per-request budget, islands precheck
    std::int32_t priority = 0;       ///< higher runs first
};

/// Most lanes a queue takes (`QueueOptions::lanes`). Each lane holds a pathfinder sized for the whole
/// space (about 20 bytes per map cell), allocated when the queue is made.
inline constexpr std::uint32_t kMaxQueueLanes = 1024;

/// Queue configuration.
struct QueueOptions {
    /// Searches in progress at once, in [1, kMaxQueueLanes] (0 is treated as 1; more is refused with
    /// std::invalid_argument by the queue's constructor).
    std::uint32_t lanes = 1;
    std::uint32_t aging_frames = 0;   ///< N updates of waiting = +1 priority; 0 = strict priorities
    bool revalidate_done = true;      ///< re-check results not yet taken when the map changes
    /// Restart running searches and re-check finished results after cost changes as after changes of
    /// passability (see "Map changes" above). Off: searches go on through cost changes.
    bool restart_on_cost_change = false;
    /// Restart a running search when the map's passability changes (the default). Off, for maps whose
    /// cells open and close every few updates (gates, building, digging), where restarts could keep a
    /// long search from ever finishing: the search goes on, reading the new passability from then on, and
    /// when it ends it runs again only if its path crosses a cell that is no longer open (or breaks the
    /// diagonal rule), or if it found no path; otherwise its path is legal on the map it finished on but
    /// may miss a shorter way that opened meanwhile. Square and hex grid queues only: a navigation mesh
    /// rebuilt under a search always restarts it. Ignored when `restart_on_cost_change` is on.
    bool restart_on_passability_change = true;
};

/// A finished request.
struct PathResult {
    Status status = Status::NoPath;  ///< Found, NoPath, BudgetExhausted (per-request budget), InvalidQuery
    search::BudgetLimit limit = search::BudgetLimit::None;  ///< the limit that ended it (None unless BudgetExhausted)
    GridPath path;                   ///< cells start..goal and cost (empty / +infinity when not found)
    std::uint64_t expanded = 0;      ///< cell expansions spent on this request, restarts included
    std::uint32_t restarts = 0;      ///< restarts because the map changed while it ran (see "Map changes")
    std::uint64_t map_version = 0;   ///< the map version the result was computed or checked against
    std::uint64_t submitted_frame = 0;  ///< value of `frame()` when submitted
    std::uint64_t completed_frame = 0;  ///< value of `frame()` in the update that finished it
};

/// What one `update` did.
struct QueueUpdateStats {
    std::uint64_t expanded = 0;     ///< cell expansions in this update (<= its budget)
    std::uint32_t started = 0;      ///< requests that got a lane
    std::uint32_t completed = 0;    ///< requests finished (see `completed()`)
    std::uint32_t restarted = 0;    ///< running searches restarted after a map change
    std::uint32_t revalidated = 0;  ///< finished results checked after a map change
    std::uint32_t requeued = 0;     ///< finished results sent back to the queue by that check
};

/// A queue's running state (`PathRequestQueue::save_state`), for saving a game: every live request with
/// its options, result so far and running search, the order of the pending requests, the free slots
/// and the counters. The pointers of a request's options (islands, dead ends, penalties, areas, filter,
/// cost layers) are saved as flags and bound again on restore (`QueueBindings`); a search deadline is
/// not saved.
struct PathRequestQueueState {
    struct Request {
        std::uint32_t slot = 0;
        RequestState state = RequestState::Pending;  ///< Pending, Running or Done
        PathRequest request;           ///< options without its pointers (see the flags)
        bool uses_islands = false;     ///< options.islands was set
        bool uses_dead_ends = false;   ///< options.dead_ends was set
        bool uses_penalties = false;   ///< options.penalties was set
        bool uses_areas = false;       ///< options.areas was set
        bool uses_filter = false;      ///< options.filter was set
        bool uses_layers = false;      ///< options.layers was not empty
        PathResult result;             ///< the result so far (final when Done)
        std::uint64_t sequence = 0;
        std::int64_t rank = 0;
        std::uint32_t lane = UINT32_MAX;  ///< its lane while Running
        GridSearchState search;        ///< its search while Running
    };
    struct PendingEntry {
        std::int64_t rank = 0;
        std::uint64_t sequence = 0;
        std::uint32_t slot = 0;
        std::uint32_t generation = 0;
    };
    std::uint32_t lanes = 1;                   ///< lane count (must match the queue restored into)
    std::vector<std::uint32_t> generations;    ///< per slot
    std::vector<Request> requests;             ///< live slots, in slot order
    std::vector<PendingEntry> pending;         ///< the pending heap as stored (stale entries included)
    std::vector<std::uint32_t> free_slots;     ///< the free list, head first
    std::vector<PathHandle> completed;         ///< completed() of the last update
    std::uint64_t sequence = 0;
    std::uint64_t frame = 0;
    std::uint64_t seen_version = 0;
    std::uint32_t lane_cursor = 0;
};

/// What a restored queue binds saved requests to (requests that used islands, dead ends, penalties,
/// areas, an area filter or cost layers). The pointed-to objects must outlive the queue's use of them.
struct QueueBindings {
    const Islands* islands = nullptr;
    const DeadEnds* dead_ends = nullptr;
    const PenaltyLayer* penalties = nullptr;
    const AreaMap* areas = nullptr;
    const AreaFilter* filter = nullptr;
    std::span<const CostLayer> layers{};
};

/// The scheduler shared by the frame-budgeted queues: `PathRequestQueue` (grid searches, below) and
/// `GraphRequestQueue` / `HexRequestQueue` (request_queue_graph.hpp). `Traits` names the searched space
/// (`Space`), the request, path and result types and the pathfinder, and says how to read the space's
/// version, how to reach a path's buffer and whether a finished result still holds after the space
/// changed (`still_valid`). Spaces whose searches may go on through some changes (`kSearchesGoOn`: grid
/// maps, square or hex) also say which changes a search cannot absorb (`structure_changed`), whether a
/// path is still legal (`still_legal`) and how to price it on the space as it is now (`reprice`); under
/// the others every change restarts a running search. See the file overview for the budget, the order and the handles.
template <class Traits>
class SearchRequestQueue {
public:
    using Space = typename Traits::Space;
    using Request = typename Traits::Request;
    using Path = typename Traits::Path;
    using Result = typename Traits::Result;

    /// A queue over `space` (a `GridMap`, a `Graph` or a hex `GridMap`), which must outlive it. Sizes one
    /// pathfinder per lane for it. Throws std::invalid_argument for more than kMaxQueueLanes lanes; may
    /// throw std::bad_alloc.
    explicit SearchRequestQueue(const Space& space, const QueueOptions& options = {});
    SearchRequestQueue(const SearchRequestQueue&) = delete;
    SearchRequestQueue& operator=(const SearchRequestQueue&) = delete;

    /// Pre-sizes the queue for `requests` simultaneous requests, each result with room for paths of
    /// `path_length` cells or nodes, so that submit, update and take allocate nothing (paths longer than
    /// that grow their buffer once). May throw std::bad_alloc.
    void reserve(std::size_t requests, std::size_t path_length = 0);

    /// Queues a request and returns its handle. O(log pending). Allocates only beyond the reserved
    /// number of simultaneous requests.
    PathHandle submit(const Request& request);

    /// Cancels a pending or running request, or discards a finished result. Frees the slot (the handle
    /// becomes stale). Returns false for an invalid or stale handle. O(1).
    bool cancel(PathHandle handle) noexcept;

    /// State of a request. O(1).
    [[nodiscard]] RequestState state(PathHandle handle) const noexcept;
    /// Expansions spent on a request so far (restarts included): its progress while it runs, the final
    /// count when done, 0 for a pending request or a stale handle. O(1).
    [[nodiscard]] std::uint64_t expanded(PathHandle handle) const noexcept;
    /// The result of a finished request, or nullptr unless state(handle) == Done. The pointer stays valid
    /// until the next call of a non-const member.
    [[nodiscard]] const Result* result(PathHandle handle) const noexcept;
    /// Moves the result of a finished request into `out` and frees the slot. `out`'s old path buffer is
    /// kept by the queue for reuse, so a caller that keeps taking into the same object allocates nothing.
    /// Returns false (and leaves `out` alone) unless state(handle) == Done.
    bool take(PathHandle handle, Result& out) noexcept;

    /// Advances the searches by at most `max_expansions` expansions in total (see the overview),
    /// starting queued requests as lanes free up. O(max_expansions * log(open)) plus O(log pending) per
    /// request started.
    QueueUpdateStats update(std::uint64_t max_expansions);

    /// Changes which map changes restart running searches (`QueueOptions::restart_on_cost_change` and
    /// `restart_on_passability_change`); in force from the next update. O(1).
    void set_restarts(bool on_cost_change, bool on_passability_change) noexcept {
        m_options.restart_on_cost_change = on_cost_change;
        m_options.restart_on_passability_change = on_passability_change;
    }

    /// Handles of the requests finished by the last update, in the order they finished.
    [[nodiscard]] std::span<const PathHandle> completed() const noexcept { return m_completed; }
    /// Number of updates so far.
    [[nodiscard]] std::uint64_t frame() const noexcept { return m_frame; }
    /// Requests waiting for a lane.
    [[nodiscard]] std::size_t pending_count() const noexcept { return m_pending_count; }
    /// Requests being searched.
    [[nodiscard]] std::size_t running_count() const noexcept;
    /// Requests submitted and not yet cancelled or taken (pending + running + done).
    [[nodiscard]] std::size_t size() const noexcept { return m_live; }

protected:
    struct Slot {
        Request request;
        Result result;
        std::uint64_t sequence = 0;  // submission order (tie-break), kept across re-queues
        std::int64_t rank = 0;       // aging-adjusted priority key, larger first
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
    /// Heap order of `m_pending`: std::push_heap keeps the *largest* entry on top, so higher rank first,
    /// then earlier submission.
    struct PendingOrder {
        bool operator()(const PendingEntry& a, const PendingEntry& b) const noexcept {
            return a.rank < b.rank || (a.rank == b.rank && a.sequence > b.sequence);
        }
    };
    struct Lane {
        typename Traits::Finder finder;
        std::uint32_t slot = UINT32_MAX;  // request being searched, UINT32_MAX when free
        std::uint64_t version = 0;        // the space's version when its search began
    };

    [[nodiscard]] const Slot* live_slot(PathHandle handle) const noexcept;
    [[nodiscard]] std::uint64_t version() const noexcept;
    /// The space changed since version `since` in a way a search begun then must restart for.
    [[nodiscard]] bool must_restart(std::uint64_t since) const noexcept;
    /// A finished search that went on through a change of passability and must run again: a `NoPath`,
    /// or a path no longer legal. Writes the path into the slot's result to check it.
    bool needs_fresh_search(Lane& lane, Status status);
    /// Begins the lane's request again (counted as a restart); false when it finished at once.
    bool restart(Lane& lane, QueueUpdateStats& stats);
    void push_pending(std::uint32_t slot);
    bool pop_pending(std::uint32_t& slot) noexcept;
    void release(std::uint32_t slot) noexcept;
    Status begin(Lane& lane, const Slot& slot);
    void start(Lane& lane, std::uint32_t slot, QueueUpdateStats& stats);
    void complete(Lane& lane, Status status, QueueUpdateStats& stats);
    void revalidate_done(QueueUpdateStats& stats);

    const Space* m_space;
    QueueOptions m_options;
    std::vector<Slot> m_slots;
    std::vector<Lane> m_lanes;
    std::vector<PendingEntry> m_pending;  // binary heap (PendingOrder), stale entries skipped
    std::vector<PathHandle> m_completed;
    std::uint32_t m_free = UINT32_MAX;    // free-slot list through Slot::next_free
    std::size_t m_pending_count = 0;
    std::size_t m_live = 0;
    std::uint64_t m_sequence = 0;
    std::uint64_t m_frame = 0;
    std::uint64_t m_seen_version = 0;
    std::uint32_t m_lane_cursor = 0;
};

namespace detail {
struct GridQueueTraits {
    using Space = GridMap;
    using Request = PathRequest;
    using Path = GridPath;
    using Result = PathResult;
    using Finder = GridPathfinder;
    static std::uint64_t version(const GridMap& map) noexcept { return map.version(); }
    /// Passability changed after version `since`: a search begun then restarts (cost changes alone do
    /// not, unless `QueueOptions::restart_on_cost_change`).
    static bool structure_changed(const GridMap& map, std::uint64_t since) noexcept {
        return map.passability_changed_since(since);
    }
    /// Searches go on through cost changes, and through changes of passability when the queue allows it.
    static constexpr bool kSearchesGoOn = true;
    /// A found path whose every step is legal on the map as it is now (the request's own rules).
    static bool still_legal(const GridMap& map, const PathRequest& request, const PathResult& result) noexcept;
    static std::vector<GridPoint>& buffer(GridPath& path) noexcept { return path.cells; }
    /// A found path still legal on the changed map, at the same cost unless the request's costs are
    /// advice that may change (penalties, cost layers): kept instead of searched again.
    static bool still_valid(const GridMap& map, const PathRequest& request, const PathResult& result) noexcept;
    /// Prices a found path on the map as it is now (after cost changes).
    static void reprice(const GridMap& map, const PathRequest& request, PathResult& result) noexcept;
};
}  // namespace detail

extern template class SearchRequestQueue<detail::GridQueueTraits>;

/// Frame-budgeted path request queue over one map: the shared scheduler over `GridPathfinder`, plus
/// saving and restoring its state. See the file overview.
class PathRequestQueue : public SearchRequestQueue<detail::GridQueueTraits> {
public:
    /// A queue for `map`, which must outlive it. Allocates one pathfinder per lane, sized for the map.
    explicit PathRequestQueue(const GridMap& map, const QueueOptions& options = {})
        : SearchRequestQueue(map, options) {}

    /// The map.
    [[nodiscard]] const GridMap& map() const noexcept { return *m_space; }

    /// Copies the queue's state into `out` (for a saved game). O(slots + cells reached by running searches).
    void save_state(PathRequestQueueState& out) const;
    /// Replaces the queue's state by a saved one (on the same map, with the same lane count); requests
    /// that used islands, dead ends or penalties get them from `bindings`. Updates then continue exactly
    /// as the saved queue would have. On error the queue is left empty (as constructed) and the error
    /// names the field (`requests[2].search`, `pending[0].slot`, ...).
    RestoreResult restore_state(const PathRequestQueueState& state, const QueueBindings& bindings = {});
};

}  // namespace gameplan::path
