// PDDL reader and grounder: malformed input, typing, negative preconditions, equality, constants, action
// costs, and the shared planning tasks solved optimally with every plan replayed by an independent
// checker that follows the PDDL semantics directly (lifted action schemas, not the ground domain).
#include <gameplan/goap/planner.hpp>
#include <gameplan/io/load_error.hpp>
#include <gameplan/io/pddl.hpp>

#include <test_data.hpp>

#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

using namespace gameplan;

namespace {

// ----------------------------------------------------------------------------------------------------
// Independent plan checker: instantiates the lifted schema named by each plan step, checks types and
// preconditions against a set of ground atoms (static ones included), applies deletes then adds, and
// sums the metric's cost.
struct Checker {
    const io::PddlDomain& d;
    const io::PddlProblem& p;

    std::string type_of(const std::string& object) const {
        for (const auto& o : p.objects)
            if (o.name == object) return o.type;
        for (const auto& c : d.constants)
            if (c.name == object) return c.type;
        return "";
    }
    bool is_a(const std::string& object, const std::string& type) const {
        std::string t = type_of(object);
        if (t.empty()) return false;
        for (int guard = 0; guard < 100; ++guard) {
            if (t == type) return true;
            if (t == "object") return false;
            std::string parent = "object";
            for (const auto& x : d.types)
                if (x.name == t) parent = x.type;
            t = parent;
        }
        return false;
    }
    static std::string key(const std::string& pred, const std::vector<std::string>& args) {
        std::string s = pred;
        for (const auto& a : args) s += " " + a;
        return s;
    }
    // Empty when the plan is valid and reaches the goal; `cost` is its cost under the metric.
    std::string check(const std::vector<std::string>& plan, double& cost) const {
        std::set<std::string> state;
        for (const auto& l : p.init) state.insert(key(l.predicate, l.args));
        cost = 0;
        for (std::size_t step = 0; step < plan.size(); ++step) {
            std::string text = plan[step];
            if (text.size() < 2 || text.front() != '(' || text.back() != ')') return "step " + std::to_string(step) + ": bad form";
            std::istringstream in(text.substr(1, text.size() - 2));
            std::string name, arg;
            in >> name;
            std::vector<std::string> args;
            while (in >> arg) args.push_back(arg);
            const io::PddlAction* a = nullptr;
            for (const auto& x : d.actions)
                if (x.name == name) a = &x;
            if (!a) return "step " + std::to_string(step) + ": unknown action " + name;
            if (args.size() != a->parameters.size()) return "step " + std::to_string(step) + ": arity";
            std::map<std::string, std::string> bind;
            for (std::size_t i = 0; i < args.size(); ++i) {
                if (!is_a(args[i], a->parameters[i].type)) return "step " + std::to_string(step) + ": type of " + args[i];
                bind[a->parameters[i].name] = args[i];
            }
            const auto subst = [&](const std::vector<std::string>& xs) {
                std::vector<std::string> out;
                for (const auto& x : xs) out.push_back(x[0] == '?' ? bind.at(x) : x);
                return out;
            };
            for (const auto& l : a->preconditions) {
                const auto g = subst(l.args);
                bool holds = l.predicate == "=" ? g[0] == g[1] : state.count(key(l.predicate, g)) > 0;
                if (holds != l.positive) return "step " + std::to_string(step) + " " + text + ": precondition " + l.predicate + " fails";
            }
            std::vector<std::string> adds, dels;
            for (const auto& l : a->del) dels.push_back(key(l.predicate, subst(l.args)));
            for (const auto& l : a->add) adds.push_back(key(l.predicate, subst(l.args)));
            for (const auto& k : dels) state.erase(k);
            for (const auto& k : adds) state.insert(k);
            if (!p.minimize_total_cost) {
                cost += 1;
                continue;
            }
            for (const auto& inc : a->increases) {
                if (inc.is_constant) {
                    cost += inc.constant;
                    continue;
                }
                const auto g = subst(inc.args);
                bool found = false;
                for (const auto& v : p.init_values)
                    if (v.function == inc.function && v.args == g) {
                        cost += v.value;
                        found = true;
                    }
                if (!found) return "no value for a cost fluent";
            }
        }
        for (const auto& l : p.goal) {
            const bool holds = l.predicate == "=" ? l.args[0] == l.args[1] : state.count(key(l.predicate, l.args)) > 0;
            if (holds != l.positive) return "goal " + l.predicate + " does not hold";
        }
        return "";
    }
};

struct Solved {
    Status status;
    double cost;
    std::vector<std::string> plan;
    std::uint64_t expanded;
};

Solved solve(const io::PddlTask& t, goap::Heuristic h, goap::Direction dir = goap::Direction::Forward) {
    goap::Planner planner(t.domain);
    goap::PlanOptions o;
    o.heuristic = h;
    o.direction = dir;
    const goap::PlanResult r = planner.plan(t.start, t.goal, o);
    Solved s{r.status, r.cost, {}, r.stats.expanded};
    for (const goap::ActionId a : r.plan) s.plan.push_back(t.domain.action_name(a));
    return s;
}

io::PddlTask ground_text(const std::string& domain, const std::string& problem) {
    return io::ground_pddl(io::parse_pddl_domain(domain, "d.pddl"), io::parse_pddl_problem(problem, "p.pddl"));
}

// Expects a LoadError at file:line:column whose message contains `needle`.
void expect_error(const std::string& domain, const std::string& problem, const std::string& file, std::size_t line,
                  std::size_t column, const std::string& needle) {
    try {
        (void)ground_text(domain, problem);
        ADD_FAILURE() << "no error; expected " << needle;
    } catch (const io::LoadError& e) {
        EXPECT_EQ(e.file(), file) << e.what();
        EXPECT_EQ(e.line(), line) << e.what();
        EXPECT_EQ(e.column(), column) << e.what();
        EXPECT_NE(e.message().find(needle), std::string::npos) << e.what();
    }
}

const std::string kBlocks = R"((define (domain bw) (:requirements :strips)
 (:predicates (on ?x ?y) (ontable ?x) (clear ?x) (handempty) (holding ?x))
 (:action pick-up :parameters (?x) :precondition (and (clear ?x) (ontable ?x) (handempty))
   :effect (and (not (ontable ?x)) (not (clear ?x)) (not (handempty)) (holding ?x)))
 (:action put-down :parameters (?x) :precondition (holding ?x)
   :effect (and (not (holding ?x)) (clear ?x) (handempty) (ontable ?x)))
 (:action stack :parameters (?x ?y) :precondition (and (holding ?x) (clear ?y))
   :effect (and (not (holding ?x)) (not (clear ?y)) (clear ?x) (handempty) (on ?x ?y)))
 (:action unstack :parameters (?x ?y) :precondition (and (on ?x ?y) (clear ?x) (handempty))
   :effect (and (holding ?x) (clear ?y) (not (clear ?x)) (not (handempty)) (not (on ?x ?y)))))
)";

}  // namespace

