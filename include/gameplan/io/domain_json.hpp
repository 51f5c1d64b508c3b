#pragma once
/// @file domain_json.hpp
/// Loading GOAP domains from JSON (the format of docs/formats.md, "GOAP domain JSON").
///
/// Overview
/// --------
/// ```
/// {"atoms":   ["hungry", ...],                      optional: when given, every atom used must be listed
///  "shared":  ["door_open", ...],                   optional: world-owned atoms
///  "actions": [{"name": "eat", "cost": 5,
///               "preconditions": {"has_food": true}, optional, atom -> bool
///               "effects": {"hungry": false}}],      optional, atom -> bool
///  "start":   {"hungry": true, ...},                optional: atoms not listed are false
///  "goal":    {"hungry": false},                    optional: the default goal
///  "goals":   {"eat": {"conditions": {"hungry": false}, "priority": 2}}}   optional named goals
/// ```
/// Numeric and enumerated variables (docs/formats.md): `"variables": {"ammo": {"min": 0, "max": 10},
/// "location": {"values": ["home", "forest"]}}`; in conditions `"ammo": [">=", 1]` (==, !=, <, <=, >,
/// >=; a bare value means ==), in effects `"ammo": ["-", 1]` (=, +, -; a bare value means =), in
/// "start" a value. Actions may carry `"retry": {"after_failures": 3, "cooldown_ticks": 60}`; named
/// goals `"when": {conditions}` and a priority `{"variable": "hunger", "scale": 1.5, "offset": 0}`.
/// Keys beginning with `_` are ignored anywhere in objects with fixed fields (use them for comments);
/// any other unknown key is an error, so typos such as "precondition" do not pass silently.
///
/// Atoms are interned in the order of "atoms", then in order of first use (shared, actions, start,
/// goal, goals); actions keep file order. Every error throws `io::LoadError` naming the file, the
/// 1-based line and column (in characters) and the JSON path of the bad field, e.g.
/// `hunger.json:12:7: actions[3].cost: must be a number in [0, 1e+09]`.
///
/// Limits (limits.hpp, docs/limits.md): at most `JsonLimits::max_bytes` of input and
/// `JsonLimits::max_depth` levels of nesting; an action cost is at most kMaxActionCost and the sum of
/// all action costs at most kMaxTotalActionCost (so plan costs can never overflow); the dense atom
/// tables ((32 x actions + 16 x goals + 8) x ceil(atoms / 64) bytes) must fit `JsonLimits::max_table_bytes`.
///
/// Thread-safety: the functions are reentrant. Loading allocates freely (it is not a per-frame path).

#include <gameplan/goap/domain.hpp>
#include <gameplan/goap/world_state.hpp>
#include <gameplan/io/limits.hpp>
#include <gameplan/io/load_error.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gameplan::io {

/// A domain file's contents.
struct DomainFile {
    goap::Domain domain;                  ///< atoms and actions
    goap::WorldState start;               ///< "start" (unlisted atoms false)
    std::optional<goap::Condition> goal;  ///< "goal", if present
    std::vector<goap::Goal> goals;        ///< "goals", in file order

    /// The goal called `name` in "goals", or nullptr.
    [[nodiscard]] const goap::Goal* find_goal(std::string_view name) const noexcept;
    /// The goal to plan for when the caller names none: "goal" if present, otherwise the named goal of
    /// highest priority in `start` (the first in file order among equals; a goal with "when" only if it
    /// holds in `start`; a variable priority evaluated in `start`); nullptr when there is none.
    [[nodiscard]] const goap::Condition* default_goal() const noexcept;
};

/// Parses a domain from `text`; `file_name` is used in error messages only. O(size of text) apart from
/// the domain's own tables.
/// @throws LoadError on any syntax or schema error (see the file overview), and when a limit of
/// `limits` is exceeded (size, nesting depth, atom-table memory); see limits.hpp.
[[nodiscard]] DomainFile parse_domain_json(std::string_view text, std::string_view file_name = "<input>",
                                           const JsonLimits& limits = {});

/// Reads and parses the domain file `path` (regular files and pipes, at most `limits.max_bytes`).
/// @throws LoadError if the file cannot be read, is a directory or device, is too large, is empty, or is
/// not a valid domain.
[[nodiscard]] DomainFile load_domain_json(const std::filesystem::path& path, const JsonLimits& limits = {});

}  // namespace gameplan::io
