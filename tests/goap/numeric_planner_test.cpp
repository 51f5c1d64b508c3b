// Numeric and enumerated variables in the planner: random domains against an independent brute-force
// uniform-cost search over concrete states (written here, applying the format's semantics literally),
// bounds and effect-order edge cases, budgets and slices, and zero allocations after warm-up.
#include <gameplan/goap/planner.hpp>

#include <alloc_counter.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
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

// ---- a plain description of a domain, and the brute force that reads only it ----------------------

struct Var {
    int min, max;
    bool is_enum;
};
struct Cmp {
    int var;
    int op;  // 0 ==, 1 !=, 2 <, 3 <=, 4 >, 5 >=
    int value;
};
struct Eff {
    int var;
    int op;  // 0 =, 1 +, 2 -
    int value;
};
struct Act {
    double cost;
    std::vector<std::pair<int, bool>> pre_atoms, eff_atoms;
    std::vector<Cmp> pre;
    std::vector<Eff> eff;
};
struct Spec {
    int atoms = 0;
    std::vector<Var> vars;
    std::vector<Act> actions;
    std::vector<std::pair<int, bool>> goal_atoms;
    std::vector<Cmp> goal;
    std::vector<bool> start_atoms;
    std::vector<int> start_vars;
};

bool holds(int lhs, int op, int rhs) {
    switch (op) {
        case 0: return lhs == rhs;
        case 1: return lhs != rhs;
        case 2: return lhs < rhs;
        case 3: return lhs <= rhs;
        case 4: return lhs > rhs;
        default: return lhs >= rhs;
    }
}

struct Concrete {
    std::vector<bool> atoms;
    std::vector<int> vars;
    friend bool operator<(const Concrete& a, const Concrete& b) { return std::tie(a.atoms, a.vars) < std::tie(b.atoms, b.vars); }
};

// Applies action `a` to `s` literally: preconditions on `s`, every effect computed from `s`, any
// result outside its variable's bounds makes the action inapplicable.
std::optional<Concrete> successor(const Spec& spec, const Act& a, const Concrete& s) {
    for (const auto& [atom, v] : a.pre_atoms)
        if (s.atoms[static_cast<std::size_t>(atom)] != v) return std::nullopt;
    for (const Cmp& c : a.pre)
        if (!holds(s.vars[static_cast<std::size_t>(c.var)], c.op, c.value)) return std::nullopt;
    Concrete n = s;
    for (const auto& [atom, v] : a.eff_atoms) n.atoms[static_cast<std::size_t>(atom)] = v;
    for (const Eff& e : a.eff) {
        const int before = s.vars[static_cast<std::size_t>(e.var)];
        const int after = e.op == 0 ? e.value : e.op == 1 ? before + e.value : before - e.value;
        const Var& var = spec.vars[static_cast<std::size_t>(e.var)];
        if (after < var.min || after > var.max) return std::nullopt;
        n.vars[static_cast<std::size_t>(e.var)] = after;
    }
    return n;
}

bool is_goal(const Spec& spec, const Concrete& s) {
    for (const auto& [atom, v] : spec.goal_atoms)
        if (s.atoms[static_cast<std::size_t>(atom)] != v) return false;
    for (const Cmp& c : spec.goal)
        if (!holds(s.vars[static_cast<std::size_t>(c.var)], c.op, c.value)) return false;
    return true;
}

// Uniform-cost search minimising (cost, length); nullopt when no plan exists.
std::optional<std::pair<double, std::size_t>> brute_force(const Spec& spec) {
    using Key = std::pair<double, std::size_t>;
    std::map<Concrete, Key> best;
    using Entry = std::pair<Key, Concrete>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> open;
    const Concrete start{spec.start_atoms, spec.start_vars};
    best[start] = {0, 0};
    open.push({{0, 0}, start});
    while (!open.empty()) {
        const auto [key, s] = open.top();
        open.pop();
        if (best[s] < key) continue;
        if (is_goal(spec, s)) return key;
        for (const Act& a : spec.actions) {
            const auto n = successor(spec, a, s);
            if (!n) continue;
            const Key nk{key.first + a.cost, key.second + 1};
            const auto it = best.find(*n);
            if (it == best.end() || nk < it->second) {
                best[*n] = nk;
                open.push({nk, *n});
            }
        }
    }
    return std::nullopt;
}

