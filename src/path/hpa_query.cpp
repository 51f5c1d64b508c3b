// HPA* queries: insert start and goal, A* over the abstract graph, refine to cells, smooth.
#include <gameplan/path/hpa.hpp>
#include <gameplan/path/islands.hpp>
#include <gameplan/path/jps.hpp>
#include <gameplan/path/smoothing.hpp>

#include "exact_growth.hpp"
#include "hpa_internal.hpp"
#include "path_output.hpp"

#include <gameplan/path/grid_space.hpp>
#include <gameplan/search/generation.hpp>
#include <gameplan/search/indexed_heap.hpp>

#include <algorithm>
#include "bit_cast.hpp"
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <utility>

namespace gameplan::path {

namespace {
constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr std::uint32_t kGoalLabel = UINT32_MAX - 1;    // a goal-cluster node -> goal
constexpr std::uint32_t kDirectLabel = UINT32_MAX - 2;  // start -> goal inside one cluster

struct Rect {
    std::int32_t x0, y0, w, h;
    [[nodiscard]] bool contains(GridPoint p) const noexcept { return p.x >= x0 && p.y >= y0 && p.x < x0 + w && p.y < y0 + h; }
    [[nodiscard]] std::size_t local(GridPoint p) const noexcept { return static_cast<std::size_t>((p.y - y0) * w + (p.x - x0)); }
};

// Cost of the legal in-rectangle step a -> b (neighbours) at the prices of `costs`, or +infinity if
// the step is not legal.
double step_in(const GridMap& map, const detail::CellCosts& costs, const Rect& rect, DiagonalRule rule, GridPoint a,
               GridPoint b) noexcept {
    if (!rect.contains(b)) return kInfinity;
    const std::uint32_t cell = map.index(b);
    if (!costs.pass[cell]) return kInfinity;
    const bool diagonal = a.x != b.x && a.y != b.y;
    if (diagonal && !diagonal_allowed(rule, costs.pass[map.index(GridPoint{b.x, a.y})] != 0,
                                      costs.pass[map.index(GridPoint{a.x, b.y})] != 0))
        return kInfinity;
    return costs.enter(cell, diagonal ? kDiagonalStep : 1.0);
}

// Appends the cells after `from` of a shortest in-cluster path from -> target, read off the table of
// distances cell -> target (`to_target[local cell]`) by always stepping to the neighbour that
// minimises step + remaining distance. The table values strictly decrease along the walk.
void descend_to(const GridMap& map, const detail::CellCosts& costs, const Rect& rect, DiagonalRule rule,
                const float* to_target, GridPoint from, GridPoint target, std::vector<GridPoint>& out) {
    const std::uint32_t directions = rule == DiagonalRule::Never ? 4 : 8;
    GridPoint at = from;
    for (std::size_t guard = static_cast<std::size_t>(rect.w) * static_cast<std::size_t>(rect.h); at != target && guard > 0; --guard) {
        double best = kInfinity;
        GridPoint next = at;
        for (std::uint32_t d = 0; d < directions; ++d) {
            const GridPoint q{at.x + kGridDirections[d].x, at.y + kGridDirections[d].y};
            const double step = step_in(map, costs, rect, rule, at, q);
            if (step == kInfinity) continue;
            const double value = step + static_cast<double>(to_target[rect.local(q)]);
            if (value < best) {
                best = value;
                next = q;
            }
        }
        if (best == kInfinity) return;
        at = next;
        out.push_back(at);
    }
}

// Appends the cells after `source` of a shortest in-cluster path source -> to, read backwards off the
// table of distances source -> cell (`from_source[local cell]`).
void descend_from(const GridMap& map, const detail::CellCosts& costs, const Rect& rect, DiagonalRule rule,
                  const float* from_source, GridPoint source, GridPoint to, std::vector<GridPoint>& out) {
    if (source == to) return;
    const std::uint32_t directions = rule == DiagonalRule::Never ? 4 : 8;
    const std::size_t first = out.size();
    GridPoint at = to;
    out.push_back(at);
    for (std::size_t guard = static_cast<std::size_t>(rect.w) * static_cast<std::size_t>(rect.h); guard > 0; --guard) {
        double best = kInfinity;
        GridPoint previous = at;
        for (std::uint32_t d = 0; d < directions; ++d) {
            const GridPoint p{at.x - kGridDirections[d].x, at.y - kGridDirections[d].y};
            if (!rect.contains(p) || !costs.pass[map.index(p)]) continue;
            const double step = step_in(map, costs, rect, rule, p, at);
            if (step == kInfinity) continue;
            const double value = static_cast<double>(from_source[rect.local(p)]) + step;
            if (value < best) {
                best = value;
                previous = p;
            }
        }
        if (best == kInfinity || previous == source) break;
        at = previous;
        out.push_back(at);
    }
    std::reverse(out.begin() + static_cast<std::ptrdiff_t>(first), out.end());
}
}  // namespace

// The abstract A* is a specialised loop beside the generic engine (like GridPathfinder): per-node state
// in one array of structs, target coordinates read from the edge, and the rule that a node entered
// through an intra edge does not relax intra edges of its own. It reuses the engine's heap, key
// (tie-break f, then h, then LIFO), generation stamps, Budget, SearchStats and Status.
struct HpaPathfinder::Impl {
    struct State {
        double g;
        double h;
        std::uint32_t parent;
        std::uint32_t label;      // edge index in the parent's edge list, start slot, or kGoal/kDirect
        std::uint32_t stamp;
        std::uint32_t via_intra;  // 1 if the best route enters through an intra (or start) edge
    };
    using Key = search::SearchContext<double>::Key;

