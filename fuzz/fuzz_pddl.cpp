// libFuzzer target for the PDDL reader and grounder. The input is a domain, then a line ";;problem",
// then a problem (without that line the whole input is tried as both). Any input must either load or
// throw io::LoadError; loaded tasks are grounded under small limits and planned with a small budget
// with LM-cut and h_max in both directions.
#include <gameplan/goap/planner.hpp>
#include <gameplan/io/load_error.hpp>
#include <gameplan/io/pddl.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const std::string_view separator = "\n;;problem\n";
    const std::size_t at = text.find(separator);
    const std::string_view domain_text = at == std::string_view::npos ? text : text.substr(0, at);
    const std::string_view problem_text = at == std::string_view::npos ? text : text.substr(at + separator.size());
    gameplan::io::PddlLimits limits;
    limits.max_atoms = 2000;
    limits.max_actions = 2000;
    limits.max_grounding_steps = 200000;
    limits.max_table_bytes = std::uint64_t{1} << 20;
    try {
        const auto domain = gameplan::io::parse_pddl_domain(domain_text, "fuzz-domain.pddl", limits);
        const auto problem = gameplan::io::parse_pddl_problem(problem_text, "fuzz-problem.pddl", limits);
        const auto task = gameplan::io::ground_pddl(domain, problem, limits);
        gameplan::goap::Planner planner(task.domain);
        for (const auto h : {gameplan::goap::Heuristic::LmCut, gameplan::goap::Heuristic::HMax})
            for (const auto dir : {gameplan::goap::Direction::Forward, gameplan::goap::Direction::Backward}) {
                gameplan::goap::PlanOptions o;
                o.heuristic = h;
                o.direction = dir;
                o.budget.max_expansions = 200;
                const auto r = planner.plan(task.start, task.goal, o);
                if (r.status == gameplan::Status::InvalidQuery) __builtin_trap();  // grounding made a bad task
            }
    } catch (const gameplan::io::LoadError&) {
    }
    return 0;
}
