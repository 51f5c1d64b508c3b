// Lifelong per-tick crowd stepping: PIBT with priority inheritance over route-guided units.
// See crowd.hpp (class CrowdStepper) for the contract.
#include <gameplan/path/crowd.hpp>

#include <algorithm>
#include <cstdlib>
#include <string>

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

CrowdAgentId CrowdStepper::at(GridPoint cell) const noexcept {
    if (m_map == nullptr || !m_map->contains(cell)) return kNoCrowdAgent;
    const std::uint32_t id = m_occ_now[m_map->index(cell)];
    return id == kNone ? kNoCrowdAgent : id;
}

void CrowdStepper::save_state(CrowdStepperState& out) const {
    out = CrowdStepperState{};
    out.units.reserve(m_units.size());
    for (const Unit& u : m_units) {
        CrowdStepperState::Unit s;
        s.alive = u.alive;
        if (u.alive) {
            s.cell = m_map->point(u.node);
            s.prev = m_map->point(u.prev);
            s.has_goal = u.has_goal;
            if (u.has_goal && u.goal != kNone) s.goal = m_map->point(u.goal);
            s.held = u.held;
            s.move = u.move;
            s.stuck = u.stuck;
            s.age = u.age;
            s.best = u.best;
            s.off_route = u.off_route;
        }
        out.units.push_back(s);
    }
    out.free_ids = m_free_ids;
    out.stats = m_stats;
}

RestoreResult CrowdStepper::restore_state(const CrowdStepperState& state) {
    if (m_map == nullptr) return RestoreError{"", "the crowd stepper has no map (call reset first)"};
    const auto clear = [&] {
        for (const Unit& u : m_units)
            if (u.alive && m_occ_now[u.node] != kNone) m_occ_now[u.node] = kNone;
        m_units.clear();
        m_free_ids.clear();
        m_order.clear();
        m_count = 0;
        m_stats = CrowdStepperStats{};
    };
    const auto fail = [&](std::string field, std::string message) -> RestoreResult {
        clear();
        return RestoreError{std::move(field), std::move(message)};
    };
    clear();
    if (state.units.size() > kMaxCrowdAgents)
        return fail("units", "more than " + std::to_string(kMaxCrowdAgents) + " unit ids");
    m_units.resize(state.units.size());
    m_free_ids.reserve(m_units.capacity());
    m_order.reserve(m_units.capacity());
    for (std::size_t i = 0; i < state.units.size(); ++i) {
        const CrowdStepperState::Unit& s = state.units[i];
        const std::string at_field = "units[" + std::to_string(i) + "]";
        if (!s.alive) continue;
        if (!m_map->contains(s.cell)) return fail(at_field + ".cell", "off the map");
        if (!m_map->contains(s.prev)) return fail(at_field + ".prev", "off the map");
        if (s.has_goal && !m_map->contains(s.goal)) return fail(at_field + ".goal", "off the map");
        if (s.move > CrowdMove::Waited) return fail(at_field + ".move", "unknown move");
        const std::uint32_t node = m_map->index(s.cell);
        if (m_occ_now[node] != kNone) return fail(at_field + ".cell", "two units stand on one cell");
        Unit& u = m_units[i];
        u = Unit{};
        u.alive = true;
        u.node = node;
        u.prev = m_map->index(s.prev);
        u.has_goal = s.has_goal;
        u.goal = s.has_goal ? m_map->index(s.goal) : kNone;
        u.held = s.held;
        u.move = s.move;
        u.stuck = s.stuck;
        u.age = s.age;
        u.best = s.best;
        u.off_route = s.off_route;
        m_occ_now[node] = static_cast<std::uint32_t>(i);
        ++m_count;
    }
    std::vector<std::uint8_t> listed(m_units.size(), 0);
    for (std::size_t k = 0; k < state.free_ids.size(); ++k) {
        const std::uint32_t id = state.free_ids[k];
        if (id >= m_units.size() || m_units[id].alive || listed[id] != 0)
            return fail("free_ids[" + std::to_string(k) + "]", "not a free unit id (or listed twice)");
        listed[id] = 1;
    }
    if (state.free_ids.size() != m_units.size() - m_count)
        return fail("free_ids", "every id without a unit must be listed once");
    m_free_ids.assign(state.free_ids.begin(), state.free_ids.end());
    m_stats = state.stats;
    return std::nullopt;
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
        unit.age = 0;
    }
    unit.has_goal = true;
    unit.goal = goal;
    unit.route = route.data();
    unit.route_size = route.size();
    unit.cursor = 0;
    unit.off_route = 0;
    advance_cursor(unit);
    // Same goal, new route: the unit keeps its priority (stuck), but progress is measured on the new
    // route from here on.
    unit.best = rank(unit, unit.node);
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
    if (!unit.has_goal || unit.route_size == 0 || unit.cursor >= unit.route_size) return true;
    if (unit.cursor > 0 && m_map->index(unit.route[unit.cursor - 1]) == unit.node) return true;
    // one legal step from the next route cell
    return step_allowed(*m_map, m_map->point(unit.node), unit.route[unit.cursor], m_movement, m_rule);
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
    // exact: a route cell in the window ahead
    const std::size_t end = std::min(unit.route_size, unit.cursor + kWindow);
    for (std::size_t j = end; j > unit.cursor; --j)
        if (unit.route[j - 1] == p) return static_cast<std::uint32_t>(unit.route_size - j);
    // off the route: steps back to the next route cell, then the rest of the route (never a shortcut
    // toward a later route cell, which could lead through a wall)
    return dist(p, unit.route[unit.cursor]) + static_cast<std::uint32_t>(unit.route_size - 1 - unit.cursor);
}

