#pragma once
/// @file crowd.hpp
/// Collision-free crowds on a grid: a one-shot multi-agent pathfinding solver (`CrowdSolver`) and a
/// lifelong per-tick stepper for games (`CrowdStepper`).
///
/// The rules (classic MAPF benchmark, Stern et al. 2019)
/// ------------------------------------------------------
/// Time advances in steps. At each step every agent either moves to a neighbouring passable cell or
/// waits. Two agents never occupy one cell at one step (vertex conflict) and two agents never exchange
/// cells in one step (swap conflict). Moving into a cell that another agent leaves in the same step
/// ("following") is allowed, and so is a rotation of three or more agents along a cycle. In the
/// one-shot problem an agent stays at its goal after its last move and keeps blocking it.
///
/// One-shot solver: `CrowdSolver`
/// ------------------------------
/// Everybody starts at a start cell and must reach its own goal cell; the map is 4-connected (the
/// classic benchmark; the map's diagonal moves are never used). The solver is LaCAM (Okumura, AAAI
/// 2023) with PIBT (Okumura et al., AIJ 2022) as its configuration generator:
///   - a *configuration* is the cells of all agents at one step. LaCAM searches depth-first over
///     configurations; from a configuration it asks PIBT (priority inheritance with backtracking, plus
///     the "swap" operation of PIBT+/LaCAM2) for one successor configuration, and it re-asks lazily
///     with more and more low-level constraints ("agent i goes to cell v") when a successor was
///     already seen, which makes the search complete: an instance without a solution is eventually
///     reported `NoPath`, never a wrong answer;
///   - guidance is one breadth-first distance table per agent (agents x free cells x 4 bytes);
///   - each configuration is stored once (agents x 10 bytes: cells, priorities, agent order) and found
///     again through a hash table;
///   - PIBT ranks a unit's candidate cells by distance to its goal; ties go to cells nobody stands on,
///     then to the seeded generator (much better first solutions on dense maps; after 2,000 generator
///     calls or 500 revisited configurations without a solution the ties become purely random, which
///     some dense instances need, and 2,000 calls later the search restarts from the start
///     configuration);
///   - anytime: with `CrowdOptions::anytime`, the first solution is then improved, keeping every
///     step conflict-free: (0) if it is jammed (sum of costs >= 3.5 x lower bound) and was found
///     with free-cell ties, three more runs of the search with other ties, each capped at twice the
///     first run's generator calls, the best solution kept; (1) prioritized planning of all agents from scratch (a random order, the
///     agent that found no path moved to the front for the next try, at most 10 tries, then one
///     longest-trip-first try), kept only if its sum of costs is lower; (2) a large neighbourhood
///     search (MAPF-LNS, Li et al. 2021): take 2-8 agents (the most delayed agent plus the agents
///     crossing its goal last and the agents blocking its shorter paths, the agents around a
///     crossing, or random agents) or one agent (the next of the most delayed; method and size chosen
///     by adaptive weights), replan them one by one in random order with SIPP (safe-interval path
///     planning) against everybody else's paths, the agent's distance table as heuristic and the cost
///     to beat as bound, and keep the new paths only if their sum of costs is lower. It runs until the
///     deadline, `improve_for`, or `max_expansions` (each generator call of (0) and each try, replan
///     or neighbourhood counts as one expansion); with an expansion cap the result is deterministic.
/// Ties break on a small pseudo-random generator seeded by `CrowdOptions::seed`: the same instance,
/// options and seed always give the same solution, on any thread.
///
/// Costs: an agent's cost is the step at which it reaches its goal for the last time; the sum of
/// costs (SoC) sums them, the makespan is their maximum. `CrowdSolution::lower_bound` is the sum of
/// the agents' single-agent 4-connected shortest distances.
///
/// Resumable form: `begin` validates the instance and builds the distance tables, `step(n)` runs at
/// most n configuration-generator calls and returns `InProgress` while unfinished, `finish` writes the
/// solution. `solve` does all three. The map must stay alive and unchanged between `begin` and
/// `finish`.
///
/// Statuses: `Found` (a solution; with anytime, the best one found in the time given), `NoPath` (proved
/// unsolvable: an agent cannot reach its goal, or the configuration space was exhausted),
/// `BudgetExhausted` (deadline, expansion cap or memory cap reached before any solution;
/// `CrowdSolver::budget_limit()` says which),
/// `InvalidQuery` (empty map, starts/goals count mismatch, more than kMaxCrowdAgents agents, a cell off
/// the map or blocked, two agents sharing a start or a goal; and from `solve`, an anytime solve with
/// nothing to end its improvement: no deadline, no `improve_for` and no expansion cap, which would run
/// forever on any instance whose first solution is not optimal — drive such a solve with `step`).
///
/// The improvement also ends once the sum of costs reaches the lower bound (it is then optimal).
///
/// Memory and speed: about 10 bytes per agent per stored configuration plus 4 bytes per agent per
/// free cell for the distance tables. `CrowdOptions::max_memory_bytes` and the budget's
/// `max_memory_bytes` (the smaller of the two) cap the tables and the configuration store together.
/// The anytime phase adds one path per agent and a reservation table (one entry per agent per
/// step). After warm-up (a first solve of a same-sized instance; for an anytime solve capped by
/// `max_expansions`, a first run of the same solve) a solve reuses its buffers.
///
/// Lifelong stepper: `CrowdStepper`
/// --------------------------------
/// A game does not know all goals in advance, its units get new destinations all the time, and it
/// cannot afford a distance table per unit. `CrowdStepper` is the per-tick form: PIBT alone, run once
/// per tick over the units the game registered, on 4- or 8-connected maps. Each tick it returns one
/// next cell per unit such that no two units share a cell, no two units swap cells, and (8-connected)
/// no two diagonal moves cross inside one 2 x 2 block. See the class comment for how a movement layer
/// drives it.
///
/// Thread-safety: one solver or stepper per thread; the map may be shared read-only.

