// Simple subgoal graphs (Uras, Koenig and Hernandez, ICAPS 2013): build, the direct-h-reachable sweep,
// refinement, and the query over the engine's SearchContext. See include/gameplan/path/subgoal.hpp.
#include <gameplan/path/grid_rules.hpp>
#include <gameplan/path/subgoal.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <utility>

namespace gameplan::path {

namespace {

// Directions clockwise from north (north = decreasing y).
constexpr int kDx[8] = {0, 1, 1, 1, 0, -1, -1, -1};
constexpr int kDy[8] = {-1, -1, 0, 1, 1, 1, 0, -1};
constexpr std::uint32_t kNone = UINT32_MAX;

constexpr bool is_diagonal(int d) noexcept { return (d & 1) != 0; }

double octile(std::int32_t dx, std::int32_t dy) noexcept {
    const std::int32_t ax = std::abs(dx), ay = std::abs(dy);
    const std::int32_t lo = std::min(ax, ay), hi = std::max(ax, ay);
    return static_cast<double>(hi - lo) + kDiagonalStep * static_cast<double>(lo);
}

int direction_of(int sx, int sy) noexcept {
    for (int d = 0; d < 8; ++d)
        if (kDx[d] == sx && kDy[d] == sy) return d;
    return -1;
}

}  // namespace

// ---- SubgoalGraph --------------------------------------------------------------------------------------

bool SubgoalGraph::legal(std::uint32_t node, int d) const noexcept {
    const auto n = static_cast<std::uint32_t>(static_cast<std::int64_t>(node) + m_delta[d]);
    if (!m_pass[n]) return false;
    if (!is_diagonal(d)) return true;
    return m_pass[static_cast<std::uint32_t>(static_cast<std::int64_t>(node) + kDx[d])] &&
           m_pass[static_cast<std::uint32_t>(static_cast<std::int64_t>(node) + std::int64_t{kDy[d]} * m_stride)];
}

JpsSupport SubgoalGraph::build(const GridMap& map) {
    m_built = false;
    m_map = nullptr;
    if (map.empty()) return JpsSupport::EmptyMap;
    if (map.has_terrain_costs()) {
        const auto costs = map.cost_data();
        const auto pass = map.passable_data();
        for (std::size_t i = 0; i < pass.size(); ++i)
            if (pass[i] && costs[i] != 1u) return JpsSupport::TerrainCosts;
    }
    m_width = map.width();
    m_height = map.height();
    m_stride = map.stride();
    m_version = map.version();
    m_map = &map;
    const auto pass = map.passable_data();
    m_pass.assign(pass.begin(), pass.end());
    const std::size_t bound = m_pass.size();
    for (int d = 0; d < 8; ++d) m_delta[d] = std::int64_t{kDy[d]} * m_stride + kDx[d];

    // Subgoals: passable cells with a blocked diagonal neighbour whose two cells beside it are passable.
    m_id.assign(bound, -1);
    m_subgoal_node.clear();
    for (std::uint32_t node = 0; node < bound; ++node) {
        if (!m_pass[node]) continue;
        for (int d = 1; d < 8; d += 2) {
            const auto diag = static_cast<std::uint32_t>(static_cast<std::int64_t>(node) + m_delta[d]);
            if (!m_pass[diag] && m_pass[static_cast<std::uint32_t>(static_cast<std::int64_t>(node) + kDx[d])] &&
                m_pass[static_cast<std::uint32_t>(static_cast<std::int64_t>(node) + std::int64_t{kDy[d]} * m_stride)]) {
                m_id[node] = static_cast<std::int32_t>(m_subgoal_node.size());
                m_subgoal_node.push_back(node);
                break;
            }
        }
    }

    // Clearances: free steps in each direction before a wall (an illegal step) or a subgoal. Each entry
    // depends on the entry of the next cell in the same direction, so the sweep runs against it.
    m_clear.assign(bound * 8, 0);
    const auto w = static_cast<std::uint32_t>(m_width), h = static_cast<std::uint32_t>(m_height);
    for (int d = 0; d < 8; ++d) {
        for (std::uint32_t yi = 0; yi < h; ++yi) {
            const std::uint32_t y = kDy[d] > 0 ? h - 1 - yi : yi;
            for (std::uint32_t xi = 0; xi < w; ++xi) {
                const std::uint32_t x = kDx[d] > 0 ? w - 1 - xi : xi;
                const std::uint32_t node = (y + 1) * m_stride + x + 1;
                if (!m_pass[node] || !legal(node, d)) continue;
                const auto next = static_cast<std::uint32_t>(static_cast<std::int64_t>(node) + m_delta[d]);
                if (m_id[next] >= 0) continue;
                const std::uint32_t c = m_clear[std::size_t{next} * 8 + static_cast<std::size_t>(d)] + 1u;
                m_clear[std::size_t{node} * 8 + static_cast<std::size_t>(d)] =
                    static_cast<std::uint16_t>(std::min<std::uint32_t>(c, 65535u));
            }
        }
    }

    // Edges: every direct-h-reachable pair, in both directions, without duplicates.
    std::vector<std::uint64_t> pairs;
    std::vector<std::uint32_t> found;
    for (std::uint32_t id = 0; id < m_subgoal_node.size(); ++id) {
        found.clear();
        reachable(m_subgoal_node[id], kNone, found);
        for (const std::uint32_t t : found) {
            const auto other = static_cast<std::uint32_t>(m_id[t]);
            if (other == id) continue;
            pairs.push_back(std::uint64_t{id} << 32 | other);
            pairs.push_back(std::uint64_t{other} << 32 | id);
        }
    }
    std::sort(pairs.begin(), pairs.end());
    pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
    const std::size_t n = m_subgoal_node.size();
    m_offsets.assign(n + 1, 0);
    m_targets.resize(pairs.size());
    m_lengths.resize(pairs.size());
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        const auto a = static_cast<std::uint32_t>(pairs[i] >> 32), b = static_cast<std::uint32_t>(pairs[i]);
        ++m_offsets[a + 1];
        m_targets[i] = b;
        const GridPoint pa = point(m_subgoal_node[a]), pb = point(m_subgoal_node[b]);
        m_lengths[i] = octile(pb.x - pa.x, pb.y - pa.y);
    }
    for (std::size_t i = 0; i < n; ++i) m_offsets[i + 1] += m_offsets[i];
    m_built = true;
    return JpsSupport::Ok;
}

