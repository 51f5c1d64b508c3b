// Navigation meshes and Polyanya on the shared MovingAI maps, beside grid A*.
//
//   navmesh_summary/<map>  one pass: mesh build CPU time, polygons, vertices, edges, memory; then every
//                          k-th scenario (at most 400) answered by grid A* (GridPathfinder, 8-connected,
//                          no corner cutting) and by NavmeshPathfinder between the cells' centres, timed
//                          side by side in thread CPU time (so load from other processes does not skew
//                          the ratio; the cost of reading the clock is subtracted, and a pair with a
//                          query under 100 us is timed again, each query repeated to take about 100 us);
//                          mean microseconds of each, the speedup, and how much shorter the any-angle
//                          paths are than the 8-connected optimum (mean %).
//   navmesh/<map>          one query per iteration, cycling through the scenarios; counters: expansions
//                          and generated nodes per query and a cost checksum (so a speedup cannot
//                          silently change paths).
//   navmesh_build/<map>    one full mesh build per iteration.
//   navmesh_queue/<map>/<lanes>  every k-th scenario (at most 400) through a NavmeshRequestQueue with 256
//                          expansions per update and 1 or 4 lanes, then the same requests by direct
//                          find_path calls, alternately in each iteration (thread CPU time): microseconds
//                          per request each way, their ratio (`queue_cost`), updates per request, and
//                          `updates_over_budget` and `mismatch` (a result whose status, cost or
//                          expansions differ from the direct call's), both must be 0.
//   navmesh_ch_summary/<map>  the preprocessed tier (NavmeshHierarchy): its build (CPU time, MiB, nodes,
//                          edges, shortcuts), then the same sampled scenarios answered by grid A*, Polyanya
//                          and the hierarchy back to back in thread CPU time (short triples timed again,
//                          repeated, as above); mean microseconds of each, the hierarchy's speedup over A*
//                          (`speedup`; `speedup_short` and `speedup_long` over the quarter of the queries
//                          with the shortest and the longest 8-connected optimum)
//                          and over Polyanya, and `mismatch`: queries whose hierarchy cost differs from
//                          Polyanya's by more than 1e-6 (relative) or whose status differs (must be 0).
//   navmesh_ch_landmarks/<map>/<count>  the same as navmesh_ch_summary with `count` landmarks (16, 32, 64,
//                          128; the default is 32) on maps where the hierarchy picks landmarks (elsewhere the
//                          count changes nothing): how settled corners, query time, build time and memory
//                          trade against each other.
//   navmesh_ch_bounds/<map>  (maps where the hierarchy picks landmarks) how many corners a query must
//                          settle under each lower bound of the distance left, from exact distances: for
//                          every k-th scenario (at most 100), Dijkstra over the whole graph from the
//                          corners the start sees and from those the goal sees gives d(start, v) and
//                          d(v, goal) for every corner v and the best length C. Counted per query: corners
//                          with d(start, v) + bound(v) below C by more than 1e-6 of C, which A* must
//                          settle, for the straight line (`straight`), the query's four landmarks as the
//                          search uses them (`landmarks`, beside `settled`, what the search settles, and
//                          `landmark_ties`, corners whose distance plus bound is C to 1e-6, which A* may
//                          settle or not: ties, and the rounding of the stored landmark distances), every
//                          landmark (`all_landmarks`); a bidirectional search with the average of both
//                          sides' bounds (`bidirectional` with the four landmarks, `bidirectional_all`
//                          with every one: corners within half the best reduced length from either side,
//                          both counted); corners on a shortest path (`on_best_path`: what an exact bound
//                          settles); and of the `landmarks` corners those that reach-based pruning would
//                          keep even with reaches measured from only 100 sampled corners (`reach_kept`:
//                          reach(v) >= min(d(start, v), bound(v)); the true reaches are at least as large,
//                          so at least as many are kept). `mismatch` (must be 0): queries whose Dijkstra
//                          length differs from the search's. Takes about 30 s on random512-10-0.
#include <gameplan/io/load_error.hpp>
#include <gameplan/io/movingai.hpp>
#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/grid_search.hpp>
#include <gameplan/path/navmesh.hpp>
#include <gameplan/path/navmesh_hierarchy.hpp>
#include <gameplan/path/request_queue_navmesh.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <numeric>
#include <span>
#include <string>
#include <vector>

