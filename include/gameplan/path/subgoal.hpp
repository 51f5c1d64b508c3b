#pragma once
/// @file subgoal.hpp
/// A preprocessed, exactly optimal tier for static grid maps: subgoal graphs with a contraction hierarchy
/// (`SubgoalGraph`, `SubgoalPathfinder`). User guide: docs/subgoal.md.
///
/// Overview
/// --------
/// Subgoal graphs (Uras, Koenig and Hernandez, "Subgoal Graphs for Optimal Pathfinding in Eight-Neighbor
/// Grids", ICAPS 2013) place a *subgoal* at every convex corner of the obstacles: a passable cell with a
/// blocked diagonal neighbour whose two cells beside it are passable. Every shortest path bends only at
/// such corners, and between two consecutive bends it is an octile-freespace path ("k diagonal steps and
/// m straight steps", octile length). The graph links two subgoals when one is *direct-h-reachable*
/// from the other: an octile-length path exists between them, found by a sweep that stops at the first
/// subgoal in each direction. Distances in that graph equal grid distances between subgoals.
///
/// Preprocessing (`SubgoalGraph::build`): the subgoals; per cell and direction the number of free steps
/// before the next wall or subgoal (the *clearance*, read by the sweep); the graph's edges; eight
/// *landmarks* (subgoals chosen farthest first) with every subgoal's grid distance from each; a
/// contraction hierarchy over the graph (Geisberger et al. 2008: subgoals contracted in the order of a
/// lazily updated edge difference, a shortcut added unless a bounded witness search finds a path at most
/// as long, so distances stay exact), stored as each subgoal's upward edges; and per passable cell the
/// subgoals its sweep reaches (its *joins*).
///
/// Query (`SubgoalPathfinder`): a goal in octile freespace of the start (the sweep from either end,
/// counting the other end as a subgoal, reaches it; only the one ray that can is followed) is answered
/// without search. Otherwise each end is joined to the graph through its precomputed joins, and a
/// bidirectional search climbs the hierarchy from both ends. Each side is ordered by distance plus a
/// lower bound of the distance to the other end: the larger of the octile distance and the landmark
/// (ALT, Goldberg and Harrelson 2005) bounds |d(L, x) - d(L, end)|, the end's landmark distances taken
/// from its joins (landmark distances are stored as floats, the bounds computed in float arithmetic and
/// lowered by more than their rounding, `landmark_slack()`). Both are lower bounds, so a node whose key
/// reaches the best meeting cost is never opened and a side stops when its smallest key does; before
/// the sides meet, keys are also cut at an upper bound of the optimum from the landmarks (the least
/// d(start, L) + d(L, goal), raised by the slack so that it exceeds the optimum). A node's edges are
/// relaxed 16 at a time, the tests (improves its node, key below the cut) computed for all of them
/// without a branch, then the kept ones applied. A settled node that still improves (the rounded
/// bounds are consistent only up to their slack) is opened again. Every upward edge is unpacked at
/// build into its subgoal-graph edges, and each is written in the order of its steps that is free
/// (diagonal steps first or straight steps first; a join as its sweep found it). The cost is exactly the
/// optimal octile cost; the path is one of the optimal paths, written as `GridSearchOptions::detail`
/// asks: every cell, waypoints (the subgoals and turning cells), or the cost only (no unpacking).
///
/// Transit-node routing (Bast, Funke, Sanders and Schultes 2007; on a contraction hierarchy as Arz, Luxen
/// and Sanders 2013): the top transit_count() subgoals (ids 0 .. t - 1, closed upward) are transit nodes.
/// build() stores the distances between all pairs of them (Dijkstra over their upward edges, both ways:
/// their up-down shortest paths stay among them; each exact, as its numbers of straight and diagonal
/// steps in 4 bytes) with each path's first hop, and per passable cell its
/// access nodes (the transit nodes its complete upward search reaches without expanding one, minus those
/// another access node and the table dominate) with exact lengths as numbers of straight and diagonal
/// steps, and the tops of that search space (its subgoals whose upward edges all lead to transit nodes).
/// A query that is not in freespace takes the least d(s, a) + D(a, b) + d(b, g) over the ends' access
/// nodes (reading only the pairs that octile lower bounds leave in play); when the ends share no top, the optimal up-down path's top is a transit node and that is the
/// answer (also when it equals the octile distance); otherwise the bidirectional search runs with it as
/// the best cost known and never enters a transit node. A table answer is unpacked through each cell
/// access entry's join hint (the index of the join it came through, modulo 16), the climb link of each
/// subgoal access entry (its upward edge and the entry it extends: one read per level) and the table's
/// first hops (stored by destination); the two climbs and the hops are walked in step, and the route is
/// written into the path as it is unpacked, each run of steps in one direction once. By default t is the largest power of two up to
/// 512 with t^2 at most twice the padded cells, and the tables are kept only within
/// kTransitBytesPerCell per padded cell (and the memory budget); without them every query searches.
///
/// Supported queries: those of JPS (jps.hpp): `Movement::Eight`, `DiagonalRule::NoCornerCutting` (the
/// MovingAI / GPPC rules), uniform costs; anything else returns `Status::InvalidQuery`. The heuristic and
/// weight of `GridSearchOptions` are accepted (a weight must be finite and >= 1) and do not change the
/// answer, which is always optimal. Per-query costs and filters (`penalties`, `layers`, `areas`,
/// `filter`) return `InvalidQuery`, as they do for JPS: the graph's edges skip the cells they would
/// price. `islands` answer a query between islands with `NoPath` (begin on the map); `dead_ends` are
/// ignored.
///
/// Budget (`GridSearchOptions::budget`, whole search; `SubgoalPathfinder::budget_limit()` says which
/// limit ended it): `max_expansions` counts hierarchy nodes settled (a table answer counts one), a
/// deadline is checked every 64 of them; `max_memory_bytes` caps the query's storage,
/// `SubgoalPathfinder::memory_bytes()`: the per-subgoal search state, the two heaps, the per-join and
/// per-access-node scratch, the route scratch and the online JPS fallback's search state (see "Memory"
/// below). `begin` checks what the pathfinder holds plus the arrays a graph needs before allocating them
/// and, over the budget, allocates nothing and returns `BudgetExhausted` (storage held from `build` or
/// earlier queries on a larger graph counts: a pathfinder that already holds more stops at once, even
/// for a query the graph would answer without search); a heap grows only within the budget, else the
/// search stops before its next expansion; the fallback gets what the rest leaves. Not counted: the
/// graph, owned or shared (`graph().memory_bytes()`, its own budget is `build`'s `max_memory_bytes`),
/// and the fallback's snapshot of the map (about 1.25 bytes per cell once used; see jps.hpp): they are
/// preprocessing the query reads, as the jump table of JPS+ is, not the query's storage. The route
/// scratch finish() writes is reserved for 256 upward edges per part at sizing; with a memory limit, a
/// search that finds a longer route reserves it before it reports `Found`, within the budget (else it
/// ends with Memory), so finish() never grows it.
///
/// Cell changes: the graph is a snapshot of the map at `build`. `SubgoalPathfinder::begin(map, ...)` on a
/// map whose version (or identity or size) differs from the snapshot answers with online JPS instead
/// (exactly optimal too, counted by `fallback_count()`), until `build(map)` is called again. A game
/// that changes cells rarely calls `build` after a batch of changes (0.1 to 25 s of CPU for a
/// 512 x 512 map; see docs/benchmarks.md); queries stay correct in between.
///
/// Memory: per padded cell 1 byte of passability, 4 of subgoal id, 16 of clearances and 4 of join offset,
/// plus 2 bytes per join (4 with more than 65,536 subgoals; about 15 joins per cell on dungeon maps, 60 on
/// open ones); per upward edge 24 bytes, plus 4 per subgoal-graph edge it unpacks to (about 1.5 to 2.5 of
/// them); per subgoal about 50 (cell, rank, offsets, landmark distances); the transit-node tables: 8
/// bytes per pair of transit nodes, 8 per padded cell, 4.5 per access node (its entry and a 4-bit join
/// hint) and 2 per top of each passable cell, 12 per access entry of each subgoal below them (its entry
/// and its climb link); each pathfinder's search state (its memory_bytes()) is 32 bytes per subgoal plus
/// its two heaps (16 bytes per entry, each reserved for up to 16,384), 16 bytes per join of the cell
/// with the most joins, 36 per access node of the cell with the most and about 10 KB of route scratch.
///
/// Thread-safety: a built graph is read-only during searches, so many pathfinders (one per thread) may
/// search one const graph at once (`begin(const SubgoalGraph&, ...)`). `build` must not overlap a search.

