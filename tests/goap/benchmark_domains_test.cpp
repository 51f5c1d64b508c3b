// Every shared GOAP benchmark domain is planned optimally in both directions (costs from the README of
// ../shared/benchmarks/goap, checked by simulating the plan), and the ladder bar holds: at most 2,000
// expansions for ladder_N60_M200 (uniform-cost search expands ~92,000).
#include <gameplan/goap/planner.hpp>
#include <gameplan/io/domain_json.hpp>

#include <test_data.hpp>

#include <fstream>
#include <map>
#include <sstream>
#include <vector>
#include <string>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::goap;

namespace {
// Parses the README's table: "| file.json | atoms | actions | optimal cost | notes |".
std::map<std::string, double> readme_costs() {
    std::ifstream in(test::benchmark_dir() / "goap" / "README.md");
    std::map<std::string, double> out;
    std::string line;
    while (std::getline(in, line)) {
        std::vector<std::string> cells;
        std::stringstream row(line);
        for (std::string cell; std::getline(row, cell, '|');) {
            const auto b = cell.find_first_not_of(' '), e = cell.find_last_not_of(' ');
            cells.push_back(b == std::string::npos ? std::string() : cell.substr(b, e - b + 1));
        }
        // cells[0] is the text before the first '|'
        if (cells.size() < 5 || cells[1].size() < 6 || cells[1].substr(cells[1].size() - 5) != ".json") continue;
        out[cells[1]] = std::stod(cells[4]);
    }
    return out;
}
}  // namespace

TEST(BenchmarkDomains, AllOptimalBothDirections) {
    GAMEPLAN_REQUIRE_BENCHMARK_DATA();
    const auto costs = readme_costs();
    ASSERT_GE(costs.size(), 12u) << "README table not found or changed format";
    for (const auto& [file, expected] : costs) {
        const io::DomainFile f = io::load_domain_json(test::benchmark_dir() / "goap" / file);
        ASSERT_TRUE(f.goal.has_value()) << file;
        Planner planner(f.domain);
        for (const Direction dir : {Direction::Forward, Direction::Backward}) {
            PlanOptions o;
            o.direction = dir;
            const PlanResult r = planner.plan(f.start, *f.goal, o);
            ASSERT_EQ(r.status, Status::Found) << file << " " << to_string(dir);
            EXPECT_EQ(r.cost, expected) << file << " " << to_string(dir);
            WorldState s = f.start;
            double total = 0;
            for (const ActionId a : r.plan) {
                ASSERT_TRUE(s.satisfies(f.domain.preconditions(a))) << file;
                s.apply(f.domain.effects(a));
                total += f.domain.action_cost(a);
            }
            EXPECT_TRUE(s.satisfies(*f.goal)) << file;
            EXPECT_EQ(total, expected) << file;
            if (file.rfind("ladder", 0) == 0) {
                EXPECT_LE(r.stats.expanded, 2000u) << file << " " << to_string(dir);
            }
            RecordProperty(file + "_" + std::string(to_string(dir)) + "_expanded", std::to_string(r.stats.expanded));
        }
    }
}

TEST(BenchmarkDomains, GpgoapExampleIsFourStepPlan) {
    GAMEPLAN_REQUIRE_BENCHMARK_DATA();
    const io::DomainFile f = io::load_domain_json(test::benchmark_dir() / "goap" / "gpgoap_example.json");
    Planner planner(f.domain);
    const PlanResult r = planner.plan(f.start, *f.goal);
    ASSERT_EQ(r.status, Status::Found);
    EXPECT_EQ(r.cost, 4);
    ASSERT_EQ(r.plan.size(), 4u);
    EXPECT_EQ(f.domain.action_name(r.plan.back()), "shoot");
}
