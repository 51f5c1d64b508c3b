#pragma once
// Private to the path module: the best-first loop shared by JpsPathfinder (online scanning) and
// JpsPlusPathfinder (jump tables), and the direction conventions both use.
//
// The loop is the engine's A* over jump points: search::IndexedHeap (with the engine's tie-break order in
// a packed key), generation stamps (search/generation.hpp), search::Budget, search::SearchStats and Status. What differs
// between the two pathfinders is only how the successors of a jump point in one direction are found; a
// *Jumper* supplies that:
//
//   template <class Emit> void straight(uint32_t node, int32_t x, int32_t y, int dir, Emit&& emit);
//   template <class Emit> void diagonal(uint32_t node, int32_t x, int32_t y, int dir, double limit, Emit&& emit);
//   void prefetch(uint32_t node);  // a hint: `node` will probably be expanded soon
//
// where (x, y) are padded coordinates (map coordinates + 1) and emit(succ, sx, sy, cost) relaxes one
// successor reached by "k diagonal steps, then m straight steps" of total length `cost`. Both jumpers
// emit the same successors in the same order, so the two pathfinders expand the same jump points.
//
// Short queries. Once the goal has been generated with cost U, no successor whose cost plus octile
// distance to the goal (a lower bound of any path through it) reaches U can improve on it: emit drops
// such successors, and a diagonal walk stops as soon as its cell's distance from the node expanded
// plus its octile distance to the goal reaches `limit` (U minus the node's g; the bound never
// decreases along a diagonal, by the triangle inequality). Before scanning, an expansion within
// kDirectReach of the goal checks whether the canonical line to it ("diagonal first, then straight",
// the shape of every JPS edge) is free, and if so emits the goal directly: U is then known before the
// first scan, and on short open queries almost every scan stops at its first step.

#include "exact_growth.hpp"
#include "grid_key.hpp"
#include "jps_options.hpp"

#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/grid_rules.hpp>
#include <gameplan/path/grid_search.hpp>
#include <gameplan/path/jps.hpp>
#include <gameplan/search/generation.hpp>
#include <gameplan/search/indexed_heap.hpp>
#include <gameplan/search/search_context.hpp>
#include <gameplan/status.hpp>

#include <algorithm>
#include "bit_cast.hpp"
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <memory>
#include <new>