// ---- building the library's domain from the description --------------------------------------------

constexpr CompareOp kCmp[] = {CompareOp::Eq, CompareOp::Ne, CompareOp::Lt, CompareOp::Le, CompareOp::Gt, CompareOp::Ge};
constexpr EffectOp kEff[] = {EffectOp::Set, EffectOp::Add, EffectOp::Sub};

struct Built {
    Domain domain;
    WorldState start;
    Condition goal;
};

Built build(const Spec& spec) {
    DomainBuilder b;
    for (int i = 0; i < spec.atoms; ++i) b.add_atom(cat("p", i));
    for (std::size_t x = 0; x < spec.vars.size(); ++x) {
        const Var& v = spec.vars[x];
        if (v.is_enum) {
            std::vector<std::string> values;
            for (int i = 0; i <= v.max; ++i) values.push_back(cat("v", i));
            EXPECT_TRUE(b.add_enum_variable(cat("e", static_cast<long long>(x)), values).valid());
        } else {
            EXPECT_TRUE(b.add_integer_variable(cat("x", static_cast<long long>(x)), v.min, v.max).valid());
        }
    }
    for (std::size_t k = 0; k < spec.actions.size(); ++k) {
        const Act& a = spec.actions[k];
        std::vector<Literal> pre, eff;
        std::vector<Comparison> cmp;
        std::vector<NumericEffect> neff;
        for (const auto& [atom, v] : a.pre_atoms) pre.push_back(Literal{AtomId(static_cast<std::uint32_t>(atom)), v});
        for (const auto& [atom, v] : a.eff_atoms) eff.push_back(Literal{AtomId(static_cast<std::uint32_t>(atom)), v});
        for (const Cmp& c : a.pre) cmp.push_back(Comparison{VarId(static_cast<std::uint32_t>(c.var)), kCmp[c.op], c.value});
        for (const Eff& e : a.eff) neff.push_back(NumericEffect{VarId(static_cast<std::uint32_t>(e.var)), kEff[e.op], e.value});
        EXPECT_EQ(b.add_action(cat("a", static_cast<long long>(k)), a.cost, pre, eff, cmp, neff), DomainError::None);
    }
    Built out{b.build(), {}, {}};
    out.start = out.domain.make_state();
    for (int i = 0; i < spec.atoms; ++i) out.start.set(AtomId(static_cast<std::uint32_t>(i)), spec.start_atoms[static_cast<std::size_t>(i)]);
    for (std::size_t x = 0; x < spec.vars.size(); ++x) out.start.set_value(VarId(static_cast<std::uint32_t>(x)), spec.start_vars[x]);
    out.goal = out.domain.make_condition();
    for (const auto& [atom, v] : spec.goal_atoms) out.goal.set(AtomId(static_cast<std::uint32_t>(atom)), v);
    for (const Cmp& c : spec.goal) out.goal.require(Comparison{VarId(static_cast<std::uint32_t>(c.var)), kCmp[c.op], c.value});
    return out;
}

// Replays `plan` with the description's semantics; returns its cost, or -1 if a step is not applicable
// or the end state misses the goal.
double replay(const Spec& spec, std::span<const ActionId> plan) {
    Concrete s{spec.start_atoms, spec.start_vars};
    double cost = 0;
    for (const ActionId a : plan) {
        const auto n = successor(spec, spec.actions[a.value], s);
        if (!n) return -1;
        s = *n;
        cost += spec.actions[a.value].cost;
    }
    return is_goal(spec, s) ? cost : -1;
}

