#include <gameplan/search/search_context.hpp>

#include <alloc_counter.hpp>

#include <chrono>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::search;

namespace {

struct Edge {
    NodeIndex to;
    double cost;
};

/// A random directed graph with optional admissible heuristic (exact distance scaled down).
struct Graph {
    std::vector<std::vector<Edge>> out;
    NodeIndex goal = 0;
    std::vector<double> h;

    std::size_t node_bound() const { return out.size(); }
    double heuristic(NodeIndex n) const { return h.empty() ? 0.0 : h[n]; }
    bool is_goal(NodeIndex n) const { return n == goal; }
    template <class Sink>
    void expand(NodeIndex n, Sink&& sink) const {
        for (std::uint32_t i = 0; i < out[n].size(); ++i) sink(out[n][i].to, out[n][i].cost, i);
    }
};

Graph random_graph(std::mt19937& rng, int nodes, int edges_per_node, bool integer_costs) {
    Graph g;
    g.out.resize(nodes);
    for (int n = 0; n < nodes; ++n)
        for (int e = 0; e < edges_per_node; ++e) {
            const double cost = integer_costs ? double(rng() % 4) : std::uniform_real_distribution<double>(0, 5)(rng);
            g.out[n].push_back({NodeIndex(rng() % nodes), cost});
        }
    g.goal = NodeIndex(rng() % nodes);
    return g;
}

/// Independent reference: Bellman-Ford distances from `start`.
std::vector<double> bellman_ford(const Graph& g, NodeIndex start) {
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<double> d(g.out.size(), inf);
    d[start] = 0;
    for (std::size_t round = 0; round < g.out.size(); ++round) {
        bool changed = false;
        for (std::size_t n = 0; n < g.out.size(); ++n)
            if (d[n] < inf)
                for (auto& e : g.out[n])
                    if (d[n] + e.cost < d[e.to]) d[e.to] = d[n] + e.cost, changed = true;
        if (!changed) break;
    }
    return d;
}

/// Exact distances to the goal (reverse Bellman-Ford), used to build admissible heuristics.
std::vector<double> distance_to_goal(const Graph& g) {
    Graph rev;
    rev.out.resize(g.out.size());
    for (std::size_t n = 0; n < g.out.size(); ++n)
        for (auto& e : g.out[n]) rev.out[e.to].push_back({NodeIndex(n), e.cost});
    return bellman_ford(rev, g.goal);
}

double path_cost(const Graph& g, const std::vector<NodeIndex>& path, const SearchContext<double>& ctx) {
    double c = 0;
    for (std::size_t i = 1; i < path.size(); ++i) c += g.out[path[i - 1]][ctx.label(path[i])].cost;
    return c;
}

}  // namespace

// The engine's costs equal Bellman-Ford's on random graphs, with zero, admissible-consistent and
// admissible-inconsistent heuristics; returned paths follow real edges and add up to the cost.
TEST(SearchContext, OptimalAgainstBellmanFordOnRandomGraphs) {
    std::mt19937 rng(12345);
    SearchContext<double> ctx;  // reused across all queries on purpose
    for (int trial = 0; trial < 600; ++trial) {
        Graph g = random_graph(rng, 5 + int(rng() % 60), 1 + int(rng() % 4), trial % 2 == 0);
        const NodeIndex start = NodeIndex(rng() % g.out.size());
        const auto ref = bellman_ford(g, start);
        const auto exact = distance_to_goal(g);
        for (int hmode = 0; hmode < 3; ++hmode) {
            g.h.assign(g.out.size(), 0.0);
            if (hmode > 0)
                for (std::size_t n = 0; n < g.h.size(); ++n) {
                    const double d = exact[n];
                    if (std::isinf(d)) g.h[n] = std::numeric_limits<double>::infinity();  // proved dead end
                    else g.h[n] = hmode == 1 ? d * 0.5 : d * double(rng() % 100) / 100.0;  // 2: inconsistent
                }
            const Status s = ctx.run(g, start);
            if (std::isinf(ref[g.goal])) {
                ASSERT_EQ(s, Status::NoPath) << "trial " << trial;
                continue;
            }
            ASSERT_EQ(s, Status::Found) << "trial " << trial << " hmode " << hmode;
            ASSERT_NEAR(ctx.g(g.goal), ref[g.goal], 1e-9);
            std::vector<NodeIndex> path;
            ctx.path_to(ctx.goal(), path);
            ASSERT_EQ(path.front(), start);
            ASSERT_EQ(path.back(), g.goal);
            ASSERT_NEAR(path_cost(g, path, ctx), ref[g.goal], 1e-9);
        }
    }
}

