#pragma once
/// @file theta_star.hpp
/// Any-angle pathfinding: Theta* (Nash, Daniel, Koenig and Felner 2007) on a GridMap.
///
/// Overview
/// --------
/// Theta* searches the grid like A*, but when it relaxes a neighbour s' of the expanded cell s it
/// first tries to link s' straight to s's *parent*: if the segment parent(s) -> s' has line of sight
/// (`line_of_sight`, smoothing.hpp: every cell the segment passes through is passable, and where it
/// passes exactly through a grid corner the two cells touched there satisfy the diagonal rule), s' gets
/// g = g(parent(s)) + |parent(s) s'| (on a uniform map; see "Costs") and inherits that parent; otherwise
/// it is linked to s by the grid step. Paths are therefore chains of straight segments between cell
/// centres.
///
/// Result semantics (`GridPath`): `cells` holds the *waypoints* - the start, every corner where the
/// path turns, and the goal - not adjacent cells; consecutive waypoints are joined by a segment with
/// line of sight; `cost` is the sum of the segment costs (cell side = 1): on a uniform map the Euclidean
/// segment lengths.
///
/// Costs (`ThetaStarOptions::areas`, `filter`, `penalties`, `layers`; area_filter.hpp, and the map's
/// terrain costs). Forbidden areas block like walls: no segment passes through or corner-cuts past a
/// forbidden cell. Every cell c has a *price factor* f(c) = terrain(c) x multiplier(area(c)) and a
/// *penalty* p(c) = penalty_weight x penalties(c) + sum over layers of weight x layer(c).
/// - A grid step entering c costs exactly what `GridPathfinder` charges (`query_step_cost`):
///   length x terrain(c) x multiplier(area(c)) + p(c) (length 1 or sqrt(2)).
/// - A segment a -> b (a parent link) is allowed only if, besides having line of sight, every cell it
///   *enters* (every cell after a whose interior the segment passes through; the cells it only touches
///   at a grid corner are judged by the diagonal rule alone) has one and the same factor m and zero
///   penalty. It then costs m x |a b|. A segment through cells of different prices, or through a
///   penalised cell, is never taken: the path bends there or follows grid steps.
/// When Theta* relaxes a neighbour s' of s it computes both candidates, the grid step s -> s' and the
/// link parent(s) -> s' when allowed, and keeps the cheaper one (the link on a tie). The heuristic is
/// the Euclidean distance to the goal times the smallest factor the query allows (the map's
/// `min_cost()` times the smallest multiplier of an allowed area on the map); penalties add >= 0.
/// On a uniform map (no terrain costs, no layer of positive weight, one multiplier m shared by every
/// allowed area on the map) this is classic Theta*: a visible link replaces the grid step outright
/// (it is never dearer there), and costs are m x the Euclidean lengths.
///
/// Guarantees (checked by the tests on random maps with terrain, areas and layers, and on the MovingAI
/// scenarios):
/// - every segment has line of sight under the query's diagonal rule and avoids forbidden cells; every
///   segment is a legal grid step or a link whose entered cells share one factor and carry no penalty;
/// - the cost is at least the smallest allowed factor x the Euclidean distance start -> goal, and at
///   most the optimal *grid* path cost under the same movement rule and the same per-query costs
///   (`GridPathfinder` with the same areas, filter and layers): the heuristic is consistent for both
///   kinds of link, and every relaxation considers the grid step, so the usual A* argument bounds
///   g(goal) by the grid optimum.
/// Theta* is not guaranteed to find the shortest any-angle path (it is usually within a fraction of a
/// percent of it on uniform maps).
///
/// Resumable form, as `GridPathfinder`: `begin` validates the query and seeds the open list; `step(n)`
/// expands at most n cells and returns `InProgress` while unfinished; `finish` writes the path;
/// `find_path` does all three. Stepping in slices of any size gives exactly the result and statistics of
/// one `find_path`. The budget (`ThetaStarOptions::budget`) is for the whole search: expansions, a
/// deadline and the memory the ThetaStar holds (`memory_bytes()`); `budget_limit()` says which one ended
/// a search with `BudgetExhausted`. The map, area map,
/// filter and layers must outlive the search; a map `reset` to another shape between slices ends it
/// with `InvalidQuery`, and other changes between slices mix old and new map states (compare
/// `map_version()` with the map's `version()`).
///
/// Engine reuse: the loop is specialised (a parent link is not expressible in `SearchContext`) but
/// uses the engine's `IndexedHeap` and key (ties: smaller f, then smaller h, then LIFO), generation
/// stamps, `Budget`, `SearchStats` and `Status`. After warm-up a query allocates nothing (the path
/// buffer is the caller's). Memory: 20 bytes per map cell (16 of state, 4 of heap position) plus 32 per
/// open-list entry (its capacity, grown by doubling). With `Budget::max_memory_bytes` set, the per-cell
/// arrays are allocated only if they fit and the open list grows only if its doubling fits; otherwise
/// the search ends with `BudgetExhausted` and `budget_limit() == Memory` (storage held from earlier
/// queries counts).
///
/// Thread-safety: one ThetaStar per thread; any number may read one map.

