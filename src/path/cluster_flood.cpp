#include "cluster_flood.hpp"

#include <algorithm>
#include <cmath>


namespace gameplan::path::detail {

double ClusterFlood::heuristic(std::uint32_t local) const noexcept {
    const GridPoint p = point(local);
    const double dx = std::abs(p.x - m_aim.x), dy = std::abs(p.y - m_aim.y);
    return m_h_scale * (m_four ? dx + dy : std::max(dx, dy) + (kDiagonalStep - 1.0) * std::min(dx, dy));
}

void ClusterFlood::reserve(std::size_t cells) {
    if (m_state.size() >= cells) return;
    // Exactly `cells` of each (growth_bytes() counts them so): the states reserved before they are
    // resized, the heap made afresh (its position array then grows from empty).
    m_state.reserve(cells);
    m_state.resize(cells, State{0.0, search::kNoNode, search::kUnvisitedStamp, search::kUnvisitedStamp, 0});
    m_heap = search::IndexedHeap<Key>{};
    m_heap.reserve_nodes(cells);
    m_heap.reserve_entries(cells);
}

void ClusterFlood::run(const GridMap& map, const CellCosts& costs, const Rect& rect, DiagonalRule rule, bool reverse,
                       GridPoint source, std::span<const std::uint32_t> targets, const GridPoint* aim) {
    m_map = &map;
    m_costs = costs;
    m_aimed = aim != nullptr;
    if (aim) m_aim = *aim;
    m_h_scale = costs.h_scale;
    m_four = rule == DiagonalRule::Never;
    m_rect = rect;
    m_stride = map.stride();
    reserve(static_cast<std::size_t>(rect.w) * static_cast<std::size_t>(rect.h));
    search::advance_generation(m_generation, [&] {
        for (State& s : m_state) s.stamp = s.target_stamp = search::kUnvisitedStamp;
    });
    m_heap.clear();
    m_stats = {};
    std::size_t targets_left = 0;
    for (std::uint32_t t : targets)
        if (m_state[t].target_stamp != m_generation) {
            m_state[t].target_stamp = m_generation;
            ++targets_left;
        }
    const std::uint32_t start = local(source);
    State& s = m_state[start];
    s.g = 0.0;
    s.parent = search::kNoNode;
    s.stamp = search::open_stamp(m_generation);
    s.direction = 0;
    const double h0 = m_aimed ? heuristic(start) : 0.0;
    m_heap.push(start, Key{h0, h0, 0});

    const Pricing pricing = costs.scale != nullptr ? Pricing::Profile : costs.terrain != nullptr ? Pricing::Terrain : Pricing::Uniform;
#define GAMEPLAN_FLOOD_CASE(RULE)                                                              \
    case RULE:                                                                                  \
        if (pricing == Pricing::Uniform) flood<RULE, Pricing::Uniform, false>(targets_left);    \
        else if (pricing == Pricing::Terrain && reverse) flood<RULE, Pricing::Terrain, true>(targets_left);  \
        else if (pricing == Pricing::Terrain) flood<RULE, Pricing::Terrain, false>(targets_left); \
        else if (reverse) flood<RULE, Pricing::Profile, true>(targets_left);                     \
        else flood<RULE, Pricing::Profile, false>(targets_left);                                 \
        break;
    switch (rule) {
        GAMEPLAN_FLOOD_CASE(DiagonalRule::Never)
        GAMEPLAN_FLOOD_CASE(DiagonalRule::NoCornerCutting)
        GAMEPLAN_FLOOD_CASE(DiagonalRule::OneObstacle)
        GAMEPLAN_FLOOD_CASE(DiagonalRule::Always)
    }
#undef GAMEPLAN_FLOOD_CASE
}

template <DiagonalRule Rule, ClusterFlood::Pricing kPricing, bool kReverse>
void ClusterFlood::flood(std::size_t targets_left) {
    const std::uint8_t* const pass = m_costs.pass;
    [[maybe_unused]] const std::uint32_t* const terrain = m_costs.terrain;
    [[maybe_unused]] const double* const scale = m_costs.scale;
    [[maybe_unused]] const double* const add = m_costs.add;
    const std::uint32_t stride = m_stride;
    const std::int32_t w = m_rect.w, h = m_rect.h;
    const std::uint32_t open = search::open_stamp(m_generation);
    const std::uint32_t closed = search::closed_stamp(m_generation);
    const bool until_targets = targets_left > 0;
    State* const state = m_state.data();
    std::uint32_t sequence = 0;

    while (!m_heap.empty()) {
        const std::uint32_t node = m_heap.pop().node;
        State& current = state[node];
        current.stamp = closed;
        ++m_stats.expanded;
        if (until_targets && current.target_stamp == m_generation && --targets_left == 0) return;
        const double g = current.g;
        const auto lx = static_cast<std::int32_t>(node % static_cast<std::uint32_t>(w));
        const auto ly = static_cast<std::int32_t>(node / static_cast<std::uint32_t>(w));
        const std::uint32_t cell = static_cast<std::uint32_t>(m_rect.y0 + ly + 1) * stride + static_cast<std::uint32_t>(m_rect.x0 + lx + 1);
        // Reversed, every step enters the current cell (in the forward direction): its price is fixed.
        [[maybe_unused]] double leave_scale = 1.0, leave_add = 0.0;
        if constexpr (kReverse && kPricing == Pricing::Terrain) leave_scale = static_cast<double>(terrain[cell]);
        if constexpr (kReverse && kPricing == Pricing::Profile) {
            leave_scale = scale[cell];
            leave_add = add[cell];
        }

        const auto relax = [&](std::uint32_t next, std::uint32_t next_cell, double length, std::uint8_t direction) {
            ++m_stats.generated;
            State& s = state[next];
            if (s.stamp == closed) return;
            double step = length;
            if constexpr (kPricing == Pricing::Terrain) step *= kReverse ? leave_scale : static_cast<double>(terrain[next_cell]);
            if constexpr (kPricing == Pricing::Profile)
                step = kReverse ? length * leave_scale + leave_add : length * scale[next_cell] + add[next_cell];
            const double g_next = g + step;
            if (s.stamp == open) {
                if (!(g_next < s.g)) return;
                s.g = g_next;
                s.parent = node;
                s.direction = direction;
                const double h = m_aimed ? heuristic(next) : 0.0;
                m_heap.decrease(next, Key{g_next + h, h, ++sequence});
                return;
            }
            s.g = g_next;
            s.parent = node;
            s.direction = direction;
            s.stamp = open;
            const double h = m_aimed ? heuristic(next) : 0.0;
            m_heap.push(next, Key{g_next + h, h, ++sequence});
        };

        // Direction codes follow kGridDirections: 0 up, 1 down, 2 left, 3 right, 4..7 diagonals.
        const bool in_up = ly > 0, in_down = ly + 1 < h, in_left = lx > 0, in_right = lx + 1 < w;
        const std::uint32_t up = cell - stride, down = cell + stride;
        const bool pass_up = pass[up] != 0, pass_down = pass[down] != 0;
        const bool pass_left = pass[cell - 1] != 0, pass_right = pass[cell + 1] != 0;
        const auto uw = static_cast<std::uint32_t>(w);
        if (in_up && pass_up) relax(node - uw, up, 1.0, 0);
        if (in_down && pass_down) relax(node + uw, down, 1.0, 1);
        if (in_left && pass_left) relax(node - 1, cell - 1, 1.0, 2);
        if (in_right && pass_right) relax(node + 1, cell + 1, 1.0, 3);
        if constexpr (Rule != DiagonalRule::Never) {
            if (in_up && in_left && pass[up - 1] && diagonal_allowed(Rule, pass_up, pass_left))
                relax(node - uw - 1, up - 1, kDiagonalStep, 4);
            if (in_up && in_right && pass[up + 1] && diagonal_allowed(Rule, pass_up, pass_right))
                relax(node - uw + 1, up + 1, kDiagonalStep, 5);
            if (in_down && in_left && pass[down - 1] && diagonal_allowed(Rule, pass_down, pass_left))
                relax(node + uw - 1, down - 1, kDiagonalStep, 6);
            if (in_down && in_right && pass[down + 1] && diagonal_allowed(Rule, pass_down, pass_right))
                relax(node + uw + 1, down + 1, kDiagonalStep, 7);
        }
    }
}

}  // namespace gameplan::path::detail
