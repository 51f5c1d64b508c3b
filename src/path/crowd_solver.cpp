// One-shot multi-agent pathfinding: LaCAM (lazy constraints, depth-first search over configurations)
// with PIBT (+ swap) as the configuration generator; anytime improvement by a large neighbourhood search.
// See crowd.hpp for the contract.
#include <gameplan/path/crowd.hpp>

#include "sipp.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>

namespace gameplan::path {

namespace {
constexpr std::uint32_t kNil = UINT32_MAX;
constexpr std::uint32_t kFar = UINT32_MAX / 4;

std::uint64_t splitmix(std::uint64_t x) noexcept {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}
}  // namespace

void CrowdSolution::path(std::uint32_t agent, std::vector<GridPoint>& out) const {
    out.clear();
    for (std::uint32_t t = 0; t <= costs[agent]; ++t) out.push_back(at(agent, t));
}

struct CrowdSolver::Impl {
    // ---- instance ----
    const GridMap* map = nullptr;
    std::uint32_t n = 0;  // agents
    std::uint32_t vcount = 0;  // free cells
    std::vector<std::uint32_t> vertex_of_node;  // padded node -> vertex or kNil
    std::vector<std::uint32_t> node_of_vertex;
    std::vector<std::uint32_t> nbr;  // 4 per vertex, kNil padded
    std::vector<std::uint8_t> degree;
    std::vector<std::uint32_t> starts, goals;  // vertices
    std::vector<std::uint32_t> dist;  // n * vcount
    std::vector<std::uint32_t> bfs_queue;
    std::uint64_t lower_bound = 0;
    std::uint32_t unreachable = UINT32_MAX;  // the agent found unable to reach its goal (NoPath at begin)
    CrowdOptions options;
    std::chrono::steady_clock::time_point t_begin;

    // ---- high-level nodes (configurations) ----
    struct HNode {
        std::uint64_t hash = 0;
        std::uint32_t parent = kNil;
        std::uint32_t g = 0;
        std::uint32_t h = 0;
        std::uint32_t ll_head = kNil;  // queue of low-level nodes to try (linked through LNode::next)
        std::uint32_t ll_tail = kNil;
    };
    struct LNode {
        std::uint32_t parent = kNil;  // constraint chain
        std::uint32_t agent = 0;
        std::uint32_t vertex = 0;
        std::uint32_t depth = 0;
        std::uint32_t next = kNil;    // queue link
    };
    std::vector<HNode> hnodes;
    std::vector<std::uint32_t> configs;    // hnodes.size() * n
    std::vector<float> priorities;         // hnodes.size() * n
    std::vector<std::uint16_t> orders;     // hnodes.size() * n
    std::vector<LNode> lnodes;
    std::vector<std::uint32_t> table;      // hash table of hnode ids, power of two, kNil = empty
    std::vector<std::uint32_t> open;       // DFS stack
    std::uint32_t goal_node = kNil;
    std::size_t bytes_per_config = 0;

    // ---- PIBT scratch ----
    std::vector<std::uint32_t> occ_now, occ_next;  // per vertex: agent or kNil
    std::vector<std::uint32_t> v_now, v_next;       // per agent
    std::vector<std::uint32_t> cand;                // 5 per agent
    std::vector<float> tie;                         // per vertex
    std::vector<std::uint32_t> new_config;
    std::vector<float> new_prio;
    std::vector<std::uint32_t> sort_scratch;
    std::uint64_t rng = 0;
    static constexpr std::uint64_t kPreferFreeCalls = 2000;
    static constexpr std::uint64_t kPreferFreeRevisits = 500;
    static constexpr std::uint64_t kRandomCalls = 2000;
    static constexpr std::uint64_t kNever = UINT64_MAX;
    bool prefer_free = true;     // PIBT tie-breaking: free cells first (false: at random)
    std::uint64_t switched_at = kNever, restarted_at = kNever;  // generator calls at the switch, the restart
    std::uint64_t revisits = 0;  // generated configurations that were known already

    // ---- state ----
    Status status = Status::NoPath;
    search::BudgetLimit limit = search::BudgetLimit::None;  // which limit ended the solve (BudgetExhausted)
    // The smaller of options.max_memory_bytes and options.budget.max_memory_bytes, less the distance
    // tables once begin has counted them: the room left for the stored configurations.
    std::size_t memory_cap = 0;
    CrowdStats stats;
    std::chrono::steady_clock::time_point first_time;

    float next_float() noexcept {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        return static_cast<float>(rng >> 40) * (1.0f / 16777216.0f);
    }

    [[nodiscard]] std::uint32_t d(std::uint32_t agent, std::uint32_t v) const noexcept {
        return dist[static_cast<std::size_t>(agent) * vcount + v];
    }
    [[nodiscard]] const std::uint32_t* config(std::uint32_t h) const noexcept {
        return configs.data() + static_cast<std::size_t>(h) * n;
    }

    Status begin(const GridMap& m, std::span<const GridPoint> s, std::span<const GridPoint> g,
                 const CrowdOptions& o);
    void build_graph();
    bool restart();
    void bfs(std::uint32_t agent);
    std::uint64_t hash_config(const std::uint32_t* c) const noexcept;
    std::uint32_t find(const std::uint32_t* c, std::uint64_t hash) const noexcept;
    void insert_table(std::uint32_t h);
    bool add_hnode(const std::uint32_t* c, std::uint32_t parent, std::uint32_t g, std::uint32_t h,
                   const float* prio);
    std::uint32_t edge_cost(const std::uint32_t* a, const std::uint32_t* b) const noexcept;
    std::uint32_t h_value(const std::uint32_t* c) const noexcept;
    void push_lnode(HNode& node, std::uint32_t parent, std::uint32_t agent, std::uint32_t vertex, std::uint32_t depth);
    void expand_lowlevel(std::uint32_t h, std::uint32_t l);
    bool generate(std::uint32_t h, std::uint32_t l);
    bool pibt(std::uint32_t i);
    std::uint32_t swap_partner(std::uint32_t i) const noexcept;
    bool swap_required(std::uint32_t pusher, std::uint32_t puller, std::uint32_t v_pusher,
                       std::uint32_t v_puller) const noexcept;
    bool swap_possible(std::uint32_t v_pusher, std::uint32_t v_puller) const noexcept;
    Status run(std::uint64_t slice);

