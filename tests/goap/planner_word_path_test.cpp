// The one-word fast path (word search engine, bitset h_max, flat open list, cached compiled goal) must
// give exactly what the generic path gives: the same status, plan (action for action), cost, expanded /
// generated / reopened counts, unreachable goal literals and relevant counts, query after query. The
// generic path (registry + search::SearchContext + list-based h_max) is checked against brute force in
// planner_property_test.cpp; here a plain uniform-cost search over explicit states also checks costs.
//
// Queries vary start, goal, enable mask, costs, direction and budget between calls on one reused
// planner, and each answer is compared with a fresh planner (nothing cached) and the generic path.
#include <gameplan/goap/planner.hpp>

#include <cstdint>
#include <map>
#include <queue>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::goap;

namespace {

std::string cat(std::string prefix, long long n) {
    prefix += std::to_string(n);
    return prefix;
}

struct Outcome {
    Status status = Status::InvalidQuery;
    double cost = 0;
    std::vector<ActionId> plan;
    search::SearchStats stats;
    std::vector<Literal> unreachable;
    std::size_t relevant_actions = 0;
    std::size_t relevant_atoms = 0;
};

Outcome run(Planner& planner, const WorldState& start, const Condition& goal, const PlanOptions& o, std::uint64_t slice = 0) {
    Outcome out;
    PlanResult r;
    if (slice == 0) {
        r = planner.plan(start, goal, o);
    } else {
        Status s = planner.begin(start, goal, o);
        while (s == Status::InProgress) s = planner.step(slice);
        r = planner.result();
    }
    out.status = r.status;
    out.cost = r.cost;
    out.plan.assign(r.plan.begin(), r.plan.end());
    out.stats = r.stats;
    const auto u = planner.unreachable_goals();
    out.unreachable.assign(u.begin(), u.end());
    out.relevant_actions = planner.relevant_action_count();
    out.relevant_atoms = planner.relevant_atom_count();
    return out;
}

void expect_same(const Outcome& a, const Outcome& b, const std::string& where) {
    ASSERT_EQ(a.status, b.status) << where;
    ASSERT_EQ(a.cost, b.cost) << where;
    ASSERT_EQ(a.plan, b.plan) << where;
    ASSERT_EQ(a.stats.expanded, b.stats.expanded) << where;
    ASSERT_EQ(a.stats.generated, b.stats.generated) << where;
    ASSERT_EQ(a.stats.reopened, b.stats.reopened) << where;
    ASSERT_EQ(a.unreachable, b.unreachable) << where;
    ASSERT_EQ(a.relevant_actions, b.relevant_actions) << where;
    ASSERT_EQ(a.relevant_atoms, b.relevant_atoms) << where;
}

// Uniform-cost search on (cost, length) over explicit states: the optimal cost, or -1 if none.
double brute_force_cost(const Domain& d, const WorldState& start, const Condition& goal, const std::vector<std::uint8_t>& enabled,
                        const std::vector<double>& costs) {
    const std::size_t n = d.atom_count();
    const auto key = [&](const WorldState& s) {
        std::vector<bool> k(n);
        for (std::size_t i = 0; i < n; ++i) k[i] = s.get(AtomId(static_cast<std::uint32_t>(i)));
        return k;
    };
    using Item = std::tuple<double, int, std::vector<bool>>;
    std::priority_queue<Item, std::vector<Item>, std::greater<>> open;
    std::map<std::vector<bool>, std::pair<double, int>> best;
    open.emplace(0.0, 0, key(start));
    best[key(start)] = {0.0, 0};
    while (!open.empty()) {
        auto [c, len, k] = open.top();
        open.pop();
        if (best[k] != std::make_pair(c, len)) continue;
        WorldState s = d.make_state();
        for (std::size_t i = 0; i < n; ++i) s.set(AtomId(static_cast<std::uint32_t>(i)), k[i]);
        if (s.satisfies(goal)) return c;
        for (std::uint32_t a = 0; a < d.action_count(); ++a) {
            if (!enabled.empty() && !enabled[a]) continue;
            if (!s.satisfies(d.preconditions(ActionId(a)))) continue;
            WorldState t = s;
            t.apply(d.effects(ActionId(a)));
            const std::pair<double, int> cand{c + (costs.empty() ? d.action_cost(ActionId(a)) : costs[a]), len + 1};
            const auto tk = key(t);
            const auto it = best.find(tk);
            if (it == best.end() || cand < it->second) {
                best[tk] = cand;
                open.emplace(cand.first, cand.second, tk);
            }
        }
    }
    return -1;
}

// Random STRIPS domain; costs include 0 and fractions so decrease-key and ties happen.
Domain random_domain(std::mt19937& rng, int atoms, int actions) {
    static const double kCosts[] = {0, 0.5, 1, 1, 2, 3, 5, 0.25};
    DomainBuilder b;
    for (int i = 0; i < atoms; ++i) b.add_atom(cat("p", i));
    for (int a = 0; a < actions; ++a) {
        std::vector<Literal> pre, eff;
        std::vector<bool> used_pre(static_cast<std::size_t>(atoms)), used_eff(static_cast<std::size_t>(atoms));
        const int npre = static_cast<int>(rng() % 3), neff = 1 + static_cast<int>(rng() % 3);
        for (int k = 0; k < npre; ++k) {
            const std::uint32_t x = rng() % static_cast<unsigned>(atoms);
            if (used_pre[x]) continue;
            used_pre[x] = true;
            pre.push_back(Literal{AtomId(x), rng() % 2 == 0});
        }
        for (int k = 0; k < neff; ++k) {
            const std::uint32_t x = rng() % static_cast<unsigned>(atoms);
            if (used_eff[x]) continue;
            used_eff[x] = true;
            eff.push_back(Literal{AtomId(x), rng() % 2 == 0});
        }
        EXPECT_EQ(b.add_action(cat("a", a), kCosts[rng() % 8], pre, eff), DomainError::None);
    }
    return b.build();
}

WorldState random_state(std::mt19937& rng, const Domain& d) {
    WorldState s = d.make_state();
    for (std::uint32_t i = 0; i < d.atom_count(); ++i) s.set(AtomId(i), rng() % 2 == 0);
    return s;
}

Condition random_goal(std::mt19937& rng, const Domain& d) {
    Condition g = d.make_condition();
    const int n = static_cast<int>(rng() % 4);  // 0..3 literals: an empty goal is legal
    for (int k = 0; k < n; ++k) g.set(AtomId(static_cast<std::uint32_t>(rng() % d.atom_count())), rng() % 2 == 0);
    return g;
}

// Up to `literals` literals of the state a random `steps`-step walk from `start` reaches that differ from
// the start: a goal that needs a real search.
Condition walk_goal(std::mt19937& rng, const Domain& d, const WorldState& start, int steps, int literals) {
    WorldState s = start;
    for (int step = 0, tries = 0; step < steps && tries < 10000; ++tries) {
        const ActionId a(static_cast<std::uint32_t>(rng() % d.action_count()));
        if (!s.satisfies(d.preconditions(a))) continue;
        s.apply(d.effects(a));
        ++step;
    }
    Condition g = d.make_condition();
    int n = 0;
    for (std::uint32_t i = 0; i < d.atom_count() && n < literals; ++i)
        if (s.get(AtomId(i)) != start.get(AtomId(i))) {
            g.set(AtomId(i), s.get(AtomId(i)));
            ++n;
        }
    return g;
}

// Runs a stream of varied queries on one reused planner and compares every answer with a fresh planner
// (uncached), the generic representation, and (for small domains) the brute-force optimal cost.
// Returns the largest number of expansions seen, so callers can check that big searches happened.
// `cap` bounds every query's expansions (0: only the random budgets).
// `deep`: goals come from long random walks instead of random literals.
std::uint64_t check_stream(std::mt19937& rng, const Domain& d, int queries, bool brute_force, std::uint64_t cap = 0, bool deep = false) {
    Planner reused(d);
    const std::size_t n = d.action_count();
    std::vector<std::uint8_t> enabled(n, 1);
    std::vector<double> costs(d.action_costs().begin(), d.action_costs().end());
    WorldState start = random_state(rng, d);
    const auto new_goal = [&] { return deep ? walk_goal(rng, d, start, 40, 6) : random_goal(rng, d); };
    Condition goal = new_goal();
    std::uint64_t max_expanded = 0;
    for (int q = 0; q < queries; ++q) {
        // Change one thing (or nothing) since the previous query, so both cache hits and misses occur.
        switch (rng() % 6) {
            case 0: start.set(AtomId(static_cast<std::uint32_t>(rng() % d.atom_count())), rng() % 2 == 0); break;
            case 1: goal = new_goal(); break;
            case 2: enabled[rng() % n] = static_cast<std::uint8_t>(rng() % 3 != 0); break;
            case 3: costs[rng() % n] = static_cast<double>(rng() % 5) * 0.5; break;
            case 4:
                start = random_state(rng, d);
                if (deep) goal = new_goal();
                break;
            default: break;  // the same query again
        }
        PlanOptions o;
        o.direction = rng() % 2 ? Direction::Forward : Direction::Backward;
        const bool use_mask = rng() % 3 != 0, use_costs = rng() % 3 != 0;
        if (use_mask) o.enabled = enabled;
        if (use_costs) o.costs = costs;
        if (rng() % 5 == 0) o.budget.max_expansions = rng() % 20;
        else if (cap) o.budget.max_expansions = cap;
        const std::uint64_t slice = rng() % 4 == 0 ? 1 + rng() % 5 : 0;
        std::string where = cat("query ", q);
        where += std::string(" ") + std::string(to_string(o.direction));
        where += cat(" budget ", o.budget.max_expansions == UINT64_MAX ? -1LL : static_cast<long long>(o.budget.max_expansions));
        where += cat(" slice ", static_cast<long long>(slice));

        const Outcome word = run(reused, start, goal, o, slice);
        Planner fresh_planner(d);
        const Outcome fresh = run(fresh_planner, start, goal, o);
        PlanOptions g = o;
        g.force_generic_representation = true;
        Planner generic_planner(d);
        const Outcome generic = run(generic_planner, start, goal, g);
        expect_same(word, fresh, where + " (reused vs fresh)");
        if (::testing::Test::HasFatalFailure()) return max_expanded;
        expect_same(word, generic, where + " (one-word vs generic)");
        if (::testing::Test::HasFatalFailure()) return max_expanded;
        // Sometimes the reused planner also takes the generic path, so the next word-path query follows
        // a generic one (and otherwise follows a word-path query, whose start memo it may reuse).
        if (rng() % 3 == 0) {
            expect_same(run(reused, start, goal, g), generic, where + " (reused generic)");
            if (::testing::Test::HasFatalFailure()) return max_expanded;
        }
        max_expanded = std::max<std::uint64_t>(max_expanded, word.stats.expanded);
        if (brute_force && o.budget.max_expansions == UINT64_MAX) {  // (cap is 0 whenever brute_force is set)
            const double ref = brute_force_cost(d, start, goal, use_mask ? enabled : std::vector<std::uint8_t>{},
                                                use_costs ? costs : std::vector<double>{});
            if (ref < 0) {
                EXPECT_EQ(word.status, Status::NoPath) << where;
            } else {
                EXPECT_EQ(word.status, Status::Found) << where;
                EXPECT_EQ(word.cost, ref) << where;
            }
            if (::testing::Test::HasFailure()) return max_expanded;
        }
    }
    return max_expanded;
}

}  // namespace

