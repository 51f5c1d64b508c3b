// The `gameplan` Python module (pybind11): classes mirroring the C++ API (domains, planner, agents, grid
// maps, pathfinders, the request queue) and two conveniences returning exactly what the CLI prints with
// `--json`: plan_file (`gameplan plan`) and path_file (`gameplan path`).
#include <gameplan/goap/agent.hpp>
#include <gameplan/goap/auto_direction.hpp>
#include <gameplan/goap/agent_batch.hpp>
#include <gameplan/goap/behaviour.hpp>
#include <gameplan/goap/domain.hpp>
#include <gameplan/goap/explain.hpp>
#include <gameplan/goap/planner.hpp>
#include <gameplan/io/domain_file.hpp>
#include <gameplan/io/load_error.hpp>
#include <gameplan/io/movingai.hpp>
#include <gameplan/io/graph_io.hpp>
#include <gameplan/path/area_filter.hpp>
#include <gameplan/path/crowd.hpp>
#include <gameplan/path/distance_field.hpp>
#include <gameplan/path/fog.hpp>
#include <gameplan/path/graph.hpp>
#include <gameplan/path/graph_search.hpp>
#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/grid_rules.hpp>
#include <gameplan/path/grid_search.hpp>
#include <gameplan/path/hex_grid.hpp>
#include <gameplan/path/hpa.hpp>
#include <gameplan/path/influence.hpp>
#include <gameplan/path/islands.hpp>
#include <gameplan/path/jps.hpp>
#include <gameplan/path/jps_plus.hpp>
#include <gameplan/path/movement.hpp>
#include <gameplan/path/navmesh.hpp>
#include <gameplan/path/navmesh_hierarchy.hpp>
#include <gameplan/path/penalty_layer.hpp>
#include <gameplan/path/request_queue.hpp>
#include <gameplan/path/smoothing.hpp>
#include <gameplan/path/subgoal.hpp>
#include <gameplan/path/theta_star.hpp>
#include <gameplan/path/waypoints.hpp>
#include <gameplan/config.hpp>

#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <limits>
#include <unordered_map>
#include <mutex>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace py = pybind11;
using namespace gameplan;

namespace {

// ---- conversions ----------------------------------------------------------------------------------

goap::AtomId atom_named(const goap::Domain& d, const std::string& name) {
    const goap::AtomId a = d.find_atom(name);
    if (!a.valid()) throw py::key_error("no atom named '" + name + "'");
    return a;
}


// Variables: values are integers, or an enumerated variable's value names.
goap::VarId variable_named(const goap::Domain& d, const std::string& name) {
    const goap::VarId v = d.find_variable(name);
    if (!v.valid()) throw py::key_error("no variable named '" + name + "'");
    return v;
}

// A shared (blackboard) variable by name.
goap::VarId shared_variable_named(const goap::Domain& d, const std::string& name) {
    const goap::VarId v = variable_named(d, name);
    if (!d.is_shared(v)) throw py::value_error("'" + name + "' is private to each agent");
    return v;
}

std::int32_t value_of(const goap::Domain& d, goap::VarId v, const py::handle& value) {
    std::int64_t x = 0;
    if (py::isinstance<py::str>(value)) {
        const std::string name = value.cast<std::string>();
        x = d.find_variable_value(v, name);
        if (x < 0) throw py::value_error("variable '" + d.variable_name(v) + "' has no value '" + name + "'");
    } else if (py::isinstance<py::bool_>(value) || !py::isinstance<py::int_>(value)) {
        throw py::type_error("the value of variable '" + d.variable_name(v) + "' must be an int or a value name");
    } else {
        x = value.cast<std::int64_t>();
    }
    if (!d.in_bounds(v, x))
        throw py::value_error("value " + std::to_string(x) + " of variable '" + d.variable_name(v) + "' is outside its bounds");
    return static_cast<std::int32_t>(x);
}

py::object value_object(const goap::Domain& d, goap::VarId v, std::int32_t x) {
    if (d.variable_kind(v) == goap::VariableKind::Enumeration) return py::str(d.variable_values(v)[static_cast<std::size_t>(x)]);
    return py::int_(x);
}

goap::CompareOp compare_op_of(const std::string& s) {
    static const char* const names[] = {"==", "!=", "<", "<=", ">", ">="};
    for (int i = 0; i < 6; ++i)
        if (s == names[i]) return static_cast<goap::CompareOp>(i);
    throw py::value_error("unknown comparison '" + s + "' (expected ==, !=, <, <=, > or >=)");
}

// {"atom": bool, "variable": value or (op, value), ...} -> Condition over `d`.
goap::Condition goal_of(const goap::Domain& d, const py::dict& goal) {
    goap::Condition c = d.make_condition();
    for (const auto& [key, value] : goal) {
        const std::string name = key.cast<std::string>();
        if (d.find_atom(name).valid()) {
            c.set(d.find_atom(name), value.cast<bool>());
            continue;
        }
        const goap::VarId v = variable_named(d, name);
        goap::Comparison cmp{v, goap::CompareOp::Eq, 0};
        if (py::isinstance<py::tuple>(value) || py::isinstance<py::list>(value)) {
            const py::sequence seq = value.cast<py::sequence>();
            if (seq.size() != 2) throw py::value_error("a comparison is (op, value)");
            cmp.op = compare_op_of(seq[0].cast<std::string>());
            cmp.value = value_of(d, v, seq[1]);
        } else {
            cmp.value = value_of(d, v, value);
        }
        if (d.variable_kind(v) == goap::VariableKind::Enumeration && cmp.op != goap::CompareOp::Eq && cmp.op != goap::CompareOp::Ne)
            throw py::value_error("enumerated variable '" + name + "' compares with == and != only");
        c.require(cmp);
    }
    return c;
}

// {"atom": bool, "variable": value} applied on top of `state`.
void assign_state(const goap::Domain& d, goap::WorldState& state, const py::dict& values) {
    for (const auto& [key, value] : values) {
        const std::string name = key.cast<std::string>();
        if (d.find_atom(name).valid()) state.set(d.find_atom(name), value.cast<bool>());
        else {
            const goap::VarId v = variable_named(d, name);
            state.set_value(v, value_of(d, v, value));
        }
    }
}

goap::Direction direction_of(const std::string& s) {
    if (s == "backward") return goap::Direction::Backward;
    if (s == "forward") return goap::Direction::Forward;
    if (s == "by-size") return goap::Direction::BySize;
    throw py::value_error("direction must be 'forward', 'backward' or 'by-size', got '" + s + "'");
}

std::string status_text(Status s) { return std::string(to_string(s)); }

py::object cost_object(double cost) {  // as the CLI's JSON: an integer when it is one
    if (cost == std::floor(cost) && std::fabs(cost) < 9.0e15) return py::int_(static_cast<std::int64_t>(cost));
    return py::float_(cost);
}

path::GridPoint point_of(const std::pair<std::int32_t, std::int32_t>& p) { return path::GridPoint{p.first, p.second}; }
path::PathHandle handle_of(const std::pair<std::uint32_t, std::uint32_t>& h) { return path::PathHandle{h.first, h.second}; }

path::GridSearchOptions path_options(int movement, const std::string& diagonal, const std::string& heuristic, double weight) {
    path::GridSearchOptions o;
    if (movement != 4 && movement != 8) throw py::value_error("movement must be 4 or 8");
    o.movement = movement == 4 ? path::Movement::Four : path::Movement::Eight;
    const auto d = path::parse_diagonal_rule(diagonal);
    if (!d) throw py::value_error("unknown diagonal rule '" + diagonal + "'");
    o.diagonal = *d;
    const auto h = path::parse_heuristic(heuristic);
    if (!h) throw py::value_error("unknown heuristic '" + heuristic + "'");
    o.heuristic = *h;
    if (!(weight >= 1.0) || !std::isfinite(weight)) throw py::value_error("weight must be a finite number >= 1");
    o.weight = weight;
    return o;
}

// The result of one grid query, as Python sees it.
struct PyPath {
    std::string status;
    double cost = 0;
    std::vector<std::pair<std::int32_t, std::int32_t>> cells;
    std::uint64_t expanded = 0;
    std::string limit;  // the budget that ran out ("" unless status is budget_exhausted)
};

// The budget limit that ended a search as results name it ("expansions", "time", "memory"), or "" when
// the search did not run out of budget.
std::string limit_name(Status s, search::BudgetLimit limit) {
    return s == Status::BudgetExhausted ? std::string(search::to_string(limit)) : std::string();
}

PyPath py_path(Status s, const path::GridPath& p, std::uint64_t expanded, search::BudgetLimit limit) {
    PyPath out{status_text(s), p.cost, {}, expanded, limit_name(s, limit)};
    out.cells.reserve(p.cells.size());
    for (const path::GridPoint& c : p.cells) out.cells.emplace_back(c.x, c.y);
    return out;
}

// Runs `search(path)` (a pathfinder's find_path) without the GIL; the result with `finder`'s expansions
// and the budget that ran out.
template <class Finder, class Search>
PyPath search_released(const Finder& finder, Search&& search) {
    path::GridPath out;
    Status s;
    {
        py::gil_scoped_release release;
        s = search(out);
    }
    return py_path(s, out, finder.stats().expanded, finder.budget_limit());
}

// The graph's node indices of `ids` (KeyError for an unknown id).
std::vector<path::GraphNode> graph_nodes(const path::Graph& g, const std::vector<std::string>& ids) {
    std::vector<path::GraphNode> out;
    for (const std::string& id : ids) {
        const path::GraphNode n = g.find(id);
        if (!g.contains(n)) throw py::key_error("no node with id '" + id + "'");
        out.push_back(n);
    }
    return out;
}

// The result of one graph query, as Python sees it.
struct PyGraphPath {
    std::string status;
    double cost = 0;
    std::vector<std::string> nodes;
    std::uint64_t expanded = 0;
    std::string limit;
};

// One query of `finder` from `sources` to the nearest of `goals` without the GIL (`algorithm` astar or dijkstra).
PyGraphPath graph_query(path::GraphPathfinder& finder, const path::Graph& g, const std::vector<path::GraphNode>& sources,
                        const std::vector<path::GraphNode>& goals, const std::string& algorithm, const search::Budget& budget) {
    if (algorithm != "astar" && algorithm != "dijkstra") throw py::value_error("algorithm must be 'astar' or 'dijkstra'");
    path::GraphSearchOptions o;
    if (algorithm == "dijkstra") o.heuristic = path::GraphHeuristic::Zero;
    o.budget = budget;
    path::GraphPath out;
    Status s;
    {
        py::gil_scoped_release release;
        s = finder.begin(g, sources, goals, o);
        if (s == Status::InProgress) s = finder.step();
        s = finder.finish(out);
    }
    PyGraphPath r{status_text(s), out.cost, {}, finder.stats().expanded, limit_name(s, finder.budget_limit())};
    for (const path::GraphNode n : out.nodes) r.nodes.push_back(g.id(n));
    return r;
}

// The result of one navmesh query, as Python sees it.
struct PyNavPath {
    std::string status;
    double cost = 0;
    std::vector<std::pair<double, double>> points;
    std::uint64_t expanded = 0;
    std::string limit;
};

// One query of `finder` (either navmesh tier) on `world` without the GIL: the route, the expansions and the
// budget that ran out. Points must be finite.
template <class Finder, class World>
PyNavPath navmesh_query(Finder& finder, const World& world, std::pair<double, double> start, std::pair<double, double> goal,
                        const search::Budget& budget) {
    for (const double v : {start.first, start.second, goal.first, goal.second})
        if (!std::isfinite(v)) throw py::value_error("points must be finite");
    path::NavmeshSearchOptions options;
    options.budget = budget;
    path::NavmeshPath route;
    Status s;
    {
        py::gil_scoped_release release;
        s = finder.find_path(world, path::NavPoint{start.first, start.second}, path::NavPoint{goal.first, goal.second}, options, route);
    }
    // (cost +infinity without a path, as for grid and graph results)
    PyNavPath r{status_text(s), s == Status::Found ? route.cost : std::numeric_limits<double>::infinity(), {},
                finder.stats().expanded, limit_name(s, finder.budget_limit())};
    if (s == Status::Found)
        for (const path::NavPoint& q : route.points) r.points.emplace_back(q.x, q.y);
    return r;
}

// Each pair (name, value) of `values` as a literal of the builder's atom `name`.
std::vector<goap::Literal> builder_literals(const goap::DomainBuilder& b, const std::map<std::string, bool>& values) {
    std::vector<goap::Literal> out;
    for (const auto& [n, v] : values) {
        const goap::AtomId a = b.find_atom(n);
        if (!a.valid()) throw py::key_error("no atom named '" + n + "'");
        out.push_back(goap::Literal{a, v});
    }
    return out;
}

// The names of ids 0 .. count-1 (`name_of(i)`).
template <class NameOf>
std::vector<std::string> names(std::uint32_t count, NameOf name_of) {
    std::vector<std::string> v;
    for (std::uint32_t i = 0; i < count; ++i) v.push_back(name_of(i));
    return v;
}

// The index of a valid id, else None.
template <class Id>
std::optional<std::uint32_t> index_or_none(Id id) {
    if (!id.valid()) return std::nullopt;
    return id.value;
}

// ---- planning -------------------------------------------------------------------------------------

struct PyPlan {
    std::string status;
    double cost = 0;
    std::vector<std::uint32_t> actions;
    std::vector<std::string> plan;
    std::uint64_t expanded = 0;
    std::uint64_t generated = 0;
    std::string limit;
};

// The budget of a search from Python's keyword arguments (0 = no time or memory limit), checked before
// any search starts.
// A deadline `time_limit` seconds from now (search::deadline_after: none for 0 or a billion seconds and
// more), after refusing negative and NaN values.
std::chrono::steady_clock::time_point deadline_in(double time_limit) {
    if (!(time_limit >= 0) || std::isnan(time_limit)) throw py::value_error("time_limit must be a number >= 0 (0 = no limit)");
    return search::deadline_after(time_limit);
}

template <class Shape>
std::string shape_text(const Shape& s) {
    return std::to_string(s.width()) + " x " + std::to_string(s.height());
}

// [(PenaltyLayer or InfluenceMap, weight), ...] (None: none) as cost layers for `map`; ValueError for a layer
// sized for another map or a weight that is negative or not finite. The pointers stay valid while the
// Python objects live: `keep` (if given) receives them, for holders that outlive the call.
std::vector<path::CostLayer> cost_layers_of(const py::object& layers, const path::GridMap& map, py::list* keep = nullptr) {
    std::vector<path::CostLayer> out;
    if (layers.is_none()) return out;
    for (const py::handle item : layers) {
        std::pair<py::object, double> pair;
        const path::PenaltyLayer* layer = nullptr;
        try {
            pair = item.cast<std::pair<py::object, double>>();
            if (py::isinstance<path::InfluenceMap>(pair.first)) layer = &pair.first.cast<const path::InfluenceMap&>().layer();
            else layer = &pair.first.cast<const path::PenaltyLayer&>();
        } catch (const py::cast_error&) {
            throw py::type_error("layers: each item must be a (PenaltyLayer or InfluenceMap, weight) pair, got " +
                                 std::string(py::str(item)));
        }
        if (!layer->matches(map)) throw py::value_error("layers: a layer sized for a " + shape_text(*layer) + " map, not this " + shape_text(map) + " one");
        if (!(pair.second >= 0.0) || !std::isfinite(pair.second))
            throw py::value_error("layers: a weight must be finite and >= 0, got " + std::to_string(pair.second));
        out.push_back(path::CostLayer{layer, pair.second});
        if (keep != nullptr) keep->append(pair.first);
    }
    return out;
}

// A grid query's per-query costs: `areas` (ValueError when sized for another map), `filter` and `layers`
// (as cost_layers_of, held in `storage`, which must outlive the query).
void apply_costs(const path::GridMap& map, path::GridSearchOptions& o, const path::AreaMap* areas, const path::AreaFilter* filter,
                 const py::object& layers, std::vector<path::CostLayer>& storage) {
    if (areas != nullptr && !areas->matches(map))
        throw py::value_error("areas: sized for a " + shape_text(*areas) + " map, not this " + shape_text(map) + " one");
    o.areas = areas;
    o.filter = filter;
    storage = cost_layers_of(layers, map);
    o.layers = storage;
}

search::Budget budget_of(std::optional<std::uint64_t> max_expansions, double time_limit, std::uint64_t max_memory) {
    search::Budget b;
    if (max_expansions) b.max_expansions = *max_expansions;
    b.deadline = deadline_in(time_limit);
    if (max_memory > 0) b.max_memory_bytes = max_memory > SIZE_MAX ? SIZE_MAX : static_cast<std::size_t>(max_memory);
    return b;
}

PyPlan py_plan(const goap::Domain& d, const goap::PlanResult& r) {
    PyPlan out;
    out.status = r.status == Status::NoPath ? "no_plan" : status_text(r.status);
    out.cost = r.status == Status::Found ? r.cost : 0;
    for (const goap::ActionId a : r.plan) {
        out.actions.push_back(a.value);
        out.plan.push_back(d.action_name(a));
    }
    out.expanded = r.stats.expanded;
    out.generated = r.stats.generated;
    out.limit = limit_name(r.status, r.limit);
    return out;
}

// The goal `gameplan plan` chooses: the named goal, else "goal", else the goal of highest priority.
const goap::Condition& choose_goal(const io::DomainFile& f, const std::optional<std::string>& requested, const std::string& file) {
    if (requested) {
        const goap::Goal* g = f.find_goal(*requested);
        if (!g) throw py::value_error(file + ": no goal named '" + *requested + "' in \"goals\"");
        return g->condition;
    }
    if (f.goal) return *f.goal;
    const goap::Goal* best = nullptr;
    for (const goap::Goal& g : f.goals)
        if (!best || g.priority > best->priority) best = &g;
    if (!best) throw py::value_error(file + ": the domain has no \"goal\" and no \"goals\" to plan for");
    return best->condition;
}

py::list literals_list(const goap::Domain& d, const std::vector<goap::Literal>& literals) {
    py::list out;
    for (const goap::Literal& l : literals) out.append(goap::literal_text(d, l));
    return out;
}

const char* op_text(goap::CompareOp op) {
    static const char* const names[] = {"==", "!=", "<", "<=", ">", ">="};
    return names[static_cast<int>(op)];
}

// `gameplan plan FILE [--goal NAME] [--direction D] --json`, as a dict.
py::dict plan_file(const std::string& file, const std::optional<std::string>& goal_name, const std::string& direction) {
    const io::DomainFile f = io::load_domain(file);
    for (std::size_t a = 0; a < f.domain.action_count(); ++a)
        if (f.domain.action_cost(goap::ActionId(static_cast<std::uint32_t>(a))) > goap::kMaxActionCost)
            throw py::value_error(file + ": action '" + f.domain.action_name(goap::ActionId(static_cast<std::uint32_t>(a))) +
                                  "' costs more than the planner's maximum");
    const goap::Condition& goal = choose_goal(f, goal_name, io::input_name(file));
    goap::PlanOptions options;
    const bool automatic = direction == "auto";  // both directions at once, the first answer wins
    options.direction = automatic ? goap::kDefaultDirection : direction_of(direction);
    goap::Planner planner(f.domain);
    std::optional<goap::AutoDirectionPlanner> both;
    if (automatic) both.emplace(f.domain);
    const goap::PlanResult r = automatic ? both->plan(f.start, goal, options) : planner.plan(f.start, goal, options);
    const std::span<const goap::Literal> unreachable_goals = automatic ? both->unreachable_goals() : planner.unreachable_goals();
    const std::span<const goap::Comparison> unreachable_comparisons =
        automatic ? both->unreachable_goal_comparisons() : planner.unreachable_goal_comparisons();
    if (r.status == Status::InvalidQuery) throw py::value_error(file + ": the planner refused the query");
    py::dict out;
    out["status"] = r.status == Status::NoPath ? "no_plan" : status_text(r.status);
    out["cost"] = r.status == Status::Found ? cost_object(r.cost) : py::none();
    py::list plan;
    for (const goap::ActionId a : r.plan) plan.append(f.domain.action_name(a));
    out["plan"] = plan;
    out["expanded"] = r.stats.expanded;
    out["generated"] = r.stats.generated;
    if (r.status == Status::BudgetExhausted) out["limit"] = limit_name(r.status, r.limit);
    out["micros"] = r.micros;
    if (automatic) out["direction"] = std::string(goap::to_string(both->direction()));
    if (r.status == Status::NoPath) {
        py::dict unreachable;
        for (const goap::Literal& l : unreachable_goals) unreachable[py::str(f.domain.atom_name(l.atom))] = l.value;
        for (const goap::Comparison& c : unreachable_comparisons) {
            py::list v;
            v.append(op_text(c.op));
            if (f.domain.variable_kind(c.var) == goap::VariableKind::Enumeration)
                v.append(f.domain.variable_values(c.var)[static_cast<std::size_t>(c.value)]);
            else
                v.append(c.value);
            unreachable[py::str(f.domain.variable_name(c.var))] = v;
        }
        out["unreachable_goals"] = unreachable;
        const goap::NoPlanAnalysis why = goap::analyze_no_plan(f.domain, f.start, goal);
        out["root_causes"] = literals_list(f.domain, why.root_causes);
        py::list cycles;
        for (const auto& c : why.cycles) cycles.append(literals_list(f.domain, c));
        out["cycles"] = cycles;
    }
    return out;
}

py::list xy_list(const std::vector<path::GridPoint>& points) {
    py::list cells;
    for (const path::GridPoint& c : points) {
        py::list xy;
        xy.append(c.x);
        xy.append(c.y);
        cells.append(xy);
    }
    return cells;
}

double elapsed_micros(std::chrono::steady_clock::time_point since) {
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - since).count();
}