#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/grid_rules.hpp>
#include <gameplan/path/grid_search.hpp>
#include <gameplan/path/jps.hpp>
#include <gameplan/search/indexed_heap.hpp>
#include <gameplan/search/search_context.hpp>
#include <gameplan/status.hpp>

#include <chrono>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <vector>

namespace gameplan::path {

/// A simple subgoal graph of a map (see the file overview).
class SubgoalGraph {
public:
    SubgoalGraph() = default;

    /// Builds the graph for `map`. Returns `JpsSupport::Ok`; `EmptyMap` (nothing is built); `TerrainCosts`
    /// (nothing is built: searches need uniform costs); `MemoryBudget`: the graph would hold more than
    /// `max_memory_bytes` (checked as each part grows: cell tables, edge list, hierarchy, joins; the joins
    /// are also capped at 2^32 - 1 entries), and nothing is built (the buffers are released); or
    /// `TimeBudget`: the build was still running at `deadline` (the clock is read every 64 subgoals
    /// contracted or cells swept), and nothing is built. O(cells + edges) plus the contraction (bounded
    /// witness searches, which grows faster than the map on dense noise: 0.1 to 25 s of CPU for the
    /// 512 x 512 maps of docs/benchmarks.md); allocates (may throw std::bad_alloc); reuses its buffers when
    /// rebuilt.
    JpsSupport build(const GridMap& map, std::size_t max_memory_bytes = SIZE_MAX, std::uint32_t transit_nodes = kAutoTransit,
                     std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max());