#include <gameplan/path/area_filter.hpp>
#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/grid_rules.hpp>
#include <gameplan/path/grid_search.hpp>
#include <gameplan/path/penalty_layer.hpp>
#include <gameplan/search/generation.hpp>
#include <gameplan/search/indexed_heap.hpp>
#include <gameplan/search/search_context.hpp>
#include <gameplan/status.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace gameplan::path {

/// How a Theta* query moves and what it pays. The base moves (the grid steps Theta* falls back to)
/// follow `movement` and `diagonal`; the line-of-sight corner rule follows `diagonal` (`Never` /
/// 4-connected are judged as `NoCornerCutting`). The cost fields mean what they mean in
/// `GridSearchOptions` (same names and types); see the file overview for how links are priced.
struct ThetaStarOptions {
    Movement movement = Movement::Eight;                    ///< base moves: 4- or 8-connected
    DiagonalRule diagonal = DiagonalRule::NoCornerCutting;  ///< diagonal and corner rule
    /// Expansion / deadline / memory limits (whole search). The memory limit caps what the ThetaStar
    /// holds (`ThetaStar::memory_bytes()`: per-cell state, heap positions, open list).
    search::Budget budget{};
    /// Optional area type of every cell (area_filter.hpp), read with `filter`; without it every cell is
    /// in area 0. Must match the map (else `InvalidQuery`). Not owned; must outlive the search.
    const AreaMap* areas = nullptr;
    /// Optional filter: cells of forbidden areas block movement and line of sight like blocked cells
    /// (also as the side cells of a diagonal and at grid corners); entering a cell of area a costs
    /// multiplier(a) times as much. A start or goal in a forbidden area is `InvalidQuery`. Not owned.
    const AreaFilter* filter = nullptr;
    /// Optional additive per-cell penalties (penalty_layer.hpp), weighted by `penalty_weight` (>= 0 and
    /// finite). Must match the map (else `InvalidQuery`). Not owned; must outlive the search.
    const PenaltyLayer* penalties = nullptr;
    double penalty_weight = 1.0;  ///< weight of `penalties`; ignored without a layer
    /// Optional weighted cost layers, any number (each: a PenaltyLayer matching the map and a weight >= 0,
    /// else `InvalidQuery`). Not owned; the span and the layers must outlive the search.
    std::span<const CostLayer> layers{};
    /// Optional unreachability precheck (islands.hpp): when the islands prove the goal unreachable,
    /// `begin` returns `NoPath` at once, expanding nothing. A line of sight joins only cells the base
    /// moves join, so the islands apply as to a grid search under `movement` and `diagonal` (built for
    /// that rule or a more permissive one), and are ignored otherwise or when stale. Not owned; must
    /// outlive the search.
    const Islands* islands = nullptr;
};

/// The Theta* options of a grid query's: its movement rule, budget, islands, areas, filter, penalties and
/// layers (its heuristic and weight have no counterpart).
[[nodiscard]] ThetaStarOptions theta_star_options(const GridSearchOptions& options) noexcept;

/// Reusable Theta* search object. See the file overview.
class ThetaStar {
public:
    /// Sizes the per-cell state for `map` so that even the first query does not allocate. Optional.
    void reserve(const GridMap& map, std::size_t open_entries = 1u << 14);

    /// Starts a search from `start` to `goal`. Returns `InProgress`, or `InvalidQuery` (empty map, a point
    /// off the map, blocked or in a forbidden area, an area map or layer sized for another map, a negative
    /// or non-finite layer weight), `NoPath` when `options.islands` prove the goal unreachable, or `BudgetExhausted` (`budget_limit() == Memory`, nothing allocated)
    /// when the per-cell arrays for `map` would take what the ThetaStar holds past
    /// `options.budget.max_memory_bytes`. Any previous search is forgotten in O(1).
    Status begin(const GridMap& map, GridPoint start, GridPoint goal, const ThetaStarOptions& options = {});

    /// Expands at most `slice_expansions` cells. Returns `InProgress` if the slice ran out first, else the
    /// final status (`Found`, `NoPath`, `BudgetExhausted`, `InvalidQuery` after a map reset to another
    /// shape), which later calls return again. Each expansion makes up to 8 line-of-sight tests of
    /// O(segment length).
    Status step(std::uint64_t slice_expansions = UINT64_MAX);