using namespace gameplan;
using namespace gameplan::path;

namespace {

struct MapData {
    GridMap map;
    std::vector<io::Scenario> scenarios;
    Navmesh mesh;
};

const MapData* load(const std::string& set, const std::string& name) {
    static std::map<std::string, std::unique_ptr<MapData>> cache;
    auto& slot = cache[name];
    if (!slot) {
        slot = std::make_unique<MapData>();
        const std::filesystem::path root = std::filesystem::path(GAMEPLAN_BENCHMARK_DATA_DIR) / "movingai";
        try {
            slot->map = io::load_movingai_map(root / "maps" / set / (name + ".map"));
            slot->scenarios = io::load_movingai_scenarios(root / "scenarios" / set / (name + ".map.scen")).scenarios;
            (void)slot->mesh.build(slot->map);
        } catch (const io::LoadError&) {
            slot->scenarios.clear();
        }
    }
    return slot->map.empty() || slot->scenarios.empty() ? nullptr : slot.get();
}

double cpu_micros() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e6 + static_cast<double>(ts.tv_nsec) / 1e3;
}

// The cost of one read of the thread CPU clock: the median of many back-to-back reads, measured once.
double clock_read_us() {
    static const double cost = [] {
        std::array<double, 401> gaps{};
        double last = cpu_micros();
        for (double& gap : gaps) {
            const double now = cpu_micros();
            gap = now - last;
            last = now;
        }
        std::nth_element(gaps.begin(), gaps.begin() + gaps.size() / 2, gaps.end());
        return gaps[gaps.size() / 2];
    }();
    return cost;
}

// Runs each search once, back to back, and returns the thread CPU microseconds of each. Each interval
// between two clock reads also holds one read of the clock (about 1.3 us here), which would swamp
// queries of a few microseconds: that cost, measured once (clock_read_us), is subtracted from every
// interval, and when the quickest search took under 100 us, each search is timed again, repeated to
// take about 100 us. Both corrections apply alike to every search timed (A*, Polyanya, the hierarchy):
// they take the clock's own cost out of each time, which otherwise weighs most on the quickest search.
template <class... Runs>
std::array<double, sizeof...(Runs)> time_side_by_side(Runs&... runs) {
    constexpr std::size_t n = sizeof...(Runs);
    const double read = clock_read_us();
    std::array<double, n + 1> clock{};
    std::array<double, n> us{};
    std::size_t k = 0;
    clock[0] = cpu_micros();
    ((benchmark::DoNotOptimize(runs()), clock[++k] = cpu_micros()), ...);
    for (std::size_t i = 0; i < n; ++i) us[i] = std::max(0.0, clock[i + 1] - clock[i] - read);
    const double shortest = *std::min_element(us.begin(), us.end());
    if (shortest < 100.0) {
        const int reps = int(std::min(4000.0, std::ceil(100.0 / std::max(shortest, 0.05))));
        const auto repeat = [reps](auto& run) {
            for (int r = 0; r < reps; ++r) benchmark::DoNotOptimize(run());
        };
        k = 0;
        clock[0] = cpu_micros();
        ((repeat(runs), clock[++k] = cpu_micros()), ...);
        for (std::size_t i = 0; i < n; ++i) us[i] = std::max(0.0, clock[i + 1] - clock[i] - read) / reps;
    }
    return us;
}

struct MapArg {
    const char* set;
    const char* name;
};
const MapArg kMaps[] = {
    {"mazes", "maze512-1-0"}, {"mazes", "maze512-8-0"}, {"random", "random512-10-0"}, {"random", "random512-40-0"},
    {"rooms", "16room_000"},  {"sc1", "Aftershock"},    {"bg512", "AR0011SR"},         {"dao", "brc202d"},
    {"dao", "arena"},         {"dao", "den312d"},       {"dao", "lak303d"},            {"dao", "orz900d"},
};

