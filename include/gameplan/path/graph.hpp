#pragma once
/// @file graph.hpp
/// A compact weighted directed graph (CSR) with named nodes and optional 2-D positions: region graphs
/// (which countries border which), designer-placed waypoints, road networks.
///
/// Overview
/// --------
/// `GraphBuilder` collects nodes (each with a unique string id and, optionally, a position) and edges
/// (directed arcs, or undirected edges stored as two arcs); `build()` packs them into an immutable
/// `Graph`: the arcs of node i are `arcs(i)`, contiguous in memory (compressed sparse rows), in the
/// order they were added. Nodes are dense indices 0..node_count()-1 in the order they were added;
/// `find(id)` maps an id back to its index.
///
/// Positions. When every node has a position, `heuristic_scale()` is the smallest ratio
/// cost / Euclidean length over all arcs between distinct positions, so scale * straight-line distance
/// never overestimates the cost of any route: A* on the graph (graph_search.hpp) uses it as an
/// admissible and consistent heuristic. It is 0 (plain Dijkstra) when some node has no position, when
/// an arc of positive length costs 0, or when there are no such arcs.
///
/// Costs are finite doubles >= 0. The builder refuses anything else, an unknown node index and a
/// duplicate id with a `GraphError`; it never throws except std::bad_alloc. (The file loaders in
/// io/graph_io.hpp turn those into `io::LoadError`s naming the place in the file.)
///
/// Memory: 16 bytes per arc, 4 bytes per node for the offsets, 16 for a position, plus the ids.
///
/// Thread-safety: a `Graph` is immutable; any number of threads may search the same graph at once.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace gameplan::path {

/// Index of a node in a Graph: 0..node_count()-1.
using GraphNode = std::uint32_t;
/// "No node": returned by `find` for an unknown id and by the builder on failure.
inline constexpr GraphNode kNoGraphNode = UINT32_MAX;
/// Largest number of nodes (and of arcs) a graph may hold.
inline constexpr std::size_t kMaxGraphSize = std::size_t{1} << 30;

/// A point in the plane (any unit; the heuristic only needs the costs to be comparable to lengths
/// through heuristic_scale()).
struct GraphPosition {
    double x = 0.0;
    double y = 0.0;
    friend bool operator==(const GraphPosition&, const GraphPosition&) = default;
};

/// One directed arc: the node it leads to and the cost of taking it.
struct GraphArc {
    GraphNode to = kNoGraphNode;
    double cost = 0.0;
};

/// Why the builder refused a node or an edge.
enum class GraphError : std::uint8_t {
    None,             ///< accepted
    DuplicateId,      ///< a node with this id exists already
    EmptyId,          ///< node ids must not be empty
    UnknownNode,      ///< an edge names a node index that does not exist
    InvalidCost,      ///< a cost that is negative, NaN or infinite
    InvalidPosition,  ///< a coordinate that is NaN or infinite
    NoPosition,       ///< an edge without a cost needs both ends to have positions
    TooLarge,         ///< more than kMaxGraphSize nodes or arcs
};
/// A short English description ("duplicate node id", ...).
[[nodiscard]] std::string_view describe(GraphError error) noexcept;

class Graph;

