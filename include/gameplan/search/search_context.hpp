#pragma once
/// @file search_context.hpp
/// The generic best-first search engine (A*, weighted A*, Dijkstra) shared by GOAP and pathfinding.
///
/// Overview
/// --------
/// A *search space* names its states with dense indices (`NodeIndex`: a grid cell index, or the id a
/// GOAP state registry hands out when it interns a world state), enumerates successors with step costs,
/// estimates the remaining cost, and says which states are goals. The engine owns everything else: the
/// per-node arrays (g, h, parent, edge label, generation stamp), an indexed heap with decrease-key and a
/// fixed tie-break, the budget, the statistics, and a resumable begin / step form.
///
/// A `SearchContext` is meant to be created once and reused for every query: its arrays grow to the
/// largest node index seen and are never cleared. Each node carries the *generation* of the search that
/// last touched it; a stale stamp means "unvisited", so starting a new search is O(1). After warm-up a
/// query allocates nothing (the tests prove it with a counting allocator).
///
/// Ordering (determinism): the open list pops the smallest f = g + h; ties go to the smaller h (the
/// deeper node), then to the node pushed *last* (LIFO), which finishes ties along one line instead of
/// fanning out. The same inputs therefore always give the same result.
///
/// Optimality: with an admissible heuristic the first goal popped is optimal. Closed nodes are re-opened
/// when a cheaper route is found, so admissible-but-inconsistent heuristics stay optimal; with a
/// consistent heuristic re-opening never happens (`SearchStats::reopened` stays 0).
///
/// Thread-safety: a context is used by one thread at a time; use one context per thread.

#include <gameplan/search/generation.hpp>
#include <gameplan/search/indexed_heap.hpp>
#include <gameplan/status.hpp>

#include <algorithm>
#include <chrono>
#include <concepts>
#include <cstdint>
#include <limits>
#include <span>
#include <string_view>
#include <vector>

namespace gameplan::search {

/// Arithmetic a cost type needs. Specialise for composite costs (e.g. lexicographic cost + length).
template <class Cost>
struct CostTraits {
    static constexpr Cost zero() noexcept { return Cost{0}; }
    static constexpr Cost infinity() noexcept { return std::numeric_limits<Cost>::infinity(); }
    static constexpr bool is_infinite(const Cost& c) noexcept { return !(c < infinity()); }
};

/// Limits on one search. Defaults are unlimited. Running out of any of them ends the search with
/// `Status::BudgetExhausted`; the search's `budget_limit()` says which one ran out.
struct Budget {
    /// Maximum number of node expansions over the whole search (all slices together).
    std::uint64_t max_expansions = UINT64_MAX;
    /// Wall-clock deadline; checked after each of the first 64 expansions, then every 64 expansions
    /// unless those first 64 took over a millisecond (then after every one). Default: none.
    std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
    /// Maximum bytes the search may hold in its node storage: the engine's per-node arrays and open
    /// list, plus the storage the search space reports through an optional `memory_bytes()` member
    /// (a GOAP state registry, for example). Checked before that storage grows and after every
    /// expansion, so a search stops instead of growing past it; the storage it already holds (sized
    /// by earlier, larger queries or by `reserve`) counts too. Default: unlimited.
    std::size_t max_memory_bytes = SIZE_MAX;
};

/// The deadline `seconds` after `from`, for `Budget::deadline`: none (`time_point::max()`) for 0, negative
/// or NaN seconds, and for a billion seconds (about 32 years) or more, which the clock's 64-bit nanoseconds
/// could not hold from every starting point.
[[nodiscard]] inline std::chrono::steady_clock::time_point deadline_after(
    double seconds, std::chrono::steady_clock::time_point from = std::chrono::steady_clock::now()) noexcept {
    if (!(seconds > 0) || seconds >= 1e9) return std::chrono::steady_clock::time_point::max();
    return from + std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds));
}

/// Which limit of a `Budget` ended a search with `Status::BudgetExhausted`.
enum class BudgetLimit : std::uint8_t {
    None,        ///< the search did not run out of budget
    Expansions,  ///< `Budget::max_expansions`
    Time,        ///< `Budget::deadline`
    Memory,      ///< `Budget::max_memory_bytes`
};

/// "none", "expansions", "time", "memory".
[[nodiscard]] constexpr std::string_view to_string(BudgetLimit limit) noexcept {
    switch (limit) {
        case BudgetLimit::None: return "none";
        case BudgetLimit::Expansions: return "expansions";
        case BudgetLimit::Time: return "time";
        case BudgetLimit::Memory: return "memory";
    }
    return "unknown";
}

