#pragma once
/// @file graph_search.hpp
/// A*, Dijkstra, nearest-of-many and distance fields on a Graph: the reusable `GraphPathfinder`.
///
/// Overview
/// --------
/// `GraphPathfinder` is the graph counterpart of `GridPathfinder` (grid_search.hpp), with the same shape:
/// create one per thread, run any number of queries; `begin` / `step` / `finish` for a search spread over
/// frames, `find_path` for all three at once. It runs the generic engine (`search::SearchContext<double>`)
/// over the graph's arcs, so it keeps the engine's order (smallest f, then smallest h, then the node pushed
/// last) and its generation stamps: a new query starts in O(1) and, once the state has grown to the
/// largest graph seen, a query performs **no heap allocation** (the path is written into a caller-owned
/// `GraphPath` whose buffer is reused).
///
/// Heuristic. With `GraphHeuristic::Auto` and a graph with positions, h(n) = heuristic_scale() times the
/// straight-line distance from n to the nearest goal (the first kMaxHeuristicGoals goals; with more goals
/// h is 0). It is admissible and consistent, so A* returns optimal paths and never re-opens a node.
/// Without positions, or with `GraphHeuristic::Zero`, the search is Dijkstra's algorithm.
/// `weight` > 1 gives weighted A* (cost at most weight times the optimum).
///
/// Several sources and goals. The span overload of `begin` starts from every source (g = 0) and stops at
/// the nearest goal ("nearest of many"). With no goals it floods every node reachable from the sources and
/// ends with `NoPath`; `g(node)` is then the node's exact distance from the nearest source (a distance
/// field) and `parent(node)` a step back toward it. For distances *to* a target on a directed graph,
/// flood `graph.reversed()` from the target.
///
/// Statuses: `Found`; `NoPath` (no goal reachable, or a flood finished); `BudgetExhausted`
/// (options.budget ran out; `budget_limit()` says which limit); `InvalidQuery` (a node index out of range, no source, weight < 1 or not
/// finite). The graph must outlive the search and must not change between `begin` and `finish`.
///
/// Complexity: O((V + E) log V) per query. Memory: 32 bytes per node of the largest graph seen and 32
/// per open-list entry, about 40 bytes per node in practice (`memory_bytes()`; 4 more per node once a
/// query had several goals; after `reserve`, 68: room in the open list for every node), capped by the
/// budget's `max_memory_bytes`.
///
/// Thread-safety: one pathfinder per thread; any number may search the same const graph at once.