TEST(Pddl, BlocksGroundsAndPlans) {
    const std::string problem = R"((define (problem p) (:domain bw) (:objects A B C)
      (:INIT (CLEAR C) (CLEAR A) (ONTABLE A) (ON C B) (ONTABLE B) (HANDEMPTY))
      (:goal (AND (ON A B) (ON B C)))))";
    const io::PddlTask t = ground_text(kBlocks, problem);
    EXPECT_TRUE(t.domain.find_atom("(on a b)").valid());
    EXPECT_TRUE(t.domain.find_action("(pick-up a)").valid());
    EXPECT_TRUE(t.domain.find_action("(unstack c b)").valid());
    EXPECT_FALSE(t.general_cost);
    const auto d = io::parse_pddl_domain(kBlocks, "d");
    const auto p = io::parse_pddl_problem(problem, "p");
    for (const auto h : {goap::Heuristic::LmCut, goap::Heuristic::HMax, goap::Heuristic::Blind}) {
        const Solved s = solve(t, h);
        ASSERT_EQ(s.status, Status::Found);
        EXPECT_EQ(s.cost, 6);  // unstack c b, put-down c, pick-up b, stack b c, pick-up a, stack a b
        double cost = 0;
        EXPECT_EQ((Checker{d, p}.check(s.plan, cost)), "");
        EXPECT_EQ(cost, 6);
    }
}