/// The limit of `budget` a search that has expanded `expanded` nodes reaches before its next expansion:
/// `Expansions`, `Time` (the clock is read before each of the first 64 expansions and every 64th after,
/// and only when `has_deadline`), or `None`. For searches with their own loop (the navigation meshes).
[[nodiscard]] inline BudgetLimit expansion_limit(const Budget& budget, std::uint64_t expanded, bool has_deadline) noexcept {
    if (expanded >= budget.max_expansions) return BudgetLimit::Expansions;
    if (has_deadline && (expanded < 64 || (expanded & 63u) == 0) && std::chrono::steady_clock::now() >= budget.deadline)
        return BudgetLimit::Time;
    return BudgetLimit::None;
}

/// Bytes a search space reports for its own per-state storage (0 if it has no `memory_bytes()`).
template <class Space>
[[nodiscard]] std::size_t space_memory_bytes(const Space& space) noexcept {
    if constexpr (requires { { space.memory_bytes() } -> std::convertible_to<std::size_t>; })
        return space.memory_bytes();
    else
        return 0;
}

/// Counters of one search.
struct SearchStats {
    std::uint64_t expanded = 0;   ///< nodes popped from the open list and expanded
    std::uint64_t generated = 0;  ///< successor edges relaxed (including ones that did not improve g)
    std::uint64_t reopened = 0;   ///< closed nodes put back on the open list (inconsistent heuristic)
};

/// Successor callback passed to `Space::expand`: `sink(successor, step_cost, edge_label)`.
template <class Cost>
using SuccessorSink = void(NodeIndex, Cost, std::uint32_t);

/// What the engine needs from a search space. `expand` must call `sink(succ, step, label)` once per
/// successor; `node_bound()` must exceed every index the space has handed out so far (it may grow while
/// expanding: a GOAP registry interns new states on the fly). `heuristic` returning
/// `CostTraits<Cost>::infinity()` prunes the node (proved dead end).
///
/// Optional: a space whose `heuristic` may return a cheap lower bound instead of its full value (a
/// deferred evaluation) provides `Cost refine_heuristic(NodeIndex node, const Cost& h)`, which the
/// engine calls on the open list's best node before expanding or goal-testing it; it returns the node's
/// final h (at least `h`, or infinity for a dead end), and `h` again for nodes already final. A node
/// whose h grows goes back on the open list under its new key instead of being expanded, so the
/// expansion order and optimality are those of A* with the final values.
template <class Space, class Cost>
concept RefinesHeuristic = requires(Space& space, NodeIndex node, const Cost& h) {
    { space.refine_heuristic(node, h) } -> std::convertible_to<Cost>;
};

template <class Space, class Cost>
concept SearchSpace = requires(Space& space, NodeIndex node, void (*sink)(NodeIndex, Cost, std::uint32_t)) {
    { space.node_bound() } -> std::convertible_to<std::size_t>;
    { space.heuristic(node) } -> std::convertible_to<Cost>;
    { space.is_goal(node) } -> std::convertible_to<bool>;
    space.expand(node, sink);
};

/// Reusable A* / Dijkstra state. See the file overview.
/// @tparam Cost step/path cost: `double`, `float`, an integer type, or a composite with `+`, `<` and
///         a `CostTraits` specialisation.
template <class Cost>
class SearchContext {
public:
    using Traits = CostTraits<Cost>;

    /// Open-list key: f, then h (smaller first), then insertion sequence (later first).
    struct Key {
        Cost f;
        Cost h;
        std::uint32_t sequence;
        friend bool operator<(const Key& a, const Key& b) noexcept {
            if (a.f < b.f) return true;
            if (b.f < a.f) return false;
            if (a.h < b.h) return true;
            if (b.h < a.h) return false;
            return a.sequence > b.sequence;
        }
    };

    SearchContext() = default;

    /// Pre-sizes the per-node arrays for indices below `bound` and the heap for `open_entries`.
    /// Optional: the context grows on demand, but reserving up front makes the first query
    /// allocation-free too.
    void reserve(std::size_t bound, std::size_t open_entries = 0) {
        (void)grow(bound, SIZE_MAX);
        if (open_entries) m_heap.reserve_entries(open_entries);
    }