Spec random_spec(std::mt19937& rng) {
    const auto pick = [&](int lo, int hi) { return lo + static_cast<int>(rng() % static_cast<unsigned>(hi - lo + 1)); };
    Spec s;
    s.atoms = pick(1, 4);
    const int ints = pick(1, 3);
    for (int i = 0; i < ints; ++i) {
        const int lo = pick(-3, 2);
        s.vars.push_back(Var{lo, lo + pick(0, 7), false});
    }
    if (rng() % 2) s.vars.push_back(Var{0, pick(1, 3), true});
    const auto random_cmp = [&](int x) {
        const Var& v = s.vars[static_cast<std::size_t>(x)];
        return Cmp{x, v.is_enum ? pick(0, 1) : pick(0, 5), pick(v.min, v.max)};
    };
    const auto random_eff = [&](int x) {
        const Var& v = s.vars[static_cast<std::size_t>(x)];
        if (v.is_enum) return Eff{x, 0, pick(v.min, v.max)};
        const int op = pick(0, 2);
        return Eff{x, op, op == 0 ? pick(v.min, v.max) : pick(0, 3)};
    };
    const int actions = pick(3, 10);
    for (int k = 0; k < actions; ++k) {
        Act a;
        a.cost = pick(0, 4);
        for (int i = pick(0, 1); i > 0; --i) a.pre_atoms.push_back({pick(0, s.atoms - 1), rng() % 2 == 0});
        for (int i = pick(0, 1); i > 0; --i) a.eff_atoms.push_back({pick(0, s.atoms - 1), rng() % 2 == 0});
        for (int i = pick(0, 2); i > 0; --i) a.pre.push_back(random_cmp(pick(0, static_cast<int>(s.vars.size()) - 1)));
        std::vector<int> vars(s.vars.size());
        for (std::size_t x = 0; x < vars.size(); ++x) vars[x] = static_cast<int>(x);
        std::shuffle(vars.begin(), vars.end(), rng);
        const int n_eff = pick(a.eff_atoms.empty() ? 1 : 0, std::min<int>(2, static_cast<int>(vars.size())));
        for (int i = 0; i < n_eff; ++i) a.eff.push_back(random_eff(vars[static_cast<std::size_t>(i)]));
        s.actions.push_back(a);
    }
    if (rng() % 2) s.goal_atoms.push_back({pick(0, s.atoms - 1), rng() % 2 == 0});
    for (int i = pick(1, 2); i > 0; --i) s.goal.push_back(random_cmp(pick(0, static_cast<int>(s.vars.size()) - 1)));
    for (int i = 0; i < s.atoms; ++i) s.start_atoms.push_back(rng() % 2 == 0);
    for (const Var& v : s.vars) s.start_vars.push_back(pick(v.min, v.max));
    return s;
}

}  // namespace

TEST(NumericPlanner, RandomDomainsMatchBruteForce) {
    std::mt19937 rng(20261202);
    int found = 0, none = 0;
    for (int iter = 0; iter < 1500; ++iter) {
        const Spec spec = random_spec(rng);
        const Built b = build(spec);
        Planner planner(b.domain);
        const auto expected = brute_force(spec);
        for (const Direction dir : {Direction::Forward, Direction::Backward}) {
            PlanOptions o;
            o.direction = dir;
            const PlanResult r = planner.plan(b.start, b.goal, o);
            if (!expected) {
                ASSERT_EQ(r.status, Status::NoPath) << "iteration " << iter;
                continue;
            }
            ASSERT_EQ(r.status, Status::Found) << "iteration " << iter;
            EXPECT_DOUBLE_EQ(r.cost, expected->first) << "iteration " << iter;
            EXPECT_EQ(r.plan.size(), expected->second) << "iteration " << iter;
            EXPECT_DOUBLE_EQ(replay(spec, r.plan), r.cost) << "iteration " << iter;
        }
        (expected ? found : none)++;
    }
    // Both outcomes are exercised in numbers.
    EXPECT_GT(found, 500);
    EXPECT_GT(none, 100);
}

