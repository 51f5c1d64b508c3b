// Property test: on thousands of random small domains both search directions return plans whose cost
// (and length among equal-cost plans) equals a brute-force uniform-cost search written here, over
// explicit std::vector<bool> states, sharing no code with the planner. Plus families built to break
// inadmissible heuristics.
#include <gameplan/goap/planner.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <queue>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::goap;

// "prefix" + std::to_string(n) without GCC 12's false -Wrestrict positive on operator+(const char*, string&&).
[[maybe_unused]] static std::string cat(std::string prefix, long long n) {
    prefix += std::to_string(n);
    return prefix;
}


namespace {

// ---- the independent reference ----------------------------------------------------------------------

struct RefAction {
    std::string name;
    double cost;
    std::vector<std::pair<int, bool>> pre, eff;
};
struct RefProblem {
    int atoms = 0;
    std::vector<RefAction> actions;
    std::vector<bool> start;
    std::vector<std::pair<int, bool>> goal;
};

bool holds(const std::vector<bool>& s, const std::vector<std::pair<int, bool>>& cond) {
    for (const auto& [a, v] : cond)
        if (s[static_cast<std::size_t>(a)] != v) return false;
    return true;
}

struct RefAnswer {
    bool reachable = false;
    double cost = 0;
    int length = 0;
};

// Dijkstra on (cost, length) over every reachable state; `enabled` and `costs` as the planner gets them.
RefAnswer reference(const RefProblem& p, const std::vector<std::uint8_t>& enabled = {}, const std::vector<double>& costs = {}) {
    using Key = std::tuple<double, int, std::vector<bool>>;
    std::priority_queue<Key, std::vector<Key>, std::greater<>> open;
    std::map<std::vector<bool>, std::pair<double, int>> best;
    open.emplace(0.0, 0, p.start);
    best[p.start] = {0.0, 0};
    while (!open.empty()) {
        auto [c, n, s] = open.top();
        open.pop();
        if (best[s] != std::make_pair(c, n)) continue;
        if (holds(s, p.goal)) return {true, c, n};
        for (std::size_t a = 0; a < p.actions.size(); ++a) {
            if (!enabled.empty() && !enabled[a]) continue;
            if (!holds(s, p.actions[a].pre)) continue;
            std::vector<bool> t = s;
            for (const auto& [x, v] : p.actions[a].eff) t[static_cast<std::size_t>(x)] = v;
            const std::pair<double, int> cand{c + (costs.empty() ? p.actions[a].cost : costs[a]), n + 1};
            const auto it = best.find(t);
            if (it == best.end() || cand < it->second) {
                best[t] = cand;
                open.emplace(cand.first, cand.second, t);
            }
        }
    }
    return {};
}

// Simulates `plan` on the reference problem: true if executable and ends in a goal state.
bool simulate(const RefProblem& p, std::span<const ActionId> plan, double& cost, const std::vector<double>& costs = {}) {
    std::vector<bool> s = p.start;
    cost = 0;
    for (const ActionId id : plan) {
        const RefAction& a = p.actions[id.value];
        if (!holds(s, a.pre)) return false;
        for (const auto& [x, v] : a.eff) s[static_cast<std::size_t>(x)] = v;
        cost += costs.empty() ? a.cost : costs[id.value];
    }
    return holds(s, p.goal);
}

// ---- building the same problem for the planner -------------------------------------------------------

struct Built {
    Domain domain;
    WorldState start;
    Condition goal;
};

Built build(const RefProblem& p) {
    DomainBuilder b;
    for (int i = 0; i < p.atoms; ++i) b.add_atom(cat("v", i));
    const auto lits = [](const std::vector<std::pair<int, bool>>& in) {
        std::vector<Literal> out;
        for (const auto& [a, v] : in) out.push_back(Literal{AtomId(static_cast<std::uint32_t>(a)), v});
        return out;
    };
    for (const RefAction& a : p.actions) {
        const DomainError e = b.add_action(a.name, a.cost, lits(a.pre), lits(a.eff));
        EXPECT_EQ(e, DomainError::None);
    }
    Built out{b.build(), {}, {}};
    out.start = out.domain.make_state();
    for (int i = 0; i < p.atoms; ++i) out.start.set(AtomId(static_cast<std::uint32_t>(i)), p.start[static_cast<std::size_t>(i)]);
    out.goal = out.domain.make_condition();
    for (const auto& [a, v] : p.goal) out.goal.set(AtomId(static_cast<std::uint32_t>(a)), v);
    return out;
}

// Distinct atoms with random values.
std::vector<std::pair<int, bool>> random_literals(std::mt19937& rng, int atoms, int count) {
    std::vector<std::pair<int, bool>> out;
    std::vector<bool> used(static_cast<std::size_t>(atoms));
    for (int k = 0; k < count; ++k) {
        const int a = static_cast<int>(rng() % static_cast<unsigned>(atoms));
        if (used[static_cast<std::size_t>(a)]) continue;
        used[static_cast<std::size_t>(a)] = true;
        out.emplace_back(a, rng() % 2 == 0);
    }
    return out;
}

RefProblem random_problem(std::mt19937& rng) {
    RefProblem p;
    p.atoms = 2 + static_cast<int>(rng() % 7);  // 2..8
    const int actions = 1 + static_cast<int>(rng() % 10);
    static const double kCosts[] = {0, 0.5, 1, 1, 2, 3, 5, 0.25};
    for (int a = 0; a < actions; ++a) {
        RefAction act;
        act.name = cat("a", a);
        act.cost = kCosts[rng() % 8];
        act.pre = random_literals(rng, p.atoms, static_cast<int>(rng() % 3));
        act.eff = random_literals(rng, p.atoms, 1 + static_cast<int>(rng() % 3));
        p.actions.push_back(std::move(act));
    }
    for (int i = 0; i < p.atoms; ++i) p.start.push_back(rng() % 2 == 0);
    p.goal = random_literals(rng, p.atoms, 1 + static_cast<int>(rng() % 3));
    return p;
}

void check(const RefProblem& p, const std::string& label, const std::vector<std::uint8_t>& enabled = {},
           const std::vector<double>& costs = {}) {
    const RefAnswer ref = reference(p, enabled, costs);
    const Built b = build(p);
    Planner planner(b.domain);
    for (const Direction dir : {Direction::Forward, Direction::Backward})
        for (const bool generic : {false, true}) {
            PlanOptions o;
            o.direction = dir;
            o.enabled = enabled;
            o.costs = costs;
            o.force_generic_representation = generic;
            const PlanResult r = planner.plan(b.start, b.goal, o);
            const std::string where = label + " " + std::string(to_string(dir)) + (generic ? " generic" : "");
            if (!ref.reachable) {
                ASSERT_EQ(r.status, Status::NoPath) << where;
                continue;
            }
            ASSERT_EQ(r.status, Status::Found) << where;
            double simulated = 0;
            ASSERT_TRUE(simulate(p, r.plan, simulated, costs)) << where << ": plan is not valid";
            for (const ActionId a : r.plan) ASSERT_TRUE(enabled.empty() || enabled[a.value]) << where << ": disabled action used";
            ASSERT_EQ(simulated, ref.cost) << where;
            ASSERT_EQ(r.cost, ref.cost) << where;
            ASSERT_EQ(static_cast<int>(r.plan.size()), ref.length) << where << ": not the fewest actions among optimal plans";
            ASSERT_EQ(r.stats.reopened, 0u) << where << ": both heuristics are consistent";
        }
}

}  // namespace