void summary(benchmark::State& state, MapArg arg) {
    const MapData* data = load(arg.set, arg.name);
    if (!data) return state.SkipWithError("benchmark data not found (GAMEPLAN_BENCHMARK_DATA_DIR)");
    for (auto _ : state) {
        Navmesh mesh;
        const double b0 = cpu_micros();
        (void)mesh.build(data->map);
        const double build_ms = (cpu_micros() - b0) / 1e3;
        GridPathfinder astar;
        NavmeshPathfinder polyanya;
        GridPath grid_path;
        NavmeshPath any_path;
        double astar_us = 0, navmesh_us = 0, shorter = 0, expanded = 0;
        std::size_t timed = 0, mismatched = 0;
        const std::size_t stride = std::max<std::size_t>(1, data->scenarios.size() / 400);
        for (std::size_t i = 0; i < data->scenarios.size(); i += stride) {
            const io::Scenario& s = data->scenarios[i];
            Status a = Status::InvalidQuery, n = Status::InvalidQuery;
            const auto run_astar = [&] { return a = astar.find_path(data->map, s.start, s.goal, {}, grid_path); };
            const auto run_navmesh = [&] {
                return n = polyanya.find_path(mesh, cell_centre(s.start), cell_centre(s.goal), {}, any_path);
            };
            const auto [ta, tn] = time_side_by_side(run_astar, run_navmesh);
            astar_us += ta;
            navmesh_us += tn;
            expanded += double(polyanya.stats().expanded);
            mismatched += a != n;
            if (a == Status::Found && n == Status::Found && grid_path.cost > 0)
                shorter += 1.0 - any_path.cost / grid_path.cost;
            ++timed;
        }
        const double count = double(timed);
        state.counters["build_ms"] = build_ms;
        state.counters["polygons"] = double(mesh.polygon_count());
        state.counters["vertices"] = double(mesh.vertices().size());
        state.counters["edges"] = double(mesh.edges().size());
        state.counters["memory_MB"] = double(mesh.memory_bytes()) / (1 << 20);
        state.counters["cells"] = double(data->map.cell_count());
        state.counters["queries"] = count;
        state.counters["astar_us"] = astar_us / count;
        state.counters["navmesh_us"] = navmesh_us / count;
        state.counters["speedup"] = astar_us / navmesh_us;
        state.counters["shorter_%"] = 100.0 * shorter / count;
        state.counters["expanded"] = expanded / count;
        state.counters["status_mismatch"] = double(mismatched);
    }
}

