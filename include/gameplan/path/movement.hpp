#pragma once
/// @file movement.hpp
/// Units on the move: destinations, frame-budgeted path requests, route following, claimed-path
/// penalties and collision-free crowd steps — the glue every game writes around a pathfinder.
///
/// Overview
/// --------
/// A `MovementSystem` owns a set of *units* on one `GridMap`, each standing on one cell. The game gives
/// a unit a `Destination` (`move_to`) and calls `update()` once per tick; the system
///
/// 1. re-checks the remaining route of every moving unit when the map's passability changed and asks
///    for a new path when a step of it became illegal (a door closed, a tree grew); terrain-cost changes
///    leave routes as they are, and path searches in progress go on through them (request_queue.hpp,
///    "Map changes"), so costs painted every tick do not hold paths up;
/// 2. writes the *claimed-path penalties*: each moving unit with a route adds a penalty to the next
///    `claim_cells` cells of its route, highest on the next cell and decaying linearly with the distance
///    along the route; a unit that stands still for work (`set_anchored`) adds `still_penalty` on its
///    cell. Other units' path searches read this `PenaltyLayer` (grid_search.hpp: step cost = length x
///    terrain + `claim_weight` x penalty), so they prefer free lanes — but a penalty is never a wall: a
///    column still files through a door. A unit whose request is in flight claims nothing, so its own
///    claims never steer its own search;
/// 3. advances the path searches by at most `path_budget` cell expansions (one `PathRequestQueue`) and
///    turns every path found into a route of single legal steps (smoothed by `smooth_path` when
///    `smooth` is set, each straight stretch walked cell by cell);
/// 4. moves every unit by at most one cell, all at once and without collisions: no two units ever end a
///    tick on the same cell and no two units swap cells in one tick (see "Crowd steps");
/// 5. updates statuses: `Arrived` when a unit stands within the destination's radius, `Failed` with a
///    reason when no path exists or it made no progress for `give_up_ticks`.
///
/// Crowd steps. Each tick the next cells are chosen by priority inheritance (PIBT, Okumura et al. 2019,
/// in its lifelong form): units with a route are taken in order of priority (ticks since they last made
/// progress along their route, then a fixed order), each picks the best legal neighbour (or staying) by
/// its route guidance — the next route cell first, then cells ranked by an estimate of the remaining
/// walk — and a unit standing where a higher-priority unit wants to go inherits that priority and moves
/// aside first (to a cell nobody claimed when it can), recursively; if it cannot, the asking unit tries
/// its next choice. Idle, arrived and waiting units are pushed aside like that; anchored units never
/// move. Every unit in a chain of followers moves in the same tick (a column walks together). A unit that
/// was pushed off its route rejoins it when it still stands next to it, else asks for a new path.
///
/// Counters (`MovementStats`): a *wait* is a tick in which a unit with a route did not move because other
/// units held the cells it wanted; a *detour* is a step to a cell other than its route's next one, made
/// because another unit held that cell, or a new path asked for after `detour_after` waits in a row.
///
/// Determinism: everything depends only on the map, the calls made and their order (no clocks, no
/// threads, no addresses). Unit ids are dense indices, reused after `remove_unit`.
///
/// Memory: after `reserve(units, path_cells)` (or once the largest number of units and the longest route
/// have been seen), `update`, `move_to` and `stop` allocate nothing (routes longer than `path_cells`
/// grow once). About 20 bytes per map cell per search lane, 5 bytes per cell for the penalty layer and
/// 4 for the occupancy grid.
///
/// Thread-safety: none; one system is driven by one thread (the game loop). Its const members may be read
/// by other threads while nobody calls a non-const member (e.g. planning workers reading positions).

#include <gameplan/path/crowd.hpp>
#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/grid_rules.hpp>
#include <gameplan/path/penalty_layer.hpp>
#include <gameplan/path/request_queue.hpp>

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

