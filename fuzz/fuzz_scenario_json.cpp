// libFuzzer target: the scenario JSON loader (inline domains only), then a short run of whatever loads,
// so the agent runtime sees arbitrary valid scenarios too. Any input must give a scenario or a
// LoadError, never a crash, a hang or a sanitizer report.
#include <gameplan/goap/agent_scenario.hpp>
#include <gameplan/io/load_error.hpp>
#include <gameplan/io/scenario_json.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    gameplan::io::ScenarioParseOptions options;
    options.allow_domain_files = false;  // never read files named by the input
    gameplan::goap::Scenario scenario;
    try {
        scenario = gameplan::io::parse_scenario_json(text, "fuzz.json", options);
    } catch (const gameplan::io::LoadError&) {
        return 0;
    }
    // Keep each run small: bounded searches, few ticks.
    if (scenario.agents.size() > 32 || scenario.domain.atom_count() > 64) return 0;
    for (gameplan::goap::ScenarioAgent& a : scenario.agents)
        a.max_expansions_per_tick = std::min<std::uint64_t>(a.max_expansions_per_tick, 2000);
    gameplan::goap::ScenarioRunner runner(scenario);
    if (!runner.error().empty()) return 0;
    gameplan::goap::ScenarioTrace trace(runner, scenario.domain);
    runner.set_observer(&trace);
    runner.run(std::min<std::uint64_t>(scenario.ticks, 30));
    return 0;
}