TEST(PlannerProperty, RandomSmallDomainsMatchBruteForce) {
    std::mt19937 rng(20240601);
    int found = 0, unreachable = 0;
    for (int i = 0; i < 1500; ++i) {
        const RefProblem p = random_problem(rng);
        found += reference(p).reachable;
        unreachable += !reference(p).reachable;
        check(p, cat("domain ", i));
        if (HasFatalFailure()) return;
    }
    // The generator must exercise both outcomes.
    EXPECT_GT(found, 500);
    EXPECT_GT(unreachable, 50);
}

TEST(PlannerProperty, RandomMasksAndCostOverridesMatchBruteForce) {
    std::mt19937 rng(77);
    for (int i = 0; i < 500; ++i) {
        const RefProblem p = random_problem(rng);
        std::vector<std::uint8_t> enabled(p.actions.size());
        std::vector<double> costs(p.actions.size());
        for (std::size_t a = 0; a < p.actions.size(); ++a) {
            enabled[a] = rng() % 4 != 0;
            costs[a] = static_cast<double>(rng() % 6);
        }
        check(p, cat("masked domain ", i), enabled, costs);
        if (HasFatalFailure()) return;
    }
}

// One action achieving many goal atoms (an unmet-atom count would say k, the truth is 2).
TEST(PlannerProperty, OneActionAchievesManyGoalAtoms) {
    for (int k = 2; k <= 7; ++k) {
        RefProblem p;
        p.atoms = k + 1;
        p.start.assign(static_cast<std::size_t>(p.atoms), false);
        RefAction all{"all_at_once", 2, {}, {}};
        for (int g = 0; g < k; ++g) {
            p.actions.push_back(RefAction{cat("single_", g), 1, {}, {{g, true}}});
            all.eff.emplace_back(g, true);
            p.goal.emplace_back(g, true);
        }
        p.actions.push_back(all);
        // A decoy that needs a setup step first.
        p.actions.push_back(RefAction{"setup", 0.5, {}, {{k, true}}});
        p.actions.push_back(RefAction{"after_setup", 2, {{k, true}}, {{0, true}, {1, true}}});
        check(p, cat("many-goals k=", k));
        EXPECT_EQ(reference(p).cost, 2);
    }
}