// `landmarks`: the landmark count of the build (0: the default).
void ch_summary(benchmark::State& state, MapArg arg, std::uint32_t landmarks) {
    const MapData* data = load(arg.set, arg.name);
    if (!data) return state.SkipWithError("benchmark data not found (GAMEPLAN_BENCHMARK_DATA_DIR)");
    for (auto _ : state) {
        NavmeshHierarchy hierarchy;
        if (landmarks > 0) hierarchy.set_landmark_count(landmarks);
        const double b0 = cpu_micros();
        if (hierarchy.build(data->mesh) != JpsSupport::Ok) return state.SkipWithError("hierarchy build failed");
        const double build_ms = (cpu_micros() - b0) / 1e3;
        GridPathfinder astar;
        NavmeshPathfinder polyanya;
        NavmeshHierarchyPathfinder ch;
        GridPath grid_path;
        NavmeshPath any_path, ch_path;
        double astar_us = 0, navmesh_us = 0, ch_us = 0, settled = 0, generated = 0;
        std::size_t timed = 0, mismatched = 0;
        struct ByLength {
            double optimal, astar_us, ch_us;
        };
        std::vector<ByLength> by_length;  // for the speedup over the shortest and the longest quarter
        const std::size_t stride = std::max<std::size_t>(1, data->scenarios.size() / 400);
        for (std::size_t i = 0; i < data->scenarios.size(); i += stride) {
            const io::Scenario& s = data->scenarios[i];
            const NavPoint from = cell_centre(s.start), to = cell_centre(s.goal);
            Status n = Status::InvalidQuery, c = Status::InvalidQuery;
            const auto run_astar = [&] { return astar.find_path(data->map, s.start, s.goal, {}, grid_path); };
            const auto run_navmesh = [&] { return n = polyanya.find_path(data->mesh, from, to, {}, any_path); };
            const auto run_ch = [&] { return c = ch.find_path(hierarchy, from, to, {}, ch_path); };
            const auto [ta, tn, tc] = time_side_by_side(run_astar, run_navmesh, run_ch);
            by_length.push_back({s.optimal, ta, tc});
            astar_us += ta;
            navmesh_us += tn;
            ch_us += tc;
            settled += double(ch.stats().expanded);
            generated += double(ch.stats().generated);
            mismatched += n != c || (n == Status::Found &&
                                     std::abs(any_path.cost - ch_path.cost) > 1e-6 * std::max(1.0, any_path.cost));
            ++timed;
        }
        const double count = double(timed);
        state.counters["build_ms"] = build_ms;
        state.counters["MiB"] = double(hierarchy.memory_bytes()) / (1 << 20);
        state.counters["nodes"] = double(hierarchy.node_count());
        state.counters["graph_edges"] = double(hierarchy.graph_edge_count());
        state.counters["up_edges"] = double(hierarchy.upward_edge_count());
        state.counters["shortcuts"] = double(hierarchy.shortcut_count());
        state.counters["core"] = double(hierarchy.core_count());
        state.counters["queries"] = count;
        state.counters["astar_us"] = astar_us / count;
        state.counters["navmesh_us"] = navmesh_us / count;
        state.counters["ch_us"] = ch_us / count;
        state.counters["speedup"] = astar_us / ch_us;
        state.counters["vs_polyanya"] = navmesh_us / ch_us;
        // The speedup over the quarter of the sampled queries with the shortest and the longest 8-connected
        // optimum: how the ratio depends on a query's length.
        std::sort(by_length.begin(), by_length.end(), [](const ByLength& a, const ByLength& b) { return a.optimal < b.optimal; });
        const std::size_t quarter = std::max<std::size_t>(1, by_length.size() / 4);
        const auto speedup_of = [&](std::size_t first, std::size_t last) {
            double a = 0, c = 0;
            for (std::size_t q = first; q < last; ++q) a += by_length[q].astar_us, c += by_length[q].ch_us;
            return a / c;
        };
        state.counters["speedup_short"] = speedup_of(0, quarter);
        state.counters["speedup_long"] = speedup_of(by_length.size() - quarter, by_length.size());
        state.counters["settled"] = settled / count;
        state.counters["generated"] = generated / count;
        state.counters["mismatch"] = double(mismatched);
    }
}

}  // namespace

// White-box reads of the hierarchy and of a query's seeds and landmarks (friend of both classes).
struct gameplan::path::detail::NavmeshHierarchyInspector {
    // Dijkstra over the whole graph from `seeds` (node, distance): `dist` per node, `order` settled order,
    // `parent` per node (UINT32_MAX for a seed).
    static void dijkstra(const NavmeshHierarchy& h, std::span<const std::pair<std::uint32_t, double>> seeds,
                         std::vector<double>& dist, std::vector<std::uint32_t>& order, std::vector<std::uint32_t>& parent) {
        const std::size_t n = h.node_count();
        dist.assign(n, INFINITY);
        parent.assign(n, UINT32_MAX);
        order.clear();
        using Entry = std::pair<double, std::uint32_t>;
        std::vector<Entry> heap;
        const auto push = [&](double d, std::uint32_t v) {
            heap.emplace_back(d, v);
            std::push_heap(heap.begin(), heap.end(), std::greater<>());
        };
        for (const auto& [v, d] : seeds)
            if (d < dist[v]) dist[v] = d, push(d, v);
        while (!heap.empty()) {
            std::pop_heap(heap.begin(), heap.end(), std::greater<>());
            const auto [d, v] = heap.back();
            heap.pop_back();
            if (d > dist[v]) continue;
            order.push_back(v);
            for (std::uint32_t e = h.m_edge_offsets[v]; e < h.m_edge_offsets[v + 1]; ++e) {
                const auto& edge = h.m_edges[e];
                const double to = d + std::sqrt(double(edge.dx) * edge.dx + double(edge.dy) * edge.dy);
                if (to < dist[edge.to]) dist[edge.to] = to, parent[edge.to] = v, push(to, edge.to);
            }
        }
    }
    // The corners the query's goal sees and at which a path can turn, with their distances to it.
    static std::vector<std::pair<std::uint32_t, double>> goal_seeds(const NavmeshHierarchyPathfinder& f) {
        std::vector<std::pair<std::uint32_t, double>> seeds;
        for (const std::uint32_t v : f.m_goal_seeds) seeds.emplace_back(v, f.m_label[1][v].dist);
        return seeds;
    }
    static bool direct(const NavmeshHierarchyPathfinder& f) { return f.m_direct; }
    // The landmarks' distances to the query's goal (as its sweep computed them: through the goal's seeds).
    static const std::vector<double>& to_goal(const NavmeshHierarchyPathfinder& f) { return f.m_to_goal; }
    // The landmarks the query uses.
    static std::vector<std::size_t> active(const NavmeshHierarchyPathfinder& f) {
        return {f.m_active, f.m_active + f.m_active_count};
    }
};

