// Graph and GraphBuilder (path/graph.hpp).
#include <gameplan/path/graph.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace gameplan::path {

std::string_view describe(GraphError error) noexcept {
    switch (error) {
        case GraphError::None: return "ok";
        case GraphError::DuplicateId: return "duplicate node id";
        case GraphError::EmptyId: return "empty node id";
        case GraphError::UnknownNode: return "unknown node";
        case GraphError::InvalidCost: return "cost must be a finite number >= 0";
        case GraphError::InvalidPosition: return "coordinates must be finite numbers";
        case GraphError::NoPosition: return "an edge without a cost needs positions on both nodes";
        case GraphError::TooLarge: return "too many nodes or arcs";
    }
    return "unknown error";
}

GraphNode GraphBuilder::add(std::string_view id, GraphPosition p, bool has_position, GraphError* error) {
    const auto fail = [&](GraphError e) {
        if (error) *error = e;
        return kNoGraphNode;
    };
    if (id.empty()) return fail(GraphError::EmptyId);
    if (has_position && !(std::isfinite(p.x) && std::isfinite(p.y))) return fail(GraphError::InvalidPosition);
    if (m_ids.size() >= kMaxGraphSize) return fail(GraphError::TooLarge);
    const auto [it, inserted] = m_index.try_emplace(std::string(id), static_cast<GraphNode>(m_ids.size()));
    if (!inserted) return fail(GraphError::DuplicateId);
    m_ids.emplace_back(id);
    m_positions.push_back(has_position ? p : GraphPosition{});
    m_has_position.push_back(has_position ? 1 : 0);
    if (error) *error = GraphError::None;
    return it->second;
}

GraphNode GraphBuilder::add_node(std::string_view id, GraphError* error) { return add(id, {}, false, error); }

GraphNode GraphBuilder::add_node(std::string_view id, double x, double y, GraphError* error) {
    return add(id, GraphPosition{x, y}, true, error);
}

GraphError GraphBuilder::add_edge(GraphNode from, GraphNode to, double cost, bool undirected) {
    if (from >= m_ids.size() || to >= m_ids.size()) return GraphError::UnknownNode;
    if (!std::isfinite(cost) || cost < 0.0) return GraphError::InvalidCost;
    if (m_arcs.size() + (undirected ? 2 : 1) > kMaxGraphSize) return GraphError::TooLarge;
    m_arcs.push_back(Edge{from, to, cost});
    if (undirected) m_arcs.push_back(Edge{to, from, cost});
    return GraphError::None;
}

GraphError GraphBuilder::add_edge(GraphNode from, GraphNode to, bool undirected) {
    if (from >= m_ids.size() || to >= m_ids.size()) return GraphError::UnknownNode;
    if (!m_has_position[from] || !m_has_position[to]) return GraphError::NoPosition;
    const GraphPosition a = m_positions[from], b = m_positions[to];
    const double length = std::hypot(a.x - b.x, a.y - b.y);
    if (!std::isfinite(length)) return GraphError::InvalidCost;  // coordinates near the double range
    return add_edge(from, to, length, undirected);
}

GraphNode GraphBuilder::find(std::string_view id) const {
    const auto it = m_index.find(std::string(id));
    return it == m_index.end() ? kNoGraphNode : it->second;
}

Graph GraphBuilder::build() const {
    Graph g;
    const std::size_t n = m_ids.size();
    g.m_ids = m_ids;
    if (n == 0) return g;
    g.m_offsets.assign(n + 1, 0);
    for (const Edge& e : m_arcs) ++g.m_offsets[e.from + 1];
    for (std::size_t i = 0; i < n; ++i) g.m_offsets[i + 1] += g.m_offsets[i];
    g.m_arcs.resize(m_arcs.size());
    std::vector<std::uint32_t> next(g.m_offsets.begin(), g.m_offsets.end() - 1);
    for (const Edge& e : m_arcs) g.m_arcs[next[e.from]++] = GraphArc{e.to, e.cost};  // stable: insertion order
    if (std::all_of(m_has_position.begin(), m_has_position.end(), [](std::uint8_t h) { return h != 0; }))
        g.m_positions = m_positions;
    g.finish_build();
    return g;
}

void Graph::finish_build() {
    m_by_id.resize(m_ids.size());
    for (std::size_t i = 0; i < m_by_id.size(); ++i) m_by_id[i] = static_cast<GraphNode>(i);
    std::sort(m_by_id.begin(), m_by_id.end(), [&](GraphNode a, GraphNode b) { return m_ids[a] < m_ids[b]; });
    m_heuristic_scale = 0.0;
    if (m_positions.empty()) return;
    double scale = std::numeric_limits<double>::infinity();
    for (GraphNode u = 0; u < m_ids.size(); ++u)
        for (const GraphArc& a : arcs(u)) {
            const double length = std::hypot(m_positions[u].x - m_positions[a.to].x, m_positions[u].y - m_positions[a.to].y);
            if (!(length > 0.0)) continue;  // coincident positions: h is equal at both ends
            if (!std::isfinite(length)) {   // an astronomically long arc: no useful bound, stay exact
                scale = 0.0;
                continue;
            }
            scale = std::min(scale, a.cost / length);
        }
    // Rounding: scale * length may exceed cost by an ulp; shave a little so h never overestimates.
    m_heuristic_scale = std::isfinite(scale) ? scale * (1.0 - 1e-12) : 0.0;
}

GraphNode Graph::find(std::string_view id) const noexcept {
    const auto it = std::lower_bound(m_by_id.begin(), m_by_id.end(), id,
                                     [&](GraphNode n, std::string_view key) { return m_ids[n] < key; });
    return (it != m_by_id.end() && m_ids[*it] == id) ? *it : kNoGraphNode;
}

Graph Graph::reversed() const {
    Graph r;
    r.m_ids = m_ids;
    r.m_by_id = m_by_id;
    r.m_positions = m_positions;
    r.m_heuristic_scale = m_heuristic_scale;  // the same arcs, reversed: the same ratios
    const std::size_t n = m_ids.size();
    if (n == 0) return r;
    r.m_offsets.assign(n + 1, 0);
    for (const GraphArc& a : m_arcs) ++r.m_offsets[a.to + 1];
    for (std::size_t i = 0; i < n; ++i) r.m_offsets[i + 1] += r.m_offsets[i];
    r.m_arcs.resize(m_arcs.size());
    std::vector<std::uint32_t> next(r.m_offsets.begin(), r.m_offsets.end() - 1);
    for (GraphNode u = 0; u < n; ++u)
        for (const GraphArc& a : arcs(u)) r.m_arcs[next[a.to]++] = GraphArc{u, a.cost};
    return r;
}

std::size_t Graph::memory_bytes() const noexcept {
    std::size_t bytes = m_offsets.capacity() * sizeof(std::uint32_t) + m_arcs.capacity() * sizeof(GraphArc) +
                        m_by_id.capacity() * sizeof(GraphNode) + m_positions.capacity() * sizeof(GraphPosition) +
                        m_ids.capacity() * sizeof(std::string);
    for (const std::string& s : m_ids)
        if (s.capacity() > 15) bytes += s.capacity() + 1;
    return bytes;
}

}  // namespace gameplan::path
