#include <gameplan/path/theta_star.hpp>

#include <gameplan/path/islands.hpp>
#include <gameplan/path/smoothing.hpp>

#include "sight_walk.hpp"
#include "cost_layers.hpp"
#include "exact_growth.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <limits>

namespace gameplan::path {

namespace {
constexpr double kInfinity = std::numeric_limits<double>::infinity();
}  // namespace

ThetaStarOptions theta_star_options(const GridSearchOptions& o) noexcept {
    ThetaStarOptions t;
    t.movement = o.movement;
    t.diagonal = o.diagonal;
    t.budget = o.budget;
    t.areas = o.areas;
    t.filter = o.filter;
    t.penalties = o.penalties;
    t.penalty_weight = o.penalty_weight;
    t.layers = o.layers;
    t.islands = o.islands;
    return t;
}

void ThetaStar::reserve(const GridMap& map, std::size_t open_entries) {
    detail::grow_exactly(m_state, map.node_bound(), State{0.0, search::kNoNode, search::kUnvisitedStamp});
    m_heap.reserve_nodes(map.node_bound());
    m_heap.reserve_entries(std::min<std::size_t>(open_entries, map.node_bound()));
}

std::size_t ThetaStar::memory_bytes() const noexcept {
    return m_state.capacity() * sizeof(State) + m_heap.memory_bytes() + m_layers.capacity() * sizeof(ActiveLayer) +
           m_layer_data.capacity() * sizeof(const float*);
}

// True when holding `more` bytes on top of what the ThetaStar holds would pass the memory budget.
bool ThetaStar::over_budget(std::size_t more) const noexcept {
    const std::size_t held = memory_bytes();
    return detail::passes_budget(held, more, m_budget.max_memory_bytes);
}

// With a memory limit, the open list full: grows it as a push would (doubling), unless that passes the
// budget (then the search is out of memory and nothing is allocated).
[[gnu::noinline]] bool ThetaStar::grow_open() {
    const std::size_t capacity = m_heap.capacity();
    const std::size_t n = capacity == 0 ? 1 : 2 * capacity;
    if (over_budget((n - capacity) * sizeof(search::IndexedHeap<Key>::Entry))) {
        m_out_of_memory = true;
        return false;
    }
    m_heap.reserve_entries(n);
    return true;
}

// Ends the search for the memory budget: no path, nothing left to expand.
Status ThetaStar::out_of_memory() noexcept {
    m_heap.clear();
    m_limit = search::BudgetLimit::Memory;
    return m_status = Status::BudgetExhausted;
}

bool ThetaStar::uniform_areas() const noexcept {
    // One multiplier for every allowed area on the map (without an area map every cell is in area 0).
    if (m_filter == nullptr) return true;
    bool any = false;
    double multiplier = 1.0;
    for (std::uint64_t allowed = m_present & ~m_forbidden; allowed != 0; allowed &= allowed - 1) {
        const double m = m_filter->multiplier(static_cast<std::uint32_t>(std::countr_zero(allowed)));
        if (any && m != multiplier) return false;
        multiplier = m;
        any = true;
    }
    return true;
}

Status ThetaStar::begin(const GridMap& map, GridPoint start, GridPoint goal, const ThetaStarOptions& options) {
    m_limit = search::BudgetLimit::None;
    m_out_of_memory = false;
    m_stats = {};
    m_los_checks = 0;
    m_sequence = 0;
    m_heap.clear();
    m_map = nullptr;
    m_layers.clear();
    m_areas = nullptr;
    m_filter = nullptr;
    m_forbidden = 0;
    m_present = 0;
    m_costs = false;
    m_multiplier = 1.0;
    m_h_scale = 1.0;
    m_status = Status::InvalidQuery;
    if (map.empty() || !map.passable(start) || !map.passable(goal)) return m_status;
    // The layers are only counted here; they are put in force once the memory budget allows it.
    std::size_t layer_count = 0;
    if (!detail::collect_cost_layers(map, options.penalties, options.penalty_weight, options.layers,
                                     [&](const PenaltyLayer*, double) { ++layer_count; }))
        return m_status;
    // Areas: forbidden cells block; each allowed area has its multiplier.
    double min_multiplier = 1.0;
    if (options.filter != nullptr) {
        if (options.areas != nullptr && !options.areas->matches(map)) return m_status;
        m_filter = options.filter;
        m_areas = options.areas;
        m_forbidden = options.filter->forbidden_mask();
        m_present = options.areas != nullptr ? options.areas->present() : 1u;
        min_multiplier = options.filter->min_allowed_multiplier(m_present);
    }
    const auto forbidden_at = [&](std::uint32_t node) {
        return m_forbidden != 0 && ((m_forbidden >> (m_areas != nullptr ? m_areas->data()[node] : 0u)) & 1u) != 0;
    };
    if (forbidden_at(map.index(start)) || forbidden_at(map.index(goal))) return m_status;
    // Uniform prices: classic Theta* with costs m x the Euclidean lengths.
    m_costs = map.has_terrain_costs() || layer_count > 0 || !uniform_areas();
    m_multiplier = min_multiplier;
    m_h_scale = m_costs ? static_cast<double>(map.min_cost()) * min_multiplier : min_multiplier;

    m_movement = options.movement;
    m_diagonal = options.diagonal;
    m_sight = GridSearchOptions{};  // line of sight under the rule and the filter
    m_sight.movement = options.movement;
    m_sight.diagonal = options.diagonal;
    m_sight.areas = options.areas;
    m_sight.filter = m_forbidden != 0 ? options.filter : nullptr;
    m_budget = options.budget;

    search::advance_generation(m_generation, [&] {
        for (State& s : m_state) s.stamp = search::kUnvisitedStamp;
    });
    // A line of sight joins only cells the base moves join (Never and 4-connected lines are judged as
    // NoCornerCutting, which joins no cell a 4-connected walk does not): the islands apply as to a grid
    // search under the same rule.
    GridSearchOptions reach;
    reach.movement = options.movement;
    reach.diagonal = options.diagonal;
    reach.islands = options.islands;
    if (islands_prove_unreachable(map, reach, start, goal)) return m_status = Status::NoPath;
    // Storage held from earlier queries counts against a memory budget, and so do the arrays this map
    // needs, before they are allocated.
    const bool limited = m_budget.max_memory_bytes != SIZE_MAX;
    if (limited) {
        using detail::growth_bytes;
        const std::size_t bytes = growth_bytes(m_state, map.node_bound()) +
                                  growth_bytes(m_heap.node_capacity(), map.node_bound(), sizeof(std::uint32_t)) +
                                  growth_bytes(m_layers, layer_count) + growth_bytes(m_layer_data, layer_count);
        if (over_budget(bytes)) return out_of_memory();
    }
    if (m_state.size() < map.node_bound()) reserve(map, 0);
    if (layer_count > 0) {
        m_layers.reserve(layer_count);
        m_layer_data.reserve(layer_count);  // step() sizes it to the layers without allocating
        (void)detail::collect_cost_layers(map, options.penalties, options.penalty_weight, options.layers,
                                          [&](const PenaltyLayer* l, double w) { m_layers.push_back(ActiveLayer{l, w}); });
    }
    m_map = &map;
    m_bound = map.node_bound();
    m_stride = map.stride();
    m_width = map.width();
    m_map_version = map.version();
    m_start_node = map.index(start);
    m_goal_node = map.index(goal);
    m_goal = goal;

    const double h0 = m_h_scale * euclidean_distance(start, goal);
    if (limited && m_heap.capacity() == 0 && !grow_open()) return out_of_memory();
    m_state[m_start_node] = State{0.0, m_start_node, search::open_stamp(m_generation)};  // its own parent
    m_heap.push(m_start_node, Key{h0, h0, ++m_sequence});
    return m_status = Status::InProgress;
}

Status ThetaStar::step(std::uint64_t slice_expansions) {
    if (m_status != Status::InProgress || m_map == nullptr) return m_status;
    // A reset() between slices would leave our indices pointing into arrays of another shape.
    bool reshaped = m_map->node_bound() != m_bound || m_map->stride() != m_stride;
    if (m_areas != nullptr) {
        reshaped = reshaped || m_areas->data().size() != m_bound;
        if (!reshaped && m_areas->present() != m_present) {
            // areas appeared since the search began: price cell by cell unless they share the multiplier
            m_present = m_areas->present();
            m_costs = m_costs || !uniform_areas();
        }
    }
    if (m_costs) {
        reshaped = reshaped || (m_map->has_terrain_costs() && m_map->cost_data().size() != m_bound);
        m_layer_data.resize(m_layers.size());  // no allocation once the largest layer count was seen
        for (std::size_t i = 0; i < m_layers.size(); ++i) {
            reshaped = reshaped || m_layers[i].layer->data().size() != m_bound;
            m_layer_data[i] = m_layers[i].layer->data().data();
        }
    }
    if (reshaped) {
        m_heap.clear();
        return m_status = Status::InvalidQuery;
    }
    const Status status = m_costs ? run<true>(slice_expansions) : run<false>(slice_expansions);
    if (status != Status::InProgress) m_status = status;
    return status;
}

template <bool kCosts>
Status ThetaStar::run(std::uint64_t slice_expansions) {
    const GridMap& map = *m_map;
    const std::uint8_t* const area = m_areas != nullptr ? m_areas->data().data() : nullptr;
    const std::uint64_t forbidden = m_forbidden;
    const auto forbidden_at = [&](std::uint32_t node) {
        return forbidden != 0 && ((forbidden >> (area != nullptr ? area[node] : 0u)) & 1u) != 0;
    };
    const DiagonalRule rule = effective_diagonal(m_movement, m_diagonal);
    const std::uint8_t* const passable = map.passable_data().data();
    const auto pass = [&](std::uint32_t node) { return passable[node] != 0 && !forbidden_at(node); };
    const std::uint32_t stride = m_stride;
    const std::uint32_t open = search::open_stamp(m_generation), closed = search::closed_stamp(m_generation);
    const std::uint32_t goal_node = m_goal_node;
    const GridPoint goal = m_goal;
    const double multiplier = m_multiplier, h_scale = m_h_scale;
    const auto point = [&](std::uint32_t node) { return map.point(node); };
    const auto heuristic = [&](GridPoint p) { return h_scale * euclidean_distance(p, goal); };

    // Per-query prices (kCosts): factor(c) = terrain(c) x multiplier(area(c)); penalty(c) = weighted layers.
    const std::uint32_t* const terrain = kCosts && map.has_terrain_costs() ? map.cost_data().data() : nullptr;
    const double* const multipliers = kCosts && m_filter != nullptr ? m_filter->multipliers().data() : nullptr;
    const std::size_t layer_count = kCosts ? m_layers.size() : 0;
    const ActiveLayer* const layers = m_layers.data();
    const float* const* const layer_data = m_layer_data.data();
    const auto terrain_at = [&](std::uint32_t n) { return terrain != nullptr ? static_cast<double>(terrain[n]) : 1.0; };
    const auto multiplier_at = [&](std::uint32_t n) {
        return multipliers != nullptr ? multipliers[area != nullptr ? area[n] : 0u] : 1.0;
    };
    const auto penalty_free = [&](std::uint32_t n) {
        for (std::size_t k = 0; k < layer_count; ++k)
            if (layer_data[k][n] != 0.0f) return false;
        return true;
    };

    const bool has_deadline = m_budget.deadline != std::chrono::steady_clock::time_point::max();
    // The open list's size at which a push must first check the memory budget: its capacity with a
    // limit, never without one (one compare per push).
    std::size_t open_limit = m_budget.max_memory_bytes != SIZE_MAX ? m_heap.capacity() : SIZE_MAX;
    std::uint64_t slice_left = slice_expansions;
    std::uint32_t sequence = m_sequence;
    const auto leave = [&](Status status) {
        m_sequence = sequence;
        return status;
    };
    while (!m_heap.empty()) {
        const std::uint32_t node = m_heap.top().node;
        if (node == goal_node) return leave(Status::Found);
        if (m_stats.expanded >= m_budget.max_expansions) {
            m_limit = search::BudgetLimit::Expansions;
            return leave(Status::BudgetExhausted);
        }
        if (has_deadline && (m_stats.expanded & 63u) == 0 && std::chrono::steady_clock::now() >= m_budget.deadline) {
            m_limit = search::BudgetLimit::Time;
            return leave(Status::BudgetExhausted);
        }
        if (slice_left == 0) return leave(Status::InProgress);
        --slice_left;
        m_heap.pop();
        m_state[node].stamp = closed;
        ++m_stats.expanded;
        const std::uint32_t parent = m_state[node].parent;
        const GridPoint parent_point = point(parent);
        const double g_here = m_state[node].g, g_parent = m_state[parent].g;

        const auto relax = [&](std::uint32_t next, double step) {
            ++m_stats.generated;
            State& s = m_state[next];
            if (s.stamp == closed) return;
            const GridPoint p = point(next);
            double g_next;
            std::uint32_t via;
            if constexpr (!kCosts) {
                // Path 2: straight from the parent, if visible; it is never worse than path 1 then.
                ++m_los_checks;
                if (line_of_sight(map, parent_point, p, m_sight)) {
                    g_next = g_parent + multiplier * euclidean_distance(parent_point, p);
                    via = parent;
                } else {
                    g_next = g_here + multiplier * step;
                    via = node;
                }
            } else {
                // Path 1: the grid step, priced as GridPathfinder prices it.
                const double t = terrain_at(next), m = multiplier_at(next);
                double price = step * t;
                price *= m;
                bool unpenalised = true;
                for (std::size_t k = 0; k < layer_count; ++k) {
                    const float v = layer_data[k][next];
                    unpenalised = unpenalised && v == 0.0f;
                    price += layers[k].weight * static_cast<double>(v);
                }
                g_next = g_here + price;
                via = node;
                // Path 2: the link from the parent, allowed when every cell it enters has the factor of
                // `next` and no penalty; it is walked only if it could be the cheaper candidate.
                if (parent != node && unpenalised) {
                    const double factor = t * m;
                    const double g_link = g_parent + factor * euclidean_distance(parent_point, p);
                    if (g_link <= g_next && (s.stamp != open || g_link < s.g)) {
                        ++m_los_checks;
                        const auto enter = [&](std::size_t n) {
                            const auto c = static_cast<std::uint32_t>(n);
                            return pass(c) && terrain_at(c) * multiplier_at(c) == factor && penalty_free(c);
                        };
                        const auto corner = [&](std::size_t n) { return pass(static_cast<std::uint32_t>(n)); };
                        if (detail::sight_walk(map, parent_point, p, m_movement, m_diagonal, corner, enter)) {
                            g_next = g_link;
                            via = parent;
                        }
                    }
                }
            }
            if (s.stamp == open) {
                if (!(g_next < s.g)) return;
                s.g = g_next;
                s.parent = via;
                const double h = heuristic(p);
                m_heap.decrease(next, Key{g_next + h, h, ++sequence});
                return;
            }
            if (m_heap.size() == open_limit) {
                // the open list is full and the memory budget is in force: grow it only if that fits
                if (m_out_of_memory || !grow_open()) return;  // (the search ends after this expansion)
                open_limit = m_heap.capacity();
            }
            const double h = heuristic(p);
            s = State{g_next, via, open};
            m_heap.push(next, Key{g_next + h, h, ++sequence});
        };

        const std::uint32_t up = node - stride, down = node + stride;
        const bool pass_up = pass(up), pass_down = pass(down);
        const bool pass_left = pass(node - 1), pass_right = pass(node + 1);
        if (pass_up) relax(up, 1.0);
        if (pass_down) relax(down, 1.0);
        if (pass_left) relax(node - 1, 1.0);
        if (pass_right) relax(node + 1, 1.0);
        if (rule != DiagonalRule::Never) {
            if (pass(up - 1) && diagonal_allowed(rule, pass_up, pass_left)) relax(up - 1, kDiagonalStep);
            if (pass(up + 1) && diagonal_allowed(rule, pass_up, pass_right)) relax(up + 1, kDiagonalStep);
            if (pass(down - 1) && diagonal_allowed(rule, pass_down, pass_left)) relax(down - 1, kDiagonalStep);
            if (pass(down + 1) && diagonal_allowed(rule, pass_down, pass_right)) relax(down + 1, kDiagonalStep);
        }
        if (m_out_of_memory) {  // a successor could not enter the open list: the search cannot go on
            m_heap.clear();
            m_limit = search::BudgetLimit::Memory;
            return leave(Status::BudgetExhausted);
        }
    }
    return leave(Status::NoPath);
}

Status ThetaStar::finish(GridPath& out) const {
    out.cells.clear();
    if (m_status != Status::Found) {
        out.cost = kInfinity;
        return m_status;
    }
    const GridMap& map = *m_map;
    std::size_t count = 1;
    for (std::uint32_t n = m_goal_node; n != m_start_node; n = m_state[n].parent) ++count;
    out.cells.resize(count);
    std::size_t at = count;
    for (std::uint32_t n = m_goal_node;; n = m_state[n].parent) {
        out.cells[--at] = map.point(n);
        if (n == m_start_node) break;
    }
    if (m_costs) {
        out.cost = m_state[m_goal_node].g;  // the segment costs, summed from the start
    } else {
        double cost = 0.0;
        for (std::size_t i = 1; i < out.cells.size(); ++i) cost += euclidean_distance(out.cells[i - 1], out.cells[i]);
        out.cost = m_multiplier * cost;
    }
    return m_status;
}

Status ThetaStar::find_path(const GridMap& map, GridPoint start, GridPoint goal, const ThetaStarOptions& options,
                            GridPath& out) {
    if (begin(map, start, goal, options) == Status::InProgress) (void)step();
    return finish(out);
}

bool ThetaStar::closed(GridPoint p) const noexcept {
    if (m_stride == 0 || p.x < 0 || p.y < 0 || p.x >= m_width) return false;
    const std::size_t node = (static_cast<std::size_t>(p.y) + 1) * m_stride + static_cast<std::size_t>(p.x) + 1;
    return node < m_state.size() && m_state[node].stamp == search::closed_stamp(m_generation);
}

}  // namespace gameplan::path