// The first target on the ray from `from` in direction `d`: returns its node (a subgoal, or `extra`) and
// sets `clearance` to the free steps before it; returns kNone (clearance = free steps) if a wall comes
// first.
std::uint32_t SubgoalGraph::hit(std::uint32_t from, int d, std::uint32_t extra, int& clearance) const noexcept {
    const int j = m_clear[std::size_t{from} * 8 + static_cast<std::size_t>(d)];
    clearance = j;
    if (extra != kNone) {
        // Is `extra` on the ray within j + 1 steps?
        const auto fx = static_cast<std::int32_t>(from % m_stride), fy = static_cast<std::int32_t>(from / m_stride);
        const auto ex = static_cast<std::int32_t>(extra % m_stride), ey = static_cast<std::int32_t>(extra / m_stride);
        const std::int32_t ddx = ex - fx, ddy = ey - fy;
        std::int32_t k = -1;
        if (kDx[d] == 0) {
            if (ddx == 0 && ddy * kDy[d] > 0) k = std::abs(ddy);
        } else if (kDy[d] == 0) {
            if (ddy == 0 && ddx * kDx[d] > 0) k = std::abs(ddx);
        } else if (ddx * kDx[d] > 0 && ddy * kDy[d] > 0 && std::abs(ddx) == std::abs(ddy)) {
            k = std::abs(ddx);
        }
        if (k >= 1 && k <= j) {
            clearance = k - 1;
            return extra;
        }
        if (k == j + 1) {
            const auto before = static_cast<std::uint32_t>(static_cast<std::int64_t>(from) + m_delta[d] * j);
            if (legal(before, d)) return extra;
        }
    }
    const auto before = static_cast<std::uint32_t>(static_cast<std::int64_t>(from) + m_delta[d] * j);
    const auto next = static_cast<std::uint32_t>(static_cast<std::int64_t>(before) + m_delta[d]);
    if (m_id[next] >= 0 && legal(before, d)) return next;
    return kNone;
}