#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/grid_rules.hpp>
#include <gameplan/restore.hpp>
#include <gameplan/search/search_context.hpp>
#include <gameplan/status.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace gameplan::path {

/// Largest number of agents a `CrowdSolver` instance or a `CrowdStepper` accepts. PIBT's priority
/// inheritance recurses once per pushed agent, so this also bounds the recursion depth.
inline constexpr std::size_t kMaxCrowdAgents = 16384;

/// Options of a one-shot crowd solve.
struct CrowdOptions {
    /// Whole-solve limits: `max_expansions` counts configuration-generator (PIBT) calls over all
    /// slices; `deadline` is checked every 16 calls; `max_memory_bytes` caps the distance tables and
    /// the stored configurations as `max_memory_bytes` below does (the smaller cap applies; the anytime
    /// phase's paths are not counted). Default: unlimited.
    search::Budget budget;
    /// Keep improving the sum of costs after the first solution (large neighbourhood search, see the
    /// overview) until the deadline, until `improve_for` has passed since the first solution, until
    /// `budget.max_expansions` iterations in all, or until the sum of costs reaches the lower bound.
    /// `solve` refuses an anytime solve with none of the three limits (`InvalidQuery`).
    bool anytime = false;
    /// Longest time spent improving after the first solution (anytime only). Default: until the deadline.
    std::chrono::steady_clock::duration improve_for = std::chrono::steady_clock::duration::max();
    /// Seed of the tie-breaking generator. Same seed, same instance: same solution.
    std::uint64_t seed = 0;
    /// Cap on the memory of the distance tables (4 bytes per agent and free cell, counted first: tables
    /// past the cap make `begin` return `BudgetExhausted` before they are built) and of the stored
    /// configurations (about 10 bytes per agent and 140 bytes more per configuration); reaching it ends
    /// the search (`BudgetExhausted`, budget_limit() `Memory`, without a solution; with a solution in
    /// anytime mode, that solution).
    std::size_t max_memory_bytes = std::size_t{2} << 30;
    /// Use the PIBT "swap" operation (PIBT+, LaCAM2): lets two agents pass each other in corridors and
    /// helps dense instances a lot. Off only for experiments.
    bool swap = true;
};

/// Counters of a one-shot solve. `search.expanded` counts configuration-generator calls plus
/// improvement iterations, `search.generated` new configurations.
struct CrowdStats {
    search::SearchStats search;
    std::uint64_t configurations = 0;   ///< distinct configurations stored
    std::uint64_t generator_failures = 0;  ///< PIBT calls that found no successor under the constraints
    std::uint64_t first_sum_of_costs = 0;  ///< sum of costs of the first solution (0 before)
    std::uint64_t improvements = 0;     ///< accepted improvement steps after the first solution
    double first_solution_seconds = 0;  ///< wall time from begin() to the first solution
};