    // ---- anytime improvement: large neighbourhood search, agents replanned with SIPP ----
    bool lns = false;
    std::vector<std::vector<std::uint32_t>> lpaths;  // per agent: vertices at steps 0..costs[i]
    std::vector<std::uint32_t> costs;                // per agent
    std::uint64_t lns_soc = 0;
    detail::Reservation reserved;
    detail::SippPlanner sipp;
    detail::SippGraph sgraph;
    std::vector<std::vector<std::uint32_t>> saved;   // per neighbourhood slot: a copy of the old path
    std::vector<std::uint32_t> saved_costs, chosen, plan_order;
    std::vector<std::uint8_t> in_set;                // per agent: in the neighbourhood being built
    std::vector<std::uint32_t> tabu;                 // per agent: generation when last chosen as the seed
    std::uint32_t tabu_gen = 1;
    std::vector<std::uint32_t> intersections;        // vertices of degree >= 3
    std::vector<std::uint32_t> seen, bfs_list;       // intersection neighbourhood: BFS stamps and queue
    std::uint32_t seen_gen = 0;
    std::uint32_t lns_step = 0;                      // 0: prioritized planning attempts, then ALNS
    std::vector<std::uint32_t> sweep_order;
    std::uint32_t sweep_next = 0;                    // next position in sweep_order
    void sort_sweep();
    void pick_sweep();
    // Adaptive LNS: one weight per neighbourhood method and per neighbourhood size, each a running
    // average of the sum-of-costs decrease per 1,000 SIPP expansions (a deterministic measure of work)
    static constexpr std::uint32_t kMethods = 4;     // delayed agent + blockers, intersection, random, sweep
    static constexpr std::uint32_t kSizes = 4;
    static constexpr std::uint32_t kSize[kSizes] = {2, 3, 4, 8};
    double weights[kMethods] = {1, 1, 1, 1};
    double size_weights[kSizes] = {1, 1, 1, 1};
    std::uint64_t replan_work = 0;                   // SIPP expansions of the last replan()
    std::uint32_t roulette(const double* w, std::uint32_t count) noexcept {
        double top = 0, total = 0;
        for (std::uint32_t i = 0; i < count; ++i) top = std::max(top, w[i]);
        const double floor = 0.05 * top + 1e-9;  // every choice keeps a chance
        for (std::uint32_t i = 0; i < count; ++i) total += std::max(w[i], floor);
        double r = static_cast<double>(next_float()) * total;
        std::uint32_t i = 0;
        while (i + 1 < count && r >= std::max(w[i], floor)) r -= std::max(w[i++], floor);
        return i;
    }
    void start_lns();
    std::uint64_t replan(bool keep_order = false);
    std::uint32_t failed_agent = kNil;               // agent whose search failed in the last replan()
    std::vector<std::uint32_t> pp_order;             // full prioritized planning: agent order
    std::uint32_t pp_attempts = 0;
    bool pp_longest_first = false;
    static constexpr std::uint32_t kPlanAttempts = 10;
    void pick_delayed(std::uint32_t k);
    void random_walk(std::uint32_t agent, std::uint32_t k);
    void pick_intersection(std::uint32_t k);
    void pick_random(std::uint32_t k);
    bool add_chosen(std::uint32_t agent) {
        if (in_set[agent] != 0) return false;
        in_set[agent] = 1;
        chosen.push_back(agent);
        return true;
    }
    void lns_iteration();
    std::uint32_t next_index(std::uint32_t bound) noexcept {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        return static_cast<std::uint32_t>((rng >> 11) % bound);
    }
    bool out_of_time() const noexcept;
    // ---- portfolio: more runs of the search with other ties after the first solution ----
    static constexpr std::uint32_t kPortfolioRuns = 4;
    std::uint32_t relaunch_runs = 0;  // runs left (0: none running)
    std::uint64_t run_begin = 0, run_cap = 0;  // generator calls at the start of this run; cap per run
    void end_run();
    std::uint64_t solution_cost(std::uint32_t h);
    [[nodiscard]] bool solved() const noexcept { return goal_node != kNil || lns; }
    // Ends the solve on running out of `which`: Found with a solution (anytime), else BudgetExhausted.
    Status exhausted(search::BudgetLimit which) noexcept {
        if (solved()) return status = Status::Found;
        limit = which;
        return status = Status::BudgetExhausted;
    }
};

void CrowdSolver::Impl::build_graph() {
    const std::uint32_t bound = map->node_bound();
    const auto pass = map->passable_data();
    vertex_of_node.assign(bound, kNil);
    node_of_vertex.clear();
    for (std::uint32_t node = 0; node < bound; ++node)
        if (pass[node] != 0) {
            vertex_of_node[node] = static_cast<std::uint32_t>(node_of_vertex.size());
            node_of_vertex.push_back(node);
        }
    vcount = static_cast<std::uint32_t>(node_of_vertex.size());
    nbr.assign(static_cast<std::size_t>(vcount) * 4, kNil);
    degree.assign(vcount, 0);
    const std::uint32_t stride = map->stride();
    // Neighbour order: up, left, right, down (fixed; ties are broken by the generator anyway).
    const std::int64_t offsets[4] = {-static_cast<std::int64_t>(stride), -1, 1, static_cast<std::int64_t>(stride)};
    for (std::uint32_t v = 0; v < vcount; ++v) {
        const std::int64_t node = node_of_vertex[v];
        for (const std::int64_t off : offsets) {
            const auto u = static_cast<std::uint32_t>(node + off);
            if (pass[u] != 0) nbr[static_cast<std::size_t>(v) * 4 + degree[v]++] = vertex_of_node[u];
        }
    }
}

void CrowdSolver::Impl::bfs(std::uint32_t agent) {
    std::uint32_t* row = dist.data() + static_cast<std::size_t>(agent) * vcount;
    std::fill(row, row + vcount, kFar);
    bfs_queue.resize(vcount);
    std::size_t head = 0, tail = 0;
    row[goals[agent]] = 0;
    bfs_queue[tail++] = goals[agent];
    while (head < tail) {
        const std::uint32_t v = bfs_queue[head++];
        const std::uint32_t dv = row[v] + 1;
        const std::uint32_t* nb = nbr.data() + static_cast<std::size_t>(v) * 4;
        for (std::uint32_t k = 0; k < degree[v]; ++k)
            if (row[nb[k]] == kFar) {
                row[nb[k]] = dv;
                bfs_queue[tail++] = nb[k];
            }
    }
}

std::uint64_t CrowdSolver::Impl::hash_config(const std::uint32_t* c) const noexcept {
    std::uint64_t h = 0x243f6a8885a308d3ULL;
    for (std::uint32_t i = 0; i < n; ++i) h = (h ^ c[i]) * 0x100000001b3ULL + (h >> 29);
    return splitmix(h);
}

std::uint32_t CrowdSolver::Impl::find(const std::uint32_t* c, std::uint64_t hash) const noexcept {
    const std::size_t mask = table.size() - 1;
    for (std::size_t slot = hash & mask;; slot = (slot + 1) & mask) {
        const std::uint32_t h = table[slot];
        if (h == kNil) return kNil;
        if (hnodes[h].hash == hash && std::memcmp(config(h), c, sizeof(std::uint32_t) * n) == 0) return h;
    }
}

void CrowdSolver::Impl::insert_table(std::uint32_t h) {
    if ((hnodes.size() + 1) * 2 > table.size()) {
        // grow: rehash every node
        std::size_t size = std::max<std::size_t>(table.size() * 2, 1024);
        table.assign(size, kNil);
        for (std::uint32_t k = 0; k < h; ++k) {
            std::size_t slot = hnodes[k].hash & (size - 1);
            while (table[slot] != kNil) slot = (slot + 1) & (size - 1);
            table[slot] = k;
        }
    }
    const std::size_t mask = table.size() - 1;
    std::size_t slot = hnodes[h].hash & mask;
    while (table[slot] != kNil) slot = (slot + 1) & mask;
    table[slot] = h;
}

std::uint32_t CrowdSolver::Impl::edge_cost(const std::uint32_t* a, const std::uint32_t* b) const noexcept {
    std::uint32_t cost = 0;
    for (std::uint32_t i = 0; i < n; ++i)
        if (a[i] != goals[i] || b[i] != goals[i]) ++cost;
    return cost;
}

std::uint32_t CrowdSolver::Impl::h_value(const std::uint32_t* c) const noexcept {
    std::uint32_t h = 0;
    for (std::uint32_t i = 0; i < n; ++i) h += d(i, c[i]);
    return h;
}

void CrowdSolver::Impl::push_lnode(HNode& node, std::uint32_t parent, std::uint32_t agent, std::uint32_t vertex,
                                   std::uint32_t depth) {
    const auto id = static_cast<std::uint32_t>(lnodes.size());
    lnodes.push_back(LNode{parent, agent, vertex, depth, kNil});
    if (node.ll_tail == kNil) {
        node.ll_head = node.ll_tail = id;
    } else {
        lnodes[node.ll_tail].next = id;
        node.ll_tail = id;
    }
}

bool CrowdSolver::Impl::add_hnode(const std::uint32_t* c, std::uint32_t parent, std::uint32_t g, std::uint32_t h,
                                  const float* prio) {
    if ((hnodes.size() + 1) * bytes_per_config > memory_cap) return false;
    const auto id = static_cast<std::uint32_t>(hnodes.size());
    HNode node;
    node.hash = hash_config(c);
    node.parent = parent;
    node.g = g;
    node.h = h;
    hnodes.push_back(node);
    configs.insert(configs.end(), c, c + n);
    priorities.insert(priorities.end(), prio, prio + n);
    // order: agents by decreasing priority, ties by index
    sort_scratch.resize(n);
    std::iota(sort_scratch.begin(), sort_scratch.end(), 0u);
    const float* p = priorities.data() + static_cast<std::size_t>(id) * n;
    std::sort(sort_scratch.begin(), sort_scratch.end(), [p](std::uint32_t a, std::uint32_t b) {
        return p[a] > p[b] || (p[a] == p[b] && a < b);
    });
    for (std::uint32_t k = 0; k < n; ++k) orders.push_back(static_cast<std::uint16_t>(sort_scratch[k]));
    push_lnode(hnodes.back(), kNil, 0, 0, 0);
    insert_table(id);
    ++stats.configurations;
    ++stats.search.generated;
    return true;
}

Status CrowdSolver::Impl::begin(const GridMap& m, std::span<const GridPoint> s, std::span<const GridPoint> g,
                                const CrowdOptions& o) {
    t_begin = std::chrono::steady_clock::now();
    stats = CrowdStats{};
    options = o;
    memory_cap = std::min(o.max_memory_bytes, o.budget.max_memory_bytes);
    limit = search::BudgetLimit::None;
    map = &m;
    goal_node = kNil;
    lns = false;
    hnodes.clear();
    configs.clear();
    priorities.clear();
    orders.clear();
    lnodes.clear();
    open.clear();
    std::fill(table.begin(), table.end(), kNil);
    lower_bound = 0;
    unreachable = UINT32_MAX;
    n = 0;
    revisits = 0;
    prefer_free = true;
    switched_at = restarted_at = kNever;
    relaunch_runs = 0;
    run_begin = 0;
    status = Status::InvalidQuery;
    if (m.empty() || s.size() != g.size() || s.size() > kMaxCrowdAgents) return status;
    for (std::size_t i = 0; i < s.size(); ++i)
        if (!m.passable(s[i]) || !m.passable(g[i])) return status;
    build_graph();
    n = static_cast<std::uint32_t>(s.size());
    starts.resize(n);
    goals.resize(n);
    // duplicate check with the occupancy arrays
    occ_now.assign(vcount, kNil);
    occ_next.assign(vcount, kNil);
    for (std::uint32_t i = 0; i < n; ++i) {
        starts[i] = vertex_of_node[m.index(s[i])];
        goals[i] = vertex_of_node[m.index(g[i])];
        if (occ_now[starts[i]] != kNil || occ_next[goals[i]] != kNil) {
            n = 0;
            std::fill(occ_now.begin(), occ_now.end(), kNil);
            return status;
        }
        occ_now[starts[i]] = i;
        occ_next[goals[i]] = i;
    }
    std::fill(occ_now.begin(), occ_now.end(), kNil);
    std::fill(occ_next.begin(), occ_next.end(), kNil);
    // The distance tables count against the memory cap: refused before they are built when they alone
    // would pass it (16,384 agents on an open 4096 x 4096 map would need 1.1 TB).
    const std::size_t table_bytes = static_cast<std::size_t>(n) * vcount * sizeof(std::uint32_t);
    if (table_bytes > memory_cap) {
        limit = search::BudgetLimit::Memory;
        return status = Status::BudgetExhausted;
    }
    memory_cap -= table_bytes;
    dist.resize(static_cast<std::size_t>(n) * vcount);
    status = Status::NoPath;
    for (std::uint32_t i = 0; i < n; ++i) {
        bfs(i);
        const std::uint32_t di = d(i, starts[i]);
        if (di >= kFar) {
            lower_bound = 0;
            unreachable = i;
            return status;  // an agent cannot reach its goal
        }
        lower_bound += di;
    }
    v_now.assign(n, kNil);
    v_next.assign(n, kNil);
    cand.assign(static_cast<std::size_t>(n) * 5, kNil);
    tie.assign(vcount, 0.0f);
    new_config.resize(n);
    new_prio.resize(n);
    rng = splitmix(o.seed ^ 0x5eedULL) | 1;
    bytes_per_config = n * (sizeof(std::uint32_t) + sizeof(float) + sizeof(std::uint16_t)) + sizeof(HNode) +
                       5 * sizeof(LNode) + 2 * sizeof(std::uint32_t);

    if (!restart()) {
        limit = search::BudgetLimit::Memory;
        status = Status::BudgetExhausted;
        return status;
    }
    status = Status::InProgress;
    if (hnodes[0].h == 0) {
        goal_node = 0;
        stats.first_solution_seconds = 0;
        status = Status::Found;
    }
    return status;
}

// Drops every stored configuration and starts the search again from the start configuration (the
// buffers keep their capacity). False if the memory cap leaves no room for the start.
bool CrowdSolver::Impl::restart() {
    hnodes.clear();
    configs.clear();
    priorities.clear();
    orders.clear();
    lnodes.clear();
    open.clear();
    std::fill(table.begin(), table.end(), kNil);
    stats.configurations = 0;
    for (std::uint32_t i = 0; i < n; ++i) new_prio[i] = static_cast<float>(d(i, starts[i])) / static_cast<float>(n);
    if (!add_hnode(starts.data(), kNil, 0, h_value(starts.data()), new_prio.data())) return false;
    open.push_back(0);
    return true;
}

void CrowdSolver::Impl::expand_lowlevel(std::uint32_t h, std::uint32_t l) {
    const LNode low = lnodes[l];
    if (low.depth >= n) return;
    const std::uint32_t i = orders[static_cast<std::size_t>(h) * n + low.depth];
    const std::uint32_t v = config(h)[i];
    std::uint32_t c[5];
    std::uint32_t k = 0;
    for (; k < degree[v]; ++k) c[k] = nbr[static_cast<std::size_t>(v) * 4 + k];
    c[k++] = v;
    // shuffle (Fisher-Yates with the seeded generator)
    for (std::uint32_t a = k - 1; a > 0; --a) {
        const auto b = static_cast<std::uint32_t>(next_float() * static_cast<float>(a + 1)) % (a + 1);
        std::swap(c[a], c[b]);
    }
    for (std::uint32_t a = 0; a < k; ++a) push_lnode(hnodes[h], l, i, c[a], low.depth + 1);
}

bool CrowdSolver::Impl::swap_required(std::uint32_t pusher, std::uint32_t puller, std::uint32_t v_pusher,
                                      std::uint32_t v_puller) const noexcept {
    std::uint32_t tmp = kNil;
    std::uint32_t guard = 0;
    while (d(pusher, v_puller) < d(pusher, v_pusher)) {
        if (++guard > vcount) break;
        std::uint32_t count = degree[v_puller];
        const std::uint32_t* nb = nbr.data() + static_cast<std::size_t>(v_puller) * 4;
        for (std::uint32_t k = 0; k < degree[v_puller]; ++k) {
            const std::uint32_t u = nb[k];
            const std::uint32_t a = occ_now[u];
            if (u == v_pusher || (degree[u] == 1 && a != kNil && goals[a] == u))
                --count;
            else
                tmp = u;
        }
        if (count >= 2) return false;  // room to let the pusher pass
        if (count == 0) break;
        v_pusher = v_puller;
        v_puller = tmp;
    }
    return d(puller, v_pusher) < d(puller, v_puller) &&
           (d(pusher, v_pusher) == 0 || d(pusher, v_puller) < d(pusher, v_pusher));
}

bool CrowdSolver::Impl::swap_possible(std::uint32_t v_pusher, std::uint32_t v_puller) const noexcept {
    const std::uint32_t origin = v_pusher;
    std::uint32_t tmp = kNil;
    std::uint32_t guard = 0;
    while (v_puller != origin) {
        if (++guard > vcount) return false;
        std::uint32_t count = degree[v_puller];
        const std::uint32_t* nb = nbr.data() + static_cast<std::size_t>(v_puller) * 4;
        for (std::uint32_t k = 0; k < degree[v_puller]; ++k) {
            const std::uint32_t u = nb[k];
            const std::uint32_t a = occ_now[u];
            if (u == v_pusher || (degree[u] == 1 && a != kNil && goals[a] == u))
                --count;
            else
                tmp = u;
        }
        if (count >= 2) return true;
        if (count == 0) return false;
        v_pusher = v_puller;
        v_puller = tmp;
    }
    return false;
}

std::uint32_t CrowdSolver::Impl::swap_partner(std::uint32_t i) const noexcept {
    const std::uint32_t* c = cand.data() + static_cast<std::size_t>(i) * 5;
    const std::uint32_t here = v_now[i];
    if (c[0] == here) return kNil;
    const std::uint32_t j = occ_now[c[0]];
    if (j != kNil && v_next[j] == kNil && swap_required(i, j, here, v_now[j]) && swap_possible(v_now[j], here))
        return j;
    // "clear" case: an agent behind i would be pulled along
    const std::uint32_t* nb = nbr.data() + static_cast<std::size_t>(here) * 4;
    for (std::uint32_t k = 0; k < degree[here]; ++k) {
        const std::uint32_t u = nb[k];
        const std::uint32_t a = occ_now[u];
        if (a == kNil || c[0] == v_now[a]) continue;
        if (swap_required(a, i, here, c[0]) && swap_possible(c[0], here)) return a;
    }
    return kNil;
}

bool CrowdSolver::Impl::pibt(std::uint32_t i) {
    const std::uint32_t here = v_now[i];
    std::uint32_t* c = cand.data() + static_cast<std::size_t>(i) * 5;
    std::uint32_t k = 0;
    const std::uint32_t* nb = nbr.data() + static_cast<std::size_t>(here) * 4;
    for (; k < degree[here]; ++k) {
        c[k] = nb[k];
        // ties: a free cell before one another agent stands on, then at random. This gives much
        // better first solutions, but on a few dense instances it keeps the search circling; after
        // kPreferFreeCalls generator calls without a solution the ties are purely random.
        tie[nb[k]] = next_float() * 0.5f + (prefer_free && occ_now[nb[k]] != kNil ? 0.5f : 0.0f);
    }
    c[k++] = here;
    tie[here] = next_float() * 0.5f + (prefer_free ? 0.5f : 0.0f);
    // insertion sort by distance + tie-breaker
    for (std::uint32_t a = 1; a < k; ++a) {
        const std::uint32_t x = c[a];
        const float kx = static_cast<float>(d(i, x)) + tie[x];
        std::uint32_t b = a;
        while (b > 0 && static_cast<float>(d(i, c[b - 1])) + tie[c[b - 1]] > kx) {
            c[b] = c[b - 1];
            --b;
        }
        c[b] = x;
    }
    std::uint32_t partner = kNil;
    if (options.swap) {
        partner = swap_partner(i);
        if (partner != kNil) std::reverse(c, c + k);
    }
    for (std::uint32_t a = 0; a < k; ++a) {
        const std::uint32_t u = c[a];
        if (occ_next[u] != kNil) continue;                       // vertex conflict
        const std::uint32_t j = occ_now[u];
        if (j != kNil && v_next[j] == here) continue;            // swap conflict
        occ_next[u] = i;
        v_next[i] = u;
        if (j != kNil && j != i && v_next[j] == kNil && !pibt(j)) continue;  // priority inheritance
        if (a == 0 && partner != kNil && v_next[partner] == kNil && occ_next[here] == kNil) {
            v_next[partner] = here;
            occ_next[here] = partner;
        }
        return true;
    }
    occ_next[here] = i;
    v_next[i] = here;
    return false;
}

bool CrowdSolver::Impl::generate(std::uint32_t h, std::uint32_t l) {
    const std::uint32_t* c = config(h);
    for (std::uint32_t i = 0; i < n; ++i) {
        if (v_now[i] != kNil && occ_now[v_now[i]] == i) occ_now[v_now[i]] = kNil;
        if (v_next[i] != kNil) {
            if (occ_next[v_next[i]] == i) occ_next[v_next[i]] = kNil;
            v_next[i] = kNil;
        }
    }
    for (std::uint32_t i = 0; i < n; ++i) {
        v_now[i] = c[i];
        occ_now[c[i]] = i;
    }
    // constraints of the low-level node
    for (std::uint32_t k = l; k != kNil && lnodes[k].depth > 0; k = lnodes[k].parent) {
        const std::uint32_t i = lnodes[k].agent;
        const std::uint32_t v = lnodes[k].vertex;
        if (occ_next[v] != kNil) return false;
        const std::uint32_t pre = c[i];
        if (occ_next[pre] != kNil && occ_now[v] != kNil && occ_next[pre] == occ_now[v]) return false;
        v_next[i] = v;
        occ_next[v] = i;
    }
    const std::uint16_t* order = orders.data() + static_cast<std::size_t>(h) * n;
    for (std::uint32_t k = 0; k < n; ++k) {
        const std::uint32_t i = order[k];
        if (v_next[i] == kNil && !pibt(i)) return false;
    }
    return true;
}

void CrowdSolver::Impl::start_lns() {
    lns = true;
    std::uint32_t steps = 0;
    for (std::uint32_t h = goal_node; hnodes[h].parent != kNil; h = hnodes[h].parent) ++steps;
    if (lpaths.size() < n) lpaths.resize(n);
    for (std::uint32_t i = 0; i < n; ++i) lpaths[i].resize(static_cast<std::size_t>(steps) + 1);
    std::uint32_t t = steps;
    for (std::uint32_t h = goal_node;; h = hnodes[h].parent) {
        const std::uint32_t* c = config(h);
        for (std::uint32_t i = 0; i < n; ++i) lpaths[i][t] = c[i];
        if (hnodes[h].parent == kNil) break;
        --t;
    }
    costs.assign(n, 0);
    lns_soc = 0;
    reserved.reset(vcount);
    for (std::uint32_t i = 0; i < n; ++i) {
        std::uint32_t c = steps;
        while (c > 0 && lpaths[i][c - 1] == goals[i]) --c;
        lpaths[i].resize(static_cast<std::size_t>(c) + 1);
        costs[i] = c;
        lns_soc += c;
        reserved.add(i, lpaths[i].data(), c);
    }
    sipp.reset(vcount);
    sgraph = detail::SippGraph{nbr.data(), degree.data(), dist.data(), vcount};
    in_set.assign(n, 0);
    tabu.assign(n, 0);
    tabu_gen = 1;
    intersections.clear();
    for (std::uint32_t v = 0; v < vcount; ++v)
        if (degree[v] >= 3) intersections.push_back(v);
    seen.assign(vcount, 0);
    seen_gen = 0;
    bfs_list.clear();
    chosen.clear();
    for (double& w : weights) w = 1.0;

    for (double& w : size_weights) w = 1.0;
    lns_step = 0;
    pp_attempts = 0;
    sort_sweep();
}

// The sweep neighbourhood: single agents, the most delayed first (as delayed when the order was made),
// each once, then a new order.
void CrowdSolver::Impl::sort_sweep() {
    sweep_order.resize(n);
    std::iota(sweep_order.begin(), sweep_order.end(), 0u);
    std::sort(sweep_order.begin(), sweep_order.end(), [this](std::uint32_t a, std::uint32_t b) {
        const std::uint32_t da = costs[a] - d(a, starts[a]), db = costs[b] - d(b, starts[b]);
        return da > db || (da == db && a < b);  // (std::stable_sort would allocate)
    });
    sweep_next = 0;
}

void CrowdSolver::Impl::pick_sweep() {
    for (std::uint32_t round = 0; round < 2; ++round) {
        while (sweep_next < n) {
            const std::uint32_t a = sweep_order[sweep_next++];
            if (costs[a] > d(a, starts[a])) {
                add_chosen(a);
                return;
            }
        }
        sort_sweep();
    }
}

// Replans the agents in `chosen` one by one in random order with SIPP against everybody else, each
// bounded so that the neighbourhood's new sum of costs stays below its old one; keeps the new paths
// only if all of them were found (so the sum of costs strictly decreases), else restores the old
// ones. Returns the decrease (0 when rejected).
std::uint64_t CrowdSolver::Impl::replan(bool keep_order) {
    replan_work = 0;
    const std::size_t k = chosen.size();
    if (saved.size() < k) saved.resize(k);
    saved_costs.resize(k);
    std::uint64_t old_sum = 0, rest = 0;
    for (std::size_t c = 0; c < k; ++c) {
        const std::uint32_t a = chosen[c];
        reserved.remove(a, lpaths[a].data(), costs[a]);
        saved[c].assign(lpaths[a].begin(), lpaths[a].end());  // a copy: every buffer keeps its owner (and capacity)
        saved_costs[c] = costs[a];
        old_sum += costs[a];
        rest += d(a, starts[a]);
    }
    plan_order.resize(k);
    std::iota(plan_order.begin(), plan_order.end(), 0u);
    if (!keep_order)
        for (std::size_t c = k; c > 1; --c) std::swap(plan_order[c - 1], plan_order[next_index(static_cast<std::uint32_t>(c))]);
    failed_agent = kNil;
    std::uint64_t new_sum = 0;
    std::size_t planned = 0;
    bool ok = true;
    for (std::size_t c = 0; c < k; ++c) {
        const std::uint32_t a = chosen[plan_order[c]];
        rest -= d(a, starts[a]);
        if (new_sum + rest + d(a, starts[a]) >= old_sum) {
            ok = false;
            break;
        }
        const std::uint64_t bound = std::min<std::uint64_t>(old_sum - 1 - new_sum - rest, UINT32_MAX - 1);
        const std::uint32_t cost =
            sipp.plan(sgraph, reserved, a, starts[a], goals[a], static_cast<std::uint32_t>(bound), lpaths[a]);
        replan_work += sipp.expanded();
        if (cost == detail::kSippNone) {
            failed_agent = a;
            ok = false;
            break;
        }
        reserved.add(a, lpaths[a].data(), cost);
        costs[a] = cost;
        new_sum += cost;
        ++planned;
    }
    for (const std::uint32_t a : chosen) in_set[a] = 0;
    if (ok) {
        lns_soc = lns_soc - old_sum + new_sum;
        ++stats.improvements;
        return old_sum - new_sum;
    }
    for (std::size_t c = 0; c < planned; ++c) {
        const std::uint32_t a = chosen[plan_order[c]];
        reserved.remove(a, lpaths[a].data(), costs[a]);
    }
    for (std::size_t c = 0; c < k; ++c) {
        const std::uint32_t a = chosen[c];
        lpaths[a].assign(saved[c].begin(), saved[c].end());
        costs[a] = saved_costs[c];
        reserved.add(a, lpaths[a].data(), costs[a]);
    }
    return 0;
}

// From a random step of the agent's path, walks through space-time along cells from which the agent
// could still beat its cost (t + 1 + distance < cost) and collects the agents standing in the way.
void CrowdSolver::Impl::random_walk(std::uint32_t agent, std::uint32_t k) {
    const std::uint32_t cost = costs[agent];
    if (cost == 0) return;
    std::uint32_t t = next_index(cost);
    std::uint32_t v = lpaths[agent][t];
    for (; t < cost && chosen.size() < k; ++t) {
        const std::uint32_t options = degree[v] + 1u;
        const std::uint32_t offset = next_index(options);
        std::uint32_t next = kNil;
        for (std::uint32_t j = 0; j < options; ++j) {
            const std::uint32_t idx = (offset + j) % options;
            const std::uint32_t u = idx < degree[v] ? nbr[static_cast<std::size_t>(v) * 4 + idx] : v;
            if (t + 1 + d(agent, u) < cost) {
                next = u;
                break;
            }
        }
        if (next == kNil) break;
        v = next;
        const std::uint32_t other = reserved.occupant(v, t + 1);
        if (other != detail::kSippNone && other != agent) add_chosen(other);
    }
}

// MAPF-LNS's agent-based neighbourhood: the most delayed agent not chosen recently, plus the agents
// that cross its goal last (the latest first) and the agents blocking its shorter paths.
void CrowdSolver::Impl::pick_delayed(std::uint32_t k) {
    std::uint32_t best = kNil;
    for (int pass = 0; pass < 2 && best == kNil; ++pass) {
        std::uint32_t best_delay = 0;
        for (std::uint32_t i = 0; i < n; ++i) {
            const std::uint32_t delay = costs[i] - d(i, starts[i]);
            if (delay > best_delay && tabu[i] != tabu_gen) {
                best_delay = delay;
                best = i;
            }
        }
        if (best == kNil) ++tabu_gen;  // every delayed agent had its turn: start over
    }
    if (best == kNil) return;
    tabu[best] = tabu_gen;
    add_chosen(best);
    // the agents crossing its goal last: they keep it from settling there earlier
    const auto& steps = reserved.steps(goals[best]);
    const auto& crossers = reserved.entries(goals[best]);
    const std::uint32_t earliest = d(best, starts[best]);
    for (std::size_t e = steps.size(); e > 0 && chosen.size() < k && steps[e - 1] >= earliest; --e)
        add_chosen(crossers[e - 1].agent);
    random_walk(best, k);
    for (std::uint32_t tries = 0; chosen.size() < k && tries < 10; ++tries)
        random_walk(chosen[next_index(static_cast<std::uint32_t>(chosen.size()))], k);
}

// Map-based neighbourhood: the agents that pass through the intersections (cells of degree >= 3)
// nearest to a random one, k of them drawn at random.
void CrowdSolver::Impl::pick_intersection(std::uint32_t k) {
    if (intersections.empty()) return;
    if (++seen_gen == 0) {
        std::fill(seen.begin(), seen.end(), 0);
        seen_gen = 1;
    }
    bfs_list.clear();
    const std::uint32_t root = intersections[next_index(static_cast<std::uint32_t>(intersections.size()))];
    bfs_list.push_back(root);
    seen[root] = seen_gen;
    for (std::size_t head = 0; head < bfs_list.size() && chosen.size() < k; ++head) {
        const std::uint32_t v = bfs_list[head];
        if (degree[v] >= 3) {
            for (const auto& e : reserved.entries(v)) add_chosen(e.agent);
            if (reserved.park_agent(v) != detail::kSippNone) add_chosen(reserved.park_agent(v));
        }
        for (std::uint32_t j = 0; j < degree[v]; ++j) {
            const std::uint32_t u = nbr[static_cast<std::size_t>(v) * 4 + j];
            if (seen[u] != seen_gen) {
                seen[u] = seen_gen;
                bfs_list.push_back(u);
            }
        }
    }
    if (chosen.size() > k) {
        for (std::uint32_t c = 0; c < k; ++c)
            std::swap(chosen[c], chosen[c + next_index(static_cast<std::uint32_t>(chosen.size()) - c)]);
        for (std::size_t c = k; c < chosen.size(); ++c) in_set[chosen[c]] = 0;
        chosen.resize(k);
    }
}

void CrowdSolver::Impl::pick_random(std::uint32_t k) {
    while (chosen.size() < k) add_chosen(next_index(n));
}

void CrowdSolver::Impl::lns_iteration() {
    chosen.clear();
    if (lns_step == 0) {
        // Prioritized planning of everybody from scratch (SIPP, one agent after the other), kept when
        // its sum of costs is lower: on sparse instances this alone beats the first solution by far.
        // The first order is random; an agent that finds no path moves to the front of the order for
        // the next attempt. After a success, or after a failure in the first 60 % of the order (a
        // dense instance, where promoting agents would keep failing), one last attempt plans the
        // longest trips first (bounded by the best sum of costs so far). At most kPlanAttempts
        // attempts in all.
        if (pp_attempts == 0) {
            pp_order.resize(n);
            std::iota(pp_order.begin(), pp_order.end(), 0u);
            for (std::uint32_t c = n; c > 1; --c) std::swap(pp_order[c - 1], pp_order[next_index(c)]);
            pp_longest_first = false;
        }
        ++pp_attempts;
        for (const std::uint32_t a : pp_order) add_chosen(a);
        const std::uint64_t gain = replan(true);
        bool next_series = false;
        if (failed_agent == kNil || gain > 0 || pp_longest_first) {
            next_series = true;
        } else {
            const auto it = std::find(pp_order.begin(), pp_order.end(), failed_agent);
            if (static_cast<std::uint64_t>(it - pp_order.begin()) * 10 >= static_cast<std::uint64_t>(n) * 6)
                std::rotate(pp_order.begin(), it, it + 1);
            else
                next_series = true;
        }
        if (next_series) {
            if (pp_longest_first) {
                pp_attempts = kPlanAttempts;
            } else {
                pp_longest_first = true;
                std::sort(pp_order.begin(), pp_order.end(), [this](std::uint32_t a, std::uint32_t b) {
                    const std::uint32_t da = d(a, starts[a]), db = d(b, starts[b]);
                    return da > db || (da == db && a < b);
                });
            }
        }
        if (pp_attempts >= kPlanAttempts) ++lns_step;
        return;
    }
    const std::uint32_t method = roulette(weights, kMethods);
    const std::uint32_t size = roulette(size_weights, kSizes);
    std::uint32_t k = std::min<std::uint32_t>(n, kSize[size]);
    if (method == 0) {
        pick_delayed(k);
    } else if (method == 1) {
        pick_intersection(k);
    } else if (method == 3) {
        k = 1;
        pick_sweep();
    }
    pick_random(k);  // tops up a neighbourhood the other methods left short
    const std::uint64_t gain = replan();
    constexpr double kReaction = 0.1;
    const double reward = 1000.0 * static_cast<double>(gain) / static_cast<double>(replan_work + 10 * k);
    weights[method] = (1 - kReaction) * weights[method] + kReaction * reward;
    if (method != 3) size_weights[size] = (1 - kReaction) * size_weights[size] + kReaction * reward;
}

// Ends the current portfolio run: starts the next one, or hands over to the improvement search.
void CrowdSolver::Impl::end_run() {
    goal_node = kNil;
    if (relaunch_runs > 0) --relaunch_runs;
    if (relaunch_runs == 0) return;
    prefer_free = true;
    revisits = 0;
    switched_at = restarted_at = kNever;
    run_begin = stats.search.expanded;
    if (!restart()) relaunch_runs = 0;
}

// True sum of costs of the solution ending in configuration h (g counts slightly differently).
std::uint64_t CrowdSolver::Impl::solution_cost(std::uint32_t h) {
    std::uint64_t soc = 0;
    std::uint32_t steps = 0;
    for (std::uint32_t x = h; hnodes[x].parent != kNil; x = hnodes[x].parent) ++steps;
    std::vector<std::uint32_t>& last = sort_scratch;  // per agent: cost so far (reused buffer)
    last.assign(n, 0);
    std::uint32_t t = steps;
    for (std::uint32_t x = h; hnodes[x].parent != kNil; x = hnodes[x].parent, --t) {
        const std::uint32_t* c = config(hnodes[x].parent);
        for (std::uint32_t i = 0; i < n; ++i)
            if (last[i] == 0 && c[i] != goals[i]) last[i] = t;
    }
    for (std::uint32_t i = 0; i < n; ++i) soc += last[i];
    return soc;
}

bool CrowdSolver::Impl::out_of_time() const noexcept {
    const auto now = std::chrono::steady_clock::now();
    if (now >= options.budget.deadline) return true;
    if (solved() && options.improve_for != std::chrono::steady_clock::duration::max() &&
        now - first_time >= options.improve_for)
        return true;
    return false;
}

Status CrowdSolver::Impl::run(std::uint64_t slice) {
    if (status != Status::InProgress) return status;
    for (std::uint64_t done = 0; done < slice;) {
        if (lns && relaunch_runs > 0 && stats.search.expanded >= run_begin + run_cap) end_run();
        if (lns && relaunch_runs == 0) {
            // (a sum of costs at the lower bound is optimal: nothing left to improve)
            if (n < 2 || lns_soc <= lower_bound || stats.search.expanded >= options.budget.max_expansions || out_of_time()) {
                status = Status::Found;
                return status;
            }
            lns_iteration();
            ++stats.search.expanded;
            ++done;
            continue;
        }
        if (open.empty()) {
            if (lns) {
                end_run();
                continue;
            }
            status = goal_node != kNil ? Status::Found : Status::NoPath;
            return status;
        }
        if (stats.search.expanded >= options.budget.max_expansions ||
            ((stats.search.expanded & 15) == 0 && out_of_time())) {
            return exhausted(stats.search.expanded >= options.budget.max_expansions ? search::BudgetLimit::Expansions
                                                                                    : search::BudgetLimit::Time);
        }
        if (goal_node == kNil && restarted_at == kNever) {
            if (prefer_free && (stats.search.expanded >= run_begin + kPreferFreeCalls || revisits >= kPreferFreeRevisits)) {
                // free-cell tie-breaking keeps this search circling: random ties from here on
                prefer_free = false;
                switched_at = stats.search.expanded;
            } else if (!prefer_free && stats.search.expanded >= switched_at + kRandomCalls) {
                // still no solution: the configurations stored so far lead the search astray; start
                // over from the start configuration, with random ties
                restarted_at = stats.search.expanded;
                if (!restart()) return exhausted(search::BudgetLimit::Memory);
                continue;
            }
        }
        const std::uint32_t h = open.back();
        if (hnodes[h].ll_head == kNil) {
            open.pop_back();
            continue;
        }
        if (goal_node != kNil && hnodes[h].g + hnodes[h].h >= hnodes[goal_node].g) {
            open.pop_back();
            continue;
        }
        if (goal_node == kNil && hnodes[h].h == 0 && lns) {
            // another run of the portfolio found a solution: keep the better one
            if (solution_cost(h) < lns_soc) {
                goal_node = h;
                start_lns();
                goal_node = kNil;
            }
            end_run();
            continue;
        }
        if (goal_node == kNil && hnodes[h].h == 0) {
            goal_node = h;
            first_time = std::chrono::steady_clock::now();
            stats.first_solution_seconds = std::chrono::duration<double>(first_time - t_begin).count();
            stats.first_sum_of_costs = solution_cost(h);
            if (!options.anytime) {
                status = Status::Found;
                return status;
            }
            start_lns();
            // portfolio: when the first solution is jammed but was found with free-cell ties (quickly),
            // a few more runs of the search with other ties, each capped at twice the generator calls
            // of the first, before the improvement proper
            run_cap = 2 * (stats.search.expanded - run_begin);
            relaunch_runs = stats.first_sum_of_costs * 2 >= lower_bound * 7 && prefer_free ? kPortfolioRuns : 1;
            end_run();
            continue;
        }
        // pop a low-level node and expand it
        const std::uint32_t l = hnodes[h].ll_head;
        hnodes[h].ll_head = lnodes[l].next;
        if (hnodes[h].ll_head == kNil) hnodes[h].ll_tail = kNil;
        expand_lowlevel(h, l);
        ++stats.search.expanded;
        ++done;
        if (!generate(h, l)) {
            ++stats.generator_failures;
            continue;
        }
        for (std::uint32_t i = 0; i < n; ++i) new_config[i] = v_next[i];
        const std::uint64_t hash = hash_config(new_config.data());
        const std::uint32_t found = find(new_config.data(), hash);
        if (found != kNil) {
            ++revisits;
            if (goal_node == kNil || hnodes[found].g + hnodes[found].h < hnodes[goal_node].g) open.push_back(found);
            continue;
        }
        const std::uint32_t* ch = config(h);
        const float* ph = priorities.data() + static_cast<std::size_t>(h) * n;
        for (std::uint32_t i = 0; i < n; ++i) {
            if (new_config[i] != goals[i])
                new_prio[i] = ph[i] + 1.0f;
            else
                new_prio[i] = ph[i] - static_cast<float>(static_cast<int>(ph[i]));
        }
        const std::uint32_t g = hnodes[h].g + edge_cost(ch, new_config.data());
        const std::uint32_t hv = h_value(new_config.data());
        if (!add_hnode(new_config.data(), h, g, hv, new_prio.data())) return exhausted(search::BudgetLimit::Memory);
        const auto id = static_cast<std::uint32_t>(hnodes.size() - 1);
        if (goal_node == kNil || g + hv < hnodes[goal_node].g) open.push_back(id);
    }
    return status;
}

CrowdSolver::CrowdSolver() : m_impl(std::make_unique<Impl>()) {}
CrowdSolver::~CrowdSolver() = default;
CrowdSolver::CrowdSolver(CrowdSolver&&) noexcept = default;
CrowdSolver& CrowdSolver::operator=(CrowdSolver&&) noexcept = default;

Status CrowdSolver::begin(const GridMap& map, std::span<const GridPoint> starts, std::span<const GridPoint> goals,
                          const CrowdOptions& options) {
    return m_impl->begin(map, starts, goals, options);
}

Status CrowdSolver::step(std::uint64_t slice_expansions) { return m_impl->run(slice_expansions); }

Status CrowdSolver::finish(CrowdSolution& out) const {
    const Impl& s = *m_impl;
    if (s.status != Status::Found) return s.status;
    out.agents = s.n;
    out.lower_bound = s.lower_bound;
    if (s.lns) {
        std::uint32_t makespan = 0;
        out.costs.assign(s.n, 0);
        out.sum_of_costs = 0;
        for (std::uint32_t i = 0; i < s.n; ++i) {
            out.costs[i] = s.costs[i];
            out.sum_of_costs += s.costs[i];
            makespan = std::max(makespan, s.costs[i]);
        }
        out.makespan = makespan;
        out.cells.resize(static_cast<std::size_t>(makespan + 1) * s.n);
        for (std::uint32_t i = 0; i < s.n; ++i) {
            const std::vector<std::uint32_t>& p = s.lpaths[i];
            for (std::uint32_t t = 0; t <= makespan; ++t)
                out.cells[static_cast<std::size_t>(t) * s.n + i] = s.map->point(s.node_of_vertex[p[std::min(t, s.costs[i])]]);
        }
        return s.status;
    }
    // chain of configurations from the goal node back to the start
    std::uint32_t steps = 0;
    for (std::uint32_t h = s.goal_node; s.hnodes[h].parent != kNil; h = s.hnodes[h].parent) ++steps;
    out.makespan = steps;
    out.cells.resize(static_cast<std::size_t>(steps + 1) * s.n);
    std::uint32_t t = steps;
    for (std::uint32_t h = s.goal_node;; h = s.hnodes[h].parent) {
        const std::uint32_t* c = s.config(h);
        for (std::uint32_t i = 0; i < s.n; ++i)
            out.cells[static_cast<std::size_t>(t) * s.n + i] = s.map->point(s.node_of_vertex[c[i]]);
        if (s.hnodes[h].parent == kNil) break;
        --t;
    }
    out.costs.assign(s.n, 0);
    out.sum_of_costs = 0;
    std::uint32_t makespan = 0;
    for (std::uint32_t i = 0; i < s.n; ++i) {
        const GridPoint goal = out.cells[static_cast<std::size_t>(steps) * s.n + i];
        std::uint32_t cost = steps;
        while (cost > 0 && out.cells[static_cast<std::size_t>(cost - 1) * s.n + i] == goal) --cost;
        out.costs[i] = cost;
        out.sum_of_costs += cost;
        makespan = std::max(makespan, cost);
    }
    // trailing steps where everybody already waits at its goal carry no information
    if (makespan < steps) {
        out.cells.resize(static_cast<std::size_t>(makespan + 1) * s.n);
        out.makespan = makespan;
    }
    return s.status;
}

Status CrowdSolver::solve(const GridMap& map, std::span<const GridPoint> starts, std::span<const GridPoint> goals,
                          const CrowdOptions& options, CrowdSolution& out) {
    // An anytime solve in one call needs something that ends the improvement (else only a proven optimum
    // would: the resumable form, driven slice by slice, is the way to improve without a limit).
    const bool endless = options.anytime && options.budget.deadline == std::chrono::steady_clock::time_point::max() &&
                         options.improve_for == std::chrono::steady_clock::duration::max() &&
                         options.budget.max_expansions == UINT64_MAX;
    const Status begun = begin(map, starts, goals, options);
    if (begun == Status::InProgress && endless) return m_impl->status = Status::InvalidQuery;
    if (begun == Status::InProgress) step();
    return finish(out);
}

void CrowdSolver::stop() noexcept {
    if (m_impl->status == Status::InProgress) (void)m_impl->exhausted(search::BudgetLimit::Time);
}

Status CrowdSolver::status() const noexcept { return m_impl->status; }
search::BudgetLimit CrowdSolver::budget_limit() const noexcept {
    return m_impl->status == Status::BudgetExhausted ? m_impl->limit : search::BudgetLimit::None;
}
bool CrowdSolver::has_solution() const noexcept { return m_impl->solved(); }
std::uint64_t CrowdSolver::best_sum_of_costs() const noexcept {
    if (m_impl->lns) return m_impl->lns_soc;
    return m_impl->goal_node == kNil ? 0 : m_impl->hnodes[m_impl->goal_node].g;
}
std::uint64_t CrowdSolver::lower_bound() const noexcept { return m_impl->lower_bound; }
std::uint32_t CrowdSolver::unreachable_agent() const noexcept { return m_impl->unreachable; }
const CrowdStats& CrowdSolver::stats() const noexcept { return m_impl->stats; }
std::size_t CrowdSolver::memory_bytes() const noexcept {
    const Impl& m = *m_impl;
    const auto bytes = [](const auto& v) { return v.capacity() * sizeof(v[0]); };
    const auto nested = [&](const std::vector<std::vector<std::uint32_t>>& v) {
        std::size_t sum = bytes(v);
        for (const auto& inner : v) sum += bytes(inner);
        return sum;
    };
    return bytes(m.vertex_of_node) + bytes(m.node_of_vertex) + bytes(m.nbr) + bytes(m.degree) + bytes(m.starts) +
           bytes(m.goals) + bytes(m.dist) + bytes(m.bfs_queue) + bytes(m.hnodes) + bytes(m.configs) +
           bytes(m.priorities) + bytes(m.orders) + bytes(m.lnodes) + bytes(m.table) + bytes(m.open) +
           bytes(m.occ_now) + bytes(m.occ_next) + bytes(m.v_now) + bytes(m.v_next) + bytes(m.cand) + bytes(m.tie) +
           bytes(m.new_config) + bytes(m.new_prio) + bytes(m.sort_scratch) + nested(m.lpaths) + bytes(m.costs) +
           m.reserved.memory_bytes() + m.sipp.memory_bytes() + nested(m.saved) + bytes(m.saved_costs) + bytes(m.chosen) +
           bytes(m.plan_order) + bytes(m.in_set) + bytes(m.tabu) + bytes(m.intersections) + bytes(m.seen) +
           bytes(m.bfs_list) + bytes(m.sweep_order) + bytes(m.pp_order);
}

}  // namespace gameplan::path