// Zero-cost actions and cycles: toggles, loops of free actions, and a free undo of the goal.
TEST(PlannerProperty, ZeroCostActionsAndCycles) {
    std::mt19937 rng(3);
    for (int i = 0; i < 300; ++i) {
        RefProblem p;
        p.atoms = 3 + static_cast<int>(rng() % 4);
        for (int a = 0; a < p.atoms; ++a) {
            const int b = (a + 1) % p.atoms;
            p.actions.push_back(RefAction{cat("fwd", a), 0, {{a, true}}, {{b, true}, {a, false}}});
            p.actions.push_back(RefAction{cat("back", a), static_cast<double>(rng() % 2), {{b, true}}, {{a, true}, {b, false}}});
            p.actions.push_back(RefAction{cat("toggle", a), 0, {{a, false}}, {{a, true}}});
            p.actions.push_back(RefAction{cat("untoggle", a), 0, {{a, true}}, {{a, false}}});
        }
        p.actions.push_back(RefAction{"finish", 1 + static_cast<double>(rng() % 3), {{0, true}, {p.atoms - 1, false}}, {{p.atoms, true}}});
        ++p.atoms;
        for (int a = 0; a < p.atoms; ++a) p.start.push_back(rng() % 2 == 0);
        p.start.back() = false;
        p.goal = {{p.atoms - 1, true}};
        check(p, cat("cycles ", i));
        if (HasFatalFailure()) return;
    }
}

TEST(PlannerProperty, GoalsAlreadySatisfied) {
    std::mt19937 rng(4);
    for (int i = 0; i < 200; ++i) {
        RefProblem p = random_problem(rng);
        for (const auto& [a, v] : p.goal) p.start[static_cast<std::size_t>(a)] = v;
        const Built b = build(p);
        Planner planner(b.domain);
        for (const Direction dir : {Direction::Forward, Direction::Backward}) {
            PlanOptions o;
            o.direction = dir;
            const PlanResult r = planner.plan(b.start, b.goal, o);
            ASSERT_EQ(r.status, Status::Found);
            EXPECT_TRUE(r.plan.empty());
            EXPECT_EQ(r.cost, 0);
        }
    }
}

// Goals that need atoms to become false, reachable only through actions with delete effects.
TEST(PlannerProperty, GoalsRequiringFalseAtoms) {
    std::mt19937 rng(5);
    for (int i = 0; i < 300; ++i) {
        RefProblem p = random_problem(rng);
        p.goal.clear();
        for (int a = 0; a < p.atoms; ++a)
            if (rng() % 2) {
                p.goal.emplace_back(a, false);
                p.start[static_cast<std::size_t>(a)] = true;
            }
        if (p.goal.empty()) {
            p.goal.emplace_back(0, false);
            p.start[0] = true;
        }
        check(p, cat("false goals ", i));
        if (HasFatalFailure()) return;
    }
}