double tenth(double micros) { return std::round(micros * 10.0) / 10.0; }

std::string blocked_problem(const path::GridMap& map, path::GridPoint from, path::GridPoint to) {
    const auto text = [](const path::GridPoint& p) { return std::to_string(p.x) + "," + std::to_string(p.y); };
    return !map.passable(from) ? "start " + text(from) + " is blocked"
           : !map.passable(to) ? "goal " + text(to) + " is blocked"
                               : std::string("invalid query");
}

// `gameplan path MAP --from X,Y --to X,Y --algorithm navmesh|navmesh-ch --json`: the turning points between
// cell centres (navmesh-ch: after building the hierarchy, within the CLI's default budgets).
py::dict navmesh_path_file(const path::GridMap& map, path::GridPoint from, path::GridPoint to, bool on_hierarchy) {
    if (map.has_terrain_costs())
        throw py::value_error("algorithm navmesh: the map has terrain costs (any-angle lengths are defined on uniform maps)");
    constexpr std::size_t kMemory = std::size_t{512} << 20;  // the CLI's default --max-memory
    path::Navmesh mesh;
    const auto b0 = std::chrono::steady_clock::now();
    (void)mesh.build(map);
    const double build_micros = elapsed_micros(b0);
    path::NavmeshHierarchy hierarchy;
    double preprocess_micros = 0;
    if (on_hierarchy) {
        const auto p0 = std::chrono::steady_clock::now();
        const path::JpsSupport built = hierarchy.build(mesh, kMemory, p0 + std::chrono::seconds(120));  // --preprocess-time-limit
        if (built != path::JpsSupport::Ok) throw py::value_error("algorithm navmesh-ch: " + std::string(path::describe(built)));
        preprocess_micros = elapsed_micros(p0);
    }
    path::NavmeshPathfinder finder;
    path::NavmeshHierarchyPathfinder fast;
    path::NavmeshSearchOptions options;
    options.budget.max_memory_bytes = kMemory;
    path::NavmeshPath route;
    const auto t0 = std::chrono::steady_clock::now();
    const Status status = on_hierarchy ? fast.find_path(hierarchy, path::cell_centre(from), path::cell_centre(to), options, route)
                                       : finder.find_path(mesh, path::cell_centre(from), path::cell_centre(to), options, route);
    const double micros = elapsed_micros(t0);
    py::dict out;
    out["status"] = status_text(status);
    out["cost"] = status == Status::Found ? py::object(py::float_(route.cost)) : py::object(py::none());
    py::list points;
    for (const path::NavPoint& p : route.points) {
        py::list xy;
        xy.append(p.x);
        xy.append(p.y);
        points.append(xy);
    }
    out["path"] = points;
    out["expanded"] = on_hierarchy ? fast.stats().expanded : finder.stats().expanded;
    out["micros"] = tenth(micros);
    out["setup_micros"] = tenth(build_micros);
    out["polygons"] = mesh.polygon_count();
    if (on_hierarchy) {
        out["preprocess_ms"] = std::round(preprocess_micros / 10.0) / 100.0;
        out["hierarchy_bytes"] = hierarchy.memory_bytes();
    }
    if (status == Status::InvalidQuery) out["error"] = blocked_problem(map, from, to);
    return out;
}

// `gameplan path MAP --from X,Y --to X,Y --algorithm A [--cluster-size N] --json`, as a dict, for every
// algorithm of the CLI: astar, dijkstra, jps, jps-plus, subgoal, hpa, theta, navmesh, navmesh-ch.
// `gameplan path MAP --from X,Y --to X,Y --topology hex [--algorithm dijkstra] --json`.
py::dict hex_path_file(const path::GridMap& map, path::GridPoint from, path::GridPoint to, bool dijkstra) {
    path::HexSearchOptions options;
    options.heuristic = dijkstra ? path::HexHeuristic::Zero : path::HexHeuristic::Auto;
    options.budget.max_memory_bytes = std::size_t{512} << 20;  // the CLI's default --max-memory
    path::HexPathfinder finder;
    finder.reserve(map);
    path::GridPath result;
    const auto t0 = std::chrono::steady_clock::now();
    const Status status = finder.find_path(map, from, to, options, result);
    const double micros = elapsed_micros(t0);
    py::dict out;
    out["status"] = status_text(status);
    out["cost"] = status == Status::Found ? py::object(py::float_(result.cost)) : py::object(py::none());
    out["path"] = xy_list(result.cells);
    out["expanded"] = finder.stats().expanded;
    if (status == Status::BudgetExhausted) out["limit"] = limit_name(status, finder.budget_limit());
    out["micros"] = tenth(micros);
    out["topology"] = "hex";
    if (status == Status::InvalidQuery) out["error"] = blocked_problem(map, from, to);
    return out;
}

py::dict path_file(const std::string& map_file, const std::pair<std::int32_t, std::int32_t>& start,
                   const std::pair<std::int32_t, std::int32_t>& goal, const std::string& algorithm, std::int32_t cluster_size,
                   const std::string& topology) {
    if (topology != "square" && topology != "hex") throw py::value_error("topology must be 'square' or 'hex' (got '" + topology + "')");
    if (topology == "hex" && algorithm != "astar" && algorithm != "dijkstra")
        throw py::value_error("topology hex: algorithm must be astar or dijkstra (got '" + algorithm + "')");
    static const char* const known[] = {"astar", "dijkstra", "jps", "jps-plus", "hpa", "theta", "subgoal", "navmesh", "navmesh-ch"};
    if (std::find(std::begin(known), std::end(known), algorithm) == std::end(known))
        throw py::value_error("algorithm must be one of astar, dijkstra, jps, jps-plus, hpa, theta, subgoal, navmesh, navmesh-ch (got '" +
                              algorithm + "')");
    if (cluster_size < path::kMinClusterSize || cluster_size > path::kMaxClusterSize)
        throw py::value_error("cluster_size must be in [1, 256], got " + std::to_string(cluster_size));
    const path::GridMap map = io::load_grid_map(map_file);
    const path::GridPoint from = point_of(start), to = point_of(goal);
    for (const path::GridPoint& p : {from, to})
        if (!map.contains(p))
            throw py::value_error("(" + std::to_string(p.x) + ", " + std::to_string(p.y) + ") is outside the map (" +
                                  std::to_string(map.width()) + " x " + std::to_string(map.height()) + ")");
    if (topology == "hex") return hex_path_file(map, from, to, algorithm == "dijkstra");
    if (algorithm == "navmesh" || algorithm == "navmesh-ch") return navmesh_path_file(map, from, to, algorithm == "navmesh-ch");
    path::GridSearchOptions options;
    path::GridPath result;
    Status status = Status::InvalidQuery;
    std::uint64_t expanded = 0;
    double setup_micros = 0;
    bool exact = true;
    const auto t0 = std::chrono::steady_clock::now();
    auto t_search = t0;
    // The search starts now; what was done since t0 was its preprocessing.
    const auto setup_done = [&] {
        t_search = std::chrono::steady_clock::now();
        setup_micros = std::chrono::duration<double, std::micro>(t_search - t0).count();
    };
    // A search over a preprocessed structure (begin / step / finish), as the CLI runs it.
    const auto search_prepared = [&](const auto& structure, auto& finder) {
        setup_done();
        if (finder.begin(structure, from, to, options) == Status::InProgress) (void)finder.step();
        status = finder.finish(result);
        expanded = finder.stats().expanded;
    };
    if (algorithm == "jps" || algorithm == "jps-plus" || algorithm == "subgoal") {
        const path::JpsSupport support = path::check_jps_support(map, options);
        if (support != path::JpsSupport::Ok)
            throw py::value_error("algorithm " + algorithm + ": " + std::string(path::describe(support)));
    }
    if (algorithm == "astar" || algorithm == "dijkstra") {
        if (algorithm == "dijkstra") options.heuristic = path::Heuristic::Zero;
        path::GridPathfinder finder;
        finder.reserve(map);
        t_search = std::chrono::steady_clock::now();
        status = finder.find_path(map, from, to, options, result);
        expanded = finder.stats().expanded;
    } else if (algorithm == "jps") {
        path::JpsPathfinder finder;
        finder.sync(map);
        setup_done();
        status = finder.find_path(map, from, to, options, result);
        expanded = finder.stats().expanded;
    } else if (algorithm == "jps-plus") {
        path::JumpTable table;
        (void)table.build(map);
        path::JpsPlusPathfinder finder;
        search_prepared(table, finder);
    } else if (algorithm == "subgoal") {
        path::SubgoalGraph graph;
        (void)graph.build(map);
        path::SubgoalPathfinder finder;
        search_prepared(graph, finder);
    } else if (algorithm == "hpa") {
        exact = false;
        path::HierarchicalMap hierarchy;
        path::HierarchyOptions h;
        h.cluster_size = cluster_size;
        h.max_memory_bytes = std::size_t{512} << 20;  // the CLI's default --max-memory
        const path::HierarchyBuild built = hierarchy.build(map, options, h);
        if (built != path::HierarchyBuild::Ok) throw py::value_error("algorithm hpa: " + std::string(path::describe(built)));
        path::HpaPathfinder finder;
        setup_done();
        path::HpaQueryOptions q;
        static_cast<path::GridSearchOptions&>(q) = options;
        status = finder.find_path(hierarchy, from, to, q, result);
        expanded = finder.stats().expanded;
    } else {  // theta
        exact = false;
        path::ThetaStar finder;
        finder.reserve(map);
        t_search = std::chrono::steady_clock::now();
        path::ThetaStarOptions t;
        t.movement = options.movement;
        t.diagonal = options.diagonal;
        status = finder.find_path(map, from, to, t, result);
        expanded = finder.stats().expanded;
    }
    const double micros = elapsed_micros(t_search);
    // Inexact results are compared with the optimum of an exact search under the same rules (as the CLI).
    std::optional<double> suboptimality;
    if (!exact && status == Status::Found) {
        path::GridPathfinder reference;
        path::GridPath optimal;
        if (reference.find_path(map, from, to, path::GridSearchOptions{}, optimal) == Status::Found) {
            const double r = optimal.cost > 0 ? result.cost / optimal.cost - 1.0 : 0.0;
            suboptimality = (r < 1e-12 && r > -1e-12) ? 0.0 : r;
        }
    }
    py::dict out;
    out["status"] = status_text(status);
    out["cost"] = status == Status::Found ? py::object(py::float_(result.cost)) : py::object(py::none());
    out["path"] = xy_list(result.cells);
    out["expanded"] = expanded;
    out["micros"] = tenth(micros);
    if (setup_micros > 0) out["setup_micros"] = tenth(setup_micros);
    if (suboptimality) out["suboptimality"] = *suboptimality;
    if (status == Status::InvalidQuery) out["error"] = blocked_problem(map, from, to);
    return out;
}

// ---- agents ---------------------------------------------------------------------------------------

// Python objects handed to agents live in this record, pointed at by the agent's user data.
// An exception raised by a Python callback during a tick is kept here (the first one) and raised again
// by AgentSystem.tick() once the C++ tick is over: it never unwinds through the runtime or a worker
// thread. The callback counts as failed meanwhile (behaviour: Failure; check: false; cost: disabled).
struct CallbackErrors {
    std::mutex mutex;
    std::exception_ptr first;
    void keep(std::exception_ptr e) {
        const std::lock_guard lock(mutex);
        if (!first) first = std::move(e);
    }
};

struct AgentData {
    py::object user;
    CallbackErrors* errors = nullptr;
};

// Runs `fn` (a Python call) with the GIL; on an exception keeps it and returns `fallback`.
template <class T, class Fn>
T call_python(void* user_data, T fallback, Fn&& fn) {
    py::gil_scoped_acquire gil;
    try {
        return fn();
    } catch (...) {
        if (user_data && static_cast<AgentData*>(user_data)->errors) {
            static_cast<AgentData*>(user_data)->errors->keep(std::current_exception());
            return fallback;
        }
        throw;
    }
}