    /// `build`'s default number of transit nodes: chosen by the graph (see transit_count()).
    static constexpr std::uint32_t kAutoTransit = UINT32_MAX;
    /// With kAutoTransit, the transit-node tables are built only if they take at most this many bytes per
    /// padded cell.
    static constexpr std::size_t kTransitBytesPerCell = 128;

    /// True if the graph is built and in step with `map` (same map object, same size, same version). O(1).
    [[nodiscard]] bool in_sync(const GridMap& map) const noexcept;
    /// True once build() built a graph.
    [[nodiscard]] bool built() const noexcept { return m_built; }
    /// The map version the graph reflects.
    [[nodiscard]] std::uint64_t map_version() const noexcept { return m_version; }
    /// Width of the map the graph was built from.
    [[nodiscard]] std::int32_t width() const noexcept { return m_width; }
    /// Height of the map the graph was built from.
    [[nodiscard]] std::int32_t height() const noexcept { return m_height; }
    /// Passability of a cell in the graph's snapshot (false off the map).
    [[nodiscard]] bool passable(GridPoint p) const noexcept;
    /// True if cell `p` is a subgoal.
    [[nodiscard]] bool is_subgoal(GridPoint p) const noexcept;
    /// Number of subgoals (graph nodes). Ids run from the top of the hierarchy down (id = count - 1 - rank).
    [[nodiscard]] std::size_t subgoal_count() const noexcept { return m_subgoal_node.size(); }
    /// Number of undirected edges of the subgoal graph (direct-h-reachable pairs).
    [[nodiscard]] std::size_t edge_count() const noexcept { return m_edge_count; }
    /// Number of shortcuts the contraction added.
    [[nodiscard]] std::size_t shortcut_count() const noexcept { return m_shortcut_count; }
    /// The cell of subgoal `id` (< subgoal_count()).
    [[nodiscard]] GridPoint subgoal(std::uint32_t id) const noexcept {
        const std::uint32_t xy = m_subgoal_xy[id];
        return GridPoint{static_cast<std::int32_t>(xy & 0xffffu), static_cast<std::int32_t>(xy >> 16)};
    }
    /// The cell of subgoal `id` packed as x | y << 16.
    [[nodiscard]] std::uint32_t subgoal_xy(std::uint32_t id) const noexcept { return m_subgoal_xy[id]; }
    /// Number of landmarks of the query's lower bounds (at most kLandmarks; 0 without subgoals).
    static constexpr int kLandmarks = 8;
    [[nodiscard]] int landmark_count() const noexcept { return m_landmark_count; }
    /// Grid distances from the landmarks to subgoal `id` (kLandmarks entries, the first landmark_count()
    /// meaningful; +infinity when unreachable), rounded to float: each well within landmark_slack() of
    /// the exact distance.
    [[nodiscard]] const float* landmark_distances(std::uint32_t id) const noexcept {
        return m_landmark_dist.data() + m_landmark_base + std::size_t{id} * kLandmarks;
    }
    /// How much the query lowers its landmark bounds against the rounding of landmark_distances() and of
    /// its float arithmetic: 2^-20 times the larger of the longest landmark distance and the octile
    /// length of the map's diagonal (more than twice the worst rounding).
    [[nodiscard]] double landmark_slack() const noexcept { return m_landmark_slack; }
    /// Bytes held by the graph (snapshot, clearances, ids, edges, transit-node tables).
    [[nodiscard]] std::size_t memory_bytes() const noexcept;
    /// Bytes of the transit-node tables alone (0 without them).
    [[nodiscard]] std::size_t transit_bytes() const noexcept;