TEST(Pddl, TypingHierarchyNegativePreconditionsEqualityConstantsAndCosts) {
    const std::string domain = R"(; a robot moves between rooms; doors, costs from fluents
(define (domain rooms)
  (:requirements :typing :negative-preconditions :equality :action-costs)
  (:types room - place  robot)
  (:constants hall - room)
  (:predicates (at ?r - robot ?p - place) (door ?a ?b - place) (locked ?p - place) (visited ?p - place))
  (:functions (total-cost) - number (len ?a ?b - place) - number)
  (:action go :parameters (?r - robot ?a ?b - place)
    :precondition (and (at ?r ?a) (door ?a ?b) (not (locked ?b)) (not (= ?a ?b)))
    :effect (and (not (at ?r ?a)) (at ?r ?b) (visited ?b) (increase (total-cost) (len ?a ?b))))
  (:action peek :parameters (?r - robot ?p - place)
    :precondition (and (at ?r ?p) (not (visited hall)))
    :effect (and (visited ?p)))
  (:action unlock :parameters (?r - robot ?p - place)
    :precondition (and (at ?r hall) (locked ?p))
    :effect (and (not (locked ?p)) (increase (total-cost) 5))))
)";
    const std::string problem = R"((define (problem p) (:domain rooms)
  (:objects kitchen attic - room  r1 - robot)
  (:init (at r1 kitchen) (door kitchen hall) (door hall kitchen) (door hall attic) (door attic attic)
         (locked attic) (= (total-cost) 0) (= (len kitchen hall) 2) (= (len hall kitchen) 2) (= (len hall attic) 1)
         (= (len attic attic) 0))
  (:goal (and (visited attic) (not (locked hall))))
  (:metric minimize (total-cost))))";
    const io::PddlTask t = ground_text(domain, problem);
    EXPECT_TRUE(t.general_cost);
    // (go r1 attic attic) is refused by equality; (go r1 kitchen attic) has no door (static).
    EXPECT_FALSE(t.domain.find_action("(go r1 attic attic)").valid());
    EXPECT_FALSE(t.domain.find_action("(go r1 kitchen attic)").valid());
    EXPECT_TRUE(t.domain.find_action("(go r1 kitchen hall)").valid());  // the constant hall, a room, is a place
    const auto unlock = t.domain.find_action("(unlock r1 attic)");
    ASSERT_TRUE(unlock.valid());
    EXPECT_EQ(t.domain.action_cost(unlock), 5);
    EXPECT_EQ(t.domain.action_cost(t.domain.find_action("(go r1 hall attic)")), 1);
    const auto d = io::parse_pddl_domain(domain, "d");
    const auto p = io::parse_pddl_problem(problem, "p");
    for (const auto h : {goap::Heuristic::LmCut, goap::Heuristic::HMax}) {
        for (const auto dir : {goap::Direction::Forward, goap::Direction::Backward}) {
            const Solved s = solve(t, h, dir);
            ASSERT_EQ(s.status, Status::Found);
            EXPECT_EQ(s.cost, 2 + 5 + 1);  // go kitchen hall, unlock attic, go hall attic
            double cost = 0;
            EXPECT_EQ((Checker{d, p}.check(s.plan, cost)), "");
            EXPECT_EQ(cost, s.cost);
        }
    }
}

TEST(Pddl, ZeroCostActionsAndNoMetricMeansUnitCost) {
    const std::string domain = R"((define (domain z) (:requirements :action-costs)
  (:predicates (a) (b) (c))
  (:functions (total-cost))
  (:action free :parameters () :precondition (a) :effect (and (b)))
  (:action paid :parameters () :precondition (b) :effect (and (c) (increase (total-cost) 3)))))";
    const std::string with_metric = "(define (problem p) (:domain z) (:init (a)) (:goal (c)) (:metric minimize (total-cost)))";
    const std::string without = "(define (problem p) (:domain z) (:init (a)) (:goal (c)))";
    const Solved s1 = solve(ground_text(domain, with_metric), goap::Heuristic::LmCut);
    ASSERT_EQ(s1.status, Status::Found);
    EXPECT_EQ(s1.cost, 3);
    EXPECT_EQ(s1.plan, (std::vector<std::string>{"(free)", "(paid)"}));
    const Solved s2 = solve(ground_text(domain, without), goap::Heuristic::LmCut);
    EXPECT_EQ(s2.cost, 2);
}

