// The `--json` objects shared by the CLI and the WebAssembly pages (see results_json.hpp).
#include "results_json.hpp"

#include <gameplan/goap/explain.hpp>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace gameplan::cli {

std::string cost_text(double cost) {
    char buf[64];
#if defined(__cpp_lib_to_chars)
    const auto r = std::to_chars(buf, buf + sizeof buf, cost);
    return std::string(buf, r.ptr);
#else  // standard libraries without floating-point to_chars (libc++ before 14: emscripten 3.1.6)
    for (int precision = 1; precision <= 17; ++precision) {
        std::snprintf(buf, sizeof buf, "%.*g", precision, cost);
        if (std::strtod(buf, nullptr) == cost) break;
    }
    return buf;
#endif
}

ChosenGoal choose_goal(const io::DomainFile& f, const std::string& requested, const std::string& file) {
    ChosenGoal out;
    if (!requested.empty()) {
        const goap::Goal* g = f.find_goal(requested);
        if (!g) {
            std::string names;
            for (const goap::Goal& x : f.goals) names += (names.empty() ? "" : ", ") + x.name;
            throw UsageError(file + ": no goal named '" + requested + "' in \"goals\"" +
                             (names.empty() ? std::string(" (the file has no named goals)") : " (available: " + names + ")"));
        }
        out.condition = &g->condition;
        out.name = g->name;
        out.description = "goal '" + g->name + "' (priority " + cost_text(g->priority) + ")";
        return out;
    }
    if (f.goal) {
        out.condition = &*f.goal;
        out.name = "goal";
        out.description = "the default goal (\"goal\")";
        return out;
    }
    const goap::Goal* best = nullptr;
    for (const goap::Goal& g : f.goals)
        if (!best || g.priority > best->priority) best = &g;
    if (!best) throw UsageError(file + ": the domain has no \"goal\" and no \"goals\" to plan for");
    out.condition = &best->condition;
    out.name = best->name;
    out.description = "goal '" + best->name + "' (priority " + cost_text(best->priority) + ", the highest; choose one with --goal)";
    return out;
}

nlohmann::ordered_json items_json(const goap::Domain& domain, std::span<const goap::Literal> literals) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const goap::Literal l : literals) out.push_back(goap::literal_text(domain, l));
    return out;
}

nlohmann::ordered_json cost_json(double cost) {
    if (cost == std::floor(cost) && std::fabs(cost) < 9.0e15) return static_cast<std::int64_t>(cost);
    return cost;
}

std::optional<double> grid_suboptimality(const path::GridMap& map, path::GridPoint from, path::GridPoint to,
                                         const path::GridSearchOptions& options, const GridRunner& runner,
                                         const GridRun& run, const path::GridPath& result) {
    if (runner.exact() || run.status != Status::Found) return std::nullopt;
    path::GridSearchOptions exact = options;
    exact.weight = 1.0;
    exact.heuristic = path::Heuristic::Auto;
    exact.budget = {};
    path::GridPathfinder reference;
    path::GridPath optimal;
    if (reference.find_path(map, from, to, exact, optimal) != Status::Found) return std::nullopt;
    return suboptimality_of(result.cost, optimal.cost);
}

void add_budget_limit(nlohmann::ordered_json& j, Status status, search::BudgetLimit limit) {
    if (status == Status::BudgetExhausted) j["limit"] = std::string(search::to_string(limit));
}

nlohmann::ordered_json hex_path_json(Status status, search::BudgetLimit limit, const path::GridPath& path,
                                     std::uint64_t expanded, double micros, const std::string& problem) {
    nlohmann::ordered_json j;
    j["status"] = to_string(status);
    j["cost"] = status == Status::Found ? nlohmann::ordered_json(path.cost) : nlohmann::ordered_json(nullptr);
    nlohmann::ordered_json cells = nlohmann::ordered_json::array();
    for (const auto& c : path.cells) cells.push_back({c.x, c.y});
    j["path"] = std::move(cells);
    j["expanded"] = expanded;
    add_budget_limit(j, status, limit);
    j["micros"] = std::round(micros * 10.0) / 10.0;
    j["topology"] = "hex";
    if (!problem.empty()) j["error"] = problem;
    return j;
}