#include <gameplan/path/graph.hpp>
#include <gameplan/search/search_context.hpp>
#include <gameplan/status.hpp>

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace gameplan::path {

/// Which heuristic a graph search uses.
enum class GraphHeuristic : std::uint8_t {
    Auto,  ///< scaled straight-line distance when the graph has positions, else zero
    Zero,  ///< Dijkstra
};

/// How a graph query searches.
struct GraphSearchOptions {
    GraphHeuristic heuristic = GraphHeuristic::Auto;  ///< Auto = admissible distance heuristic; Zero = Dijkstra
    double weight = 1.0;                              ///< weighted A*: f = g + weight * h, weight >= 1
    /// Expansion, deadline and memory limits (whole search). The memory limit caps what the pathfinder
    /// holds (`GraphPathfinder::memory_bytes()`: the engine's per-node arrays and open list, the goal
    /// marks), checked before any of it grows; storage held from earlier queries counts.
    search::Budget budget{};
};

/// A path on a graph: node indices from start to goal inclusive, and its cost.
struct GraphPath {
    std::vector<GraphNode> nodes;  ///< start first, goal last; empty when no path was found
    double cost = 0.0;             ///< sum of the arc costs (0 for start == goal; +infinity when none)
};

/// Reusable A* / Dijkstra search over a Graph. See the file overview.
class GraphPathfinder {
public:
    /// Goals the heuristic takes into account (the minimum distance over them); beyond, h = 0.
    static constexpr std::size_t kMaxHeuristicGoals = 16;

    /// An empty pathfinder; it sizes itself on the first query (or `reserve`).
    GraphPathfinder() = default;

    /// Sizes the state for `graph` so that even the first query does not allocate (the open list with
    /// room for every node: 68 bytes per node in all). May throw bad_alloc.
    void reserve(const Graph& graph);

    /// Starts a search from `start` to `goal`. Returns `InProgress`, `InvalidQuery`, or `BudgetExhausted`
    /// (budget_limit() Memory: what the pathfinder holds, or would add for this graph, passes
    /// `options.budget.max_memory_bytes`; nothing is allocated then).
    Status begin(const Graph& graph, GraphNode start, GraphNode goal, const GraphSearchOptions& options = {});
    /// Starts a search from every node of `sources` to the nearest node of `goals`; with empty `goals` a
    /// flood (distance field). Returns as the single-goal form.
    Status begin(const Graph& graph, std::span<const GraphNode> sources, std::span<const GraphNode> goals,
                 const GraphSearchOptions& options = {});
    /// Expands at most `slice_expansions` nodes. Returns `InProgress` if the slice ran out first, else the
    /// final status (returned again by later calls).
    Status step(std::uint64_t slice_expansions = UINT64_MAX);
    /// Writes the path to the goal reached into `out` (cleared when there is none) and returns the status.
    /// Allocates only if `out.nodes` must grow.
    Status finish(GraphPath& out) const;
    /// begin + step + finish.
    Status find_path(const Graph& graph, GraphNode start, GraphNode goal, const GraphSearchOptions& options,
                     GraphPath& out);

    /// Status of the current search (`InProgress` until finished).
    [[nodiscard]] Status status() const noexcept { return m_status; }
    /// Counters of the current search.
    [[nodiscard]] const search::SearchStats& stats() const noexcept { return m_context.stats(); }
    /// Which limit of `options.budget` ended the search (`None` unless status() is `BudgetExhausted`).
    [[nodiscard]] search::BudgetLimit budget_limit() const noexcept {
        if (m_status != Status::BudgetExhausted) return search::BudgetLimit::None;
        return m_limit != search::BudgetLimit::None ? m_limit : m_context.budget_limit();
    }
    /// Bytes the pathfinder holds, as the memory budget counts them: the capacities of the engine's
    /// per-node arrays (28 bytes per node) and open list, and of the goal marks (4 bytes per node, once
    /// a query had several goals). Not the graph's.
    [[nodiscard]] std::size_t memory_bytes() const noexcept { return m_context.engine_bytes() + own_bytes(); }
    /// The goal reached (valid when status() == Found), else kNoGraphNode.
    [[nodiscard]] GraphNode goal_reached() const noexcept;
    /// Cost of the path found, or +infinity when none.
    [[nodiscard]] double cost() const noexcept;
    /// True if the current search generated `node` (open or closed). False out of range.
    [[nodiscard]] bool reached(GraphNode node) const noexcept;
    /// True if the current search expanded `node`: its g() is then exact (weight 1).
    [[nodiscard]] bool closed(GraphNode node) const noexcept;
    /// Best known cost from the nearest source, or +infinity if `node` was not reached.
    [[nodiscard]] double g(GraphNode node) const noexcept;
    /// The node before `node` on its best known route (itself for a source; kNoGraphNode if not reached).
    [[nodiscard]] GraphNode parent(GraphNode node) const noexcept;
    /// Writes the best known route from a source to `node` into `out` (empty if not reached).
    void path_to(GraphNode node, GraphPath& out) const;

private:
    // The graph as a search::SearchSpace for the engine.
    struct Space {
        const Graph* graph = nullptr;
        const GraphPathfinder* owner = nullptr;
        [[nodiscard]] std::size_t node_bound() const noexcept { return graph->node_count(); }
        [[nodiscard]] double heuristic(search::NodeIndex node) const noexcept { return owner->heuristic(node); }
        [[nodiscard]] bool is_goal(search::NodeIndex node) const noexcept { return owner->is_goal(node); }
        // The pathfinder's goal marks (and those begin is about to add), for the engine's memory budget.
        [[nodiscard]] std::size_t memory_bytes() const noexcept { return owner->own_bytes() + owner->m_pending_bytes; }
        template <class Sink>
        void expand(search::NodeIndex node, Sink&& sink) const {
            for (const GraphArc& a : graph->arcs(node)) sink(a.to, a.cost, 0u);
        }
    };
    [[nodiscard]] double heuristic(GraphNode node) const noexcept;
    [[nodiscard]] bool is_goal(GraphNode node) const noexcept;
    [[nodiscard]] std::size_t own_bytes() const noexcept { return m_goal_mark.capacity() * sizeof(std::uint32_t); }

    search::SearchContext<double> m_context;
    Space m_space{};
    std::vector<std::uint32_t> m_goal_mark;  // multi-goal marks (== m_goal_generation), sized on first use
    std::uint32_t m_goal_generation = 0;
    GraphNode m_goal = kNoGraphNode;  // the single goal; kNoGraphNode with several or none
    bool m_multi_goal = false;
    std::array<GraphPosition, kMaxHeuristicGoals> m_h_goals{};
    std::size_t m_h_goal_count = 0;
    double m_h_scale = 0.0;  // weight * heuristic_scale, 0 for Dijkstra
    std::size_t m_pending_bytes = 0;  // goal marks begin allocates once the engine has its arrays
    search::BudgetLimit m_limit = search::BudgetLimit::None;  // a limit begin ran into itself
    Status m_status = Status::NoPath;
};

/// Convenience: exact distances from the nearest of `sources` to every node (+infinity where
/// unreachable) into `out` (resized to node_count). Uses `finder`'s state; allocates only if `out` grows.
/// Returns `NoPath` (the flood finished), `BudgetExhausted`, or `InvalidQuery` (a bad source, no source).
Status distance_field(const Graph& graph, std::span<const GraphNode> sources, GraphPathfinder& finder,
                      std::vector<double>& out, const search::Budget& budget = {});

}  // namespace gameplan::path
