#include <gameplan/path/jps_plus.hpp>

#include <gameplan/path/islands.hpp>

#include "jps_core.hpp"

#include <algorithm>

namespace gameplan::path {

namespace {

using detail::dir_delta;
using detail::horizontal_part;
using detail::vertical_part;

constexpr bool is_diagonal(int d) noexcept { return (d & 1) != 0; }

// Successor generation from the jump table (see jps_core.hpp for the contract). Emits exactly what
// OnlineJumper (jps.cpp) emits, in the same order.
struct TableJumper {
    const std::int16_t* entries = nullptr;
    const std::uint8_t* pass = nullptr;
    std::uint32_t stride = 0;
    std::uint32_t delta[8] = {};
    detail::JpsTarget goal{};

    [[nodiscard]] std::int32_t entry(std::uint32_t node, int d) const noexcept {
        return entries[static_cast<std::size_t>(node) * 8 + static_cast<std::size_t>(d)];
    }

    void prefetch(std::uint32_t node) const noexcept {
        __builtin_prefetch(entries + static_cast<std::size_t>(node) * 8);
        __builtin_prefetch(pass + node - stride);
        __builtin_prefetch(pass + node + stride);
    }

    template <class Emit>
    void ray(std::uint32_t node, std::int32_t x, std::int32_t y, int d, double base, Emit& emit) const {
        const std::int32_t v = entry(node, d);
        const std::int32_t t = detail::target_on_ray(goal, x, y, d);
        if (t != 0 && t <= detail::reach_of(v)) {
            emit(goal.node, goal.x, goal.y, base + t);
        } else if (v > 0) {
            emit(node + static_cast<std::uint32_t>(v) * delta[d], x + v * detail::kDirDx[d], y + v * detail::kDirDy[d],
                 base + v);
        }
    }

    template <class Emit>
    void straight(std::uint32_t node, std::int32_t x, std::int32_t y, int d, Emit& emit) const {
        ray(node, x, y, d, 0.0, emit);
    }