    // Transit-node routing (see the file overview).
    /// An access node of a cell (or of a subgoal below the transit nodes): a transit node's position and
    /// the exact length of the path to it, as its numbers of straight and diagonal steps.
    struct Access {
        std::uint32_t bits;  // node | straight << 10 | diagonal << 21
        static constexpr std::uint32_t kMaxNodes = 1024;  // node < kMaxNodes
        static constexpr std::uint32_t kMaxSteps = 2047;  // straight, diagonal <= kMaxSteps
        [[nodiscard]] std::uint32_t node() const noexcept { return bits & 0x3ffu; }
        [[nodiscard]] std::uint32_t straight() const noexcept { return (bits >> 10) & 0x7ffu; }
        [[nodiscard]] std::uint32_t diagonal() const noexcept { return bits >> 21; }
    };
    /// Number of transit nodes (subgoal ids 0 .. transit_count() - 1, the top of the hierarchy); 0 when
    /// the graph has no transit-node tables.
    [[nodiscard]] std::uint32_t transit_count() const noexcept { return m_transit; }
    /// The table and the access lists index transit nodes by *position* (their order along a Hilbert
    /// curve over the map, so that nearby transit nodes share cache lines): the subgoal id at a position,
    /// and the position of a transit node's id (< transit_count()).
    [[nodiscard]] std::uint32_t transit_id(std::uint32_t position) const noexcept { return m_transit_id[position]; }
    [[nodiscard]] std::uint32_t transit_position(std::uint32_t id) const noexcept { return m_transit_position[id]; }
    /// The cell of the transit node at `position`, packed as x | y << 16 (subgoal_xy(transit_id(position))).
    [[nodiscard]] std::uint32_t transit_xy(std::uint32_t position) const noexcept { return m_transit_xy[position]; }
    /// Grid distance between the transit nodes at positions `a` and `b` (+infinity when unreachable).
    [[nodiscard]] double transit_distance(std::uint32_t a, std::uint32_t b) const noexcept {
        const std::uint32_t entry = m_table[std::size_t{a} * m_transit + b];
        return entry == kTableUnreachable ? std::numeric_limits<double>::infinity() : table_length(entry);
    }
    /// The row of transit_distance(a, ...) as table entries: the exact length of each shortest path as
    /// its numbers of straight and diagonal steps, straight | diagonal << 16 (table_length()), or
    /// kTableUnreachable. The tables are built only when every finite entry has at most kTableMaxSteps
    /// of each.
    [[nodiscard]] const std::uint32_t* transit_row(std::uint32_t a) const noexcept { return m_table.data() + std::size_t{a} * m_transit; }
    static constexpr std::uint32_t kTableMaxSteps = 0x7fff;
    static constexpr std::uint32_t kTableUnreachable = UINT32_MAX;
    /// The length of a table entry: straight + sqrt(2) diagonal, exactly as a double computes it.
    /// kTableUnreachable gives a finite length larger than any finite entry plus two access lengths
    /// (65535 (1 + sqrt(2)) against at most (kTableMaxSteps + 2 Access::kMaxSteps) (1 + sqrt(2))).
    [[nodiscard]] static double table_length(std::uint32_t entry) noexcept {
        return static_cast<double>(entry & 0xffffu) + kDiagonalStep * static_cast<double>(entry >> 16);
    }
    /// table_length(kTableUnreachable): a sum of an entry and two access lengths at least this large is
    /// through an unreachable pair.
    static constexpr double kTableUnreachableLength = 65535.0 + kDiagonalStep * 65535.0;
    /// The first hop of a shortest path from the transit node at position `a` to the one at `b` through
    /// transit nodes (a != b): an upward edge's index << 11, plus the position of the hop's far end << 1,
    /// plus 1 when the edge is the upward edge of the far end (walked down) rather than of `a`. (The
    /// tables are built only with fewer than kHopEdges upward edges.)
    /// (Stored by destination: the hops of one route towards `b` share a row.)
    [[nodiscard]] std::uint32_t transit_hop(std::uint32_t a, std::uint32_t b) const noexcept {
        return m_table_next[std::size_t{b} * m_transit + a];
    }
    /// The address of transit_hop(a, b), for a cache hint.
    [[nodiscard]] const std::uint32_t* transit_hop_address(std::uint32_t a, std::uint32_t b) const noexcept {
        return m_table_next.data() + std::size_t{b} * m_transit + a;
    }
    static constexpr std::uint32_t kHopEdges = 1u << 21;
    /// The access nodes of the passable cell `node` (a padded node index), ordered by node.
    [[nodiscard]] std::span<const Access> access(std::uint32_t node) const noexcept {
        if (m_transit == 0) return {};
        return {m_cell_access.data() + m_cell_access_offsets[node], m_cell_access.data() + m_cell_access_offsets[node + 1]};
    }
    /// Which join of the passable cell `node` its access entry `i` (an index into access(node)) was reached
    /// through, as a hint: the join's index among joins(node) modulo kJoinHintModulus (4 bits per entry).
    [[nodiscard]] std::uint32_t access_join_hint(std::uint32_t node, std::size_t i) const noexcept {
        const std::size_t e = m_cell_access_offsets[node] + i;
        return (m_cell_join_hint[e >> 1] >> ((e & 1) * 4)) & 15u;
    }
    static constexpr std::uint32_t kJoinHintModulus = 16;
    /// How an access entry of a subgoal below the transit nodes was reached, one link of the climb that
    /// unpacks a table answer: the upward edge its path takes first (an index into the CSR of up_edges(),
    /// as up_edge_begin()) and the entry of that edge's target it extends (an index into all subgoals'
    /// access entries, as subgoal_access_begin()), or kNoEntry when the target is a transit node.
    struct ClimbLink {
        std::uint32_t edge = 0;
        std::uint32_t next = 0;
    };
    static constexpr std::uint32_t kNoEntry = UINT32_MAX;
    /// The index of the first access entry of subgoal `id` >= transit_count() among all subgoals' entries.
    [[nodiscard]] std::uint32_t subgoal_access_begin(std::uint32_t id) const noexcept { return m_sub_access_offsets[id - m_transit]; }
    /// The link of access entry `entry` (an index among all subgoals' entries): one read per level.
    [[nodiscard]] ClimbLink climb_link(std::uint32_t entry) const noexcept { return m_sub_climb[entry]; }
    /// The largest number of access nodes of a cell.
    [[nodiscard]] std::uint32_t max_access() const noexcept { return m_max_access; }
    /// The access nodes of subgoal `id` >= transit_count() (its upward search up to the transit nodes), ordered
    /// by node.
    [[nodiscard]] std::span<const Access> subgoal_access(std::uint32_t id) const noexcept {
        const std::size_t i = id - m_transit;
        return {m_sub_access.data() + m_sub_access_offsets[i], m_sub_access.data() + m_sub_access_offsets[i + 1]};
    }
    /// Asks the cache for the transit-node data of the passable cell `node` (its access nodes, their join
    /// hints and its tops) ahead of access() and transit_local(); reads only their offsets.
    void prefetch_transit(std::uint32_t node) const noexcept;
    /// Asks the cache for the records of cell `p` that a query reads first: its passability, clearances
    /// and the offsets of its joins, access nodes and tops. Reads nothing; nothing for a cell off the map.
    void prefetch_cell(GridPoint p) const noexcept;
    /// Asks the cache for the joins of the passable cell `node` (a padded node index); reads their offsets.
    void prefetch_joins(std::uint32_t node) const noexcept;
    /// True if the upward search spaces below the transit nodes of cells `a` and `b` (padded node
    /// indices) share a subgoal (they share a top, see top_count()): the table alone cannot answer the
    /// query. True without transit nodes.
    [[nodiscard]] bool transit_local(std::uint32_t a, std::uint32_t b) const noexcept {
        if (m_transit == 0) return true;
        const std::uint16_t* x = m_cell_top.data() + m_cell_top_offsets[a];
        const std::uint16_t* const x_end = m_cell_top.data() + m_cell_top_offsets[a + 1];
        const std::uint16_t* y = m_cell_top.data() + m_cell_top_offsets[b];
        const std::uint16_t* const y_end = m_cell_top.data() + m_cell_top_offsets[b + 1];
        while (x != x_end && y != y_end) {
            if (*x == *y) return true;
            const bool less = *x < *y;
            x += less;
            y += !less;
        }
        return false;
    }
    /// Number of tops of cell `node` (padded node index): the subgoals below the transit nodes at the top
    /// of its upward search space.
    [[nodiscard]] std::size_t top_count(std::uint32_t node) const noexcept {
        if (m_transit == 0) return 0;
        return m_cell_top_offsets[node + 1] - m_cell_top_offsets[node];
    }

