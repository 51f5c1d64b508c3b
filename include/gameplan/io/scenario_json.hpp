#pragma once
/// @file scenario_json.hpp
/// Loading agent scenarios (goap::Scenario, see goap/agent_scenario.hpp) from JSON: the format of
/// docs/formats.md, "Scenario JSON".
///
/// Overview
/// --------
/// ```
/// {"domain":   "../space_shooter.json" | {inline domain object},   required
///  "shared":   ["击杀玩家", ...],             optional: atoms the scenario treats as world-owned
///  "world":    {"击杀玩家": false},           optional: initial shared atoms (over the domain's "start")
///  "ticks":    20,                           optional: default run length (integer >= 1)
///  "direction": "backward",                  optional: planner direction
///  "types":    {"enemy": {"actions": {"aim": {"ticks": 2, "behaviour": "aim_laser", "succeeds": true,
///                                             "cost": 3, "enabled": true},
///                                     "shoot": 1},          a number = ticks
///                         "exclude": ["chase"]}},
///  "agents":   [{"name": "enemy", "type": "enemy", "state": {"安全": true},
///                "goals": ["kill_player",                   a goal of the domain file's "goals", or
///                          {"name": "flee", "conditions": {"hurt": false},
///                           "priority": 10 | [{"if": {"hurt": true}, "value": 10}, {"value": 0}]}],
///                "max_expansions_per_tick": 4}],
///  "timeline": [{"tick": 3, "set": {"击杀玩家": false}},             world (shared atoms)
///               {"tick": 3, "agent": "enemy", "set": {"安全": false}}, private atoms of an agent
///               {"tick": 4, "agent": "enemy", "fail": "aim"},
///               {"tick": 5, "agent": "enemy", "abort": true},
///               {"tick": 6, "agent": "enemy", "cost": {"chase": 2}},
///               {"tick": 7, "agent": "enemy", "enable": {"chase": false}}]}
/// ```
/// A string "domain" is a domain file path relative to the scenario file; its own errors are reported
/// in that file. An inline domain is read by the domain loader, and its errors point into the scenario
/// file (`domain.actions[2].cost`). Keys beginning with `_` are ignored (comments); other unknown keys
/// are errors. Limits (limits.hpp, docs/limits.md): `JsonLimits` (bytes, nesting, atom-table memory),
/// costs at most kMaxActionCost, "ticks" at most kMaxScenarioTicks.
/// Every error throws `io::LoadError` naming the file, line, column and JSON path, e.g.
/// `hunger.json:14:9: types.person.actions: action 'cook' is not bound (bind it or list it in "exclude")`.
///
/// Thread-safety: the functions are reentrant.

#include <gameplan/goap/agent_scenario.hpp>
#include <gameplan/io/limits.hpp>
#include <gameplan/io/load_error.hpp>

#include <filesystem>
#include <string_view>

namespace gameplan::io {

/// Options of the scenario parser.
struct ScenarioParseOptions {
    /// Folder a string "domain" is relative to.
    std::filesystem::path base_dir;
    /// When false, a string "domain" is an error (only inline domains are read; used by the fuzzer).
    bool allow_domain_files = true;
    /// Size, nesting and memory limits (they apply to a referenced or inline domain too).
    JsonLimits limits;
};

/// Parses a scenario from `text`; `file_name` is used in messages.
/// @throws LoadError on any syntax or schema error, or an error in the referenced domain file.
[[nodiscard]] goap::Scenario parse_scenario_json(std::string_view text, std::string_view file_name = "<input>",
                                                 const ScenarioParseOptions& options = {});

/// Reads and parses the scenario file `path` (a string "domain" is relative to its folder); regular
/// files and pipes of at most `limits.max_bytes` are read.
/// @throws LoadError if the file cannot be read, is a directory or device, is too large, is empty, or is
/// not a valid scenario.
[[nodiscard]] goap::Scenario load_scenario_json(const std::filesystem::path& path, const JsonLimits& limits = {});

}  // namespace gameplan::io