    /// Writes the waypoints of the path found and its cost into `out` (cleared, cost +infinity, when there
    /// is none) and returns the status. Allocates only if `out.cells` must grow.
    Status finish(GridPath& out) const;

    /// begin + step + finish (the argument order of `GridPathfinder::find_path`).
    Status find_path(const GridMap& map, GridPoint start, GridPoint goal, const ThetaStarOptions& options,
                     GridPath& out);
    /// The same query, options last.
    Status find_path(const GridMap& map, GridPoint start, GridPoint goal, GridPath& out,
                     const ThetaStarOptions& options = {}) {
        return find_path(map, start, goal, options, out);
    }

    /// Status of the current search (`InProgress` until finished).
    [[nodiscard]] Status status() const noexcept { return m_status; }
    /// Counters of the current search.
    [[nodiscard]] const search::SearchStats& stats() const noexcept { return m_stats; }
    /// Which limit of the budget ended the search: `None` unless status() is BudgetExhausted, then
    /// `Expansions`, `Time` or `Memory`. Reset by every begin.
    [[nodiscard]] search::BudgetLimit budget_limit() const noexcept { return m_limit; }
    /// Bytes the ThetaStar holds: the capacities of its per-cell state (16 bytes a cell), the heap's
    /// position array (4) and entries (32 each) and the active layer lists. Not the map's. What
    /// `Budget::max_memory_bytes` caps.
    [[nodiscard]] std::size_t memory_bytes() const noexcept;
    /// The map's version() when the current search began.
    [[nodiscard]] std::uint64_t map_version() const noexcept { return m_map_version; }
    /// True if the current search expanded cell `p` (for pictures and debugging). False off the map.
    [[nodiscard]] bool closed(GridPoint p) const noexcept;
    /// Line-of-sight tests made by the current search (under per-query costs, only the tests whose
    /// link could have been the cheaper candidate are made).
    [[nodiscard]] std::uint64_t line_of_sight_checks() const noexcept { return m_los_checks; }

private:
    struct State {
        double g;
        std::uint32_t parent;
        std::uint32_t stamp;
    };
    struct ActiveLayer {
        const PenaltyLayer* layer;
        double weight;
    };
    using Key = search::SearchContext<double>::Key;

    // kCosts: terrain, different multipliers or layers are in force (links priced cell by cell).
    template <bool kCosts>
    Status run(std::uint64_t slice_expansions);
    [[nodiscard]] bool uniform_areas() const noexcept;
    [[nodiscard]] bool over_budget(std::size_t more) const noexcept;
    [[gnu::noinline]] bool grow_open();
    Status out_of_memory() noexcept;

    std::vector<State> m_state;
    search::IndexedHeap<Key> m_heap;
    search::SearchStats m_stats{};
    std::uint64_t m_los_checks = 0;
    std::uint32_t m_generation = search::kUnvisitedStamp;
    std::uint32_t m_sequence = 0;
    Status m_status = Status::NoPath;
    search::BudgetLimit m_limit = search::BudgetLimit::None;
    bool m_out_of_memory = false;  // the open list could not grow within the memory budget

    const GridMap* m_map = nullptr;
    std::uint32_t m_bound = 0;   // map.node_bound() at begin; detects a reset map between slices
    std::uint32_t m_stride = 0;  // map row stride at begin (also for closed())
    std::int32_t m_width = 0;
    std::uint64_t m_map_version = 0;
    std::uint32_t m_start_node = search::kNoNode;
    std::uint32_t m_goal_node = search::kNoNode;
    GridPoint m_goal{};
    search::Budget m_budget{};

    Movement m_movement = Movement::Eight;
    DiagonalRule m_diagonal = DiagonalRule::NoCornerCutting;
    GridSearchOptions m_sight{};             // line of sight under the rule and the forbidden areas
    const AreaMap* m_areas = nullptr;        // area map in force (with a filter), or null
    const AreaFilter* m_filter = nullptr;    // filter in force, or null
    std::uint64_t m_forbidden = 0;           // the filter's forbidden areas
    std::uint64_t m_present = 0;             // areas on the map when last looked at
    std::vector<ActiveLayer> m_layers;       // layers (and penalties) in force, weight > 0
    std::vector<const float*> m_layer_data;  // their data, refreshed by every slice
    bool m_costs = false;                    // per-cell prices in force (run<true>)
    double m_multiplier = 1.0;               // uniform prices: the one multiplier
    double m_h_scale = 1.0;                  // heuristic: Euclidean distance x this
};

}  // namespace gameplan::path