    // For the search (internal layout over padded node indices, as GridMap::index).
    /// Appends to `out` the direct-h-reachable targets of cell `from`: subgoals, plus `extra` (a padded
    /// node index, or UINT32_MAX for none) counted as a subgoal. Each target as a padded node index.
    void reachable(std::uint32_t from, std::uint32_t extra, std::vector<std::uint32_t>& out) const;
    /// True if the sweep from cell `from` reaches cell `to` (counted as a subgoal), i.e. if `to` is among
    /// reachable(from, to, ...); reads only the rays that can reach `to`. Padded node indices, distinct.
    [[nodiscard]] bool direct(std::uint32_t from, std::uint32_t to) const noexcept;
    /// A cell's joins: subgoal ids, stored in 16 bits when there are at most 65536 subgoals.
    class JoinList {
    public:
        JoinList() = default;
        JoinList(const std::uint16_t* narrow, const std::uint32_t* wide, std::size_t count) noexcept
            : m_narrow(narrow), m_wide(wide), m_count(count) {}
        [[nodiscard]] std::uint32_t operator[](std::size_t i) const noexcept { return m_narrow ? m_narrow[i] : m_wide[i]; }
        [[nodiscard]] std::size_t size() const noexcept { return m_count; }
        [[nodiscard]] bool empty() const noexcept { return m_count == 0; }
        /// The 16-bit ids, or nullptr when they are stored in 32 bits (wide()).
        [[nodiscard]] const std::uint16_t* narrow() const noexcept { return m_narrow; }
        [[nodiscard]] const std::uint32_t* wide() const noexcept { return m_wide; }
        /// The address of id `i` (for a cache hint), and the bytes the list takes.
        [[nodiscard]] const void* address(std::size_t i) const noexcept {
            return m_narrow ? static_cast<const void*>(m_narrow + i) : static_cast<const void*>(m_wide + i);
        }
        [[nodiscard]] std::size_t bytes() const noexcept { return m_count * (m_narrow ? 2 : 4); }
        struct iterator {
            const JoinList* list;
            std::size_t i;
            std::uint32_t operator*() const noexcept { return (*list)[i]; }
            iterator& operator++() noexcept {
                ++i;
                return *this;
            }
            bool operator!=(const iterator& o) const noexcept { return i != o.i; }
        };
        [[nodiscard]] iterator begin() const noexcept { return {this, 0}; }
        [[nodiscard]] iterator end() const noexcept { return {this, m_count}; }