bool CrowdStepper::on_path_of(std::uint32_t pusher, std::uint32_t node) const noexcept {
    if (pusher == kNone) return false;
    const Unit& unit = m_units[pusher];
    if (!unit.has_goal || unit.route == nullptr) return false;
    const GridPoint p = m_map->point(node);
    const std::size_t end = std::min(unit.route_size, unit.cursor + kWindow);
    for (std::size_t j = unit.cursor; j < end; ++j)
        if (unit.route[j] == p) return true;
    return false;
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

bool CrowdStepper::pibt(std::uint32_t id, std::uint32_t pusher) noexcept {
    Unit& unit = m_units[id];
    const std::uint32_t here = unit.node;
    const GridPoint p = m_map->point(here);
    std::uint32_t cells[9];
    std::uint32_t keys[9];
    std::uint32_t count = 0;
    cells[count] = here;
    keys[count++] = rank(unit, here) * 8;
    static constexpr int kDx[8] = {0, -1, 1, 0, -1, 1, -1, 1};
    static constexpr int kDy[8] = {-1, 0, 0, 1, -1, -1, 1, 1};
    const int directions = m_movement == Movement::Four ? 4 : 8;
    for (int k = 0; k < directions; ++k) {
        const GridPoint q{p.x + kDx[k], p.y + kDy[k]};
        if (!step_allowed(*m_map, p, q, m_movement, m_rule)) continue;
        const std::uint32_t node = m_map->index(q);
        cells[count] = node;
        keys[count++] = rank(unit, node) * 8 + (on_path_of(pusher, node) ? 4u : 0u) +
                        (m_occ_now[node] != kNone ? 2u : 0u) + (k >= 4 ? 1u : 0u);
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
        if (other != kNone && other != id && m_units[other].next == kNone && !pibt(other, id)) continue;
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
        if (ua.age != ub.age) return ua.age > ub.age;
        const bool wa = ua.has_goal && ua.node != ua.goal;
        const bool wb = ub.has_goal && ub.node != ub.goal;
        if (wa != wb) return wa;
        return a < b;
    });
    for (const std::uint32_t id : m_order)
        if (m_units[id].next == kNone) pibt(id, kNone);
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
            unit.age = 0;
            unit.stuck = 0;
            unit.best = std::min(unit.best, after);
        } else {
            ++unit.age;
            if (after < unit.best) {
                unit.best = after;
                unit.stuck = 0;
            } else {
                ++unit.stuck;
            }
        }
        unit.off_route = on_route(id) ? 0 : unit.off_route + 1;
    }
}

}  // namespace gameplan::path