namespace gameplan::path::detail {

// Directions clockwise from north (north = decreasing y); odd ones are diagonal. Same order as
// JumpDirection. The straight parts of diagonal d are d - 1 and d + 1 (mod 8); the perpendiculars of
// straight d are d - 2 and d + 2 (mod 8).
inline constexpr int kDirN = 0, kDirNE = 1, kDirE = 2, kDirSE = 3, kDirS = 4, kDirSW = 5, kDirW = 6, kDirNW = 7;
inline constexpr std::int32_t kDirDx[8] = {0, 1, 1, 1, 0, -1, -1, -1};
inline constexpr std::int32_t kDirDy[8] = {-1, -1, 0, 1, 1, 1, 0, -1};

/// The vertical straight part of diagonal `d` (N or S). Diagonal successors are emitted vertical first.
constexpr int vertical_part(int d) noexcept { return (d == kDirNE || d == kDirNW) ? kDirN : kDirS; }
/// The horizontal straight part of diagonal `d` (E or W).
constexpr int horizontal_part(int d) noexcept { return (d == kDirNE || d == kDirSE) ? kDirE : kDirW; }

/// Padded node-index offset of one step in direction `d`, as a modular uint32 (node + delta wraps right).
constexpr std::uint32_t dir_delta(int d, std::uint32_t stride) noexcept {
    return static_cast<std::uint32_t>(kDirDx[d]) + static_cast<std::uint32_t>(kDirDy[d]) * stride;
}

/// The goal of a search in padded coordinates.
struct JpsTarget {
    std::uint32_t node = search::kNoNode;
    std::int32_t x = 0;
    std::int32_t y = 0;
};

/// Distance from (x, y) to the target along straight direction `d`, or 0 when the target is not on
/// that ray.
inline std::int32_t target_on_ray(const JpsTarget& t, std::int32_t x, std::int32_t y, int d) noexcept {
    if (kDirDx[d] != 0) {
        if (t.y != y) return 0;
        const std::int32_t along = (t.x - x) * kDirDx[d];
        return along > 0 ? along : 0;
    }
    if (t.x != x) return 0;
    const std::int32_t along = (t.y - y) * kDirDy[d];
    return along > 0 ? along : 0;
}

/// Octile distance between padded cells (x, y) and the target: the exact length of an obstacle-free
/// path, so a lower bound of any path on a uniform-cost grid.
inline double octile_to(const JpsTarget& t, std::int32_t x, std::int32_t y) noexcept {
    const auto dx = static_cast<double>(std::abs(x - t.x)), dy = static_cast<double>(std::abs(y - t.y));
    return std::max(dx, dy) + (kDiagonalStep - 1.0) * std::min(dx, dy);
}

/// Relative slack of the pruning tests against the goal's cost U: a bound within U (1 - kPruneSlack)
/// counts as reaching U. Paths of equal exact cost (sums of 1 and sqrt 2 in another order) differ by
/// rounding noise far below it, so both pathfinders, whose sums are rounded differently, take the same
/// decisions; distinct exact costs differ by far more than it, so nothing cheaper is ever pruned.
inline constexpr double kPruneSlack = 1e-9;

/// Largest Chebyshev distance to the goal at which an expansion checks the direct line to it.
inline constexpr std::int32_t kDirectReach = 64;

/// A straight entry's reach: the number of cells that can be walked in its direction up to and
/// including the jump point (entry > 0) or up to the wall (entry <= 0).
constexpr std::int32_t reach_of(std::int32_t entry) noexcept { return entry > 0 ? entry : -entry; }

/// The A* loop over jump points with its reusable per-cell state. See the file comment.
class JpsSearch {
public:
    // Open-list key with the engine's order (smallest f, then smallest h, then most recently pushed),
    // packed into two integers so a comparison is branch-free: f and h are non-negative doubles whose
    // bit patterns order like their values; h is rounded to float to share a word with the sequence
    // (the same packing as GridPathfinder's key).
    struct Key {
        std::uint64_t f_bits;
        std::uint64_t tie;  // float bits of h << 32 | ~sequence
        friend bool operator<(const Key& a, const Key& b) noexcept {
#if defined(__SIZEOF_INT128__)
            __extension__ using U128 = unsigned __int128;
            return ((U128(a.f_bits) << 64) | a.tie) < ((U128(b.f_bits) << 64) | b.tie);
#else
            return a.f_bits < b.f_bits || (a.f_bits == b.f_bits && a.tie < b.tie);
#endif
        }
    };
    [[nodiscard]] static Key make_key(double f, double h, std::uint32_t sequence) noexcept {
        const auto h_bits = detail::bit_cast<std::uint32_t>(static_cast<float>(h));
        return Key{detail::tie_f_bits(f), (std::uint64_t{h_bits} << 32) | std::uint64_t{~sequence}};
    }

    /// Sizes the per-cell state for `bound` padded node indices and the open list for `open_entries`.
    /// With `prefault`, also writes every page of the per-cell state once, so that no query pays the
    /// page faults of memory the allocator handed out lazily.
    void reserve(std::uint32_t bound, std::size_t open_entries, bool prefault = false) {
        ensure_capacity(bound);
        m_heap.reserve_entries(std::min<std::size_t>(open_entries, bound));
        if (prefault) {
            // Stamps are 0 ("unvisited") already: rewriting one per page keeps the state as it is.
            constexpr std::size_t kPage = 4096 / sizeof(CellState);
            volatile std::uint32_t* stamp = nullptr;
            for (std::size_t i = 0; i < m_capacity; i += kPage) {
                stamp = &m_cells[i].stamp;
                *stamp = *stamp;
            }
        }
    }