// Small domains (a handful of atoms and actions): the gpgoap_example size class.
TEST(PlannerWordPath, SmallDomainsMatchGenericFreshAndBruteForce) {
    std::mt19937 rng(424242);
    for (int i = 0; i < 150; ++i) {
        const Domain d = random_domain(rng, 2 + static_cast<int>(rng() % 9), 1 + static_cast<int>(rng() % 14));
        check_stream(rng, d, 25, true);
        if (HasFatalFailure()) return;
    }
}

// More than 64 relevant actions on one-word states: the word engine with the list-based h_max.
TEST(PlannerWordPath, ManyActionsMatchGeneric) {
    std::mt19937 rng(77);
    for (int i = 0; i < 8; ++i) {
        const Domain d = random_domain(rng, 10 + static_cast<int>(rng() % 6), 70 + static_cast<int>(rng() % 60));
        check_stream(rng, d, 20, i < 3);
        if (HasFatalFailure()) return;
    }
}

// Searches large enough that the flat open list spills into the heap and the hash table grows
// mid-query, and relevant-atom counts up to the one-word limit.
TEST(PlannerWordPath, LargeSearchesMatchGeneric) {
    std::mt19937 rng(99);
    std::uint64_t most = 0;
    for (int i = 0; i < 10; ++i) {
        const int atoms = i < 5 ? 14 + static_cast<int>(rng() % 4) : 60 + static_cast<int>(rng() % 5);
        const Domain d = random_domain(rng, atoms, 40 + static_cast<int>(rng() % 20));
        most = std::max(most, check_stream(rng, d, 12, false, 20000, true));
        if (HasFatalFailure()) return;
    }
    EXPECT_GT(most, 1000u) << "no query searched enough to leave the small-search regime";
}