    private:
        const std::uint16_t* m_narrow = nullptr;
        const std::uint32_t* m_wide = nullptr;
        std::size_t m_count = 0;
    };
    /// The subgoal ids direct-h-reachable from the passable cell `node` (a padded node index), precomputed
    /// by build() (reachable(node, UINT32_MAX, ...) as subgoal ids).
    [[nodiscard]] JoinList joins(std::uint32_t node) const noexcept {
        const std::uint32_t a = m_join_offsets[node], b = m_join_offsets[node + 1];
        if (!m_join16.empty() || m_join.empty()) return {m_join16.data() + a, nullptr, b - a};
        return {nullptr, m_join.data() + a, b - a};
    }
    /// The largest number of joins of a cell.
    [[nodiscard]] std::uint32_t max_joins() const noexcept { return m_max_joins; }
    /// Padded node index of `p`. Precondition: on the map.
    [[nodiscard]] std::uint32_t index(GridPoint p) const noexcept {
        return static_cast<std::uint32_t>(p.y + 1) * m_stride + static_cast<std::uint32_t>(p.x + 1);
    }
    /// Point of a padded node index.
    [[nodiscard]] GridPoint point(std::uint32_t node) const noexcept {
        return GridPoint{static_cast<std::int32_t>(node % m_stride) - 1, static_cast<std::int32_t>(node / m_stride) - 1};
    }
    /// Subgoal id of a padded node index, or -1.
    [[nodiscard]] std::int32_t subgoal_id(std::uint32_t node) const noexcept { return m_id[node]; }
    /// Padded node index of subgoal `id`.
    [[nodiscard]] std::uint32_t subgoal_node(std::uint32_t id) const noexcept { return m_subgoal_node[id]; }
    /// An upward edge: target subgoal id, the target's cell (x | y << 16, for the search's octile
    /// heuristic), length.
    struct UpEdge {
        std::uint32_t target;
        std::uint32_t xy;
        double length;
    };
    /// Upward edges of subgoal `id` (to subgoals contracted later).
    [[nodiscard]] std::span<const UpEdge> up_edges(std::uint32_t id) const noexcept {
        return {m_up.data() + m_offsets[id], m_up.data() + m_offsets[id + 1]};
    }
    /// The target of the upward edge `index` (into the CSR of up_edges()).
    [[nodiscard]] std::uint32_t up_edge_target(std::uint32_t index) const noexcept { return m_up[index].target; }
    /// The subgoal whose upward edge `index` is. O(log subgoals).
    [[nodiscard]] std::uint32_t edge_owner(std::uint32_t index) const noexcept;
    /// Index of the first upward edge of subgoal `id` (into the CSR of up_edges(), as edge_index()).
    [[nodiscard]] std::uint32_t up_edge_begin(std::uint32_t id) const noexcept { return m_offsets[id]; }
    /// up_middles() of an edge of the subgoal graph (not a shortcut) whose cells go diagonal steps first
    /// from the edge's lower end (the subgoal whose upward edge it is) ...
    static constexpr std::uint32_t kEdgeDiagonalFirst = UINT32_MAX;
    /// ... or straight steps first (the diagonal-first line is blocked) ...
    static constexpr std::uint32_t kEdgeStraightFirst = UINT32_MAX - 1;
    /// ... or diagonal steps first from either end.
    static constexpr std::uint32_t kEdgeDiagonalFirstBoth = UINT32_MAX - 2;
    /// Upward edges of subgoal `id`: the contracted subgoal a shortcut bypasses, or kEdgeDiagonalFirst /
    /// kEdgeStraightFirst / kEdgeDiagonalFirstBoth for an edge of the subgoal graph; parallel to
    /// up_edges().
    [[nodiscard]] std::span<const std::uint32_t> up_middles(std::uint32_t id) const noexcept {
        return {m_middles.data() + m_offsets[id], m_middles.data() + m_offsets[id + 1]};
    }
    /// Index of the upward edge of `low` to `high` (into the CSR of up_edges(), for edge_path()), or
    /// UINT32_MAX.
    [[nodiscard]] std::uint32_t edge_index(std::uint32_t low, std::uint32_t high) const noexcept;
    /// An unpacked upward edge, precomputed by build(): the subgoals it passes as edges of the subgoal
    /// graph, from its lower end. Step i (from 1) is the cell it reaches (kPathCell bits: x | y << 16, x
    /// and y below 2^15) with the free order of that step's segment in the spare bits:
    /// kPathStraightFromLow set when it goes straight steps first walked from the lower end,
    /// kPathStraightFromHigh when it goes straight steps first walked the other way (diagonal steps
    /// first otherwise).
    [[nodiscard]] std::span<const std::uint32_t> edge_path(std::uint32_t index) const noexcept {
        return {m_path.data() + m_path_offsets[index], m_path.data() + m_path_offsets[index + 1]};
    }
    static constexpr std::uint32_t kPathCell = 0x7fff7fffu;
    static constexpr std::uint32_t kPathStraightFromLow = 1u << 31;
    static constexpr std::uint32_t kPathStraightFromHigh = 1u << 15;
    /// The contraction rank of subgoal `id` (0 = contracted first).
    [[nodiscard]] std::uint32_t rank(std::uint32_t id) const noexcept { return m_rank[id]; }
    /// Writes the cells of an octile-freespace segment from `a` to `b` (padded node indices), `a`
    /// excluded, `b` included, diagonal steps first or straight steps first, whichever is free. Returns
    /// false (and writes nothing) if neither is.
    bool refine(std::uint32_t a, std::uint32_t b, std::vector<GridPoint>& out) const;
    /// As refine(), but writes only the turning cell of a straight-first segment (if any) and `b`: the
    /// waypoints of PathDetail::Waypoints, joined by "diagonal steps first, then straight steps".
    bool refine_waypoints(std::uint32_t a, std::uint32_t b, std::vector<GridPoint>& out) const;
    /// The steps of an octile segment: a run in direction `first`, then one in direction `second`
    /// (directions clockwise from north = decreasing y).
    struct Segment {
        int first, count_first, second, count_second;
    };
    /// Appends the octile segment a -> b, known free in the given order (diagonal steps first, or
    /// straight steps first), `a` excluded: every cell, or (`waypoints`) as refine_waypoints().
    static void write_segment(GridPoint a, GridPoint b, bool straight_first, bool waypoints, std::vector<GridPoint>& out);

private:
    [[nodiscard]] bool legal(std::uint32_t node, int direction) const noexcept;
    // False when the build's deadline passed.
    bool contract(std::vector<std::uint64_t>& pairs);
    bool build_joins(std::size_t max_memory_bytes);
    bool build_paths(std::size_t max_memory_bytes);
    bool build_transit(std::uint32_t transit_nodes, std::size_t max_memory_bytes);
    void drop_transit();
    JpsSupport refuse_budget();
    // True once the build's deadline has passed (then for the rest of the build); reads the clock on
    // every 64th call, or on this one if `read_clock`.
    bool out_of_time(bool read_clock = false) noexcept;
    std::uint32_t hit(std::uint32_t from, int direction, std::uint32_t extra, int& clearance, std::int32_t extra_dx,
                      std::int32_t extra_dy) const noexcept;
    // The octile segment a -> b, diagonal steps first.
    [[nodiscard]] Segment diagonal_first(std::uint32_t a, std::uint32_t b) const noexcept;
    // The free order of an octile segment a -> b (diagonal first when both are free); false if neither.
    bool segment_order(std::uint32_t a, std::uint32_t b, Segment& seg) const noexcept;
    // True if the clearance run from `node` in direction d reaches the cell k steps away.
    [[nodiscard]] bool run_reaches(std::uint32_t node, int d, std::int32_t k) const noexcept;
    [[nodiscard]] bool segment_free(std::uint32_t a, int first, int count_first, int second, int count_second) const noexcept;