namespace gameplan::path {

/// Dense id of a unit (its index in the system); `kNoUnit` for none.
using UnitId = std::uint32_t;
/// "No unit".
inline constexpr UnitId kNoUnit = UINT32_MAX;

/// Where a unit stands in its walk.
enum class UnitStatus : std::uint8_t {
    Idle,     ///< no destination (new, stopped, or removed)
    Planning, ///< its path request is in flight; it stands still meanwhile
    Moving,   ///< following its route (it stepped this tick, or it could not for other reasons than units)
    Waiting,  ///< it has a route but other units held every cell it wanted this tick
    Arrived,  ///< it stands within the destination's radius (kept until the next `move_to` or `stop`)
    Failed,   ///< the walk failed; see `failure()`
};
/// "idle", "planning", "moving", "waiting", "arrived", "failed".
[[nodiscard]] std::string_view to_string(UnitStatus status) noexcept;

/// Why a walk failed.
enum class MoveFailure : std::uint8_t {
    None,         ///< it did not fail
    NoPath,       ///< no path to the destination on the map as it is
    InvalidGoal,  ///< the destination's cell is off the map or blocked
    Budget,       ///< the search ran out of its per-request budget (`MovementOptions::search_budget`)
    Stuck,        ///< no progress along the route for `give_up_ticks` ticks
};
/// "none", "no_path", "invalid_goal", "budget", "stuck".
[[nodiscard]] std::string_view to_string(MoveFailure failure) noexcept;

/// Where a unit should go: it arrives when it stands within Chebyshev distance `radius` of `centre`;
/// its path leads to `cell`. Usually `cell == centre`; a different cell lets a unit walk next to
/// something that blocks its own cell (a tree, a counter).
struct Destination {
    GridPoint cell;            ///< target of the path search (must be passable)
    GridPoint centre;          ///< centre of the arrival region
    std::int32_t radius = 0;   ///< Chebyshev radius of the arrival region (>= 0)
    /// Arrive on `cell` itself, or within `radius` of it.
    [[nodiscard]] static constexpr Destination at(GridPoint cell, std::int32_t radius = 0) noexcept {
        return Destination{cell, cell, radius};
    }
    friend constexpr bool operator==(const Destination&, const Destination&) noexcept = default;
};

/// Who picks the units' next cells each tick (both: priority inheritance, no shared cells, no swaps).
enum class StepResolver : std::uint8_t {
    /// `CrowdStepper` (crowd.hpp): ranks cells by the crow-flies distance to a window of route cells
    /// ahead; also forbids two diagonal moves crossing in a 2 x 2 block.
    Crowd,
    /// The movement layer's own PIBT: ranks cells by the steps left along the route and treats only
    /// cells one *legal* step beside the route as near it (never lured into a pocket behind a wall
    /// corner), ranks every cell of the arrival region as arrived, and sends pushed units preferably to
    /// cells nobody claimed.
    Builtin,
};

/// Configuration of a movement system.
struct MovementOptions {
    Movement movement = Movement::Eight;                     ///< 4- or 8-connected steps
    DiagonalRule diagonal = DiagonalRule::NoCornerCutting;  ///< diagonal rule for Movement::Eight
    double path_weight = 1.0;          ///< weighted A* for path requests (>= 1; larger = faster, longer paths)
    bool smooth = true;                ///< smooth paths (smoothing.hpp) before walking them
    std::uint64_t path_budget = 60000; ///< path-search cell expansions per `update` (the queue's frame budget)
    std::uint32_t lanes = 4;           ///< searches the queue runs at once, at most kMaxQueueLanes
    /// `QueueOptions::restart_on_passability_change` of the system's queue: off for maps whose cells open
    /// and close every few ticks, so that path searches spanning several ticks still finish.
    bool restart_on_passability_change = true;
    std::uint64_t search_budget = 0;   ///< expansions one request may spend in total (0 = unlimited)
    std::uint32_t claim_cells = 8;     ///< cells of its route ahead of it that a moving unit claims (0 = none)
    float claim_penalty = 2.0f;        ///< penalty on a claimant's next cell; decays linearly to 0 along the claim
    float still_penalty = 4.0f;        ///< penalty on the cell of an anchored unit
    double claim_weight = 1.0;         ///< weight of the penalties in path searches (0 = ignore them)
    std::uint32_t detour_after = 8;    ///< waits in a row before a unit asks for a new path (0 = never)
    std::uint32_t give_up_ticks = 0;   ///< ticks without progress before a walk fails with Stuck (0 = never)
    std::uint32_t still_limit = 100;   ///< ticks standing still with a destination that count as a jam (stats)
    StepResolver resolver = StepResolver::Builtin;  ///< who resolves the crowd's steps
    /// Extra weighted cost layers every path request carries (area_filter.hpp), beside the claimed-path
    /// penalties: an influence map of danger, say, which units' paths then avoid. Read live (changing a
    /// layer affects the next searches; routes already walked are not re-planned for it). Smoothing
    /// takes a shortcut only where it costs no more under these layers (smooth_path with costs; the
    /// claimed-path penalties change every tick and are not consulted). Not owned: the span and the
    /// layers must outlive the system (and match its map).
    std::span<const CostLayer> layers{};
    /// Optional islands of the map (islands.hpp) under the units' movement rule or a more permissive one:
    /// a destination on another island than the unit fails with `MoveFailure::NoPath` at once, without a
    /// search (otherwise its request floods the unit's whole island first, out of the frame budget all
    /// units share). Keep them current as the map's cells open and close (`Islands::set_passable`);
    /// stale islands are ignored, never wrong. Not owned; must outlive the system.
    const Islands* islands = nullptr;
};

/// Counters since the system was made (all deterministic).
struct MovementStats {
    std::uint64_t ticks = 0;             ///< updates
    std::uint64_t steps = 0;             ///< cells entered by units
    std::uint64_t waits = 0;             ///< ticks a unit with a route stood still because of other units
    std::uint64_t detours = 0;           ///< off-route steps forced by units, and new paths asked for after waits
    std::uint64_t pushes = 0;            ///< steps of units without a route, made to let another unit pass
    std::uint64_t path_requests = 0;     ///< path requests submitted
    std::uint64_t paths = 0;             ///< of which answered with a path
    std::uint64_t repaths_map = 0;       ///< new paths asked for because the map changed under a route
    std::uint64_t repaths_goal = 0;      ///< new paths asked for because the destination moved
    std::uint64_t repaths_off_route = 0; ///< new paths asked for because a unit was pushed off its route
    std::uint64_t repaths_blocked = 0;   ///< new paths asked for after `detour_after` waits in a row
    std::uint64_t arrivals = 0;          ///< walks that arrived
    std::uint64_t failures = 0;          ///< walks that failed
    std::uint64_t jams = 0;              ///< times a unit reached `still_limit` ticks still with a destination
    std::uint64_t longest_still = 0;     ///< most ticks any unit stood still while it had a destination
};

/// A movement system's running state (`MovementSystem::save_state`), for saving a game: every unit
/// (position, destination, route and where it is on it, its path request, counters of its walk), the
/// free ids, the counters and the request queue. The options are not saved: restore into a system
/// made with the same options on the saved map.
struct MovementState {
    struct Unit {
        bool live = false;
        GridPoint pos{-1, -1}, prev{-1, -1};
        Destination dest{};
        std::vector<GridPoint> route;  ///< route[idx] is the next cell to enter
        std::uint64_t idx = 0;
        PathHandle request;            ///< its request in the queue (invalid when none)
        UnitStatus status = UnitStatus::Idle;
        MoveFailure failure = MoveFailure::None;
        bool anchored = false;
        bool moved = false;            ///< moved in the last update
        std::uint32_t still = 0, stalled = 0, waits_in_row = 0;
        std::uint64_t walk_ticks = 0;
    };
    std::vector<Unit> units;                ///< by id
    std::vector<std::uint32_t> free_units;  ///< free ids, the next to be reused first
    MovementStats stats;
    std::uint64_t seen_version = 0;         ///< map version of the last route re-check
    PathRequestQueueState queue;
    /// The crowd stepper's state (`StepResolver::Crowd`: its units' priorities and progress; each live
    /// unit is the stepper's unit on its cell). Empty for `StepResolver::Builtin`.
    CrowdStepperState crowd;
};

/// Units walking one map. See the file overview.
class MovementSystem {
public:
    /// A system for `map` (which must outlive it; the map may change between updates). Throws
    /// std::invalid_argument for an empty map or options out of range (path_weight < 1 or not finite,
    /// negative or non-finite penalties or weight).
    explicit MovementSystem(const GridMap& map, const MovementOptions& options = {});
    ~MovementSystem();
    MovementSystem(const MovementSystem&) = delete;
    MovementSystem& operator=(const MovementSystem&) = delete;