    template <class Emit>
    void diagonal(std::uint32_t node, std::int32_t x, std::int32_t y, int d, double limit, Emit& emit) const {
        const int dv = vertical_part(d), dh = horizontal_part(d);
        const std::uint32_t step = delta[d];
        const std::int32_t ddx = detail::kDirDx[d], ddy = detail::kDirDy[d];
        // Where the diagonal crosses the goal's row or column (k steps away), if the goal lies ahead.
        const std::int32_t gx = (goal.x - x) * ddx, gy = (goal.y - y) * ddy;
        const std::int32_t k = (gx > 0 && gy > 0) ? std::min(gx, gy) : 0;
        std::uint32_t z = node;
        std::int32_t t = 0;
        for (;;) {
            const std::int32_t v = entry(z, d);
            const std::int32_t reach = detail::reach_of(v);
            // A crossing at an intermediate cell (k == t + v) is handled by its rays below.
            if (k > t && k <= t + reach && !(v > 0 && k == t + v)) {
                const std::uint32_t w = node + static_cast<std::uint32_t>(k) * step;
                const double base = k * kDiagonalStep;
                if (w == goal.node) {
                    emit(goal.node, goal.x, goal.y, base);
                    return;
                }
                const std::int32_t wx = x + k * ddx, wy = y + k * ddy;
                const int s = goal.x == wx ? dv : dh;
                const std::int32_t along = detail::target_on_ray(goal, wx, wy, s);
                if (along <= detail::reach_of(entry(w, s))) emit(goal.node, goal.x, goal.y, base + along);
            }
            if (v <= 0) return;
            z += static_cast<std::uint32_t>(v) * step;
            t += v;
            const double base = t * kDiagonalStep;
            // Nothing from here on can beat the goal (the bound never decreases along the diagonal).
            if (base + detail::octile_to(goal, x + t * ddx, y + t * ddy) >= limit) return;
            if (z == goal.node) {
                emit(goal.node, goal.x, goal.y, base);
                return;
            }
            ray(z, x + t * ddx, y + t * ddy, dv, base, emit);
            ray(z, x + t * ddx, y + t * ddy, dh, base, emit);
        }
    }
};

}  // namespace

// ---- JumpTable ----------------------------------------------------------------------------------------

bool JumpTable::straight_jump_point(std::uint32_t node, int d) const noexcept {
    // A free cell entered by a straight move in direction d whose side neighbour is free while the side
    // cell before it is blocked: the canonical order must turn here (forced neighbour).
    const std::uint32_t back = node - dir_delta(d, m_stride);
    const std::uint32_t a = dir_delta((d + 6) & 7, m_stride), b = dir_delta((d + 2) & 7, m_stride);
    const std::uint8_t* pass = m_pass.data();
    return pass[node] && ((!pass[back + a] && pass[node + a]) || (!pass[back + b] && pass[node + b]));
}

std::int16_t JumpTable::compute(std::uint32_t node, int d) const noexcept {
    const std::uint8_t* pass = m_pass.data();
    if (!pass[node]) return 0;
    const std::uint32_t next = node + dir_delta(d, m_stride);
    const std::int16_t* e = m_entries.data();
    if (!is_diagonal(d)) {
        if (!pass[next]) return 0;
        if (straight_jump_point(next, d)) return 1;
    } else {
        const int dv = vertical_part(d), dh = horizontal_part(d);
        if (!(pass[next] && pass[node + dir_delta(dv, m_stride)] && pass[node + dir_delta(dh, m_stride)])) return 0;
        if (e[std::size_t{next} * 8 + static_cast<std::size_t>(dv)] > 0 || e[std::size_t{next} * 8 + static_cast<std::size_t>(dh)] > 0)
            return 1;
    }
    const std::int16_t v = e[std::size_t{next} * 8 + static_cast<std::size_t>(d)];
    return static_cast<std::int16_t>(v > 0 ? v + 1 : v - 1);
}

JpsSupport JumpTable::build(const GridMap& map) {
    m_built = false;
    m_map = nullptr;
    if (map.empty()) {
        m_entries.clear();
        m_pass.clear();
        return JpsSupport::EmptyMap;
    }
    const auto data = map.passable_data();
    m_pass.assign(data.begin(), data.end());
    m_entries.assign(m_pass.size() * 8, 0);
    // An update walks back at most one ray per seed: 6 seeds per straight direction, each ray shorter
    // than the map side, bound the straight entries whose sign can change, so updates never allocate.
    m_changed.reserve(12 * (static_cast<std::size_t>(map.width()) + static_cast<std::size_t>(map.height())) + 64);
    m_width = map.width();
    m_height = map.height();
    m_stride = map.stride();
    const auto w = static_cast<std::uint32_t>(m_width), h = static_cast<std::uint32_t>(m_height);
    std::int16_t* e = m_entries.data();
    const auto set = [&](std::uint32_t node, int d) { e[std::size_t{node} * 8 + static_cast<std::size_t>(d)] = compute(node, d); };
    // Each entry depends on the entry one step further in its direction: sweep against the direction.
    // Straight entries first; diagonal ones read them.
    for (std::uint32_t y = 1; y <= h; ++y) {
        const std::uint32_t row = y * m_stride;
        for (std::uint32_t x = w; x >= 1; --x) set(row + x, detail::kDirE);
        for (std::uint32_t x = 1; x <= w; ++x) set(row + x, detail::kDirW);
        for (std::uint32_t x = 1; x <= w; ++x) set(row + x, detail::kDirN);
    }
    for (std::uint32_t y = h; y >= 1; --y)
        for (std::uint32_t x = 1; x <= w; ++x) set(y * m_stride + x, detail::kDirS);
    for (std::uint32_t y = 1; y <= h; ++y)
        for (std::uint32_t x = 1; x <= w; ++x) {
            set(y * m_stride + x, detail::kDirNE);
            set(y * m_stride + x, detail::kDirNW);
        }
    for (std::uint32_t y = h; y >= 1; --y)
        for (std::uint32_t x = 1; x <= w; ++x) {
            set(y * m_stride + x, detail::kDirSE);
            set(y * m_stride + x, detail::kDirSW);
        }
    m_non_unit = static_cast<std::int64_t>(detail::count_non_unit_costs(map));
    m_map = &map;
    m_version = map.version();
    m_built = true;
    return m_non_unit == 0 ? JpsSupport::Ok : JpsSupport::TerrainCosts;
}

std::size_t JumpTable::repair(std::uint32_t node, int d) {
    // Re-evaluates the recurrence backwards along the ray until an entry comes out unchanged: entries
    // further back depend on this one only through it.
    const std::uint32_t back = dir_delta(d, m_stride);
    std::size_t rewritten = 0;
    for (std::uint32_t z = node;; z -= back) {
        std::int16_t& e = m_entries[std::size_t{z} * 8 + static_cast<std::size_t>(d)];
        const std::int16_t fresh = compute(z, d);
        if (fresh == e) break;
        if (!is_diagonal(d) && ((fresh > 0) != (e > 0))) m_changed.push_back(std::uint64_t{z} * 8 + static_cast<std::uint64_t>(d));
        e = fresh;
        ++rewritten;
    }
    return rewritten;
}

std::size_t JumpTable::update_cell(const GridMap& map, GridPoint p) {
    if (!m_built || &map != m_map || map.node_bound() != node_bound() || map.stride() != m_stride || !map.contains(p))
        return 0;
    const std::uint32_t c = map.index(p);
    const std::uint8_t now = map.passable(p) ? 1 : 0;
    if (m_pass[c] == now) return 0;
    m_pass[c] = now;
    ++m_version;
    if (map.has_terrain_costs() && map.cost(p) != 1u) m_non_unit += now ? 1 : -1;

    // Straight entries of direction d read the passability of z, z + d and the jump-point test of z + d,
    // which looks at the two side cells of z + d and of z. The cells whose local inputs include c are
    // therefore c and c - d, each also shifted one cell to either side.
    std::size_t rewritten = 0;
    m_changed.clear();
    for (int d = 0; d < 8; d += 2) {
        const std::uint32_t back = dir_delta(d, m_stride), side = dir_delta((d + 2) & 7, m_stride);
        for (const std::uint32_t seed : {c, c - back, c + side, c + side - back, c - side, c - side - back})
            rewritten += repair(seed, d);
    }
    // Diagonal entries of direction d read the passability of z, z + d and its two straight parts, and
    // the straight entries of z + d in those parts (only whether they are positive).
    for (int d = 1; d < 8; d += 2) {
        const std::uint32_t step = dir_delta(d, m_stride);
        const int dv = vertical_part(d), dh = horizontal_part(d);
        for (const std::uint32_t seed : {c, c - step, c - dir_delta(dv, m_stride), c - dir_delta(dh, m_stride)})
            rewritten += repair(seed, d);
        for (std::size_t i = 0; i < m_changed.size(); ++i) {
            const auto changed_dir = static_cast<int>(m_changed[i] & 7u);
            if (changed_dir == dv || changed_dir == dh)
                rewritten += repair(static_cast<std::uint32_t>(m_changed[i] >> 3) - step, d);
        }
    }
    return rewritten;
}

bool JumpTable::in_sync(const GridMap& map) const noexcept {
    return m_built && &map == m_map && map.node_bound() == node_bound() && map.stride() == m_stride &&
           map.version() == m_version;
}

bool JumpTable::passable(GridPoint p) const noexcept {
    if (!m_built || p.x < 0 || p.y < 0 || p.x >= m_width || p.y >= m_height) return false;
    return m_pass[(static_cast<std::size_t>(p.y) + 1) * m_stride + static_cast<std::size_t>(p.x) + 1] != 0;
}

std::int32_t JumpTable::entry(GridPoint p, JumpDirection d) const noexcept {
    if (!m_built || p.x < 0 || p.y < 0 || p.x >= m_width || p.y >= m_height) return 0;
    const std::size_t node = (static_cast<std::size_t>(p.y) + 1) * m_stride + static_cast<std::size_t>(p.x) + 1;
    return m_entries[node * 8 + static_cast<std::size_t>(d)];
}

std::size_t JumpTable::memory_bytes() const noexcept {
    return m_entries.capacity() * sizeof(std::int16_t) + m_pass.capacity() +
           m_changed.capacity() * sizeof(std::uint64_t);
}

// ---- JpsPlusPathfinder --------------------------------------------------------------------------------

struct JpsPlusPathfinder::Impl {
    detail::JpsSearch search;
    TableJumper jumper;
    JumpTable table;
    std::uint64_t rebuilds = 0;

