// Planners are independent: several threads planning over one shared const Domain give exactly the
// results of planning the same queries one by one.
#include <gameplan/goap/planner.hpp>

#include <random>
#include <thread>
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
struct Outcome {
    Status status;
    double cost;
    std::vector<ActionId> plan;
    std::uint64_t expanded;
    friend bool operator==(const Outcome&, const Outcome&) = default;
};
}  // namespace

TEST(PlannerThreads, SharedDomainSameResultsAsSequential) {
    std::mt19937 rng(99);
    const int atoms = 40;
    DomainBuilder b;
    for (int i = 0; i < atoms; ++i) b.add_atom(cat("p", i));
    for (int a = 0; a < 60; ++a) {
        std::vector<Literal> pre, eff;
        for (int k = 0; k < 2; ++k) pre.push_back(Literal{AtomId(static_cast<std::uint32_t>(rng() % atoms)), rng() % 2 == 0});
        for (int k = 0; k < 2; ++k) eff.push_back(Literal{AtomId(static_cast<std::uint32_t>(rng() % atoms)), rng() % 2 == 0});
        (void)b.add_action(cat("a", a), 1 + rng() % 5, pre, eff);
    }
    const Domain domain = b.build();
    std::vector<WorldState> starts;
    std::vector<Condition> goals;
    for (int q = 0; q < 100; ++q) {
        WorldState s = domain.make_state();
        for (int i = 0; i < atoms; ++i) s.set(AtomId(static_cast<std::uint32_t>(i)), rng() % 2 == 0);
        Condition g = domain.make_condition();
        for (int k = 0; k < 3; ++k) g.set(AtomId(static_cast<std::uint32_t>(rng() % atoms)), rng() % 2 == 0);
        starts.push_back(std::move(s));
        goals.push_back(std::move(g));
    }
    const auto run = [&](Planner& planner, std::size_t q) {
        PlanOptions o;
        o.direction = q % 2 ? Direction::Forward : Direction::Backward;
        o.budget.max_expansions = 2000;
        const PlanResult r = planner.plan(starts[q], goals[q], o);
        return Outcome{r.status, r.cost, {r.plan.begin(), r.plan.end()}, r.stats.expanded};
    };

    std::vector<Outcome> sequential;
    {
        Planner planner(domain);
        for (std::size_t q = 0; q < starts.size(); ++q) sequential.push_back(run(planner, q));
    }
    const unsigned threads = 4;
    constexpr std::size_t kStride[] = {1, 3, 7, 9};  // coprime with 100: each thread visits every query
    std::vector<std::vector<Outcome>> parallel(threads, std::vector<Outcome>(starts.size()));
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            Planner planner(domain);
            // Each thread plans every query, in a thread-specific order, to mix the planners' histories.
            for (std::size_t i = 0; i < starts.size(); ++i) {
                const std::size_t q = (i * kStride[t] + t) % starts.size();
                parallel[t][q] = run(planner, q);
            }
        });
    for (std::thread& th : pool) th.join();
    std::size_t found = 0;
    for (std::size_t q = 0; q < starts.size(); ++q) {
        found += sequential[q].status == Status::Found;
        for (unsigned t = 0; t < threads; ++t) EXPECT_EQ(parallel[t][q], sequential[q]) << "query " << q << " thread " << t;
    }
    EXPECT_GT(found, 10u);
}
