// The movement layer: units, destinations, path requests, routes, claims and crowd steps. See movement.hpp.
#include <gameplan/path/movement.hpp>

#include <gameplan/path/crowd.hpp>
#include <gameplan/path/smoothing.hpp>

#include "movement_pibt.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>

namespace gameplan::path {

namespace {

constexpr GridPoint kNowhere{-1, -1};
constexpr std::int32_t kGuidanceWindow = 4;  // route cells ahead that rank a unit's candidate cells

std::int32_t chebyshev(GridPoint a, GridPoint b) noexcept { return std::max(std::abs(a.x - b.x), std::abs(a.y - b.y)); }

}  // namespace

std::string_view to_string(UnitStatus status) noexcept {
    switch (status) {
        case UnitStatus::Idle: return "idle";
        case UnitStatus::Planning: return "planning";
        case UnitStatus::Moving: return "moving";
        case UnitStatus::Waiting: return "waiting";
        case UnitStatus::Arrived: return "arrived";
        case UnitStatus::Failed: return "failed";
    }
    return "?";
}

std::string_view to_string(MoveFailure failure) noexcept {
    switch (failure) {
        case MoveFailure::None: return "none";
        case MoveFailure::NoPath: return "no_path";
        case MoveFailure::InvalidGoal: return "invalid_goal";
        case MoveFailure::Budget: return "budget";
        case MoveFailure::Stuck: return "stuck";
    }
    return "?";
}

struct MovementSystem::Impl {
    struct Unit {
        GridPoint pos{-1, -1}, prev{-1, -1};
        Destination dest{};
        std::vector<GridPoint> route;  // route[idx] is the next cell to enter; route.back() the goal
        std::size_t idx = 0;
        PathHandle request;
        UnitStatus status = UnitStatus::Idle;
        MoveFailure failure = MoveFailure::None;
        bool live = false;
        bool anchored = false;
        bool moved = false;            // moved in the last update
        std::uint32_t still = 0;       // ticks still with a destination, not arrived
        std::uint32_t stalled = 0;     // ticks without progress along the route
        std::uint32_t waits_in_row = 0;
        std::uint64_t walk_ticks = 0;  // ticks since the walk began (PIBT priority)
        std::uint32_t next_free = kNoUnit;
        CrowdAgentId crowd = kNoCrowdAgent;  // its id in the CrowdStepper
    };

    explicit Impl(const GridMap& map, const MovementOptions& o)
        : queue(map, QueueOptions{.lanes = std::max(1u, o.lanes), .restart_on_passability_change = o.restart_on_passability_change}) {}

    std::vector<Unit> units;
    std::uint32_t free = kNoUnit;
    std::vector<std::uint32_t> occ;  // per node: unit + 1, 0 = free
    PathRequestQueue queue;
    PathResult taken;
    std::vector<GridPoint> line;
    std::vector<GridPoint> positions;  // per id, for the stepper
    std::vector<std::uint32_t> all, order;
    std::vector<GridPoint> next_cells;  // per id: the cell chosen for this tick
    detail::PibtStepper stepper;  // StepResolver::Builtin
    CrowdStepper crowd;           // StepResolver::Crowd
    std::vector<GridPoint> wanted;  // per id: the route cell a unit wanted this tick, {-1, -1} for none
    std::uint64_t seen_version = 0;