    // `map`: the table's map when the caller gave it (the islands' precheck needs it), else null.
    Status begin(const JumpTable& t, const GridMap* map, GridPoint start, GridPoint goal, const GridSearchOptions& options) {
        if (detail::check_options(options) != JpsSupport::Ok || !t.built() || !t.uniform_costs())
            return search.invalid();
        if (!t.passable(start) || !t.passable(goal)) return search.invalid();
        if (map != nullptr && islands_prove_unreachable(*map, options, start, goal)) return search.no_path();
        if (search.begin(t.passable_data(), t.node_bound(), t.stride(), start, goal, options) != Status::InProgress)
            return search.status();
        jumper.entries = t.entries();
        jumper.pass = t.passable_data();
        jumper.stride = t.stride();
        for (int d = 0; d < 8; ++d) jumper.delta[d] = dir_delta(d, t.stride());
        jumper.goal = search.goal();
        return Status::InProgress;
    }
};

JpsPlusPathfinder::JpsPlusPathfinder() : m_impl(std::make_unique<Impl>()) {}
JpsPlusPathfinder::~JpsPlusPathfinder() = default;
JpsPlusPathfinder::JpsPlusPathfinder(JpsPlusPathfinder&&) noexcept = default;
JpsPlusPathfinder& JpsPlusPathfinder::operator=(JpsPlusPathfinder&&) noexcept = default;

JpsSupport JpsPlusPathfinder::build(const GridMap& map, std::size_t open_entries, bool prefault) {
    m_impl->search.invalid();  // a search on the owned table must not outlive its rebuild
    const JpsSupport result = m_impl->table.build(map);
    if (m_impl->table.built()) m_impl->search.reserve(m_impl->table.node_bound(), open_entries, prefault);
    return result;
}

void JpsPlusPathfinder::reserve(const JumpTable& table, std::size_t open_entries, bool prefault) {
    if (table.built()) m_impl->search.reserve(table.node_bound(), open_entries, prefault);
}

std::size_t JpsPlusPathfinder::update_cell(const GridMap& map, GridPoint p) { return m_impl->table.update_cell(map, p); }

const JumpTable& JpsPlusPathfinder::table() const noexcept { return m_impl->table; }

Status JpsPlusPathfinder::begin(const GridMap& map, GridPoint start, GridPoint goal, const GridSearchOptions& options) {
    if (detail::check_options(options) != JpsSupport::Ok || map.empty()) return m_impl->search.invalid();
    if (!m_impl->table.in_sync(map)) {
        (void)m_impl->table.build(map);
        ++m_impl->rebuilds;
    }
    return m_impl->begin(m_impl->table, &map, start, goal, options);
}

Status JpsPlusPathfinder::begin(const JumpTable& table, GridPoint start, GridPoint goal, const GridSearchOptions& options) {
    return m_impl->begin(table, nullptr, start, goal, options);
}

Status JpsPlusPathfinder::step(std::uint64_t slice_expansions) {
    return m_impl->search.run(m_impl->jumper, slice_expansions);
}

Status JpsPlusPathfinder::finish(GridPath& out) const { return m_impl->search.finish(out); }

Status JpsPlusPathfinder::find_path(const GridMap& map, GridPoint start, GridPoint goal, const GridSearchOptions& options,
                                    GridPath& out) {
    if (begin(map, start, goal, options) == Status::InProgress) step();
    return finish(out);
}

Status JpsPlusPathfinder::status() const noexcept { return m_impl->search.status(); }
search::BudgetLimit JpsPlusPathfinder::budget_limit() const noexcept { return m_impl->search.budget_limit(); }
const search::SearchStats& JpsPlusPathfinder::stats() const noexcept { return m_impl->search.stats(); }
bool JpsPlusPathfinder::closed(GridPoint p) const noexcept { return m_impl && m_impl->search.closed(p.x, p.y); }
double JpsPlusPathfinder::cost() const noexcept { return m_impl->search.cost(); }
std::size_t JpsPlusPathfinder::jump_point_count() const noexcept { return m_impl->search.jump_point_count(); }
std::uint64_t JpsPlusPathfinder::rebuild_count() const noexcept { return m_impl->rebuilds; }
std::size_t JpsPlusPathfinder::memory_bytes() const noexcept { return m_impl->search.memory_bytes(); }

}  // namespace gameplan::path
