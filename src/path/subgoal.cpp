// Simple subgoal graphs (Uras, Koenig and Hernandez, ICAPS 2013): build, the direct-h-reachable sweep,
// refinement, and the query over the engine's SearchContext. See include/gameplan/path/subgoal.hpp.
#include <gameplan/path/grid_rules.hpp>
#include <gameplan/path/islands.hpp>
#include <gameplan/path/subgoal.hpp>

#include "exact_growth.hpp"
#include "jps_options.hpp"
#include "prefetch.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <cstdlib>
#include <limits>
#include <queue>
#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace gameplan::path {

namespace {

// Directions clockwise from north (north = decreasing y).
constexpr int kDx[8] = {0, 1, 1, 1, 0, -1, -1, -1};
constexpr int kDy[8] = {-1, -1, 0, 1, 1, 1, 0, -1};
constexpr std::uint32_t kNone = UINT32_MAX;
// A clearance entry: the number of free steps (low 15 bits) and whether the run ends with a legal step
// onto a subgoal (top bit) rather than at a wall or an illegal step.
constexpr std::uint16_t kClearSteps = 0x7fff;
constexpr std::uint16_t kClearSubgoal = 0x8000;

constexpr double kBoundSlack = 1e-9;  // lower bounds are lowered by this much against rounding

constexpr bool is_diagonal(int d) noexcept { return (d & 1) != 0; }

double octile(std::int32_t dx, std::int32_t dy) noexcept {
    const std::int32_t ax = std::abs(dx), ay = std::abs(dy);
    const std::int32_t lo = std::min(ax, ay), hi = std::max(ax, ay);
    return static_cast<double>(hi - lo) + kDiagonalStep * static_cast<double>(lo);
}

using detail::prefetch;

// The direction of a step (sx, sy) in {-1, 0, 1}^2, or -1 for (0, 0).
int direction_of(int sx, int sy) noexcept {
    static constexpr int kDirection[3][3] = {{7, 0, 1}, {6, -1, 2}, {5, 4, 3}};  // [sy + 1][sx + 1]
    return kDirection[sy + 1][sx + 1];
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

// The build went past its memory budget or its deadline: release everything, as if never built.
JpsSupport SubgoalGraph::refuse_budget() {
    const JpsSupport why = m_timed_out ? JpsSupport::TimeBudget : JpsSupport::MemoryBudget;
    SubgoalGraph empty;
    std::swap(*this, empty);
    return why;
}

bool SubgoalGraph::out_of_time(bool read_clock) noexcept {
    if (m_timed_out) return true;
    if (m_deadline == std::chrono::steady_clock::time_point::max() || ((++m_deadline_calls & 63u) != 0 && !read_clock))
        return false;
    m_timed_out = std::chrono::steady_clock::now() >= m_deadline;
    return m_timed_out;
}

JpsSupport SubgoalGraph::build(const GridMap& map, std::size_t max_memory_bytes, std::uint32_t transit_nodes,
                               std::chrono::steady_clock::time_point deadline) {
    m_built = false;
    m_map = nullptr;
    m_deadline = deadline;
    m_deadline_calls = 0;
    m_timed_out = false;
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
    m_subgoal_xy.clear();
    for (std::uint32_t node = 0; node < bound; ++node) {
        if (!m_pass[node]) continue;
        for (int d = 1; d < 8; d += 2) {
            const auto diag = static_cast<std::uint32_t>(static_cast<std::int64_t>(node) + m_delta[d]);
            if (!m_pass[diag] && m_pass[static_cast<std::uint32_t>(static_cast<std::int64_t>(node) + kDx[d])] &&
                m_pass[static_cast<std::uint32_t>(static_cast<std::int64_t>(node) + std::int64_t{kDy[d]} * m_stride)]) {
                m_id[node] = static_cast<std::int32_t>(m_subgoal_node.size());
                m_subgoal_node.push_back(node);
                const GridPoint p = point(node);
                m_subgoal_xy.push_back(static_cast<std::uint32_t>(p.x) | static_cast<std::uint32_t>(p.y) << 16);
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
                std::uint16_t& entry = m_clear[std::size_t{node} * 8 + static_cast<std::size_t>(d)];
                if (m_id[next] >= 0) {
                    entry = kClearSubgoal;  // no free step, then a legal step onto a subgoal
                    continue;
                }
                // The run continues through `next`: one more free step, ending where next's run ends.
                // Runs are shorter than kMaxGridSide (32768), so the count fits below the flag bit.
                entry = static_cast<std::uint16_t>(m_clear[std::size_t{next} * 8 + static_cast<std::size_t>(d)] + 1u);
            }
        }
    }

    if (memory_bytes() > max_memory_bytes) return refuse_budget();

    // Edges: every direct-h-reachable pair, in both directions, without duplicates.
    std::vector<std::uint64_t> pairs;
    std::vector<std::uint32_t> found;
    const std::size_t tables = memory_bytes();
    for (std::uint32_t id = 0; id < m_subgoal_node.size(); ++id) {
        found.clear();
        reachable(m_subgoal_node[id], kNone, found);
        for (const std::uint32_t t : found) {
            const auto other = static_cast<std::uint32_t>(m_id[t]);
            if (other == id) continue;
            pairs.push_back(std::uint64_t{id} << 32 | other);
            pairs.push_back(std::uint64_t{other} << 32 | id);
        }
        if (pairs.size() * sizeof(std::uint64_t) > max_memory_bytes - std::min(tables, max_memory_bytes)) return refuse_budget();
        if (out_of_time()) return refuse_budget();
    }
    std::sort(pairs.begin(), pairs.end());
    pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
    m_edge_count = pairs.size() / 2;
    if (!contract(pairs)) return refuse_budget();
    if (memory_bytes() > max_memory_bytes) return refuse_budget();
    if (!build_paths(max_memory_bytes)) return refuse_budget();
    if (!build_joins(max_memory_bytes)) return refuse_budget();
    if (!build_transit(transit_nodes, max_memory_bytes)) {
        if (m_timed_out) return refuse_budget();
        drop_transit();  // over its memory share: the graph answers without the tables
    }
    m_built = true;
    return JpsSupport::Ok;
}


// Contraction hierarchy over the subgoal graph (Geisberger et al. 2008): subgoals are contracted one by one
// in the order of a lazily updated priority (edge difference plus contracted neighbours); contracting v
// adds a shortcut u-w of length |uv| + |vw| for each pair of its remaining neighbours unless a witness
// search (Dijkstra in the remaining graph without v, bounded) finds a path at most that long. A bounded
// witness search only ever adds shortcuts that were not needed, so distances stay exact. The upward
// edges of v are its remaining edges when it is contracted.
namespace {

struct ChEdge {
    std::uint32_t to;
    std::uint32_t middle;
    double length;
};

constexpr double kWitnessSlack = 1e-9;  // a witness this much longer still proves the shortcut unneeded

// Bounded Dijkstra for the witness searches of the contraction. A run answers, for each of its targets w
// (the neighbours of the contracted subgoal v after the source u), whether a path from u avoiding v is at
// most |uv| + |vw| long; it stops as soon as every target is answered.
struct Witness {
    struct Entry {
        double dist;
        std::uint32_t stamp;   // == generation: dist is set in this run
        std::uint32_t target;  // == target_generation: a target not yet answered
        double within;         // a target's bound |uv| + |vw| (plus the slack)
    };
    std::vector<Entry> node;
    std::vector<std::pair<double, std::uint32_t>> heap;
    std::uint32_t generation = 0;
    std::uint32_t target_generation = 0;
    std::uint32_t targets_left = 0;

    void resize(std::size_t n) { node.assign(n, Entry{0.0, 0, 0, 0.0}); }

    // Marks the targets of the next run: each edge's end, with bound `base` + the edge's length.
    void set_targets(std::span<const ChEdge> edges, double base) {
        ++target_generation;
        targets_left = 0;
        for (const ChEdge& e : edges) {
            Entry& t = node[e.to];
            t.within = base + e.length + kWitnessSlack;
            if (t.target != target_generation) {
                t.target = target_generation;
                ++targets_left;
            }
        }
    }

    // Distances from `source` in the remaining graph without `skip`, up to `limit` (no target's bound is
    // larger) and `max_settled` nodes settled. A target is answered when a path at most its bound long
    // reaches it, or when it is settled.
    void run(const std::vector<std::vector<ChEdge>>& adj, std::uint32_t source, std::uint32_t skip, double limit,
             int max_settled) {
        ++generation;
        heap.clear();
        reach(source, 0.0);
        heap.push_back({0.0, source});
        int settled = 0;
        const auto greater = [](const auto& x, const auto& y) { return x.first > y.first; };
        while (!heap.empty() && settled < max_settled && targets_left > 0) {
            std::pop_heap(heap.begin(), heap.end(), greater);
            const auto [d, x] = heap.back();
            heap.pop_back();
            Entry& at_x = node[x];
            if (d > at_x.dist) continue;
            if (d > limit) break;
            ++settled;
            if (at_x.target == target_generation) {
                at_x.target = 0;
                --targets_left;
            }
            for (const ChEdge& e : adj[x]) {
                const double nd = d + e.length;
                // A node farther than `limit` is never settled, and as a target it proves nothing.
                if (e.to == skip || nd > limit) continue;
                Entry& to = node[e.to];
                if (to.stamp != generation || nd < to.dist) {
                    reach(e.to, nd);
                    heap.push_back({nd, e.to});
                    std::push_heap(heap.begin(), heap.end(), greater);
                }
            }
        }
    }
    [[nodiscard]] double at(std::uint32_t x) const noexcept {
        return node[x].stamp == generation ? node[x].dist : std::numeric_limits<double>::infinity();
    }

private:
    void reach(std::uint32_t x, double d) {
        Entry& e = node[x];
        e.stamp = generation;
        e.dist = d;
        if (e.target == target_generation && d <= e.within) {
            e.target = 0;
            --targets_left;
        }
    }
};

constexpr int kWitnessSettled = 400;

// The shortcuts needed to contract v (its neighbour pairs u-w with no witness path at most |uv| + |vw|
// long that avoids v), into `needed`.
struct Shortcut {
    std::uint32_t from, to;
    double length;
};
void needed_shortcuts(const std::vector<std::vector<ChEdge>>& adj, Witness& witness, std::uint32_t v,
                      std::vector<Shortcut>& needed) {
    needed.clear();
    const std::vector<ChEdge>& around = adj[v];
    for (std::size_t i = 0; i + 1 < around.size(); ++i) {
        const ChEdge& uv = around[i];
        double limit = 0;
        for (std::size_t k = i + 1; k < around.size(); ++k) limit = std::max(limit, uv.length + around[k].length);
        witness.set_targets(std::span<const ChEdge>(around).subspan(i + 1), uv.length);
        witness.run(adj, uv.to, v, limit + kWitnessSlack, kWitnessSettled);
        for (std::size_t k = i + 1; k < around.size(); ++k) {
            const ChEdge& vw = around[k];
            const double via = uv.length + vw.length;
            if (witness.at(vw.to) > via + kWitnessSlack) needed.push_back(Shortcut{uv.to, vw.to, via});
        }
    }
}

// Adds the shortcuts of `needed` (bypassing v) to adj in both directions, or shortens an edge already there.
void add_shortcuts(std::vector<std::vector<ChEdge>>& adj, std::uint32_t v, const std::vector<Shortcut>& needed) {
    for (const Shortcut& sc : needed)
        for (const auto& [from, to] : {std::pair{sc.from, sc.to}, std::pair{sc.to, sc.from}}) {
            bool present = false;
            for (ChEdge& e : adj[from])
                if (e.to == to) {
                    present = true;
                    if (sc.length < e.length) {
                        e.length = sc.length;
                        e.middle = v;
                    }
                }
            if (!present) adj[from].push_back(ChEdge{to, v, sc.length});
        }
}

}  // namespace

// Landmarks for the query's lower bounds (ALT: Goldberg and Harrelson, 2005): kLandmarks subgoals chosen
// farthest first (each the subgoal farthest from those chosen, by graph distance), and every subgoal's
// distance from each (+infinity when unreachable), by Dijkstra over the subgoal graph, whose distances
// are grid distances.
namespace {
// `stop()` is asked before each landmark's Dijkstra; when it says true, the landmarks so far are kept.
template <typename Stop>
int select_landmarks(const std::vector<std::vector<ChEdge>>& adj, std::vector<double>& landmark_dist, Stop&& stop) {
    constexpr int kLandmarks = SubgoalGraph::kLandmarks;
    const std::size_t n = adj.size();
    constexpr double kInf = std::numeric_limits<double>::infinity();
    landmark_dist.assign(n * kLandmarks, kInf);
    int count = 0;
    if (n == 0) return 0;
    std::vector<double> dist(n), nearest(n, kInf);
    std::vector<std::pair<double, std::uint32_t>> heap;
    const auto greater = [](const auto& x, const auto& y) { return x.first > y.first; };
    const auto dijkstra = [&](std::uint32_t source) {
        std::fill(dist.begin(), dist.end(), kInf);
        heap.clear();
        dist[source] = 0;
        heap.push_back({0.0, source});
        while (!heap.empty()) {
            std::pop_heap(heap.begin(), heap.end(), greater);
            const auto [d, x] = heap.back();
            heap.pop_back();
            if (d > dist[x]) continue;
            for (const ChEdge& e : adj[x])
                if (d + e.length < dist[e.to]) {
                    dist[e.to] = d + e.length;
                    heap.push_back({dist[e.to], e.to});
                    std::push_heap(heap.begin(), heap.end(), greater);
                }
        }
    };
    // The first landmark is the subgoal farthest from subgoal 0; each next one the farthest (finite)
    // from those chosen.
    dijkstra(0);
    for (int l = 0; l < kLandmarks; ++l) {
        std::uint32_t pick = kNone;
        double far = -1;
        for (std::uint32_t v = 0; v < n; ++v) {
            const double d = l == 0 ? dist[v] : nearest[v];
            if (std::isfinite(d) && d > far) {
                far = d;
                pick = v;
            }
        }
        if (pick == kNone || far <= 0 || stop()) break;
        dijkstra(pick);
        for (std::uint32_t v = 0; v < n; ++v) {
            landmark_dist[std::size_t{v} * kLandmarks + static_cast<std::size_t>(l)] = dist[v];
            nearest[v] = l == 0 ? dist[v] : std::min(nearest[v], dist[v]);
        }
        ++count;
    }
    return count;
}
}  // namespace

bool SubgoalGraph::contract(std::vector<std::uint64_t>& pairs) {
    const std::size_t n = m_subgoal_node.size();
    std::vector<std::vector<ChEdge>> adj(n);
    for (const std::uint64_t pr : pairs) {
        const auto a = static_cast<std::uint32_t>(pr >> 32), b = static_cast<std::uint32_t>(pr);
        const GridPoint pa = point(m_subgoal_node[a]), pb = point(m_subgoal_node[b]);
        adj[a].push_back(ChEdge{b, kNone, octile(pb.x - pa.x, pb.y - pa.y)});
    }
    std::vector<std::uint64_t>().swap(pairs);
    std::vector<double> landmark_dist;
    m_landmark_count = select_landmarks(adj, landmark_dist, [this] { return out_of_time(true); });
    if (m_timed_out) return false;
    Witness witness;
    witness.resize(n);
    std::vector<Shortcut> needed;  // the shortcuts of the subgoal whose priority was computed last
    std::vector<std::uint32_t> deleted(n, 0);
    const auto priority = [&](std::uint32_t v) {
        needed_shortcuts(adj, witness, v, needed);
        return 2 * static_cast<int>(needed.size()) - static_cast<int>(adj[v].size()) + static_cast<int>(deleted[v]);
    };
    using Item = std::pair<int, std::uint32_t>;
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> queue;
    for (std::uint32_t v = 0; v < n; ++v) {
        queue.push({priority(v), v});
        if (out_of_time()) return false;
    }
    m_rank.assign(n, 0);
    std::vector<std::vector<ChEdge>> up(n);
    std::uint32_t next_rank = 0;
    m_shortcut_count = 0;
    while (!queue.empty()) {
        const auto [p, v] = queue.top();
        queue.pop();
        if (out_of_time()) return false;
        const int now = priority(v);
        if (!queue.empty() && now > queue.top().first) {
            queue.push({now, v});
            continue;
        }
        // `needed` holds v's shortcuts, computed by priority(v) on the graph as it is now.
        add_shortcuts(adj, v, needed);
        m_shortcut_count += needed.size();
        m_rank[v] = next_rank++;
        up[v] = adj[v];
        for (const ChEdge& e : adj[v]) {
            auto& list = adj[e.to];
            for (std::size_t i = 0; i < list.size(); ++i)
                if (list[i].to == v) {
                    list[i] = list.back();
                    list.pop_back();
                    break;
                }
            ++deleted[e.to];
        }
        std::vector<ChEdge>().swap(adj[v]);
    }
    // Subgoals renumbered from the top of the hierarchy down (id = n - 1 - rank): the subgoals that
    // most queries reach, near the top, share cache lines in every per-subgoal table. The landmark
    // distances are kept as floats, each row (32 bytes) in half a cache line: a relaxation reads one line.
    {
        std::vector<std::uint32_t> renumber(n);
        for (std::uint32_t v = 0; v < n; ++v) renumber[v] = static_cast<std::uint32_t>(n - 1 - m_rank[v]);
        std::vector<std::uint32_t> node(n), xy(n), rank(n);
        std::vector<std::vector<ChEdge>> moved(n);
        m_landmark_dist.assign(landmark_dist.size() + kLandmarks - 1, 0.0f);
        const auto address = reinterpret_cast<std::uintptr_t>(m_landmark_dist.data());
        m_landmark_base = ((32 - address % 32) % 32) / sizeof(float);
        double far = 0;
        for (const double d : landmark_dist)
            if (std::isfinite(d)) far = std::max(far, d);
        // The query computes its landmark bounds in float arithmetic, from distances rounded to float.
        // With M the larger of `far` and the octile length of the map's diagonal (no join is longer), a
        // stored distance is within M * 2^-24, a join's length as a float too; the end's bound (stored
        // distance + length, rounded) is within 4 M * 2^-24, and a bound term (subgoal's distance minus
        // the end's bound, rounded; at most 2 M) within 7 M * 2^-24: the query lowers its landmark
        // bounds by more than twice that.
        const double longest = std::max(far, octile(m_width, m_height));
        m_landmark_slack = longest * 0x1p-20 + kBoundSlack;
        for (std::uint32_t v = 0; v < n; ++v) {
            const std::uint32_t to = renumber[v];
            node[to] = m_subgoal_node[v];
            xy[to] = m_subgoal_xy[v];
            rank[to] = m_rank[v];
            m_id[m_subgoal_node[v]] = static_cast<std::int32_t>(to);
            for (std::size_t l = 0; l < kLandmarks; ++l)
                m_landmark_dist[m_landmark_base + std::size_t{to} * kLandmarks + l] =
                    static_cast<float>(landmark_dist[std::size_t{v} * kLandmarks + l]);
            moved[to] = std::move(up[v]);
            for (ChEdge& e : moved[to]) {
                e.to = renumber[e.to];
                if (e.middle != kNone) e.middle = renumber[e.middle];
            }
        }
        m_subgoal_node.swap(node);
        m_subgoal_xy.swap(xy);
        m_rank.swap(rank);
        up.swap(moved);
    }
    m_offsets.assign(n + 1, 0);
    for (std::size_t v = 0; v < n; ++v) m_offsets[v + 1] = m_offsets[v] + static_cast<std::uint32_t>(up[v].size());
    m_up.resize(m_offsets[n]);
    m_middles.resize(m_offsets[n]);
    for (std::size_t v = 0; v < n; ++v)
        for (std::size_t i = 0; i < up[v].size(); ++i) {
            m_up[m_offsets[v] + i] = UpEdge{up[v][i].to, m_subgoal_xy[up[v][i].to], up[v][i].length};
            std::uint32_t middle = up[v][i].middle;
            if (middle == kNone) {  // a subgoal-graph edge: which order of its steps is free from v
                const std::uint32_t a = m_subgoal_node[v], b = m_subgoal_node[up[v][i].to];
                const Segment seg = diagonal_first(a, b);
                if (!segment_free(a, seg.first, seg.count_first, seg.second, seg.count_second)) {
                    middle = kEdgeStraightFirst;
                } else {
                    const Segment back = diagonal_first(b, a);
                    if (segment_free(b, back.first, back.count_first, back.second, back.count_second))
                        middle = kEdgeDiagonalFirstBoth;
                }
            }
            m_middles[m_offsets[v] + i] = middle;
        }
    return true;
}

// Each upward edge unpacked into edges of the subgoal graph, from its lower end: a subgoal-graph edge is
// one step; a shortcut v -> w bypassing m is its halves, both upward edges of m (contracted before v
// and w, so unpacked before them): m -> v walked backwards, then m -> w. False (nothing kept) when the
// steps would take the graph past `max_memory_bytes` or past 2^32 - 1 entries.
bool SubgoalGraph::build_paths(std::size_t max_memory_bytes) {
    const auto n = static_cast<std::uint32_t>(m_subgoal_node.size());
    const std::uint32_t edges = m_offsets[n];
    std::vector<std::uint32_t> by_rank(n);
    for (std::uint32_t v = 0; v < n; ++v) by_rank[m_rank[v]] = v;
    // Steps per edge (a shortcut's halves first), then the offsets.
    std::vector<std::uint64_t> steps(edges, 0);
    const auto halves = [&](std::uint32_t v, std::uint32_t i) {
        const std::uint32_t m = m_middles[i];
        return std::pair{edge_index(m, v), edge_index(m, m_up[i].target)};
    };
    for (const std::uint32_t v : by_rank)
        for (std::uint32_t i = m_offsets[v]; i < m_offsets[v + 1]; ++i) {
            if (m_middles[i] >= kEdgeDiagonalFirstBoth) {
                steps[i] = 1;
                continue;
            }
            const auto [low, high] = halves(v, i);
            steps[i] = steps[low] + steps[high];
        }
    std::uint64_t total = 0;
    for (const std::uint64_t k : steps) total += k;
    const std::size_t before = memory_bytes();
    const std::uint64_t need = (std::uint64_t{edges} + 1) * sizeof(std::uint32_t) + total * sizeof(std::uint32_t);
    if (total > UINT32_MAX || before > max_memory_bytes || need > max_memory_bytes - before) return false;
    m_path_offsets.assign(std::size_t{edges} + 1, 0);
    for (std::uint32_t i = 0; i < edges; ++i) m_path_offsets[i + 1] = m_path_offsets[i] + static_cast<std::uint32_t>(steps[i]);
    m_path.assign(total, 0);
    // The steps' free orders while the paths are built (kPathStraightFromLow / FromHigh as 1 / 2), then
    // folded into the cells' spare bits.
    std::vector<std::uint8_t> path_order(total, 0);
    constexpr std::uint8_t kFromLow = 1, kFromHigh = 2;
    for (const std::uint32_t v : by_rank)
        for (std::uint32_t i = m_offsets[v]; i < m_offsets[v + 1]; ++i) {
            std::uint32_t at = m_path_offsets[i];
            const std::uint32_t m = m_middles[i];
            if (m >= kEdgeDiagonalFirstBoth) {
                // Free in the recorded order from v; from the other end the reverse order is free.
                m_path[at] = m_up[i].xy;
                path_order[at] = m == kEdgeStraightFirst    ? kFromLow
                                 : m == kEdgeDiagonalFirst ? kFromHigh
                                                           : std::uint8_t{0};
                continue;
            }
            const auto [low, high] = halves(v, i);
            // m -> v backwards: the cells before each step, v's last step first, ending at m; each step's
            // orders swap.
            for (std::uint32_t k = m_path_offsets[low + 1]; k-- > m_path_offsets[low];) {
                m_path[at] = k > m_path_offsets[low] ? m_path[k - 1] : m_subgoal_xy[m];
                const std::uint8_t o = path_order[k];
                path_order[at++] = static_cast<std::uint8_t>((o & kFromLow ? kFromHigh : 0) | (o & kFromHigh ? kFromLow : 0));
            }
            for (std::uint32_t k = m_path_offsets[high]; k < m_path_offsets[high + 1]; ++k) {
                m_path[at] = m_path[k];
                path_order[at++] = path_order[k];
            }
        }
    for (std::size_t k = 0; k < total; ++k)
        m_path[k] |= ((path_order[k] & kFromLow) ? kPathStraightFromLow : 0u) | ((path_order[k] & kFromHigh) ? kPathStraightFromHigh : 0u);
    return true;
}

std::uint32_t SubgoalGraph::edge_owner(std::uint32_t index) const noexcept {
    // The last subgoal whose edges start at or before `index` (subgoals without edges share its offset).
    return static_cast<std::uint32_t>(std::upper_bound(m_offsets.begin(), m_offsets.end(), index) - m_offsets.begin() - 1);
}

std::uint32_t SubgoalGraph::edge_index(std::uint32_t low, std::uint32_t high) const noexcept {
    for (std::uint32_t i = m_offsets[low]; i < m_offsets[low + 1]; ++i)
        if (m_up[i].target == high) return i;
    return kNone;
}

// The first target on the ray from `from` in direction `d`: returns its node (a subgoal, or `extra`) and
// sets `clearance` to the free steps before it; returns kNone (clearance = free steps) if a wall comes
// first.
std::uint32_t SubgoalGraph::hit(std::uint32_t from, int d, std::uint32_t extra, int& clearance, std::int32_t ddx,
                                std::int32_t ddy) const noexcept {
    const std::uint16_t entry = m_clear[std::size_t{from} * 8 + static_cast<std::size_t>(d)];
    const int j = entry & kClearSteps;
    const bool ends_at_subgoal = (entry & kClearSubgoal) != 0;  // a legal step onto a subgoal follows the run
    clearance = j;
    if (extra != kNone) {
        // Is `extra` (at offset ddx, ddy from `from`) on the ray within j + 1 steps?
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
        // The cell after the run is `extra` and reachable: the run stopped at a subgoal there (a
        // wall or an illegal step ends a run otherwise).
        if (k == j + 1 && ends_at_subgoal) return extra;
    }
    if (ends_at_subgoal) return static_cast<std::uint32_t>(static_cast<std::int64_t>(from) + m_delta[d] * (j + 1));
    return kNone;
}

void SubgoalGraph::reachable(std::uint32_t from, std::uint32_t extra, std::vector<std::uint32_t>& out) const {
    // Offsets of `extra` from the current cell (only read when extra != kNone).
    std::int32_t ex = 0, ey = 0;
    if (extra != kNone) {
        ex = static_cast<std::int32_t>(extra % m_stride) - static_cast<std::int32_t>(from % m_stride);
        ey = static_cast<std::int32_t>(extra / m_stride) - static_cast<std::int32_t>(from / m_stride);
    }
    int j = 0;
    for (int d = 0; d < 8; d += 2) {
        const std::uint32_t t = hit(from, d, extra, j, ex, ey);
        if (t != kNone) out.push_back(t);
    }
    for (int d = 1; d < 8; d += 2) {
        const int ca = d - 1, cb = (d + 1) & 7;
        int max_a = 0, max_b = 0;
        (void)hit(from, ca, extra, max_a, ex, ey);
        (void)hit(from, cb, extra, max_b, ex, ey);
        int diag = 0;
        const std::uint32_t t = hit(from, d, extra, diag, ex, ey);
        if (t != kNone) out.push_back(t);
        auto p = static_cast<std::uint32_t>(from);
        std::int32_t px = ex, py = ey;
        for (int i = 1; i <= diag && (max_a >= 0 || max_b >= 0); ++i) {
            p = static_cast<std::uint32_t>(static_cast<std::int64_t>(p) + m_delta[d]);
            px -= kDx[d];
            py -= kDy[d];
            const std::uint32_t ta = hit(p, ca, extra, j, px, py);
            if (ta != kNone && j <= max_a) {
                out.push_back(ta);
                --j;
            }
            if (j < max_a) max_a = j;
            const std::uint32_t tb = hit(p, cb, extra, j, px, py);
            if (tb != kNone && j <= max_b) {
                out.push_back(tb);
                --j;
            }
            if (j < max_b) max_b = j;
        }
    }
}

bool SubgoalGraph::direct(std::uint32_t from, std::uint32_t to) const noexcept {
    // The sweep of reachable(from, to, ...) reports `to` from at most one ray; this follows that ray only.
    const std::int32_t ex = static_cast<std::int32_t>(to % m_stride) - static_cast<std::int32_t>(from % m_stride);
    const std::int32_t ey = static_cast<std::int32_t>(to / m_stride) - static_cast<std::int32_t>(from / m_stride);
    const std::int32_t ax = std::abs(ex), ay = std::abs(ey);
    const int sx = (ex > 0) - (ex < 0), sy = (ey > 0) - (ey < 0);
    const auto entry = [&](std::uint32_t node, int d) { return m_clear[std::size_t{node} * 8 + static_cast<std::size_t>(d)]; };
    // `to` at k steps along the ray of `node` in direction d: within the run, or the subgoal ending it.
    const auto on_ray = [&](std::uint32_t node, int d, std::int32_t k) {
        const std::uint16_t e = entry(node, d);
        const std::int32_t steps = e & kClearSteps;
        return k <= steps || (k == steps + 1 && (e & kClearSubgoal) != 0);
    };
    if (ax == 0 || ay == 0 || ax == ay) return on_ray(from, direction_of(sx, sy), std::max(ax, ay));
    const int d = direction_of(sx, sy);
    const int c = ax > ay ? direction_of(sx, 0) : direction_of(0, sy);  // the straight ray through `to`
    const std::int32_t k = std::min(ax, ay), m = std::max(ax, ay) - k;  // `to` = k diagonal steps, then m
    // The diagonal run must reach the k-th cell (no target on the diagonal before it).
    if ((entry(from, d) & kClearSteps) < k) return false;
    // The straight rays from the diagonal's cells are cut to what the previous ones reached (max_c), one
    // step shorter after a ray that ends at a subgoal; `to` is reported if m - 1 <= max_c.
    std::int32_t max_c = entry(from, c) & kClearSteps;
    auto p = from;
    for (std::int32_t i = 1; i < k; ++i) {
        if (max_c < m - 1) return false;
        p = static_cast<std::uint32_t>(static_cast<std::int64_t>(p) + m_delta[d]);
        const std::uint16_t e = entry(p, c);
        std::int32_t j = e & kClearSteps;
        if ((e & kClearSubgoal) != 0 && j <= max_c) --j;
        max_c = std::min(max_c, j);
    }
    if (max_c < m - 1) return false;
    p = static_cast<std::uint32_t>(static_cast<std::int64_t>(p) + m_delta[d]);
    return on_ray(p, c, m);
}

// Per passable cell, the subgoals of its sweep (what the query's join would compute), as a CSR list.
// False when the joins would take the graph past `max_memory_bytes` or past 2^32 - 1 entries (the
// offsets are 32-bit).
bool SubgoalGraph::build_joins(std::size_t max_memory_bytes) {
    const std::size_t bound = m_pass.size();
    m_join_offsets.assign(bound + 1, 0);
    m_join.clear();
    m_join16.clear();
    // 16-bit ids when they fit: the joins are most of the graph's memory on open maps.
    const bool narrow = m_subgoal_node.size() <= 65536;
    const std::size_t entry = narrow ? sizeof(std::uint16_t) : sizeof(std::uint32_t);
    const std::size_t before = memory_bytes();
    if (before > max_memory_bytes) return false;
    const std::size_t max_joins = std::min<std::size_t>((max_memory_bytes - before) / entry, UINT32_MAX);
    std::vector<std::uint32_t> found;
    std::size_t count = 0;
    for (std::uint32_t node = 0; node < bound; ++node) {
        m_join_offsets[node] = static_cast<std::uint32_t>(count);
        if (!m_pass[node]) continue;
        found.clear();
        reachable(node, kNone, found);
        if (found.size() > max_joins - count || out_of_time()) return false;
        for (const std::uint32_t t : found) {
            if (narrow)
                m_join16.push_back(static_cast<std::uint16_t>(m_id[t]));
            else
                m_join.push_back(static_cast<std::uint32_t>(m_id[t]));
        }
        count += found.size();
    }
    m_join_offsets[bound] = static_cast<std::uint32_t>(count);
    m_max_joins = 0;
    for (std::size_t node = 0; node < bound; ++node)
        m_max_joins = std::max(m_max_joins, m_join_offsets[node + 1] - m_join_offsets[node]);
    m_join.shrink_to_fit();
    m_join16.shrink_to_fit();
    return true;
}


// ---- Transit-node routing ------------------------------------------------------------------------------
// (Bast, Funke, Sanders and Schultes 2007, on a contraction hierarchy as Arz, Luxen and Sanders 2013.)
// The transit nodes T are the top subgoals, ids [0, t): T is closed upward (an upward edge goes to a
// smaller id). Distances in whole steps: a path of s straight and d diagonal steps has the exact length
// s + d sqrt(2), so lengths are kept as step counts and compared as doubles.
namespace {

struct Steps {
    std::uint32_t straight = 0;
    std::uint32_t diagonal = 0;
    [[nodiscard]] double length() const noexcept {
        return static_cast<double>(straight) + kDiagonalStep * static_cast<double>(diagonal);
    }
    Steps operator+(Steps o) const noexcept { return Steps{straight + o.straight, diagonal + o.diagonal}; }
};

// Position of (x, y) on a Hilbert curve over 2^16 x 2^16 cells: cells near on the curve are near on the map.
std::uint64_t hilbert(std::uint32_t x, std::uint32_t y) noexcept {
    constexpr std::uint32_t kSide = 1u << 16;
    std::uint64_t d = 0;
    for (std::uint32_t s = kSide / 2; s > 0; s /= 2) {
        const std::uint32_t rx = (x & s) ? 1 : 0, ry = (y & s) ? 1 : 0;
        d += std::uint64_t{s} * s * ((3 * rx) ^ ry);
        if (ry == 0) {
            if (rx == 1) {
                x = kSide - 1 - x;
                y = kSide - 1 - y;
            }
            std::swap(x, y);
        }
    }
    return d;
}

Steps octile_steps(std::uint32_t a_xy, std::uint32_t b_xy) noexcept {
    const std::int32_t dx = std::abs(static_cast<std::int32_t>(a_xy & 0xffffu) - static_cast<std::int32_t>(b_xy & 0xffffu));
    const std::int32_t dy = std::abs(static_cast<std::int32_t>(a_xy >> 16) - static_cast<std::int32_t>(b_xy >> 16));
    return Steps{static_cast<std::uint32_t>(std::abs(dx - dy)), static_cast<std::uint32_t>(std::min(dx, dy))};
}

// How an entry of the merge below was reached: the upward edge (its index among the subgoal's upward
// edges) and the entry of its target it extends.
struct AccessVia {
    std::uint16_t edge = 0;
    std::uint16_t entry = 0;
};

// The upward search of one cell or subgoal below T, merged from its successors' access lists: per
// transit node the shortest length found; then the entries that a shorter entry and the table dominate
// are dropped (a pair through them is never shorter than one through the dominating entry).
struct AccessMerge {
    std::vector<Steps> best;
    std::vector<AccessVia> via;  // the upward edge and the entry of its target it came through
    std::vector<double> value;
    std::vector<std::uint32_t> stamp;
    std::vector<std::uint32_t> touched;
    std::vector<std::uint32_t> kept;
    std::uint32_t generation = 0;

    void reset(std::uint32_t t) {
        best.assign(t, Steps{});
        via.assign(t, AccessVia{});
        value.assign(t, 0.0);
        stamp.assign(t, 0);
        generation = 0;
    }
    void begin() {
        ++generation;
        touched.clear();
    }
    void offer(std::uint32_t a, Steps steps, std::uint32_t edge = 0, std::uint32_t entry = 0) {
        const double v = steps.length();
        if (stamp[a] != generation) {
            stamp[a] = generation;
            touched.push_back(a);
        } else if (!(v < value[a])) {
            return;
        }
        best[a] = steps;
        value[a] = v;
        via[a] = AccessVia{static_cast<std::uint16_t>(edge), static_cast<std::uint16_t>(entry)};
    }
    // Appends the entries kept to `out` ordered by node; false if a step count does not fit 16 bits.
    bool finish(const std::vector<double>& table, std::uint32_t t, std::vector<SubgoalGraph::Access>& out,
                std::vector<AccessVia>* out_via = nullptr) {
        std::sort(touched.begin(), touched.end(), [&](std::uint32_t x, std::uint32_t y) { return value[x] < value[y]; });
        kept.clear();
        for (const std::uint32_t a : touched) {
            bool dominated = false;
            for (const std::uint32_t b : kept)
                if (value[b] + table[std::size_t{b} * t + a] <= value[a]) {
                    dominated = true;
                    break;
                }
            if (!dominated) kept.push_back(a);
        }
        std::sort(kept.begin(), kept.end());
        for (const std::uint32_t a : kept) {
            using Access = SubgoalGraph::Access;
            if (best[a].straight > Access::kMaxSteps || best[a].diagonal > Access::kMaxSteps) return false;
            out.push_back(Access{a | best[a].straight << 10 | best[a].diagonal << 21});
            if (out_via) out_via->push_back(via[a]);
        }
        return true;
    }
};

}  // namespace

void SubgoalGraph::drop_transit() {
    m_transit = 0;
    m_max_access = 0;
    for (auto* v : {&m_sub_access_offsets, &m_cell_access_offsets, &m_cell_top_offsets})
        std::vector<std::uint32_t>().swap(*v);
    std::vector<std::uint16_t>().swap(m_cell_top);
    std::vector<std::uint32_t>().swap(m_table);
    std::vector<std::uint32_t>().swap(m_table_next);
    std::vector<std::uint16_t>().swap(m_transit_id);
    std::vector<std::uint16_t>().swap(m_transit_position);
    std::vector<std::uint32_t>().swap(m_transit_xy);
    std::vector<Access>().swap(m_sub_access);
    std::vector<ClimbLink>().swap(m_sub_climb);
    std::vector<Access>().swap(m_cell_access);
    std::vector<std::uint8_t>().swap(m_cell_join_hint);
}

std::size_t SubgoalGraph::transit_bytes() const noexcept {
    return (m_table.capacity() + m_table_next.capacity()) * sizeof(std::uint32_t) +
           (m_sub_access_offsets.capacity() + m_cell_access_offsets.capacity() +
            m_cell_top_offsets.capacity()) * sizeof(std::uint32_t) + (m_cell_top.capacity() + m_transit_id.capacity() + m_transit_position.capacity()) * sizeof(std::uint16_t) +
           m_sub_climb.capacity() * sizeof(ClimbLink) + m_transit_xy.capacity() * sizeof(std::uint32_t) +
           (m_sub_access.capacity() + m_cell_access.capacity()) * sizeof(Access) + m_cell_join_hint.capacity();
}

bool SubgoalGraph::build_transit(std::uint32_t transit_nodes, std::size_t max_memory_bytes) {
    drop_transit();
    const auto n = static_cast<std::uint32_t>(m_subgoal_node.size());
    std::uint32_t t = transit_nodes;
    if (transit_nodes == kAutoTransit) {
        // The largest power of two up to 512 whose tables (8 t^2 bytes) take at most 16 bytes per cell.
        t = 512;
        while (t > 1 && std::size_t{t} * t > 2 * m_pass.size()) t /= 2;
    }
    t = std::min({t, n, SubgoalGraph::Access::kMaxNodes});
    if (t == 0) return false;
    const std::size_t before = memory_bytes();
    if (before > max_memory_bytes) return false;
    // The tables may take what the budget leaves, and by default at most kTransitBytesPerCell per padded
    // cell.
    const std::size_t cap = transit_nodes == kAutoTransit ? kTransitBytesPerCell * m_pass.size() : SIZE_MAX;
    const std::size_t room = std::min(max_memory_bytes - before, cap);

    // Exact step counts of every upward edge, from its unpacked subgoal-graph edges.
    const std::uint32_t edges = m_offsets[n];
    std::vector<Steps> edge_steps(edges);
    for (std::uint32_t v = 0; v < n; ++v)
        for (std::uint32_t i = m_offsets[v]; i < m_offsets[v + 1]; ++i) {
            std::uint32_t prev = m_subgoal_xy[v];
            Steps sum;
            for (const std::uint32_t entry : edge_path(i)) {
                const std::uint32_t xy = entry & kPathCell;
                sum = sum + octile_steps(prev, xy);
                prev = xy;
            }
            edge_steps[i] = sum;
        }

    // Transit nodes are indexed in the table by their position along a Hilbert curve: a cell's access
    // nodes lie near it, so the table entries of a query share cache lines.
    m_transit_id.resize(t);
    m_transit_position.resize(t);
    m_transit_xy.resize(t);
    {
        std::vector<std::pair<std::uint64_t, std::uint32_t>> order(t);
        for (std::uint32_t v = 0; v < t; ++v) order[v] = {hilbert(m_subgoal_xy[v] & 0xffffu, m_subgoal_xy[v] >> 16), v};
        std::sort(order.begin(), order.end());
        for (std::uint32_t k = 0; k < t; ++k) {
            m_transit_id[k] = static_cast<std::uint16_t>(order[k].second);
            m_transit_position[order[k].second] = static_cast<std::uint16_t>(k);
            m_transit_xy[k] = m_subgoal_xy[order[k].second];
        }
    }
    const std::vector<std::uint16_t>& position = m_transit_position;
    std::vector<double> table;

    // The table: Dijkstra from each transit node over the upward edges among T, both ways. Its up-down
    // shortest paths stay in T (T is closed upward), so these are grid distances.
    {
        const std::size_t cells = std::size_t{t} * t;
        if (cells * 2 * sizeof(std::uint32_t) > room || edges >= kHopEdges) return false;
        // Per transit node (position): neighbour, length, and the hop (transit_hop()) to it.
        struct Hop {
            std::uint32_t to;
            Steps steps;
            std::uint32_t edge;
        };
        std::vector<std::vector<Hop>> adj(t);
        for (std::uint32_t u = 0; u < t; ++u)
            for (std::uint32_t i = m_offsets[u]; i < m_offsets[u + 1]; ++i) {
                const std::uint32_t w = position[m_up[i].target], pu = position[u];
                adj[pu].push_back({w, edge_steps[i], i << 11 | w << 1});
                adj[w].push_back({pu, edge_steps[i], i << 11 | pu << 1 | 1u});
            }
        // Lengths as doubles while the tables are built (the access lists' merges read them too), stored
        // as step counts.
        table.assign(cells, std::numeric_limits<double>::infinity());
        m_table.assign(cells, kTableUnreachable);
        m_table_next.assign(cells, 0);
        std::vector<Steps> dist(t);
        std::vector<std::uint32_t> first(t), hops(t);
        std::vector<std::pair<double, std::uint32_t>> heap;
        const auto greater = [](const auto& x, const auto& y) { return x.first > y.first; };
        for (std::uint32_t src = 0; src < t; ++src) {
            if (out_of_time()) return false;
            double* row = table.data() + std::size_t{src} * t;
            std::uint32_t* packed = m_table.data() + std::size_t{src} * t;
            // Stored by destination (column src of the rows by destination): a route's hops towards one
            // transit node read one row.
            std::uint32_t* next = m_table_next.data() + src;
            heap.clear();
            dist[src] = Steps{};
            hops[src] = 0;
            row[src] = 0;
            first[src] = 0;
            heap.push_back({0.0, src});
            while (!heap.empty()) {
                std::pop_heap(heap.begin(), heap.end(), greater);
                const auto [d, x] = heap.back();
                heap.pop_back();
                if (d > row[x]) continue;
                next[std::size_t{x} * t] = first[x];
                if (dist[x].straight > kTableMaxSteps || dist[x].diagonal > kTableMaxSteps) return false;
                packed[x] = dist[x].straight | dist[x].diagonal << 16;
                for (const auto& [y, steps, edge] : adj[x]) {
                    const Steps nd = dist[x] + steps;
                    const double len = nd.length();
                    // Equal lengths are equal step counts; fewer hops make the unpacking shorter.
                    const bool tie = nd.straight == dist[y].straight && nd.diagonal == dist[y].diagonal &&
                                     hops[x] + 1 < hops[y];
                    if (len < row[y] || (tie && len <= row[y])) {
                        hops[y] = hops[x] + 1;
                        row[y] = len;
                        dist[y] = nd;
                        first[y] = x == src ? edge : first[x];
                        heap.push_back({len, y});
                        std::push_heap(heap.begin(), heap.end(), greater);
                    }
                }
            }
        }
    }

    // Subgoals below T, from the top down: the tops of their upward search spaces below T, then their
    // access nodes, merged from their upward edges' targets.
    m_transit = t;  // subgoal_access() reads it
    AccessMerge merge;
    merge.reset(t);
    m_sub_access_offsets.assign(std::size_t{n - t} + 1, 0);
    // Tops: the subgoals below T whose upward edges all go into T. Two upward search spaces below T
    // meet if and only if they share a top (from a common subgoal, upward edges below T lead to one).
    std::vector<std::uint32_t> top_offsets(std::size_t{n - t} + 1, 0);
    std::vector<std::uint32_t> tops;
    std::vector<std::uint32_t> top_stamp(n - t, 0), found;
    std::uint32_t top_generation = 0, top_count = 0;
    const auto add_tops = [&](std::uint32_t w) {
        for (std::uint32_t k = top_offsets[w - t]; k < top_offsets[w - t + 1]; ++k)
            if (top_stamp[tops[k]] != top_generation) {
                top_stamp[tops[k]] = top_generation;
                found.push_back(tops[k]);
            }
    };
    for (std::uint32_t v = t; v < n; ++v) {
        ++top_generation;
        found.clear();
        bool below = false;
        for (std::uint32_t i = m_offsets[v]; i < m_offsets[v + 1]; ++i)
            if (m_up[i].target >= t) {
                below = true;
                add_tops(m_up[i].target);
            }
        if (!below) found.push_back(top_count++);
        std::sort(found.begin(), found.end());
        tops.insert(tops.end(), found.begin(), found.end());
        top_offsets[v - t + 1] = static_cast<std::uint32_t>(tops.size());
    }
    if (top_count > 65536) return false;
    std::vector<AccessVia> sub_via;
    for (std::uint32_t v = t; v < n; ++v) {
        merge.begin();
        if (m_offsets[v + 1] - m_offsets[v] > 65536) return false;
        for (std::uint32_t i = m_offsets[v]; i < m_offsets[v + 1]; ++i) {
            const std::uint32_t w = m_up[i].target, edge = i - m_offsets[v];
            if (w < t) {
                merge.offer(position[w], edge_steps[i], edge);
                continue;
            }
            const auto list = subgoal_access(w);
            if (list.size() > 65536) return false;
            for (std::uint32_t k = 0; k < list.size(); ++k)
                merge.offer(list[k].node(), edge_steps[i] + Steps{list[k].straight(), list[k].diagonal()}, edge, k);
        }
        if (!merge.finish(table, t, m_sub_access, &sub_via)) return false;
        m_sub_access_offsets[v - t + 1] = static_cast<std::uint32_t>(m_sub_access.size());
        if (m_sub_access.size() * (sizeof(Access) + sizeof(ClimbLink)) > room) return false;
    }
    // The climb's links: each entry's upward edge and the entry it extends as indices into the whole
    // arrays, so that a climb reads one link per level.
    m_sub_climb.resize(m_sub_access.size());
    for (std::uint32_t v = t; v < n; ++v)
        for (std::uint32_t e = m_sub_access_offsets[v - t]; e < m_sub_access_offsets[v - t + 1]; ++e) {
            const std::uint32_t edge = m_offsets[v] + sub_via[e].edge, w = m_up[edge].target;
            m_sub_climb[e] = ClimbLink{edge, w < t ? kNoEntry : m_sub_access_offsets[w - t] + sub_via[e].entry};
        }

    // Every passable cell: its joins are the seeds of its upward search.
    const std::size_t bound = m_pass.size();
    m_cell_access_offsets.assign(bound + 1, 0);
    m_cell_top_offsets.assign(bound + 1, 0);
    std::vector<AccessVia> cell_via;
    for (std::uint32_t node = 0; node < bound; ++node) {
        m_cell_access_offsets[node] = static_cast<std::uint32_t>(m_cell_access.size());
        m_cell_top_offsets[node] = static_cast<std::uint32_t>(m_cell_top.size());
        if (!m_pass[node]) continue;
        merge.begin();
        const GridPoint p = point(node);
        const std::uint32_t xy = static_cast<std::uint32_t>(p.x) | static_cast<std::uint32_t>(p.y) << 16;
        ++top_generation;
        found.clear();
        // Each entry remembers the join it came through (its index modulo kJoinHintModulus, in the
        // entry's `edge`): the route of a table answer starts its climb there.
        const JoinList cell_joins = joins(node);
        for (std::uint32_t i = 0; i < cell_joins.size(); ++i) {
            const std::uint32_t j = cell_joins[i], hint = i % kJoinHintModulus;
            const Steps seed = octile_steps(xy, m_subgoal_xy[j]);
            if (j < t) {
                merge.offer(position[j], seed, hint);
                continue;
            }
            add_tops(j);
            for (const Access& a : subgoal_access(j)) merge.offer(a.node(), seed + Steps{a.straight(), a.diagonal()}, hint);
        }
        cell_via.clear();
        if (!merge.finish(table, t, m_cell_access, &cell_via) || out_of_time()) return false;
        for (std::size_t e = m_cell_access.size() - cell_via.size(), k = 0; k < cell_via.size(); ++e, ++k) {
            const auto hint = static_cast<std::uint8_t>(cell_via[k].edge);
            if (e % 2 == 0)
                m_cell_join_hint.push_back(hint);
            else
                m_cell_join_hint.back() = static_cast<std::uint8_t>(m_cell_join_hint.back() | hint << 4);
        }
        if (m_cell_access.size() > UINT32_MAX ||
            m_cell_access.size() * sizeof(Access) + m_cell_join_hint.size() + m_cell_top.size() * sizeof(std::uint16_t) > room)
            return false;
        m_max_access = std::max(m_max_access, static_cast<std::uint32_t>(m_cell_access.size()) - m_cell_access_offsets[node]);
        std::sort(found.begin(), found.end());
        for (const std::uint32_t x : found) m_cell_top.push_back(static_cast<std::uint16_t>(x));
    }
    m_cell_access_offsets[bound] = static_cast<std::uint32_t>(m_cell_access.size());
    m_cell_top_offsets[bound] = static_cast<std::uint32_t>(m_cell_top.size());
    m_cell_top.shrink_to_fit();
    m_cell_access.shrink_to_fit();
    m_cell_join_hint.shrink_to_fit();
    m_sub_access.shrink_to_fit();
    return memory_bytes() <= max_memory_bytes && transit_bytes() <= cap;
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

bool SubgoalGraph::run_reaches(std::uint32_t node, int d, std::int32_t k) const noexcept {
    const std::uint16_t e = m_clear[std::size_t{node} * 8 + static_cast<std::size_t>(d)];
    const std::int32_t steps = e & kClearSteps;
    return k <= steps || (k == steps + 1 && (e & kClearSubgoal) != 0);
}

namespace {
// The octile segment pa -> pb, diagonal steps first.
SubgoalGraph::Segment diagonal_first_between(GridPoint pa, GridPoint pb) noexcept {
    const std::int32_t dx = pb.x - pa.x, dy = pb.y - pa.y;
    const std::int32_t ax = std::abs(dx), ay = std::abs(dy);
    const int sx = (dx > 0) - (dx < 0), sy = (dy > 0) - (dy < 0);
    const int diagonal_steps = std::min(ax, ay), straight_steps = std::max(ax, ay) - diagonal_steps;
    const int diag = diagonal_steps > 0 ? direction_of(sx, sy) : 0;
    const int straight = straight_steps > 0 ? (ax > ay ? direction_of(sx, 0) : direction_of(0, sy)) : 0;
    return SubgoalGraph::Segment{diag, diagonal_steps, straight, straight_steps};
}
}  // namespace

SubgoalGraph::Segment SubgoalGraph::diagonal_first(std::uint32_t a, std::uint32_t b) const noexcept {
    return diagonal_first_between(point(a), point(b));
}

void SubgoalGraph::write_segment(GridPoint a, GridPoint b, bool straight_first, bool waypoints,
                                 std::vector<GridPoint>& out) {
    Segment seg = diagonal_first_between(a, b);
    if (straight_first) seg = Segment{seg.second, seg.count_second, seg.first, seg.count_first};
    if (waypoints) {
        // The canonical line between waypoints is diagonal steps first: a straight-first segment needs
        // its turning cell.
        if (straight_first && seg.count_first > 0 && seg.count_second > 0)
            out.push_back(GridPoint{a.x + kDx[seg.first] * seg.count_first, a.y + kDy[seg.first] * seg.count_first});
        out.push_back(b);
        return;
    }
    GridPoint p = a;
    for (int i = 0; i < seg.count_first; ++i) {
        p = GridPoint{p.x + kDx[seg.first], p.y + kDy[seg.first]};
        out.push_back(p);
    }
    for (int i = 0; i < seg.count_second; ++i) {
        p = GridPoint{p.x + kDx[seg.second], p.y + kDy[seg.second]};
        out.push_back(p);
    }
}

bool SubgoalGraph::segment_order(std::uint32_t a, std::uint32_t b, Segment& seg) const noexcept {
    seg = diagonal_first(a, b);
    const int diag = seg.first, diagonal_steps = seg.count_first, straight = seg.second,
              straight_steps = seg.count_second;
    if (diagonal_steps == 0 || straight_steps == 0) {  // one straight or diagonal run
        const int d = diagonal_steps > 0 ? diag : straight;
        const int k = diagonal_steps + straight_steps;
        return run_reaches(a, d, k) || segment_free(a, d, k, d, 0);
    }
    // The clearance runs answer at once when the cells passed are not subgoals (as on the sweep's
    // segments); otherwise the cells are checked one by one.
    const auto turn = [&](int first, int count) {
        return static_cast<std::uint32_t>(static_cast<std::int64_t>(a) + m_delta[first] * count);
    };
    const auto fast = [&](int first, int n_first, int second, int n_second) {
        return (m_clear[std::size_t{a} * 8 + static_cast<std::size_t>(first)] & kClearSteps) >= n_first &&
               run_reaches(turn(first, n_first), second, n_second);
    };
    if (fast(diag, diagonal_steps, straight, straight_steps)) return true;
    if (fast(straight, straight_steps, diag, diagonal_steps)) {
        seg = Segment{straight, straight_steps, diag, diagonal_steps};
        return true;
    }
    if (segment_free(a, diag, diagonal_steps, straight, straight_steps)) return true;
    if (segment_free(a, straight, straight_steps, diag, diagonal_steps)) {
        seg = Segment{straight, straight_steps, diag, diagonal_steps};
        return true;
    }
    return false;
}

namespace {
// The cells RunWriter may write past the end of a path (it writes whole rounds of 8 cells): a buffer
// it writes to needs this many cells of room past the last cell of the path.
constexpr std::size_t kWriteSlack = 10;  // 8 would do

// Writes the cells of consecutive octile segments, each run of steps in one direction written once: a
// run that continues the previous one in the same direction (the last run of one segment and the first
// of the next, about a quarter of them on game maps) extends it, and an empty run costs nothing. The
// last run is written by end(). Precondition: kWriteSlack cells of room past the last cell (each run is
// written 8 cells at a time; the cells past it are overwritten by what follows or cut by the caller).
class RunWriter {
public:
    RunWriter(GridPoint start, GridPoint* out) noexcept : m_out(out), m_at(word(start.x, start.y)), m_previous(start) {}
    // The segment from the end of the previous one (or the start) to `b`, diagonal steps first or
    // straight steps first.
    void segment(GridPoint b, bool straight_first) noexcept {
        const std::int32_t dx = b.x - m_previous.x, dy = b.y - m_previous.y;
        m_previous = b;
        const std::int32_t ax = std::abs(dx), ay = std::abs(dy);
        const std::int32_t sx = (dx > 0) - (dx < 0), sy = (dy > 0) - (dy < 0);
        const std::int32_t diagonal = std::min(ax, ay), total = std::max(ax, ay);
        const std::int64_t along_y = -static_cast<std::int64_t>(ay >= ax), order = -static_cast<std::int64_t>(straight_first);
        const std::int64_t diagonal_step = word(sx, sy);
        const std::int64_t straight_step = (std::int64_t{sx} & ~along_y) | (std::int64_t{sy} * (std::int64_t{1} << 32) & along_y);
        const std::int64_t swap = (diagonal_step ^ straight_step) & order;
        const std::int32_t first = diagonal + ((total - 2 * diagonal) & static_cast<std::int32_t>(order));
        if (first > 0) push(diagonal_step ^ swap, first);
        if (total > first) push(straight_step ^ swap, total - first);
    }
    // Writes the last run; returns the end of the cells written.
    GridPoint* end() noexcept {
        flush();
        return m_out;
    }

private:
    // A cell as one 64-bit integer in GridPoint's layout (x in the low half, y in the high half): a cell
    // k steps on is p + k * step as integers (every cell has x, y >= 0, so no half ever borrows).
    static std::int64_t word(std::int32_t x, std::int32_t y) noexcept {
        return static_cast<std::int64_t>(y) * (std::int64_t{1} << 32) + x;
    }
    void push(std::int64_t step, std::int32_t count) noexcept {
        if (step != m_step) {
            flush();
            m_step = step;
        }
        m_count += count;
    }
    void flush() noexcept {
        if (m_count == 0) return;
#if defined(__SSE2__)
        // Two cells per 128-bit store, four stores per round.
        __m128i v = _mm_set_epi64x(m_at + 2 * m_step, m_at + m_step);
        const __m128i two = _mm_set1_epi64x(2 * m_step), four = _mm_add_epi64(two, two), six = _mm_add_epi64(four, two),
                      eight = _mm_add_epi64(four, four);
        auto* dst = reinterpret_cast<__m128i*>(m_out);
        auto* const stop = reinterpret_cast<__m128i*>(m_out + m_count);
        do {
            _mm_storeu_si128(dst, v);
            _mm_storeu_si128(dst + 1, _mm_add_epi64(v, two));
            _mm_storeu_si128(dst + 2, _mm_add_epi64(v, four));
            _mm_storeu_si128(dst + 3, _mm_add_epi64(v, six));
            v = _mm_add_epi64(v, eight);
            dst += 4;
        } while (dst < stop);
#else
        const auto sx = static_cast<std::int32_t>(static_cast<std::uint32_t>(m_step & 0xffffffff));
        const auto sy = static_cast<std::int32_t>((m_step - sx) >> 32);
        GridPoint p{static_cast<std::int32_t>(m_at & 0xffffffff), static_cast<std::int32_t>(m_at >> 32)};
        for (std::int32_t i = 0; i < m_count; ++i) {
            p = GridPoint{p.x + sx, p.y + sy};
            m_out[i] = p;
        }
#endif
        m_out += m_count;
        m_at += m_step * m_count;
        m_count = 0;
    }

    GridPoint* m_out;
    std::int64_t m_at;        // the cell before the pending run
    std::int64_t m_step = 0;  // the pending run's step and length
    std::int32_t m_count = 0;
    GridPoint m_previous;     // the previous segment's end
};

// Writes the cells of the octile segment a -> b (a excluded, b included; max(|dx|, |dy|) cells) to `out`,
// diagonal steps first or straight steps first; returns the end of the segment's cells. Precondition:
// kWriteSlack cells of room past that end (each run is written 8 cells at a time, the cells past it are
// overwritten by what follows or cut by the caller).
GridPoint* write_cells(GridPoint a, GridPoint b, bool straight_first, GridPoint* out) noexcept {
    RunWriter writer(a, out);
    writer.segment(b, straight_first);
    return writer.end();
}

// The waypoints of the octile segment a -> b (the turning cell of a
// straight-first segment, if any, then b) from `out` on; returns the end of what it wrote.
GridPoint* write_waypoints(GridPoint a, GridPoint b, bool straight_first, GridPoint* out) noexcept {
    if (straight_first) {
        const std::int32_t dx = b.x - a.x, dy = b.y - a.y;
        const std::int32_t ax = std::abs(dx), ay = std::abs(dy);
        const std::int32_t diagonal = std::min(ax, ay), straight = std::max(ax, ay) - diagonal;
        if (diagonal > 0 && straight > 0) {
            // The straight run moves along the longer axis only.
            const std::int32_t sx = (dx > 0) - (dx < 0), sy = (dy > 0) - (dy < 0);
            *out++ = ax > ay ? GridPoint{a.x + sx * straight, a.y} : GridPoint{a.x, a.y + sy * straight};
        }
    }
    *out++ = b;
    return out;
}
}  // namespace

bool SubgoalGraph::refine(std::uint32_t a, std::uint32_t b, std::vector<GridPoint>& out) const {
    Segment seg{};
    if (!segment_order(a, b, seg)) return false;
    const std::size_t at = out.size();
    out.resize(at + static_cast<std::size_t>(seg.count_first + seg.count_second) + kWriteSlack);
    out.resize(static_cast<std::size_t>(write_cells(point(a), point(b), !is_diagonal(seg.first), out.data() + at) - out.data()));
    return true;
}

bool SubgoalGraph::refine_waypoints(std::uint32_t a, std::uint32_t b, std::vector<GridPoint>& out) const {
    Segment seg{};
    if (!segment_order(a, b, seg)) return false;
    // The canonical line between waypoints is diagonal steps first: a straight-first segment needs its
    // turning cell.
    GridPoint written[2];
    out.insert(out.end(), written, write_waypoints(point(a), point(b), !is_diagonal(seg.first), written));
    return true;
}

bool SubgoalGraph::in_sync(const GridMap& map) const noexcept {
    return m_built && &map == m_map && map.node_bound() == m_pass.size() && map.stride() == m_stride &&
           map.version() == m_version;
}

void SubgoalGraph::prefetch_transit(std::uint32_t node) const noexcept {
    if (m_transit == 0) return;
    const std::uint32_t a = m_cell_access_offsets[node], b = m_cell_access_offsets[node + 1];
    detail::prefetch_range(m_cell_access.data() + a, std::size_t{b - a} * sizeof(Access));
    if (b > a) detail::prefetch_range(m_cell_join_hint.data() + a / 2, (b - 1) / 2 - a / 2 + 1);
    detail::prefetch(m_cell_top.data() + m_cell_top_offsets[node]);
}

void SubgoalGraph::prefetch_cell(GridPoint p) const noexcept {
    if (!m_built || p.x < 0 || p.y < 0 || p.x >= m_width || p.y >= m_height) return;  // as passable()
    const std::uint32_t node = index(p);
    detail::prefetch(m_pass.data() + node);
    detail::prefetch(m_clear.data() + std::size_t{node} * 8);
    detail::prefetch(m_join_offsets.data() + node);
    if (m_transit == 0) return;
    detail::prefetch(m_cell_access_offsets.data() + node);
    detail::prefetch(m_cell_top_offsets.data() + node);
}

void SubgoalGraph::prefetch_joins(std::uint32_t node) const noexcept {
    const JoinList list = joins(node);
    detail::prefetch_range(list.address(0), list.bytes());
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
           (m_subgoal_node.capacity() + m_subgoal_xy.capacity()) * sizeof(std::uint32_t) +
           m_offsets.capacity() * sizeof(std::uint32_t) +
           m_up.capacity() * sizeof(UpEdge) +
           m_middles.capacity() * sizeof(std::uint32_t) + m_rank.capacity() * sizeof(std::uint32_t) +
           (m_path_offsets.capacity() + m_path.capacity()) * sizeof(std::uint32_t) +
           (m_join_offsets.capacity() + m_join.capacity()) * sizeof(std::uint32_t) +
           m_join16.capacity() * sizeof(std::uint16_t) +
           m_landmark_dist.capacity() * sizeof(float) + transit_bytes();
}

// ---- SubgoalPathfinder ---------------------------------------------------------------------------------


// Query: the ends are joined to their direct-h-reachable subgoals; a bidirectional search goes upward
// in the hierarchy from both (the start and the goal count as ranked below every subgoal), each side
// keyed by distance plus the octile distance to the other end and pruned against the best meeting
// cost (an A* on the upward graph: the octile distance is consistent there too); the best
// meeting node gives the cost; shortcuts are unpacked into subgoal-graph edges, which are refined to
// cells.
struct SubgoalPathfinder::Impl {
    // A 4-ary min-heap of (key, node) without decrease-key: a node whose distance improves is pushed
    // again, and an entry popped for a node already settled is dropped (the node was settled from its
    // smallest entry; the search reads its distance from the node, not from the entry). With few
    // improvements per query this saves the position array that decrease-key needs, one random write
    // per entry moved.
    struct LazyHeap {
        struct Entry {
            double key;
            std::uint32_t node;
        };
        std::vector<Entry> entries;

        [[nodiscard]] bool empty() const noexcept { return entries.empty(); }
        [[nodiscard]] const Entry& top() const noexcept { return entries.front(); }
        void clear() noexcept { entries.clear(); }
        void push(std::uint32_t node, double key) {
            std::size_t at = entries.size();
            entries.push_back(Entry{key, node});
            Entry* const e = entries.data();
            while (at > 0) {
                const std::size_t parent = (at - 1) / 4;
                if (!(key < e[parent].key)) break;
                e[at] = e[parent];
                at = parent;
            }
            e[at] = Entry{key, node};
        }
        void pop() noexcept {
            const Entry moving = entries.back();
            entries.pop_back();
            const std::size_t count = entries.size();
            if (count == 0) return;
            Entry* const e = entries.data();
            std::size_t at = 0;
            for (;;) {
                const std::size_t first = 4 * at + 1;
                if (first >= count) break;
                std::size_t child = first;
                if (first + 4 <= count) {
                    // All four children: a tournament of two pairs, in arithmetic rather than branches
                    // (the comparisons are as good as random).
                    const std::size_t a = first + static_cast<std::size_t>(e[first + 1].key < e[first].key);
                    const std::size_t b = first + 2 + static_cast<std::size_t>(e[first + 3].key < e[first + 2].key);
                    const auto b_less = static_cast<std::size_t>(e[b].key < e[a].key);
                    child = a ^ ((a ^ b) & (0 - b_less));
                } else {
                    for (std::size_t c = first + 1; c < count; ++c) child = e[c].key < e[child].key ? c : child;
                }
                if (!(e[child].key < moving.key)) break;
                e[at] = e[child];
                at = child;
            }
            e[at] = moving;
        }
    };

    struct Side {
        LazyHeap heap;                        // key: distance + lower bound to the other end
        alignas(16) std::int32_t target_xy[4] = {};  // the other end as {x, y, 0, 0}
        // Bounds of the grid distance from each landmark to the target: upper and lower (ALT bounds).
        alignas(16) float upper[SubgoalGraph::kLandmarks] = {};
        alignas(16) float lower[SubgoalGraph::kLandmarks] = {};
        SubgoalGraph::JoinList ends;          // subgoal ids joined to this side's end
    };

    // Per node, both sides in 32 aligned bytes (half a cache line): what a relaxation reads and writes.
    // stamp[side] == generation once reached, generation + 1 once settled (generation is even).
    struct alignas(32) NodeState {
        double dist[2];
        std::uint32_t stamp[2];
        std::uint32_t parent[2];  // the edge parent -> node is an upward edge of parent (or from an end)
    };

    SubgoalGraph owned;
    const SubgoalGraph* graph = nullptr;
    Side sides[2];
    std::vector<NodeState> nodes;  // per subgoal id, then the two virtual ends
    std::vector<double> join_length[2];  // per side, the length of each join of its end (set at begin)
    std::uint32_t generation = 0;
    std::uint32_t n = 0;
    std::uint32_t ends[2] = {0, 0};  // padded node indices of start and goal
    std::uint32_t meet = kNone;
    bool direct_straight_first = false;  // the order of a direct segment (meet == kNone)
    double best = std::numeric_limits<double>::infinity();
    // The smaller of `best` and the landmarks' upper bound of the optimum (set at begin, strictly above
    // it): a relaxation whose key reaches it is dropped (`best` may equal the optimum, but a path of that
    // cost is known).
    double cut = std::numeric_limits<double>::infinity();
    search::Budget budget{};
    bool limited = false;        // budget.max_memory_bytes is set: the heaps grow only through grow_heap()
    bool out_of_memory = false;  // a heap push found no room within the budget: the search stops
    search::BudgetLimit limit = search::BudgetLimit::None;
    PathDetail detail = PathDetail::Cells;
    search::SearchStats stats{};
    Status state = Status::InvalidQuery;
    std::uint64_t clock_mask = 63;
    // finish(): the route's upward edges (route_edges[0]: from the start's end; [1]: the transit nodes'
    // hops, or the search's edges down from its meeting node; [2]: the goal's end, walked backwards),
    // unpacked into the path's subgoal cells as the path is written.
    struct RouteEdge {
        std::uint32_t edge;
        std::uint32_t low_xy;    // walked from the upper end down: the lower end's cell (not kept in [2])
        std::uint32_t from_low;  // 1: walked from the lower end
    };
    mutable std::vector<RouteEdge> route_edges[3];
    mutable std::uint32_t route_first_xy = 0;  // the route's first subgoal (the start's join)
    mutable std::uint32_t route_join_xy = 0;   // the goal's join (the lower end of route_edges[2][0])
    mutable std::vector<std::uint32_t> chain;
    // Transit-node routing: the best pair of access nodes (start's, goal's) and its length; the goal's
    // access lengths (scratch of begin).
    std::uint32_t transit = 0;             // the graph's transit_count(): the search never enters them
    bool table_only = false;               // answered by the table (step() counts one expansion)
    bool via_table = false;                // `best` is the table's path (meet == kNone)
    SubgoalGraph::Access table_access[2] = {};
    std::uint32_t table_index[2] = {0, 0};  // their indices in the ends' access lists
    std::vector<double> access_length;   // transit_pair(): per goal access node, its length, lower bound,
    std::vector<double> access_bound;    // node and index
    std::vector<std::uint32_t> access_node;
    std::vector<std::uint32_t> access_index;
    std::vector<std::uint32_t> access_row;
    std::vector<double> access_row_bound;
    JpsPathfinder fallback;
    bool use_fallback = false;
    std::uint64_t fallbacks = 0;

    // Sizes the query's arrays for `g`. Each grows to exactly its new size (detail::grow_exactly), so
    // size_for_bytes() is what it allocates.
    static constexpr std::size_t kRouteReserve = 256;
    [[nodiscard]] static std::size_t heap_reserve(const SubgoalGraph& g) noexcept {
        return std::min<std::size_t>(g.subgoal_count() + 2, 1u << 14);
    }
    void size_for(const SubgoalGraph& g) {
        for (std::vector<double>& lengths : join_length) detail::grow_exactly(lengths, g.max_joins());
        detail::grow_exactly(nodes, g.subgoal_count() + 2, NodeState{{0, 0}, {0, 0}, {0, 0}});
        for (Side& s : sides) s.heap.entries.reserve(heap_reserve(g));
        for (std::vector<double>* v : {&access_length, &access_bound, &access_row_bound}) detail::grow_exactly(*v, g.max_access());
        for (std::vector<std::uint32_t>* v : {&access_node, &access_index, &access_row}) detail::grow_exactly(*v, g.max_access());
        chain.reserve(kRouteReserve);
        for (std::vector<RouteEdge>& edges : route_edges) edges.reserve(kRouteReserve);
    }
    // The bytes size_for(g) would add to what the query holds.
    [[nodiscard]] std::size_t size_for_bytes(const SubgoalGraph& g) const noexcept {
        const auto more = [](const auto& v, std::size_t count) { return detail::growth_bytes(v, count); };
        std::size_t bytes = more(nodes, g.subgoal_count() + 2) + more(chain, kRouteReserve);
        for (const std::vector<double>& lengths : join_length) bytes += more(lengths, g.max_joins());
        for (const Side& s : sides) bytes += more(s.heap.entries, heap_reserve(g));
        for (const std::vector<double>* v : {&access_length, &access_bound, &access_row_bound}) bytes += more(*v, g.max_access());
        for (const std::vector<std::uint32_t>* v : {&access_node, &access_index, &access_row}) bytes += more(*v, g.max_access());
        for (const std::vector<RouteEdge>& edges : route_edges) bytes += more(edges, kRouteReserve);
        return bytes;
    }

    // Bytes of the query's own storage at capacity (the graph and the fallback excluded).
    [[nodiscard]] std::size_t query_bytes() const noexcept {
        std::size_t bytes = nodes.capacity() * sizeof(NodeState);
        for (const Side& s : sides) bytes += s.heap.entries.capacity() * sizeof(LazyHeap::Entry);
        for (const std::vector<double>& lengths : join_length) bytes += lengths.capacity() * sizeof(double);
        bytes += (access_length.capacity() + access_bound.capacity() + access_row_bound.capacity()) * sizeof(double) +
                 (access_node.capacity() + access_index.capacity() + access_row.capacity()) * sizeof(std::uint32_t);
        for (const std::vector<RouteEdge>& edges : route_edges) bytes += edges.capacity() * sizeof(RouteEdge);
        return bytes + chain.capacity() * sizeof(std::uint32_t);
    }
    // What the memory budget counts: the query's storage and the online JPS fallback's search state.
    [[nodiscard]] std::size_t memory_bytes() const noexcept { return query_bytes() + fallback.memory_bytes(); }

    // With a memory limit, a side's heap full: doubles it (as push_back would) unless that would pass the
    // budget; then the search is out of memory (it stops before its next expansion).
    [[gnu::noinline]] bool grow_heap(LazyHeap& heap) {
        const std::size_t capacity = heap.entries.capacity();
        const std::size_t count = capacity == 0 ? 1 : 2 * capacity;
        const std::size_t held = memory_bytes(), more = (count - capacity) * sizeof(LazyHeap::Entry);
        if (detail::passes_budget(held, more, budget.max_memory_bytes)) {
            out_of_memory = true;
            return false;
        }
        heap.entries.reserve(count);
        return true;
    }

    // With a memory limit, a search that found its answer: reserves the route storage finish() will write
    // (its chain and route edges, counted by the same walks), unless that would pass the budget.
    [[gnu::noinline]] bool reserve_route() {
        if (detail == PathDetail::CostOnly) return true;  // finish() writes no route
        std::size_t need[3] = {0, 0, 0}, chain_need = 0;
        if (meet != kNone) {
            for (std::uint32_t x = meet; x < n; x = nodes[x].parent[0]) ++chain_need;
            need[0] = chain_need > 0 ? chain_need - 1 : 0;
            for (std::uint32_t x = meet, p = nodes[x].parent[1]; p < n; x = p, p = nodes[x].parent[1]) ++need[1];
        } else if (via_table) {
            walk_table_route([&need](int part, const RouteEdge&) { ++need[part]; });
        } else {
            return true;  // no route to write
        }
        std::size_t more = chain_need > chain.capacity() ? (chain_need - chain.capacity()) * sizeof(std::uint32_t) : 0;
        for (int part = 0; part < 3; ++part)
            if (need[part] > route_edges[part].capacity()) more += (need[part] - route_edges[part].capacity()) * sizeof(RouteEdge);
        if (more == 0) return true;
        const std::size_t held = memory_bytes();
        if (detail::passes_budget(held, more, budget.max_memory_bytes)) return false;
        chain.reserve(chain_need);
        for (int part = 0; part < 3; ++part) route_edges[part].reserve(need[part]);
        return true;
    }
    // The final status of a search that ended with `best` (NoPath when infinite).
    Status conclude() {
        if (std::isinf(best)) return state = Status::NoPath;
        if (limited && !reserve_route()) return exhausted(search::BudgetLimit::Memory);
        return state = Status::Found;
    }

    Status exhausted(search::BudgetLimit which) noexcept {
        limit = which;
        return state = Status::BudgetExhausted;
    }

    Status invalid() {
        use_fallback = false;
        limit = search::BudgetLimit::None;
        return state = Status::InvalidQuery;
    }

    // Octile distance from the cell `xy` (x | y << 16) to `p`, given as {x, y, 0, 0} (Side::target_xy): a
    // lower bound of every path between them, and consistent on the hierarchy's edges (each at least as
    // long as the octile distance between its ends). Both coordinates at once; bit for bit octile().
    [[nodiscard]] static double to(std::uint32_t xy, const std::int32_t (&p)[4]) noexcept {
#if defined(__SSE2__)
        const __m128i cell = _mm_unpacklo_epi16(_mm_cvtsi32_si128(static_cast<int>(xy)), _mm_setzero_si128());
        const __m128i delta = _mm_sub_epi32(cell, _mm_load_si128(reinterpret_cast<const __m128i*>(p)));
        const __m128d a = _mm_andnot_pd(_mm_set1_pd(-0.0), _mm_cvtepi32_pd(delta));  // |dx|, |dy|
        const __m128d b = _mm_unpackhi_pd(a, a);
        const __m128d hi = _mm_max_sd(a, b), lo = _mm_min_sd(a, b);
        return _mm_cvtsd_f64(_mm_add_sd(_mm_sub_sd(hi, lo), _mm_mul_sd(lo, _mm_set_sd(kDiagonalStep))));
#else
        return octile(static_cast<std::int32_t>(xy & 0xffffu) - p[0], static_cast<std::int32_t>(xy >> 16) - p[1]);
#endif
    }

    // Lower bound of the grid distance from subgoal `id` to the side's target given by the landmarks:
    // for each landmark L the triangle inequality d(L, id) - d(L, target) and d(L, target) - d(L, id),
    // with the target's distance replaced by its upper or lower bound, lowered by the slack of their
    // float rounding (see SubgoalGraph::contract). Each term changes by at most an edge's length along
    // an edge, so the bound is consistent up to that slack. A landmark that cannot reach the target
    // gives nothing (its upper bound is +infinity: NaN or -infinity terms).
    [[nodiscard]] double landmark_bound(const Side& side, std::uint32_t id) const noexcept {
        const float* ld = graph->landmark_distances(id);
#if defined(__SSE2__)
        static_assert(SubgoalGraph::kLandmarks == 8);
        // Four landmarks per register, two independent chains. _mm_max_ps(term, acc) returns acc when
        // the term is NaN, as std::max(acc, term) does below.
        const __m128 a = _mm_load_ps(ld), b = _mm_load_ps(ld + 4);
        __m128 acc0 = _mm_max_ps(_mm_sub_ps(a, _mm_load_ps(side.upper)), _mm_set1_ps(-std::numeric_limits<float>::infinity()));
        __m128 acc1 = _mm_max_ps(_mm_sub_ps(b, _mm_load_ps(side.upper + 4)), _mm_set1_ps(-std::numeric_limits<float>::infinity()));
        acc0 = _mm_max_ps(_mm_sub_ps(_mm_load_ps(side.lower), a), acc0);
        acc1 = _mm_max_ps(_mm_sub_ps(_mm_load_ps(side.lower + 4), b), acc1);
        __m128 acc = _mm_max_ps(acc0, acc1);
        acc = _mm_max_ps(acc, _mm_movehl_ps(acc, acc));
        acc = _mm_max_ss(acc, _mm_shuffle_ps(acc, acc, 1));
        const float lm = _mm_cvtss_f32(acc);
#else
        float lm = -std::numeric_limits<float>::infinity();
        for (int l = 0; l < SubgoalGraph::kLandmarks; ++l) {
            lm = std::max(lm, ld[l] - side.upper[l]);
            lm = std::max(lm, side.lower[l] - ld[l]);
        }
#endif
        return static_cast<double>(lm) - graph->landmark_slack();
    }

    // Sets the landmark bounds of side `si` for its target, the end `node`: exact at a subgoal, else
    // from the end's joins (every shortest path from a subgoal to the end arrives through one of them,
    // by the property the query itself rests on; the lower bound holds regardless, by the triangle
    // inequality). In float arithmetic (its rounding is within the slack, see SubgoalGraph::contract).
    // Writes the length of each join of `node` to `lengths` (for the other side's first expansion).
    void set_landmark_bounds(Side& side, std::uint32_t node, double* lengths) const noexcept {
        const SubgoalGraph& g = *graph;
        constexpr float kInf = std::numeric_limits<float>::infinity();
        const GridPoint point = g.point(node);
        alignas(16) const std::int32_t p[4] = {point.x, point.y, 0, 0};
        if (const std::int32_t id = g.subgoal_id(node); id >= 0) {
            const float* ld = g.landmark_distances(static_cast<std::uint32_t>(id));
            for (int l = 0; l < SubgoalGraph::kLandmarks; ++l) side.upper[l] = side.lower[l] = ld[l];
            for (const std::uint32_t j : g.joins(node)) *lengths++ = to(g.subgoal_xy(j), p);
        } else {
#if defined(__SSE2__)
            __m128 up0 = _mm_set1_ps(kInf), up1 = up0, lo0 = _mm_set1_ps(-kInf), lo1 = lo0;
            for (const std::uint32_t j : g.joins(node)) {
                const double exact = to(g.subgoal_xy(j), p);
                *lengths++ = exact;
                const __m128 length = _mm_set1_ps(static_cast<float>(exact));
                const float* ld = g.landmark_distances(j);
                const __m128 a = _mm_load_ps(ld), b = _mm_load_ps(ld + 4);
                up0 = _mm_min_ps(up0, _mm_add_ps(a, length));
                up1 = _mm_min_ps(up1, _mm_add_ps(b, length));
                lo0 = _mm_max_ps(lo0, _mm_sub_ps(a, length));
                lo1 = _mm_max_ps(lo1, _mm_sub_ps(b, length));
            }
            _mm_store_ps(side.upper, up0);
            _mm_store_ps(side.upper + 4, up1);
            _mm_store_ps(side.lower, lo0);
            _mm_store_ps(side.lower + 4, lo1);
#else
            for (int l = 0; l < SubgoalGraph::kLandmarks; ++l) {
                side.upper[l] = kInf;
                side.lower[l] = -kInf;
            }
            for (const std::uint32_t j : g.joins(node)) {
                const double exact = to(g.subgoal_xy(j), p);
                *lengths++ = exact;
                const auto length = static_cast<float>(exact);
                const float* ld = g.landmark_distances(j);
                for (int l = 0; l < SubgoalGraph::kLandmarks; ++l) {
                    side.upper[l] = std::min(side.upper[l], ld[l] + length);
                    side.lower[l] = std::max(side.lower[l], ld[l] - length);
                }
            }
#endif
        }
        for (int l = 0; l < SubgoalGraph::kLandmarks; ++l)
            if (std::isinf(side.upper[l])) side.lower[l] = -kInf;  // the landmark cannot reach the end
    }

    // `map`: the graph's map when the caller gave it (the islands' precheck needs it), else null.
    Status begin(const SubgoalGraph& g, const GridMap* map, GridPoint start, GridPoint goal, const GridSearchOptions& options) {
        use_fallback = false;
        if (detail::check_options(options) != JpsSupport::Ok || !g.built()) return invalid();
        g.prefetch_cell(start);  // every first read of both ends at once: their misses overlap
        g.prefetch_cell(goal);
        if (!g.passable(start) || !g.passable(goal)) return invalid();
        if (map != nullptr && islands_prove_unreachable(*map, options, start, goal)) {
            stats = {};
            limit = search::BudgetLimit::None;
            return state = Status::NoPath;
        }
        graph = &g;
        n = static_cast<std::uint32_t>(g.subgoal_count());
        stats = {};
        budget = options.budget;
        limited = budget.max_memory_bytes != SIZE_MAX;
        out_of_memory = false;
        limit = search::BudgetLimit::None;
        const bool grow = nodes.size() < std::size_t{n} + 2 || join_length[0].size() < g.max_joins() ||
                          access_length.size() < g.max_access();
        if (limited) {
            // What the query holds, and the arrays this graph needs on top of it, before they are allocated.
            const std::size_t held = memory_bytes(), more = grow ? size_for_bytes(g) : 0;
            if (detail::passes_budget(held, more, budget.max_memory_bytes)) {
                meet = kNone;
                best = std::numeric_limits<double>::infinity();
                return exhausted(search::BudgetLimit::Memory);
            }
        }
        if (grow) size_for(g);
        if (generation >= UINT32_MAX - 3) {  // about to wrap: forget every stamp
            for (NodeState& st : nodes) st.stamp[0] = st.stamp[1] = 0;
            generation = 0;
        }
        generation += 2;
        ends[0] = g.index(start);
        ends[1] = g.index(goal);
        detail = options.detail;
        clock_mask = 0;
        meet = kNone;
        best = std::numeric_limits<double>::infinity();
        cut = std::numeric_limits<double>::infinity();
        state = Status::InProgress;
        transit = 0;
        table_only = via_table = false;
        for (Side& s : sides) {
            s.heap.clear();
            s.ends = {};
        }
        if (start == goal) {
            best = 0;
            return Status::InProgress;  // step() reports Found: a direct segment (meet stays kNone)
        }
        // A goal in octile freespace of the start (either sweep, each end counting as a subgoal for the
        // other's, reports it) is answered without search; otherwise the ends join the graph through
        // their precomputed subgoal lists.
        g.prefetch_transit(ends[0]);  // read by transit_pair(), after the sweeps
        g.prefetch_transit(ends[1]);
        const bool forward = g.direct(ends[0], ends[1]);
        if (forward || g.direct(ends[1], ends[0])) {
            direct_straight_first = !forward;  // the goal's sweep found it: diagonal first from the goal
            best = octile(goal.x - start.x, goal.y - start.y);
            return Status::InProgress;
        }
        // Both ends' joins (their offsets arrived meanwhile), read by a local search and, at a hint, by a
        // table answer's climbs.
        for (int side = 0; side < 2; ++side) g.prefetch_joins(ends[side]);
        if (g.transit_count() > 0) {
            // Transit nodes: the shortest path through an access node of each end, exact when the ends'
            // search spaces below the transit nodes are apart; else the search below them must beat it.
            transit_pair();
            // Apart, or as short as the octile distance: exact.
            if (!g.transit_local(ends[0], ends[1]) || best <= octile(goal.x - start.x, goal.y - start.y) + kBoundSlack) {
                table_only = true;
                return Status::InProgress;
            }
            transit = g.transit_count();
        }
        for (int side = 0; side < 2; ++side) sides[side].ends = g.joins(ends[side]);
        const GridPoint s = g.point(ends[0]), t = g.point(ends[1]);
        sides[0].target_xy[0] = t.x;
        sides[0].target_xy[1] = t.y;
        sides[1].target_xy[0] = s.x;
        sides[1].target_xy[1] = s.y;
        set_landmark_bounds(sides[0], ends[1], join_length[1].data());
        set_landmark_bounds(sides[1], ends[0], join_length[0].data());
        // Before the sides meet, `best` prunes nothing; the landmarks give an upper bound of the optimum
        // at once: d(start, goal) <= d(start, L) + d(L, goal) for every landmark L, the two bounded from
        // above by the sides' `upper` (each within the slack of its exact value, see
        // SubgoalGraph::contract; the sum rounded once more, all well within 4 slacks), so `cut` exceeds
        // the optimum: a relaxation whose key reaches it cannot be on an optimal path.
        float through = std::numeric_limits<float>::infinity();
        for (int l = 0; l < SubgoalGraph::kLandmarks; ++l) through = std::min(through, sides[0].upper[l] + sides[1].upper[l]);
        cut = std::min(best, static_cast<double>(through) + 4 * g.landmark_slack());
        for (int side = 0; side < 2; ++side) {
            const std::uint32_t virtual_end = n + static_cast<std::uint32_t>(side);
            NodeState& st = nodes[virtual_end];
            st.dist[side] = 0;
            st.stamp[side] = generation;
            st.parent[side] = kNone;
            st.stamp[1 - side] = 0;
            sides[side].heap.push(virtual_end, octile(t.x - s.x, t.y - s.y));
        }
        return Status::InProgress;
    }

    // The least d(start, a) + D(a, b) + d(b, goal) over the access nodes a of the start and b of the goal
    // (`best`, +infinity if none; `via_table` and `table_access` when finite). Octile distances bound
    // every pair from below without reading the table: d(start, a) + octile(a, goal) for a row (a start
    // access a), octile(start, b) + d(b, goal) for a column. The row with the least bound is gathered
    // at every goal access node first; then only the columns and rows whose bound is below its minimum
    // (by more than the rounding) are read, a branch-free minimum over each row's kept columns. With at
    // most kFewPairs pairs (short access lists, as on dungeon maps) every pair is read: the bounds
    // would cost more than they save.
    static constexpr std::size_t kFewPairs = 100;
    // A pair's sum (SubgoalGraph::table_length() of its entry plus two access lengths) at least this
    // large goes through an unreachable pair: finite sums are below (kTableMaxSteps + 2 kMaxSteps)
    // (1 + sqrt(2)) < 89,000, those through kTableUnreachable at least 65535 (1 + sqrt(2)) > 158,000.
    static constexpr double kTableNoPath = 120000.0;
    static_assert((SubgoalGraph::kTableMaxSteps + 2.0 * SubgoalGraph::Access::kMaxSteps) * (1.0 + kDiagonalStep) < kTableNoPath &&
                  kTableNoPath < SubgoalGraph::kTableUnreachableLength);
    void transit_pair() {
        const SubgoalGraph& g = *graph;
        const auto from = g.access(ends[0]);
        const auto to = g.access(ends[1]);
        const std::size_t m = from.size(), k = to.size();
        best = std::numeric_limits<double>::infinity();
        if (m == 0 || k == 0) return;
        const GridPoint sp = g.point(ends[0]), gp = g.point(ends[1]);
        const auto octile_to = [](std::uint32_t xy, GridPoint p) {
            return octile(static_cast<std::int32_t>(xy & 0xffffu) - p.x, static_cast<std::int32_t>(xy >> 16) - p.y);
        };
        double* length = access_length.data();
        double* bound = access_bound.data();
        std::uint32_t* node = access_node.data();
        std::uint32_t* index = access_index.data();
        if (m * k <= kFewPairs) {
            // Few pairs: every one, without the bounds.
            for (std::size_t j = 0; j < k; ++j) {
                length[j] = Steps{to[j].straight(), to[j].diagonal()}.length();
                node[j] = to[j].node();
            }
            double least = std::numeric_limits<double>::infinity();
            std::size_t best_i = 0, best_j = 0;
            for (std::size_t i = 0; i < m; ++i) {
                const double d = Steps{from[i].straight(), from[i].diagonal()}.length();
                const std::uint32_t* row = g.transit_row(from[i].node());
                for (std::size_t j = 0; j < k; ++j) {
                    const double v = d + (SubgoalGraph::table_length(row[node[j]]) + length[j]);
                    const bool less = v < least;
                    least = less ? v : least;
                    best_i = less ? i : best_i;
                    best_j = less ? j : best_j;
                }
            }
            stats.generated += m * k;
            take_pair(least, best_i, best_j);
            return;
        }
        for (std::size_t j = 0; j < k; ++j) {
            length[j] = Steps{to[j].straight(), to[j].diagonal()}.length();
            node[j] = to[j].node();
            index[j] = static_cast<std::uint32_t>(j);
            bound[j] = length[j] + octile_to(g.transit_xy(node[j]), sp);
        }
        std::size_t first = 0;
        double first_bound = std::numeric_limits<double>::infinity();
        double* row_bound = access_row_bound.data();
        for (std::size_t i = 0; i < m; ++i) {
            const double b = Steps{from[i].straight(), from[i].diagonal()}.length() + octile_to(g.transit_xy(from[i].node()), gp);
            row_bound[i] = b;
            const bool less = b < first_bound;
            first_bound = less ? b : first_bound;
            first = less ? i : first;
        }
        // The least over a row's first `columns` columns: its value and column.
        const auto row_least = [&](std::size_t i, std::size_t columns, std::size_t& column) {
            const std::uint32_t* row = g.transit_row(from[i].node());
            double least = std::numeric_limits<double>::infinity();
            std::size_t at = 0;
            for (std::size_t j = 0; j < columns; ++j) {
                const double v = SubgoalGraph::table_length(row[node[j]]) + length[j];
                const bool less = v < least;
                least = less ? v : least;
                at = less ? j : at;
            }
            column = index[at];
            return least + Steps{from[i].straight(), from[i].diagonal()}.length();
        };
        std::size_t best_i = first, best_j = 0;
        double least = row_least(first, k, best_j);
        std::size_t pairs = k;
        // The columns that may still beat it, compacted in place.
        std::size_t kept = 0;
        const double limit = least + kBoundSlack;
        for (std::size_t j = 0; j < k; ++j) {
            length[kept] = length[j];
            node[kept] = node[j];
            index[kept] = index[j];
            kept += static_cast<std::size_t>(bound[j] < limit);
        }
        // The rows that may.
        std::uint32_t* rows = access_row.data();
        std::size_t row_count = 0;
        for (std::size_t i = 0; i < m && kept > 0; ++i) {
            rows[row_count] = static_cast<std::uint32_t>(i);
            row_count += static_cast<std::size_t>((row_bound[i] < limit) & (i != first));
        }
        // Every table entry still to be read asked of the cache first, so that their misses overlap.
        for (std::size_t r = 0; r < row_count; ++r) {
            const std::uint32_t* row = g.transit_row(from[rows[r]].node());
            for (std::size_t j = 0; j < kept; ++j) prefetch(row + node[j]);
        }
        for (std::size_t r = 0; r < row_count; ++r) {
            const std::size_t i = rows[r];
            std::size_t column = 0;
            const double v = row_least(i, kept, column);
            pairs += kept;
            if (v < least) {
                least = v;
                best_i = i;
                best_j = column;
            }
        }
        stats.generated += pairs;
        take_pair(least, best_i, best_j);
    }

    // transit_pair()'s answer: the least sum, through the start's access entry i and the goal's j (none
    // when the sum goes through unreachable pairs only).
    void take_pair(double least, std::size_t i, std::size_t j) {
        if (least >= kTableNoPath) return;
        best = least;
        via_table = true;
        table_access[0] = graph->access(ends[0])[i];
        table_access[1] = graph->access(ends[1])[j];
        table_index[0] = static_cast<std::uint32_t>(i);
        table_index[1] = static_cast<std::uint32_t>(j);
        if (detail != PathDetail::CostOnly) {
            // What table_route() reads first, asked of the cache now: each end's join at its entry's hint
            // and the first hop. (begin() asked for the whole join lists before the table was read; asking
            // again for the line at the hint still measured 2 to 7 % faster on open maps.)
            const SubgoalGraph& g = *graph;
            for (int side = 0; side < 2; ++side) {
                const std::uint32_t hint = g.access_join_hint(ends[side], table_index[side]);
                const auto joins = g.joins(ends[side]);
                if (hint < joins.size()) prefetch(joins.address(hint));
            }
            if (table_access[0].node() != table_access[1].node())
                prefetch(g.transit_hop_address(table_access[0].node(), table_access[1].node()));
        }
    }

    Status step(std::uint64_t slice) {
        if (state != Status::InProgress) return state;
        if (table_only) {
            if (stats.expanded >= budget.max_expansions) return exhausted(search::BudgetLimit::Expansions);
            if (slice == 0) return Status::InProgress;
            ++stats.expanded;
            return conclude();
        }
        if (!std::isinf(best) && meet == kNone && sides[0].heap.empty() && sides[1].heap.empty())
            return state = Status::Found;  // decided at begin (start == goal, or a direct segment)
        // Two instances of the search loop: without a memory limit it has no check of it at all.
        return limited ? search_loop<true>(slice) : search_loop<false>(slice);
    }

    template <bool Limited>
    Status search_loop(std::uint64_t slice) {
        const bool has_deadline = budget.deadline != std::chrono::steady_clock::time_point::max();
        for (;;) {
            // A relaxation the heap had no room for is lost: the search cannot go on.
            if constexpr (Limited)
                if (out_of_memory) return exhausted(search::BudgetLimit::Memory);
            // Pick the side with the smaller key; a side is done when its key cannot improve `best`.
            int side = -1;
            double key = std::numeric_limits<double>::infinity();
            for (int s = 0; s < 2; ++s) {
                Side& sd = sides[s];
                // Entries of settled nodes are stale (see LazyHeap).
                while (!sd.heap.empty() && nodes[sd.heap.top().node].stamp[s] != generation) sd.heap.pop();
                if (sd.heap.empty() || !(sd.heap.top().key < best)) continue;
                if (sd.heap.top().key < key) {
                    key = sd.heap.top().key;
                    side = s;
                }
            }
            if (side < 0) return conclude();
            if (stats.expanded >= budget.max_expansions) return exhausted(search::BudgetLimit::Expansions);
            if (has_deadline && (stats.expanded & clock_mask) == 0) {
                if (std::chrono::steady_clock::now() >= budget.deadline) return exhausted(search::BudgetLimit::Time);
                clock_mask = 63;
            }
            if (slice == 0) return Status::InProgress;
            --slice;
            Side& sd = sides[side];
            const auto si = static_cast<std::size_t>(side);
            const std::uint32_t x = sd.heap.top().node;
            sd.heap.pop();
            NodeState& st = nodes[x];
            const double d = st.dist[si];
            st.stamp[si] = generation + 1;  // settled
            ++stats.expanded;
            if (st.stamp[1 - si] >= generation && d + st.dist[1 - si] < best) {
                best = d + st.dist[1 - si];
                cut = std::min(cut, best);
                meet = x;
            }
            if (x >= n) {  // a virtual end: its joins
                const double* length = join_length[si].data();
                const SubgoalGraph& g = *graph;
                stats.generated += sd.ends.size();
                if (const std::uint16_t* id = sd.ends.narrow()) {
                    relax<Limited>(si, sd.ends.size(), x, [&](std::size_t i) {
                        return Relaxed{d + length[i], id[i], g.subgoal_xy(id[i])};
                    });
                } else {
                    const std::uint32_t* wide = sd.ends.wide();
                    relax<Limited>(si, sd.ends.size(), x, [&](std::size_t i) {
                        return Relaxed{d + length[i], wide[i], g.subgoal_xy(wide[i])};
                    });
                }
                continue;
            }
            const auto up = graph->up_edges(x);
            stats.generated += up.size();
            const SubgoalGraph::UpEdge* e = up.data();
            relax<Limited>(si, up.size(), x, [&](std::size_t i) { return Relaxed{d + e[i].length, e[i].target, e[i].xy}; });
        }
    }

    struct Relaxed {
        double d;
        std::uint32_t node;
        std::uint32_t xy;
    };

    // Relaxes `count` edges of side `si` from `parent` (edge(i) gives the i-th target's distance, id and
    // cell), 16 at a time in two passes. The first decides without a branch which relaxations to keep:
    // those that improve their node (not reached yet, or reached or settled at a larger distance) with
    // a key below `cut`, the key being the distance plus the larger of the octile and the landmark bound.
    // Nothing through a node at a key that reaches `cut` can beat the best path known (the key bounds
    // every path through it, meetings included: the other side's distance is at least the bound) or the
    // landmarks' upper bound of the optimum. Every test and bound is computed for every edge: a
    // data-dependent branch per test costs more in mispredictions than the arithmetic. The second pass
    // applies the kept relaxations.
    template <bool Limited, class Edge>
    void relax(std::size_t si, std::size_t count, std::uint32_t parent, Edge edge) {
        Side& side = sides[si];
        struct Candidate {
            double key;
            double d;
            std::uint32_t node;
        };
        Candidate kept[16];
        for (std::size_t first = 0; first < count; first += 16) {
            const std::size_t last = std::min(count, first + 16);
            std::size_t m = 0;
            for (std::size_t i = first; i < last; ++i) {
                const Relaxed r = edge(i);
                const NodeState& st = nodes[r.node];
                const bool improves = (st.stamp[si] < generation) | (r.d < st.dist[si]);
                const double key = r.d + std::max(to(r.xy, side.target_xy), landmark_bound(side, r.node));
                kept[m] = Candidate{key, r.d, r.node};
                m += static_cast<std::size_t>(improves & (key < cut) & (r.node >= transit));
            }
            for (std::size_t j = 0; j < m; ++j) {
                const Candidate c = kept[j];
                if constexpr (Limited)
                    if (side.heap.entries.size() == side.heap.entries.capacity() && !grow_heap(side.heap)) return;
                NodeState& st = nodes[c.node];
                // A settled node is opened again: the landmark bounds are admissible but, rounded, only
                // consistent up to their slack, so a settled node may still improve by a little. As A*
                // does with an inconsistent heuristic, some node of an optimal path then stays open with
                // its optimal distance and a key no larger than the optimal cost, so neither side stops
                // before the optimum is met. An older entry of the node is dropped when popped.
                st.stamp[si] = generation;
                st.dist[si] = c.d;
                st.parent[si] = parent;
                side.heap.push(c.node, c.key);
                if (c.node < n) {  // its first upward edges, read when it is settled
                    const auto up = graph->up_edges(c.node);
                    detail::prefetch_range(up.data(), std::min<std::size_t>(up.size_bytes(), 256));
                }
                if (st.stamp[1 - si] >= generation && c.d + st.dist[1 - si] < best) {
                    best = c.d + st.dist[1 - si];
                    cut = std::min(cut, best);
                    meet = c.node;
                }
            }
        }
    }

    // Route entries: a subgoal's cell (x | y << 16, y below 2^15), with kStraightFirst set when the
    // segment from the previous route point goes straight steps first (diagonal steps first otherwise).
    static constexpr std::uint32_t kStraightFirst = 1u << 31;

    // Calls emit(entry) for each subgoal after the first end of the upward edge `edge` up to its second
    // end (route entries, see kStraightFirst), walked from its lower end or from its upper end down to
    // `low_xy` (its lower end's cell): the precomputed unpacked steps, forwards or backwards.
    template <class Emit>
    void unpack_edge(std::uint32_t edge, std::uint32_t from_low, std::uint32_t low_xy, Emit& emit) const {
        const auto cells = graph->edge_path(edge);
        const std::size_t k = cells.size();
        static_assert(kStraightFirst == SubgoalGraph::kPathStraightFromLow);
        if (from_low) {
            for (std::size_t i = 0; i < k; ++i) emit(cells[i] & ~SubgoalGraph::kPathStraightFromHigh);
            return;
        }
        for (std::size_t i = k; i-- > 0;)
            emit(((i > 0 ? cells[i - 1] : low_xy) & SubgoalGraph::kPathCell) | ((cells[i] & SubgoalGraph::kPathStraightFromHigh) << 16));
    }

    // The number of subgoals of the route of route_edges (route_first_xy included); their unpacked steps
    // are asked of the cache, all at once, so that their misses overlap.
    [[nodiscard]] std::size_t prefetch_route() const {
        const SubgoalGraph& g = *graph;
        std::size_t need = 1;
        for (const std::vector<RouteEdge>& edges : route_edges)
            for (const RouteEdge& e : edges) {
                const auto cells = g.edge_path(e.edge);
                prefetch(cells.data());
                need += cells.size();
            }
        return need;
    }

    // Calls emit(entry) for each subgoal of the route (route_first_xy, then the edges' unpacked steps).
    // The goal's edges are walked down: the lower end of each is the upper end of the one before it (the
    // last step of its unpacked steps), or the goal's join.
    template <class Emit>
    void walk_route(Emit& emit) const {
        const SubgoalGraph& g = *graph;
        emit(route_first_xy);
        for (const RouteEdge& e : route_edges[0]) unpack_edge(e.edge, e.from_low, e.low_xy, emit);
        for (const RouteEdge& e : route_edges[1]) unpack_edge(e.edge, e.from_low, e.low_xy, emit);
        const std::vector<RouteEdge>& down = route_edges[2];
        for (std::size_t i = down.size(); i-- > 0;) {
            const std::uint32_t low = i > 0 ? g.edge_path(down[i - 1].edge).back() & SubgoalGraph::kPathCell : route_join_xy;
            unpack_edge(down[i].edge, 0, low, emit);
        }
    }

    // The join of the cell `node` on the way to its access node `a`: the join whose length plus its own
    // access length to `a` is exactly the cell's (the lists were merged that way at build; step counts
    // compare exactly); with `k` the index of `a`'s entry in the join's access list among all subgoals'
    // entries (when the join is below the transit nodes).
    std::uint32_t climb_join(std::uint32_t node, const SubgoalGraph::Access& a, std::uint32_t hint, std::uint32_t& k) const {
        const SubgoalGraph& g = *graph;
        const std::uint32_t t = g.transit_count();
        const std::uint32_t target = a.node();
        // The entry of `target` in the access list of subgoal v >= t, or nullptr.
        const auto find = [&](std::uint32_t v) -> const SubgoalGraph::Access* {
            const auto list = g.subgoal_access(v);
            const auto it = std::lower_bound(list.begin(), list.end(), target,
                                             [](const SubgoalGraph::Access& e, std::uint32_t x) { return e.node() < x; });
            return it == list.end() || it->node() != target ? nullptr : &*it;
        };
        const GridPoint p = g.point(node);
        const std::uint32_t xy = static_cast<std::uint32_t>(p.x) | static_cast<std::uint32_t>(p.y) << 16;
        // A join on the way is no farther from the access node than the rest of its length: the octile
        // distance rules most joins out before their access lists are read.
        const std::uint32_t target_xy = g.transit_xy(target);
        const double total = Steps{a.straight(), a.diagonal()}.length() + kBoundSlack;
        const auto on_way = [&](std::uint32_t j) {
            const std::uint32_t j_xy = g.subgoal_xy(j);
            const Steps seed = octile_steps(xy, j_xy);
            if (seed.straight > a.straight() || seed.diagonal > a.diagonal() ||
                seed.length() + octile_steps(j_xy, target_xy).length() > total)
                return false;
            if (j < t) return g.transit_position(j) == target && seed.straight == a.straight() && seed.diagonal == a.diagonal();
            const SubgoalGraph::Access* e = find(j);
            if (e == nullptr || seed.straight + e->straight() != a.straight() || seed.diagonal + e->diagonal() != a.diagonal())
                return false;
            k = g.subgoal_access_begin(j) + static_cast<std::uint32_t>(e - g.subgoal_access(j).data());
            return true;
        };
        const auto joins = g.joins(node);
        const std::size_t count = joins.size();
        // The join the entry came through is among those at the hint's index modulo kJoinHintModulus.
        for (std::size_t i = hint; i < count; i += SubgoalGraph::kJoinHintModulus)
            if (on_way(joins[i])) return joins[i];
        // Not reached: the build recorded each entry's own join by its index modulo kJoinHintModulus, and
        // that join passes on_way exactly (its seed plus its own entry are the cell's entry).
        return kNone;
    }

    // The route edges of a table answer: the start's chain from its join up to its access node, the
    // transit nodes' hops to the goal's access node, the goal's chain. The chains are walked in step,
    // one link of each per round, so that their cache misses overlap: a chain's link is the upward edge
    // and the entry each access entry came through; a hop is read from the first-hop table.
    void table_route() const {
        for (std::vector<RouteEdge>& edges : route_edges) edges.clear();
        walk_table_route([this](int part, const RouteEdge& e) { route_edges[part].push_back(e); });
    }
    // table_route()'s walk: calls add(part, edge) for each route edge, in order.
    template <class Add>
    void walk_table_route(Add&& add) const {
        const SubgoalGraph& g = *graph;
        const std::uint32_t t = g.transit_count();
        // Both ends' hints (their joins there were asked of the cache by take_pair()).
        const std::uint32_t hint[2] = {g.access_join_hint(ends[0], table_index[0]), g.access_join_hint(ends[1], table_index[1])};
        std::uint32_t entry[2] = {0, 0};
        const std::uint32_t join[2] = {climb_join(ends[0], table_access[0], hint[0], entry[0]),
                                       climb_join(ends[1], table_access[1], hint[1], entry[1])};
        // Per end: the entry of the next link (kNoEntry at the access node). The lower ends of the goal's
        // edges are read from their unpacked steps when they are walked (walk_route()).
        route_first_xy = g.subgoal_xy(join[0]);
        route_join_xy = g.subgoal_xy(join[1]);
        for (int side = 0; side < 2; ++side)
            if (join[side] < t) entry[side] = SubgoalGraph::kNoEntry;  // the join is the access node
        const std::uint32_t b = table_access[1].node();
        std::uint32_t x = table_access[0].node();
        for (;;) {
            bool more = false;
            for (int side = 0; side < 2; ++side) {
                if (entry[side] == SubgoalGraph::kNoEntry) continue;
                const SubgoalGraph::ClimbLink link = g.climb_link(entry[side]);
                add(2 * side, RouteEdge{link.edge, 0, side == 0 ? 1u : 0u});
                entry[side] = link.next;
                more = true;
            }
            if (x != b) {
                // An upward edge of x, or one of y walked down.
                const std::uint32_t hop = g.transit_hop(x, b), y = (hop >> 1) & 0x3ffu;
                add(1, RouteEdge{hop >> 11, g.transit_xy(y), (hop & 1u) ^ 1u});
                x = y;
                more = true;
            }
            if (!more) break;
        }
    }

    Status finish(GridPath& out) const {
        if (use_fallback || state != Status::Found || detail == PathDetail::CostOnly || (meet == kNone && !via_table))
            out.cells.clear();
        if (use_fallback) return fallback.finish(out);
        if (state != Status::Found) {
            out.cost = std::numeric_limits<double>::infinity();
            return state;
        }
        const SubgoalGraph& g = *graph;
        out.cost = best;
        if (detail == PathDetail::CostOnly) return state;
        const bool waypoints = detail == PathDetail::Waypoints;
        // Segment orders: a join goes diagonal steps first from its end (as the sweep found it), so
        // straight steps first towards the goal; a direct segment as its sweep found it.
        if (meet == kNone && !via_table) {
            out.cells.push_back(g.point(ends[0]));
            if (ends[0] != ends[1])
                SubgoalGraph::write_segment(g.point(ends[0]), g.point(ends[1]), direct_straight_first, waypoints, out.cells);
            return state;
        }
        // Subgoal cells from the start to the goal, shortcuts unpacked.
        if (meet == kNone) {
            table_route();
        } else {
            for (std::vector<RouteEdge>& edges : route_edges) edges.clear();
            // Forward half: the chain from the start's join up to meet.
            chain.clear();
            for (std::uint32_t x = meet; x < n; x = nodes[x].parent[0]) chain.push_back(x);
            std::reverse(chain.begin(), chain.end());
            for (std::size_t i = 1; i < chain.size(); ++i) route_edges[0].push_back(RouteEdge{g.edge_index(chain[i - 1], chain[i]), 0, 1});
            // Backward half: from meet down to the goal's join (each an upward edge of the next one).
            for (std::uint32_t x = meet, p = nodes[x].parent[1]; p < n; x = p, p = nodes[x].parent[1])
                route_edges[1].push_back(RouteEdge{g.edge_index(p, x), g.subgoal_xy(p), 0});
            route_first_xy = g.subgoal_xy(chain[0]);
        }
        const std::size_t route_size = prefetch_route();
        const auto route_point = [](std::uint32_t entry) {
            return GridPoint{static_cast<std::int32_t>(entry & 0xffffu), static_cast<std::int32_t>((entry >> 16) & 0x7fffu)};
        };
        GridPoint previous = g.point(ends[0]);
        if (waypoints) {
            // At most two waypoints per segment (a straight-first one's turning cell, its end).
            // (Written over what out.cells held: only cells past its old size are initialised first.)
            out.cells.resize(2 * route_size + 3);
            out.cells[0] = g.point(ends[0]);
            GridPoint* cell = out.cells.data() + 1;
            auto emit = [&](std::uint32_t entry) {
                const GridPoint p = route_point(entry);
                cell = write_waypoints(previous, p, (entry & kStraightFirst) != 0, cell);
                previous = p;
            };
            walk_route(emit);
            cell = write_waypoints(previous, g.point(ends[1]), true, cell);
            out.cells.resize(static_cast<std::size_t>(cell - out.cells.data()));
            return state;
        }
        // Every cell: each step is at least 1 long, so the path has at most cost + 1 cells; it is sized
        // to that (plus the writer's slack) once, written through a pointer, then cut to what was written.
        out.cells.resize(static_cast<std::size_t>(best + 0.5) + 2 + kWriteSlack);
        out.cells[0] = g.point(ends[0]);
        RunWriter writer(previous, out.cells.data() + 1);
        auto emit = [&](std::uint32_t entry) { writer.segment(route_point(entry), (entry & kStraightFirst) != 0); };
        walk_route(emit);
        writer.segment(g.point(ends[1]), true);
        GridPoint* const cell = writer.end();
        out.cells.resize(static_cast<std::size_t>(cell - out.cells.data()));
        return state;
    }
};

SubgoalPathfinder::SubgoalPathfinder() : m_impl(std::make_unique<Impl>()) {}
SubgoalPathfinder::~SubgoalPathfinder() = default;
SubgoalPathfinder::SubgoalPathfinder(SubgoalPathfinder&&) noexcept = default;
SubgoalPathfinder& SubgoalPathfinder::operator=(SubgoalPathfinder&&) noexcept = default;

JpsSupport SubgoalPathfinder::build(const GridMap& map, std::size_t max_memory_bytes, std::uint32_t transit_nodes,
                                    std::chrono::steady_clock::time_point deadline) {
    (void)m_impl->invalid();  // a search on the owned graph must not outlive its rebuild
    const JpsSupport result = m_impl->owned.build(map, max_memory_bytes, transit_nodes, deadline);
    if (m_impl->owned.built()) m_impl->size_for(m_impl->owned);
    return result;
}

const SubgoalGraph& SubgoalPathfinder::graph() const noexcept { return m_impl->owned; }

void SubgoalPathfinder::reserve(const SubgoalGraph& graph) {
    if (graph.built()) m_impl->size_for(graph);
}

Status SubgoalPathfinder::begin(const GridMap& map, GridPoint start, GridPoint goal, const GridSearchOptions& options) {
    if (m_impl->owned.in_sync(map)) return m_impl->begin(m_impl->owned, &map, start, goal, options);
    (void)m_impl->invalid();
    if (detail::has_query_costs(options)) return Status::InvalidQuery;
    // The fallback's search state shares the budget with what the query's own arrays hold.
    GridSearchOptions fallback_options = options;
    if (std::size_t& cap = fallback_options.budget.max_memory_bytes; cap != SIZE_MAX) {
        const std::size_t own = m_impl->query_bytes();
        cap = own > cap ? 0 : cap - own;
    }
    const Status s = m_impl->fallback.begin(map, start, goal, fallback_options);
    m_impl->use_fallback = true;
    ++m_impl->fallbacks;
    return s;
}

Status SubgoalPathfinder::begin(const SubgoalGraph& graph, GridPoint start, GridPoint goal, const GridSearchOptions& options) {
    return m_impl->begin(graph, nullptr, start, goal, options);
}

Status SubgoalPathfinder::step(std::uint64_t slice_expansions) {
    if (m_impl->use_fallback) return m_impl->fallback.step(slice_expansions);
    return m_impl->step(slice_expansions);
}

Status SubgoalPathfinder::finish(GridPath& out) const { return m_impl->finish(out); }

Status SubgoalPathfinder::find_path(const GridMap& map, GridPoint start, GridPoint goal, const GridSearchOptions& options,
                                    GridPath& out) {
    if (begin(map, start, goal, options) == Status::InProgress) step();
    return finish(out);
}

Status SubgoalPathfinder::status() const noexcept {
    return m_impl->use_fallback ? m_impl->fallback.status() : m_impl->state;
}

search::BudgetLimit SubgoalPathfinder::budget_limit() const noexcept {
    return m_impl->use_fallback ? m_impl->fallback.budget_limit() : m_impl->limit;
}

const search::SearchStats& SubgoalPathfinder::stats() const noexcept {
    return m_impl->use_fallback ? m_impl->fallback.stats() : m_impl->stats;
}

double SubgoalPathfinder::cost() const noexcept {
    const Impl& impl = *m_impl;
    if (impl.use_fallback) return impl.fallback.cost();
    return impl.state == Status::Found ? impl.best : std::numeric_limits<double>::infinity();
}

std::uint64_t SubgoalPathfinder::fallback_count() const noexcept { return m_impl->fallbacks; }

std::size_t SubgoalPathfinder::memory_bytes() const noexcept { return m_impl->memory_bytes(); }

}  // namespace gameplan::path