/// A solution of a one-shot instance: the cells of every agent at every step.
struct CrowdSolution {
    std::uint32_t agents = 0;       ///< number of agents
    std::uint32_t makespan = 0;     ///< last step (time T); cells holds T + 1 steps
    std::uint64_t sum_of_costs = 0;  ///< sum over agents of costs[i]
    std::uint64_t lower_bound = 0;   ///< sum of single-agent 4-connected distances
    std::vector<std::uint32_t> costs;  ///< per agent: step at which it reaches its goal for the last time
    /// Step-major cells: cells[t * agents + i] is agent i's cell at step t, t in [0, makespan].
    std::vector<GridPoint> cells;

    /// Agent i's cell at step t; for t > makespan, its goal (it stays there). Precondition: i < agents.
    [[nodiscard]] GridPoint at(std::uint32_t agent, std::uint32_t t) const noexcept {
        const std::uint32_t s = t > makespan ? makespan : t;
        return cells[static_cast<std::size_t>(s) * agents + agent];
    }
    /// Agent i's path from step 0 to costs[i] (its last arrival at its goal), appended to `out` after
    /// clearing it.
    void path(std::uint32_t agent, std::vector<GridPoint>& out) const;
};

/// Reusable one-shot multi-agent solver (LaCAM over PIBT). See the file overview.
class CrowdSolver {
public:
    CrowdSolver();
    ~CrowdSolver();
    CrowdSolver(CrowdSolver&&) noexcept;
    CrowdSolver& operator=(CrowdSolver&&) noexcept;
    CrowdSolver(const CrowdSolver&) = delete;
    CrowdSolver& operator=(const CrowdSolver&) = delete;

    /// Starts a solve: validates the instance (see the statuses in the overview), builds one BFS
    /// distance table per agent (O(agents x cells)) and seeds the search. Returns `InProgress`, or
    /// `InvalidQuery` / `NoPath` (an agent cannot reach its goal) / `Found` (everybody already home).
    Status begin(const GridMap& map, std::span<const GridPoint> starts, std::span<const GridPoint> goals,
                 const CrowdOptions& options = {});
    /// Runs at most `slice_expansions` configuration-generator calls. Returns `InProgress` while
    /// unfinished, otherwise the final status.
    Status step(std::uint64_t slice_expansions = UINT64_MAX);
    /// Ends the solve now: the status becomes `Found` if a solution is known (an anytime search keeps
    /// its best one), else `BudgetExhausted`. For callers that budget by their own clock (e.g. CPU
    /// time) between `step` slices; `budget_limit()` then says `Time`. No effect on a finished solve.
    void stop() noexcept;
    /// Writes the solution. Returns the final status; `out` is filled only when it is `Found`.
    Status finish(CrowdSolution& out) const;
    /// begin + step + finish; `InvalidQuery` for an anytime solve with no deadline, `improve_for` or
    /// expansion cap (see `CrowdOptions::anytime`).
    Status solve(const GridMap& map, std::span<const GridPoint> starts, std::span<const GridPoint> goals,
                 const CrowdOptions& options, CrowdSolution& out);

