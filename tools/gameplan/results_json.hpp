#pragma once
/// The `--json` objects of `gameplan path` and `gameplan plan`, written by one piece of code that the
/// CLI and the WebAssembly pages (web/) both link (target gameplan_cli_core), so a page's result is
/// byte for byte the CLI's.
#include "grid_runner.hpp"

#include <gameplan/goap/domain.hpp>
#include <gameplan/goap/explain.hpp>
#include <gameplan/goap/planner.hpp>
#include <gameplan/io/domain_json.hpp>
#include <gameplan/path/navmesh.hpp>

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <vector>

namespace gameplan::cli {

/// Adds `"limit"`, the budget limit that ran out (`"expansions"`, `"time"` or `"memory"`), to `j` when
/// `status` is BudgetExhausted: the field every command's --json names it with.
void add_budget_limit(nlohmann::ordered_json& j, Status status, search::BudgetLimit limit);

/// A `scen --json` summary's "status" ("completed", or "time_limit" when `stopped` by --time-limit) and
/// "completed" (the scenarios run to the end, which the means and counts cover).
void add_scen_stop(nlohmann::ordered_json& summary, bool stopped, std::size_t completed);

/// The goal a command plans for.
struct ChosenGoal {
    const goap::Condition* condition = nullptr;
    std::string name;         ///< "goal" for the default goal, else the named goal's name
    std::string description;  ///< for people: `the default goal ("goal")` or `goal 'eat' (priority 2)`
};

/// `requested` from "goals", or (when empty) the file's default goal: "goal", else the named goal of
/// highest priority. Throws UsageError naming `file` when there is none.
ChosenGoal choose_goal(const io::DomainFile& domain_file, const std::string& requested, const std::string& file);

/// A cost for people: the shortest text that reads back exactly.
std::string cost_text(double cost);

/// Literals in the CSV cell syntax, as a JSON array of strings.
nlohmann::ordered_json items_json(const goap::Domain& domain, std::span<const goap::Literal> literals);
/// A cost as JSON: an integer when it is one, else a double.
nlohmann::ordered_json cost_json(double cost);

/// For an inexact runner's found path: its relative excess over the optimum of an exact A* under the
/// same rules (weight 1, the default heuristic, no budget); nullopt for exact runners or no path.
[[nodiscard]] std::optional<double> grid_suboptimality(const path::GridMap& map, path::GridPoint from, path::GridPoint to,
                                                       const path::GridSearchOptions& options, const GridRunner& runner,
                                                       const GridRun& run, const path::GridPath& result);

/// One grid query as `gameplan path --json` prints it (one line): status, cost, path, [corners],
/// expanded, [limit] (budget_exhausted: the limit that ran out), micros, [setup_micros], [suboptimality],
/// [error]. Streamed cell by cell.
void write_grid_path_json(std::ostream& out, const GridRun& run, const path::GridPath& result, double setup_micros,
                          std::optional<double> suboptimality, const std::vector<path::GridPoint>* corners,
                          const std::string& problem);

/// One `gameplan path --algorithm navmesh --json` line: status, cost, path (turning points), expanded,
/// [limit] (budget_exhausted: the limit that ran out), micros, setup_micros (the mesh build), polygons,
/// [preprocess_ms, hierarchy_bytes] (navmesh-ch: the hierarchy build), [error].
void write_navmesh_path_json(std::ostream& out, Status status, search::BudgetLimit limit, const path::NavmeshPath& route,
                             std::uint64_t expanded, double micros, double build_ms, std::size_t polygons, const std::string& problem,
                             double preprocess_ms = -1.0, std::size_t hierarchy_bytes = 0);

/// One `gameplan path --topology hex --json` object: status, cost, path (cells), expanded, [limit] (the
/// limit that ran out), micros, topology "hex", [error] (when `problem` is not empty).
[[nodiscard]] nlohmann::ordered_json hex_path_json(Status status, search::BudgetLimit limit, const path::GridPath& path,
                                                   std::uint64_t expanded, double micros, const std::string& problem);

/// The GOAP name of a status ("no_plan" rather than the engine's generic "no_path").
[[nodiscard]] std::string plan_status_name(Status status);
/// `[">=", 3]` / `["==", "forest"]`: a comparison's operator and value.
nlohmann::ordered_json comparison_json(const goap::Domain& domain, const goap::Comparison& comparison);

/// A comparison in the CSV cell syntax: `gold>=10`, `place==forest`.
std::string comparison_item(const goap::Domain& domain, const goap::Comparison& comparison);
/// The numeric part of a no-plan analysis (goap/explain.hpp, NumericBlock), one object per blocking
/// comparison: condition, variable, reachable (`[min, max]`, or an enumeration's reached values),
/// changers (`[{action, missing, unsatisfiable, limits}]`), disabled, root_cause.
nlohmann::ordered_json numeric_json(const goap::Domain& domain, const goap::NoPlanAnalysis& analysis);
/// The analysis's root causes as items: the literals, then the comparisons no enabled action can make hold.
nlohmann::ordered_json root_causes_json(const goap::Domain& domain, const goap::NoPlanAnalysis& analysis);

/// `gameplan plan --json`: status, cost, plan, expanded, generated, [exhausted], micros, and for no plan
/// the unreachable goals, root causes and cycles (goap/explain.hpp). `planner` ran the query `r`.
nlohmann::ordered_json plan_json(const io::DomainFile& file, const goap::Condition& goal, const goap::PlanResult& r,
                                 std::span<const goap::Literal> unreachable_goals,
                                 std::span<const goap::Comparison> unreachable_comparisons,
                                 const char* direction = nullptr);
// The same for a plain planner (its unreachable goals after the query).
inline nlohmann::ordered_json plan_json(const io::DomainFile& file, const goap::Condition& goal,
                                        const goap::PlanResult& r, const goap::Planner& planner) {
    return plan_json(file, goal, r, planner.unreachable_goals(), planner.unreachable_goal_comparisons());
}

}  // namespace gameplan::cli