    /// Starts a search from one start node with g = 0. Any previous search is forgotten in O(1).
    template <class Space>
        requires SearchSpace<Space, Cost>
    void begin(Space& space, NodeIndex start, const Budget& budget = {}) {
        const Cost zero = Traits::zero();
        begin(space, std::span<const NodeIndex>(&start, 1), std::span<const Cost>(&zero, 1), budget);
    }

    /// Starts a search from several sources, each with its own initial g (multi-source Dijkstra or
    /// A*: a distance field, or "nearest of many" when the goal test accepts any target).
    /// `start_costs` may be empty (all zero) or have one entry per start.
    template <class Space>
        requires SearchSpace<Space, Cost>
    void begin(Space& space, std::span<const NodeIndex> starts, std::span<const Cost> start_costs,
               const Budget& budget = {}) {
        new_generation();
        m_heap.clear();
        m_stats = {};
        m_budget = budget;
        m_goal = kNoNode;
        m_status = Status::InProgress;
        m_limit = BudgetLimit::None;
        m_out_of_memory = false;
        m_clock_mask = 0;
        m_sequence = 0;
        m_space_bytes = space_memory_bytes(space);
        if (!grow(space.node_bound())) {
            m_status = Status::BudgetExhausted;
            m_limit = BudgetLimit::Memory;
            return;
        }
        for (std::size_t i = 0; i < starts.size(); ++i) {
            const NodeIndex s = starts[i];
            const Cost g0 = start_costs.empty() ? Traits::zero() : start_costs[i];
            if (is_open(s) && !(g0 < m_g[s])) continue;
            const Cost h = space.heuristic(s);
            if (Traits::is_infinite(h)) continue;
            if (is_open(s)) {
                m_g[s] = g0;
                m_heap.decrease(s, Key{g0 + h, h, ++m_sequence});
            } else {
                m_stamp[s] = m_generation;
                m_g[s] = g0;
                m_h[s] = h;
                m_parent[s] = kNoNode;
                m_label[s] = UINT32_MAX;
                m_heap.push(s, Key{g0 + h, h, ++m_sequence});
            }
        }
    }

    /// Runs up to `slice_expansions` expansions. Returns `InProgress` if the slice ran out first,
    /// otherwise the final status (`Found`, `NoPath`, `BudgetExhausted`). Calling step() after a final
    /// status returns that status again.
    template <class Space>
        requires SearchSpace<Space, Cost>
    Status step(Space& space, std::uint64_t slice_expansions = UINT64_MAX) {
        if (m_status != Status::InProgress) return m_status;
        const bool has_deadline = m_budget.deadline != std::chrono::steady_clock::time_point::max();
        const bool has_memory_limit = m_budget.max_memory_bytes != SIZE_MAX;
        std::uint64_t slice_left = slice_expansions;
        std::uint32_t refined = 0;
        while (!m_heap.empty()) {
            const NodeIndex node = m_heap.top().node;
            if constexpr (RefinesHeuristic<Space, Cost>) {
                const Cost h = space.refine_heuristic(node, m_h[node]);
                if (Traits::is_infinite(h) || m_h[node] < h) {
                    m_heap.pop();
                    m_h[node] = h;
                    if (Traits::is_infinite(h)) {
                        m_stamp[node] = m_generation + 1;  // proved dead end: closed for this search
                        m_g[node] = Traits::zero();        // any later route is "not better"
                    } else {
                        m_heap.push(node, Key{m_g[node] + h, h, ++m_sequence});
                    }
                    // A refinement is a heuristic evaluation: keep the deadline within 64 of them.
                    if (has_deadline && (++refined & 63u) == 0 && deadline_passed()) return exhausted(BudgetLimit::Time);
                    continue;
                }
            }
            if (space.is_goal(node)) {
                m_goal = node;
                return m_status = Status::Found;
            }
            if (m_stats.expanded >= m_budget.max_expansions) return exhausted(BudgetLimit::Expansions);
            if (has_deadline && (m_stats.expanded & m_clock_mask) == 0 && deadline_passed())
                return exhausted(BudgetLimit::Time);
            if (slice_left == 0) return Status::InProgress;
            --slice_left;
            m_heap.pop();
            m_stamp[node] = m_generation + 1;  // closed
            ++m_stats.expanded;
            const Cost g_node = m_g[node];
            space.expand(node, [&](NodeIndex succ, Cost step_cost, std::uint32_t label) {
                relax(space, node, g_node, succ, step_cost, label);
            });
            if (has_memory_limit) {
                m_space_bytes = space_memory_bytes(space);
                if (m_out_of_memory || memory_bytes() > m_budget.max_memory_bytes) return exhausted(BudgetLimit::Memory);
            }
        }
        return m_status = Status::NoPath;
    }