    /// Pre-sizes everything for `units` units with routes of up to `path_cells` cells, so that nothing
    /// allocates afterwards. May throw std::bad_alloc.
    void reserve(std::size_t units, std::size_t path_cells = 256);

    /// Adds a unit standing on `cell`. Returns its id, or kNoUnit if `cell` is off the map, blocked or
    /// taken by another unit. O(1) (amortised).
    UnitId add_unit(GridPoint cell);
    /// Removes a unit (its request is cancelled, its cell freed; the id may be reused). False for an
    /// unknown id. O(1).
    bool remove_unit(UnitId unit) noexcept;

    /// Sends a unit to `destination`. A unit already within the arrival region is `Arrived` at once;
    /// otherwise a path is requested (status `Planning`). Calling it again with the same destination does
    /// nothing; with another one (a moving target) the route is dropped and a new path asked for. Returns
    /// false (and the unit is `Failed` with InvalidGoal) when `destination.cell` is off the map or blocked,
    /// or the radius is negative; false for an unknown id. Un-anchors the unit. O(log requests).
    bool move_to(UnitId unit, const Destination& destination);
    /// Cancels the unit's walk (an aborted action): the request in flight is cancelled, the route
    /// dropped, the status becomes `Idle`; the unit stays where it is. False for an unknown id. O(1).
    bool stop(UnitId unit) noexcept;
    /// An anchored unit never moves (it is working); others walk around it (its cell is penalised with
    /// `still_penalty`). Anchoring a walking unit stops its walk. False for an unknown id.
    bool set_anchored(UnitId unit, bool anchored) noexcept;