void SubgoalGraph::reachable(std::uint32_t from, std::uint32_t extra, std::vector<std::uint32_t>& out) const {
    int j = 0;
    for (int d = 0; d < 8; d += 2) {
        const std::uint32_t t = hit(from, d, extra, j);
        if (t != kNone) out.push_back(t);
    }
    for (int d = 1; d < 8; d += 2) {
        const int ca = d - 1, cb = (d + 1) & 7;
        int max_a = 0, max_b = 0;
        (void)hit(from, ca, extra, max_a);
        (void)hit(from, cb, extra, max_b);
        int diag = 0;
        const std::uint32_t t = hit(from, d, extra, diag);
        if (t != kNone) out.push_back(t);
        auto p = static_cast<std::uint32_t>(from);
        for (int i = 1; i <= diag; ++i) {
            p = static_cast<std::uint32_t>(static_cast<std::int64_t>(p) + m_delta[d]);
            const std::uint32_t ta = hit(p, ca, extra, j);
            if (ta != kNone && j <= max_a) {
                out.push_back(ta);
                --j;
            }
            if (j < max_a) max_a = j;
            const std::uint32_t tb = hit(p, cb, extra, j);
            if (tb != kNone && j <= max_b) {
                out.push_back(tb);
                --j;
            }
            if (j < max_b) max_b = j;
        }
    }
}

bool SubgoalGraph::segment_free(std::uint32_t a, int first, int count_first, int second, int count_second) const noexcept {
    std::uint32_t p = a;
    for (int i = 0; i < count_first; ++i) {
        if (!legal(p, first)) return false;
        p = static_cast<std::uint32_t>(static_cast<std::int64_t>(p) + m_delta[first]);
    }
    for (int i = 0; i < count_second; ++i) {
        if (!legal(p, second)) return false;
        p = static_cast<std::uint32_t>(static_cast<std::int64_t>(p) + m_delta[second]);
    }
    return true;
}

bool SubgoalGraph::refine(std::uint32_t a, std::uint32_t b, std::vector<GridPoint>& out) const {
    const GridPoint pa = point(a), pb = point(b);
    const std::int32_t dx = pb.x - pa.x, dy = pb.y - pa.y;
    const std::int32_t ax = std::abs(dx), ay = std::abs(dy);
    const int sx = (dx > 0) - (dx < 0), sy = (dy > 0) - (dy < 0);
    const int diagonal_steps = std::min(ax, ay), straight_steps = std::max(ax, ay) - diagonal_steps;
    const int diag = diagonal_steps > 0 ? direction_of(sx, sy) : 0;
    const int straight = straight_steps > 0 ? (ax > ay ? direction_of(sx, 0) : direction_of(0, sy)) : 0;
    int first = diag, second = straight, n_first = diagonal_steps, n_second = straight_steps;
    if (!segment_free(a, first, n_first, second, n_second)) {
        std::swap(first, second);
        std::swap(n_first, n_second);
        if (!segment_free(a, first, n_first, second, n_second)) return false;
    }
    GridPoint p = pa;
    for (int i = 0; i < n_first; ++i) {
        p = GridPoint{p.x + kDx[first], p.y + kDy[first]};
        out.push_back(p);
    }
    for (int i = 0; i < n_second; ++i) {
        p = GridPoint{p.x + kDx[second], p.y + kDy[second]};
        out.push_back(p);
    }
    return true;
}

bool SubgoalGraph::in_sync(const GridMap& map) const noexcept {
    return m_built && &map == m_map && map.node_bound() == m_pass.size() && map.stride() == m_stride &&
           map.version() == m_version;
}