    /// begin() + step() until a final status.
    template <class Space>
        requires SearchSpace<Space, Cost>
    Status run(Space& space, NodeIndex start, const Budget& budget = {}) {
        begin(space, start, budget);
        return step(space);
    }

    /// Status of the current search (`InProgress` until it finishes).
    [[nodiscard]] Status status() const noexcept { return m_status; }
    /// The goal node reached, or kNoNode.
    [[nodiscard]] NodeIndex goal() const noexcept { return m_goal; }
    [[nodiscard]] const SearchStats& stats() const noexcept { return m_stats; }
    /// Which budget limit ended the search (`BudgetLimit::None` unless the status is BudgetExhausted).
    [[nodiscard]] BudgetLimit budget_limit() const noexcept { return m_limit; }
    /// Bytes of the search's storage as the memory budget counts them: the engine's arrays and heap
    /// at capacity, plus the space's `memory_bytes()` as last seen by begin() or step().
    [[nodiscard]] std::size_t memory_bytes() const noexcept {
        const std::size_t own = m_stamp.capacity() * kBytesPerNode + m_heap.memory_bytes();
        return m_space_bytes > SIZE_MAX - own ? SIZE_MAX : own + m_space_bytes;
    }
    /// Bytes of the engine's own arrays and heap (memory_bytes() without the space's part).
    [[nodiscard]] std::size_t engine_bytes() const noexcept {
        return m_stamp.capacity() * kBytesPerNode + m_heap.memory_bytes();
    }
    /// Nodes currently on the open list.
    [[nodiscard]] std::size_t open_size() const noexcept { return m_heap.size(); }

    /// True if the current search has generated `node` (open or closed).
    [[nodiscard]] bool reached(NodeIndex node) const noexcept {
        return node < m_stamp.size() && (m_stamp[node] == m_generation || m_stamp[node] == m_generation + 1);
    }
    /// True if the current search has expanded `node`.
    [[nodiscard]] bool closed(NodeIndex node) const noexcept {
        return node < m_stamp.size() && m_stamp[node] == m_generation + 1;
    }
    /// Best known cost from the start(s); exact for closed nodes. Precondition: reached(node).
    [[nodiscard]] Cost g(NodeIndex node) const noexcept { return m_g[node]; }
    /// Predecessor on the best known route (kNoNode for a start). Precondition: reached(node).
    [[nodiscard]] NodeIndex parent(NodeIndex node) const noexcept { return m_parent[node]; }
    /// Edge label the space gave the edge parent(node) -> node. Precondition: reached(node).
    [[nodiscard]] std::uint32_t label(NodeIndex node) const noexcept { return m_label[node]; }

    /// Writes the node sequence start..node into `out` (cleared first). Allocates only if `out` must grow.
    void path_to(NodeIndex node, std::vector<NodeIndex>& out) const {
        out.clear();
        for (NodeIndex n = node; n != kNoNode; n = m_parent[n]) out.push_back(n);
        for (std::size_t i = 0, j = out.size(); i + 1 < j; ++i, --j) std::swap(out[i], out[j - 1]);
    }

    /// Current generation stamp; exposed for specialised loops that share this context's arrays.
    [[nodiscard]] std::uint32_t generation() const noexcept { return m_generation; }

private:
    [[nodiscard]] bool is_open(NodeIndex node) const noexcept { return m_stamp[node] == m_generation; }