goap::ActionStatus action_status_of(const py::handle& h) {
    if (py::isinstance<py::str>(h)) {
        const std::string s = h.cast<std::string>();
        if (s == "running") return goap::ActionStatus::Running;
        if (s == "success") return goap::ActionStatus::Success;
        if (s == "failure") return goap::ActionStatus::Failure;
        throw py::value_error("a behaviour returned '" + s + "' (expected 'running', 'success' or 'failure')");
    }
    return h.cast<goap::ActionStatus>();
}

py::dict action_context_dict(goap::ActionContext& c) {
    py::dict d;
    d["agent"] = py::make_tuple(c.agent.id().index, c.agent.id().generation);
    d["agent_name"] = c.agent.name();
    d["action"] = c.agent.domain().action_name(c.action);
    d["tick"] = c.tick;
    d["ticks_running"] = c.ticks_running;
    d["user_data"] = c.user_data ? static_cast<AgentData*>(c.user_data)->user : py::none();
    return d;
}

py::dict planning_context_dict(const goap::PlanningContext& c) {
    py::dict d;
    d["agent"] = py::make_tuple(c.agent.id().index, c.agent.id().generation);
    d["agent_name"] = c.agent.name();
    d["action"] = c.action.valid() ? py::object(py::str(c.agent.domain().action_name(c.action))) : py::none();
    d["goal"] = c.goal;
    d["tick"] = c.tick;
    py::dict view;
    const goap::Domain& dom = c.agent.domain();
    for (std::uint32_t a = 0; a < dom.atom_count(); ++a) view[py::str(dom.atom_name(goap::AtomId(a)))] = c.view.get(goap::AtomId(a));
    d["view"] = view;
    d["user_data"] = c.user_data ? static_cast<AgentData*>(c.user_data)->user : py::none();
    return d;
}

struct PyAgentSystem {
    py::object domain_ref;  // keeps the domain alive
    std::unique_ptr<goap::AgentSystem> system;
    std::unique_ptr<goap::ThreadPool> pool;
    std::map<std::uint64_t, std::unique_ptr<AgentData>> data;
    CallbackErrors errors;
    bool ticking = false;  // inside tick(): callbacks may not change the agent set or tick again
};

std::uint64_t key_of(goap::AgentId id) { return (std::uint64_t{id.generation} << 32) | id.index; }
goap::AgentId id_of(const std::pair<std::uint32_t, std::uint32_t>& id) { return goap::AgentId{id.first, id.second}; }

goap::Agent& agent_of(PyAgentSystem& s, const std::pair<std::uint32_t, std::uint32_t>& id) {
    goap::Agent* a = s.system->find(id_of(id));
    if (!a) throw py::key_error("no live agent with this id");
    return *a;
}

}  // namespace