    [[nodiscard]] bool in_region(const Unit& u, GridPoint p) const noexcept {
        return chebyshev(p, u.dest.centre) <= u.dest.radius;
    }
    [[nodiscard]] bool has_route(const Unit& u) const noexcept {
        return !u.request.valid() && u.idx < u.route.size() &&
               (u.status == UnitStatus::Moving || u.status == UnitStatus::Waiting);
    }
};

MovementSystem::MovementSystem(const GridMap& map, const MovementOptions& options) : m_map(&map), m_options(options) {
    if (map.empty()) throw std::invalid_argument("MovementSystem: the map is empty");
    if (!(options.path_weight >= 1.0) || !std::isfinite(options.path_weight))
        throw std::invalid_argument("MovementSystem: path_weight must be a finite number >= 1");
    if (!(options.claim_penalty >= 0.0f) || !std::isfinite(options.claim_penalty) || !(options.still_penalty >= 0.0f) ||
        !std::isfinite(options.still_penalty) || !(options.claim_weight >= 0.0) || !std::isfinite(options.claim_weight))
        throw std::invalid_argument("MovementSystem: penalties and claim_weight must be finite and >= 0");
    if (options.lanes > kMaxQueueLanes)
        throw std::invalid_argument("MovementSystem: lanes must be at most " + std::to_string(kMaxQueueLanes));
    m_impl = std::make_unique<Impl>(map, options);
    m_impl->occ.assign(map.node_bound(), 0);
    m_impl->seen_version = map.version();
    m_claims.reset(map);
    m_impl->crowd.reset(map, options.movement, options.diagonal);
}

MovementSystem::~MovementSystem() = default;

void MovementSystem::reserve(std::size_t units, std::size_t path_cells) {
    Impl& im = *m_impl;
    im.units.reserve(units);
    for (Impl::Unit& u : im.units) u.route.reserve(path_cells);
    im.queue.reserve(units, path_cells);
    im.taken.path.cells.reserve(path_cells);
    im.line.reserve(path_cells);
    im.positions.reserve(units);
    im.all.reserve(units);
    im.order.reserve(units);
    im.stepper.reset(*m_map, units);
    im.crowd.reserve(units);
    im.wanted.reserve(units);
    im.next_cells.reserve(units);
    m_claims.reserve_touched(units * (std::size_t(m_options.claim_cells) + 1));
    m_reserve_path_cells = path_cells;
}

UnitId MovementSystem::add_unit(GridPoint cell) {
    Impl& im = *m_impl;
    if (!m_map->passable(cell) || im.occ[m_map->index(cell)] != 0) return kNoUnit;
    const CrowdAgentId crowd = im.crowd.add(cell);
    if (crowd == kNoCrowdAgent) return kNoUnit;
    UnitId id;
    if (im.free != kNoUnit) {
        id = im.free;
        im.free = im.units[id].next_free;
    } else {
        id = static_cast<UnitId>(im.units.size());
        im.units.emplace_back();
        im.units.back().route.reserve(m_reserve_path_cells);
    }
    Impl::Unit& u = im.units[id];
    std::vector<GridPoint> route = std::move(u.route);  // keep the buffer of a reused id
    u = Impl::Unit{};
    u.route = std::move(route);
    u.route.clear();
    u.pos = u.prev = cell;
    u.live = true;
    u.crowd = crowd;
    im.occ[m_map->index(cell)] = id + 1;
    ++m_live;
    return id;
}

bool MovementSystem::remove_unit(UnitId unit) noexcept {
    Impl& im = *m_impl;
    if (unit >= im.units.size() || !im.units[unit].live) return false;
    (void)stop(unit);
    Impl::Unit& u = im.units[unit];
    if (m_map->contains(u.pos) && im.occ[m_map->index(u.pos)] == unit + 1) im.occ[m_map->index(u.pos)] = 0;
    (void)im.crowd.remove(u.crowd);
    u.live = false;
    u.next_free = im.free;
    im.free = unit;
    --m_live;
    return true;
}

std::size_t MovementSystem::id_bound() const noexcept { return m_impl->units.size(); }

void MovementSystem::submit(UnitId unit) {
    Impl& im = *m_impl;
    Impl::Unit& u = im.units[unit];
    if (u.request.valid()) (void)im.queue.cancel(u.request);
    u.route.clear();
    u.idx = 0;
    PathRequest r;
    r.start = u.pos;
    r.goal = u.dest.cell;
    r.options.movement = m_options.movement;
    r.options.diagonal = m_options.diagonal;
    r.options.weight = m_options.path_weight;
    if (m_options.search_budget > 0) r.options.budget.max_expansions = m_options.search_budget;
    if (m_options.claim_weight > 0.0) {
        r.options.penalties = &m_claims;
        r.options.penalty_weight = m_options.claim_weight;
    }
    r.options.layers = m_options.layers;
    r.options.islands = m_options.islands;
    u.request = im.queue.submit(r);
    u.status = UnitStatus::Planning;
    u.waits_in_row = 0;
    ++m_stats.path_requests;
}

bool MovementSystem::move_to(UnitId unit, const Destination& destination) {
    Impl& im = *m_impl;
    if (unit >= im.units.size() || !im.units[unit].live) return false;
    Impl::Unit& u = im.units[unit];
    const bool walking = u.status == UnitStatus::Planning || u.status == UnitStatus::Moving ||
                         u.status == UnitStatus::Waiting || u.status == UnitStatus::Arrived;
    if (walking && u.dest == destination) return true;
    const bool moved_goal = walking && u.status != UnitStatus::Arrived;
    if (u.request.valid()) (void)im.queue.cancel(u.request);
    u.request = {};
    u.route.clear();
    u.idx = 0;
    u.dest = destination;
    u.failure = MoveFailure::None;
    u.still = u.stalled = u.waits_in_row = 0;
    u.walk_ticks = 0;
    u.anchored = false;
    if (!m_map->passable(destination.cell) || !m_map->contains(destination.centre) || destination.radius < 0) {
        u.status = UnitStatus::Failed;
        u.failure = MoveFailure::InvalidGoal;
        ++m_stats.failures;
        return false;
    }
    if (im.in_region(u, u.pos)) {
        u.status = UnitStatus::Arrived;
        ++m_stats.arrivals;
        return true;
    }
    if (moved_goal) ++m_stats.repaths_goal;
    submit(unit);
    return true;
}

bool MovementSystem::stop(UnitId unit) noexcept {
    Impl& im = *m_impl;
    if (unit >= im.units.size() || !im.units[unit].live) return false;
    Impl::Unit& u = im.units[unit];
    if (u.request.valid()) (void)im.queue.cancel(u.request);
    u.request = {};
    u.route.clear();
    u.idx = 0;
    u.status = UnitStatus::Idle;
    u.failure = MoveFailure::None;
    u.still = u.stalled = u.waits_in_row = 0;
    return true;
}

bool MovementSystem::set_anchored(UnitId unit, bool anchored) noexcept {
    Impl& im = *m_impl;
    if (unit >= im.units.size() || !im.units[unit].live) return false;
    Impl::Unit& u = im.units[unit];
    if (anchored && u.status != UnitStatus::Idle && u.status != UnitStatus::Arrived && u.status != UnitStatus::Failed)
        (void)stop(unit);
    u.anchored = anchored;
    return true;
}

// The path of a finished request becomes the unit's route; false if it cannot be joined from where the
// unit stands now (it may have been pushed while its request was in flight).
bool MovementSystem::adopt_path(UnitId unit) {
    Impl& im = *m_impl;
    Impl::Unit& u = im.units[unit];
    GridPath& path = im.taken.path;
    if (m_options.smooth) {
        SmoothingOptions so;
        so.movement = m_options.movement;
        so.diagonal = m_options.diagonal;
        if (m_options.layers.empty()) {
            smooth_path(*m_map, path, so);
        } else {  // a shortcut must not cost more under the layers (e.g. cut through a danger zone)
            GridSearchOptions costs;
            costs.movement = m_options.movement;
            costs.diagonal = m_options.diagonal;
            costs.layers = m_options.layers;
            smooth_path(*m_map, path, so, costs);
        }
    }
    const std::vector<GridPoint>& cells = path.cells;
    u.route.clear();
    u.route.push_back(cells.front());
    for (std::size_t i = 1; i < cells.size(); ++i) {
        const GridPoint a = cells[i - 1], b = cells[i];
        if (chebyshev(a, b) <= 1 && (m_options.movement == Movement::Eight || a.x == b.x || a.y == b.y)) {
            u.route.push_back(b);
            continue;
        }
        im.line.resize(static_cast<std::size_t>(std::abs(b.x - a.x) + std::abs(b.y - a.y)));
        const std::size_t count = write_walkable_line(*m_map, a, b, m_options.movement, m_options.diagonal, im.line.data());
        if (count == 0) return false;
        u.route.insert(u.route.end(), im.line.begin(), im.line.begin() + static_cast<std::ptrdiff_t>(count));
    }
    // Join it from where the unit stands.
    if (u.route.front() == u.pos) {
        u.idx = 1;
    } else if (u.route.size() > 1 && u.route[1] == u.pos) {
        u.idx = 2;
    } else if (u.route.size() > 1 && step_allowed(*m_map, u.pos, u.route[1], m_options.movement, m_options.diagonal)) {
        u.idx = 1;
    } else {
        return false;
    }
    return true;
}

bool MovementSystem::route_still_legal(UnitId unit) const noexcept {
    const Impl::Unit& u = m_impl->units[unit];
    GridPoint from = u.pos;
    for (std::size_t k = u.idx; k < u.route.size(); ++k) {
        if (!step_allowed(*m_map, from, u.route[k], m_options.movement, m_options.diagonal)) return false;
        from = u.route[k];
    }
    return true;
}

void MovementSystem::write_claims() {
    Impl& im = *m_impl;
    m_claims.clear();
    const std::uint32_t length = m_options.claim_cells;
    for (const Impl::Unit& u : im.units) {
        if (!u.live) continue;
        if (im.has_route(u) && length > 0 && m_options.claim_penalty > 0.0f) {
            for (std::uint32_t k = 0; k < length && u.idx + k < u.route.size(); ++k)
                (void)m_claims.add(u.route[u.idx + k],
                                   m_options.claim_penalty * (1.0f - static_cast<float>(k) / static_cast<float>(length)));
        } else if ((u.anchored || !u.moved) && m_options.still_penalty > 0.0f) {
            (void)m_claims.add(u.pos, m_options.still_penalty);
        }
    }
}

void MovementSystem::set_restart_on_passability_change(bool restart) noexcept {
    m_options.restart_on_passability_change = restart;
    m_impl->queue.set_restarts(false, restart);
}

void MovementSystem::update() {
    Impl& im = *m_impl;
    const GridMap& map = *m_map;
    ++m_stats.ticks;

    // 1. A change of passability: re-check the rest of every route (cost changes leave routes legal).
    if (map.version() != im.seen_version) {
        const bool passability = map.passability_changed_since(im.seen_version);
        im.seen_version = map.version();
        for (UnitId id = 0; passability && id < im.units.size(); ++id) {
            Impl::Unit& u = im.units[id];
            if (!u.live || !im.has_route(u) || route_still_legal(id)) continue;
            ++m_stats.repaths_map;
            submit(id);
        }
    }
    // 2. Claims, 3. searches.
    write_claims();
    (void)im.queue.update(m_options.path_budget);
    for (UnitId id = 0; id < im.units.size(); ++id) {
        Impl::Unit& u = im.units[id];
        if (!u.live || !u.request.valid() || im.queue.state(u.request) != RequestState::Done) continue;
        (void)im.queue.take(u.request, im.taken);
        u.request = {};
        switch (im.taken.status) {
            case Status::Found: break;
            case Status::BudgetExhausted: u.failure = MoveFailure::Budget; break;
            case Status::InvalidQuery: u.failure = MoveFailure::InvalidGoal; break;
            default: u.failure = MoveFailure::NoPath; break;
        }
        if (u.failure != MoveFailure::None) {
            u.status = UnitStatus::Failed;
            ++m_stats.failures;
            continue;
        }
        ++m_stats.paths;
        if (im.taken.path.cells.empty() || !adopt_path(id)) {
            ++m_stats.repaths_off_route;
            submit(id);
            continue;
        }
        u.status = UnitStatus::Moving;
    }

    // 4. Crowd step.
    im.wanted.resize(im.units.size());
    im.next_cells.resize(im.units.size());
    for (UnitId id = 0; id < im.units.size(); ++id) {
        const Impl::Unit& u = im.units[id];
        im.wanted[id] = u.live && !u.anchored && im.has_route(u) ? u.route[u.idx] : kNowhere;
    }
    if (m_options.resolver == StepResolver::Crowd) {
        step_with_crowd();
    } else {
        step_with_builtin();
    }
    apply_moves();
}

void MovementSystem::step_with_builtin() {
    Impl& im = *m_impl;
    const GridMap& map = *m_map;
    im.positions.resize(im.units.size());
    im.all.clear();
    im.order.clear();
    for (UnitId id = 0; id < im.units.size(); ++id) {
        const Impl::Unit& u = im.units[id];
        if (!u.live) continue;
        im.positions[id] = u.pos;
        im.all.push_back(id);
        if (!u.anchored && im.has_route(u)) im.order.push_back(id);
    }
    std::sort(im.order.begin(), im.order.end(), [&](std::uint32_t a, std::uint32_t b) {
        const std::uint64_t pa = im.units[a].walk_ticks, pb = im.units[b].walk_ticks;
        return pa != pb ? pa > pb : a < b;
    });
    im.stepper.reset(map, im.units.size());
    const bool four = m_options.movement == Movement::Four;
    const auto distance = [four](GridPoint a, GridPoint b) {
        const std::int32_t dx = std::abs(a.x - b.x), dy = std::abs(a.y - b.y);
        return four ? dx + dy : std::max(dx, dy);
    };
    const auto occupant = [&](std::uint32_t node) -> std::uint32_t { return im.occ[node] == 0 ? detail::PibtStepper::kNone : im.occ[node] - 1; };
    const auto fixed = [&](std::uint32_t a) { return im.units[a].anchored; };
    const float* claims = m_claims.data().data();
    const auto rank = [&](std::uint32_t a, GridPoint cell) -> std::uint64_t {
        const Impl::Unit& u = im.units[a];
        const std::uint32_t node = map.index(cell);
        const bool taken = im.occ[node] != 0 && im.occ[node] != a + 1;
        const auto penalty = static_cast<std::uint64_t>(std::min(255.0f, claims[node] * 16.0f));
        if (im.has_route(u)) {
            // Remaining walk estimated through the next few route cells; the next route cell first on
            // ties, then staying, then free cells, then cells fewer units claimed.
            // Exact on the route (steps left) and one legal step beside it; farther cells rank after
            // staying, so a unit never walks into a pocket the crow-flies distance would lure it into.
            std::uint64_t est;
            if (im.in_region(u, cell)) {
                est = 0;
            } else {
                const std::size_t end = u.route.size() - 1;
                const std::size_t stop = std::min(end, u.idx + kGuidanceWindow);
                std::size_t best = SIZE_MAX;
                for (std::size_t k = u.idx; k <= stop; ++k) {
                    const GridPoint r = u.route[k];
                    if (cell == r) best = std::min(best, end - k);
                    else if (chebyshev(cell, r) == 1 && step_allowed(map, cell, r, m_options.movement, m_options.diagonal))
                        best = std::min(best, end - k + 1);
                }
                if (best == SIZE_MAX) best = end - u.idx + 2 + static_cast<std::size_t>(distance(cell, u.route[u.idx]));
                est = static_cast<std::uint64_t>(best) + 1;
            }
            const std::uint64_t tie = cell == u.route[u.idx] ? 0 : cell == u.pos ? 1 : 2;
            return est << 16 | tie << 12 | std::uint64_t(taken) << 8 | penalty;
        }
        // Units without a route only move when asked: prefer to stay in their arrival region, then free
        // cells nobody claimed.
        const bool arrived = u.status == UnitStatus::Arrived;
        const std::uint64_t outside = arrived && !im.in_region(u, cell) ? 1 : 0;
        const std::uint64_t stay = cell == u.pos ? 0 : 1;
        return stay << 20 | outside << 16 | std::uint64_t(taken) << 8 | penalty;
    };
    im.stepper.plan(map, m_options.movement, m_options.diagonal, im.positions, im.all, im.order, occupant, fixed, rank);

    for (const std::uint32_t id : im.all) im.next_cells[id] = im.stepper.next(id);
}

void MovementSystem::step_with_crowd() {
    Impl& im = *m_impl;
    im.all.clear();
    for (UnitId id = 0; id < im.units.size(); ++id) {
        const Impl::Unit& u = im.units[id];
        if (!u.live) continue;
        im.all.push_back(id);
        if (u.anchored) {
            (void)im.crowd.hold(u.crowd);
            (void)im.crowd.clear_goal(u.crowd);
        } else if (im.has_route(u)) {
            (void)im.crowd.set_goal(u.crowd, std::span<const GridPoint>(u.route).subspan(u.idx));
        } else {
            (void)im.crowd.clear_goal(u.crowd);
        }
    }
    im.crowd.tick();
    for (const std::uint32_t id : im.all) im.next_cells[id] = im.crowd.position(im.units[id].crowd);
}

void MovementSystem::apply_moves() {
    Impl& im = *m_impl;
    const GridMap& map = *m_map;
    // 5. Apply the moves and update routes, counters and statuses.
    for (const std::uint32_t id : im.all) im.occ[map.index(im.units[id].pos)] = 0;
    for (const std::uint32_t id : im.all) {
        Impl::Unit& u = im.units[id];
        const GridPoint to = im.next_cells[id];
        u.prev = u.pos;
        u.moved = to != u.pos;
        const bool routed = im.has_route(u);
        if (u.moved) ++m_stats.steps;
        u.pos = to;
        im.occ[map.index(to)] = id + 1;
        if (!routed && u.moved) ++m_stats.pushes;
    }
    for (const std::uint32_t id : im.all) {
        Impl::Unit& u = im.units[id];
        const bool active = u.status == UnitStatus::Planning || u.status == UnitStatus::Moving || u.status == UnitStatus::Waiting;
        if (!active) continue;
        ++u.walk_ticks;
        bool progress = false;
        if (im.has_route(u)) {
            const GridPoint want = u.route[u.idx];
            if (!u.moved) {
                ++m_stats.waits;
                ++u.waits_in_row;
                u.status = UnitStatus::Waiting;
            } else {
                u.waits_in_row = 0;
                u.status = UnitStatus::Moving;
                if (u.pos == want) {
                    ++u.idx;
                    progress = true;
                } else {
                    const std::uint32_t holder = im.occ[map.index(want)];
                    if (holder != 0 && holder != id + 1) ++m_stats.detours;  // another unit held the next route cell
                    // Rejoin: a route cell a little ahead, or a cell next to the route's next cell.
                    bool joined = false;
                    const std::size_t stop = std::min(u.route.size(), u.idx + kGuidanceWindow + 1);
                    for (std::size_t k = u.idx; k < stop && !joined; ++k)
                        if (u.route[k] == u.pos) u.idx = k + 1, joined = progress = true;
                    for (std::size_t k = u.idx; k < stop && !joined; ++k)
                        if (step_allowed(map, u.pos, u.route[k], m_options.movement, m_options.diagonal)) u.idx = k, joined = true;
                    if (!joined && !im.in_region(u, u.pos)) {
                        ++m_stats.repaths_off_route;
                        submit(id);
                    }
                }
            }
        }
        if (im.in_region(u, u.pos)) {
            if (u.request.valid()) (void)im.queue.cancel(u.request);
            u.request = {};
            u.route.clear();
            u.idx = 0;
            u.status = UnitStatus::Arrived;
            u.still = u.stalled = u.waits_in_row = 0;
            ++m_stats.arrivals;
            continue;
        }
        u.still = u.moved ? 0 : u.still + 1;
        if (u.still == m_options.still_limit) ++m_stats.jams;
        m_stats.longest_still = std::max<std::uint64_t>(m_stats.longest_still, u.still);
        u.stalled = progress ? 0 : u.stalled + 1;
        if (m_options.give_up_ticks > 0 && u.stalled >= m_options.give_up_ticks) {
            if (u.request.valid()) (void)im.queue.cancel(u.request);
            u.request = {};
            u.route.clear();
            u.idx = 0;
            u.status = UnitStatus::Failed;
            u.failure = MoveFailure::Stuck;
            ++m_stats.failures;
            continue;
        }
        if (u.status == UnitStatus::Moving && u.idx >= u.route.size()) {  // route ended outside the region
            ++m_stats.repaths_off_route;
            submit(id);
        } else if (u.status == UnitStatus::Waiting && m_options.detour_after > 0 && u.waits_in_row >= m_options.detour_after) {
            ++m_stats.repaths_blocked;
            ++m_stats.detours;
            // Yield: a unit held up this long drops to the back of the priority order, so that units
            // coming the other way (often the very ones it waits for) can get out first.
            u.walk_ticks = 0;
            submit(id);
        }
    }
}

GridPoint MovementSystem::position(UnitId unit) const noexcept {
    return unit < m_impl->units.size() && m_impl->units[unit].live ? m_impl->units[unit].pos : kNowhere;
}
GridPoint MovementSystem::previous_position(UnitId unit) const noexcept {
    return unit < m_impl->units.size() && m_impl->units[unit].live ? m_impl->units[unit].prev : kNowhere;
}
UnitStatus MovementSystem::status(UnitId unit) const noexcept {
    return unit < m_impl->units.size() && m_impl->units[unit].live ? m_impl->units[unit].status : UnitStatus::Idle;
}
MoveFailure MovementSystem::failure(UnitId unit) const noexcept {
    return unit < m_impl->units.size() && m_impl->units[unit].live && m_impl->units[unit].status == UnitStatus::Failed
               ? m_impl->units[unit].failure
               : MoveFailure::None;
}
Destination MovementSystem::destination(UnitId unit) const noexcept {
    return unit < m_impl->units.size() ? m_impl->units[unit].dest : Destination{};
}
std::span<const GridPoint> MovementSystem::remaining_route(UnitId unit) const noexcept {
    if (unit >= m_impl->units.size()) return {};
    const Impl::Unit& u = m_impl->units[unit];
    if (!u.live || !m_impl->has_route(u)) return {};
    return std::span<const GridPoint>(u.route).subspan(u.idx);
}
std::uint32_t MovementSystem::still_ticks(UnitId unit) const noexcept {
    return unit < m_impl->units.size() && m_impl->units[unit].live ? m_impl->units[unit].still : 0;
}
bool MovementSystem::anchored(UnitId unit) const noexcept {
    return unit < m_impl->units.size() && m_impl->units[unit].live && m_impl->units[unit].anchored;
}
UnitId MovementSystem::occupant(GridPoint p) const noexcept {
    if (!m_map->contains(p)) return kNoUnit;
    const std::uint32_t o = m_impl->occ[m_map->index(p)];
    return o == 0 ? kNoUnit : o - 1;
}

}  // namespace gameplan::path

