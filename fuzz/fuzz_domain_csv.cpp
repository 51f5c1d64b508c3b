// libFuzzer target for spreadsheet (CSV) domains: any input must either load or throw io::LoadError
// (never crash, hang or leak). A loaded domain must survive write -> read unchanged, lint must not
// crash on any input, and a loaded domain must plan without error.
#include <gameplan/goap/explain.hpp>
#include <gameplan/goap/planner.hpp>
#include <gameplan/io/domain_csv.hpp>
#include <gameplan/io/domain_json.hpp>
#include <gameplan/io/lint.hpp>
#include <gameplan/io/load_error.hpp>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace gameplan;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        (void)io::parse_csv(text, "fuzz.csv");
    } catch (const io::LoadError&) {
    }
    (void)io::lint_domain_text(text, io::DomainFormat::Csv, "fuzz.csv");
    try {
        const io::DomainFile file = io::parse_domain_csv(text, "fuzz.csv");
        try {
            const std::string written = io::write_domain_csv(file);
            const io::DomainFile back = io::parse_domain_csv(written, "written.csv");
            if (io::write_domain_csv(back) != written) __builtin_trap();
            // JSON and back gives the same CSV again (variables, goals' "when", back-off included).
            const io::DomainFile via_json = io::parse_domain_json(io::write_domain_json(back), "written.json");
            if (io::write_domain_csv(via_json) != written) __builtin_trap();
        } catch (const std::invalid_argument&) {  // a name the cell syntax cannot hold ("!!x" reads as atom "!x")
        }
        const goap::Condition* goal = file.default_goal();
        if (goal && file.domain.action_count() <= 64) {
            (void)goap::analyze_no_plan(file.domain, file.start, *goal);
            goap::Planner planner(file.domain);
            goap::PlanOptions options;
            options.budget.max_expansions = 2000;
            const goap::PlanResult r = planner.plan(file.start, *goal, options);
            if (r.status == Status::Found) {
                goap::WorldState s = file.start;
                for (const goap::ActionId a : r.plan) {  // numbers included: bounds, effects from the state before
                    if (!file.domain.can_apply(a, s)) __builtin_trap();
                    file.domain.apply(a, s);
                }
                if (!s.satisfies(*goal)) __builtin_trap();
            }
        }
    } catch (const io::LoadError&) {
    }
    return 0;
}