PYBIND11_MODULE(gameplan, m) {
    m.doc() = "gameplan: GOAP planning, agents and grid pathfinding for games (Python bindings of the C++ library)";
    m.attr("__version__") = GAMEPLAN_VERSION_STRING;
    static py::exception<io::LoadError> load_error(m, "LoadError", PyExc_ValueError);
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const io::LoadError& e) {
            load_error(e.what());
        }
    });

    // ---- domains ----
    py::class_<goap::Domain, std::shared_ptr<goap::Domain>>(m, "Domain", "Atoms and actions (immutable). See docs/goap.md.")
        .def_property_readonly("atom_count", &goap::Domain::atom_count)
        .def_property_readonly("action_count", &goap::Domain::action_count)
        .def_property_readonly("has_variables", &goap::Domain::has_variables)
        .def_property_readonly("atoms", [](const goap::Domain& d) {
            return names(d.atom_count(), [&](std::uint32_t i) { return d.atom_name(goap::AtomId(i)); });
        })
        .def_property_readonly("actions", [](const goap::Domain& d) {
            return names(d.action_count(), [&](std::uint32_t i) { return d.action_name(goap::ActionId(i)); });
        })
        .def("atom_name", [](const goap::Domain& d, std::uint32_t a) {
            if (a >= d.atom_count()) throw py::index_error("atom id out of range");
            return d.atom_name(goap::AtomId(a));
        })
        .def("action_name", [](const goap::Domain& d, std::uint32_t a) {
            if (a >= d.action_count()) throw py::index_error("action id out of range");
            return d.action_name(goap::ActionId(a));
        })
        .def("find_atom", [](const goap::Domain& d, const std::string& n) { return index_or_none(d.find_atom(n)); })
        .def("find_action", [](const goap::Domain& d, const std::string& n) { return index_or_none(d.find_action(n)); })
        .def("action_cost", [](const goap::Domain& d, const std::string& n) {
            const goap::ActionId a = d.find_action(n);
            if (!a.valid()) throw py::key_error("no action named '" + n + "'");
            return d.action_cost(a);
        })
        .def("is_shared", [](const goap::Domain& d, const std::string& n) {
            if (d.find_variable(n).valid() && !d.find_atom(n).valid()) return d.is_shared(d.find_variable(n));
            return d.is_shared(atom_named(d, n));
        })
        .def_property_readonly("variables", [](const goap::Domain& d) {
            return names(d.variable_count(), [&](std::uint32_t i) { return d.variable_name(goap::VarId(i)); });
        })
        .def("variable", [](const goap::Domain& d, const std::string& n) {
            const goap::VarId v = variable_named(d, n);
            py::dict out;
            const bool e = d.variable_kind(v) == goap::VariableKind::Enumeration;
            out["kind"] = e ? "enum" : "integer";
            out["min"] = d.variable_min(v);
            out["max"] = d.variable_max(v);
            out["values"] = std::vector<std::string>(d.variable_values(v).begin(), d.variable_values(v).end());
            out["shared"] = d.is_shared(v);
            return out;
        }, py::arg("name"), "kind ('integer' or 'enum'), min, max, values (an enumeration's names) and shared.");

    py::class_<goap::DomainBuilder>(m, "DomainBuilder", "Builds a domain in code.")
        .def(py::init<>())
        .def("add_atom", [](goap::DomainBuilder& b, const std::string& name, bool shared) {
            if (name.empty()) throw py::value_error("the atom name is empty");
            return b.add_atom(name, shared).value;
        }, py::arg("name"), py::arg("shared") = false)
        .def("add_action", [](goap::DomainBuilder& b, const std::string& name, double cost,
                              const std::map<std::string, bool>& pre, const std::map<std::string, bool>& eff) {
            const std::vector<goap::Literal> p = builder_literals(b, pre), e = builder_literals(b, eff);
            const goap::DomainError err = b.add_action(name, cost, p, e);
            if (err != goap::DomainError::None)
                throw py::value_error("action '" + name + "': " + std::string(goap::to_string(err)));
        }, py::arg("name"), py::arg("cost"), py::arg("preconditions") = std::map<std::string, bool>{},
           py::arg("effects") = std::map<std::string, bool>{})
        .def("add_integer_variable", [](goap::DomainBuilder& b, const std::string& name, std::int32_t min, std::int32_t max, bool shared) {
            if (name.empty()) throw py::value_error("the variable name is empty");
            if (b.find_atom(name).valid() || b.find_variable(name).valid()) throw py::value_error("'" + name + "' is already used");
            if (max < min) throw py::value_error("max is smaller than min");
            return b.add_integer_variable(name, min, max, shared).value;
        }, py::arg("name"), py::arg("min"), py::arg("max"), py::arg("shared") = false)
        .def("add_enum_variable", [](goap::DomainBuilder& b, const std::string& name, const std::vector<std::string>& values, bool shared) {
            if (name.empty()) throw py::value_error("the variable name is empty");
            if (b.find_atom(name).valid() || b.find_variable(name).valid()) throw py::value_error("'" + name + "' is already used");
            const goap::VarId v = b.add_enum_variable(name, values, shared);
            if (!v.valid()) throw py::value_error("variable '" + name + "': needs distinct values, at least one");
            return v.value;
        }, py::arg("name"), py::arg("values"), py::arg("shared") = false)
        .def("add_numeric_action", [](goap::DomainBuilder& b, const std::string& name, double cost, const std::map<std::string, bool>& pre,
                                      const std::map<std::string, bool>& eff,
                                      const std::vector<std::tuple<std::string, std::string, std::int32_t>>& comparisons,
                                      const std::vector<std::tuple<std::string, std::string, std::int32_t>>& numeric_effects) {
            const std::vector<goap::Literal> p = builder_literals(b, pre), e = builder_literals(b, eff);
            const auto var = [&](const std::string& n) {
                const goap::VarId v = b.find_variable(n);
                if (!v.valid()) throw py::key_error("no variable named '" + n + "'");
                return v;
            };
            std::vector<goap::Comparison> c;
            for (const auto& [n, op, value] : comparisons) c.push_back(goap::Comparison{var(n), compare_op_of(op), value});
            std::vector<goap::NumericEffect> ne;
            for (const auto& [n, op, value] : numeric_effects) {
                const goap::EffectOp o = op == "=" ? goap::EffectOp::Set : op == "+" ? goap::EffectOp::Add : op == "-" ? goap::EffectOp::Sub
                                       : throw py::value_error("unknown effect '" + op + "' (expected =, + or -)");
                ne.push_back(goap::NumericEffect{var(n), o, value});
            }
            const goap::DomainError err = b.add_action(name, cost, p, e, c, ne);
            if (err != goap::DomainError::None)
                throw py::value_error("action '" + name + "': " + std::string(goap::to_string(err)));
        }, py::arg("name"), py::arg("cost"), py::arg("preconditions") = std::map<std::string, bool>{},
           py::arg("effects") = std::map<std::string, bool>{},
           py::arg("comparisons") = std::vector<std::tuple<std::string, std::string, std::int32_t>>{},
           py::arg("numeric_effects") = std::vector<std::tuple<std::string, std::string, std::int32_t>>{},
           "comparisons: [(variable, '==' | '!=' | '<' | '<=' | '>' | '>=', value)]; numeric_effects: "
           "[(variable, '=' | '+' | '-', value)]; an enumeration's values are indices here.")
        .def("build", [](const goap::DomainBuilder& b) { return std::make_shared<goap::Domain>(b.build()); });

    struct PyDomainFile {
        std::shared_ptr<goap::Domain> domain;
        std::shared_ptr<io::DomainFile> file;
    };
    py::class_<PyDomainFile>(m, "DomainFile", "A domain file: the domain, its start state and its goals.")
        .def_readonly("domain", &PyDomainFile::domain)
        .def_property_readonly("start", [](const PyDomainFile& f) {
            std::map<std::string, bool> s;
            for (std::uint32_t a = 0; a < f.domain->atom_count(); ++a)
                s[f.domain->atom_name(goap::AtomId(a))] = f.file->start.get(goap::AtomId(a));
            return s;
        })
        .def_property_readonly("goal_names", [](const PyDomainFile& f) {
            std::vector<std::string> v;
            for (const goap::Goal& g : f.file->goals) v.push_back(g.name);
            return v;
        })
        .def("plan", [](const PyDomainFile& f, const std::optional<std::string>& goal, const std::string& direction,
                        std::optional<std::uint64_t> max_expansions, double time_limit, std::uint64_t max_memory) {
            goap::PlanOptions o;
            o.direction = direction_of(direction);
            o.budget = budget_of(max_expansions, time_limit, max_memory);
            goap::Planner planner(*f.domain);
            return py_plan(*f.domain, planner.plan(f.file->start, choose_goal(*f.file, goal, "domain"), o));
        }, py::arg("goal") = py::none(), py::arg("direction") = "by-size", py::arg("max_expansions") = py::none(),
           py::arg("time_limit") = 0.0, py::arg("max_memory") = 0,
           "Plans from the file's start to one of its goals (as `gameplan plan`). Budgets: max_expansions, "
           "time_limit (seconds, 0 = none), max_memory (bytes of search storage, 0 = none); the result's "
           "`limit` names the one that ran out.");
    m.def("load_domain", [](const std::string& path) {
        auto file = std::make_shared<io::DomainFile>(io::load_domain(path));
        auto domain = std::shared_ptr<goap::Domain>(file, &file->domain);  // aliases the file
        return PyDomainFile{domain, file};
    }, py::arg("path"), "Loads a domain file (JSON or CSV). Raises gameplan.LoadError naming file, line and column.");

    // ---- planner ----
    py::class_<PyPlan>(m, "PlanResult")
        .def_readonly("status", &PyPlan::status)
        .def_readonly("cost", &PyPlan::cost)
        .def_readonly("actions", &PyPlan::actions)
        .def_readonly("plan", &PyPlan::plan)
        .def_readonly("expanded", &PyPlan::expanded)
        .def_readonly("generated", &PyPlan::generated)
        .def_readonly("limit", &PyPlan::limit)
        .def("__repr__", [](const PyPlan& p) { return "<PlanResult " + p.status + " cost " + std::to_string(p.cost) + ">"; });

    struct PyPlanner {
        std::shared_ptr<goap::Domain> domain;
        goap::Planner planner;
        std::unique_ptr<goap::AutoDirectionPlanner> both;  // made by the first direction="auto" query
        explicit PyPlanner(std::shared_ptr<goap::Domain> d) : domain(std::move(d)), planner(*domain) {}
    };
    py::class_<PyPlanner>(m, "Planner", "A reusable cost-optimal planner for one domain (one per thread).")
        .def(py::init<std::shared_ptr<goap::Domain>>(), py::arg("domain").none(false))
        .def("plan", [](PyPlanner& p, const py::dict& start, const py::dict& goal, const std::string& direction,
                        std::optional<std::uint64_t> max_expansions, double time_limit, std::uint64_t max_memory) {
            const goap::Domain& d = *p.domain;
            goap::WorldState s = d.make_state();
            assign_state(d, s, start);
            goap::PlanOptions o;
            const bool automatic = direction == "auto";  // both directions at once, the first answer wins
            o.direction = automatic ? goap::kDefaultDirection : direction_of(direction);
            o.budget = budget_of(max_expansions, time_limit, max_memory);
            const goap::Condition g = goal_of(d, goal);
            if (automatic && !p.both) p.both = std::make_unique<goap::AutoDirectionPlanner>(d);
            PyPlan out;
            {
                py::gil_scoped_release release;
                out = py_plan(d, automatic ? p.both->plan(s, g, o) : p.planner.plan(s, g, o));
            }
            return out;
        }, py::arg("start"), py::arg("goal"), py::arg("direction") = "by-size", py::arg("max_expansions") = py::none(),
           py::arg("time_limit") = 0.0, py::arg("max_memory") = 0,
           "start: {atom: bool, variable: value} (unlisted atoms false, variables at their minimum); goal: "
           "{atom: bool, variable: value or (op, value)}. Values: ints, or an enumeration's value names. "
           "Budgets: max_expansions, time_limit (seconds, 0 = none), max_memory (bytes of search storage, "
           "0 = none); the result's `limit` names the one that ran out.");

    // ---- agents ----
    py::enum_<goap::ActionStatus>(m, "ActionStatus")
        .value("RUNNING", goap::ActionStatus::Running)
        .value("SUCCESS", goap::ActionStatus::Success)
        .value("FAILURE", goap::ActionStatus::Failure);

    struct PyTypeBuilder {
        std::shared_ptr<goap::Domain> domain;
        goap::AgentTypeBuilder builder;
        PyTypeBuilder(std::shared_ptr<goap::Domain> d, const std::string& name) : domain(std::move(d)), builder(*domain, name) {}
    };
    struct PyAgentType {
        std::shared_ptr<goap::Domain> domain;
        std::shared_ptr<const goap::AgentType> type;
    };
    const auto check_bind = [](goap::BindErrorKind k, const std::string& action) {
        if (k != goap::BindErrorKind::None) throw py::value_error("action '" + action + "': " + std::string(goap::to_string(k)));
    };
    py::class_<PyAgentType>(m, "AgentType");
    py::class_<PyTypeBuilder>(m, "AgentTypeBuilder",
                              "Binds Python behaviours to a domain's action names (see docs/agents.md).")
        .def(py::init<std::shared_ptr<goap::Domain>, const std::string&>(), py::arg("domain").none(false), py::arg("name"))
        .def("bind", [check_bind](PyTypeBuilder& b, const std::string& action, py::function update, py::object start,
                                  py::object abort) {
            goap::Behaviour beh;
            beh.update = [update](goap::ActionContext& c) {
                return call_python(c.user_data, goap::ActionStatus::Failure,
                                   [&] { return action_status_of(update(action_context_dict(c))); });
            };
            if (!start.is_none())
                beh.start = [start](goap::ActionContext& c) {
                    call_python(c.user_data, 0, [&] {
                        start(action_context_dict(c));
                        return 0;
                    });
                };
            if (!abort.is_none())
                beh.abort = [abort](goap::ActionContext& c, goap::AbortReason r) {
                    call_python(c.user_data, 0, [&] {
                        abort(action_context_dict(c), std::string(goap::to_string(r)));
                        return 0;
                    });
                };
            check_bind(b.builder.bind(action, std::move(beh)), action);
        }, py::arg("action"), py::arg("update"), py::arg("start") = py::none(), py::arg("abort") = py::none(),
           "update(ctx) returns 'running', 'success' or 'failure' (or an ActionStatus); start(ctx) and "
           "abort(ctx, reason) are optional.")
        .def("set_check", [check_bind](PyTypeBuilder& b, const std::string& action, py::function fn) {
            check_bind(b.builder.set_check(action, [fn](const goap::PlanningContext& c) {
                return call_python(c.user_data, false, [&] { return fn(planning_context_dict(c)).cast<bool>(); });
            }), action);
        })
        .def("set_cost", [check_bind](PyTypeBuilder& b, const std::string& action, py::function fn) {
            check_bind(b.builder.set_cost(action, [fn](const goap::PlanningContext& c) {
                return call_python(c.user_data, std::numeric_limits<double>::infinity(),
                                   [&] { return fn(planning_context_dict(c)).cast<double>(); });
            }), action);
        })
        .def("exclude", [check_bind](PyTypeBuilder& b, const std::string& action) { check_bind(b.builder.exclude(action), action); })
        .def("build", [](const PyTypeBuilder& b) {
            goap::BindResult r = b.builder.build();
            if (!r.ok()) throw py::value_error(r.message());
            return PyAgentType{b.domain, r.type};
        });

    py::class_<PyAgentSystem>(m, "AgentSystem", "Agents that plan, act through behaviours and replan (docs/agents.md).")
        .def(py::init([](std::shared_ptr<goap::Domain> d, std::size_t threads) {
            auto s = std::make_unique<PyAgentSystem>();
            s->domain_ref = py::cast(d);
            s->system = std::make_unique<goap::AgentSystem>(*d);
            if (threads > 1) s->pool = std::make_unique<goap::ThreadPool>(threads);
            return s;
        }), py::arg("domain").none(false), py::arg("threads") = 0)
        .def("add_agent", [](PyAgentSystem& s, const std::string& name, const PyAgentType& type,
                             const std::vector<std::tuple<std::string, py::dict, double>>& goals,
                             const py::dict& state, py::object user_data, const std::string& direction) {
            if (s.ticking) throw py::value_error("agents cannot be added from a callback during a tick");
            const goap::Domain& d = s.system->domain();
            if (&d != type.domain.get()) throw py::value_error("the agent type was built for another domain");
            goap::AgentParams p;
            p.name = name;
            p.type = type.type;
            for (const auto& [gname, lits, prio] : goals) {
                goap::AgentGoal g;
                g.name = gname;
                g.condition = goal_of(d, lits);
                g.priority = prio;
                p.goals.push_back(std::move(g));
            }
            p.state = d.make_state();
            assign_state(d, p.state, state);
            auto data = std::make_unique<AgentData>();
            data->user = std::move(user_data);
            data->errors = &s.errors;
            p.user_data = data.get();
            p.direction = direction_of(direction);
            const goap::AgentId id = s.system->add_agent(std::move(p));
            if (!id.valid()) throw py::value_error("the agent's goals or state do not fit the domain");
            s.data[key_of(id)] = std::move(data);
            return std::make_pair(id.index, id.generation);
        }, py::arg("name"), py::arg("type"), py::arg("goals"), py::arg("state") = py::dict(),
           py::arg("user_data") = py::none(), py::arg("direction") = "backward",
           "goals: [(name, {atom: bool, variable: value or (op, value)}, priority)]; state: private atoms and "
           "variables. Returns the agent id (index, generation).")
        .def("remove_agent", [](PyAgentSystem& s, const std::pair<std::uint32_t, std::uint32_t>& id) {
            if (s.ticking) throw py::value_error("agents cannot be removed from a callback during a tick");
            const bool ok = s.system->remove_agent(id_of(id));
            if (ok) s.data.erase(key_of(id_of(id)));
            return ok;
        })
        .def("tick", [](PyAgentSystem& s) {
            if (s.ticking) throw py::value_error("the system is already ticking (called from a callback)");
            s.ticking = true;
            struct Reset {
                bool& flag;
                ~Reset() { flag = false; }
            } reset{s.ticking};
            {
                py::gil_scoped_release release;  // context checks may run Python on worker threads
                s.system->tick(s.pool.get());
            }
            std::exception_ptr e;
            {
                const std::lock_guard lock(s.errors.mutex);
                e = std::exchange(s.errors.first, nullptr);
            }
            if (e) std::rethrow_exception(e);
        }, "One tick. An exception raised by a behaviour or callback is raised here, after the tick "
           "(the callback counted as failed: behaviour failure, check false, cost disabling the action).")
        .def_property_readonly("current_tick", [](const PyAgentSystem& s) { return s.system->current_tick(); })
        .def_property_readonly("agent_count", [](const PyAgentSystem& s) { return s.system->agent_count(); })
        .def("blackboard_get", [](const PyAgentSystem& s, const std::string& atom) {
            return s.system->blackboard().get(atom_named(s.system->domain(), atom));
        })
        .def("blackboard_set", [](PyAgentSystem& s, const std::string& atom, bool value) {
            const goap::AtomId a = atom_named(s.system->domain(), atom);
            if (!s.system->domain().is_shared(a)) throw py::value_error("'" + atom + "' is private to each agent");
            (void)s.system->blackboard().set(a, value);
        })
        .def("agent_get", [](PyAgentSystem& s, const std::pair<std::uint32_t, std::uint32_t>& id, const std::string& atom) {
            const goap::Agent& a = agent_of(s, id);
            const goap::AtomId at = atom_named(s.system->domain(), atom);
            return s.system->domain().is_shared(at) ? s.system->blackboard().get(at) : a.private_state().get(at);
        })
        .def("agent_set", [](PyAgentSystem& s, const std::pair<std::uint32_t, std::uint32_t>& id, const std::string& atom, bool v) {
            if (!agent_of(s, id).set(atom_named(s.system->domain(), atom), v))
                throw py::value_error("'" + atom + "' is shared (use blackboard_set)");
        })
        .def("blackboard_get_value", [](const PyAgentSystem& s, const std::string& var) {
            const goap::Domain& d = s.system->domain();
            const goap::VarId v = shared_variable_named(d, var);
            return value_object(d, v, s.system->blackboard().value(v));
        })
        .def("blackboard_set_value", [](PyAgentSystem& s, const std::string& var, py::object value) {
            const goap::Domain& d = s.system->domain();
            const goap::VarId v = shared_variable_named(d, var);
            (void)s.system->blackboard().set_value(v, value_of(d, v, value));
        })
        .def("agent_get_value", [](PyAgentSystem& s, const std::pair<std::uint32_t, std::uint32_t>& id, const std::string& var) {
            const goap::Agent& a = agent_of(s, id);
            const goap::Domain& d = s.system->domain();
            const goap::VarId v = variable_named(d, var);
            return value_object(d, v, d.is_shared(v) ? s.system->blackboard().value(v) : a.private_state().value(v));
        })
        .def("agent_set_value", [](PyAgentSystem& s, const std::pair<std::uint32_t, std::uint32_t>& id, const std::string& var,
                                   py::object value) {
            const goap::Domain& d = s.system->domain();
            const goap::VarId v = variable_named(d, var);
            if (d.is_shared(v)) throw py::value_error("'" + var + "' is shared (use blackboard_set_value)");
            (void)agent_of(s, id).set_value(v, value_of(d, v, value));
        })
        .def("agent_info", [](PyAgentSystem& s, const std::pair<std::uint32_t, std::uint32_t>& id) {
            const goap::Agent& a = agent_of(s, id);
            const goap::Domain& d = s.system->domain();
            py::dict out;
            out["status"] = std::string(goap::to_string(a.status()));
            py::list plan;
            for (const goap::ActionId x : a.plan()) plan.append(d.action_name(x));
            out["plan"] = plan;
            out["plan_position"] = a.plan_position();
            out["plan_cost"] = a.plan_cost();
            out["current_action"] = a.current_action().valid() ? py::object(py::str(d.action_name(a.current_action()))) : py::none();
            out["current_goal"] = a.current_goal() == goap::kNoGoal ? py::object(py::none()) : py::object(py::int_(a.current_goal()));
            out["replans"] = a.stats().replans;
            out["actions_succeeded"] = a.stats().actions_succeeded;
            out["actions_failed"] = a.stats().actions_failed;
            return out;
        });

    // ---- grids and paths ----
    py::class_<path::GridMap, std::shared_ptr<path::GridMap>>(m, "GridMap", "A grid of passable/blocked cells with terrain costs.")
        .def(py::init([](std::int64_t w, std::int64_t h, bool passable) {
            const path::GridSizeCheck c = path::GridMap::check_size(w, h);
            if (c != path::GridSizeCheck::Ok) throw py::value_error(std::string(path::describe(c)));
            auto map = std::make_shared<path::GridMap>();
            (void)map->reset(w, h, passable);
            return map;
        }), py::arg("width"), py::arg("height"), py::arg("passable") = true)
        .def_property_readonly("width", &path::GridMap::width)
        .def_property_readonly("height", &path::GridMap::height)
        .def("passable", [](const path::GridMap& m, std::int32_t x, std::int32_t y) { return m.passable({x, y}); })
        .def("set_passable", [](path::GridMap& m, std::int32_t x, std::int32_t y, bool v) {
            if (!m.set_passable({x, y}, v)) throw py::index_error("cell outside the map");
        })
        .def("cost", [](const path::GridMap& m, std::int32_t x, std::int32_t y) {
            if (!m.contains(x, y)) throw py::index_error("cell outside the map");
            return m.cost({x, y});
        })
        .def("set_cost", [](path::GridMap& m, std::int32_t x, std::int32_t y, std::uint32_t c) {
            if (!m.contains(x, y)) throw py::index_error("cell outside the map");
            if (c < 1 || c > path::kMaxTerrainCost) throw py::value_error("the cost must be in [1, 2^24]");
            (void)m.set_cost({x, y}, c);
        });
    m.def("load_map", [](const std::string& p) { return std::make_shared<path::GridMap>(io::load_grid_map(p)); },
          py::arg("path"), "Loads a MovingAI .map (movingai.com) or a plain-text grid.");

    // ---- areas, filters and cost layers (docs/pathfinding.md) ----
    m.attr("MAX_AREAS") = path::kMaxAreas;
    m.attr("AREA_GROUND") = path::kAreaGround;
    m.attr("AREA_SWAMP") = path::kAreaSwamp;
    m.attr("AREA_WATER") = path::kAreaWater;
    m.attr("AREA_TREES") = path::kAreaTrees;
    const auto check_cell = [](const auto& shape, std::int32_t x, std::int32_t y) {
        if (x < 0 || y < 0 || x >= shape.width() || y >= shape.height()) throw py::index_error("cell outside the map");
    };
    py::class_<path::AreaMap, std::shared_ptr<path::AreaMap>>(m, "AreaMap",
        "An area type (0 .. MAX_AREAS - 1) per cell of a map's shape; every cell starts in area 0.")
        .def(py::init([](const path::GridMap& map) { return std::make_shared<path::AreaMap>(map); }), py::arg("map"))
        .def_property_readonly("width", &path::AreaMap::width)
        .def_property_readonly("height", &path::AreaMap::height)
        .def("matches", &path::AreaMap::matches, py::arg("map"), "True if sized for a map of this shape.")
        .def("at", [check_cell](const path::AreaMap& a, std::int32_t x, std::int32_t y) {
            check_cell(a, x, y);
            return a.at({x, y});
        }, py::arg("x"), py::arg("y"))
        .def("set", [check_cell](path::AreaMap& a, std::int32_t x, std::int32_t y, std::uint32_t area) {
            check_cell(a, x, y);
            if (area >= path::kMaxAreas) throw py::value_error("area must be in [0, " + std::to_string(path::kMaxAreas - 1) + "], got " + std::to_string(area));
            (void)a.set({x, y}, area);
        }, py::arg("x"), py::arg("y"), py::arg("area"));
    m.def("load_map_and_areas", [](const std::string& p, bool water_passable, bool trees_passable) {
        auto areas = std::make_shared<path::AreaMap>();
        io::MapLoadOptions o;
        o.water_passable = water_passable;
        o.trees_passable = trees_passable;
        o.areas = areas.get();
        auto map = std::make_shared<path::GridMap>(io::load_grid_map(p, o));
        return std::make_pair(map, areas);
    }, py::arg("path"), py::arg("water_passable") = false, py::arg("trees_passable") = false,
       "Loads a map and the standard areas of its terrain letters (AREA_SWAMP for S, AREA_WATER for W, AREA_TREES "
       "for T, AREA_GROUND for the rest): (GridMap, AreaMap). water_passable / trees_passable make W / T cells "
       "passable, so that a filter decides who may enter them.");
    py::class_<path::AreaFilter>(m, "AreaFilter",
        "What one query may enter and what each area costs it (default: every area allowed at multiplier 1).")
        .def(py::init<>())
        .def("forbid", [](path::AreaFilter& f, std::uint32_t area, bool forbidden) {
            if (!f.forbid(area, forbidden)) throw py::value_error("area must be in [0, " + std::to_string(path::kMaxAreas - 1) + "], got " + std::to_string(area));
        }, py::arg("area"), py::arg("forbidden") = true, "Cells of this area count as blocked for the query.")
        .def("set_multiplier", [](path::AreaFilter& f, std::uint32_t area, double multiplier) {
            if (!f.set_multiplier(area, multiplier))
                throw py::value_error("set_multiplier: area must be in [0, " + std::to_string(path::kMaxAreas - 1) +
                                      "] and the multiplier in (0, 1e6], got area " + std::to_string(area) + ", multiplier " +
                                      std::to_string(multiplier));
        }, py::arg("area"), py::arg("multiplier"), "A step entering a cell of this area costs this many times its length.")
        .def("forbidden", &path::AreaFilter::forbidden, py::arg("area"))
        .def("multiplier", &path::AreaFilter::multiplier, py::arg("area"));
    py::class_<path::PenaltyLayer, std::shared_ptr<path::PenaltyLayer>>(m, "PenaltyLayer",
        "A non-negative penalty per cell, added (times a weight) to every step entering the cell.")
        .def(py::init([](const path::GridMap& map) { return std::make_shared<path::PenaltyLayer>(map); }), py::arg("map"))
        .def("matches", &path::PenaltyLayer::matches, py::arg("map"))
        .def("at", [check_cell](const path::PenaltyLayer& l, std::int32_t x, std::int32_t y) {
            check_cell(l, x, y);
            return l.at({x, y});
        }, py::arg("x"), py::arg("y"))
        .def("set", [check_cell](path::PenaltyLayer& l, std::int32_t x, std::int32_t y, float penalty) {
            check_cell(l, x, y);
            if (!l.set({x, y}, penalty)) throw py::value_error("a penalty must be finite and >= 0");
        }, py::arg("x"), py::arg("y"), py::arg("penalty"))
        .def("add", [check_cell](path::PenaltyLayer& l, std::int32_t x, std::int32_t y, float delta) {
            check_cell(l, x, y);
            if (!l.add({x, y}, delta)) throw py::value_error("delta must be finite");
        }, py::arg("x"), py::arg("y"), py::arg("delta"), "Adds delta (may be negative; the result is clamped at 0).")
        .def("clear", &path::PenaltyLayer::clear)
        .def("scale", [](path::PenaltyLayer& l, float factor, float floor) {
            if (!l.scale(factor, floor)) throw py::value_error("factor must be in [0, 1] and floor >= 0");
        }, py::arg("factor"), py::arg("floor") = 0.0f, "Multiplies every penalty by factor; those below floor become 0.");
    py::class_<path::InfluenceMap, std::shared_ptr<path::InfluenceMap>>(m, "InfluenceMap",
        "Event-driven, decaying per-cell influence; a cost layer for find_path (docs/pathfinding.md).")
        .def(py::init([](const path::GridMap& map) { return std::make_shared<path::InfluenceMap>(map); }), py::arg("map"))
        .def("matches", &path::InfluenceMap::matches, py::arg("map"))
        .def("add_event", [](path::InfluenceMap& i, std::pair<std::int32_t, std::int32_t> center, float amount, std::int32_t radius) {
            if (!(amount > 0.0f) || !std::isfinite(amount)) throw py::value_error("amount must be finite and > 0");
            if (radius < 0 || radius > path::kMaxInfluenceRadius)
                throw py::value_error("radius must be in [0, " + std::to_string(path::kMaxInfluenceRadius) + "]");
            return i.add_event(point_of(center), amount, radius);
        }, py::arg("center"), py::arg("amount"), py::arg("radius"),
           "Adds amount x (1 - d / (radius + 1)) to every cell within distance d <= radius; returns the cells changed.")
        .def("decay", [](path::InfluenceMap& i, float factor) {
            if (!i.decay(factor)) throw py::value_error("factor must be in [0, 1]");
        }, py::arg("factor"))
        .def("decay_for", [](path::InfluenceMap& i, double seconds, double half_life) {
            if (!i.decay_for(seconds, half_life)) throw py::value_error("seconds must be >= 0 and half_life > 0, both finite");
        }, py::arg("seconds"), py::arg("half_life"))
        .def("clear", &path::InfluenceMap::clear)
        .def("set", [](path::InfluenceMap& i, std::int32_t x, std::int32_t y, float value) {
            if (x < 0 || y < 0 || x >= i.layer().width() || y >= i.layer().height()) throw py::index_error("cell outside the map");
            if (!i.set({x, y}, value)) throw py::value_error("an influence must be finite and >= 0");
        }, py::arg("x"), py::arg("y"), py::arg("value"), "Sets the influence of a cell (a saved game's values, say).")
        .def("at", [](const path::InfluenceMap& i, std::int32_t x, std::int32_t y) { return i.at({x, y}); }, py::arg("x"), py::arg("y"))
        .def("sum_along", [](const path::InfluenceMap& i, const std::vector<std::pair<std::int32_t, std::int32_t>>& cells) {
            std::vector<path::GridPoint> p;
            for (const auto& c : cells) p.push_back(point_of(c));
            return i.sum_along(p);
        }, py::arg("cells"), "Influence of every cell the path enters (all but the first).")
        .def("max_along", [](const path::InfluenceMap& i, const std::vector<std::pair<std::int32_t, std::int32_t>>& cells) {
            std::vector<path::GridPoint> p;
            for (const auto& c : cells) p.push_back(point_of(c));
            return i.max_along(p);
        }, py::arg("cells"));

    py::class_<PyPath>(m, "PathResult")
        .def_readonly("status", &PyPath::status)
        .def_readonly("cost", &PyPath::cost)
        .def_readonly("cells", &PyPath::cells)
        .def_readonly("expanded", &PyPath::expanded)
        .def_readonly("limit", &PyPath::limit)
        .def("__repr__", [](const PyPath& p) { return "<PathResult " + p.status + " cost " + std::to_string(p.cost) + ">"; });

    // ---- islands ----
    struct PyIslands {
        std::shared_ptr<path::GridMap> map;
        path::Islands islands;
    };
    struct PyHexIslands {
        std::shared_ptr<path::GridMap> map;
        path::HexIslands islands;
    };
    py::class_<PyIslands>(m, "Islands",
                          "The connected components of a map's passable cells under one movement rule (docs/scale.md): "
                          "whether any path exists, in O(1). Given to GridPathfinder / JpsPathfinder.find_path(islands=...), "
                          "a query between two islands is answered no_path without a search.")
        .def(py::init([](std::shared_ptr<path::GridMap> map, int movement, const std::string& diagonal, bool lazy) {
            auto i = std::make_unique<PyIslands>();
            i->map = std::move(map);
            i->islands.build(*i->map, path_options(movement, diagonal, "auto", 1.0),
                             lazy ? path::IslandUpdate::Lazy : path::IslandUpdate::Eager);
            return i;
        }), py::arg("map").none(false), py::arg("movement") = 8, py::arg("diagonal") = "no-corner-cutting", py::arg("lazy") = false,
           "lazy=True defers the splits a blocked cell may cause to refresh() (connectivity 'unknown' meanwhile).")
        .def("island", [](const PyIslands& i, std::int32_t x, std::int32_t y) -> std::optional<std::uint32_t> {
            const std::uint32_t id = i.islands.island({x, y});
            if (id == path::Islands::kNoIsland) return std::nullopt;
            return id;
        }, "The island id of a cell; None for a blocked cell or a cell off the map.")
        .def("connectivity", [](const PyIslands& i, std::pair<std::int32_t, std::int32_t> a, std::pair<std::int32_t, std::int32_t> b) {
            return std::string(path::to_string(i.islands.connectivity(point_of(a), point_of(b))));
        }, py::arg("a"), py::arg("b"),
           "'reachable', 'unreachable', or 'unknown' (a pending split, or the map changed behind the islands' back).")
        .def_property_readonly("count", [](const PyIslands& i) { return i.islands.island_count(); })
        .def("size", [](const PyIslands& i, std::uint32_t id) { return i.islands.island_size(id); }, py::arg("island"),
             "Passable cells on an island; 0 for an unknown id.")
        .def("set_passable", [](PyIslands& i, std::int32_t x, std::int32_t y, bool v) {
            if (!i.map->contains(x, y)) throw py::index_error("cell outside the map");
            (void)i.islands.set_passable(*i.map, {x, y}, v);
        }, "Opens or closes a cell of the map and updates the islands.")
        .def("cell_changed", [](PyIslands& i, std::int32_t x, std::int32_t y) {
            if (!i.map->contains(x, y)) throw py::index_error("cell outside the map");
            (void)i.islands.cell_changed(*i.map, {x, y});
        }, "Reports a cell opened or closed through the map (GridMap.set_passable).")
        .def("refresh", [](PyIslands& i) { i.islands.refresh(); }, "Settles pending splits (lazy islands).")
        .def("update", [](PyIslands& i) { i.islands.update(*i.map); },
             "Brings the islands up to date after unreported changes (rebuilds), or settles pending splits.")
        .def_property_readonly("current", [](const PyIslands& i) { return i.islands.current(*i.map); })
        .def_property_readonly("map", [](const PyIslands& i) { return i.map; });
    py::class_<PyHexIslands>(m, "HexIslands",
                             "The connected components of a map read as a hex map (odd-r rows, six neighbours). "
                             "Given to HexPathfinder.find_path(islands=...).")
        .def(py::init([](std::shared_ptr<path::GridMap> map) {
            auto i = std::make_unique<PyHexIslands>();
            i->map = std::move(map);
            i->islands.build(*i->map);
            return i;
        }), py::arg("map").none(false))
        .def("island", [](const PyHexIslands& i, std::int32_t x, std::int32_t y) -> std::optional<std::uint32_t> {
            const std::uint32_t id = i.islands.island({x, y});
            if (id == UINT32_MAX) return std::nullopt;
            return id;
        })
        .def("connectivity", [](const PyHexIslands& i, std::pair<std::int32_t, std::int32_t> a, std::pair<std::int32_t, std::int32_t> b) {
            return std::string(path::to_string(i.islands.connectivity(point_of(a), point_of(b))));
        }, py::arg("a"), py::arg("b"))
        .def_property_readonly("count", [](const PyHexIslands& i) { return std::size_t{i.islands.count()}; })
        .def("size", [](const PyHexIslands& i, std::uint32_t id) { return i.islands.island_size(id); }, py::arg("island"))
        .def("set_passable", [](PyHexIslands& i, std::int32_t x, std::int32_t y, bool v) {
            if (!i.map->contains(x, y)) throw py::index_error("cell outside the map");
            (void)i.islands.set_passable(*i.map, {x, y}, v);
        }, "Opens or closes a cell of the map and updates the islands.")
        .def("cell_changed", [](PyHexIslands& i, std::int32_t x, std::int32_t y) {
            if (!i.map->contains(x, y)) throw py::index_error("cell outside the map");
            (void)i.islands.cell_changed(*i.map, {x, y});
        }, "Reports a cell opened or closed through the map (GridMap.set_passable).")
        .def("update", [](PyHexIslands& i) {
            if (!i.islands.current(*i.map)) i.islands.build(*i.map);
        }, "Relabels the map after unreported changes.")
        .def_property_readonly("current", [](const PyHexIslands& i) { return i.islands.current(*i.map); })
        .def_property_readonly("map", [](const PyHexIslands& i) { return i.map; });

    py::class_<path::GridPathfinder>(m, "GridPathfinder", "A* / Dijkstra on grid maps (a reusable context).")
        .def(py::init<>())
        .def("find_path", [](path::GridPathfinder& f, const path::GridMap& map, std::pair<std::int32_t, std::int32_t> start,
                             std::pair<std::int32_t, std::int32_t> goal, int movement, const std::string& diagonal,
                             const std::string& heuristic, double weight, std::optional<std::uint64_t> max_expansions,
                             double time_limit, std::uint64_t max_memory, const PyIslands* islands, const path::AreaMap* areas,
                             const path::AreaFilter* filter, const py::object& layers) {
            path::GridSearchOptions o = path_options(movement, diagonal, heuristic, weight);
            o.budget = budget_of(max_expansions, time_limit, max_memory);
            o.islands = islands ? &islands->islands : nullptr;
            // (the layers' Python objects stay referenced by the caller's list for the whole, synchronous, search)
            std::vector<path::CostLayer> storage;
            apply_costs(map, o, areas, filter, layers, storage);
            return search_released(f, [&](path::GridPath& out) { return f.find_path(map, point_of(start), point_of(goal), o, out); });
        }, py::arg("map"), py::arg("start"), py::arg("goal"), py::arg("movement") = 8,
           py::arg("diagonal") = "no-corner-cutting", py::arg("heuristic") = "auto", py::arg("weight") = 1.0,
           py::arg("max_expansions") = py::none(), py::arg("time_limit") = 0.0, py::arg("max_memory") = 0,
           py::arg("islands") = nullptr, py::arg("areas") = nullptr, py::arg("filter") = nullptr, py::arg("layers") = py::none(),
           "Budgets: max_expansions, time_limit (seconds, 0 = none), max_memory (bytes of search state, 0 = none); "
           "the result's `limit` names the one that ran out. islands: an Islands of this map, for the unreachability "
           "precheck (ignored when stale or built for a stricter rule). areas + filter: an AreaMap of this map and an "
           "AreaFilter (forbidden areas count as blocked; a step costs length x terrain x the multiplier of the area it "
           "enters); layers: a list of (PenaltyLayer or InfluenceMap, weight) pairs, each adding weight x the value of "
           "the cell a step enters.");

    // ---- distance fields and the nearest of many targets ----
    struct PyDistanceField {
        std::shared_ptr<path::GridMap> map;  // the field's answers are about this map
        path::DistanceField field;
    };
    const auto field_cell = [](const PyDistanceField& f, std::int32_t x, std::int32_t y) {
        if (!f.map) throw py::value_error("compute the field first");
        if (x < 0 || y < 0 || x >= f.map->width() || y >= f.map->height()) throw py::index_error("cell outside the map");
        return path::GridPoint{x, y};
    };
    py::class_<PyDistanceField>(m, "DistanceField",
        "Costs from the nearest of many sources to every cell, and the next step toward it: a flow field many units "
        "share (docs/pathfinding.md). Costs are from the sources: a step costs the terrain of the cell it enters.")
        .def(py::init<>())
        .def("compute", [](PyDistanceField& f, std::shared_ptr<path::GridMap> map,
                                      const std::vector<std::pair<std::int32_t, std::int32_t>>& sources, int movement,
                                      const std::string& diagonal, std::optional<std::uint64_t> max_expansions, double time_limit,
                                      std::uint64_t max_memory, const path::AreaMap* areas, const path::AreaFilter* filter,
                                      const py::object& layers) {
            path::GridSearchOptions o = path_options(movement, diagonal, "zero", 1.0);
            o.budget = budget_of(max_expansions, time_limit, max_memory);
            std::vector<path::CostLayer> storage;
            apply_costs(*map, o, areas, filter, layers, storage);
            std::vector<path::GridPoint> s;
            for (const auto& c : sources) s.push_back(point_of(c));
            f.map = std::move(map);
            Status st;
            {
                py::gil_scoped_release release;
                st = f.field.compute(*f.map, s, o);
            }
            return status_text(st);
        }, py::arg("map").none(false), py::arg("sources"), py::arg("movement") = 8, py::arg("diagonal") = "no-corner-cutting",
           py::arg("max_expansions") = py::none(), py::arg("time_limit") = 0.0, py::arg("max_memory") = 0,
           py::arg("areas") = nullptr, py::arg("filter") = nullptr, py::arg("layers") = py::none(),
           "Floods from every source at once; returns the status ('found' once every reachable cell is settled, "
           "'invalid_query' for a source blocked, off the map or in a forbidden area, 'budget_exhausted'). Areas, "
           "filter and layers as GridPathfinder.find_path (read during the flood only).")
        .def("distance", [field_cell](const PyDistanceField& f, std::int32_t x, std::int32_t y) {
            const path::GridPoint p = field_cell(f, x, y);
            return f.field.final_cost(p) ? f.field.distance(p) : std::numeric_limits<double>::infinity();
        }, py::arg("x"), py::arg("y"), "Cost from the nearest source (inf where the flood did not settle the cell).")
        .def("toward_source", [field_cell](const PyDistanceField& f, std::int32_t x, std::int32_t y)
                                  -> std::optional<std::pair<std::int32_t, std::int32_t>> {
            const path::GridPoint p = field_cell(f, x, y);
            if (!f.field.final_cost(p)) return std::nullopt;
            const path::GridPoint n = f.field.toward_source(p);
            if (n.x < 0 || n == p) return std::nullopt;  // (not reached; a source itself)
            return std::make_pair(n.x, n.y);
        }, py::arg("x"), py::arg("y"), "The next cell on the way to the nearest source (None at a source or where not settled).")
        .def("nearest_source", [field_cell](const PyDistanceField& f, std::int32_t x, std::int32_t y) -> std::optional<std::size_t> {
            const path::GridPoint p = field_cell(f, x, y);
            if (!f.field.final_cost(p)) return std::nullopt;
            const std::size_t i = f.field.nearest_source(p);
            if (i == path::kNoIndex) return std::nullopt;
            return i;
        }, py::arg("x"), py::arg("y"), "Index of the nearest source (None where not settled).")
        .def_property_readonly("expanded", [](const PyDistanceField& f) { return f.field.expanded(); });
    py::class_<path::NearestTargets>(m, "NearestTargets",
        "The target cheapest to reach from a cell, in one search (docs/pathfinding.md).")
        .def(py::init<>())
        .def("find", [](path::NearestTargets& n, const path::GridMap& map, std::pair<std::int32_t, std::int32_t> start,
                                   const std::vector<std::pair<std::int32_t, std::int32_t>>& targets, int movement,
                                   const std::string& diagonal, std::optional<std::uint64_t> max_expansions, double time_limit,
                                   std::uint64_t max_memory, const path::AreaMap* areas, const path::AreaFilter* filter,
                                   const py::object& layers) {
            path::GridSearchOptions o = path_options(movement, diagonal, "auto", 1.0);
            o.budget = budget_of(max_expansions, time_limit, max_memory);
            std::vector<path::CostLayer> storage;
            apply_costs(map, o, areas, filter, layers, storage);
            std::vector<path::GridPoint> t;
            for (const auto& c : targets) t.push_back(point_of(c));
            path::GridPath route;
            path::NearestTarget r;
            {
                py::gil_scoped_release release;
                r = n.find(map, point_of(start), t, o, &route);
            }
            py::dict out;
            out["status"] = status_text(r.status);
            out["index"] = r.index == path::kNoIndex ? py::object(py::none()) : py::object(py::int_(r.index));
            out["cost"] = r.cost;
            std::vector<std::pair<std::int32_t, std::int32_t>> cells;
            if (r.status == Status::Found)
                for (const path::GridPoint& c : route.cells) cells.emplace_back(c.x, c.y);
            out["cells"] = cells;
            out["expanded"] = r.expanded;
            out["limit"] = limit_name(r.status, n.pathfinder().budget_limit());
            return out;
        }, py::arg("map"), py::arg("start"), py::arg("targets"), py::arg("movement") = 8, py::arg("diagonal") = "no-corner-cutting",
           py::arg("max_expansions") = py::none(), py::arg("time_limit") = 0.0, py::arg("max_memory") = 0,
           py::arg("areas") = nullptr, py::arg("filter") = nullptr, py::arg("layers") = py::none(),
           "dict: status, index (of the nearest usable target, None without one), cost, cells (start first, the target "
           "last), expanded, limit. Blocked, off-map and forbidden targets are skipped.");

    // ---- fog of war ----
    m.attr("AREA_UNKNOWN") = path::kAreaUnknown;
    py::class_<path::TeamKnowledge>(m, "TeamKnowledge",
        "What one team knows of a map, shared by all its units: every cell unknown, known free or known blocked "
        "(docs/pathfinding.md, \"Fog of war\").")
        .def(py::init([](const path::GridMap& truth) { return std::make_unique<path::TeamKnowledge>(truth); }), py::arg("truth"))
        .def("matches", &path::TeamKnowledge::matches, py::arg("map"))
        .def("reveal", [](path::TeamKnowledge& t, const path::GridMap& truth, std::pair<std::int32_t, std::int32_t> center,
                          std::int32_t radius, const path::AreaMap* areas) {
            if (!t.matches(truth)) throw py::value_error("the team's knowledge is of another map shape");
            if (radius < 0 || radius > path::kMaxSightRadius)
                throw py::value_error("radius must be in [0, " + std::to_string(path::kMaxSightRadius) + "]");
            if (areas != nullptr && !areas->matches(truth))
                throw py::value_error("areas: sized for a " + shape_text(*areas) + " map, not this " + shape_text(truth) + " one");
            return t.reveal(truth, point_of(center), radius, areas);
        }, py::arg("truth"), py::arg("center"), py::arg("radius"), py::arg("areas") = nullptr,
           "Marks every cell within Chebyshev distance radius of center as known; returns the cells newly known blocked.")
        .def("state", [](const path::TeamKnowledge& t, std::int32_t x, std::int32_t y) {
            switch (t.state({x, y})) {
                case path::CellKnowledge::Free: return "free";
                case path::CellKnowledge::Blocked: return "blocked";
                case path::CellKnowledge::Unknown: break;
            }
            return "unknown";
        }, py::arg("x"), py::arg("y"), "'unknown', 'free' or 'blocked' ('unknown' off the map).")
        .def_property_readonly("known_count", &path::TeamKnowledge::known_count)
        .def_property_readonly("memory_bytes", &path::TeamKnowledge::memory_bytes);
    py::class_<path::Explorer>(m, "Explorer",
        "Walks units of a team toward goals on a map they discover as they go, replanning at every wall they meet.")
        .def(py::init<>())
        .def("explore", [](path::Explorer& e, const path::GridMap& truth, path::TeamKnowledge& team, std::pair<std::int32_t, std::int32_t> start,
                           std::pair<std::int32_t, std::int32_t> goal, int movement, const std::string& diagonal, std::int32_t sight,
                           double unknown_multiplier, std::uint64_t max_steps, std::optional<std::uint64_t> max_expansions,
                           double time_limit, std::uint64_t max_memory, const path::AreaMap* areas, const path::AreaFilter* filter,
                           const py::object& layers) {
            const path::GridSearchOptions r = path_options(movement, diagonal, "auto", 1.0);
            path::ExploreOptions o;
            o.movement = r.movement;
            o.diagonal = r.diagonal;
            o.sight = sight;
            o.unknown_multiplier = unknown_multiplier;
            o.max_steps = max_steps;
            o.budget = budget_of(max_expansions, time_limit, max_memory);
            o.areas = areas;
            o.filter = filter;
            const std::vector<path::CostLayer> cost_layers = cost_layers_of(layers, truth);
            o.layers = cost_layers;
            path::ExploreResult out;
            Status st;
            {
                py::gil_scoped_release release;
                st = e.explore(truth, team, point_of(start), point_of(goal), o, out);
            }
            py::dict d;
            d["status"] = status_text(st);
            std::vector<std::pair<std::int32_t, std::int32_t>> cells;
            for (const path::GridPoint& c : out.path) cells.emplace_back(c.x, c.y);
            d["path"] = cells;
            d["travelled"] = out.travelled;
            d["steps"] = out.steps;
            d["replans"] = out.replans;
            d["expanded"] = out.expanded;
            // (a walk stopped by max_steps: "steps", as the CLI's explore says)
            d["limit"] = st == Status::BudgetExhausted && out.limit == search::BudgetLimit::None ? std::string("steps") : limit_name(st, out.limit);
            return d;
        }, py::arg("truth"), py::arg("team"), py::arg("start"), py::arg("goal"), py::arg("movement") = 8,
           py::arg("diagonal") = "no-corner-cutting", py::arg("sight") = 5, py::arg("unknown_multiplier") = 1.0,
           py::arg("max_steps") = 0, py::arg("max_expansions") = py::none(), py::arg("time_limit") = 0.0, py::arg("max_memory") = 0,
           py::arg("areas") = nullptr, py::arg("filter") = nullptr, py::arg("layers") = py::none(),
           "dict: status ('found' arrived, 'no_path' the team's knowledge proves the goal unreachable, 'budget_exhausted', "
           "'invalid_query'), path (every cell the unit stood on), travelled (its true cost), steps, replans, expanded, "
           "limit ('steps' when max_steps ended the walk). The team keeps what the walk revealed. sight in [1, 1024]; budgets bound the whole walk.");

    // ---- any-angle paths and smoothing ----
    py::class_<path::ThetaStar>(m, "ThetaStarPathfinder",
        "Theta*: any-angle paths on a grid (waypoints joined by straight lines of sight), never dearer than the grid "
        "optimum under the same costs, not guaranteed the shortest (docs/hierarchy.md, \"Theta*\"; Navmesh gives "
        "Euclidean-optimal ones).")
        .def(py::init<>())
        .def("find_path", [](path::ThetaStar& t, const path::GridMap& map, std::pair<std::int32_t, std::int32_t> start,
                                        std::pair<std::int32_t, std::int32_t> goal, int movement, const std::string& diagonal,
                                        std::optional<std::uint64_t> max_expansions, double time_limit, std::uint64_t max_memory,
                                        const PyIslands* islands, const path::AreaMap* areas, const path::AreaFilter* filter,
                                        const py::object& layers) {
            path::GridSearchOptions g = path_options(movement, diagonal, "auto", 1.0);
            std::vector<path::CostLayer> storage;
            apply_costs(map, g, areas, filter, layers, storage);
            g.budget = budget_of(max_expansions, time_limit, max_memory);
            g.islands = islands ? &islands->islands : nullptr;
            const path::ThetaStarOptions o = path::theta_star_options(g);
            return search_released(t, [&](path::GridPath& out) { return t.find_path(map, point_of(start), point_of(goal), o, out); });
        }, py::arg("map"), py::arg("start"), py::arg("goal"), py::arg("movement") = 8, py::arg("diagonal") = "no-corner-cutting",
           py::arg("max_expansions") = py::none(), py::arg("time_limit") = 0.0, py::arg("max_memory") = 0,
           py::arg("islands") = nullptr, py::arg("areas") = nullptr, py::arg("filter") = nullptr, py::arg("layers") = py::none(),
           "PathResult whose cells are the waypoints (start, turns, goal) and cost the cost of the straight links between them.");
    m.def("smooth_path", [](const path::GridMap& map, const std::vector<std::pair<std::int32_t, std::int32_t>>& cells,
                                       int movement, const std::string& diagonal, std::uint32_t lookahead, bool backward_pass,
                                       const path::AreaMap* areas, const path::AreaFilter* filter, const py::object& layers) {
        path::GridSearchOptions g = path_options(movement, diagonal, "auto", 1.0);
        std::vector<path::CostLayer> storage;
        apply_costs(map, g, areas, filter, layers, storage);
        path::GridPath p;
        for (const auto& c : cells) p.cells.push_back(point_of(c));
        // smooth_path's precondition: a legal path under these rules and costs
        for (std::size_t i = 1; i < p.cells.size(); ++i)
            if (!std::isfinite(path::query_step_cost(map, p.cells[i - 1], p.cells[i], g)))
                throw py::value_error("cells: the step from (" + std::to_string(p.cells[i - 1].x) + ", " + std::to_string(p.cells[i - 1].y) +
                                      ") to (" + std::to_string(p.cells[i].x) + ", " + std::to_string(p.cells[i].y) +
                                      ") is not a legal move under these rules");
        if (!p.cells.empty() && !map.passable(p.cells[0])) throw py::value_error("cells: the first cell is blocked or off the map");
        p.cost = path::query_path_cost(map, p.cells, g);
        path::SmoothingOptions o;
        o.movement = g.movement;
        o.diagonal = g.diagonal;
        o.lookahead = lookahead;
        o.backward_pass = backward_pass;
        path::smooth_path(map, p, o, g);
        PyPath out = py_path(Status::Found, p, 0, search::BudgetLimit::None);
        return out;
    }, py::arg("map"), py::arg("cells"), py::arg("movement") = 8, py::arg("diagonal") = "no-corner-cutting", py::arg("lookahead") = 4,
       py::arg("backward_pass") = true, py::arg("areas") = nullptr, py::arg("filter") = nullptr, py::arg("layers") = py::none(),
       "String pulling with straight grid segments: a legal grid path (ValueError otherwise) becomes one of the same or "
       "lower cost under the same rules and costs, still cell by cell. Returns a PathResult (status 'found').");

    py::class_<path::JpsPathfinder>(m, "JpsPathfinder", "Jump point search (8-connected, no corner cutting, uniform costs).")
        .def(py::init<>())
        .def("find_path", [](path::JpsPathfinder& f, const path::GridMap& map, std::pair<std::int32_t, std::int32_t> start,
                             std::pair<std::int32_t, std::int32_t> goal, std::optional<std::uint64_t> max_expansions,
                             double time_limit, std::uint64_t max_memory, const PyIslands* islands) {
            path::GridSearchOptions o;
            o.budget = budget_of(max_expansions, time_limit, max_memory);
            o.islands = islands ? &islands->islands : nullptr;
            const path::JpsSupport support = path::check_jps_support(map, o);
            if (support != path::JpsSupport::Ok) throw py::value_error("JPS: " + std::string(path::describe(support)));
            return search_released(f, [&](path::GridPath& out) { return f.find_path(map, point_of(start), point_of(goal), o, out); });
        }, py::arg("map"), py::arg("start"), py::arg("goal"), py::arg("max_expansions") = py::none(), py::arg("time_limit") = 0.0,
           py::arg("max_memory") = 0, py::arg("islands") = nullptr, "Budgets and islands as GridPathfinder.find_path.");

    // What a queued request points at (islands, areas, filter, layers), kept alive while it lives.
    struct PyQueueHeld {
        py::list objects;
        std::vector<path::CostLayer> layers;  // the request's options.layers
    };
    struct PyQueue {
        std::shared_ptr<path::GridMap> map;
        path::PathRequestQueue queue;
        std::unordered_map<std::uint32_t, std::unique_ptr<PyQueueHeld>> held;  // by slot
        PyQueue(std::shared_ptr<path::GridMap> m, const path::QueueOptions& options) : map(std::move(m)), queue(*map, options) {}
    };
    py::class_<PyQueue>(m, "PathRequestQueue", "Path requests served within a per-frame expansion budget.")
        .def(py::init([](std::shared_ptr<path::GridMap> map, std::uint32_t lanes, std::uint32_t aging_frames, bool revalidate_done,
                         bool restart_on_cost_change, bool restart_on_passability_change) {
            return std::make_unique<PyQueue>(std::move(map), path::QueueOptions{lanes, aging_frames, revalidate_done, restart_on_cost_change,
                                                                                restart_on_passability_change});
        }), py::arg("map").none(false), py::arg("lanes") = 1, py::arg("aging_frames") = 0, py::arg("revalidate_done") = true,
           py::arg("restart_on_cost_change") = false, py::arg("restart_on_passability_change") = true,
           "lanes: searches run at once; aging_frames: updates of waiting that count as one priority level (0: strict "
           "priorities); revalidate_done: re-check results not yet taken after a map change; restart_on_cost_change: "
           "restart running searches after terrain-cost changes too (by default they go on, reading the new costs); "
           "restart_on_passability_change: off, a running search goes on through cells opening and closing and runs "
           "again only if its path crosses a closed cell or it found none (for maps whose cells change every few updates).")
        .def("submit", [](PyQueue& q, std::pair<std::int32_t, std::int32_t> start, std::pair<std::int32_t, std::int32_t> goal,
                          std::int32_t priority, int movement, const std::string& diagonal,
                          std::optional<std::uint64_t> max_expansions, double time_limit, std::uint64_t max_memory,
                          const py::object& islands, const py::object& areas, const py::object& filter, const py::object& layers) {
            path::PathRequest r{point_of(start), point_of(goal), path_options(movement, diagonal, "auto", 1.0), priority};
            r.options.budget = budget_of(max_expansions, time_limit, max_memory);
            auto held = std::make_unique<PyQueueHeld>();
            if (!islands.is_none()) r.options.islands = &islands.cast<PyIslands&>().islands, held->objects.append(islands);
            if (!areas.is_none()) {
                const path::AreaMap& a = areas.cast<const path::AreaMap&>();
                if (!a.matches(*q.map))
                    throw py::value_error("areas: sized for a " + shape_text(a) + " map, not the queue's " + shape_text(*q.map) + " one");
                r.options.areas = &a;
                held->objects.append(areas);
            }
            if (!filter.is_none()) r.options.filter = &filter.cast<const path::AreaFilter&>(), held->objects.append(filter);
            held->layers = cost_layers_of(layers, *q.map, &held->objects);
            r.options.layers = held->layers;
            const path::PathHandle h = q.queue.submit(r);
            q.held[h.index] = std::move(held);
            return std::make_pair(h.index, h.generation);
        }, py::arg("start"), py::arg("goal"), py::arg("priority") = 0, py::arg("movement") = 8,
           py::arg("diagonal") = "no-corner-cutting", py::arg("max_expansions") = py::none(), py::arg("time_limit") = 0.0,
           py::arg("max_memory") = 0, py::arg("islands") = py::none(), py::arg("areas") = py::none(), py::arg("filter") = py::none(),
           py::arg("layers") = py::none(),
           "Budgets of this request as GridPathfinder.find_path (the time limit counts from the submission); "
           "islands: an Islands of the queue's map, which answer a request between islands no_path at once; areas, "
           "filter and layers as for GridPathfinder.find_path. The queue keeps them alive while the request lives.")
        .def("update", [](PyQueue& q, std::uint64_t budget) { return q.queue.update(budget).completed; }, py::arg("max_expansions"))
        .def("state", [](const PyQueue& q, std::pair<std::uint32_t, std::uint32_t> h) {
            static const char* const names[] = {"unknown", "pending", "running", "done"};
            return std::string(names[static_cast<int>(q.queue.state(handle_of(h)))]);
        })
        .def("take", [](PyQueue& q, std::pair<std::uint32_t, std::uint32_t> h) -> std::optional<PyPath> {
            path::PathResult r;
            if (!q.queue.take(handle_of(h), r)) return std::nullopt;
            q.held.erase(h.first);
            return py_path(r.status, r.path, r.expanded, r.limit);
        })
        .def("cancel", [](PyQueue& q, std::pair<std::uint32_t, std::uint32_t> h) {
            if (!q.queue.cancel(handle_of(h))) return false;
            q.held.erase(h.first);
            return true;
        })
        .def("__len__", [](const PyQueue& q) { return q.queue.size(); });

    // ---- HPA* ----
    struct PyHierarchy {
        std::shared_ptr<path::GridMap> map;
        path::HierarchicalMap hierarchy;
    };
    py::class_<PyHierarchy>(m, "HierarchicalMap", "The abstract graph of HPA* over a map (docs/hierarchy.md).")
        .def(py::init([](std::shared_ptr<path::GridMap> map, std::int32_t cluster_size, int movement, const std::string& diagonal) {
            if (cluster_size < path::kMinClusterSize || cluster_size > path::kMaxClusterSize)
                throw py::value_error("cluster_size must be in [1, 256]");
            auto h = std::make_unique<PyHierarchy>();
            h->map = std::move(map);
            path::HierarchyOptions o;
            o.cluster_size = cluster_size;
            const path::HierarchyBuild built = h->hierarchy.build(*h->map, path_options(movement, diagonal, "auto", 1.0), o);
            if (built != path::HierarchyBuild::Ok) throw py::value_error(std::string(path::describe(built)));
            return h;
        }), py::arg("map").none(false), py::arg("cluster_size") = 64, py::arg("movement") = 8, py::arg("diagonal") = "no-corner-cutting")
        .def("update_cell", [](PyHierarchy& h, std::int32_t x, std::int32_t y) {
            if (!h.map->contains({x, y})) throw py::value_error("the cell is outside the map");
            return h.hierarchy.update_cell(*h.map, {x, y});
        }, "Call after changing a cell of the map (passability or cost).")
        .def_property_readonly("cluster_count", [](const PyHierarchy& h) { return h.hierarchy.cluster_count(); })
        .def_property_readonly("node_count", [](const PyHierarchy& h) { return h.hierarchy.node_count(); });
    py::class_<path::HpaPathfinder>(m, "HpaPathfinder", "HPA* queries (near-optimal; a reusable context).")
        .def(py::init<>())
        .def("find_path", [](path::HpaPathfinder& f, const PyHierarchy& h, std::pair<std::int32_t, std::int32_t> start,
                             std::pair<std::int32_t, std::int32_t> goal, bool refine, bool smooth, std::optional<std::uint64_t> max_expansions,
                             double time_limit, std::uint64_t max_memory) {
            path::HpaQueryOptions q;
            q.movement = h.hierarchy.movement();
            q.diagonal = h.hierarchy.diagonal();
            q.refine = refine;
            q.smooth = smooth;
            q.budget = budget_of(max_expansions, time_limit, max_memory);
            return search_released(f, [&](path::GridPath& out) { return f.find_path(h.hierarchy, point_of(start), point_of(goal), q, out); });
        }, py::arg("hierarchy"), py::arg("start"), py::arg("goal"), py::arg("refine") = true, py::arg("smooth") = false,
           py::arg("max_expansions") = py::none(), py::arg("time_limit") = 0.0, py::arg("max_memory") = 0,
           "Budgets as GridPathfinder.find_path (the expansions are the abstract search's).");

    // ---- hex grids ----
    py::class_<path::HexPathfinder>(m, "HexPathfinder",
                                    "A* / Dijkstra on a grid map read as a hex map (odd-r rows, six neighbours; docs/graphs.md).")
        .def(py::init<>())
        .def("find_path", [](path::HexPathfinder& f, const path::GridMap& map, std::pair<std::int32_t, std::int32_t> start,
                             std::pair<std::int32_t, std::int32_t> goal, const std::string& heuristic, double weight,
                             std::optional<std::uint64_t> max_expansions, double time_limit, std::uint64_t max_memory,
                             const PyHexIslands* islands) {
            path::HexSearchOptions o;
            o.islands = islands ? &islands->islands : nullptr;
            if (heuristic != "auto" && heuristic != "zero") throw py::value_error("heuristic must be 'auto' or 'zero'");
            o.heuristic = heuristic == "zero" ? path::HexHeuristic::Zero : path::HexHeuristic::Auto;
            if (!(weight >= 1.0) || !std::isfinite(weight)) throw py::value_error("weight must be a finite number >= 1");
            o.weight = weight;
            o.budget = budget_of(max_expansions, time_limit, max_memory);
            return search_released(f, [&](path::GridPath& out) { return f.find_path(map, point_of(start), point_of(goal), o, out); });
        }, py::arg("map"), py::arg("start"), py::arg("goal"), py::arg("heuristic") = "auto", py::arg("weight") = 1.0,
           py::arg("max_expansions") = py::none(), py::arg("time_limit") = 0.0, py::arg("max_memory") = 0,
           py::arg("islands") = nullptr,
           "heuristic 'zero' is Dijkstra. Budgets as GridPathfinder.find_path; islands: a HexIslands of this map.");

    // ---- graphs ----
    py::class_<path::Graph, std::shared_ptr<path::Graph>>(m, "Graph", "A weighted directed graph with optional positions (docs/graphs.md).")
        .def_property_readonly("node_count", &path::Graph::node_count)
        .def_property_readonly("arc_count", &path::Graph::arc_count)
        .def_property_readonly("has_positions", &path::Graph::has_positions)
        .def("node_id", [](const path::Graph& g, std::uint32_t node) {
            if (!g.contains(node)) throw py::index_error("no node " + std::to_string(node));
            return g.id(node);
        })
        .def("find", [](const path::Graph& g, const std::string& id) -> std::optional<std::uint32_t> {
            const path::GraphNode n = g.find(id);
            if (!g.contains(n)) return std::nullopt;
            return n;
        }, "The index of the node with this id, or None.")
        .def("position", [](const path::Graph& g, std::uint32_t node) -> std::optional<std::pair<double, double>> {
            if (!g.contains(node)) throw py::index_error("no node " + std::to_string(node));
            if (!g.has_positions()) return std::nullopt;
            return std::pair{g.position(node).x, g.position(node).y};
        }, py::arg("node"), "The node's (x, y), or None when the graph has no positions.")
        .def("arcs", [](const path::Graph& g, std::uint32_t node) {
            if (!g.contains(node)) throw py::index_error("no node " + std::to_string(node));
            std::vector<std::pair<std::uint32_t, double>> out;
            for (const path::GraphArc& a : g.arcs(node)) out.emplace_back(a.to, a.cost);
            return out;
        }, py::arg("node"), "The arcs leaving the node: (node index, cost) pairs in the order they were added.")
        .def("to_json", [](const path::Graph& g) { return io::write_graph_json(g); },
             "Graph JSON (nodes with positions, edges; undirected twins written once); load_graph reads it back.")
        .def("to_csv", [](const path::Graph& g) { return io::write_graph_csv(g); },
             "A CSV edge list (from,to,cost,undirected): the arcs only (no positions, no nodes without arcs).")
        .def("save", [](const path::Graph& g, const std::string& file) { io::save_graph(file, g); }, py::arg("path"),
             "Writes the graph: a CSV edge list when the name ends in .csv, JSON otherwise.");
    py::class_<path::WaypointGraph, std::shared_ptr<path::WaypointGraph>>(
        m, "WaypointGraph", "A map's waypoint graph (build_waypoint_graph): the graph, each node's cell, the rule it was built with.")
        .def_property_readonly("graph", [](const std::shared_ptr<path::WaypointGraph>& w) {
            return std::shared_ptr<path::Graph>(w, &w->graph);  // keeps the waypoint graph alive
        }, "The Graph: ids 'x,y', positions at the cell centres, undirected edges costing their length.")
        .def_property_readonly("cells", [](const path::WaypointGraph& w) {
            std::vector<std::pair<std::int32_t, std::int32_t>> cells;
            for (const path::GridPoint p : w.cells) cells.emplace_back(p.x, p.y);
            return cells;
        }, "cells[n] is node n's cell (the given waypoints first).")
        .def_property_readonly("node_count", [](const path::WaypointGraph& w) { return w.graph.node_count(); })
        .def("node_at", [](const path::WaypointGraph& w, std::pair<std::int32_t, std::int32_t> cell) -> std::optional<std::uint32_t> {
            const path::GraphNode n = w.node_at(point_of(cell));
            if (n == path::kNoGraphNode) return std::nullopt;
            return n;
        }, py::arg("cell"), "The node of this cell, or None when it is no waypoint.");
    m.def("build_waypoint_graph", [](const path::GridMap& map, const std::vector<std::pair<std::int32_t, std::int32_t>>& waypoints,
                                     bool corners, std::optional<double> max_distance, int movement, const std::string& diagonal,
                                     std::optional<std::uint64_t> max_pairs, double time_limit, std::uint64_t max_memory) {
        const path::GridSearchOptions rules = path_options(movement, diagonal, "auto", 1.0);
        path::WaypointOptions o;
        o.corners = corners;
        o.movement = rules.movement;
        o.diagonal = rules.diagonal;
        if (max_distance) {
            if (!(*max_distance > 0)) throw py::value_error("max_distance must be a number > 0 (None: any distance)");
            o.max_distance = *max_distance;
        }
        o.budget = budget_of(max_pairs, time_limit, max_memory);
        if (map.empty()) throw py::value_error("waypoint graph: the map is empty");
        if (map.has_terrain_costs())
            throw py::value_error("waypoint graph: the map has terrain costs (line-of-sight lengths are defined on uniform maps)");
        std::vector<path::GridPoint> given;
        for (const auto& c : waypoints) {
            const path::GridPoint p = point_of(c);
            if (!map.contains(p.x, p.y))
                throw py::value_error("waypoints: (" + std::to_string(p.x) + ", " + std::to_string(p.y) + ") is outside the " + shape_text(map) + " map");
            if (!map.passable(p)) throw py::value_error("waypoints: (" + std::to_string(p.x) + ", " + std::to_string(p.y) + ") is a blocked cell");
            given.push_back(p);
        }
        auto wg = std::make_shared<path::WaypointGraph>();
        Status status;
        {
            py::gil_scoped_release release;
            status = path::build_waypoint_graph(map, given, o, *wg);
        }
        if (status == Status::BudgetExhausted)
            throw py::value_error("waypoint graph: the build ran out of its " +
                                  std::string(wg->limit == search::BudgetLimit::Expansions ? "max_pairs"
                                              : wg->limit == search::BudgetLimit::Time     ? "time_limit"
                                                                                           : "max_memory") +
                                  " budget (use max_distance or fewer waypoints)");
        if (status != Status::Found)
            throw py::value_error("waypoint graph: more than " + std::to_string(path::kMaxWaypoints) +
                                  " waypoints (every pair is checked): pass corners=False with your own waypoints");
        return wg;
    }, py::arg("map"), py::arg("waypoints") = std::vector<std::pair<std::int32_t, std::int32_t>>{}, py::arg("corners") = true,
       py::arg("max_distance") = py::none(), py::arg("movement") = 8, py::arg("diagonal") = "no-corner-cutting",
       py::arg("max_pairs") = py::none(), py::arg("time_limit") = 0.0, py::arg("max_memory") = 0,
       "The map's waypoint graph (docs/graphs.md): the given cells, then (corners=True) every convex obstacle corner, joined "
       "where the segment between their centres has line of sight and they are at most max_distance apart. Returns a "
       "WaypointGraph (graph, cells). max_pairs (pairs checked), time_limit (s) and max_memory (bytes) bound the build; "
       "running out raises ValueError.");
    py::class_<path::WaypointPathfinder>(m, "WaypointPathfinder",
                                         "Paths between any two free cells over a WaypointGraph, without rebuilding it (a reusable context).")
        .def(py::init<>())
        .def("find_path", [](path::WaypointPathfinder& f, std::shared_ptr<path::WaypointGraph> graph, const path::GridMap& map,
                             std::pair<std::int32_t, std::int32_t> start, std::pair<std::int32_t, std::int32_t> goal,
                             const std::string& algorithm, std::optional<std::uint64_t> max_expansions, double time_limit,
                             std::uint64_t max_memory) {
            if (algorithm != "astar" && algorithm != "dijkstra") throw py::value_error("algorithm must be 'astar' or 'dijkstra'");
            path::GraphSearchOptions o;
            if (algorithm == "dijkstra") o.heuristic = path::GraphHeuristic::Zero;
            o.budget = budget_of(max_expansions, time_limit, max_memory);
            return search_released(f, [&](path::GridPath& out) { return f.find_path(*graph, map, point_of(start), point_of(goal), o, out); });
        }, py::arg("graph").none(false), py::arg("map"), py::arg("start"), py::arg("goal"), py::arg("algorithm") = "astar",
           py::arg("max_expansions") = py::none(), py::arg("time_limit") = 0.0, py::arg("max_memory") = 0,
           "PathResult whose cells are the start, the waypoints turned at and the goal, cost the Euclidean length; the ends "
           "are joined to the waypoints they see by the graph's own rule. `map` is the map the graph was built from "
           "(status 'invalid_query' for one it does not fit).")
        .def_property_readonly("start_links", &path::WaypointPathfinder::start_links, "Waypoints the last query's start saw.")
        .def_property_readonly("goal_links", &path::WaypointPathfinder::goal_links, "Waypoints that saw the last query's goal.");
    m.def("load_graph", [](const std::string& p) { return std::make_shared<path::Graph>(io::load_graph(p)); }, py::arg("path"),
          "Loads a graph file: JSON ({\"nodes\": [{\"id\", \"x\", \"y\"}], \"edges\": [{\"from\", \"to\", \"cost\"}]}) or a CSV "
          "edge list (by its extension).");
    m.def("graph_from_edges", [](const std::vector<std::tuple<std::string, std::string, double>>& edges, bool undirected,
                                 const std::map<std::string, std::pair<double, double>>& positions) {
        path::GraphBuilder b;
        path::GraphError error = path::GraphError::None;
        const auto node = [&](const std::string& id) {
            const path::GraphNode n = b.find(id);
            if (n != path::kNoGraphNode) return n;
            const auto at = positions.find(id);
            const path::GraphNode added = at == positions.end() ? b.add_node(id, &error)
                                                                : b.add_node(id, at->second.first, at->second.second, &error);
            if (error != path::GraphError::None) throw py::value_error("node '" + id + "': " + std::string(path::describe(error)));
            return added;
        };
        for (const auto& [id, xy] : positions) (void)node(id);
        for (const auto& [from, to, cost] : edges) {
            const path::GraphError e = b.add_edge(node(from), node(to), cost, undirected);
            if (e != path::GraphError::None)
                throw py::value_error("edge " + from + " -> " + to + ": " + std::string(path::describe(e)));
        }
        return std::make_shared<path::Graph>(b.build());
    }, py::arg("edges"), py::arg("undirected") = false, py::arg("positions") = std::map<std::string, std::pair<double, double>>{},
       "A graph from (from, to, cost) triples; `positions` maps ids to (x, y) for the distance heuristic (all nodes or none).");

    py::class_<PyGraphPath>(m, "GraphPathResult")
        .def_readonly("status", &PyGraphPath::status)
        .def_readonly("cost", &PyGraphPath::cost)
        .def_readonly("nodes", &PyGraphPath::nodes, "The node ids from start to goal")
        .def_readonly("expanded", &PyGraphPath::expanded)
        .def_readonly("limit", &PyGraphPath::limit)
        .def("__repr__", [](const PyGraphPath& p) { return "<GraphPathResult " + p.status + " cost " + std::to_string(p.cost) + ">"; });
    py::class_<path::GraphPathfinder>(m, "GraphPathfinder", "A* / Dijkstra on a Graph (a reusable context).")
        .def(py::init<>())
        .def("find_path", [](path::GraphPathfinder& f, const path::Graph& g, const std::string& start, const std::string& goal,
                             const std::string& algorithm, std::optional<std::uint64_t> max_expansions, double time_limit,
                             std::uint64_t max_memory) {
            const std::vector<path::GraphNode> from = graph_nodes(g, {start}), to = graph_nodes(g, {goal});
            return graph_query(f, g, from, to, algorithm, budget_of(max_expansions, time_limit, max_memory));
        }, py::arg("graph"), py::arg("start"), py::arg("goal"), py::arg("algorithm") = "astar",
           py::arg("max_expansions") = py::none(), py::arg("time_limit") = 0.0, py::arg("max_memory") = 0,
           "start and goal are node ids. Budgets as GridPathfinder.find_path.")
        .def("find_nearest", [](path::GraphPathfinder& f, const path::Graph& g, const std::vector<std::string>& sources,
                                const std::vector<std::string>& goals, const std::string& algorithm,
                                std::optional<std::uint64_t> max_expansions, double time_limit, std::uint64_t max_memory) {
            if (sources.empty() || goals.empty()) throw py::value_error("sources and goals must hold at least one node id each");
            const std::vector<path::GraphNode> from = graph_nodes(g, sources), to = graph_nodes(g, goals);
            return graph_query(f, g, from, to, algorithm, budget_of(max_expansions, time_limit, max_memory));
        }, py::arg("graph"), py::arg("sources"), py::arg("goals"), py::arg("algorithm") = "astar",
           py::arg("max_expansions") = py::none(), py::arg("time_limit") = 0.0, py::arg("max_memory") = 0,
           "The cheapest path from any of `sources` to the nearest of `goals` (node ids); it starts at the source it "
           "leaves from and ends at the goal reached.")
        .def("distance_field", [](path::GraphPathfinder& f, const path::Graph& g, const std::vector<std::string>& sources,
                                  std::optional<std::uint64_t> max_expansions, double time_limit, std::uint64_t max_memory) {
            if (sources.empty()) throw py::value_error("sources must hold at least one node id");
            const std::vector<path::GraphNode> from = graph_nodes(g, sources);
            const search::Budget budget = budget_of(max_expansions, time_limit, max_memory);
            std::vector<double> distances;
            Status s;
            {
                py::gil_scoped_release release;
                s = path::distance_field(g, from, f, distances, budget);
            }
            if (s == Status::BudgetExhausted)
                throw py::value_error("distance_field: the flood used up its budget (" + limit_name(s, f.budget_limit()) + ")");
            std::map<std::string, double> out;
            for (std::size_t n = 0; n < distances.size(); ++n) out.emplace(g.id(static_cast<path::GraphNode>(n)), distances[n]);
            return out;
        }, py::arg("graph"), py::arg("sources"), py::arg("max_expansions") = py::none(), py::arg("time_limit") = 0.0,
           py::arg("max_memory") = 0,
           "Exact distances from the nearest of `sources` to every node, as {id: distance} (inf where unreachable). "
           "A budget that runs out raises ValueError naming it.");

    // ---- navigation meshes ----
    struct PyNavmesh {
        path::Navmesh mesh;
    };
    py::class_<PyNavmesh, std::shared_ptr<PyNavmesh>>(m, "Navmesh",
                                                       "A map's free space as convex polygons, for Euclidean-optimal any-angle paths "
                                                       "(docs/navmesh.md). Point (x, y) is in grid units: cell (x, y) is the square "
                                                       "[x, x+1] x [y, y+1], its centre (x + 0.5, y + 0.5).")
        .def(py::init([](const path::GridMap& map) {
            if (map.has_terrain_costs())
                throw py::value_error("the map has terrain costs (any-angle lengths are defined on uniform maps)");
            auto n = std::make_shared<PyNavmesh>();
            if (n->mesh.build(map) != path::NavmeshBuild::Ok) throw py::value_error("the map is empty");
            return n;
        }), py::arg("map"))
        .def_property_readonly("polygon_count", [](const PyNavmesh& n) { return n.mesh.polygon_count(); })
        .def_property_readonly("vertex_count", [](const PyNavmesh& n) { return n.mesh.vertices().size(); })
        .def_property_readonly("memory_bytes", [](const PyNavmesh& n) { return n.mesh.memory_bytes(); });

    py::class_<PyNavPath>(m, "NavmeshPathResult")
        .def_readonly("status", &PyNavPath::status)
        .def_readonly("cost", &PyNavPath::cost, "The Euclidean length")
        .def_readonly("points", &PyNavPath::points, "The start, every turning point (an obstacle corner) and the goal")
        .def_readonly("expanded", &PyNavPath::expanded)
        .def_readonly("limit", &PyNavPath::limit)
        .def("__repr__", [](const PyNavPath& p) { return "<NavmeshPathResult " + p.status + " cost " + std::to_string(p.cost) + ">"; });
    py::class_<path::NavmeshPathfinder>(m, "NavmeshPathfinder", "Euclidean-optimal any-angle paths on a Navmesh (a reusable context).")
        .def(py::init<>())
        .def("find_path", [](path::NavmeshPathfinder& f, const PyNavmesh& n, std::pair<double, double> start,
                             std::pair<double, double> goal, std::optional<std::uint64_t> max_expansions, double time_limit,
                             std::uint64_t max_memory) {
            return navmesh_query(f, n.mesh, start, goal, budget_of(max_expansions, time_limit, max_memory));
        }, py::arg("mesh"), py::arg("start"), py::arg("goal"), py::arg("max_expansions") = py::none(), py::arg("time_limit") = 0.0,
           py::arg("max_memory") = 0,
           "start and goal are points (x, y); a point in a blocked cell or off the mesh is an invalid_query. Budgets as "
           "GridPathfinder.find_path.");

    struct PyNavHierarchy {
        std::shared_ptr<PyNavmesh> mesh;  // the hierarchy reads it at every query
        path::NavmeshHierarchy hierarchy;
    };
    py::class_<PyNavHierarchy, std::shared_ptr<PyNavHierarchy>>(m, "NavmeshHierarchy",
                                                                 "A preprocessed Navmesh: the same paths, faster queries "
                                                                 "(docs/navmesh.md).")
        .def(py::init([](std::shared_ptr<PyNavmesh> mesh, double time_limit, std::uint64_t max_memory) {
            const auto deadline = deadline_in(time_limit);
            auto h = std::make_shared<PyNavHierarchy>();
            h->mesh = std::move(mesh);
            path::JpsSupport built;
            {
                py::gil_scoped_release release;
                built = h->hierarchy.build(h->mesh->mesh, max_memory > 0 ? static_cast<std::size_t>(max_memory) : SIZE_MAX, deadline);
            }
            if (built != path::JpsSupport::Ok) throw py::value_error("navmesh hierarchy: " + std::string(path::describe(built)));
            return h;
        }), py::arg("mesh").none(false), py::arg("time_limit") = 0.0, py::arg("max_memory") = 0,
           "Builds the hierarchy (time_limit in seconds and max_memory in bytes bound the build; 0 = none).")
        .def_property_readonly("node_count", [](const PyNavHierarchy& h) { return h.hierarchy.node_count(); })
        .def_property_readonly("memory_bytes", [](const PyNavHierarchy& h) { return h.hierarchy.memory_bytes(); })
        .def_property_readonly("build_ms", [](const PyNavHierarchy& h) { return h.hierarchy.build_ms(); });
    py::class_<path::NavmeshHierarchyPathfinder>(m, "NavmeshHierarchyPathfinder",
                                                 "Queries on a NavmeshHierarchy: NavmeshPathfinder's paths (a reusable context).")
        .def(py::init<>())
        .def("find_path", [](path::NavmeshHierarchyPathfinder& f, const PyNavHierarchy& h, std::pair<double, double> start,
                             std::pair<double, double> goal, std::optional<std::uint64_t> max_expansions, double time_limit,
                             std::uint64_t max_memory) {
            return navmesh_query(f, h.hierarchy, start, goal, budget_of(max_expansions, time_limit, max_memory));
        }, py::arg("hierarchy"), py::arg("start"), py::arg("goal"), py::arg("max_expansions") = py::none(),
           py::arg("time_limit") = 0.0, py::arg("max_memory") = 0, "As NavmeshPathfinder.find_path.");

    // ---- crowds ----
    py::class_<path::CrowdSolver>(m, "CrowdSolver", "Collision-free paths for many agents at once (docs/crowds.md).")
        .def(py::init<>())
        .def("solve", [](path::CrowdSolver& c, const path::GridMap& map, const std::vector<std::pair<std::int32_t, std::int32_t>>& starts,
                         const std::vector<std::pair<std::int32_t, std::int32_t>>& goals, std::optional<std::uint64_t> max_expansions,
                         double time_limit, bool anytime, std::uint64_t seed, std::uint64_t max_memory) {
            if (starts.size() != goals.size()) throw py::value_error("starts and goals differ in length");
            if (anytime && time_limit == 0 && !max_expansions)
                throw py::value_error("anytime needs a time_limit or max_expansions to end the improvement");
            std::vector<path::GridPoint> s, g;
            for (const auto& p : starts) s.push_back(point_of(p));
            for (const auto& p : goals) g.push_back(point_of(p));
            path::CrowdOptions o;
            o.budget = budget_of(max_expansions, time_limit, max_memory);
            o.anytime = anytime;
            o.seed = seed;
            path::CrowdSolution sol;
            Status st;
            {
                py::gil_scoped_release release;
                st = c.solve(map, s, g, o, sol);
            }
            py::dict out;
            out["status"] = status_text(st);
            py::list paths;
            if (st == Status::Found) {
                for (std::uint32_t a = 0; a < sol.agents; ++a) {
                    std::vector<std::pair<std::int32_t, std::int32_t>> p;
                    for (std::uint32_t t = 0; t <= sol.makespan; ++t) p.emplace_back(sol.at(a, t).x, sol.at(a, t).y);
                    paths.append(py::cast(p));
                }
            }
            out["paths"] = paths;
            out["costs"] = st == Status::Found ? sol.costs : std::vector<std::uint32_t>{};
            out["makespan"] = st == Status::Found ? sol.makespan : 0;
            out["sum_of_costs"] = st == Status::Found ? sol.sum_of_costs : 0;
            out["lower_bound"] = st == Status::InvalidQuery ? 0 : c.lower_bound();
            if (c.unreachable_agent() != UINT32_MAX) out["unreachable_agent"] = c.unreachable_agent();
            else out["unreachable_agent"] = py::none();
            out["expanded"] = c.stats().search.expanded;
            out["limit"] = limit_name(st, c.budget_limit());
            return out;
        }, py::arg("map"), py::arg("starts"), py::arg("goals"), py::arg("max_expansions") = py::none(),
           py::arg("time_limit") = 0.0, py::arg("anytime") = false, py::arg("seed") = 0, py::arg("max_memory") = 0,
           "paths[i] holds agent i's cell at every step 0 .. makespan (4-connected moves or waits; no two agents "
           "on one cell, no swaps). max_memory: bytes of distance tables and stored configurations (0: the "
           "library's 2 GiB); `limit` names the budget that ran out (empty unless budget_exhausted); "
           "`unreachable_agent` the agent whose goal lies in another part of the map than its start (no_path; else None).");

    // ---- the movement layer ----
    struct PyMovement {
        std::shared_ptr<path::GridMap> map;
        std::unique_ptr<path::MovementSystem> system;
        py::object islands;  // keeps the Islands alive while the system uses them
        py::list layer_objects;  // keeps the layers alive while the system reads them
        std::vector<path::CostLayer> layers;  // what MovementOptions::layers points at
    };
    py::class_<PyMovement>(m, "MovementSystem", "Units walking one map (docs/movement.md).")
        .def(py::init([](std::shared_ptr<path::GridMap> map, int movement, const std::string& diagonal, std::uint64_t path_budget,
                         std::uint32_t give_up_ticks, const std::string& resolver, py::object islands, std::uint32_t lanes,
                         double path_weight, bool smooth, std::uint64_t search_budget, std::uint32_t claim_cells, float claim_penalty,
                         float still_penalty, double claim_weight, std::uint32_t detour_after, std::uint32_t still_limit,
                         bool restart_on_passability_change, const py::object& layers) {
            path::MovementOptions o;
            const path::GridSearchOptions r = path_options(movement, diagonal, "auto", 1.0);
            o.movement = r.movement;
            o.diagonal = r.diagonal;
            o.path_budget = path_budget;
            o.give_up_ticks = give_up_ticks;
            o.lanes = lanes;
            o.path_weight = path_weight;
            o.smooth = smooth;
            o.search_budget = search_budget;
            o.claim_cells = claim_cells;
            o.claim_penalty = claim_penalty;
            o.still_penalty = still_penalty;
            o.claim_weight = claim_weight;
            o.detour_after = detour_after;
            o.still_limit = still_limit;
            o.restart_on_passability_change = restart_on_passability_change;
            if (resolver != "builtin" && resolver != "crowd") throw py::value_error("resolver must be 'builtin' or 'crowd'");
            o.resolver = resolver == "crowd" ? path::StepResolver::Crowd : path::StepResolver::Builtin;
            if (!islands.is_none()) o.islands = &islands.cast<PyIslands&>().islands;
            auto p = std::make_unique<PyMovement>();
            p->layers = cost_layers_of(layers, *map, &p->layer_objects);
            o.layers = p->layers;
            p->map = std::move(map);
            p->islands = std::move(islands);
            p->system = std::make_unique<path::MovementSystem>(*p->map, o);
            return p;
        }), py::arg("map").none(false), py::arg("movement") = 8, py::arg("diagonal") = "no-corner-cutting", py::arg("path_budget") = 60000,
           py::arg("give_up_ticks") = 0, py::arg("resolver") = "builtin", py::arg("islands") = py::none(), py::arg("lanes") = 4,
           py::arg("path_weight") = 1.0, py::arg("smooth") = true, py::arg("search_budget") = 0, py::arg("claim_cells") = 8,
           py::arg("claim_penalty") = 2.0f, py::arg("still_penalty") = 4.0f, py::arg("claim_weight") = 1.0,
           py::arg("detour_after") = 8, py::arg("still_limit") = 100, py::arg("restart_on_passability_change") = true,
           py::arg("layers") = py::none(),
           "islands: an Islands of the map; a destination on another island than the unit fails with no_path at once. "
           "layers: [(PenaltyLayer or InfluenceMap, weight), ...] that every path search carries (units route around "
           "danger; read live, kept alive by the system; do not change them from another thread during update). "
           "The other options are MovementOptions' (docs/movement.md): lanes (at most 1024), path_weight (>= 1), smooth, "
           "search_budget (expansions one request may spend, 0 = unlimited), claim_cells, claim_penalty, still_penalty, "
           "claim_weight, detour_after, still_limit, restart_on_passability_change. Bad values raise ValueError.")
        .def("add_unit", [](PyMovement& p, std::pair<std::int32_t, std::int32_t> cell) {
            const path::UnitId id = p.system->add_unit(point_of(cell));
            if (id == path::kNoUnit) throw py::value_error("the cell is off the map, blocked or taken by another unit");
            return id;
        })
        .def("remove_unit", [](PyMovement& p, path::UnitId u) { return p.system->remove_unit(u); })
        .def("move_to", [](PyMovement& p, path::UnitId u, std::pair<std::int32_t, std::int32_t> cell, std::int32_t radius,
                           std::optional<std::pair<std::int32_t, std::int32_t>> centre) {
            return p.system->move_to(u, path::Destination{point_of(cell), point_of(centre.value_or(cell)), radius});
        }, py::arg("unit"), py::arg("cell"), py::arg("radius") = 0, py::arg("centre") = py::none(),
           "False (and the unit fails with invalid_goal) for a blocked or outside cell; False for an unknown unit.")
        .def("stop", [](PyMovement& p, path::UnitId u) { return p.system->stop(u); })
        .def("set_anchored", [](PyMovement& p, path::UnitId u, bool a) { return p.system->set_anchored(u, a); })
        .def("update", [](PyMovement& p, std::uint32_t ticks) {
            py::gil_scoped_release release;
            for (std::uint32_t t = 0; t < ticks; ++t) p.system->update();
        }, py::arg("ticks") = 1, "Runs `ticks` updates.")
        .def("position", [](const PyMovement& p, path::UnitId u) {
            const path::GridPoint q = p.system->position(u);
            return std::make_pair(q.x, q.y);
        })
        .def("status", [](const PyMovement& p, path::UnitId u) { return std::string(path::to_string(p.system->status(u))); })
        .def("failure", [](const PyMovement& p, path::UnitId u) { return std::string(path::to_string(p.system->failure(u))); })
        .def("route", [](const PyMovement& p, path::UnitId u) {
            std::vector<std::pair<std::int32_t, std::int32_t>> out;
            for (const path::GridPoint& q : p.system->remaining_route(u)) out.emplace_back(q.x, q.y);
            return out;
        }, "The cells still to enter, next first.")
        .def_property_readonly("positions", [](const PyMovement& p) {
            py::dict out;
            for (path::UnitId u = 0; u < p.system->id_bound(); ++u) {
                const path::GridPoint q = p.system->position(u);
                if (q.x >= 0) out[py::int_(u)] = py::make_tuple(q.x, q.y);
            }
            return out;
        }, "{unit: (x, y)} for every live unit.")
        .def_property_readonly("unit_count", [](const PyMovement& p) { return p.system->unit_count(); })
        .def_property_readonly("stats", [](const PyMovement& p) {
            const path::MovementStats& s = p.system->stats();
            py::dict out;
            out["ticks"] = s.ticks, out["steps"] = s.steps, out["waits"] = s.waits, out["detours"] = s.detours;
            out["pushes"] = s.pushes, out["path_requests"] = s.path_requests, out["paths"] = s.paths;
            out["arrivals"] = s.arrivals, out["failures"] = s.failures, out["jams"] = s.jams;
            return out;
        });

    // ---- MovingAI scenarios ----
    py::class_<io::Scenario>(m, "Scenario", "One line of a MovingAI .scen file (movingai.com).")
        .def_readonly("bucket", &io::Scenario::bucket)
        .def_readonly("map", &io::Scenario::map)
        .def_property_readonly("start", [](const io::Scenario& s) { return std::make_pair(s.start.x, s.start.y); })
        .def_property_readonly("goal", [](const io::Scenario& s) { return std::make_pair(s.goal.x, s.goal.y); })
        .def_readonly("optimal", &io::Scenario::optimal)
        .def_readonly("tolerance", &io::Scenario::tolerance)
        .def_readonly("line", &io::Scenario::line);
    m.def("load_scenarios", [](const std::string& p) { return io::load_movingai_scenarios(p).scenarios; }, py::arg("path"),
          "The scenarios of a MovingAI .scen file, in file order.");
    m.def("matches_optimal", &io::matches_optimal, py::arg("scenario"), py::arg("cost"),
          "True when `cost` equals the scenario's optimal length to the digits printed in the file.");
    m.def("check_scenarios_fit", [](const std::vector<io::Scenario>& scenarios, const path::GridMap& map, const std::string& name) {
        io::ScenarioFile f;
        f.file = name;
        f.scenarios = scenarios;
        io::check_scenarios_fit(f, map, name);
    }, py::arg("scenarios"), py::arg("map"), py::arg("map_name"),
       "Raises LoadError when a scenario was made for another map size or has an end outside the map.");

    // ---- the CLI's --json objects ----
    m.def("plan_file", &plan_file, py::arg("path"), py::arg("goal") = py::none(), py::arg("direction") = "by-size",
          "What `gameplan plan PATH [--goal G] [--direction D] --json` prints, as a dict (direction 'forward', "
          "'backward' or 'auto').");
    m.def("path_file", &path_file, py::arg("map_path"), py::arg("start"), py::arg("goal"), py::arg("algorithm") = "astar",
          py::arg("cluster_size") = 64, py::arg("topology") = "square",
          "What `gameplan path MAP --from X,Y --to X,Y --algorithm A [--cluster-size N] [--topology T] --json` prints, as a "
          "dict (algorithms astar, dijkstra, jps, jps-plus, subgoal, hpa, theta, navmesh, navmesh-ch; topology square, or hex "
          "with astar and dijkstra).");
}
