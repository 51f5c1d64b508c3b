// libFuzzer target for the GOAP domain loader: any input must either load or throw io::LoadError
// (never crash, hang or leak); a loaded domain must also plan without error in both directions.
#include <gameplan/goap/planner.hpp>
#include <gameplan/io/domain_json.hpp>
#include <gameplan/io/load_error.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const gameplan::io::DomainFile file = gameplan::io::parse_domain_json(text, "fuzz.json");
        const gameplan::goap::Condition* goal = file.default_goal();
        if (goal && file.domain.action_count() <= 64) {
            gameplan::goap::Planner planner(file.domain);
            for (const auto dir : {gameplan::goap::Direction::Forward, gameplan::goap::Direction::Backward}) {
                gameplan::goap::PlanOptions options;
                options.direction = dir;
                options.budget.max_expansions = 2000;
                const gameplan::goap::PlanResult r = planner.plan(file.start, *goal, options);
                if (r.status == gameplan::Status::Found) {
                    gameplan::goap::WorldState s = file.start;
                    for (const gameplan::goap::ActionId a : r.plan) {
                        if (!file.domain.can_apply(a, s)) __builtin_trap();  // preconditions and variable bounds
                        file.domain.apply(a, s);
                    }
                    if (!s.satisfies(*goal)) __builtin_trap();
                }
            }
        }
    } catch (const gameplan::io::LoadError&) {
    }
    return 0;
}