bool SubgoalGraph::passable(GridPoint p) const noexcept {
    if (!m_built || p.x < 0 || p.y < 0 || p.x >= m_width || p.y >= m_height) return false;
    return m_pass[index(p)] != 0;
}

bool SubgoalGraph::is_subgoal(GridPoint p) const noexcept {
    return passable(p) && m_id[index(p)] >= 0;
}

std::size_t SubgoalGraph::memory_bytes() const noexcept {
    return m_pass.capacity() + m_id.capacity() * sizeof(std::int32_t) + m_clear.capacity() * sizeof(std::uint16_t) +
           m_subgoal_node.capacity() * sizeof(std::uint32_t) + m_offsets.capacity() * sizeof(std::uint32_t) +
           m_targets.capacity() * sizeof(std::uint32_t) + m_lengths.capacity() * sizeof(double);
}

// ---- SubgoalPathfinder ---------------------------------------------------------------------------------

namespace {

// The subgoal graph plus two query nodes: ids below n are subgoals, n is the goal, n + 1 the start.
struct QuerySpace {
    const SubgoalGraph* graph = nullptr;
    std::uint32_t n = 0;
    std::uint32_t start_node = 0;  // padded node indices of the ends
    std::uint32_t goal_node = 0;
    GridPoint goal{};
    Heuristic rule = Heuristic::Octile;
    double weight = 1.0;
    std::uint32_t generation = 0;
    const std::vector<std::uint32_t>* start_edges = nullptr;  // subgoal ids
    std::vector<std::uint32_t>* goal_stamp = nullptr;         // per subgoal id: generation if linked to the goal
    std::vector<double>* goal_length = nullptr;

    [[nodiscard]] std::size_t node_bound() const noexcept { return std::size_t{n} + 2; }
    [[nodiscard]] GridPoint where(std::uint32_t id) const noexcept {
        if (id < n) return graph->subgoal(id);
        return graph->point(id == n ? goal_node : start_node);
    }
    [[nodiscard]] double heuristic_of(std::uint32_t id) const noexcept {
        const GridPoint p = where(id);
        return weight * heuristic_distance(rule, std::abs(p.x - goal.x), std::abs(p.y - goal.y));
    }
    [[nodiscard]] double heuristic(search::NodeIndex id) const noexcept { return heuristic_of(id); }
    [[nodiscard]] bool is_goal(search::NodeIndex id) const noexcept { return id == n; }
    template <class Sink>
    void expand(search::NodeIndex id, Sink&& sink) const {
        const GridPoint p = where(id);
        if (id == n + 1) {
            for (const std::uint32_t t : *start_edges) {
                const GridPoint q = graph->subgoal(t);
                sink(t, octile(q.x - p.x, q.y - p.y), 0u);
            }
            return;
        }
        if (id >= n) return;
        const auto targets = graph->edge_targets(id);
        const auto lengths = graph->edge_lengths(id);
        for (std::size_t i = 0; i < targets.size(); ++i) sink(targets[i], lengths[i], 0u);
        if ((*goal_stamp)[id] == generation) sink(n, (*goal_length)[id], 0u);
    }
};

}  // namespace

struct SubgoalPathfinder::Impl {
    SubgoalGraph owned;
    const SubgoalGraph* graph = nullptr;
    search::SearchContext<double> context;
    QuerySpace space;
    std::vector<std::uint32_t> found;        // sweep output (padded node indices)
    std::vector<std::uint32_t> start_edges;  // subgoal ids linked to the start
    std::vector<std::uint32_t> goal_stamp;
    std::vector<double> goal_length;
    mutable std::vector<search::NodeIndex> route;  // scratch of finish()
    std::uint32_t generation = 0;
    JpsPathfinder fallback;
    bool use_fallback = false;
    std::uint64_t fallbacks = 0;
    // Outcome when decided without the graph search (invalid query, start == goal, direct segment).
    Status direct_status = Status::InvalidQuery;
    bool direct = true;
    search::SearchStats no_stats{};