    /// Marks the current search invalid (and forgets it). Returns InvalidQuery.
    Status invalid() noexcept {
        m_heap.clear();
        m_stats = {};
        m_found = search::kNoNode;
        m_active = false;
        m_limit = search::BudgetLimit::None;
        return m_status = Status::InvalidQuery;
    }

    /// Ends the search at once with NoPath (the islands' precheck proved the goal unreachable). Returns NoPath.
    Status no_path() noexcept {
        (void)invalid();
        return m_status = Status::NoPath;
    }

    /// Starts a search. Preconditions (checked by the callers): start and goal are passable cells of
    /// the snapshot `pass` (padded, `bound` entries, rows of `stride`), options are supported. Returns
    /// InProgress, or BudgetExhausted (budget_limit() Memory, nothing allocated) when the storage held
    /// plus the per-cell arrays this search needs would pass `options.budget.max_memory_bytes`.
    Status begin(const std::uint8_t* pass, std::uint32_t bound, std::uint32_t stride, GridPoint start, GridPoint goal,
                 const GridSearchOptions& options) {
        m_heap.clear();
        m_stats = {};
        m_found = search::kNoNode;
        m_sequence = 0;
        m_limit = search::BudgetLimit::None;
        m_out_of_memory = false;
        m_budget = options.budget;
        if (m_budget.max_memory_bytes != SIZE_MAX) {
            // The per-cell arrays this search needs (replacing smaller ones), and room for the start in
            // the open list, on top of what is held: over the budget, nothing is allocated.
            std::size_t after = memory_bytes();
            if (bound > m_capacity) after = bound_bytes(bound);
            if (m_heap.entries().capacity() == 0) after += sizeof(typename search::IndexedHeap<Key>::Entry);
            if (after > m_budget.max_memory_bytes) {
                m_active = false;
                m_limit = search::BudgetLimit::Memory;
                return m_status = Status::BudgetExhausted;
            }
            if (m_heap.entries().capacity() == 0) m_heap.reserve_entries(1);  // as the first push would
        }
        ensure_capacity(bound);
        search::advance_generation(m_generation, [&] {
            for (std::size_t i = 0; i < m_capacity; ++i) m_cells[i].stamp = search::kUnvisitedStamp;
        });
        m_pass = pass;
        m_stride = stride;
        for (int d = 0; d < 8; ++d) m_delta[d] = dir_delta(d, stride);
        m_heuristic = resolve_heuristic(Movement::Eight, DiagonalRule::NoCornerCutting, options.heuristic);
        m_h_scale = options.weight;
        m_goal = JpsTarget{(static_cast<std::uint32_t>(goal.y) + 1) * stride + static_cast<std::uint32_t>(goal.x) + 1,
                           goal.x + 1, goal.y + 1};
        const std::uint32_t node = (static_cast<std::uint32_t>(start.y) + 1) * stride + static_cast<std::uint32_t>(start.x) + 1;
        const double h = heuristic(start.x + 1, start.y + 1);
        m_cells[node] = CellState{0.0, search::kNoNode, search::open_stamp(m_generation)};
        m_heap.push(node, make_key(h, h, ++m_sequence));
        m_upper = std::numeric_limits<double>::infinity();
        m_detail = options.detail;
        m_active = true;
        return m_status = Status::InProgress;
    }