TEST(Pddl, UnreachableAndStaticGoals) {
    const std::string problem_false_static = R"((define (problem p) (:domain bw) (:objects a b)
      (:init (clear a) (ontable a) (clear b) (ontable b) (handempty)) (:goal (and (on a b) (on b a)))))";
    const Solved s = solve(ground_text(kBlocks, problem_false_static), goap::Heuristic::LmCut);
    EXPECT_EQ(s.status, Status::NoPath);
}

TEST(Pddl, ErrorsNameFileLineAndColumn) {
    const std::string ok_problem = "(define (problem p) (:domain bw) (:objects a) (:init (clear a)) (:goal (clear a)))";
    expect_error("(define (domain x) (:requirements :strips :conditional-effects))", ok_problem, "d.pddl", 1, 43,
                 "unsupported requirement ':conditional-effects'");
    expect_error("(define (domain x)\n  (:predicates (p ?x))\n  (:action a :parameters (?x) :precondition (or (p ?x)) :effect (p ?x)))",
                 ok_problem, "d.pddl", 3, 46, "'or'");
    expect_error("(define (domain x) (:predicates (p ?x))", ok_problem, "d.pddl", 1, 1, "never closed");
    expect_error(kBlocks, "(define (problem p) (:domain bw) (:objects a)\n (:init (clear b)) (:goal (clear a)))", "p.pddl", 2, 9,
                 "unknown object or constant 'b'");
    expect_error(kBlocks, "(define (problem p) (:domain bw) (:objects a) (:init (on a)) (:goal (clear a)))", "p.pddl", 1, 54,
                 "takes 2 arguments");
    expect_error(kBlocks, "(define (problem p) (:domain bw) (:objects a - thing) (:init) (:goal (clear a)))", "p.pddl", 1, 44,
                 "unknown type 'thing'");
    expect_error("(define (domain x) (:types a - (either b c)))", ok_problem, "d.pddl", 1, 32, "either");
    expect_error(kBlocks, "(define (problem p) (:domain bw) (:objects a) (:init (clear a)))", "p.pddl", 1, 1, "no ':goal'");
    // Nesting limit.
    std::string deep = "(define (domain x) (:predicates " + std::string(100, '(') + std::string(100, ')') + "))";
    expect_error(deep, ok_problem, "d.pddl", 1, 95, "nested deeper");
}

TEST(Pddl, LimitsOnGroundSize) {
    std::string objects;
    for (int i = 0; i < 40; ++i) objects += " o" + std::to_string(i);
    const std::string domain = R"((define (domain big) (:predicates (p ?a ?b ?c) (q))
      (:action make :parameters (?a ?b ?c) :precondition (q) :effect (p ?a ?b ?c))))";
    const std::string problem = "(define (problem p) (:domain big) (:objects" + objects + ") (:init (q)) (:goal (p o1 o2 o3)))";
    io::PddlLimits limits;
    limits.max_actions = 1000;
    try {
        (void)io::ground_pddl(io::parse_pddl_domain(domain, "d"), io::parse_pddl_problem(problem, "p"), limits);
        ADD_FAILURE() << "expected a limit error";
    } catch (const io::LoadError& e) {
        EXPECT_NE(e.message().find("more than 1000 actions"), std::string::npos) << e.what();
    }
}