/// Collects nodes and edges, then builds an immutable Graph. See the file overview.
class GraphBuilder {
public:
    /// Adds a node without a position. Returns its index, or kNoGraphNode (and sets `error` when
    /// given) for an empty or duplicate id or too many nodes. O(1) expected.
    GraphNode add_node(std::string_view id, GraphError* error = nullptr);
    /// Adds a node at (x, y). Fails like the overload above, and for a non-finite coordinate.
    GraphNode add_node(std::string_view id, double x, double y, GraphError* error = nullptr);
    /// Adds an arc from -> to with `cost` (finite, >= 0); with `undirected` also to -> from. Self-loops
    /// and parallel arcs are kept (they never shorten a path). Nothing is added on failure.
    [[nodiscard]] GraphError add_edge(GraphNode from, GraphNode to, double cost, bool undirected = false);
    /// Adds an edge whose cost is the Euclidean distance between the two nodes' positions (both must
    /// have one: `NoPosition` otherwise).
    [[nodiscard]] GraphError add_edge(GraphNode from, GraphNode to, bool undirected = false);
    /// Index of the node named `id`, or kNoGraphNode.
    [[nodiscard]] GraphNode find(std::string_view id) const;
    /// Nodes added so far.
    [[nodiscard]] std::size_t node_count() const noexcept { return m_ids.size(); }
    /// Arcs added so far (an undirected edge counts two).
    [[nodiscard]] std::size_t arc_count() const noexcept { return m_arcs.size(); }
    /// True if node `node` was given a position.
    [[nodiscard]] bool has_position(GraphNode node) const noexcept {
        return node < m_has_position.size() && m_has_position[node] != 0;
    }
    /// Builds the graph (O(nodes + arcs)). The builder keeps its contents and can build again.
    [[nodiscard]] Graph build() const;

private:
    struct Edge {
        GraphNode from;
        GraphNode to;
        double cost;
    };
    GraphNode add(std::string_view id, GraphPosition p, bool has_position, GraphError* error);
    std::vector<std::string> m_ids;
    std::vector<GraphPosition> m_positions;
    std::vector<std::uint8_t> m_has_position;
    std::unordered_map<std::string, GraphNode> m_index;
    std::vector<Edge> m_arcs;
};

/// An immutable weighted directed graph in compressed sparse rows. See the file overview. Copyable and
/// movable; every const member function is thread-safe.
class Graph {
public:
    /// An empty graph (no nodes).
    Graph() = default;

    /// Number of nodes.
    [[nodiscard]] std::size_t node_count() const noexcept { return m_ids.size(); }
    /// Number of directed arcs (an undirected edge counts two).
    [[nodiscard]] std::size_t arc_count() const noexcept { return m_arcs.size(); }
    /// True if `node` is a valid index.
    [[nodiscard]] bool contains(GraphNode node) const noexcept { return node < m_ids.size(); }
    /// The arcs leaving `node`, in the order they were added. Precondition: contains(node). O(1).
    [[nodiscard]] std::span<const GraphArc> arcs(GraphNode node) const noexcept {
        return {m_arcs.data() + m_offsets[node], m_arcs.data() + m_offsets[node + 1]};
    }
    /// The id of `node`. Precondition: contains(node).
    [[nodiscard]] const std::string& id(GraphNode node) const noexcept { return m_ids[node]; }
    /// Index of the node named `id`, or kNoGraphNode. O(log nodes).
    [[nodiscard]] GraphNode find(std::string_view id) const noexcept;
    /// True if every node has a position (an empty graph has none).
    [[nodiscard]] bool has_positions() const noexcept { return !m_positions.empty(); }
    /// Position of `node`. Precondition: has_positions() and contains(node).
    [[nodiscard]] GraphPosition position(GraphNode node) const noexcept { return m_positions[node]; }
    /// Smallest cost / length over arcs between distinct positions (see the overview); 0 without positions.
    [[nodiscard]] double heuristic_scale() const noexcept { return m_heuristic_scale; }
    /// The same nodes with every arc reversed: a search on it from a target gives every node's cost *to*
    /// that target (a distance field toward a goal on a directed graph). O(nodes + arcs).
    [[nodiscard]] Graph reversed() const;
    /// Approximate bytes held (arcs, offsets, positions, ids).
    [[nodiscard]] std::size_t memory_bytes() const noexcept;

private:
    friend class GraphBuilder;
    void finish_build();  // sorts the id index and computes the heuristic scale

    std::vector<std::uint32_t> m_offsets;  // node_count + 1 entries (empty for an empty graph)
    std::vector<GraphArc> m_arcs;
    std::vector<std::string> m_ids;
    std::vector<GraphNode> m_by_id;  // node indices sorted by id, for find
    std::vector<GraphPosition> m_positions;  // empty unless every node has one
    double m_heuristic_scale = 0.0;
};

}  // namespace gameplan::path