// ---- saving and restoring ---------------------------------------------------------------------------

namespace gameplan::path {

void MovementSystem::save_state(MovementState& out) const {
    const Impl& im = *m_impl;
    out = MovementState{};
    out.units.reserve(im.units.size());
    for (const Impl::Unit& u : im.units) {
        MovementState::Unit s;
        s.live = u.live;
        s.pos = u.pos;
        s.prev = u.prev;
        s.dest = u.dest;
        s.route = u.route;
        s.idx = u.idx;
        s.request = u.request;
        s.status = u.status;
        s.failure = u.failure;
        s.anchored = u.anchored;
        s.moved = u.moved;
        s.still = u.still;
        s.stalled = u.stalled;
        s.waits_in_row = u.waits_in_row;
        s.walk_ticks = u.walk_ticks;
        out.units.push_back(std::move(s));
    }
    for (std::uint32_t i = im.free; i != kNoUnit && out.free_units.size() < im.units.size(); i = im.units[i].next_free)
        out.free_units.push_back(i);
    out.stats = m_stats;
    out.seen_version = im.seen_version;
    im.queue.save_state(out.queue);
    if (m_options.resolver == StepResolver::Crowd) im.crowd.save_state(out.crowd);
}

RestoreResult MovementSystem::restore_state(const MovementState& state) {
    Impl& im = *m_impl;
    const GridMap& map = *m_map;
    const auto clear = [&] {
        for (Impl::Unit& u : im.units)
            if (u.live) u.request = {};
        im.units.clear();
        im.free = kNoUnit;
        std::fill(im.occ.begin(), im.occ.end(), 0u);
        im.crowd.reset(map, m_options.movement, m_options.diagonal);
        m_live = 0;
        m_stats = {};
        im.seen_version = map.version();
    };
    const auto fail = [&](std::string field, std::string message) -> RestoreResult {
        clear();
        PathRequestQueueState empty;
        empty.lanes = std::max(1u, m_options.lanes);
        (void)im.queue.restore_state(empty);
        return RestoreError{std::move(field), std::move(message)};
    };
    clear();
    if (RestoreResult r = im.queue.restore_state(state.queue, QueueBindings{m_options.islands, nullptr, &m_claims, nullptr, nullptr, m_options.layers})) {
        r->field = r->field.empty() ? "queue" : "queue." + r->field;
        clear();
        return r;
    }
    if (state.units.size() >= kNoUnit) return fail("units", "too many units");
    im.units.resize(state.units.size());
    for (std::size_t i = 0; i < state.units.size(); ++i) {
        const MovementState::Unit& s = state.units[i];
        const std::string at = "units[" + std::to_string(i) + "]";
        Impl::Unit& u = im.units[i];
        u.route.reserve(std::max(m_reserve_path_cells, s.route.size()));
        if (!s.live) continue;
        if (!map.passable(s.pos)) return fail(at + ".pos", "the unit stands off the map or in a wall");
        if (im.occ[map.index(s.pos)] != 0) return fail(at + ".pos", "two units stand on one cell");
        if (!map.contains(s.prev)) return fail(at + ".prev", "off the map");
        if (!map.contains(s.dest.cell) || !map.contains(s.dest.centre) || s.dest.radius < 0)
            return fail(at + ".dest", "the destination is off the map or its radius is negative");
        for (std::size_t k = 0; k < s.route.size(); ++k)
            if (!map.contains(s.route[k])) return fail(at + ".route[" + std::to_string(k) + "]", "off the map");
        if (s.idx > s.route.size()) return fail(at + ".idx", "past the end of the route");
        if (s.status > UnitStatus::Failed) return fail(at + ".status", "unknown status");
        if (s.failure > MoveFailure::Stuck) return fail(at + ".failure", "unknown failure");
        if (s.request.valid() && im.queue.state(s.request) == RequestState::Unknown)
            return fail(at + ".request", "the queue holds no such request");
        u.pos = s.pos;
        u.prev = s.prev;
        u.dest = s.dest;
        u.route.assign(s.route.begin(), s.route.end());
        u.idx = static_cast<std::size_t>(s.idx);
        u.request = s.request;
        u.status = s.status;
        u.failure = s.failure;
        u.live = true;
        u.anchored = s.anchored;
        u.moved = s.moved;
        u.still = s.still;
        u.stalled = s.stalled;
        u.waits_in_row = s.waits_in_row;
        u.walk_ticks = s.walk_ticks;
        im.occ[map.index(u.pos)] = static_cast<std::uint32_t>(i) + 1;
        ++m_live;
    }
    if (m_options.resolver == StepResolver::Crowd) {
        // The crowd stepper resolves the steps: its units' priorities and progress come from the save,
        // and each live unit is the stepper's unit on its cell.
        if (RestoreResult r = im.crowd.restore_state(state.crowd)) {
            r->field = r->field.empty() ? "crowd" : "crowd." + r->field;
            return fail(std::move(r->field), std::move(r->message));
        }
        if (im.crowd.size() != m_live)
            return fail("crowd.units", "the crowd stepper's units are not the live units (saved with StepResolver::Builtin?)");
        for (std::size_t i = 0; i < im.units.size(); ++i) {
            Impl::Unit& u = im.units[i];
            if (!u.live) continue;
            u.crowd = im.crowd.at(u.pos);
            if (u.crowd == kNoCrowdAgent)
                return fail("units[" + std::to_string(i) + "].pos", "no unit of the crowd stepper stands on this cell");
        }
    } else {
        // The crowd stepper knows the live units (Builtin resolver: only for add/remove bookkeeping).
        for (Impl::Unit& u : im.units) {
            if (!u.live) continue;
            u.crowd = im.crowd.add(u.pos);
            if (u.crowd == kNoCrowdAgent) return fail("units", "a unit's cell is refused by the crowd stepper");
        }
    }
    {
        std::vector<std::uint8_t> seen(im.units.size(), 0);
        for (std::size_t i = 0; i < im.units.size(); ++i) seen[i] = im.units[i].live ? 1 : 0;
        for (std::size_t k = state.free_units.size(); k-- > 0;) {
            const std::uint32_t id = state.free_units[k];
            if (id >= im.units.size() || seen[id])
                return fail("free_units[" + std::to_string(k) + "]", "not a free unit id (or listed twice)");
            seen[id] = 1;
            im.units[id].next_free = im.free;
            im.free = id;
        }
        for (std::size_t i = 0; i < seen.size(); ++i)
            if (!seen[i]) return fail("free_units", "unit " + std::to_string(i) + " is neither live nor free");
    }
    // Every request the queue holds belongs to exactly one live unit (the layer takes results by unit).
    {
        std::vector<std::uint64_t> owned;
        for (const Impl::Unit& u : im.units)
            if (u.live && u.request.valid()) owned.push_back(std::uint64_t{u.request.index} << 32 | u.request.generation);
        std::sort(owned.begin(), owned.end());
        if (std::adjacent_find(owned.begin(), owned.end()) != owned.end()) return fail("units", "two units share one request");
        if (owned.size() != im.queue.size()) return fail("queue", "the queue holds requests no unit is waiting for");
    }
    m_stats = state.stats;
    im.seen_version = state.seen_version;
    return std::nullopt;
}

}  // namespace gameplan::path