TEST(NumericPlanner, ResumableAndBudgetedEqualOneShot) {
    std::mt19937 rng(7);
    for (int iter = 0; iter < 300; ++iter) {
        const Spec spec = random_spec(rng);
        const Built b = build(spec);
        Planner one(b.domain), sliced(b.domain);
        const PlanResult r = one.plan(b.start, b.goal);
        Status s = sliced.begin(b.start, b.goal);
        while (s == Status::InProgress) s = sliced.step(1);
        const PlanResult q = sliced.result();
        ASSERT_EQ(q.status, r.status) << iter;
        EXPECT_EQ(q.cost, r.cost);
        EXPECT_TRUE(std::equal(q.plan.begin(), q.plan.end(), r.plan.begin(), r.plan.end()));
        EXPECT_EQ(q.stats.expanded, r.stats.expanded);
        if (r.status == Status::Found && r.stats.expanded > 1) {
            PlanOptions o;
            o.budget.max_expansions = r.stats.expanded - 1;
            EXPECT_EQ(one.plan(b.start, b.goal, o).status, Status::BudgetExhausted) << iter;
        }
    }
}

// Effects read the state before the action: swapping through `=` and `+` on two variables, and an
// action whose effect on one variable leaves bounds is not applicable even if its others would fit.
TEST(NumericPlanner, EffectOrderAndBounds) {
    DomainBuilder b;
    const VarId x = b.add_integer_variable("x", 0, 5);
    const VarId y = b.add_integer_variable("y", 0, 3);
    // "bump": x += 2 and y += 1; "drain": y = 0. Goal x >= 5 from x = 0, y = 2: bump twice would push
    // y to 4 > 3, so a drain is needed in between: bump, drain, bump, bump (x = 6 > 5 is out: x max 5).
    const NumericEffect bump[] = {{x, EffectOp::Add, 2}, {y, EffectOp::Add, 1}};
    const NumericEffect drain[] = {{y, EffectOp::Set, 0}};
    const NumericEffect inc[] = {{x, EffectOp::Add, 1}};
    ASSERT_EQ(b.add_action("bump", 1, {}, {}, {}, bump), DomainError::None);
    ASSERT_EQ(b.add_action("drain", 1, {}, {}, {}, drain), DomainError::None);
    ASSERT_EQ(b.add_action("inc", 3, {}, {}, {}, inc), DomainError::None);
    const Domain d = b.build();
    WorldState s = d.make_state();
    EXPECT_EQ(s.value(x), 0);
    s.set_value(y, 2);
    Condition g = d.make_condition();
    g.require(Comparison{x, CompareOp::Eq, 5});
    Planner p(d);
    const PlanResult r = p.plan(s, g);
    ASSERT_EQ(r.status, Status::Found);
    // bump (x2,y3), drain (y0), bump (x4,y1), inc (x5): cost 6. (bump,bump is blocked by y's bound.)
    EXPECT_EQ(r.cost, 6);
    ASSERT_EQ(r.plan.size(), 4u);
    EXPECT_FALSE(d.can_apply(d.find_action("bump"), [&] {
        WorldState t = s;
        t.set_value(y, 3);
        return t;
    }()));
    // x == 5 exactly: from x = 4 bump would give 6 (out of bounds) so only inc helps.
    WorldState t = s;
    t.set_value(x, 4);
    t.set_value(y, 0);
    const PlanResult r2 = p.plan(t, g);
    ASSERT_EQ(r2.status, Status::Found);
    EXPECT_EQ(r2.cost, 3);
    EXPECT_EQ(d.action_name(r2.plan[0]), "inc");
}