// Unreachable goals: an atom no action sets, and atoms that exclude each other.
TEST(PlannerProperty, UnreachableGoals) {
    std::mt19937 rng(6);
    for (int i = 0; i < 300; ++i) {
        RefProblem p = random_problem(rng);
        const int lonely = p.atoms++;
        p.start.push_back(false);
        p.goal.emplace_back(lonely, true);
        if (i % 2) {  // make it reachable only together with a contradiction
            p.actions.push_back(RefAction{"set_lonely", 1, {}, {{lonely, true}, {0, false}}});
            p.goal.erase(std::remove_if(p.goal.begin(), p.goal.end(), [](const auto& l) { return l.first == 0; }), p.goal.end());
            p.goal.emplace_back(0, true);
            for (RefAction& a : p.actions)
                for (auto& e : a.eff)
                    if (e.first == 0 && e.second) e.second = false;
        }
        check(p, cat("unreachable ", i));
        if (HasFatalFailure()) return;
    }
}

// One planner reused across a stream of queries that change the goal, the start, the enable mask and
// the costs in every combination (the planner keeps the goal-dependent compilation when goal, mask and
// costs repeat): every answer must equal the brute force for that query.
TEST(PlannerProperty, ReusedPlannerAcrossChangingQueries) {
    std::mt19937 rng(8);
    for (int i = 0; i < 100; ++i) {
        const RefProblem base = random_problem(rng);
        const Built b = build(base);
        Planner planner(b.domain);
        const std::size_t n = base.actions.size();
        std::vector<std::uint8_t> enabled(n, 1);
        std::vector<double> costs(n, 1.0);
        RefProblem p = base;
        for (int q = 0; q < 30; ++q) {
            switch (rng() % 5) {
                case 0: p.start[rng() % p.start.size()] = rng() % 2 == 0; break;
                case 1: p.goal = random_literals(rng, p.atoms, 1 + static_cast<int>(rng() % 3)); break;
                case 2: enabled[rng() % n] = rng() % 2; break;
                case 3: costs[rng() % n] = static_cast<double>(rng() % 5); break;
                default: break;  // repeat the previous query exactly
            }
            const bool use_mask = q % 3 != 0, use_costs = q % 4 != 0;
            const std::vector<std::uint8_t> no_mask;
            const std::vector<double> no_costs;
            const RefAnswer ref = reference(p, use_mask ? enabled : no_mask, use_costs ? costs : no_costs);
            WorldState start = b.domain.make_state();
            for (int a = 0; a < p.atoms; ++a) start.set(AtomId(static_cast<std::uint32_t>(a)), p.start[static_cast<std::size_t>(a)]);
            Condition goal = b.domain.make_condition();
            for (const auto& [a, v] : p.goal) goal.set(AtomId(static_cast<std::uint32_t>(a)), v);
            PlanOptions o;
            o.direction = q % 2 ? Direction::Forward : Direction::Backward;
            if (use_mask) o.enabled = enabled;
            if (use_costs) o.costs = costs;
            const PlanResult r = planner.plan(start, goal, o);
            if (!ref.reachable) {
                ASSERT_EQ(r.status, Status::NoPath) << "problem " << i << " query " << q;
                continue;
            }
            ASSERT_EQ(r.status, Status::Found) << "problem " << i << " query " << q;
            ASSERT_EQ(r.cost, ref.cost) << "problem " << i << " query " << q;
            ASSERT_EQ(static_cast<int>(r.plan.size()), ref.length) << "problem " << i << " query " << q;
            double simulated = 0;
            ASSERT_TRUE(simulate(p, r.plan, simulated, use_costs ? costs : no_costs));
            for (const ActionId a : r.plan) ASSERT_TRUE(!use_mask || enabled[a.value]) << "disabled action used";
        }
    }
}