void add_scen_stop(nlohmann::ordered_json& summary, bool stopped, std::size_t completed) {
    summary["status"] = stopped ? "time_limit" : "completed";
    summary["completed"] = completed;
}


void write_grid_path_json(std::ostream& out, const GridRun& run, const path::GridPath& result, double setup_micros,
                          std::optional<double> suboptimality, const std::vector<path::GridPoint>* corners,
                          const std::string& problem) {
    // Streamed: the path is written cell by cell (a few bytes each), never held as a JSON tree.
    const auto cells = [&](const std::vector<path::GridPoint>& points) {
        out << '[';
        for (std::size_t i = 0; i < points.size(); ++i) out << (i ? ",[" : "[") << points[i].x << ',' << points[i].y << ']';
        out << ']';
    };
    const std::string cost_text = run.status == Status::Found ? nlohmann::ordered_json(result.cost).dump() : std::string("null");
    out << "{\"status\":\"" << to_string(run.status) << "\",\"cost\":" << cost_text << ",\"path\":";
    cells(result.cells);
    if (corners) {
        out << ",\"corners\":";
        cells(*corners);
    }
    nlohmann::ordered_json j;
    j["expanded"] = run.expanded;
    add_budget_limit(j, run.status, run.limit);
    j["micros"] = std::round(run.micros * 10.0) / 10.0;
    if (setup_micros > 0) j["setup_micros"] = std::round(setup_micros * 10.0) / 10.0;
    if (suboptimality) j["suboptimality"] = *suboptimality;
    if (!problem.empty()) j["error"] = problem;
    const std::string rest = j.dump();  // {"expanded":...}: its members continue the object
    out << ',' << std::string_view(rest).substr(1) << '\n';
}

void write_navmesh_path_json(std::ostream& out, Status status, search::BudgetLimit limit, const path::NavmeshPath& route,
                             std::uint64_t expanded, double micros, double build_ms, std::size_t polygons, const std::string& problem,
                             double preprocess_ms, std::size_t hierarchy_bytes) {
    const std::string cost_text = status == Status::Found ? nlohmann::json(route.cost).dump() : std::string("null");
    out << "{\"status\":\"" << to_string(status) << "\",\"cost\":" << cost_text << ",\"path\":";
    out << '[';
    for (std::size_t i = 0; i < route.points.size(); ++i)
        out << (i ? ",[" : "[") << nlohmann::json(route.points[i].x).dump() << ',' << nlohmann::json(route.points[i].y).dump() << ']';
    out << ']';
    nlohmann::ordered_json j;
    j["expanded"] = expanded;
    add_budget_limit(j, status, limit);
    j["micros"] = std::round(micros * 10.0) / 10.0;
    j["setup_micros"] = std::round(build_ms * 10000.0) / 10.0;
    j["polygons"] = polygons;
    if (preprocess_ms >= 0) {
        j["preprocess_ms"] = std::round(preprocess_ms * 100.0) / 100.0;
        j["hierarchy_bytes"] = hierarchy_bytes;
    }
    if (!problem.empty()) j["error"] = problem;
    const std::string rest = j.dump();
    out << ',' << std::string_view(rest).substr(1) << '\n';
}

std::string plan_status_name(Status s) {
    return s == Status::NoPath ? "no_plan" : std::string(to_string(s));
}

namespace {
const char* op_text(goap::CompareOp op) {
    static const char* const names[] = {"==", "!=", "<", "<=", ">", ">="};
    return names[static_cast<int>(op)];
}
}  // namespace

nlohmann::ordered_json comparison_json(const goap::Domain& d, const goap::Comparison& c) {
    nlohmann::ordered_json v = nlohmann::ordered_json::array();
    v.push_back(op_text(c.op));
    if (d.variable_kind(c.var) == goap::VariableKind::Enumeration) v.push_back(d.variable_values(c.var)[static_cast<std::size_t>(c.value)]);
    else v.push_back(c.value);
    return v;
}

std::string comparison_item(const goap::Domain& d, const goap::Comparison& c) {
    const nlohmann::ordered_json j = comparison_json(d, c);
    return d.variable_name(c.var) + op_text(c.op) + (j[1].is_string() ? j[1].get<std::string>() : j[1].dump());
}