    std::vector<std::uint8_t> m_pass;       // padded passability snapshot; border cells are 0
    std::vector<std::int32_t> m_id;         // padded: subgoal id or -1
    std::vector<std::uint16_t> m_clear;     // 8 per padded cell: free steps before a wall or a subgoal,
                                            // top bit set when a legal step onto a subgoal ends them
    std::vector<std::uint32_t> m_subgoal_node;
    std::vector<std::uint32_t> m_subgoal_xy;  // per subgoal: x | y << 16 (sides are at most 32768)
    std::vector<std::uint32_t> m_offsets;   // CSR over subgoal ids
    std::vector<UpEdge> m_up;               // upward edges (lengths octile for subgoal-graph edges)
    std::vector<std::uint32_t> m_middles;   // bypassed subgoal of a shortcut, or a kEdge... order
    std::vector<std::uint32_t> m_path_offsets;  // CSR over upward edges: edge_path()
    std::vector<std::uint32_t> m_path;          // the unpacked edges' subgoal cells and their steps' free orders
    std::vector<std::uint32_t> m_rank;
    std::vector<float> m_landmark_dist;     // kLandmarks per subgoal: distance from each landmark, from
    std::size_t m_landmark_base = 0;        // this entry on (each subgoal's row on a 32-byte boundary)
    double m_landmark_slack = 0;
    int m_landmark_count = 0;
    std::vector<std::uint32_t> m_join_offsets;  // CSR over padded cells: joins()
    std::vector<std::uint32_t> m_join;          // joins as 32-bit ids (more than 65536 subgoals) ...
    std::vector<std::uint16_t> m_join16;        // ... or as 16-bit ids
    std::uint32_t m_max_joins = 0;
    std::uint32_t m_transit = 0;                 // transit nodes: subgoal ids [0, m_transit)
    std::uint32_t m_max_access = 0;
    std::vector<std::uint16_t> m_transit_id;     // per table position: the transit node's subgoal id
    std::vector<std::uint16_t> m_transit_position;  // per transit node (subgoal id < m_transit): its position
    std::vector<std::uint32_t> m_transit_xy;     // per table position: the transit node's cell
    std::vector<std::uint32_t> m_table;          // m_transit^2 distances as step counts, by position
    std::vector<std::uint32_t> m_table_next;     // m_transit^2 first hops (transit_hop()), by destination
    std::vector<std::uint32_t> m_sub_access_offsets;  // CSR over subgoal ids - m_transit
    std::vector<Access> m_sub_access;
    std::vector<ClimbLink> m_sub_climb;          // per entry: the upward edge and entry it came through
    std::vector<std::uint32_t> m_cell_access_offsets;  // CSR over padded cells
    std::vector<Access> m_cell_access;
    std::vector<std::uint8_t> m_cell_join_hint;  // per m_cell_access entry, 4 bits: access_join_hint()
    std::vector<std::uint32_t> m_cell_top_offsets;  // CSR over padded cells
    std::vector<std::uint16_t> m_cell_top;       // tops of each cell's upward search space below T
    std::size_t m_edge_count = 0;
    std::size_t m_shortcut_count = 0;
    std::int64_t m_delta[8] = {};
    const GridMap* m_map = nullptr;         // identity only
    std::uint64_t m_version = 0;
    std::int32_t m_width = 0;
    std::int32_t m_height = 0;
    std::uint32_t m_stride = 0;
    bool m_built = false;
    std::chrono::steady_clock::time_point m_deadline = std::chrono::steady_clock::time_point::max();  // of build
    std::uint32_t m_deadline_calls = 0;
    bool m_timed_out = false;
};

/// Reusable exact search over a SubgoalGraph, with online JPS as the fallback for a stale graph. See the
/// file overview.
class SubgoalPathfinder {
public:
    SubgoalPathfinder();
    ~SubgoalPathfinder();
    SubgoalPathfinder(SubgoalPathfinder&&) noexcept;
    SubgoalPathfinder& operator=(SubgoalPathfinder&&) noexcept;
    SubgoalPathfinder(const SubgoalPathfinder&) = delete;
    SubgoalPathfinder& operator=(const SubgoalPathfinder&) = delete;