    std::vector<State> state;
    search::IndexedHeap<Key> heap;
    std::uint32_t generation = search::kUnvisitedStamp;
    detail::ClusterFlood start_flood;
    detail::ClusterFlood goal_flood;
    std::vector<std::uint32_t> targets;
    std::vector<double> start_cost;  // per slot of the start cluster
    std::vector<double> goal_cost;   // per slot of the goal cluster
    std::vector<std::uint32_t> node_path;
    GridPathfinder local;  // refinement windows (rules JPS does not support)
    JpsPathfinder jps;     // refinement windows (8-connected, no corner cutting, uniform costs)
    GridPath segment;

    // The search in progress (begin .. step).
    const HierarchicalMap* h = nullptr;
    std::uint64_t map_version = 0;
    HpaQueryOptions options{};
    detail::CellCosts costs{};         // the hierarchy's prices (its cost profile's, or the map's)
    GridSearchOptions cost_options{};  // the same as query options (rules + profile)
    GridPoint start{}, goal{};
    std::uint32_t sc = 0, gc = 0;
    Rect srect{}, grect{};
    std::size_t scells = 0, gcells = 0;
    const float* start_table = nullptr;
    const float* goal_table = nullptr;
    double direct = kInfinity;
    double scale = 0.0;
    Heuristic metric = Heuristic::Octile;
    std::uint32_t start_id = 0, goal_id = 0;
    std::uint32_t sequence = 0;
    bool trivial = false;  // start == goal
    GridPath result;       // the refined (and smoothed) path, written by the final step
    std::size_t heap_nodes = 0;  // capacity of the heap's position array (it is made afresh to grow)
    bool out_of_memory = false;  // the search could not grow its open list within the memory budget

