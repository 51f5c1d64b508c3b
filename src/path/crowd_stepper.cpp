// Lifelong per-tick crowd stepping: PIBT with priority inheritance over route-guided units.
// See crowd.hpp (class CrowdStepper) for the contract.
#include <gameplan/path/crowd.hpp>

#include <algorithm>
#include <cstdlib>

namespace gameplan::path {

namespace {
constexpr std::size_t kWindow = 8;  // route cells ahead of the cursor considered when ranking a cell
}

void CrowdStepper::reset(const GridMap& map, Movement movement, DiagonalRule rule) {
    m_map = &map;
    m_movement = movement;
    m_rule = effective_diagonal(movement, rule);
    m_units.clear();
    m_free_ids.clear();
    m_order.clear();
    m_occ_now.assign(map.node_bound(), kNone);
    m_occ_next.assign(map.node_bound(), kNone);
    m_count = 0;
    m_stats = CrowdStepperStats{};
}

void CrowdStepper::reserve(std::size_t units) {
    m_units.reserve(units);
    m_free_ids.reserve(units);
    m_order.reserve(units);
}

CrowdAgentId CrowdStepper::add(GridPoint cell) {
    if (m_map == nullptr || !m_map->passable(cell) || m_count >= kMaxCrowdAgents) return kNoCrowdAgent;
    const std::uint32_t node = m_map->index(cell);
    if (m_occ_now[node] != kNone) return kNoCrowdAgent;
    std::uint32_t id = 0;
    if (!m_free_ids.empty()) {
        id = m_free_ids.back();
        m_free_ids.pop_back();
    } else {
        id = static_cast<std::uint32_t>(m_units.size());
        m_units.emplace_back();
        m_free_ids.reserve(m_units.capacity());
        m_order.reserve(m_units.capacity());
    }
    Unit& unit = m_units[id];
    unit = Unit{};
    unit.node = unit.prev = node;
    unit.alive = true;
    m_occ_now[node] = id;
    ++m_count;
    return id;
}

bool CrowdStepper::remove(CrowdAgentId id) noexcept {
    if (!contains(id)) return false;
    Unit& unit = m_units[id];
    if (m_occ_now[unit.node] == id) m_occ_now[unit.node] = kNone;
    unit.alive = false;
    unit.route = nullptr;
    m_free_ids.push_back(id);  // capacity reserved in add()
    --m_count;
    return true;
}

bool CrowdStepper::reposition(CrowdAgentId id, GridPoint cell) noexcept {
    if (!contains(id) || !m_map->passable(cell)) return false;
    const std::uint32_t node = m_map->index(cell);
    if (m_occ_now[node] != kNone && m_occ_now[node] != id) return false;
    Unit& unit = m_units[id];
    m_occ_now[unit.node] = kNone;
    unit.node = unit.prev = node;
    m_occ_now[node] = id;
    unit.route = nullptr;
    unit.route_size = 0;
    unit.cursor = 0;
    unit.goal = kNone;
    unit.has_goal = false;
    unit.stuck = 0;
    unit.best = UINT32_MAX;
    unit.off_route = 0;
    unit.move = CrowdMove::Stayed;
    return true;
}

bool CrowdStepper::set_goal(CrowdAgentId id, std::span<const GridPoint> route) noexcept {
    if (!contains(id)) return false;
    Unit& unit = m_units[id];
    std::uint32_t goal = unit.node;
    if (!route.empty()) {
        const GridPoint last = route.back();
        goal = m_map->contains(last) ? m_map->index(last) : unit.node;
    }
    if (!unit.has_goal || goal != unit.goal) {
        unit.stuck = 0;
        unit.best = UINT32_MAX;
    }
    unit.has_goal = true;
    unit.goal = goal;
    unit.route = route.data();
    unit.route_size = route.size();
    unit.cursor = 0;
    unit.off_route = 0;
    advance_cursor(unit);
    return true;
}

bool CrowdStepper::clear_goal(CrowdAgentId id) noexcept {
    if (!contains(id)) return false;
    Unit& unit = m_units[id];
    unit.has_goal = false;
    unit.goal = kNone;
    unit.route = nullptr;
    unit.route_size = 0;
    unit.cursor = 0;
    unit.stuck = 0;
    unit.best = UINT32_MAX;
    unit.off_route = 0;
    return true;
}

bool CrowdStepper::hold(CrowdAgentId id) noexcept {
    if (!contains(id)) return false;
    m_units[id].held = true;
    return true;
}

bool CrowdStepper::arrived(CrowdAgentId id) const noexcept {
    const Unit& unit = m_units[id];
    return unit.has_goal && unit.node == unit.goal;
}

bool CrowdStepper::on_route(CrowdAgentId id) const noexcept {
    const Unit& unit = m_units[id];
    if (!unit.has_goal || unit.route_size == 0) return true;
    if (unit.cursor > 0 && m_map->index(unit.route[unit.cursor - 1]) == unit.node) return true;
    const std::size_t k = std::min(unit.cursor, unit.route_size - 1);
    const GridPoint here = m_map->point(unit.node);
    const GridPoint target = unit.route[k];
    const int dx = std::abs(here.x - target.x);
    const int dy = std::abs(here.y - target.y);
    return m_movement == Movement::Four ? dx + dy <= 1 : std::max(dx, dy) <= 1;
}

void CrowdStepper::advance_cursor(Unit& unit) noexcept {
    if (unit.route == nullptr) return;
    const GridPoint here = m_map->point(unit.node);
    const std::size_t end = std::min(unit.route_size, unit.cursor + kWindow);
    for (std::size_t j = end; j > unit.cursor; --j)
        if (unit.route[j - 1] == here) {
            unit.cursor = j;
            return;
        }
}

std::uint32_t CrowdStepper::rank(const Unit& unit, std::uint32_t node) const noexcept {
    if (!unit.has_goal) return node == unit.node ? 0u : 1u;
    const GridPoint p = m_map->point(node);
    const bool four = m_movement == Movement::Four;
    const auto dist = [four](GridPoint a, GridPoint b) {
        const auto dx = static_cast<std::uint32_t>(std::abs(a.x - b.x));
        const auto dy = static_cast<std::uint32_t>(std::abs(a.y - b.y));
        return four ? dx + dy : std::max(dx, dy);
    };
    if (unit.route == nullptr || unit.cursor >= unit.route_size) return dist(p, m_map->point(unit.goal));
    std::uint32_t best = UINT32_MAX;
    const std::size_t end = std::min(unit.route_size, unit.cursor + kWindow);
    for (std::size_t j = unit.cursor; j < end; ++j) {
        const std::uint32_t r = dist(p, unit.route[j]) + static_cast<std::uint32_t>(unit.route_size - 1 - j);
        best = std::min(best, r);
    }
    return best;
}

bool CrowdStepper::crosses(std::uint32_t from, std::uint32_t to) const noexcept {
    const GridPoint a = m_map->point(from);
    const GridPoint b = m_map->point(to);
    if (a.x == b.x || a.y == b.y) return false;
    const std::uint32_t side1 = m_map->index(GridPoint{b.x, a.y});
    const std::uint32_t side2 = m_map->index(GridPoint{a.x, b.y});
    const std::uint32_t u1 = m_occ_now[side1];
    if (u1 != kNone && m_units[u1].next == side2) return true;
    const std::uint32_t u2 = m_occ_now[side2];
    return u2 != kNone && m_units[u2].next == side1;
}

bool CrowdStepper::pibt(std::uint32_t id, std::uint32_t depth) noexcept {
    Unit& unit = m_units[id];
    const std::uint32_t here = unit.node;
    const GridPoint p = m_map->point(here);
    std::uint32_t cells[9];
    std::uint32_t keys[9];
    std::uint32_t count = 0;
    cells[count] = here;
    keys[count++] = rank(unit, here) * 4;
    static constexpr int kDx[8] = {0, -1, 1, 0, -1, 1, -1, 1};
    static constexpr int kDy[8] = {-1, 0, 0, 1, -1, -1, 1, 1};
    const int directions = m_movement == Movement::Four ? 4 : 8;
    for (int k = 0; k < directions; ++k) {
        const GridPoint q{p.x + kDx[k], p.y + kDy[k]};
        if (!step_allowed(*m_map, p, q, m_movement, m_rule)) continue;
        const std::uint32_t node = m_map->index(q);
        cells[count] = node;
        keys[count++] = rank(unit, node) * 4 + (m_occ_now[node] != kNone ? 2u : 0u) + (k >= 4 ? 1u : 0u);
    }
    // stable insertion sort by key (staying first among equals)
    for (std::uint32_t a = 1; a < count; ++a) {
        const std::uint32_t c = cells[a];
        const std::uint32_t key = keys[a];
        std::uint32_t b = a;
        while (b > 0 && keys[b - 1] > key) {
            cells[b] = cells[b - 1];
            keys[b] = keys[b - 1];
            --b;
        }
        cells[b] = c;
        keys[b] = key;
    }
    for (std::uint32_t a = 0; a < count; ++a) {
        const std::uint32_t v = cells[a];
        if (m_occ_next[v] != kNone) continue;  // taken
        const std::uint32_t other = m_occ_now[v];
        if (other != kNone && other != id && m_units[other].next == here) continue;  // swap
        if (v != here && crosses(here, v)) continue;                                 // crossing diagonals
        m_occ_next[v] = id;
        unit.next = v;
        if (other != kNone && other != id && m_units[other].next == kNone && !pibt(other, depth + 1)) continue;
        return true;
    }
    m_occ_next[here] = id;
    unit.next = here;
    return false;
}

void CrowdStepper::tick() {
    if (m_map == nullptr) return;
    ++m_stats.ticks;
    m_order.clear();
    for (std::uint32_t id = 0; id < m_units.size(); ++id) {
        Unit& unit = m_units[id];
        if (!unit.alive) continue;
        unit.next = kNone;
        m_order.push_back(id);
    }
    // held units reserve their cell first
    for (const std::uint32_t id : m_order) {
        Unit& unit = m_units[id];
        if (unit.held) {
            unit.next = unit.node;
            m_occ_next[unit.node] = id;
        }
    }
    std::sort(m_order.begin(), m_order.end(), [this](std::uint32_t a, std::uint32_t b) {
        const Unit& ua = m_units[a];
        const Unit& ub = m_units[b];
        if (ua.stuck != ub.stuck) return ua.stuck > ub.stuck;
        const bool wa = ua.has_goal && ua.node != ua.goal;
        const bool wb = ub.has_goal && ub.node != ub.goal;
        if (wa != wb) return wa;
        return a < b;
    });
    for (const std::uint32_t id : m_order)
        if (m_units[id].next == kNone) pibt(id, 0);
    // apply the moves
    for (const std::uint32_t id : m_order) {
        Unit& unit = m_units[id];
        if (m_occ_now[unit.node] == id) m_occ_now[unit.node] = kNone;
    }
    for (const std::uint32_t id : m_order) {
        Unit& unit = m_units[id];
        const bool wanted = unit.has_goal && unit.node != unit.goal;
        const std::uint32_t before = rank(unit, unit.node);
        unit.prev = unit.node;
        unit.node = unit.next;
        m_occ_next[unit.next] = kNone;
        m_occ_now[unit.node] = id;
        unit.next = kNone;
        advance_cursor(unit);
        const std::uint32_t after = rank(unit, unit.node);
        if (unit.node == unit.prev) {
            unit.move = wanted && !unit.held ? CrowdMove::Waited : CrowdMove::Stayed;
        } else {
            unit.move = unit.has_goal && after < before ? CrowdMove::Advanced : CrowdMove::Pushed;
        }
        switch (unit.move) {
            case CrowdMove::Advanced: ++m_stats.advanced; break;
            case CrowdMove::Pushed: ++m_stats.pushed; break;
            case CrowdMove::Waited: ++m_stats.waited; break;
            case CrowdMove::Stayed: break;
        }
        unit.held = false;
        if (!unit.has_goal || unit.node == unit.goal) {
            unit.stuck = 0;
            unit.best = std::min(unit.best, after);
        } else if (after < unit.best) {
            unit.best = after;
            unit.stuck = 0;
        } else {
            ++unit.stuck;
        }
        unit.off_route = on_route(id) ? 0 : unit.off_route + 1;
    }
}

}  // namespace gameplan::path