    void size_for(const SubgoalGraph& g) {
        const std::size_t n = g.subgoal_count();
        if (goal_stamp.size() < n) {
            goal_stamp.resize(n, 0);
            goal_length.resize(n, 0.0);
        }
        context.reserve(n + 2, std::min<std::size_t>(n + 2, 1u << 14));
        found.reserve(256);
        start_edges.reserve(256);
        route.reserve(256);
    }

    Status invalid() {
        use_fallback = false;
        direct = true;
        direct_status = Status::InvalidQuery;
        return Status::InvalidQuery;
    }

    Status begin(const SubgoalGraph& g, GridPoint start, GridPoint goal, const GridSearchOptions& options) {
        use_fallback = false;
        if (options.movement != Movement::Eight || options.diagonal != DiagonalRule::NoCornerCutting ||
            !(options.weight >= 1.0) || !std::isfinite(options.weight) || options.penalties != nullptr || !g.built())
            return invalid();
        if (!g.passable(start) || !g.passable(goal)) return invalid();
        graph = &g;
        if (goal_stamp.size() < g.subgoal_count()) size_for(g);
        if (++generation == 0) {  // wrapped: forget every stamp
            std::fill(goal_stamp.begin(), goal_stamp.end(), 0u);
            generation = 1;
        }
        space.graph = &g;
        space.n = static_cast<std::uint32_t>(g.subgoal_count());
        space.start_node = g.index(start);
        space.goal_node = g.index(goal);
        space.goal = goal;
        space.rule = resolve_heuristic(options.movement, options.diagonal, options.heuristic);
        space.weight = options.weight;
        space.generation = generation;
        space.start_edges = &start_edges;
        space.goal_stamp = &goal_stamp;
        space.goal_length = &goal_length;
        direct = true;
        direct_status = Status::Found;
        if (start == goal) return Status::InProgress;
        // Join the ends to the graph; each end counts as a subgoal for the other's sweep.
        found.clear();
        g.reachable(space.start_node, space.goal_node, found);
        start_edges.clear();
        for (const std::uint32_t t : found) {
            if (t == space.goal_node) return Status::InProgress;  // the goal is in octile freespace of the start
            start_edges.push_back(static_cast<std::uint32_t>(g.subgoal_id(t)));
        }
        found.clear();
        g.reachable(space.goal_node, space.start_node, found);
        bool any_goal_edge = false;
        for (const std::uint32_t t : found) {
            if (t == space.start_node) return Status::InProgress;
            const auto id = static_cast<std::uint32_t>(g.subgoal_id(t));
            const GridPoint q = g.point(t);
            goal_stamp[id] = generation;
            goal_length[id] = octile(q.x - goal.x, q.y - goal.y);
            any_goal_edge = true;
        }
        if (start_edges.empty() || !any_goal_edge) {
            direct_status = Status::NoPath;
            return Status::InProgress;
        }
        direct = false;
        context.begin(space, space.n + 1, options.budget);
        return Status::InProgress;
    }

    Status status() const noexcept {
        if (use_fallback) return fallback.status();
        return direct ? direct_status : context.status();
    }

    Status finish(GridPath& out) const {
        out.cells.clear();
        const Status s = status();
        if (use_fallback) return fallback.finish(out);
        if (s != Status::Found) {
            out.cost = std::numeric_limits<double>::infinity();
            return s;
        }
        const SubgoalGraph& g = *graph;
        out.cells.push_back(g.point(space.start_node));
        if (direct) {
            if (space.start_node != space.goal_node) (void)g.refine(space.start_node, space.goal_node, out.cells);
            const GridPoint a = g.point(space.start_node), b = g.point(space.goal_node);
            out.cost = octile(b.x - a.x, b.y - a.y);
            return s;
        }
        std::uint32_t previous = space.start_node;
        std::vector<search::NodeIndex>& nodes = route;
        context.path_to(space.n, nodes);
        for (std::size_t i = 1; i < nodes.size(); ++i) {
            const std::uint32_t id = nodes[i];
            const std::uint32_t node = id == space.n ? space.goal_node : g.subgoal_node(id);
            (void)g.refine(previous, node, out.cells);
            previous = node;
        }
        out.cost = context.g(space.n);
        return s;
    }
};