    template <class Space>
    void relax(Space& space, NodeIndex from, const Cost& g_from, NodeIndex succ, const Cost& step_cost,
               std::uint32_t label) {
        ++m_stats.generated;
        if (succ >= m_stamp.size()) {
            m_space_bytes = space_memory_bytes(space);
            if (!grow(std::max<std::size_t>(space.node_bound(), std::size_t{succ} + 1))) return;
        }
        const Cost g_new = g_from + step_cost;
        const std::uint32_t stamp = m_stamp[succ];
        if (stamp == m_generation) {  // open: decrease-key if better
            if (!(g_new < m_g[succ])) return;
            m_g[succ] = g_new;
            m_parent[succ] = from;
            m_label[succ] = label;
            m_heap.decrease(succ, Key{g_new + m_h[succ], m_h[succ], ++m_sequence});
            return;
        }
        if (stamp == m_generation + 1) {  // closed: re-open only if strictly better
            if (!(g_new < m_g[succ])) return;
            ++m_stats.reopened;
            m_stamp[succ] = m_generation;
            m_g[succ] = g_new;
            m_parent[succ] = from;
            m_label[succ] = label;
            m_heap.push(succ, Key{g_new + m_h[succ], m_h[succ], ++m_sequence});
            return;
        }
        const Cost h = space.heuristic(succ);
        if (Traits::is_infinite(h)) {  // proved dead end: close it for this search
            m_stamp[succ] = m_generation + 1;
            m_g[succ] = Traits::zero();  // any later route is "not better"; never a parent of anything
            m_parent[succ] = kNoNode;
            m_h[succ] = h;
            return;
        }
        m_stamp[succ] = m_generation;
        m_g[succ] = g_new;
        m_h[succ] = h;
        m_parent[succ] = from;
        m_label[succ] = label;
        m_heap.push(succ, Key{g_new + h, h, ++m_sequence});
    }

    // Per-node bytes of the engine's arrays (stamp, g, h, parent, label; the heap counts its own).
    static constexpr std::size_t kBytesPerNode =
        sizeof(std::uint32_t) + 2 * sizeof(Cost) + sizeof(NodeIndex) + sizeof(std::uint32_t);

    // Reads the clock. The first 64 expansions read it every time (from the second on), so that a
    // search whose expansions are expensive keeps its deadline to within one expansion; if those 64
    // took under a millisecond, later ones read it every 64 expansions only.
    bool deadline_passed() noexcept {
        const auto now = std::chrono::steady_clock::now();
        if (m_stats.expanded == 0) m_first_clock = now;
        else if (m_stats.expanded == 64 && now - m_first_clock < std::chrono::milliseconds(1)) m_clock_mask = 63;
        return now >= m_budget.deadline;
    }

    Status exhausted(BudgetLimit limit) noexcept {
        m_limit = limit;
        return m_status = Status::BudgetExhausted;
    }

    // Grows the per-node arrays to cover `bound` (doubling). Returns false, and grows nothing, when
    // the grown storage (counting a full open list) would exceed the memory budget.
    bool grow(std::size_t bound) { return grow(bound, m_budget.max_memory_bytes); }
    // The first sizing (reserve, or the first search) takes exactly the bound asked for (a grid's or a
    // graph's node count is final); later growth doubles (a GOAP state registry grows query by query).
    bool grow(std::size_t bound, std::size_t max_bytes) {
        if (bound <= m_stamp.size()) return true;
        std::size_t n = m_stamp.empty() ? std::max<std::size_t>(bound, 64) : m_stamp.size();
        while (n < bound) n *= 2;
        if (max_bytes != SIZE_MAX) {
            const std::size_t entry = sizeof(typename IndexedHeap<Key>::Entry) + sizeof(std::uint32_t);
            const std::size_t per_node = kBytesPerNode + entry;
            if (n > (max_bytes - std::min(max_bytes, m_space_bytes)) / per_node) {
                m_out_of_memory = true;
                return false;
            }
        }
        m_stamp.resize(n, 0);
        m_g.resize(n);
        m_h.resize(n);
        m_parent.resize(n);
        m_label.resize(n);
        m_heap.reserve_nodes(n);
        return true;
    }

    void new_generation() {
        // Generations advance by 2: stamp == gen means open, gen + 1 closed, anything else unvisited.
        advance_generation(m_generation, [&] { std::fill(m_stamp.begin(), m_stamp.end(), kUnvisitedStamp); });
    }

    std::vector<std::uint32_t> m_stamp;
    std::vector<Cost> m_g;
    std::vector<Cost> m_h;
    std::vector<NodeIndex> m_parent;
    std::vector<std::uint32_t> m_label;
    IndexedHeap<Key> m_heap;
    SearchStats m_stats;
    Budget m_budget;
    NodeIndex m_goal = kNoNode;
    Status m_status = Status::NoPath;
    BudgetLimit m_limit = BudgetLimit::None;
    bool m_out_of_memory = false;
    std::uint64_t m_clock_mask = 0;  // read the clock when (expanded & mask) == 0
    std::chrono::steady_clock::time_point m_first_clock{};
    std::size_t m_space_bytes = 0;
    std::uint32_t m_generation = 0;
    std::uint32_t m_sequence = 0;
};

}  // namespace gameplan::search