    /// Status of the current solve (`InProgress` until finished).
    [[nodiscard]] Status status() const noexcept;
    /// Which limit ended the solve: `None` unless status() is `BudgetExhausted`; then `Expansions`
    /// (`budget.max_expansions`), `Time` (the deadline, or `stop()`) or `Memory` (either memory cap).
    [[nodiscard]] search::BudgetLimit budget_limit() const noexcept;
    /// True once a solution is known (also while an anytime search is still improving it).
    [[nodiscard]] bool has_solution() const noexcept;
    /// Sum of costs of the best solution so far (0 without one).
    [[nodiscard]] std::uint64_t best_sum_of_costs() const noexcept;
    /// Sum of single-agent distances of the current instance (valid after a successful begin).
    [[nodiscard]] std::uint64_t lower_bound() const noexcept;
    /// When begin() answered `NoPath` because an agent cannot reach its goal (its start and goal lie in
    /// different parts of the map): that agent, the first in index order. UINT32_MAX otherwise (also
    /// when the search proved the instance unsolvable for want of room).
    [[nodiscard]] std::uint32_t unreachable_agent() const noexcept;
    /// Counters of the current solve.
    [[nodiscard]] const CrowdStats& stats() const noexcept;
    /// Bytes the solver holds: the per-agent distance tables (4 bytes per agent and free cell), the
    /// configuration store (what the memory caps limit, with the tables) and scratch. Only grows between
    /// solves.
    [[nodiscard]] std::size_t memory_bytes() const noexcept;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

/// Identifier of a unit registered with a `CrowdStepper` (dense, reused after removal).
using CrowdAgentId = std::uint32_t;
/// "No unit": returned by `CrowdStepper::add` on failure.
inline constexpr CrowdAgentId kNoCrowdAgent = UINT32_MAX;

/// Per-unit outcome of the last `CrowdStepper::tick`.
enum class CrowdMove : std::uint8_t {
    Stayed,   ///< did not move and did not want to (idle, at its goal, or held)
    Advanced,  ///< moved to a cell that is better for its route than where it was
    Pushed,   ///< moved, but not closer to its goal: made room for a unit of higher priority
    Waited,   ///< wanted to move but had to stay: blocked by other units
};

/// Counters over all ticks since reset().
struct CrowdStepperStats {
    std::uint64_t ticks = 0;     ///< tick() calls
    std::uint64_t advanced = 0;  ///< unit-ticks with CrowdMove::Advanced
    std::uint64_t pushed = 0;    ///< unit-ticks with CrowdMove::Pushed
    std::uint64_t waited = 0;    ///< unit-ticks with CrowdMove::Waited
};

/// A crowd stepper's running state (`CrowdStepper::save_state`), for saving a game: every unit (cell,
/// previous cell, goal, priority and progress counters, last move, hold flag), the free ids in the order
/// they will be reused, and the counters. Routes are views of the caller's cells and are not saved:
/// after `restore_state`, give every unit that had a goal its route again with `set_goal` (a movement
/// layer does that before every tick; the same goal keeps the unit's priority).
struct CrowdStepperState {
    struct Unit {
        bool alive = false;
        GridPoint cell{-1, -1}, prev{-1, -1};
        bool has_goal = false;
        GridPoint goal{-1, -1};  ///< meaningful when has_goal
        bool held = false;
        CrowdMove move = CrowdMove::Stayed;
        std::uint32_t stuck = 0, age = 0, best = UINT32_MAX, off_route = 0;
    };
    std::vector<Unit> units;               ///< by id
    std::vector<std::uint32_t> free_ids;   ///< free ids, the next to be reused last
    CrowdStepperStats stats;
};

/// Lifelong, per-tick collision-free stepping of many units (PIBT with priority inheritance).
///
/// How a movement layer uses it:
///   1. `reset(map, movement, rule)` once per map (allocates O(cells)); `reserve(n)` for the expected
///      unit count so that `add` does not allocate later.
///   2. `add(cell)` for each unit (fails with kNoCrowdAgent on a blocked or occupied cell); `remove`,
///      and `reposition` (teleport) as the game needs.
///   3. Whenever a unit gets a route from the pathfinder, `set_goal(id, route)`: `route` is the rest
///      of its path, *without* the cell it stands on (route[0] is the next cell, route.back() the
///      goal). The stepper keeps a view of it, not a copy: the cells must stay alive and unchanged
///      until the next set_goal/clear_goal/remove of that unit. It keeps a cursor on the route and
///      advances it as the unit walks, so there is no need to call set_goal every tick.
///      `clear_goal(id)` makes a unit idle: it stays put but steps aside when a unit needs its cell.
///      `hold(id)` pins a unit for the next tick only (it does not move, and nobody enters its cell).
///   4. `tick()` once per game tick. Afterwards `position(id)` is the unit's new cell (its previous
///      one is `previous(id)`), `last_move(id)` says whether it advanced, was pushed aside or had to
///      wait, and `on_route(id)` whether it still stands on (or next to the start of) its route; a
///      movement layer re-requests a path when a unit was pushed off its route far enough
///      (`off_route_ticks(id)` counts the ticks it has been off it) and animates the step otherwise.
///
/// Guidance without distance tables: a candidate cell c is ranked by the route cells that remain
/// after it: `route.size() - 1 - j` if c is route[j] for some j in the window [cursor, cursor + 8),
/// else `d(c, route[cursor]) + route.size() - 1 - cursor` (back to the next route cell, then the
/// rest), with d the Manhattan distance (4-connected) or the Chebyshev distance (8-connected; one tick
/// per step, diagonal or not). A cell off the route is never ranked by a shortcut toward a later route
/// cell, so walls cannot create false local minima as long as the unit stays near its route (a unit
/// pushed further away should get a new route: see off_route_ticks()). Ties prefer staying, then (for
/// a unit pushed by another) cells off the pusher's next route cells, so that an idle unit steps
/// aside rather than ahead of the pusher, then free cells, then straight moves, then a fixed order. A unit whose cursor reached the end of its route
/// ranks by d(c, goal); an idle unit prefers to stay. The cost per tick is O(units log units +
/// units x 9 x 8), with no
/// per-unit table at all, so thousands of units on 512 x 512 maps fit in a frame.
///
/// Priorities (as in lifelong PIBT): a unit's priority is the number of ticks since it got its current
/// goal, reset when it arrives or gets a different goal (a new route to the *same* goal keeps it).
/// Units are planned in decreasing priority (ties: units away from their goal first, then by id), and
/// a unit that moves into an occupied cell lends its priority to the occupant, which must then move
/// away (priority inheritance) or the first unit tries its next candidate. The oldest unit therefore
/// always gets its best cell, so every unit eventually becomes the oldest and walks home: on maps where
/// every two neighbouring free cells lie on a cycle (no dead-end corridors one cell wide) nobody
/// starves. In dead ends full of units PIBT has no such guarantee; the movement layer's repaths (or a
/// different goal) resolve those cases. `stuck_ticks` reports ticks without progress, for such logic.
///
/// Guarantees per tick: every unit's new cell is its old cell or a legal step from it under the
/// movement rule; no two units share a new cell; no two units swap; no two diagonal moves cross in a
/// 2 x 2 block (a unit moving from (x, y) to (x+1, y+1) while another moves from (x+1, y) to
/// (x, y+1)). Deterministic: the same calls give the same moves. `tick` allocates nothing.
class CrowdStepper {
public:
    CrowdStepper() = default;