    /// Expands up to `slice_expansions` jump points with `jumper`'s successor generation.
    template <class Jumper>
    Status run(Jumper& jumper, std::uint64_t slice_expansions) {
        if (m_status != Status::InProgress || !m_active) return m_status;
        // Two instances of the loop: without a memory limit it has no check of it at all.
        if (m_budget.max_memory_bytes != SIZE_MAX) return run_loop<true>(jumper, slice_expansions);
        return run_loop<false>(jumper, slice_expansions);
    }

private:
    template <bool Limited, class Jumper>
    Status run_loop(Jumper& jumper, std::uint64_t slice_expansions) {
        const std::uint8_t* const pass = m_pass;
        const std::uint32_t stride = m_stride;
        const std::uint32_t open = search::open_stamp(m_generation);
        const std::uint32_t closed = search::closed_stamp(m_generation);
        const bool has_deadline = m_budget.deadline != std::chrono::steady_clock::time_point::max();
        // With a memory limit, the open list grows only through grow_entries(), which checks the budget.
        constexpr bool limited = Limited;
        CellState* const cells = m_cells.get();
        std::uint64_t slice_left = slice_expansions;

        while (!m_heap.empty()) {
            const std::uint32_t node = m_heap.top().node;
            if (node == m_goal.node) {
                m_found = node;
                return m_status = Status::Found;
            }
            if (m_stats.expanded >= m_budget.max_expansions) return exhausted(search::BudgetLimit::Expansions);
            if (has_deadline && (m_stats.expanded & 63u) == 0 && std::chrono::steady_clock::now() >= m_budget.deadline)
                return exhausted(search::BudgetLimit::Time);
            if (slice_left == 0) return Status::InProgress;
            --slice_left;
            m_heap.pop();
            // The next expansion is most likely the new top (unless a successor beats it): start
            // fetching its table / neighbourhood now, the expansion below hides the latency.
            if (!m_heap.empty()) {
                jumper.prefetch(m_heap.top().node);
                __builtin_prefetch(cells + m_heap.top().node);
            }
            cells[node].stamp = closed;
            ++m_stats.expanded;
            const double g = cells[node].g;
            const std::uint32_t parent = cells[node].parent;
            const auto x = static_cast<std::int32_t>(node % stride);
            const auto y = static_cast<std::int32_t>(node / stride);

            unsigned mask = 0xFFu;  // the start scans every direction
            if (parent != search::kNoNode) {
                const std::int32_t dx = x - static_cast<std::int32_t>(parent % stride);
                const std::int32_t dy = y - static_cast<std::int32_t>(parent / stride);
                const std::int32_t adx = std::abs(dx), ady = std::abs(dy);
                if (adx == ady) {  // arrived diagonally: no forced neighbours without corner cutting
                    const int d = dx > 0 ? (dy < 0 ? kDirNE : kDirSE) : (dy > 0 ? kDirSW : kDirNW);
                    mask = (1u << d) | (1u << ((d + 7) & 7)) | (1u << ((d + 1) & 7));
                } else {  // the last part of the edge was straight, so the previous cell is node - delta
                    const int d = adx > ady ? (dx > 0 ? kDirE : kDirW) : (dy > 0 ? kDirS : kDirN);
                    const std::uint32_t back = node - m_delta[d];
                    const int a = (d + 6) & 7, b = (d + 2) & 7;
                    mask = 1u << d;
                    if (!pass[back + m_delta[a]] && pass[node + m_delta[a]]) mask |= (1u << a) | (1u << ((d + 7) & 7));
                    if (!pass[back + m_delta[b]] && pass[node + m_delta[b]]) mask |= (1u << b) | (1u << ((d + 1) & 7));
                }
            }

            const auto emit = [&](std::uint32_t succ, std::int32_t sx, std::int32_t sy, double length) {
                const double g_next = g + length;
                if (g_next + octile_to(m_goal, sx, sy) >= m_upper * (1.0 - kPruneSlack)) return;  // cannot beat the goal
                ++m_stats.generated;
                CellState& cell = cells[succ];
                if (cell.stamp == closed) return;
                if (succ == m_goal.node) m_upper = g_next;
                if (cell.stamp == open) {
                    if (!(g_next < cell.g)) return;
                    cell.g = g_next;
                    cell.parent = node;
                    const double h = heuristic(sx, sy);
                    m_heap.decrease(succ, make_key(g_next + h, h, ++m_sequence));
                    return;
                }
                if constexpr (limited)
                    if (m_heap.size() == m_heap.entries().capacity() && !grow_entries()) return;
                const double h = heuristic(sx, sy);
                cell = CellState{g_next, node, open};
                m_heap.push(succ, make_key(g_next + h, h, ++m_sequence));
                jumper.prefetch(succ);
            };
            if (std::abs(x - m_goal.x) <= kDirectReach && std::abs(y - m_goal.y) <= kDirectReach)
                if (const double line = direct_line(node, x, y); line >= 0.0) emit(m_goal.node, m_goal.x, m_goal.y, line);
            while (mask != 0) {
                const int d = std::countr_zero(mask);
                mask &= mask - 1;
                if (d & 1)
                    jumper.diagonal(node, x, y, d, m_upper * (1.0 - kPruneSlack) - g, emit);
                else
                    jumper.straight(node, x, y, d, emit);
            }
            // A successor the open list had no room for is lost: the search cannot go on.
            if constexpr (limited)
                if (m_out_of_memory) return exhausted(search::BudgetLimit::Memory);
        }
        return m_status = Status::NoPath;
    }

public:

    /// Writes the path into `out` as options.detail asks; see JpsPathfinder::finish.
    Status finish(GridPath& out) const {
        out.cells.clear();
        if (m_status != Status::Found) {
            out.cost = std::numeric_limits<double>::infinity();
            return m_status;
        }
        const std::uint32_t stride = m_stride;
        out.cost = m_cells[m_found].g;
        if (m_detail == PathDetail::CostOnly) return m_status;
        if (m_detail == PathDetail::Waypoints) {
            for (std::uint32_t n = m_found; n != search::kNoNode; n = m_cells[n].parent)
                out.cells.push_back(GridPoint{static_cast<std::int32_t>(n % stride) - 1, static_cast<std::int32_t>(n / stride) - 1});
            std::reverse(out.cells.begin(), out.cells.end());
            return m_status;
        }
        std::size_t length = 1;
        for (std::uint32_t n = m_found; m_cells[n].parent != search::kNoNode; n = m_cells[n].parent) {
            const std::uint32_t p = m_cells[n].parent;
            const std::int32_t adx = std::abs(static_cast<std::int32_t>(n % stride) - static_cast<std::int32_t>(p % stride));
            const std::int32_t ady = std::abs(static_cast<std::int32_t>(n / stride) - static_cast<std::int32_t>(p / stride));
            length += static_cast<std::size_t>(std::max(adx, ady));
        }
        out.cells.resize(length);
        std::size_t at = length;
        std::int32_t cx = static_cast<std::int32_t>(m_found % stride), cy = static_cast<std::int32_t>(m_found / stride);
        out.cells[--at] = GridPoint{cx - 1, cy - 1};
        for (std::uint32_t n = m_found; m_cells[n].parent != search::kNoNode; n = m_cells[n].parent) {
            const std::uint32_t p = m_cells[n].parent;
            const std::int32_t dx = cx - static_cast<std::int32_t>(p % stride);
            const std::int32_t dy = cy - static_cast<std::int32_t>(p / stride);
            const std::int32_t adx = std::abs(dx), ady = std::abs(dy);
            const std::int32_t sx = dx > 0 ? 1 : (dx < 0 ? -1 : 0), sy = dy > 0 ? 1 : (dy < 0 ? -1 : 0);
            // The edge is "diagonal first, then straight": walk back the straight part, then the diagonal.
            const std::int32_t straight = std::abs(adx - ady);
            const std::int32_t tx = adx > ady ? sx : 0, ty = ady > adx ? sy : 0;
            for (std::int32_t i = 0; i < straight; ++i) {
                cx -= tx;
                cy -= ty;
                out.cells[--at] = GridPoint{cx - 1, cy - 1};
            }
            for (std::int32_t i = std::min(adx, ady); i > 0; --i) {
                cx -= sx;
                cy -= sy;
                out.cells[--at] = GridPoint{cx - 1, cy - 1};
            }
        }
        out.cost = m_cells[m_found].g;
        return m_status;
    }

