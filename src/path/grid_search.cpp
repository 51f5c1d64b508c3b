#include <gameplan/path/grid_search.hpp>

#include <gameplan/path/islands.hpp>
#include <gameplan/search/generation.hpp>

#include "grid_key.hpp"
#include "path_output.hpp"

#include <algorithm>
#include "bit_cast.hpp"
#include "cost_layers.hpp"
#include "exact_growth.hpp"
#include "force_inline.hpp"
#include <chrono>
#include <cmath>
#include <limits>
#include <new>

namespace gameplan::path {

// The relaxation step is called from eight places per expansion; inlining it (GAMEPLAN_FORCE_INLINE) is
// worth ~2x.

namespace {
constexpr double kInfinity = std::numeric_limits<double>::infinity();
}  // namespace

void corner_points(std::span<const GridPoint> cells, std::vector<GridPoint>& out) {
    out.clear();
    if (cells.empty()) return;
    out.push_back(cells.front());
    for (std::size_t i = 1; i + 1 < cells.size(); ++i) {
        const int dx0 = cells[i].x - cells[i - 1].x, dy0 = cells[i].y - cells[i - 1].y;
        const int dx1 = cells[i + 1].x - cells[i].x, dy1 = cells[i + 1].y - cells[i].y;
        if (dx0 != dx1 || dy0 != dy1) out.push_back(cells[i]);
    }
    if (cells.size() > 1) out.push_back(cells.back());
}

void reduce_path(GridPath& path, PathDetail detail) noexcept {
    std::vector<GridPoint>& cells = path.cells;
    if (detail == PathDetail::CostOnly) {
        cells.clear();
        return;
    }
    if (detail != PathDetail::Waypoints || cells.size() < 3) return;
    std::size_t kept = 1;
    for (std::size_t i = 1; i + 1 < cells.size(); ++i) {
        const int dx0 = cells[i].x - cells[i - 1].x, dy0 = cells[i].y - cells[i - 1].y;
        const int dx1 = cells[i + 1].x - cells[i].x, dy1 = cells[i + 1].y - cells[i].y;
        if (dx0 != dx1 || dy0 != dy1) cells[kept++] = cells[i];
    }
    cells[kept++] = cells.back();
    cells.resize(kept);
}

void expand_waypoints(std::span<const GridPoint> waypoints, std::vector<GridPoint>& out) {
    out.clear();
    if (waypoints.empty()) return;
    GridPoint at = waypoints.front();
    out.push_back(at);
    for (std::size_t i = 1; i < waypoints.size(); ++i) {
        const GridPoint to = waypoints[i];
        while (at != to) {
            const int dx = to.x - at.x, dy = to.y - at.y;
            const int sx = dx > 0 ? 1 : (dx < 0 ? -1 : 0), sy = dy > 0 ? 1 : (dy < 0 ? -1 : 0);
            // Diagonal first (while both differ), then straight.
            at = GridPoint{at.x + sx, at.y + sy};
            out.push_back(at);
        }
    }
}

namespace {
bool forbidden_cell(const GridSearchOptions& options, GridPoint p) noexcept {
    if (options.filter == nullptr) return false;
    return options.filter->forbidden(options.areas != nullptr ? options.areas->at(p) : 0u);
}
}  // namespace

double query_step_cost(const GridMap& map, GridPoint from, GridPoint to, const GridSearchOptions& options) noexcept {
    if (!step_allowed(map, from, to, options.movement, options.diagonal) || forbidden_cell(options, to)) return kInfinity;
    const bool diagonal = from.x != to.x && from.y != to.y;
    if (diagonal && options.filter != nullptr) {
        const GridPoint a{to.x, from.y}, b{from.x, to.y};
        if (!diagonal_allowed(effective_diagonal(options.movement, options.diagonal),
                              map.passable(a) && !forbidden_cell(options, a), map.passable(b) && !forbidden_cell(options, b)))
            return kInfinity;
    }
    double step = step_cost(map, from, to);
    if (options.filter != nullptr)
        step *= options.filter->multiplier(options.areas != nullptr ? options.areas->at(to) : 0u);
    if (options.penalties != nullptr) step += options.penalty_weight * static_cast<double>(options.penalties->at(to));
    for (const CostLayer& layer : options.layers)
        if (layer.layer != nullptr) step += layer.weight * static_cast<double>(layer.layer->at(to));
    return step;
}

double query_path_cost(const GridMap& map, std::span<const GridPoint> cells, const GridSearchOptions& options) noexcept {
    if (cells.empty()) return 0.0;
    if (!map.passable(cells.front()) || forbidden_cell(options, cells.front())) return kInfinity;
    double cost = 0.0;
    for (std::size_t i = 1; i < cells.size(); ++i) cost += query_step_cost(map, cells[i - 1], cells[i], options);
    return cost;
}

inline GridPathfinder::Key GridPathfinder::make_key(double f, double h, std::uint32_t sequence) noexcept {
    const auto h_bits = detail::bit_cast<std::uint32_t>(static_cast<float>(h));
    return Key{detail::tie_f_bits(f), (std::uint64_t{h_bits} << 32) | std::uint64_t{~sequence}};
}

void GridPathfinder::ensure_capacity(std::size_t bound) {
    if (bound <= m_capacity) return;
    // The old state is dropped first (a larger map starts afresh), so old and new are never held at once.
    m_cells.reset();
    m_capacity = 0;
    // calloc: the zero stamps mean "unvisited", and large blocks come straight from the kernel as
    // zero pages that are only materialised when a search touches them.
    auto* fresh = static_cast<CellState*>(std::calloc(bound, sizeof(CellState)));
    if (!fresh) throw std::bad_alloc();
    m_cells.reset(fresh);
    m_capacity = bound;
}

std::size_t GridPathfinder::memory_bytes() const noexcept {
    return m_capacity * sizeof(CellState) + m_heap.memory_bytes() + m_goal_stamp.capacity() * sizeof(std::uint32_t) +
           m_layers.capacity() * sizeof(ActiveLayer) + m_layer_data.capacity() * sizeof(const float*);
}

// True when holding `more` bytes on top of what the pathfinder holds would pass the memory budget.
bool GridPathfinder::over_budget(std::size_t more) const noexcept {
    const std::size_t held = memory_bytes();
    return detail::passes_budget(held, more, m_budget.max_memory_bytes);
}

// With a memory limit, the open list full: grows it as a push would (doubling), unless that passes the
// budget (then the search is out of memory and nothing is allocated).
[[gnu::noinline]] bool GridPathfinder::grow_open() {
    const std::size_t capacity = m_heap.capacity();
    const std::size_t n = capacity == 0 ? 1 : 2 * capacity;
    if (over_budget((n - capacity) * sizeof(search::IndexedHeap<Key, kHeapArity>::Entry))) {
        m_out_of_memory = true;
        return false;
    }
    m_heap.reserve_entries(n);
    return true;
}

// Ends the search for the memory budget: no path, nothing left to expand.
Status GridPathfinder::out_of_memory() noexcept {
    m_heap.clear();
    m_held_node = search::kNoNode;
    m_step = nullptr;
    m_limit = search::BudgetLimit::Memory;
    return m_status = Status::BudgetExhausted;
}

// Sizes the per-cell arrays for the map of the search (and the goal marks when `goal_marks`) and puts the
// query's layers in force. With a memory limit, the bytes this adds are counted first: false, allocating
// nothing, when what the pathfinder holds plus them passes the budget.
bool GridPathfinder::allocate(const GridSearchOptions& options, bool goal_marks) {
    const std::size_t bound = m_bound;
    if (m_budget.max_memory_bytes != SIZE_MAX) {
        using detail::growth_bytes;
        const std::size_t bytes = growth_bytes(m_capacity, bound, sizeof(CellState)) +
                                  growth_bytes(m_heap.node_capacity(), bound, sizeof(std::uint32_t)) +
                                  (goal_marks ? growth_bytes(m_goal_stamp, bound) : 0) + growth_bytes(m_layers, m_layer_count) +
                                  growth_bytes(m_layer_data, m_layer_count);
        if (over_budget(bytes)) return false;
    }
    ensure_capacity(bound);
    m_heap.reserve_nodes(bound);
    if (goal_marks) detail::grow_exactly(m_goal_stamp, bound, search::kUnvisitedStamp);
    if (m_layer_count > 0) {
        m_layers.reserve(m_layer_count);
        m_layer_data.reserve(m_layer_count);  // run() sizes it to the layers without allocating
        (void)detail::collect_cost_layers(*m_map, options.penalties, options.penalty_weight, options.layers,
                                          [&](const PenaltyLayer* l, double w) { m_layers.push_back(ActiveLayer{l, w}); });
    }
    return true;
}

void GridPathfinder::reserve(const GridMap& map, std::size_t open_entries) {
    ensure_capacity(map.node_bound());
    m_heap.reserve_nodes(map.node_bound());
    m_heap.reserve_entries(std::min<std::size_t>(open_entries, map.node_bound()));
}

Status GridPathfinder::prepare(const GridMap& map, const GridSearchOptions& options) {
    m_limit = search::BudgetLimit::None;
    m_out_of_memory = false;
    m_layer_count = 0;
    m_heap.clear();
    m_held_node = search::kNoNode;
    m_stats = {};
    m_found = search::kNoNode;
    m_goal_node = search::kNoNode;
    m_multi_goal = false;
    m_h_goal_count = 0;
    m_sequence = 0;
    m_step = nullptr;
    m_map = nullptr;
    m_dead_ends = nullptr;
    m_layers.clear();
    m_areas = nullptr;
    m_multipliers = nullptr;
    m_forbidden = 0;
    m_present = 0;
    m_uniform_areas = false;
    m_base_multiplier = 1.0;
    m_extras = false;
    m_detail = options.detail;
    if (map.empty() || !(options.weight >= 1.0) || !std::isfinite(options.weight))
        return m_status = Status::InvalidQuery;
    // The layers are only counted here; allocate() puts them in force once the budget allows it.
    if (!detail::collect_cost_layers(map, options.penalties, options.penalty_weight, options.layers,
                                     [&](const PenaltyLayer*, double) { ++m_layer_count; }))
        return m_status = Status::InvalidQuery;
    if (options.areas != nullptr && !options.areas->matches(map)) return m_status = Status::InvalidQuery;
    double min_multiplier = 1.0;
    if (options.filter != nullptr) {
        if (options.areas != nullptr) {
            m_areas = options.areas;
            m_multipliers = options.filter->multipliers().data();
            m_forbidden = options.filter->forbidden_mask();
            m_present = options.areas->present();
            // One multiplier for every allowed area on the map (a filter that only forbids, say): the
            // loop then multiplies by it without reading the cell's area, and checks forbidden areas
            // only if one is on the map. Both are re-checked when areas appear during a sliced search.
            // (one pass over the allowed areas present, lowest bit first: a handful, not kMaxAreas)
            double lo = 0.0, hi = 0.0;
            bool any = false;
            for (std::uint64_t allowed = m_present & ~m_forbidden; allowed != 0; allowed &= allowed - 1) {
                const double m = m_multipliers[std::countr_zero(allowed)];
                lo = any ? std::min(lo, m) : m;
                hi = any ? std::max(hi, m) : m;
                any = true;
            }
            min_multiplier = any ? lo : 1.0;
            m_uniform_areas = lo == hi;
            if (m_uniform_areas) m_base_multiplier = min_multiplier;
        } else {
            // every cell is in area 0
            if (options.filter->forbidden(0)) return m_status = Status::InvalidQuery;
            m_base_multiplier = options.filter->multiplier(0);
            min_multiplier = m_base_multiplier;
        }
    }
    m_extras = m_areas != nullptr || m_base_multiplier != 1.0 || m_layer_count > 0;

    m_map = &map;
    m_bound = map.node_bound();
    m_stride = map.stride();
    m_map_version = map.version();
    // (The arrays are sized by allocate(), after the query is validated; cells it adds start unvisited.)
    search::advance_generation(m_generation, [&] {
        for (std::size_t i = 0; i < m_capacity; ++i) m_cells[i].stamp = search::kUnvisitedStamp;
        std::fill(m_goal_stamp.begin(), m_goal_stamp.end(), search::kUnvisitedStamp);
    });
    m_budget = options.budget;
    m_heuristic = resolve_heuristic(options.movement, options.diagonal, options.heuristic);
    m_h_scale = options.weight * static_cast<double>(map.min_cost()) * min_multiplier;

    return m_status = Status::InProgress;
}

Status GridPathfinder::begin(const GridMap& map, GridPoint start, GridPoint goal, const GridSearchOptions& options) {
    return begin(map, std::span<const GridPoint>(&start, 1), std::span<const GridPoint>(&goal, 1), options);
}

Status GridPathfinder::begin(const GridMap& map, std::span<const GridPoint> sources, std::span<const GridPoint> goals,
                             const GridSearchOptions& options) {
    if (prepare(map, options) != Status::InProgress) return m_status;
    const auto invalid = [&] {
        m_heap.clear();
        m_held_node = search::kNoNode;
        m_step = nullptr;
        return m_status = Status::InvalidQuery;
    };
    if (sources.empty()) return invalid();
    for (const GridPoint& p : sources)
        if (!map.passable(p) || forbidden_node(map.index(p))) return invalid();
    for (const GridPoint& p : goals)
        if (!map.passable(p) || forbidden_node(map.index(p))) return invalid();
    if (options.islands != nullptr &&
        options.islands->proves_unreachable(map, options, sources, goals)) {
        m_heap.clear();
        m_step = nullptr;
        return m_status = Status::NoPath;
    }
    // Storage held from earlier queries counts, and so do the arrays this map needs, before they are
    // allocated.
    if (!allocate(options, goals.size() > 1)) return out_of_memory();
    if (options.dead_ends != nullptr && sources.size() == 1 && goals.size() == 1 && options.dead_ends->any() &&
        options.dead_ends->applies_to(map, options)) {
        m_dead_ends = options.dead_ends;
        m_dead_query = m_dead_ends->query(map.index(sources[0]), map.index(goals[0]));
    }

    if (goals.size() == 1) {
        m_goal_node = map.index(goals[0]);
    } else if (!goals.empty()) {
        m_multi_goal = true;
        for (const GridPoint& p : goals) m_goal_stamp[map.index(p)] = m_generation;
    }
    if (goals.empty() || goals.size() > kMaxHeuristicGoals) m_heuristic = Heuristic::Zero;
    for (std::size_t i = 0; i < goals.size() && i < kMaxHeuristicGoals; ++i)
        m_h_goals[i] = GridPoint{goals[i].x + 1, goals[i].y + 1};
    m_h_goal_count = std::min(goals.size(), kMaxHeuristicGoals);

    const HMode mode = m_heuristic == Heuristic::Zero                                  ? HMode::Zero
                       : m_h_goal_count == 1 && m_heuristic == Heuristic::Octile    ? HMode::Octile
                       : m_h_goal_count == 1 && m_heuristic == Heuristic::Manhattan ? HMode::Manhattan
                                                                                    : HMode::Generic;
    const bool terrain = map.has_terrain_costs();
    const bool extras = m_extras;
    switch (effective_diagonal(options.movement, options.diagonal)) {
        case DiagonalRule::Never: m_step = pick_costs<DiagonalRule::Never>(terrain, extras, mode); break;
        case DiagonalRule::NoCornerCutting: m_step = pick_costs<DiagonalRule::NoCornerCutting>(terrain, extras, mode); break;
        case DiagonalRule::OneObstacle: m_step = pick_costs<DiagonalRule::OneObstacle>(terrain, extras, mode); break;
        case DiagonalRule::Always: m_step = pick_costs<DiagonalRule::Always>(terrain, extras, mode); break;
    }

    const bool limited = m_budget.max_memory_bytes != SIZE_MAX;
    for (const GridPoint& p : sources) {
        const std::uint32_t node = map.index(p);
        CellState& cell = m_cells[node];
        if (cell.stamp == search::open_stamp(m_generation)) continue;  // duplicate source, already g = 0
        if (limited && m_heap.size() == m_heap.capacity() && !grow_open()) return out_of_memory();
        const double h = heuristic_at(p.x + 1, p.y + 1);
        cell = CellState{0.0, search::kNoNode, search::open_stamp(m_generation)};
        m_heap.push(node, make_key(h, h, ++m_sequence));
    }
    return m_status;
}

Status GridPathfinder::step(std::uint64_t slice_expansions) {
    if (m_status != Status::InProgress || m_step == nullptr) return m_status;
    // A reset() between slices would leave our indices pointing into arrays of another shape.
    if (m_map->node_bound() != m_bound || m_map->stride() != m_stride) {
        m_heap.clear();
        m_held_node = search::kNoNode;
        return m_status = Status::InvalidQuery;
    }
    return (this->*m_step)(slice_expansions);
}

inline double GridPathfinder::heuristic_at(std::int32_t x, std::int32_t y) const noexcept {
    if (m_heuristic == Heuristic::Zero) return 0.0;
    double best = kInfinity;
    for (std::size_t i = 0; i < m_h_goal_count; ++i) {
        const double dx = std::abs(x - m_h_goals[i].x);
        const double dy = std::abs(y - m_h_goals[i].y);
        best = std::min(best, heuristic_distance(m_heuristic, dx, dy));
    }
    return best * m_h_scale;
}

inline bool GridPathfinder::forbidden_node(std::uint32_t node) const noexcept {
    return m_areas != nullptr && ((m_forbidden >> m_areas->data()[node]) & 1u) != 0;
}

template <DiagonalRule Rule, bool kTerrain, bool kPenalty>
GridPathfinder::StepFunction GridPathfinder::pick_step(HMode mode) noexcept {
    switch (mode) {
        case HMode::Generic: return &GridPathfinder::run<Rule, kTerrain, kPenalty, HMode::Generic>;
        case HMode::Octile: return &GridPathfinder::run<Rule, kTerrain, kPenalty, HMode::Octile>;
        case HMode::Manhattan: return &GridPathfinder::run<Rule, kTerrain, kPenalty, HMode::Manhattan>;
        case HMode::Zero: return &GridPathfinder::run<Rule, kTerrain, kPenalty, HMode::Zero>;
    }
    return nullptr;
}

template <DiagonalRule Rule>
GridPathfinder::StepFunction GridPathfinder::pick_costs(bool terrain, bool penalty, HMode mode) noexcept {
    if (penalty) return terrain ? pick_step<Rule, true, true>(mode) : pick_step<Rule, false, true>(mode);
    return terrain ? pick_step<Rule, true, false>(mode) : pick_step<Rule, false, false>(mode);
}

inline bool GridPathfinder::is_goal(std::uint32_t node) const noexcept {
    return node == m_goal_node || (m_multi_goal && m_goal_stamp[node] == m_generation);
}

template <DiagonalRule Rule, bool kTerrain, bool kPenalty, GridPathfinder::HMode kH>
Status GridPathfinder::run(std::uint64_t slice_expansions) {
    const std::uint8_t* const pass = m_map->passable_data().data();
    const std::uint32_t* const terrain = m_map->cost_data().data();
    bool reshaped = kTerrain && m_map->cost_data().size() != m_bound;  // costs dropped by a reset() of equal size
    std::size_t layer_count = 0;
    const std::uint8_t* area = nullptr;
    if constexpr (kPenalty) {
        // layers and areas are read live; one reset to another shape ends the search
        layer_count = m_layers.size();
        m_layer_data.resize(layer_count);  // no allocation once the largest layer count was seen
        for (std::size_t i = 0; i < layer_count; ++i) {
            reshaped = reshaped || m_layers[i].layer->data().size() != m_bound;
            m_layer_data[i] = m_layers[i].layer->data().data();
        }
        if (m_areas != nullptr) {
            reshaped = reshaped || m_areas->data().size() != m_bound;
            area = m_areas->data().data();
            if (m_areas->present() != m_present) {
                // areas appeared since the search began: back to the general per-cell lookups
                m_present = m_areas->present();
                m_uniform_areas = false;
            }
        }
    }
    if (reshaped) {
        m_heap.clear();
        m_held_node = search::kNoNode;
        return m_status = Status::InvalidQuery;
    }
    // The first two layers are kept in locals (the common cases of one and two layers cost no loop).
    const float* const layer0 = layer_count > 0 ? m_layer_data[0] : nullptr;
    const double weight0 = layer_count > 0 ? m_layers[0].weight : 0.0;
    const float* const layer1 = layer_count > 1 ? m_layer_data[1] : nullptr;
    const double weight1 = layer_count > 1 ? m_layers[1].weight : 0.0;
    // only the forbidden areas present on the map need a check
    const std::uint64_t forbidden = m_forbidden & m_present;
    const bool check_forbidden = kPenalty && area != nullptr && forbidden != 0;
    const double* const multipliers = m_multipliers;
    const double base_multiplier = m_base_multiplier;
    const std::uint8_t* const area_costs = m_uniform_areas ? nullptr : area;  // null: base_multiplier
    const ActiveLayer* const layers = m_layers.data();
    const float* const* const layer_data = m_layer_data.data();
    const auto enterable = [&](std::uint32_t n) GAMEPLAN_FORCE_INLINE -> bool {
        if constexpr (kPenalty) {
            if (check_forbidden) return pass[n] != 0 && ((forbidden >> area[n]) & 1u) == 0;
        }
        return pass[n] != 0;
    };
    // Everything the loop reads or counts lives in locals: the heap calls would otherwise force the
    // compiler to reload members and store counters around every push.
    const std::uint32_t stride = m_stride;
    const std::uint32_t open = search::open_stamp(m_generation);
    const std::uint32_t closed = search::closed_stamp(m_generation);
    const bool has_deadline = m_budget.deadline != std::chrono::steady_clock::time_point::max();
    // Zeroed when the open list cannot grow within the memory budget, so that the next turn of the loop
    // stops (the out-of-memory flag then names the limit); the loop checks nothing else for memory.
    std::uint64_t max_expansions = m_budget.max_expansions;
    // The open list's size at which a push must first check the memory budget: its capacity with a
    // limit, never without one (one compare per push).
    std::size_t open_limit = m_budget.max_memory_bytes != SIZE_MAX ? m_heap.capacity() : SIZE_MAX;
    const std::int32_t goal_x = m_h_goals[0].x, goal_y = m_h_goals[0].y;
    const double h_scale = m_h_scale;
    CellState* const cells = m_cells.get();
    std::uint64_t slice_left = slice_expansions;
    std::uint64_t expanded = m_stats.expanded;
    std::uint64_t generated = m_stats.generated;
    std::uint32_t sequence = m_sequence;
    const auto leave = [&](Status status) {
        m_stats.expanded = expanded;
        m_stats.generated = generated;
        m_sequence = sequence;
        if (status != Status::InProgress) m_status = status;
        return status;
    };
    // Room for one more open-list entry: true, or false with the search out of memory (the entry is
    // dropped and the search ends before its next expansion, so the dropped entry is never missed).
    const auto room = [&]() GAMEPLAN_FORCE_INLINE -> bool {
        if (m_heap.size() != open_limit) return true;
        if (m_out_of_memory || !grow_open()) {
            max_expansions = 0;
            m_goal_node = search::kNoNode;  // no goal test can pass before the search stops
            m_multi_goal = false;
            return false;
        }
        open_limit = m_heap.capacity();
        return true;
    };
    const auto heuristic = [&](std::int32_t x, std::int32_t y) GAMEPLAN_FORCE_INLINE -> double {
        if constexpr (kH == HMode::Zero) {
            return 0.0;
        } else if constexpr (kH == HMode::Generic) {
            return heuristic_at(x, y);
        } else {
            const std::int32_t dx = std::abs(x - goal_x);
            const std::int32_t dy = std::abs(y - goal_y);
            if constexpr (kH == HMode::Manhattan) {
                return h_scale * static_cast<double>(dx + dy);
            } else {
                const std::int32_t lo = std::min(dx, dy), hi = std::max(dx, dy);
                return h_scale * (static_cast<double>(hi) + (kDiagonalStep - 1.0) * static_cast<double>(lo));
            }
        }
    };

    // A one-entry buffer sits in front of the heap: the best successor of the last expansion is held
    // there, and since it is usually the next cell to expand, the push and the pop it would cost are
    // both saved. Each pop takes the smaller of the held entry and the heap top, so the expansion order
    // is exactly the heap's.
    std::uint32_t held = m_held_node;
    Key held_key = m_held_key;
    const auto leave_held = [&](Status status) {
        m_held_node = held;
        m_held_key = held_key;
        return leave(status);
    };
    for (;;) {
        std::uint32_t node;
        bool from_held = false;
        if (held != search::kNoNode && (m_heap.empty() || held_key < m_heap.top().key)) {
            node = held;
            from_held = true;
        } else if (!m_heap.empty()) {
            node = m_heap.top().node;
        } else {
            break;
        }
        if (is_goal(node)) {
            m_found = node;
            return leave_held(Status::Found);
        }
        if (expanded >= max_expansions) {
            m_limit = m_out_of_memory ? search::BudgetLimit::Memory : search::BudgetLimit::Expansions;
            if (m_out_of_memory) {
                m_heap.clear();
                held = search::kNoNode;
            }
            return leave_held(Status::BudgetExhausted);
        }
        if (has_deadline && (expanded & 63u) == 0 && std::chrono::steady_clock::now() >= m_budget.deadline) {
            m_limit = search::BudgetLimit::Time;
            return leave_held(Status::BudgetExhausted);
        }
        if (m_dead_ends != nullptr && m_dead_ends->prunable(node, m_dead_query)) {
            // a dead end holding neither end of the query: never on a shortest route
            if (from_held)
                held = search::kNoNode;
            else
                m_heap.pop();
            cells[node].stamp = closed;
            continue;
        }
        if (slice_left == 0) return leave_held(Status::InProgress);
        --slice_left;
        if (from_held)
            held = search::kNoNode;
        else
            m_heap.pop();
        cells[node].stamp = closed;
        ++expanded;
        const double g = cells[node].g;
        const auto x = static_cast<std::int32_t>(node % stride);
        const auto y = static_cast<std::int32_t>(node / stride);

        const auto relax = [&](std::uint32_t next, std::int32_t nx, std::int32_t ny, double length) GAMEPLAN_FORCE_INLINE {
            ++generated;
            CellState& cell = cells[next];
            if (cell.stamp == closed) return;
            double step = length;
            if constexpr (kTerrain) step *= static_cast<double>(terrain[next]);
            if constexpr (kPenalty) {
                step *= area_costs != nullptr ? multipliers[area_costs[next]] : base_multiplier;
                if (layer0 != nullptr) {
                    step += weight0 * static_cast<double>(layer0[next]);
                    if (layer1 != nullptr) {
                        step += weight1 * static_cast<double>(layer1[next]);
                        for (std::size_t k = 2; k < layer_count; ++k)
                            step += layers[k].weight * static_cast<double>(layer_data[k][next]);
                    }
                }
            }
            const double g_next = g + step;
            if (cell.stamp == open) {
                if (!(g_next < cell.g)) return;
                cell.g = g_next;
                cell.parent = node;
                const double h = heuristic(nx, ny);
                const Key key = make_key(g_next + h, h, ++sequence);
                if (next == held)
                    held_key = key;
                else
                    m_heap.decrease(next, key);
                return;
            }
            const double h = heuristic(nx, ny);
            cell = CellState{g_next, node, open};
            const Key key = make_key(g_next + h, h, ++sequence);
            if (held == search::kNoNode) {
                held = next;
                held_key = key;
            } else if (key < held_key) {
                if (!room()) return;
                m_heap.push(held, held_key);
                held = next;
                held_key = key;
            } else {
                if (!room()) return;
                m_heap.push(next, key);
            }
        };

        const std::uint32_t up = node - stride, down = node + stride;
        const bool pass_up = enterable(up), pass_down = enterable(down);
        const bool pass_left = enterable(node - 1), pass_right = enterable(node + 1);
        if (pass_up) relax(up, x, y - 1, 1.0);
        if (pass_down) relax(down, x, y + 1, 1.0);
        if (pass_left) relax(node - 1, x - 1, y, 1.0);
        if (pass_right) relax(node + 1, x + 1, y, 1.0);
        if constexpr (Rule != DiagonalRule::Never) {
            if (enterable(up - 1) && diagonal_allowed(Rule, pass_up, pass_left)) relax(up - 1, x - 1, y - 1, kDiagonalStep);
            if (enterable(up + 1) && diagonal_allowed(Rule, pass_up, pass_right)) relax(up + 1, x + 1, y - 1, kDiagonalStep);
            if (enterable(down - 1) && diagonal_allowed(Rule, pass_down, pass_left)) relax(down - 1, x - 1, y + 1, kDiagonalStep);
            if (enterable(down + 1) && diagonal_allowed(Rule, pass_down, pass_right)) relax(down + 1, x + 1, y + 1, kDiagonalStep);
        }
    }
    if (m_out_of_memory) {  // (not reached: a full open list is not empty)
        m_limit = search::BudgetLimit::Memory;
        return leave_held(Status::BudgetExhausted);
    }
    return leave_held(Status::NoPath);
}

bool GridPathfinder::reached_node(std::uint32_t node) const noexcept {
    if (node >= m_capacity) return false;
    const std::uint32_t stamp = m_cells[node].stamp;
    return stamp == search::open_stamp(m_generation) || stamp == search::closed_stamp(m_generation);
}

bool GridPathfinder::reached(GridPoint p) const noexcept {
    return m_map && m_map->contains(p) && reached_node(m_map->index(p));
}

bool GridPathfinder::closed(GridPoint p) const noexcept {
    if (!m_map || !m_map->contains(p)) return false;
    const std::uint32_t node = m_map->index(p);
    return node < m_capacity && m_cells[node].stamp == search::closed_stamp(m_generation);
}

double GridPathfinder::g(GridPoint p) const noexcept {
    if (!reached(p)) return kInfinity;
    return m_cells[m_map->index(p)].g;
}

GridPoint GridPathfinder::parent(GridPoint p) const noexcept {
    if (!reached(p)) return GridPoint{-1, -1};
    const std::uint32_t up = m_cells[m_map->index(p)].parent;
    return up == search::kNoNode ? p : m_map->point(up);
}

GridPoint GridPathfinder::goal_reached() const noexcept {
    if (m_status != Status::Found || !m_map) return GridPoint{-1, -1};
    return m_map->point(m_found);
}

double GridPathfinder::cost() const noexcept {
    return m_status == Status::Found ? m_cells[m_found].g : kInfinity;
}

void GridPathfinder::path_to(GridPoint p, GridPath& out) const {
    out.cells.clear();
    out.cost = kInfinity;
    if (!reached(p)) return;
    const std::uint32_t target = m_map->index(p);
    std::size_t length = 0;
    for (std::uint32_t n = target; n != search::kNoNode; n = m_cells[n].parent) ++length;
    out.cells.resize(length);
    std::size_t at = length;
    for (std::uint32_t n = target; n != search::kNoNode; n = m_cells[n].parent) out.cells[--at] = m_map->point(n);
    out.cost = m_cells[target].g;
}

Status GridPathfinder::finish(GridPath& out) const {
    const double cost = m_status == Status::Found ? m_cells[m_found].g : kInfinity;
    return detail::write_result(m_status, cost, m_detail, out,
                                [&](std::vector<GridPoint>&) { path_to(m_map->point(m_found), out); });
}

Status GridPathfinder::find_path(const GridMap& map, GridPoint start, GridPoint goal, const GridSearchOptions& options,
                                 GridPath& out) {
    if (begin(map, start, goal, options) == Status::InProgress) step();
    return finish(out);
}

}  // namespace gameplan::path
