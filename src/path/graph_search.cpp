// GraphPathfinder (path/graph_search.hpp): the generic engine over a Graph's arcs.
#include <gameplan/path/graph_search.hpp>

#include "exact_growth.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace gameplan::path {

namespace {
constexpr double kInfinity = std::numeric_limits<double>::infinity();

using detail::grow_exactly;
using detail::growth_bytes;
}  // namespace

void GraphPathfinder::reserve(const Graph& graph) {
    m_context.reserve(graph.node_count(), graph.node_count());
    grow_exactly(m_goal_mark, graph.node_count());
}

Status GraphPathfinder::begin(const Graph& graph, GraphNode start, GraphNode goal, const GraphSearchOptions& options) {
    return begin(graph, std::span<const GraphNode>(&start, 1), std::span<const GraphNode>(&goal, 1), options);
}

Status GraphPathfinder::begin(const Graph& graph, std::span<const GraphNode> sources, std::span<const GraphNode> goals,
                              const GraphSearchOptions& options) {
    m_space = Space{&graph, this};
    m_goal = kNoGraphNode;
    m_multi_goal = false;
    m_h_goal_count = 0;
    m_h_scale = 0.0;
    m_pending_bytes = 0;
    m_limit = search::BudgetLimit::None;
    const std::size_t max_bytes = options.budget.max_memory_bytes;
    // Forget the previous search (its stamps); the engine grows its arrays for the graph only as far as
    // `grow_to` bytes allow.
    const auto stop = [&](Status status, std::size_t grow_to) {
        search::Budget forget;
        forget.max_memory_bytes = grow_to;
        m_context.begin(m_space, std::span<const search::NodeIndex>{}, std::span<const double>{}, forget);
        return m_status = status;
    };
    if (sources.empty() || !std::isfinite(options.weight) || options.weight < 1.0)
        return stop(Status::InvalidQuery, max_bytes);
    for (const GraphNode s : sources)
        if (!graph.contains(s)) return stop(Status::InvalidQuery, max_bytes);
    for (const GraphNode t : goals)
        if (!graph.contains(t)) return stop(Status::InvalidQuery, max_bytes);

    // The memory budget: what the pathfinder holds plus the goal marks this query adds must fit, else
    // nothing is allocated. The engine checks its own growth, counting the goal marks still to come
    // (m_pending_bytes, reported through Space::memory_bytes).
    const std::size_t mark_bytes = goals.size() > 1 ? growth_bytes(m_goal_mark, graph.node_count()) : 0;
    if (max_bytes != SIZE_MAX) {
        const std::size_t held = memory_bytes();
        if (detail::passes_budget(held, mark_bytes, max_bytes)) {
            m_limit = search::BudgetLimit::Memory;
            return stop(Status::BudgetExhausted, 0);
        }
    }
    if (options.heuristic == GraphHeuristic::Auto && graph.has_positions() && !goals.empty() &&
        goals.size() <= kMaxHeuristicGoals && graph.heuristic_scale() > 0.0) {
        m_h_scale = options.weight * graph.heuristic_scale();
        for (const GraphNode t : goals) m_h_goals[m_h_goal_count++] = graph.position(t);
    }
    m_pending_bytes = mark_bytes;
    m_context.begin(m_space, std::span<const search::NodeIndex>(sources.data(), sources.size()),
                    std::span<const double>{}, options.budget);
    m_pending_bytes = 0;
    if (m_context.status() == Status::BudgetExhausted) return m_status = Status::BudgetExhausted;  // engine: Memory
    if (goals.size() == 1) {
        m_goal = goals[0];
    } else if (goals.size() > 1) {
        m_multi_goal = true;
        grow_exactly(m_goal_mark, graph.node_count());
        search::advance_generation(m_goal_generation, [&] { std::fill(m_goal_mark.begin(), m_goal_mark.end(), 0u); });
        for (const GraphNode t : goals) m_goal_mark[t] = m_goal_generation;
    }
    m_status = Status::InProgress;
    return m_status;
}

double GraphPathfinder::heuristic(GraphNode node) const noexcept {
    if (m_h_goal_count == 0) return 0.0;
    const GraphPosition p = m_space.graph->position(node);
    double best = kInfinity;
    for (std::size_t i = 0; i < m_h_goal_count; ++i)
        best = std::min(best, std::hypot(p.x - m_h_goals[i].x, p.y - m_h_goals[i].y));
    const double h = m_h_scale * best;
    return std::isfinite(h) ? h : 0.0;
}

bool GraphPathfinder::is_goal(GraphNode node) const noexcept {
    if (m_multi_goal) return m_goal_mark[node] == m_goal_generation;
    return node == m_goal;
}

Status GraphPathfinder::step(std::uint64_t slice_expansions) {
    if (m_status != Status::InProgress) return m_status;
    m_status = m_context.step(m_space, slice_expansions);
    return m_status;
}

Status GraphPathfinder::finish(GraphPath& out) const {
    out.nodes.clear();
    out.cost = kInfinity;
    if (m_status != Status::Found) return m_status;
    path_to(m_context.goal(), out);
    return m_status;
}

Status GraphPathfinder::find_path(const Graph& graph, GraphNode start, GraphNode goal, const GraphSearchOptions& options,
                                  GraphPath& out) {
    if (begin(graph, start, goal, options) == Status::InProgress) (void)step();
    return finish(out);
}

GraphNode GraphPathfinder::goal_reached() const noexcept {
    return m_status == Status::Found ? m_context.goal() : kNoGraphNode;
}

double GraphPathfinder::cost() const noexcept { return m_status == Status::Found ? m_context.g(m_context.goal()) : kInfinity; }

bool GraphPathfinder::reached(GraphNode node) const noexcept {
    return m_space.graph && m_space.graph->contains(node) && m_context.reached(node);
}

bool GraphPathfinder::closed(GraphNode node) const noexcept {
    return m_space.graph && m_space.graph->contains(node) && m_context.closed(node);
}

double GraphPathfinder::g(GraphNode node) const noexcept { return reached(node) ? m_context.g(node) : kInfinity; }

GraphNode GraphPathfinder::parent(GraphNode node) const noexcept {
    if (!reached(node)) return kNoGraphNode;
    const search::NodeIndex p = m_context.parent(node);
    return p == search::kNoNode ? node : p;
}

void GraphPathfinder::path_to(GraphNode node, GraphPath& out) const {
    out.nodes.clear();
    out.cost = kInfinity;
    if (!reached(node)) return;
    m_context.path_to(node, out.nodes);
    out.cost = m_context.g(node);
}

Status distance_field(const Graph& graph, std::span<const GraphNode> sources, GraphPathfinder& finder,
                      std::vector<double>& out, const search::Budget& budget) {
    GraphSearchOptions options;
    options.heuristic = GraphHeuristic::Zero;
    options.budget = budget;
    out.assign(graph.node_count(), kInfinity);
    Status status = finder.begin(graph, sources, {}, options);
    if (status == Status::InProgress) status = finder.step();
    if (status == Status::InvalidQuery) return status;
    for (GraphNode n = 0; n < graph.node_count(); ++n)
        if (finder.closed(n)) out[n] = finder.g(n);
    return status;
}

}  // namespace gameplan::path