    // Bytes held, as HpaPathfinder::memory_bytes() reports them; `refiners` = false leaves out the
    // refinement windows' pathfinders.
    [[nodiscard]] std::size_t memory_bytes(bool refiners = true) const noexcept {
        const auto bytes = [](const auto& v) { return v.capacity() * sizeof(v[0]); };
        std::size_t b = bytes(state) + heap.memory_bytes() + start_flood.memory_bytes() + goal_flood.memory_bytes() +
                        bytes(targets) + bytes(start_cost) + bytes(goal_cost);
        if (refiners) b += search::space_memory_bytes(local) + jps.memory_bytes();
        return b;
    }
    // Entries the open list holds room for.
    [[nodiscard]] std::size_t open_capacity() const noexcept {
        return (heap.memory_bytes() - heap_nodes * sizeof(std::uint32_t)) / sizeof(search::IndexedHeap<Key>::Entry);
    }
    // True if holding `more` bytes on top of what is held stays within `max_bytes`.
    [[nodiscard]] bool fits(std::size_t more, std::size_t max_bytes) const noexcept {
        const std::size_t held = memory_bytes();
        return held <= max_bytes && more <= max_bytes - held;
    }
    [[nodiscard]] bool grow_open(std::size_t& capacity);
    // Sizes the cost arrays for clusters of `start_nodes` and `goal_nodes` nodes (at least 64 each).
    void size_costs(std::size_t start_nodes, std::size_t goal_nodes);
    // Sizes the abstract search for `state_count` nodes: exactly that many of each (the memory check
    // counts them so), the states reserved before they are resized, the heap made afresh (its position
    // array then grows from empty).
    void size_search(std::size_t state_count);
};

using detail::grow_exactly;
using detail::growth_bytes;

void HpaPathfinder::Impl::size_costs(std::size_t start_nodes, std::size_t goal_nodes) {
    if (start_cost.size() < start_nodes) grow_exactly(start_cost, std::max<std::size_t>(start_nodes, 64));
    if (goal_cost.size() < goal_nodes) grow_exactly(goal_cost, std::max<std::size_t>(goal_nodes, 64));
}

void HpaPathfinder::Impl::size_search(std::size_t state_count) {
    if (state.size() >= state_count) return;
    grow_exactly(state, state_count, State{0, 0, 0, 0, search::kUnvisitedStamp, 0});
    heap = search::IndexedHeap<Key>{};
    heap.reserve_nodes(state_count);
    heap_nodes = state_count;
}

// With a memory limit and the open list full: doubles its room (as push_back would), unless that passes
// the budget (then the search is out of memory).
[[gnu::noinline]] bool HpaPathfinder::Impl::grow_open(std::size_t& capacity) {
    const std::size_t n = capacity == 0 ? 1 : 2 * capacity;
    if (!fits((n - capacity) * sizeof(search::IndexedHeap<Key>::Entry), options.budget.max_memory_bytes)) {
        out_of_memory = true;
        return false;
    }
    heap.reserve_entries(n);
    capacity = n;
    return true;
}

std::size_t HpaPathfinder::memory_bytes() const noexcept { return m_impl ? m_impl->memory_bytes() : 0; }

HpaPathfinder::HpaPathfinder() = default;
HpaPathfinder::~HpaPathfinder() = default;
HpaPathfinder::HpaPathfinder(HpaPathfinder&&) noexcept = default;
HpaPathfinder& HpaPathfinder::operator=(HpaPathfinder&&) noexcept = default;

double HpaPathfinder::suboptimality_bound() const noexcept {
    if (!(m_cost < kInfinity)) return kInfinity;
    if (m_lower_bound <= 0.0) return m_cost <= 0.0 ? 0.0 : kInfinity;
    return std::max(0.0, m_cost / m_lower_bound - 1.0);
}

// True if refinement windows on `h` are searched by JPS (8-connected, no corner cutting, uniform costs),
// else by A*.
bool HpaPathfinder::refines_with_jps(const HierarchicalMap& h) noexcept {
    return h.m_movement == Movement::Eight && h.m_diagonal == DiagonalRule::NoCornerCutting && !h.m_map->has_terrain_costs() &&
           !h.m_profiled;
}

void HpaPathfinder::reserve(const HierarchicalMap& h) {
    if (!h.built() || h.m_map == nullptr) return;
    if (!m_impl) m_impl = std::make_unique<Impl>();
    Impl& s = *m_impl;
    const GridMap& map = *h.m_map;
    std::size_t cells = 0, nodes = 0;
    for (const HierarchicalMap::Cluster& c : h.m_clusters) {
        cells = std::max(cells, static_cast<std::size_t>(c.w) * static_cast<std::size_t>(c.h));
        nodes = std::max(nodes, c.nodes.size());
    }
    // As begin sizes them: the start's flood (without tables, or for start and goal in one cluster), the
    // goal's (without tables), their targets and the costs of a cluster's nodes.
    s.start_flood.reserve(cells);
    if (!h.m_options.distance_tables) s.goal_flood.reserve(cells);
    if (s.targets.capacity() < nodes + 1) s.targets.reserve(nodes + 1);
    s.size_costs(nodes, nodes);
    const std::size_t state_count = std::size_t{h.node_bound()} + 2;
    s.size_search(state_count);
    s.heap.reserve_entries(state_count);
    // The refinement windows search the whole map, by JPS where the rules allow it.
    if (refines_with_jps(h))
        s.jps.sync(map);
    else
        s.local.reserve(map);
    const std::size_t path_cells = 2 * (static_cast<std::size_t>(map.width()) + static_cast<std::size_t>(map.height()));
    s.result.cells.reserve(path_cells);
    s.segment.cells.reserve(path_cells);
    s.node_path.reserve(state_count);
}

Status HpaPathfinder::begin(const HierarchicalMap& h, GridPoint start, GridPoint goal, const HpaQueryOptions& options) {
    if (!m_impl) m_impl = std::make_unique<Impl>();
    Impl& s = *m_impl;
    m_stats = {};
    m_insertion_expanded = m_refinement_expanded = m_abstract_path_nodes = 0;
    m_abstract_cost = kInfinity;
    m_cost = kInfinity;
    m_lower_bound = 0.0;
    m_limit = search::BudgetLimit::None;
    s.h = nullptr;
    s.trivial = false;
    s.out_of_memory = false;
    s.result.cells.clear();
    s.result.cost = kInfinity;
    if (!h.built() || h.m_map == nullptr) return m_status = Status::InvalidQuery;
    const GridMap& map = *h.m_map;
    if (map.width() != h.m_width || map.height() != h.m_height || map.version() != h.m_map_version ||
        !map.contains(start) || !map.contains(goal) || !(options.weight >= 1.0) || !std::isfinite(options.weight) ||
        effective_diagonal(options.movement, options.diagonal) != h.m_diagonal || options.heuristic != Heuristic::Auto ||
        !h.matches_costs(options) || !h.versions_current())
        return m_status = Status::InvalidQuery;
    s.costs = HierarchicalMap::Impl::costs(h, map);
    if (!s.costs.pass[map.index(start)] || !s.costs.pass[map.index(goal)]) return m_status = Status::InvalidQuery;
    s.cost_options = HierarchicalMap::Impl::cost_options(h);
    if (islands_prove_unreachable(map, options, start, goal)) return m_status = Status::NoPath;

    s.h = &h;
    s.map_version = h.m_map_version;
    s.options = options;
    s.start = start;
    s.goal = goal;
    const DiagonalRule diagonal = h.m_diagonal;
    s.metric = resolve_heuristic(h.m_movement, diagonal, Heuristic::Auto);
    const double min_cost = s.costs.h_scale;
    m_lower_bound = min_cost * heuristic_distance(s.metric, std::abs(goal.x - start.x), std::abs(goal.y - start.y));
    const std::size_t max_bytes = options.budget.max_memory_bytes;
    const auto out_of_memory = [&] {
        s.h = nullptr;
        m_limit = search::BudgetLimit::Memory;
        return m_status = Status::BudgetExhausted;
    };
    if (start == goal) {
        if (max_bytes != SIZE_MAX && !s.fits(0, max_bytes)) return out_of_memory();
        s.trivial = true;
        return m_status = Status::InProgress;
    }

    // Insert start and goal: with distance tables a lookup per node of their clusters, otherwise one
    // flood each inside the cluster, stopping once its nodes are settled (the goal's on reversed
    // steps). Start and goal in one cluster also need the direct in-cluster distance: a flood.
    const std::uint32_t sc = h.cluster_of(start.x, start.y), gc = h.cluster_of(goal.x, goal.y);
    s.sc = sc;
    s.gc = gc;
    const HierarchicalMap::Cluster& scl = h.m_clusters[sc];
    const HierarchicalMap::Cluster& gcl = h.m_clusters[gc];
    s.srect = Rect{scl.x0, scl.y0, scl.w, scl.h};
    s.grect = Rect{gcl.x0, gcl.y0, gcl.w, gcl.h};
    const Rect srect = s.srect, grect = s.grect;
    const std::size_t sk = scl.nodes.size(), gk = gcl.nodes.size();
    s.scells = static_cast<std::size_t>(scl.w) * static_cast<std::size_t>(scl.h);
    s.gcells = static_cast<std::size_t>(gcl.w) * static_cast<std::size_t>(gcl.h);
    const bool tables = h.m_options.distance_tables;
    const bool start_flood = !tables || sc == gc, goal_flood = !tables;
    const std::size_t target_count = std::max(start_flood ? (tables ? 0 : sk) + (sc == gc ? 1 : 0) : 0, goal_flood ? gk : 0);
    const std::size_t state_count = std::size_t{h.node_bound()} + 2;  // hierarchy nodes, start, goal
    // The memory budget: what this query adds to what is held (floods and buffers for its clusters, the
    // abstract search's state and the heap's positions for the hierarchy, one open-list entry) must fit.
    if (max_bytes != SIZE_MAX) {
        std::size_t more = (start_flood ? s.start_flood.growth_bytes(s.scells) : 0) +
                           (goal_flood ? s.goal_flood.growth_bytes(s.gcells) : 0) + growth_bytes(s.targets, target_count) +
                           (s.start_cost.size() < sk ? growth_bytes(s.start_cost, std::max<std::size_t>(sk, 64)) : 0) +
                           (s.goal_cost.size() < gk ? growth_bytes(s.goal_cost, std::max<std::size_t>(gk, 64)) : 0);
        if (s.state.size() < state_count) {
            const std::size_t after = std::max(s.state.capacity(), state_count) * sizeof(Impl::State) +
                                      state_count * sizeof(std::uint32_t);  // the heap made afresh
            const std::size_t now = s.state.capacity() * sizeof(Impl::State) + s.heap.memory_bytes();
            more += (after > now ? after - now : 0) + sizeof(search::IndexedHeap<Impl::Key>::Entry);
        } else if (s.open_capacity() == 0) {
            more += sizeof(search::IndexedHeap<Impl::Key>::Entry);
        }
        if (!s.fits(more, max_bytes)) return out_of_memory();
    }
    s.start_table = tables ? (scl.dist_to.empty() ? scl.dist_from.data() : scl.dist_to.data()) : nullptr;
    s.goal_table = tables ? gcl.dist_from.data() : nullptr;
    s.size_costs(sk, gk);
    if (s.targets.capacity() < target_count) s.targets.reserve(target_count);
    const auto node_local = [&](const Rect& r, std::uint32_t id) { return r.local(GridPoint{h.m_nodes[id].x, h.m_nodes[id].y}); };
    if (start_flood) {
        s.targets.clear();
        if (!tables)
            for (std::uint32_t id : scl.nodes) s.targets.push_back(static_cast<std::uint32_t>(node_local(srect, id)));
        if (sc == gc) s.targets.push_back(static_cast<std::uint32_t>(srect.local(goal)));
        // With tables the goal is the only target: aim at it.
        s.start_flood.run(map, s.costs, {scl.x0, scl.y0, scl.w, scl.h}, diagonal, false, start, s.targets,
                          tables ? &goal : nullptr);
        m_insertion_expanded += s.start_flood.stats().expanded;
    }
    if (goal_flood) {
        s.targets.clear();
        for (std::uint32_t id : gcl.nodes) s.targets.push_back(static_cast<std::uint32_t>(node_local(grect, id)));
        s.goal_flood.run(map, s.costs, {gcl.x0, gcl.y0, gcl.w, gcl.h}, diagonal, true, goal, s.targets);
        m_insertion_expanded += s.goal_flood.stats().expanded;
    }
    for (std::size_t i = 0; i < sk; ++i) {
        if (tables) {
            s.start_cost[i] = static_cast<double>(s.start_table[i * s.scells + srect.local(start)]);
        } else {
            const auto local = static_cast<std::uint32_t>(node_local(srect, scl.nodes[i]));
            s.start_cost[i] = s.start_flood.settled(local) ? s.start_flood.g(local) : kInfinity;
        }
    }
    for (std::size_t i = 0; i < gk; ++i) {
        if (tables) {
            s.goal_cost[i] = static_cast<double>(s.goal_table[i * s.gcells + grect.local(goal)]);
        } else {
            const auto local = static_cast<std::uint32_t>(node_local(grect, gcl.nodes[i]));
            s.goal_cost[i] = s.goal_flood.settled(local) ? s.goal_flood.g(local) : kInfinity;
        }
    }
    s.direct = kInfinity;
    if (sc == gc && s.start_flood.settled(static_cast<std::uint32_t>(srect.local(goal))))
        s.direct = s.start_flood.g(static_cast<std::uint32_t>(srect.local(goal)));

    // Abstract A*. Ids: hierarchy nodes, then start = bound, goal = bound + 1.
    s.start_id = h.node_bound();
    s.goal_id = s.start_id + 1;
    s.size_search(state_count);
    search::advance_generation(s.generation, [&] {
        for (Impl::State& st : s.state) st.stamp = search::kUnvisitedStamp;
    });
    s.scale = min_cost * options.weight;
    const double h0 = s.scale * heuristic_distance(s.metric, std::abs(start.x - goal.x), std::abs(start.y - goal.y));
    s.sequence = 0;
    s.heap.clear();
    s.state[s.start_id] = Impl::State{0.0, h0, search::kNoNode, 0, search::open_stamp(s.generation), 1};
    s.heap.push(s.start_id, Impl::Key{h0, h0, ++s.sequence});
    s.state[s.goal_id].stamp = search::kUnvisitedStamp;
    return m_status = Status::InProgress;
}

Status HpaPathfinder::step(std::uint64_t slice_expansions) {
    if (m_status != Status::InProgress || !m_impl || m_impl->h == nullptr) return m_status;
    Impl& s = *m_impl;
    const HierarchicalMap& h = *s.h;
    // The hierarchy must not have been rebuilt or repaired, nor its map changed, between slices.
    if (!h.built() || h.m_map == nullptr || h.m_map_version != s.map_version || h.m_map->version() != s.map_version ||
        !h.versions_current() || (!s.trivial && h.node_bound() + 1 != s.goal_id)) {
        s.heap.clear();
        s.h = nullptr;
        return m_status = Status::InvalidQuery;
    }
    if (s.trivial) {
        s.result.cells.clear();
        s.result.cells.push_back(s.start);
        s.result.cost = m_cost = 0.0;
        m_abstract_path_nodes = 1;
        m_abstract_cost = 0.0;
        return m_status = Status::Found;
    }

    const std::uint32_t start_id = s.start_id, goal_id = s.goal_id, gc = s.gc;
    const GridPoint goal = s.goal;
    const HierarchicalMap::Cluster& scl = h.m_clusters[s.sc];
    const std::uint32_t open = search::open_stamp(s.generation), closed = search::closed_stamp(s.generation);
    const double scale = s.scale;
    const Heuristic metric = s.metric;
    const auto heuristic = [&](std::int32_t x, std::int32_t y) {
        return scale * heuristic_distance(metric, std::abs(x - goal.x), std::abs(y - goal.y));
    };
    const bool skip_intra = !h.m_options.prune_implied_edges;
    const HierarchicalMap::Node* nodes = h.m_nodes.data();
    const std::uint32_t* const* node_block = h.m_node_block.data();
    const std::uint32_t* node_xy = h.m_node_xy.data();
    Impl::State* const state = s.state.data();
    search::SearchStats& stats = m_stats;
    const search::Budget& budget = s.options.budget;

    const bool has_deadline = budget.deadline != std::chrono::steady_clock::time_point::max();
    // With a memory limit the open list grows only through grow_open (checked against the budget).
    const bool limited = budget.max_memory_bytes != SIZE_MAX;
    std::size_t open_room = limited ? s.open_capacity() : 0;
    Status status = Status::NoPath;
    for (std::uint64_t slice = 0;; ++slice) {
        if (s.out_of_memory) {  // a successor was dropped: the search is not exact any more
            status = Status::BudgetExhausted;
            m_limit = search::BudgetLimit::Memory;
            break;
        }
        if (s.heap.empty()) {
            status = Status::NoPath;
            break;
        }
        const std::uint32_t node = s.heap.top().node;
        if (node == goal_id) {
            status = Status::Found;
            break;
        }
        if (stats.expanded >= budget.max_expansions) {
            status = Status::BudgetExhausted;
            m_limit = search::BudgetLimit::Expansions;
            break;
        }
        if (has_deadline && (stats.expanded & 63u) == 0 && std::chrono::steady_clock::now() >= budget.deadline) {
            status = Status::BudgetExhausted;
            m_limit = search::BudgetLimit::Time;
            break;
        }
        if (slice >= slice_expansions) return m_status = Status::InProgress;
        s.heap.pop();
        // The next node to expand is usually the new top (unless a child beats it): fetch its block
        // while this one is expanded.
        if (!s.heap.empty() && s.heap.top().node < start_id) __builtin_prefetch(node_block[s.heap.top().node]);
        Impl::State& current = state[node];
        current.stamp = closed;
        ++stats.expanded;
        const double g = current.g;
        const bool entered_inside = skip_intra && current.via_intra != 0;

        const auto relax = [&](std::uint32_t to, double cost, std::uint32_t label, std::uint32_t via_intra, std::int32_t tx,
                               std::int32_t ty) {
            ++stats.generated;
            Impl::State& next = state[to];
            const double g_next = g + cost;
            if (next.stamp == open) {
                if (!(g_next < next.g)) return;
                next.g = g_next;
                next.parent = node;
                next.label = label;
                next.via_intra = via_intra;
                s.heap.decrease(to, Impl::Key{g_next + next.h, next.h, ++s.sequence});
                return;
            }
            if (next.stamp == closed) return;  // consistent heuristic: closed means final
            if (limited && s.heap.size() == open_room && !s.grow_open(open_room)) return;
            const double hn = to == goal_id ? 0.0 : heuristic(tx, ty);
            next = Impl::State{g_next, hn, node, label, open, via_intra};
            s.heap.push(to, Impl::Key{g_next + hn, hn, ++s.sequence});
        };

        if (node == start_id) {
            for (std::uint32_t slot = 0; slot < scl.nodes.size(); ++slot)
                if (s.start_cost[slot] < kInfinity) {
                    const HierarchicalMap::Node& n = nodes[scl.nodes[slot]];
                    relax(scl.nodes[slot], s.start_cost[slot], slot, 1, n.x, n.y);
                }
            if (s.direct < kInfinity) relax(goal_id, s.direct, kDirectLabel, 1, goal.x, goal.y);
            continue;
        }
        const std::uint32_t* block = node_block[node];
        const std::uint32_t edge_count = block[0], intra_count = block[1];
        const std::uint32_t* edge = block + HierarchicalMap::kBlockHeader;
        for (std::uint32_t e = entered_inside ? intra_count : 0; e < edge_count; ++e) {
            const std::uint32_t to = edge[2 * e + 1];
            const std::uint32_t xy = node_xy[to];
            relax(to, static_cast<double>(detail::bit_cast<float>(edge[2 * e])), e, e < intra_count ? 1u : 0u,
                  static_cast<std::int32_t>(xy & 0xffffu), static_cast<std::int32_t>(xy >> 16));
        }
        if (block[2] == gc && !entered_inside && s.goal_cost[block[3]] < kInfinity)
            relax(goal_id, s.goal_cost[block[3]], kGoalLabel, 1, goal.x, goal.y);
    }
    if (status == Status::Found) write_path();
    return m_status = status;
}

void HpaPathfinder::write_path() {
    // Refine: the start flood's path, the cached edge paths, the goal flood's path.
    Impl& s = *m_impl;
    const HierarchicalMap& h = *s.h;
    const GridMap& map = *h.m_map;
    const DiagonalRule diagonal = h.m_diagonal;
    const bool tables = h.m_options.distance_tables;
    const HierarchicalMap::Node* nodes = h.m_nodes.data();
    const std::uint32_t* const* node_block = h.m_node_block.data();
    const Impl::State* const state = s.state.data();
    const GridPoint start = s.start, goal = s.goal;
    GridPath& out = s.result;
    out.cells.clear();
    s.node_path.clear();
    for (std::uint32_t n = s.goal_id; n != search::kNoNode; n = state[n].parent) s.node_path.push_back(n);
    std::reverse(s.node_path.begin(), s.node_path.end());
    const std::vector<std::uint32_t>& path = s.node_path;
    m_abstract_path_nodes = path.size();
    const auto append_from_start_flood = [&](GridPoint target) {
        const std::size_t first = out.cells.size();
        for (std::uint32_t n = s.start_flood.local(target); n != search::kNoNode; n = s.start_flood.parent(n))
            out.cells.push_back(s.start_flood.point(n));
        std::reverse(out.cells.begin() + static_cast<std::ptrdiff_t>(first), out.cells.end());
    };
    if (path.size() == 2) {
        append_from_start_flood(goal);
    } else {
        const HierarchicalMap::Node& first = nodes[path[1]];
        if (tables) {
            out.cells.push_back(start);
            descend_to(map, s.costs, s.srect, diagonal, s.start_table + first.slot * s.scells, start, GridPoint{first.x, first.y},
                       out.cells);
        } else {
            append_from_start_flood(GridPoint{first.x, first.y});
        }
        for (std::size_t i = 1; i + 2 < path.size(); ++i) {
            const HierarchicalMap::Node& from = nodes[path[i]];
            const HierarchicalMap::Cluster& c = h.m_clusters[from.cluster];
            const std::uint32_t label = state[path[i + 1]].label;
            const std::uint8_t* step = c.steps.data() + c.edge_steps[from.edge_begin + label];
            const HierarchicalMap::Node& to = nodes[node_block[path[i]][HierarchicalMap::kBlockHeader + 2 * label + 1]];
            GridPoint at{from.x, from.y};
            while (at.x != to.x || at.y != to.y) {
                const GridPoint d = kGridDirections[*step++];
                at = GridPoint{at.x + d.x, at.y + d.y};
                out.cells.push_back(at);
            }
        }
        const HierarchicalMap::Node& last = nodes[path[path.size() - 2]];
        if (tables) {
            descend_from(map, s.costs, s.grect, diagonal, s.goal_table + last.slot * s.gcells, GridPoint{last.x, last.y}, goal,
                         out.cells);
        } else {
            for (std::uint32_t n = s.goal_flood.parent(s.goal_flood.local(GridPoint{last.x, last.y})); n != search::kNoNode;
                 n = s.goal_flood.parent(n))
                out.cells.push_back(s.goal_flood.point(n));
        }
    }
    // Edge and table distances are floats: the exact cost is summed from the cells.
    out.cost = query_path_cost(map, out.cells, s.cost_options);
    m_abstract_cost = out.cost;
    if (s.options.refine) refine(h, out);
    if (s.options.smooth) {
        SmoothingOptions smoothing;
        smoothing.movement = h.m_movement;
        smoothing.diagonal = diagonal;
        smooth_path(map, out, smoothing, s.cost_options);
    }
    m_cost = out.cost;
}

Status HpaPathfinder::finish(GridPath& out) const {
    const Impl* s = m_impl.get();  // never null once a query was found
    return detail::write_result(m_status, s != nullptr ? s->result.cost : kInfinity,
                                s != nullptr ? s->options.detail : PathDetail::Cells, out,
                                [&](std::vector<GridPoint>& cells) { cells.assign(s->result.cells.begin(), s->result.cells.end()); });
}

Status HpaPathfinder::find_path(const HierarchicalMap& h, GridPoint start, GridPoint goal, const HpaQueryOptions& options,
                                GridPath& out) {
    if (begin(h, start, goal, options) == Status::InProgress) step();
    return finish(out);
}

void HpaPathfinder::refine(const HierarchicalMap& h, GridPath& out) {
    // Windows of `window` path cells (two cluster sides: a detour through a far transition can span
    // more than one), each replaced by an optimal path between its ends when that is cheaper. A window
    // whose cost already equals the lower bound of its ends (octile or Manhattan distance times the
    // minimum cost) is optimal and skipped without a search: in open areas most are. The others are
    // searched by a budgeted JPS when the rules allow it (8-connected, no corner cutting, uniform
    // costs), else by a budgeted A*; a window whose search runs out of budget is kept. Consecutive
    // windows overlap by half, so every border crossing lies well inside some window and a detour
    // through a transition is straightened there. The cost never rises.
    Impl& s = *m_impl;
    const GridMap& map = *h.m_map;
    std::vector<GridPoint>& cells = out.cells;
    const std::size_t window = static_cast<std::size_t>(std::max(8, 2 * h.m_options.cluster_size));
    GridSearchOptions local = s.cost_options;  // the rules and the hierarchy's cost profile
    local.budget.max_expansions = 4 * window * window;
    const bool use_jps = refines_with_jps(h);
    // A memory limit: the window pathfinder may hold what the rest of the query object leaves of it.
    const std::size_t max_bytes = s.options.budget.max_memory_bytes;
    const auto window_memory = [&] {
        if (max_bytes == SIZE_MAX) return max_bytes;
        const std::size_t others = s.memory_bytes(false) + (use_jps ? search::space_memory_bytes(s.local) : s.jps.memory_bytes());
        return max_bytes > others ? max_bytes - others : 0;
    };
    const double min_cost = s.costs.h_scale;
    const auto segment_cost = [&](std::size_t from, std::size_t to) {
        double cost = 0.0;
        for (std::size_t i = from; i < to; ++i) cost += query_step_cost(map, cells[i], cells[i + 1], local);
        return cost;
    };
    bool improved = false;
    std::size_t pos = 0;
    while (pos + 2 < cells.size()) {
        std::size_t end = std::min(pos + window, cells.size() - 1);
        const double before = segment_cost(pos, end);
        const double bound = min_cost * heuristic_distance(s.metric, std::abs(cells[end].x - cells[pos].x),
                                                           std::abs(cells[end].y - cells[pos].y));
        if (before > bound * (1.0 + 1e-12)) {
            Status status;
            local.budget.max_memory_bytes = window_memory();
            if (use_jps) {
                status = s.jps.find_path(map, cells[pos], cells[end], local, s.segment);
                m_refinement_expanded += s.jps.stats().expanded;
            } else {
                status = s.local.find_path(map, cells[pos], cells[end], local, s.segment);
                m_refinement_expanded += s.local.stats().expanded;
            }
            if (status == Status::Found && s.segment.cost < before * (1.0 - 1e-12)) {
                const auto first = cells.begin() + static_cast<std::ptrdiff_t>(pos) + 1;
                cells.erase(first, cells.begin() + static_cast<std::ptrdiff_t>(end));
                cells.insert(cells.begin() + static_cast<std::ptrdiff_t>(pos) + 1, s.segment.cells.begin() + 1,
                             s.segment.cells.end() - 1);
                end = pos + s.segment.cells.size() - 1;
                improved = true;
            }
        }
        if (end + 1 >= cells.size()) break;
        pos += std::max<std::size_t>(1, (end - pos) / 2);
    }
    if (improved) out.cost = query_path_cost(map, cells, local);
}

}  // namespace gameplan::path