// Running in slices of k expansions gives exactly the same result and counters as one call.
TEST(SearchContext, SlicedSearchMatchesUnslicedSearch) {
    std::mt19937 rng(99);
    SearchContext<double> a, b;
    for (int trial = 0; trial < 200; ++trial) {
        Graph g = random_graph(rng, 200, 3, false);
        const NodeIndex start = NodeIndex(rng() % g.out.size());
        const Status whole = a.run(g, start);
        b.begin(g, start);
        Status s = Status::InProgress;
        int slices = 0;
        while ((s = b.step(g, 1 + trial % 7)) == Status::InProgress) ++slices;
        ASSERT_EQ(s, whole);
        ASSERT_EQ(a.stats().expanded, b.stats().expanded);
        ASSERT_EQ(a.stats().generated, b.stats().generated);
        if (whole == Status::Found) {
            std::vector<NodeIndex> pa, pb;
            a.path_to(a.goal(), pa);
            b.path_to(b.goal(), pb);
            ASSERT_EQ(pa, pb);
        }
    }
}

TEST(SearchContext, BudgetExhaustedIsReportedNotAborted) {
    // A long chain 0 -> 1 -> ... -> 999; the goal is the end.
    Graph g;
    g.out.resize(1000);
    for (NodeIndex i = 0; i + 1 < 1000; ++i) g.out[i].push_back({i + 1, 1.0});
    g.goal = 999;
    SearchContext<double> ctx;
    Budget budget;
    budget.max_expansions = 10;
    EXPECT_EQ(ctx.run(g, 0, budget), Status::BudgetExhausted);
    EXPECT_EQ(ctx.stats().expanded, 10u);
    EXPECT_EQ(ctx.run(g, 0), Status::Found);
    EXPECT_EQ(ctx.g(999), 999.0);
}

TEST(SearchContext, MultiSourceTakesTheCheapestSource) {
    Graph g;
    g.out.resize(5);  // 0 -> 4 (10), 1 -> 4 (1), 2 -> 4 (1) with start cost 5
    g.out[0].push_back({4, 10});
    g.out[1].push_back({4, 1});
    g.out[2].push_back({4, 1});
    g.goal = 4;
    SearchContext<double> ctx;
    const NodeIndex starts[] = {0, 1, 2};
    const double costs[] = {0, 3, 0.5};
    ctx.begin(g, starts, costs);
    ASSERT_EQ(ctx.step(g), Status::Found);
    EXPECT_DOUBLE_EQ(ctx.g(4), 1.5);
    EXPECT_EQ(ctx.parent(4), 2u);
}

TEST(SearchContext, StartIsGoal) {
    Graph g;
    g.out.resize(3);
    g.goal = 1;
    SearchContext<double> ctx;
    ASSERT_EQ(ctx.run(g, 1), Status::Found);
    EXPECT_EQ(ctx.stats().expanded, 0u);
    std::vector<NodeIndex> path;
    ctx.path_to(ctx.goal(), path);
    EXPECT_EQ(path, std::vector<NodeIndex>{1});
}

// After one warm-up query, further queries on the same context allocate nothing.
TEST(SearchContext, NoAllocationAfterWarmUp) {
    std::mt19937 rng(5);
    Graph g = random_graph(rng, 2000, 4, false);
    SearchContext<double> ctx;
    std::vector<NodeIndex> path;
    path.reserve(g.out.size());
    for (NodeIndex s = 0; s < 20; ++s) (void)ctx.run(g, s);  // warm-up
    gameplan::test::AllocationScope scope;
    for (NodeIndex s = 0; s < 200; ++s) {
        if (ctx.run(g, s % 20) == Status::Found) ctx.path_to(ctx.goal(), path);
    }
    EXPECT_EQ(scope.count(), 0u);
}