    [[nodiscard]] Status status() const noexcept { return m_status; }
    /// Which limit ended the search (None unless status() is BudgetExhausted).
    [[nodiscard]] search::BudgetLimit budget_limit() const noexcept { return m_limit; }
    [[nodiscard]] const search::SearchStats& stats() const noexcept { return m_stats; }
    [[nodiscard]] double cost() const noexcept {
        return m_status == Status::Found ? m_cells[m_found].g : std::numeric_limits<double>::infinity();
    }
    [[nodiscard]] std::size_t jump_point_count() const noexcept {
        if (m_status != Status::Found) return 0;
        std::size_t count = 1;
        for (std::uint32_t n = m_found; m_cells[n].parent != search::kNoNode; n = m_cells[n].parent) ++count;
        return count;
    }
    [[nodiscard]] const JpsTarget& goal() const noexcept { return m_goal; }
    /// True if the current search expanded the jump point at map cell (x, y) (unpadded).
    [[nodiscard]] bool closed(std::int32_t x, std::int32_t y) const noexcept {
        if (m_stride == 0 || x < 0 || y < 0 || static_cast<std::uint32_t>(x) + 2 > m_stride) return false;
        const std::size_t node = (static_cast<std::size_t>(y) + 1) * m_stride + static_cast<std::size_t>(x) + 1;
        return node < m_capacity && m_cells[node].stamp == search::closed_stamp(m_generation);
    }
    /// Bytes held by the search state: the per-cell state and the open list (its entries and its
    /// per-cell position array), at capacity. What the memory budget counts.
    [[nodiscard]] std::size_t memory_bytes() const noexcept { return m_capacity * sizeof(CellState) + m_heap.memory_bytes(); }

private:
    struct CellState {
        double g;              // best known cost from the start
        std::uint32_t parent;  // padded index of the previous jump point, kNoNode for the start
        std::uint32_t stamp;   // generation protocol
    };
    struct FreeDeleter {
        void operator()(CellState* p) const noexcept { std::free(p); }
    };

    using HeapEntry = typename search::IndexedHeap<Key>::Entry;

    // Bytes held once the per-cell arrays are sized for `bound` > m_capacity (ensure_capacity replaces
    // both; the open list's entries stay).
    [[nodiscard]] std::size_t bound_bytes(std::size_t bound) const noexcept {
        return bound * (sizeof(CellState) + sizeof(std::uint32_t)) + m_heap.entries().capacity() * sizeof(HeapEntry);
    }

    // Sizes the per-cell state and the open list's position array for `bound` padded node indices. The
    // position array is allocated afresh at exactly `bound` (a resize from a smaller non-empty size could
    // take more), keeping the entries' capacity; every search restarts from an empty open list anyway.
    void ensure_capacity(std::size_t bound) {
        if (bound <= m_capacity) return;
        // calloc: zero stamps mean "unvisited", and untouched pages of a large block stay lazy.
        auto* fresh = static_cast<CellState*>(std::calloc(bound, sizeof(CellState)));
        if (!fresh) throw std::bad_alloc();
        m_cells.reset(fresh);
        m_capacity = bound;
        const std::size_t entries = m_heap.entries().capacity();
        m_heap = search::IndexedHeap<Key>{};
        m_heap.reserve_nodes(bound);
        m_heap.reserve_entries(entries);
    }

    Status exhausted(search::BudgetLimit limit) noexcept {
        m_limit = limit;
        return m_status = Status::BudgetExhausted;
    }