// The start memo: a query that repeats the compiled goal and the start's projection reuses the h_max
// table and action list. Interleave repeats with everything that must invalidate or bypass it (another
// start, a start differing only in atoms outside the goal's relevance, the generic path, a new goal, a
// new mask or costs, an unreachable goal) and compare every answer with a fresh planner.
TEST(PlannerWordPath, StartMemoMatchesFreshPlanner) {
    std::mt19937 rng(31337);
    int repeats_found = 0;
    for (int i = 0; i < 200; ++i) {
        const Domain d = random_domain(rng, 3 + static_cast<int>(rng() % 8), 2 + static_cast<int>(rng() % 12));
        Planner reused(d);
        const WorldState s1 = random_state(rng, d), s2 = random_state(rng, d);
        const Condition g1 = random_goal(rng, d), g2 = random_goal(rng, d);
        std::vector<double> costs(d.action_costs().begin(), d.action_costs().end());
        costs[0] += 1;
        std::vector<std::uint8_t> mask(d.action_count(), 1);
        mask[d.action_count() - 1] = 0;
        WorldState s1_flipped = s1;  // differs in one atom, which may or may not be relevant
        s1_flipped.set(AtomId(0), !s1.get(AtomId(0)));
        struct Step {
            const WorldState* start;
            const Condition* goal;
            bool generic, use_costs, use_mask;
        };
        const Step steps[] = {
            {&s1, &g1, false, false, false}, {&s1, &g1, false, false, false}, {&s2, &g1, false, false, false},
            {&s1, &g1, false, false, false}, {&s1_flipped, &g1, false, false, false}, {&s1, &g1, true, false, false},
            {&s1, &g1, false, false, false}, {&s1, &g2, false, false, false}, {&s1, &g1, false, false, false},
            {&s1, &g1, false, true, false},  {&s1, &g1, false, true, false},  {&s1, &g1, false, false, true},
            {&s1, &g1, false, false, false}, {&s2, &g2, false, false, false}, {&s2, &g2, false, false, false},
        };
        for (std::size_t k = 0; k < std::size(steps); ++k) {
            const Step& st = steps[k];
            for (const Direction dir : {Direction::Backward, Direction::Forward}) {
                PlanOptions o;
                o.direction = dir;
                o.force_generic_representation = st.generic;
                if (st.use_costs) o.costs = costs;
                if (st.use_mask) o.enabled = mask;
                Planner fresh(d);
                const Outcome a = run(reused, *st.start, *st.goal, o);
                expect_same(a, run(fresh, *st.start, *st.goal, o), cat(cat("domain ", i) + " step ", static_cast<long long>(k)));
                if (HasFatalFailure()) return;
                repeats_found += k == 1 && a.status == Status::Found;
            }
        }
    }
    EXPECT_GT(repeats_found, 100);
}