// Many generations: the stamp scheme must keep searches independent (nothing leaks between queries).
TEST(SearchContext, GenerationsKeepSearchesIndependent) {
    std::mt19937 rng(3);
    Graph g = random_graph(rng, 50, 2, true);
    SearchContext<double> ctx;
    const auto ref = bellman_ford(g, 0);
    for (int i = 0; i < 5000; ++i) {
        g.goal = NodeIndex(i % 50);
        const Status s = ctx.run(g, 0);
        if (std::isinf(ref[g.goal])) ASSERT_EQ(s, Status::NoPath);
        else ASSERT_DOUBLE_EQ(ctx.g(g.goal), ref[g.goal]);
    }
}

namespace {
/// An endless binary tree whose node ids are handed out as the search generates them (like a GOAP
/// registry), with no goal: without a brake the search grows forever. Its own per-node storage is
/// reported through memory_bytes(), which the memory budget must count.
struct EndlessTree {
    std::vector<std::uint64_t> storage;  // 8 bytes per node handed out
    std::chrono::microseconds expand_delay{0};

    std::size_t node_bound() const { return storage.size(); }
    std::size_t memory_bytes() const { return storage.capacity() * sizeof(std::uint64_t); }
    double heuristic(NodeIndex) const { return 0.0; }
    bool is_goal(NodeIndex) const { return false; }
    template <class Sink>
    void expand(NodeIndex, Sink&& sink) {
        if (expand_delay.count() > 0) {
            const auto until = std::chrono::steady_clock::now() + expand_delay;
            while (std::chrono::steady_clock::now() < until) {
            }
        }
        for (std::uint32_t i = 0; i < 2; ++i) {
            storage.push_back(storage.size());
            sink(NodeIndex(storage.size() - 1), 1.0, i);
        }
    }
};
}  // namespace

// The memory budget stops a search that would grow without end, and counts the space's own storage.
TEST(SearchContext, MemoryBudgetStopsAnEndlessSearch) {
    for (const std::size_t limit : {std::size_t{64} << 10, std::size_t{1} << 20, std::size_t{8} << 20}) {
        EndlessTree tree;
        tree.storage.push_back(0);
        SearchContext<double> ctx;
        Budget budget;
        budget.max_memory_bytes = limit;
        EXPECT_EQ(ctx.run(tree, 0, budget), Status::BudgetExhausted) << limit;
        EXPECT_EQ(ctx.budget_limit(), BudgetLimit::Memory);
        EXPECT_LE(ctx.memory_bytes(), limit) << "the engine grew past its budget";
        EXPECT_GT(ctx.memory_bytes(), limit / 4) << "the engine stopped far below its budget";
        EXPECT_GT(ctx.memory_bytes(), ctx.engine_bytes()) << "the space's storage was not counted";
    }
    // Other limits are named too; an unlimited run is ended by the expansion budget here.
    EndlessTree tree;
    tree.storage.push_back(0);
    SearchContext<double> ctx;
    Budget budget;
    budget.max_expansions = 1000;
    EXPECT_EQ(ctx.run(tree, 0, budget), Status::BudgetExhausted);
    EXPECT_EQ(ctx.budget_limit(), BudgetLimit::Expansions);
    EXPECT_EQ(ctx.run(tree, 0, Budget{1000, std::chrono::steady_clock::now() - std::chrono::seconds(1)}), Status::BudgetExhausted);
    EXPECT_EQ(ctx.budget_limit(), BudgetLimit::Time);
    EXPECT_EQ(ctx.stats().expanded, 0u);
}

// A deadline is kept to within one expansion when expansions are slow (here 2 ms each): the engine
// does not wait for 64 of them before it reads the clock.
TEST(SearchContext, DeadlineWithSlowExpansions) {
    EndlessTree tree;
    tree.storage.push_back(0);
    tree.expand_delay = std::chrono::milliseconds(2);
    SearchContext<double> ctx;
    Budget budget;
    budget.deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(10);
    EXPECT_EQ(ctx.run(tree, 0, budget), Status::BudgetExhausted);
    EXPECT_EQ(ctx.budget_limit(), BudgetLimit::Time);
    EXPECT_LT(ctx.stats().expanded, 64u);  // 10 ms of 2 ms expansions: about 5, never a block of 64
}