// Every other limit of PddlLimits, each lowered below what the same small task needs: the error names it
// (and, for the parser's, the place), and the task loads with the defaults.
TEST(Pddl, EveryLimitIsEnforcedAndNamed) {
    std::string objects;
    for (int i = 0; i < 10; ++i) objects += " o" + std::to_string(i);
    const std::string domain = R"((define (domain big) (:predicates (p ?a ?b ?c) (q))
      (:action make :parameters (?a ?b ?c) :precondition (q) :effect (p ?a ?b ?c))))";
    const std::string problem = "(define (problem p) (:domain big) (:objects" + objects + ") (:init (q)) (:goal (p o1 o2 o3)))";
    const auto expect_limit = [&](const io::PddlLimits& limits, const std::string& what) {
        try {
            const io::PddlDomain d = io::parse_pddl_domain(domain, "d.pddl", limits);  // the domain first
            (void)io::ground_pddl(d, io::parse_pddl_problem(problem, "p.pddl", limits), limits);
            ADD_FAILURE() << "expected a limit error: " << what;
        } catch (const io::LoadError& e) {
            EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
        }
    };
    io::PddlLimits limits;
    limits.max_atoms = 100;  // 1,000 atoms p(a, b, c) are reachable
    expect_limit(limits, "more than 100 atoms (the limit)");
    limits = {};
    limits.max_grounding_steps = 100;
    expect_limit(limits, "grounding tried more than 100");
    limits = {};
    limits.max_tokens = 20;  // the domain's first line has 17
    expect_limit(limits, "d.pddl:2:");
    expect_limit(limits, "more than 20 tokens (the limit)");
    limits = {};
    limits.max_parameters = 2;  // (p ?a ?b ?c) and make(?a ?b ?c)
    expect_limit(limits, "d.pddl:1:");
    expect_limit(limits, "more than 2 parameters (the limit)");
    const io::PddlTask task = io::ground_pddl(io::parse_pddl_domain(domain, "d.pddl"), io::parse_pddl_problem(problem, "p.pddl"));
    EXPECT_EQ(task.domain.action_count(), 1000u);
}

// The shared planning tasks (IPC domains and PDDLGym minecraft): each small one solved with exactly the
// optimal cost Fast Downward proved, with LM-cut and with h_max, every plan valid under the checker.
TEST(PddlBenchmarks, SmallSharedTasksOptimalAndValid) {
    GAMEPLAN_REQUIRE_BENCHMARK_DATA();
    const auto dir = test::benchmark_dir() / "pddl";
    if (!std::filesystem::exists(dir / "optimal.csv")) GTEST_SKIP() << "no pddl/optimal.csv under " << test::benchmark_dir();
    std::ifstream csv(dir / "optimal.csv");
    std::string line;
    std::getline(csv, line);
    int solved = 0;
    while (std::getline(csv, line)) {
        std::vector<std::string> f;
        std::stringstream ss(line);
        for (std::string x; std::getline(ss, x, ',');) f.push_back(x);
        ASSERT_GE(f.size(), 6u) << line;
        const double fd_seconds = std::stod(f[4]);
        if (fd_seconds > 0.05) continue;  // the small ones; bench_pddl runs all
        const auto domain_file = dir / f[0] / "domain.pddl";
        const auto problem_file = dir / f[0] / f[1];
        auto read = [](const std::filesystem::path& p) {
            std::ifstream in(p, std::ios::binary);
            return std::string(std::istreambuf_iterator<char>(in), {});
        };
        const auto d = io::parse_pddl_domain(read(domain_file), domain_file.string());
        const auto p = io::parse_pddl_problem(read(problem_file), problem_file.string());
        const io::PddlTask t = io::ground_pddl(d, p);
        const double optimal = std::stod(f[2]);
        for (const auto h : {goap::Heuristic::LmCut, goap::Heuristic::HMax}) {
            if (h == goap::Heuristic::HMax && fd_seconds > 0.01) continue;
            const Solved s = solve(t, h);
            ASSERT_EQ(s.status, Status::Found) << line;
            EXPECT_EQ(s.cost, optimal) << line << " " << goap::to_string(h);
            double cost = -1;
            EXPECT_EQ((Checker{d, p}.check(s.plan, cost)), "") << line;
            EXPECT_EQ(cost, optimal) << line;
        }
        ++solved;
    }
    EXPECT_GE(solved, 20);
}