    // With a memory limit, the open list full: doubles its entries (as push_back would) unless that
    // would pass the budget; then the search is out of memory (it stops after the expansion).
    [[gnu::noinline]] bool grow_entries() {
        const std::size_t capacity = m_heap.entries().capacity();
        const std::size_t n = capacity == 0 ? 1 : 2 * capacity;
        const std::size_t held = memory_bytes(), more = (n - capacity) * sizeof(HeapEntry);
        if (detail::passes_budget(held, more, m_budget.max_memory_bytes)) {
            m_out_of_memory = true;
            return false;
        }
        m_heap.reserve_entries(n);
        return true;
    }

    // Length of the canonical line node -> goal ("diagonal first, then straight") if every cell on it
    // is free and every diagonal step legal, else -1. O(line length).
    [[nodiscard]] double direct_line(std::uint32_t node, std::int32_t x, std::int32_t y) const noexcept {
        const std::int32_t dx = m_goal.x - x, dy = m_goal.y - y;
        const std::int32_t adx = std::abs(dx), ady = std::abs(dy);
        const std::uint32_t hx = dx > 0 ? 1u : (dx < 0 ? ~0u : 0u);
        const std::uint32_t vy = dy > 0 ? m_stride : (dy < 0 ? 0u - m_stride : 0u);
        const std::uint8_t* const pass = m_pass;
        std::uint32_t z = node;
        const std::int32_t diagonal = std::min(adx, ady);
        for (std::int32_t i = 0; i < diagonal; ++i) {
            if (!(pass[z + hx] && pass[z + vy] && pass[z + hx + vy])) return -1.0;
            z += hx + vy;
        }
        const std::uint32_t step = adx > ady ? hx : vy;
        for (std::int32_t i = diagonal; i < std::max(adx, ady); ++i) {
            z += step;
            if (!pass[z]) return -1.0;
        }
        return diagonal * kDiagonalStep + (std::max(adx, ady) - diagonal);
    }

    [[nodiscard]] double heuristic(std::int32_t x, std::int32_t y) const noexcept {
        const double dx = std::abs(x - m_goal.x), dy = std::abs(y - m_goal.y);
        if (m_heuristic == Heuristic::Octile)  // the common case, kept out of the switch
            return (std::max(dx, dy) + (kDiagonalStep - 1.0) * std::min(dx, dy)) * m_h_scale;
        return heuristic_distance(m_heuristic, dx, dy) * m_h_scale;
    }

    std::unique_ptr<CellState[], FreeDeleter> m_cells;
    std::size_t m_capacity = 0;
    search::IndexedHeap<Key> m_heap;
    const std::uint8_t* m_pass = nullptr;
    std::uint32_t m_stride = 0;
    std::uint32_t m_delta[8] = {};
    JpsTarget m_goal{};
    Heuristic m_heuristic = Heuristic::Octile;
    double m_h_scale = 1.0;
    double m_upper = std::numeric_limits<double>::infinity();  // cost of the goal once generated
    PathDetail m_detail = PathDetail::Cells;
    search::Budget m_budget{};
    search::SearchStats m_stats{};
    Status m_status = Status::NoPath;
    search::BudgetLimit m_limit = search::BudgetLimit::None;
    bool m_active = false;
    bool m_out_of_memory = false;  // a push found no room within the memory budget
    std::uint32_t m_found = search::kNoNode;
    std::uint32_t m_generation = search::kUnvisitedStamp;
    std::uint32_t m_sequence = 0;
};

/// Number of passable cells of `map` whose terrain cost is not 1 (0 for a map without costs). O(cells).
inline std::size_t count_non_unit_costs(const GridMap& map) noexcept {
    const auto costs = map.cost_data();
    if (costs.empty()) return 0;
    const auto pass = map.passable_data();
    std::size_t count = 0;
    for (std::size_t i = 0; i < pass.size(); ++i) count += (pass[i] != 0 && costs[i] != 1u) ? 1u : 0u;
    return count;
}

}  // namespace gameplan::path::detail