SubgoalPathfinder::SubgoalPathfinder() : m_impl(std::make_unique<Impl>()) {}
SubgoalPathfinder::~SubgoalPathfinder() = default;
SubgoalPathfinder::SubgoalPathfinder(SubgoalPathfinder&&) noexcept = default;
SubgoalPathfinder& SubgoalPathfinder::operator=(SubgoalPathfinder&&) noexcept = default;

JpsSupport SubgoalPathfinder::build(const GridMap& map) {
    (void)m_impl->invalid();  // a search on the owned graph must not outlive its rebuild
    const JpsSupport result = m_impl->owned.build(map);
    if (m_impl->owned.built()) m_impl->size_for(m_impl->owned);
    return result;
}

const SubgoalGraph& SubgoalPathfinder::graph() const noexcept { return m_impl->owned; }

Status SubgoalPathfinder::begin(const GridMap& map, GridPoint start, GridPoint goal, const GridSearchOptions& options) {
    if (m_impl->owned.in_sync(map)) return m_impl->begin(m_impl->owned, start, goal, options);
    (void)m_impl->invalid();
    if (options.penalties != nullptr) return Status::InvalidQuery;
    const Status s = m_impl->fallback.begin(map, start, goal, options);
    m_impl->use_fallback = true;
    ++m_impl->fallbacks;
    return s;
}

Status SubgoalPathfinder::begin(const SubgoalGraph& graph, GridPoint start, GridPoint goal, const GridSearchOptions& options) {
    return m_impl->begin(graph, start, goal, options);
}

Status SubgoalPathfinder::step(std::uint64_t slice_expansions) {
    Impl& impl = *m_impl;
    if (impl.use_fallback) return impl.fallback.step(slice_expansions);
    if (impl.direct) return impl.direct_status;
    return impl.context.step(impl.space, slice_expansions);
}

Status SubgoalPathfinder::finish(GridPath& out) const { return m_impl->finish(out); }

Status SubgoalPathfinder::find_path(const GridMap& map, GridPoint start, GridPoint goal, const GridSearchOptions& options,
                                    GridPath& out) {
    if (begin(map, start, goal, options) == Status::InProgress) step();
    return finish(out);
}

Status SubgoalPathfinder::status() const noexcept { return m_impl->status(); }

const search::SearchStats& SubgoalPathfinder::stats() const noexcept {
    if (m_impl->use_fallback) return m_impl->fallback.stats();
    return m_impl->direct ? m_impl->no_stats : m_impl->context.stats();
}

double SubgoalPathfinder::cost() const noexcept {
    const Impl& impl = *m_impl;
    if (impl.use_fallback) return impl.fallback.cost();
    if (impl.status() != Status::Found) return std::numeric_limits<double>::infinity();
    if (impl.direct) {
        const GridPoint a = impl.graph->point(impl.space.start_node), b = impl.graph->point(impl.space.goal_node);
        return octile(b.x - a.x, b.y - a.y);
    }
    return impl.context.g(impl.space.n);
}

std::uint64_t SubgoalPathfinder::fallback_count() const noexcept { return m_impl->fallbacks; }

std::size_t SubgoalPathfinder::memory_bytes() const noexcept {
    const Impl& impl = *m_impl;
    return impl.owned.memory_bytes() + impl.context.engine_bytes() +
           (impl.goal_stamp.capacity() + impl.found.capacity() + impl.start_edges.capacity() + impl.route.capacity()) *
               sizeof(std::uint32_t) +
           impl.goal_length.capacity() * sizeof(double) + (impl.fallbacks ? impl.fallback.memory_bytes() : 0);
}

}  // namespace gameplan::path