nlohmann::ordered_json numeric_json(const goap::Domain& d, const goap::NoPlanAnalysis& a) {
    using Json = nlohmann::ordered_json;
    const auto comparisons = [&](std::span<const goap::Comparison> cs) {
        Json out = Json::array();
        for (const goap::Comparison& c : cs) out.push_back(comparison_item(d, c));
        return out;
    };
    Json out = Json::array();
    for (const goap::NumericBlock& b : a.numeric) {
        Json j;
        j["condition"] = comparison_item(d, b.condition);
        j["variable"] = d.variable_name(b.condition.var);
        Json reachable = Json::array();
        if (d.variable_kind(b.condition.var) == goap::VariableKind::Enumeration) {
            for (const std::int32_t v : b.reachable_values) reachable.push_back(d.variable_values(b.condition.var)[static_cast<std::size_t>(v)]);
        } else {
            reachable.push_back(b.reachable_min);
            reachable.push_back(b.reachable_max);
        }
        j["reachable"] = std::move(reachable);
        Json changers = Json::array();
        for (const goap::BlockedChanger& c : b.changers) {
            Json x;
            x["action"] = d.action_name(c.action);
            x["missing"] = items_json(d, c.missing);
            x["unsatisfiable"] = comparisons(c.unsatisfiable);
            x["limits"] = comparisons(c.limits);
            changers.push_back(std::move(x));
        }
        j["changers"] = std::move(changers);
        Json disabled = Json::array();
        for (const goap::ActionId x : b.disabled) disabled.push_back(d.action_name(x));
        j["disabled"] = std::move(disabled);
        j["root_cause"] = b.root_cause();
        out.push_back(std::move(j));
    }
    return out;
}

nlohmann::ordered_json root_causes_json(const goap::Domain& d, const goap::NoPlanAnalysis& a) {
    nlohmann::ordered_json out = items_json(d, a.root_causes);
    for (const goap::NumericBlock& b : a.numeric)
        if (b.root_cause()) out.push_back(comparison_item(d, b.condition));
    return out;
}

nlohmann::ordered_json plan_json(const io::DomainFile& file, const goap::Condition& goal, const goap::PlanResult& r,
                                 std::span<const goap::Literal> unreachable_goals,
                                 std::span<const goap::Comparison> unreachable_comparisons, const char* direction) {
    nlohmann::ordered_json out;
    out["status"] = plan_status_name(r.status);
    if (r.status != Status::Found) out["cost"] = nullptr;
    else if (r.cost == std::floor(r.cost) && std::fabs(r.cost) < 9.0e15) out["cost"] = static_cast<std::int64_t>(r.cost);
    else out["cost"] = r.cost;
    nlohmann::ordered_json plan = nlohmann::ordered_json::array();
    for (const goap::ActionId a : r.plan) plan.push_back(file.domain.action_name(a));
    out["plan"] = plan;
    out["expanded"] = r.stats.expanded;
    out["generated"] = r.stats.generated;
    add_budget_limit(out, r.status, r.limit);
    out["micros"] = r.micros;
    if (direction) out["direction"] = std::string(direction);  // `plan --direction auto`: the one that answered
    if (r.status == Status::NoPath) {
        nlohmann::ordered_json unreachable = nlohmann::ordered_json::object();
        for (const goap::Literal& l : unreachable_goals) unreachable[file.domain.atom_name(l.atom)] = l.value;
        for (const goap::Comparison& c : unreachable_comparisons)
            unreachable[file.domain.variable_name(c.var)] = comparison_json(file.domain, c);
        out["unreachable_goals"] = unreachable;
        const goap::NoPlanAnalysis why = goap::analyze_no_plan(file.domain, file.start, goal);
        out["root_causes"] = root_causes_json(file.domain, why);
        nlohmann::ordered_json cycles = nlohmann::ordered_json::array();
        for (const auto& c : why.cycles) cycles.push_back(items_json(file.domain, c));
        out["cycles"] = std::move(cycles);
        if (!why.numeric.empty()) out["numeric"] = numeric_json(file.domain, why);
    }
    return out;
}

}  // namespace gameplan::cli
