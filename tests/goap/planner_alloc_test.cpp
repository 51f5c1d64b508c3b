// "No heap allocation per plan after warm-up", proved with the counting operator new.
#include <gameplan/goap/planner.hpp>
#include <gameplan/io/domain_json.hpp>

#include <alloc_counter.hpp>
#include <test_data.hpp>

#include <algorithm>
#include <random>
#include <vector>

#include <string>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::goap;

// "prefix" + std::to_string(n) without GCC 12's false -Wrestrict positive on operator+(const char*, string&&).
[[maybe_unused]] static std::string cat(std::string prefix, long long n) {
    prefix += std::to_string(n);
    return prefix;
}


namespace {
// Random domain over `atoms` atoms with goals deep enough to need real searches.
Domain random_domain(std::mt19937& rng, int atoms, int actions) {
    DomainBuilder b;
    for (int i = 0; i < atoms; ++i) b.add_atom(cat("p", i));
    for (int a = 0; a < actions; ++a) {
        std::vector<Literal> pre, eff;
        for (int k = 0; k < 2; ++k) pre.push_back(Literal{AtomId(static_cast<std::uint32_t>(rng() % atoms)), rng() % 2 == 0});
        for (int k = 0; k < 2; ++k) eff.push_back(Literal{AtomId(static_cast<std::uint32_t>(rng() % atoms)), rng() % 2 == 0});
        (void)b.add_action(cat("a", a), 1 + rng() % 4, pre, eff);
    }
    return b.build();
}
}  // namespace

TEST(PlannerAlloc, ZeroAllocationsPerPlanAfterWarmUp) {
    for (const char* file : {"hunger.json", "space_shooter.json"}) {
        const io::DomainFile f = io::load_domain_json(test::source_dir() / "examples/goap" / file);
        Planner planner(f.domain);
        std::vector<std::uint8_t> enabled(f.domain.action_count(), 1);
        std::vector<double> costs(f.domain.action_costs().begin(), f.domain.action_costs().end());
        for (const Direction dir : {Direction::Forward, Direction::Backward}) {
            PlanOptions o;
            o.direction = dir;
            o.enabled = enabled;
            o.costs = costs;
            ASSERT_EQ(planner.plan(f.start, *f.goal, o).status, Status::Found);  // warm-up
            test::AllocationScope scope;
            for (int i = 0; i < 100; ++i) {
                enabled[static_cast<std::size_t>(i) % enabled.size()] = static_cast<std::uint8_t>(i % 3 != 0);
                costs[static_cast<std::size_t>(i) % costs.size()] = 1 + i % 7;
                const PlanResult r = planner.plan(f.start, *f.goal, o);
                ASSERT_NE(r.status, Status::InvalidQuery);
            }
            EXPECT_EQ(scope.count(), 0u) << file << " " << to_string(dir);
        }
    }
}

// Many different queries (random starts and goals, both directions, one-word and generic paths):
// after one warm-up pass over the whole set, a second pass allocates nothing.
TEST(PlannerAlloc, ZeroAllocationsOnVariedQueriesBothRepresentations) {
    std::mt19937 rng(5);
    for (const int atoms : {24, 150}) {
        const Domain d = random_domain(rng, atoms, atoms);
        struct Query {
            WorldState start;
            Condition goal;
            PlanOptions options;
        };
        std::vector<Query> queries;
        for (int q = 0; q < 40; ++q) {
            Query query{d.make_state(), d.make_condition(), {}};
            for (int i = 0; i < atoms; ++i) query.start.set(AtomId(static_cast<std::uint32_t>(i)), rng() % 2 == 0);
            for (int k = 0; k < 3; ++k) query.goal.set(AtomId(static_cast<std::uint32_t>(rng() % atoms)), rng() % 2 == 0);
            query.options.direction = q % 2 ? Direction::Forward : Direction::Backward;
            query.options.force_generic_representation = q % 4 >= 2;
            query.options.budget.max_expansions = 200;
            queries.push_back(std::move(query));
        }
        Planner planner(d);
        std::vector<PlanResult> first;
        for (const Query& q : queries) first.push_back(planner.plan(q.start, q.goal, q.options));
        test::AllocationScope scope;
        std::uint64_t found = 0;
        for (std::size_t i = 0; i < queries.size(); ++i) {
            const PlanResult r = planner.plan(queries[i].start, queries[i].goal, queries[i].options);
            found += r.status == Status::Found;
            // resumable form too
            if (planner.begin(queries[i].start, queries[i].goal, queries[i].options) == Status::InProgress)
                while (planner.step(7) == Status::InProgress) {
                }
        }
        EXPECT_EQ(scope.count(), 0u) << atoms << " atoms";
        EXPECT_GT(found, 0u);
    }
}

TEST(PlannerAlloc, ReserveMakesTheFirstQueryAllocationFree) {
    const io::DomainFile f = io::load_domain_json(test::source_dir() / "examples/goap/space_shooter.json");
    Planner planner(f.domain);
    planner.reserve(1024);
    test::AllocationScope scope;
    const PlanResult r = planner.plan(f.start, *f.goal);
    EXPECT_EQ(r.status, Status::Found);
    EXPECT_EQ(scope.count(), 0u);
}

// The one-word engine's growth paths: more than 64 relevant actions (list-based h_max), searches deep
// enough that the small open list spills into the heap and the node table grows. After one pass over
// the queries, a second pass allocates nothing.
TEST(PlannerAlloc, ZeroAllocationsOnLargeOneWordSearches) {
    std::mt19937 rng(11);
    for (const int actions : {40, 90}) {
        const Domain d = random_domain(rng, 16, actions);
        std::vector<std::pair<WorldState, Condition>> queries;
        for (int q = 0; q < 20; ++q) {
            WorldState start = d.make_state();
            for (int i = 0; i < 16; ++i) start.set(AtomId(static_cast<std::uint32_t>(i)), rng() % 2 == 0);
            Condition goal = d.make_condition();
            for (int k = 0; k < 5; ++k) goal.set(AtomId(static_cast<std::uint32_t>(rng() % 16)), rng() % 2 == 0);
            queries.emplace_back(std::move(start), std::move(goal));
        }
        Planner planner(d);
        std::uint64_t most = 0;
        const auto pass = [&] {
            for (const auto& [start, goal] : queries)
                for (const Direction dir : {Direction::Forward, Direction::Backward}) {
                    PlanOptions o;
                    o.direction = dir;
                    o.budget.max_expansions = 5000;
                    const PlanResult r = planner.plan(start, goal, o);
                    most = std::max<std::uint64_t>(most, r.stats.expanded);
                }
        };
        pass();
        test::AllocationScope scope;
        pass();
        EXPECT_EQ(scope.count(), 0u) << actions << " actions";
        EXPECT_GT(most, 100u) << "the queries must include searches beyond the small open list";
    }
}