TEST(NumericPlanner, UnreachableComparisonsAreReported) {
    DomainBuilder b;
    const VarId x = b.add_integer_variable("x", 0, 9);
    const NumericEffect two[] = {{x, EffectOp::Add, 2}};
    ASSERT_EQ(b.add_action("two", 1, {}, {}, {}, two), DomainError::None);
    const Domain d = b.build();
    Condition g = d.make_condition();
    g.require(Comparison{x, CompareOp::Eq, 3});  // odd: never reached from 0 in steps of 2
    Planner p(d);
    EXPECT_EQ(p.plan(d.make_state(), g).status, Status::NoPath);
    ASSERT_EQ(p.unreachable_goal_comparisons().size(), 1u);
    EXPECT_EQ(p.unreachable_goal_comparisons()[0].value, 3);
    Condition g2 = d.make_condition();
    g2.require(Comparison{x, CompareOp::Ge, 8});
    const PlanResult r = p.plan(d.make_state(), g2);
    ASSERT_EQ(r.status, Status::Found);
    EXPECT_EQ(r.cost, 4);
    EXPECT_TRUE(p.unreachable_goal_comparisons().empty());
}

TEST(NumericPlanner, BuilderRejectsWrongKinds) {
    DomainBuilder b;
    const VarId n = b.add_integer_variable("n", 0, 3);
    const std::string values[] = {"a", "b"};
    const VarId e = b.add_enum_variable("e", values);
    EXPECT_FALSE(b.add_integer_variable("bad", 3, 2).valid());
    EXPECT_FALSE(b.add_integer_variable("n", 0, 1).valid());
    const std::string dup[] = {"a", "a"};
    EXPECT_FALSE(b.add_enum_variable("f", dup).valid());
    const Comparison lt_enum[] = {{e, CompareOp::Lt, 1}};
    EXPECT_EQ(b.add_action("x1", 1, {}, {}, lt_enum, {}), DomainError::InvalidComparison);
    const Comparison eq_enum_bad[] = {{e, CompareOp::Eq, 2}};
    EXPECT_EQ(b.add_action("x2", 1, {}, {}, eq_enum_bad, {}), DomainError::InvalidComparison);
    const NumericEffect add_enum[] = {{e, EffectOp::Add, 1}};
    EXPECT_EQ(b.add_action("x3", 1, {}, {}, {}, add_enum), DomainError::InvalidEffect);
    const NumericEffect set_out[] = {{n, EffectOp::Set, 4}};
    EXPECT_EQ(b.add_action("x4", 1, {}, {}, {}, set_out), DomainError::InvalidEffect);
    const NumericEffect twice[] = {{n, EffectOp::Add, 1}, {n, EffectOp::Sub, 1}};
    EXPECT_EQ(b.add_action("x5", 1, {}, {}, {}, twice), DomainError::ConflictingEffect);
    const NumericEffect unknown[] = {{VarId(9), EffectOp::Add, 1}};
    EXPECT_EQ(b.add_action("x6", 1, {}, {}, {}, unknown), DomainError::UnknownVariable);
    EXPECT_EQ(b.action_count(), 0u);
}

TEST(NumericPlannerAlloc, ZeroAllocationsPerPlanAfterWarmUp) {
    std::mt19937 rng(99);
    for (int iter = 0; iter < 20; ++iter) {
        const Spec spec = random_spec(rng);
        const Built b = build(spec);
        Planner planner(b.domain);
        std::vector<std::uint8_t> enabled(b.domain.action_count(), 1);
        PlanOptions o;
        o.enabled = enabled;
        (void)planner.plan(b.start, b.goal, o);  // warm-up
        WorldState s = b.start;
        test::AllocationScope scope;
        for (int i = 0; i < 50; ++i) {
            enabled[static_cast<std::size_t>(i) % enabled.size()] = static_cast<std::uint8_t>(i % 3 != 0);
            const PlanResult r = planner.plan(s, b.goal, o);
            ASSERT_NE(r.status, Status::InvalidQuery);
        }
        // The warm-up query was the largest only if nothing grew; repeat the same query mix once more.
        const std::uint64_t first = scope.count();
        test::AllocationScope again;
        for (int i = 0; i < 50; ++i) {
            enabled[static_cast<std::size_t>(i) % enabled.size()] = static_cast<std::uint8_t>(i % 3 != 0);
            (void)planner.plan(s, b.goal, o);
        }
        EXPECT_EQ(again.count(), 0u) << "iteration " << iter << " (first round: " << first << ")";
    }
}