    /// One tick: map re-check, claims, path searches, collision-free steps, statuses (see the overview).
    /// O(path_budget log open + units x (claim_cells + 9 log 9) + route cells re-checked after a map change).
    void update();

    /// Where a unit stands ({-1, -1} for an unknown id).
    [[nodiscard]] GridPoint position(UnitId unit) const noexcept;
    /// Where it stood before the last update.
    [[nodiscard]] GridPoint previous_position(UnitId unit) const noexcept;
    /// Its status (Idle for an unknown id).
    [[nodiscard]] UnitStatus status(UnitId unit) const noexcept;
    /// Why its walk failed (None unless status is Failed).
    [[nodiscard]] MoveFailure failure(UnitId unit) const noexcept;
    /// Its destination (meaningful unless Idle).
    [[nodiscard]] Destination destination(UnitId unit) const noexcept;
    /// The rest of its route: the cells still to enter, next first (empty without a route).
    [[nodiscard]] std::span<const GridPoint> remaining_route(UnitId unit) const noexcept;
    /// Consecutive ticks it has stood still while it had a destination and had not arrived.
    [[nodiscard]] std::uint32_t still_ticks(UnitId unit) const noexcept;
    /// True if it is anchored.
    [[nodiscard]] bool anchored(UnitId unit) const noexcept;
    /// The unit on `p`, or kNoUnit. O(1).
    [[nodiscard]] UnitId occupant(GridPoint p) const noexcept;
    /// Number of live units.
    [[nodiscard]] std::size_t unit_count() const noexcept { return m_live; }
    /// One past the largest id in use (ids below it may be free).
    [[nodiscard]] std::size_t id_bound() const noexcept;
    /// Counters.
    [[nodiscard]] const MovementStats& stats() const noexcept { return m_stats; }
    /// The claimed-path penalties of the last update (what searches read).
    [[nodiscard]] const PenaltyLayer& claims() const noexcept { return m_claims; }
    /// The map.
    [[nodiscard]] const GridMap& map() const noexcept { return *m_map; }
    /// The options.
    [[nodiscard]] const MovementOptions& options() const noexcept { return m_options; }
    /// Sets (or clears, with null) the islands that path requests submitted from now on carry
    /// (`MovementOptions::islands`), for islands made after the system.
    void set_islands(const Islands* islands) noexcept { m_options.islands = islands; }
    /// Sets `MovementOptions::restart_on_passability_change` (in force from the next update).
    void set_restart_on_passability_change(bool restart) noexcept;

    /// Copies the system's state into `out` (for a saved game). O(units + route cells + the queue's state).
    void save_state(MovementState& out) const;
    /// Replaces every unit and the queue by a saved state (the system must have been made on the saved
    /// map with the saved options); updates then continue exactly as the saved system would have.
    /// With `StepResolver::Crowd` the crowd stepper's state is restored too (`MovementState::crowd`:
    /// a state saved with the other resolver is refused). Refused for
    /// state that does not fit the map (a unit off the map or in a wall, two units on one cell, a route
    /// position past its route, a request the queue does not hold, ...). On error the system is left
    /// without units.
    RestoreResult restore_state(const MovementState& state);

private:
    struct Impl;
    void submit(UnitId unit);
    bool adopt_path(UnitId unit);
    [[nodiscard]] bool route_still_legal(UnitId unit) const noexcept;
    void write_claims();
    void step_with_builtin();
    void step_with_crowd();
    void apply_moves();

    const GridMap* m_map;
    MovementOptions m_options;
    PenaltyLayer m_claims;
    MovementStats m_stats;
    std::size_t m_live = 0;
    std::size_t m_reserve_path_cells = 0;
    std::unique_ptr<Impl> m_impl;
};

}  // namespace gameplan::path