    /// Binds a map and a movement rule and removes every unit. Keeps a pointer to `map`, which must
    /// outlive the stepper's use; blocking a cell under a unit is allowed (the unit may leave it, and
    /// nobody enters it). Allocates O(cells).
    void reset(const GridMap& map, Movement movement = Movement::Four,
               DiagonalRule rule = DiagonalRule::NoCornerCutting);
    /// Reserves room for `units` units (so add() does not allocate up to that count).
    void reserve(std::size_t units);

    /// Registers a unit standing on `cell`. Returns its id, or kNoCrowdAgent if the cell is off the
    /// map, blocked or already occupied, or kMaxCrowdAgents units exist.
    CrowdAgentId add(GridPoint cell);
    /// Unregisters a unit; its id may be handed out again. False for an unknown id.
    bool remove(CrowdAgentId id) noexcept;
    /// Moves a unit to `cell` at once (teleport); clears its route. False if the id is unknown or the
    /// cell is off the map, blocked or occupied by another unit.
    bool reposition(CrowdAgentId id, GridPoint cell) noexcept;

    /// Gives a unit a route (see the class comment: route[0] is the next cell, route.back() the goal;
    /// the view must stay valid). An empty route means "stay where you are" (the unit counts as
    /// arrived). False for an unknown id.
    bool set_goal(CrowdAgentId id, std::span<const GridPoint> route) noexcept;
    /// Makes a unit idle (no goal; it may be pushed aside). False for an unknown id.
    bool clear_goal(CrowdAgentId id) noexcept;
    /// Pins a unit for the next tick (it stays; nobody enters its cell). False for an unknown id.
    bool hold(CrowdAgentId id) noexcept;

    /// Moves every unit by at most one step (see the class comment). O(units log units). Allocates
    /// nothing.
    void tick();