namespace {

double dist(NavPoint a, NavPoint b) { return std::hypot(a.x - b.x, a.y - b.y); }

// A lower bound of d(v, end): the straight line `straight`, or for a landmark l of `use` the difference
// |d(l, end) - d(l, v)|, `to_end` holding the d(l, end).
double landmark_bound(const NavmeshHierarchy& h, const std::vector<double>& to_end, const std::vector<std::size_t>& use,
                      std::uint32_t v, double straight) {
    double b = straight;
    for (const std::size_t l : use) {
        const double fv = h.landmark_distance(l, v), fe = to_end[l];
        if (fe < INFINITY && fv < INFINITY) b = std::max(b, std::abs(fe - fv));
    }
    return b;
}

void bounds(benchmark::State& state, MapArg arg) {
    using Inspector = detail::NavmeshHierarchyInspector;
    const MapData* data = load(arg.set, arg.name);
    if (!data) return state.SkipWithError("benchmark data not found (GAMEPLAN_BENCHMARK_DATA_DIR)");
    for (auto _ : state) {
        NavmeshHierarchy h;
        if (h.build(data->mesh) != JpsSupport::Ok) return state.SkipWithError("hierarchy build failed");
        if (h.method() != NavmeshHierarchy::Method::Landmarks) return state.SkipWithError("the hierarchy is contracted on this map");
        const std::size_t n = h.node_count();
        std::vector<double> ds, dt, height(n);
        std::vector<std::uint32_t> order, parent;
        // Reach lower bounds: for each sampled source, each corner's min(distance from the source, height of
        // its subtree in the shortest-path tree).
        std::vector<double> reach(n, 0.0);
        std::uint64_t rng = 0x9e3779b97f4a7c15u;
        for (int sample = 0; sample < 100; ++sample) {
            rng = rng * 6364136223846793005u + 1442695040888963407u;
            const std::pair<std::uint32_t, double> source{std::uint32_t((rng >> 33) % n), 0.0};
            Inspector::dijkstra(h, std::span(&source, 1), ds, order, parent);
            for (const std::uint32_t v : order) height[v] = 0.0;
            for (std::size_t k = order.size(); k-- > 0;) {
                const std::uint32_t v = order[k];
                reach[v] = std::max(reach[v], std::min(ds[v], height[v]));
                if (parent[v] != UINT32_MAX) height[parent[v]] = std::max(height[parent[v]], height[v] + ds[v] - ds[parent[v]]);
            }
        }
        std::vector<std::size_t> every(h.landmarks().size());
        std::iota(every.begin(), every.end(), std::size_t(0));
        NavmeshHierarchyPathfinder forward, backward;
        NavmeshPath path;
        double queries = 0, settled = 0, straight = 0, landmarks = 0, all_landmarks = 0, landmark_ties = 0, bidirectional = 0, bidirectional_all = 0, on_best = 0,
               reach_kept = 0, mismatch = 0;
        const std::size_t stride = std::max<std::size_t>(1, data->scenarios.size() / 100);
        for (std::size_t i = 0; i < data->scenarios.size(); i += stride) {
            const NavPoint s = cell_centre(data->scenarios[i].start), t = cell_centre(data->scenarios[i].goal);
            if (forward.find_path(h, s, t, {}, path) != Status::Found || Inspector::direct(forward)) continue;
            const double cost = path.cost;
            settled += double(forward.stats().expanded);
            (void)forward.begin(h, s, t, {});   // the goal's seeds, the landmarks used, their distances to the goal
            (void)backward.begin(h, t, s, {});  // the start's seeds and the landmarks' distances to the start
            const std::vector<std::size_t> use = Inspector::active(forward);
            const std::vector<double>&to_t = Inspector::to_goal(forward), &to_s = Inspector::to_goal(backward);
            const auto start_seeds = Inspector::goal_seeds(backward), goal_seeds = Inspector::goal_seeds(forward);
            Inspector::dijkstra(h, goal_seeds, dt, order, parent);
            Inspector::dijkstra(h, start_seeds, ds, order, parent);
            double best = INFINITY;
            for (const auto& [v, d] : goal_seeds) best = std::min(best, ds[v] + d);
            if (std::abs(best - cost) > 1e-6 * cost) {
                mismatch += 1;
                continue;
            }
            // Below the best length by more than 1e-6 of it (closer: ties, counted apart for the four landmarks);
            // half the best length in reduced costs, less the same. The bidirectional potential p is
            // dist(s, t) / 2 at the start and -dist(s, t) / 2 at the goal.
            const double p_start = dist(s, t) / 2;
            const double below = best * (1 - 1e-6), half = best / 2 - p_start - best * 0.5e-6;
            queries += 1;
            for (std::uint32_t v = 0; v < n; ++v) {
                if (!(ds[v] < INFINITY)) continue;
                const NavPoint p{double(h.nodes()[v].x), double(h.nodes()[v].y)};
                const double to_goal = dist(p, t), to_start = dist(p, s);
                const double b4 = landmark_bound(h, to_t, use, v, to_goal);
                straight += ds[v] + to_goal < below;
                if (ds[v] + b4 < below) {
                    landmarks += 1;
                    reach_kept += reach[v] >= std::min(ds[v], b4);
                } else if (ds[v] + b4 <= best * (1 + 1e-6)) {
                    landmark_ties += 1;
                }
                const double b_all = landmark_bound(h, to_t, every, v, to_goal);
                all_landmarks += ds[v] + b_all < below;
                // reduced lengths from the start and from the goal
                const double p4 = (b4 - landmark_bound(h, to_s, use, v, to_start)) / 2;
                bidirectional += (ds[v] + p4 - p_start < half) + (dt[v] - p4 - p_start < half);
                const double p_all = (b_all - landmark_bound(h, to_s, every, v, to_start)) / 2;
                bidirectional_all += (ds[v] + p_all - p_start < half) + (dt[v] - p_all - p_start < half);
                on_best += ds[v] + dt[v] <= best * (1 + 1e-9);
            }
        }
        state.counters["queries"] = queries;
        state.counters["settled"] = settled / queries;
        state.counters["straight"] = straight / queries;
        state.counters["landmarks"] = landmarks / queries;
        state.counters["landmark_ties"] = landmark_ties / queries;
        state.counters["all_landmarks"] = all_landmarks / queries;
        state.counters["bidirectional"] = bidirectional / queries;
        state.counters["bidirectional_all"] = bidirectional_all / queries;
        state.counters["on_best_path"] = on_best / queries;
        state.counters["reach_kept"] = reach_kept / queries;
        state.counters["mismatch"] = mismatch;
    }
}

void queries(benchmark::State& state, MapArg arg) {
    const MapData* data = load(arg.set, arg.name);
    if (!data) return state.SkipWithError("benchmark data not found (GAMEPLAN_BENCHMARK_DATA_DIR)");
    NavmeshPathfinder finder;
    NavmeshPath path;
    std::size_t i = 0;
    double checksum = 0, expanded = 0, generated = 0, count = 0;
    for (auto _ : state) {
        const io::Scenario& s = data->scenarios[i];
        i = (i + 1) % data->scenarios.size();
        (void)finder.find_path(data->mesh, cell_centre(s.start), cell_centre(s.goal), {}, path);
        checksum += path.cost;
        expanded += double(finder.stats().expanded);
        generated += double(finder.stats().generated);
        count += 1;
    }
    state.counters["expanded"] = expanded / count;
    state.counters["generated"] = generated / count;
    state.counters["cost_checksum"] = checksum;
}

void build(benchmark::State& state, MapArg arg) {
    const MapData* data = load(arg.set, arg.name);
    if (!data) return state.SkipWithError("benchmark data not found (GAMEPLAN_BENCHMARK_DATA_DIR)");
    Navmesh mesh;
    for (auto _ : state) {
        (void)mesh.build(data->map);
        benchmark::DoNotOptimize(mesh.polygon_count());
    }
    state.counters["polygons"] = double(mesh.polygon_count());
}

void queue(benchmark::State& state, MapArg arg, std::uint32_t lanes) {
    const MapData* data = load(arg.set, arg.name);
    if (!data) return state.SkipWithError("benchmark data not found (GAMEPLAN_BENCHMARK_DATA_DIR)");
    constexpr std::uint64_t kBudget = 256;
    const std::size_t step = std::max<std::size_t>(1, data->scenarios.size() / 400);
    std::vector<NavmeshRequest> requests;
    for (std::size_t i = 0; i < data->scenarios.size(); i += step)
        requests.push_back({cell_centre(data->scenarios[i].start), cell_centre(data->scenarios[i].goal), {}, 0});
    NavmeshRequestQueue q(data->mesh, QueueOptions{lanes, 0, true});
    q.reserve(requests.size(), 256);
    std::vector<NavmeshRequestResult> results(requests.size());
    NavmeshPathfinder direct;
    NavmeshPath path;
    double queue_us = 0, direct_us = 0, updates = 0, over_budget = 0, mismatch = 0, count = 0;
    for (auto _ : state) {
        double t0 = cpu_micros();
        std::vector<PathHandle> handles;
        handles.reserve(requests.size());
        for (const NavmeshRequest& r : requests) handles.push_back(q.submit(r));
        while (q.size() > 0) {
            const QueueUpdateStats stats = q.update(kBudget);
            over_budget += stats.expanded > kBudget;
            ++updates;
            for (const PathHandle h : q.completed()) (void)q.take(h, results[h.index]);
        }
        queue_us += cpu_micros() - t0;
        t0 = cpu_micros();
        for (std::size_t i = 0; i < requests.size(); ++i) {
            const Status st = direct.find_path(data->mesh, requests[i].start, requests[i].goal, {}, path);
            const NavmeshRequestResult& r = results[handles[i].index];
            mismatch += st != r.status || path.cost != r.path.cost || direct.stats().expanded != r.expanded;
        }
        direct_us += cpu_micros() - t0;
        count += double(requests.size());
    }
    state.counters["queue_us"] = queue_us / count;
    state.counters["direct_us"] = direct_us / count;
    state.counters["queue_cost"] = queue_us / direct_us;
    state.counters["updates_per_request"] = updates / count;
    state.counters["updates_over_budget"] = over_budget;
    state.counters["mismatch"] = mismatch;
}

const bool registered = [] {
    for (const MapArg& m : kMaps) {
        benchmark::RegisterBenchmark((std::string("navmesh_summary/") + m.name).c_str(), summary, m)
            ->Iterations(1)
            ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark((std::string("navmesh_ch_summary/") + m.name).c_str(), ch_summary, m, 0u)
            ->Iterations(1)
            ->Unit(benchmark::kMillisecond);
        for (const std::uint32_t landmarks : {16u, 32u, 64u, 128u})
            benchmark::RegisterBenchmark((std::string("navmesh_ch_landmarks/") + m.name + "/" + std::to_string(landmarks)).c_str(),
                                         ch_summary, m, landmarks)
                ->Iterations(1)
                ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark((std::string("navmesh_ch_bounds/") + m.name).c_str(), bounds, m)
            ->Iterations(1)
            ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark((std::string("navmesh/") + m.name).c_str(), queries, m)->Unit(benchmark::kMicrosecond);
        benchmark::RegisterBenchmark((std::string("navmesh_build/") + m.name).c_str(), build, m)->Unit(benchmark::kMillisecond);
        for (const std::uint32_t lanes : {1u, 4u})
            benchmark::RegisterBenchmark((std::string("navmesh_queue/") + m.name + "/" + std::to_string(lanes)).c_str(), queue, m, lanes)
                ->Iterations(3)
                ->Unit(benchmark::kMillisecond);
    }
    return true;
}();

}  // namespace

BENCHMARK_MAIN();