    /// Builds the owned graph for `map` (SubgoalGraph::build) and sizes the search state so that the
    /// next queries do not allocate. See SubgoalGraph::build.
    JpsSupport build(const GridMap& map, std::size_t max_memory_bytes = SIZE_MAX,
                     std::uint32_t transit_nodes = SubgoalGraph::kAutoTransit,
                     std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max());

    /// The owned graph.
    [[nodiscard]] const SubgoalGraph& graph() const noexcept;

    /// Sizes the search state for queries on a shared, built `graph` (begin(graph, ...)), so that even
    /// the first one does not allocate (the path written by `finish` aside: `out.cells` grows as it
    /// must). `build` does this for the owned graph. Optional; a graph not built sizes nothing. May
    /// throw std::bad_alloc.
    void reserve(const SubgoalGraph& graph);

    /// Starts a search on `map` with the owned graph; when the graph is not in step with `map` (never
    /// built, or the map changed since), the query runs on online JPS instead (see the overview).
    /// Returns `InProgress`, `InvalidQuery` (unsupported options or map, a point off the map, a
    /// blocked start or goal), `NoPath` when `options.islands` apply to `map` and prove the goal
    /// unreachable (nothing expanded), or `BudgetExhausted` with `budget_limit()` Memory (what the
    /// pathfinder holds plus what the query must add passes the memory budget; nothing is allocated).
    Status begin(const GridMap& map, GridPoint start, GridPoint goal, const GridSearchOptions& options = {});

    /// Starts a search on a shared, built `graph` (which must outlive the search and not change during
    /// it); its snapshot is the map. Returns `InProgress`, `InvalidQuery` or `BudgetExhausted` as
    /// begin(map, ...). `options.islands` are not used here: without the map they cannot be checked
    /// against it.
    Status begin(const SubgoalGraph& graph, GridPoint start, GridPoint goal, const GridSearchOptions& options = {});

    /// Expands at most `slice_expansions` subgoals (or JPS jump points on the fallback). Returns
    /// `InProgress` if the slice ran out first, else the final status (`Found`, `NoPath`,
    /// `BudgetExhausted`), which later calls return again.
    Status step(std::uint64_t slice_expansions = UINT64_MAX);

    /// Writes the path found into `out` (cleared when there is none) as `options.detail` of `begin`
    /// asked: every cell (the default); the waypoints only (`PathDetail::Waypoints`: start, the subgoals
    /// of the path, the turning cell of a segment that goes straight first, goal; consecutive ones are
    /// joined by "diagonal first, then straight", see expand_waypoints); or the cost only
    /// (`PathDetail::CostOnly`: no unpacking). Returns the status. Allocates only if `out.cells` must
    /// grow: while it is written it holds up to the cost + 12 cells (every cell) or two per subgoal of
    /// the path (waypoints), and is then cut to the path.
    Status finish(GridPath& out) const;

    /// begin (owned graph or fallback) + step + finish.
    Status find_path(const GridMap& map, GridPoint start, GridPoint goal, const GridSearchOptions& options,
                     GridPath& out);

    /// Status of the current search.
    [[nodiscard]] Status status() const noexcept;
    /// Which limit of the budget ended the current search (the fallback's, on the fallback): `None`
    /// unless status() is `BudgetExhausted`, then `Expansions`, `Time` or `Memory`. Reset by every `begin`.
    [[nodiscard]] search::BudgetLimit budget_limit() const noexcept;
    /// Counters of the current search (`expanded` = subgoal-graph nodes expanded, including the start; 1
    /// for an answer from the transit-node table, 0 for a freespace answer; `generated` includes the
    /// access-node pairs compared).
    [[nodiscard]] const search::SearchStats& stats() const noexcept;
    /// Cost of the path found, or +infinity.
    [[nodiscard]] double cost() const noexcept;
    /// Number of queries answered by the online JPS fallback because the graph was stale.
    [[nodiscard]] std::uint64_t fallback_count() const noexcept;
    /// Bytes held by the query's storage (search state, heaps, scratch, and the fallback's search state
    /// once used), at capacity: what the memory budget counts. The graph is not included
    /// (graph().memory_bytes()), nor the fallback's snapshot.
    [[nodiscard]] std::size_t memory_bytes() const noexcept;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

}  // namespace gameplan::path