    /// True if `id` names a registered unit.
    [[nodiscard]] bool contains(CrowdAgentId id) const noexcept {
        return id < m_units.size() && m_units[id].alive;
    }
    /// Current cell of a unit. Precondition: contains(id).
    [[nodiscard]] GridPoint position(CrowdAgentId id) const noexcept { return m_map->point(m_units[id].node); }
    /// Cell of a unit before the last tick (its current cell if it was added or repositioned since).
    [[nodiscard]] GridPoint previous(CrowdAgentId id) const noexcept { return m_map->point(m_units[id].prev); }
    /// What the unit did in the last tick.
    [[nodiscard]] CrowdMove last_move(CrowdAgentId id) const noexcept { return m_units[id].move; }
    /// True if the unit has a route and stands on its goal.
    [[nodiscard]] bool arrived(CrowdAgentId id) const noexcept;
    /// True if the unit has a goal (set_goal and no clear_goal since).
    [[nodiscard]] bool has_goal(CrowdAgentId id) const noexcept { return m_units[id].has_goal; }
    /// Index into the route given to set_goal of the next route cell the unit aims for.
    [[nodiscard]] std::size_t route_cursor(CrowdAgentId id) const noexcept { return m_units[id].cursor; }
    /// True if the unit stands on its route: on the last route cell reached, or one legal step from the
    /// next one (always true for idle units and units past the end of their route).
    [[nodiscard]] bool on_route(CrowdAgentId id) const noexcept;
    /// Consecutive ticks the unit has ended off its route (0 when on it).
    [[nodiscard]] std::uint32_t off_route_ticks(CrowdAgentId id) const noexcept { return m_units[id].off_route; }
    /// Ticks since the unit last got closer to its goal than ever since the goal was set; 0 for idle or
    /// arrived units.
    [[nodiscard]] std::uint32_t stuck_ticks(CrowdAgentId id) const noexcept { return m_units[id].stuck; }
    /// Number of registered units.
    [[nodiscard]] std::size_t size() const noexcept { return m_count; }
    /// One past the largest id in use (ids below it may be free: check contains()).
    [[nodiscard]] std::size_t id_bound() const noexcept { return m_units.size(); }
    /// Counters since reset().
    [[nodiscard]] const CrowdStepperStats& stats() const noexcept { return m_stats; }
    /// The unit standing on `cell`, or kNoCrowdAgent (also off the map). O(1).
    [[nodiscard]] CrowdAgentId at(GridPoint cell) const noexcept;

    /// Copies the stepper's state into `out` (for a saved game). O(units).
    void save_state(CrowdStepperState& out) const;
    /// Replaces every unit by a saved state; the stepper must have been `reset` on the saved map with
    /// the saved movement rule. Checks the state (at most kMaxCrowdAgents ids, cells and goals on the
    /// map, no two units on one cell, the free ids exactly the ids of no unit, each once) and refuses
    /// it naming the field (`units[4].cell`, `free_ids`); on error the stepper is left without units.
    /// Routes are not part of the state: see CrowdStepperState. May allocate (the units' table).
    RestoreResult restore_state(const CrowdStepperState& state);

private:
    static constexpr std::uint32_t kNone = UINT32_MAX;
    struct Unit {
        std::uint32_t node = 0;      // current cell (padded node index)
        std::uint32_t prev = 0;      // cell before the last tick
        std::uint32_t next = kNone;  // planned cell during a tick
        std::uint32_t stuck = 0;     // ticks since the best rank improved
        std::uint32_t age = 0;       // ticks since the goal was set (the priority)
        std::uint32_t best = UINT32_MAX;  // best rank since the route was set
        std::uint32_t off_route = 0;
        const GridPoint* route = nullptr;
        std::size_t route_size = 0;
        std::size_t cursor = 0;
        std::uint32_t goal = kNone;  // goal node (route.back()) or kNone
        bool alive = false;
        bool has_goal = false;
        bool held = false;
        CrowdMove move = CrowdMove::Stayed;
    };

    [[nodiscard]] std::uint32_t rank(const Unit& unit, std::uint32_t node) const noexcept;
    bool pibt(std::uint32_t id, std::uint32_t pusher) noexcept;
    [[nodiscard]] bool on_path_of(std::uint32_t pusher, std::uint32_t node) const noexcept;
    [[nodiscard]] bool crosses(std::uint32_t from, std::uint32_t to) const noexcept;
    void advance_cursor(Unit& unit) noexcept;

    const GridMap* m_map = nullptr;
    Movement m_movement = Movement::Four;
    DiagonalRule m_rule = DiagonalRule::NoCornerCutting;
    std::vector<Unit> m_units;
    std::vector<std::uint32_t> m_free_ids;
    std::vector<std::uint32_t> m_order;
    std::vector<std::uint32_t> m_occ_now;   // per node: unit id or kNone
    std::vector<std::uint32_t> m_occ_next;  // per node: unit id or kNone during a tick
    std::size_t m_count = 0;
    CrowdStepperStats m_stats;
};

}  // namespace gameplan::path
