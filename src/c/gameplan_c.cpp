// The C API (include/gameplan/c/gameplan.h) over the C++ library. Every entry point catches every
// exception and turns it into a gameplan_error plus a per-thread message.
#include <gameplan/c/gameplan.h>

#include <gameplan/config.hpp>
#include <gameplan/goap/agent.hpp>
#include <gameplan/goap/auto_direction.hpp>
#include <gameplan/goap/agent_batch.hpp>
#include <gameplan/goap/behaviour.hpp>
#include <gameplan/goap/domain.hpp>
#include <gameplan/goap/planner.hpp>
#include <gameplan/io/domain_file.hpp>
#include <gameplan/io/graph_io.hpp>
#include <gameplan/io/load_error.hpp>
#include <gameplan/io/movingai.hpp>
#include <gameplan/path/crowd.hpp>
#include <gameplan/path/distance_field.hpp>
#include <gameplan/path/fog.hpp>
#include <gameplan/path/graph.hpp>
#include <gameplan/path/graph_search.hpp>
#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/grid_search.hpp>
#include <gameplan/path/hex_grid.hpp>
#include <gameplan/path/hpa.hpp>
#include <gameplan/path/influence.hpp>
#include <gameplan/path/islands.hpp>
#include <gameplan/path/jps.hpp>
#include <gameplan/path/movement.hpp>
#include <gameplan/path/navmesh.hpp>
#include <gameplan/path/navmesh_hierarchy.hpp>
#include <gameplan/path/request_queue.hpp>
#include <gameplan/path/smoothing.hpp>
#include <gameplan/path/theta_star.hpp>
#include <gameplan/path/waypoints.hpp>

#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

using namespace gameplan;

namespace {

thread_local std::string t_last_error;

gameplan_error fail(gameplan_error code, std::string message) {
    try {
        t_last_error = std::move(message);
    } catch (...) {
        t_last_error.clear();
    }
    return code;
}

// An error the API itself reports (bad argument, unknown name, ...).
struct ApiError : std::runtime_error {
    gameplan_error code;
    ApiError(gameplan_error c, const std::string& what) : std::runtime_error(what), code(c) {}
};

[[noreturn]] void raise(gameplan_error code, const std::string& message) { throw ApiError(code, message); }

void require(bool condition, const char* message) {
    if (!condition) raise(GAMEPLAN_ERROR_INVALID_ARGUMENT, message);
}

// Runs `body`, mapping exceptions to error codes.
template <class Body>
gameplan_error guarded(const char* function, Body&& body) noexcept {
    try {
        body();
        return GAMEPLAN_OK;
    } catch (const ApiError& e) {
        return fail(e.code, std::string(function) + ": " + e.what());
    } catch (const io::LoadError& e) {
        return fail(GAMEPLAN_ERROR_LOAD, e.what());
    } catch (const std::invalid_argument& e) {
        return fail(GAMEPLAN_ERROR_INVALID_ARGUMENT, std::string(function) + ": " + e.what());
    } catch (const std::bad_alloc&) {
        return fail(GAMEPLAN_ERROR_OUT_OF_MEMORY, std::string(function) + ": out of memory");
    } catch (const std::exception& e) {
        return fail(GAMEPLAN_ERROR_INTERNAL, std::string(function) + ": " + e.what());
    } catch (...) {
        return fail(GAMEPLAN_ERROR_INTERNAL, std::string(function) + ": unknown error");
    }
}

gameplan_status to_c(Status s) noexcept { return static_cast<gameplan_status>(static_cast<int>(s)); }
static_assert(static_cast<int>(search::BudgetLimit::None) == GAMEPLAN_LIMIT_NONE &&
              static_cast<int>(search::BudgetLimit::Expansions) == GAMEPLAN_LIMIT_EXPANSIONS &&
              static_cast<int>(search::BudgetLimit::Time) == GAMEPLAN_LIMIT_TIME &&
              static_cast<int>(search::BudgetLimit::Memory) == GAMEPLAN_LIMIT_MEMORY);
gameplan_budget_limit to_c(search::BudgetLimit l) noexcept { return static_cast<gameplan_budget_limit>(static_cast<int>(l)); }

}  // namespace

// ---- object layouts -----------------------------------------------------------------------------

struct gameplan_domain {
    io::DomainFile file;
};

struct gameplan_domain_builder {
    goap::DomainBuilder builder;
};

struct gameplan_planner {
    const gameplan_domain* domain;
    goap::Planner planner;
    goap::WorldState start;
    goap::Condition goal;
    std::vector<std::uint32_t> actions;
    std::unique_ptr<goap::AutoDirectionPlanner> both;  // made by the first GAMEPLAN_AUTO query
    explicit gameplan_planner(const gameplan_domain* d) : domain(d), planner(d->file.domain) {}
};

struct gameplan_agent_type_builder {
    const gameplan_domain* domain;
    goap::AgentTypeBuilder builder;
    gameplan_agent_type_builder(const gameplan_domain* d, std::string name)
        : domain(d), builder(d->file.domain, std::move(name)) {}
};

struct gameplan_agent_type {
    const gameplan_domain* domain;
    std::shared_ptr<const goap::AgentType> type;
};

namespace {
// What an agent's C++ user data points at: the system (to hand callbacks their handle) and the game's
// own pointer.
struct AgentRecord {
    gameplan_agent_system* system = nullptr;
    gameplan_agent_id id{};
    void* user_data = nullptr;
};
}  // namespace

struct gameplan_agent_system {
    const gameplan_domain* domain;
    goap::AgentSystem system;
    std::unique_ptr<goap::ThreadPool> pool;
    std::unordered_map<std::uint64_t, std::unique_ptr<AgentRecord>> records;
    std::vector<std::uint32_t> plan;  // gameplan_agent_info_get's plan
    bool ticking = false;             // inside gameplan_agent_system_tick (callbacks may call back)
    explicit gameplan_agent_system(const gameplan_domain* d) : domain(d), system(d->file.domain) {}
};

struct gameplan_map {
    path::GridMap map;
};

struct gameplan_islands {
    const gameplan_map* map;
    bool hex;
    path::Islands square;
    path::HexIslands hexes;
};

struct gameplan_areas {
    path::AreaMap areas;
};

struct gameplan_area_filter {
    path::AreaFilter filter;
};

struct gameplan_layer {
    path::InfluenceMap influence;
};

static_assert(GAMEPLAN_MAX_AREAS == path::kMaxAreas && GAMEPLAN_AREA_GROUND == path::kAreaGround && GAMEPLAN_AREA_SWAMP == path::kAreaSwamp &&
              GAMEPLAN_AREA_WATER == path::kAreaWater && GAMEPLAN_AREA_TREES == path::kAreaTrees && GAMEPLAN_AREA_UNKNOWN == path::kAreaUnknown);

// Areas, a filter and weighted layers that searches carry (gameplan_pathfinder_set_costs,
// gameplan_request_queue_set_costs, gameplan_explorer_set_costs).
struct CostProfile {
    const path::AreaMap* areas = nullptr;
    const path::AreaFilter* filter = nullptr;
    std::vector<path::CostLayer> layers;
    template <class Options>  // path::GridSearchOptions, path::ExploreOptions
    void apply_to(Options& o) const {
        o.areas = areas;
        o.filter = filter;
        o.layers = layers;
    }
};

struct gameplan_team {
    path::TeamKnowledge team;
};

struct gameplan_explorer {
    path::Explorer explorer;
    path::ExploreResult result;
    std::vector<gameplan_point> cells;
    CostProfile costs;  // gameplan_explorer_set_costs
};

struct gameplan_pathfinder {
    gameplan_algorithm algorithm;
    const gameplan_islands* islands = nullptr;  // gameplan_pathfinder_set_islands
    CostProfile costs;                          // gameplan_pathfinder_set_costs
    path::GridPathfinder astar;
    path::JpsPathfinder jps;
    path::HexPathfinder hex;
    path::ThetaStar theta;
    path::NearestTargets nearest;  // gameplan_find_nearest
    path::DistanceField field;     // gameplan_distance_field
    std::vector<path::GridPoint> points;  // their targets / sources
    std::vector<gameplan_point> cells;
    path::GridPath path;
};

struct gameplan_request_queue {
    path::PathRequestQueue queue;
    const path::Islands* islands = nullptr;  // gameplan_request_queue_set_islands: given to later requests
    std::shared_ptr<const CostProfile> costs;  // gameplan_request_queue_set_costs: given to later requests
    std::unordered_map<std::uint32_t, std::shared_ptr<const CostProfile>> held;  // what each request points at, by slot
    path::PathResult taken;
    std::vector<gameplan_point> cells;
    gameplan_request_queue(const path::GridMap& map, std::uint32_t lanes)
        : queue(map, path::QueueOptions{lanes == 0 ? 1u : lanes, 0, true}) {}
};

struct gameplan_hierarchy {
    path::HierarchicalMap hierarchy;
};

struct gameplan_hpa_pathfinder {
    path::HpaPathfinder finder;
    path::GridPath path;
    std::vector<gameplan_point> cells;
};

// A graph; one made by gameplan_waypoint_graph_build also has its waypoints' cells and line-of-sight rule
// (for gameplan_waypoint_find_path); other graphs have no cells.
struct gameplan_graph {
    gameplan::path::WaypointGraph wg;
};

struct gameplan_graph_builder {
    gameplan::path::GraphBuilder builder;
};

struct gameplan_graph_pathfinder {
    gameplan::path::GraphPathfinder finder;
    gameplan::path::GraphPath path;
    std::vector<double> field;  // gameplan_graph_distance_field's distances before they are copied out
};

struct gameplan_waypoint_pathfinder {
    gameplan::path::WaypointPathfinder finder;
    gameplan::path::GridPath path;
    std::vector<gameplan_point> cells;
};

struct gameplan_navmesh {
    gameplan::path::Navmesh mesh;
};

struct gameplan_navmesh_hierarchy {
    gameplan::path::NavmeshHierarchy hierarchy;
};

struct gameplan_navmesh_pathfinder {
    gameplan::path::NavmeshPathfinder mesh_finder;
    gameplan::path::NavmeshHierarchyPathfinder hierarchy_finder;
    bool on_hierarchy = false;  // which of the two ran the last begin or find_path
    gameplan::path::NavmeshPath route;
    std::vector<gameplan_vec2> points;
};

struct gameplan_crowd_solver {
    path::CrowdSolver solver;
    path::CrowdSolution solution;
    std::vector<gameplan_point> cells;
};

struct gameplan_movement {
    std::vector<path::CostLayer> layers;  // what the system's MovementOptions::layers points at (made first)
    path::MovementSystem system;
    std::vector<gameplan_point> route;  // gameplan_movement_unit_info's route
    gameplan_movement(const path::GridMap& map, const path::MovementOptions& o, std::vector<path::CostLayer> l)
        : layers(std::move(l)), system(map, with_layers(o, layers)) {}
    static path::MovementOptions with_layers(path::MovementOptions o, std::span<const path::CostLayer> l) {
        o.layers = l;
        return o;
    }
};

namespace {

std::uint64_t key_of(goap::AgentId id) noexcept { return (std::uint64_t{id.generation} << 32) | id.index; }
goap::AgentId to_cpp(gameplan_agent_id id) noexcept { return goap::AgentId{id.index, id.generation}; }
gameplan_agent_id to_c(goap::AgentId id) noexcept { return gameplan_agent_id{id.index, id.generation}; }

const goap::Domain& domain_of(const gameplan_domain* d) {
    require(d != nullptr, "domain is NULL");
    return d->file.domain;
}

goap::AtomId atom_of(const goap::Domain& d, std::uint32_t atom) {
    if (atom >= d.atom_count())
        raise(GAMEPLAN_ERROR_INVALID_ARGUMENT,
              "atom id " + std::to_string(atom) + " is out of range (the domain has " + std::to_string(d.atom_count()) + " atoms)");
    return goap::AtomId(atom);
}

goap::Condition condition_of(const goap::Domain& d, const gameplan_literal* literals, std::size_t count) {
    require(literals != nullptr || count == 0, "literals are NULL but the count is not 0");
    goap::Condition c = d.make_condition();
    for (std::size_t i = 0; i < count; ++i) c.set(atom_of(d, literals[i].atom), literals[i].value != 0);
    return c;
}

std::vector<goap::Literal> literals_of(const gameplan_literal* literals, std::size_t count) {
    require(literals != nullptr || count == 0, "literals are NULL but the count is not 0");
    std::vector<goap::Literal> out;
    out.reserve(count);
    for (std::size_t i = 0; i < count; ++i) out.push_back(goap::Literal{goap::AtomId(literals[i].atom), literals[i].value != 0});
    return out;
}

goap::VarId variable_of(const goap::Domain& d, std::uint32_t var) {
    if (var >= d.variable_count())
        raise(GAMEPLAN_ERROR_INVALID_ARGUMENT, "variable id " + std::to_string(var) + " is out of range (the domain has " +
                                                   std::to_string(d.variable_count()) + " variables)");
    return goap::VarId(var);
}

goap::Comparison comparison_of(const goap::Domain& d, const gameplan_comparison& c) {
    require(c.op >= GAMEPLAN_EQ && c.op <= GAMEPLAN_GE, "unknown comparison operator");
    return goap::Comparison{variable_of(d, c.variable), static_cast<goap::CompareOp>(static_cast<int>(c.op)), c.value};
}

// Adds `count` comparisons to `c` (after checking them against the domain: enumerations compare with
// == and != and one of their values).
void require_comparisons(const goap::Domain& d, goap::Condition& c, const gameplan_comparison* comparisons, std::size_t count) {
    require(comparisons != nullptr || count == 0, "comparisons are NULL but the count is not 0");
    for (std::size_t i = 0; i < count; ++i) {
        const goap::Comparison cmp = comparison_of(d, comparisons[i]);
        if (d.variable_kind(cmp.var) == goap::VariableKind::Enumeration) {
            require(cmp.op == goap::CompareOp::Eq || cmp.op == goap::CompareOp::Ne,
                    "an enumerated variable compares with GAMEPLAN_EQ or GAMEPLAN_NE only");
            require(d.in_bounds(cmp.var, cmp.value), "the value is not one of the enumerated variable's values");
        }
        c.require(cmp);
    }
}

void set_values(const goap::Domain& d, goap::WorldState& state, const std::int32_t* values, bool skip_shared) {
    if (!values) return;
    for (std::uint32_t v = 0; v < d.variable_count(); ++v) {
        const goap::VarId var(v);
        if (skip_shared && d.is_shared(var)) continue;
        if (!d.in_bounds(var, values[v]))
            raise(GAMEPLAN_ERROR_INVALID_ARGUMENT, "value " + std::to_string(values[v]) + " of variable '" + d.variable_name(var) +
                                                       "' is outside its bounds [" + std::to_string(d.variable_min(var)) + ", " +
                                                       std::to_string(d.variable_max(var)) + "]");
        state.set_value(var, values[v]);
    }
}

std::chrono::steady_clock::duration seconds(double s) {
    return std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(s));
}

// The budget of a search from an options struct's three fields (0 = no limit), its deadline counted from now.
search::Budget budget_of(std::uint64_t max_expansions, double time_limit_seconds, std::uint64_t max_memory_bytes) {
    require(!(time_limit_seconds < 0) && !std::isnan(time_limit_seconds), "time_limit_seconds must be >= 0");
    search::Budget b;
    if (max_expansions > 0) b.max_expansions = max_expansions;
    b.deadline = search::deadline_after(time_limit_seconds);
    if (max_memory_bytes > 0) b.max_memory_bytes = max_memory_bytes > SIZE_MAX ? SIZE_MAX : static_cast<std::size_t>(max_memory_bytes);
    return b;
}

goap::PlanOptions plan_options_of(const gameplan_plan_options* o) {
    goap::PlanOptions out;
    if (!o) return out;
    require(o->direction == GAMEPLAN_BACKWARD || o->direction == GAMEPLAN_FORWARD || o->direction == GAMEPLAN_AUTO,
            "direction must be GAMEPLAN_BACKWARD, GAMEPLAN_FORWARD or GAMEPLAN_AUTO");
    out.direction = o->direction == GAMEPLAN_FORWARD ? goap::Direction::Forward : goap::Direction::Backward;
    out.budget = budget_of(o->max_expansions, o->time_limit_seconds, o->max_memory_bytes);
    return out;
}

// One query with the planner, or with both directions for GAMEPLAN_AUTO.
goap::PlanResult run_plan(gameplan_planner& p, const goap::WorldState& start, const goap::Condition& goal,
                          const gameplan_plan_options* o) {
    const goap::PlanOptions options = plan_options_of(o);
    if (o && o->direction == GAMEPLAN_AUTO) {
        if (!p.both) p.both = std::make_unique<goap::AutoDirectionPlanner>(p.domain->file.domain);
        return p.both->plan(start, goal, options);
    }
    return p.planner.plan(start, goal, options);
}

void fill_plan(gameplan_planner& p, const goap::PlanResult& r, gameplan_plan_result* out) {
    p.actions.clear();
    for (const goap::ActionId a : r.plan) p.actions.push_back(a.value);
    out->status = to_c(r.status);
    out->cost = r.status == Status::Found ? r.cost : 0.0;
    out->actions = p.actions.empty() ? nullptr : p.actions.data();
    out->action_count = p.actions.size();
    out->expanded = r.stats.expanded;
    out->generated = r.stats.generated;
    out->limit = to_c(r.limit);
}

path::GridSearchOptions path_options_of(const gameplan_path_options* o) {
    path::GridSearchOptions out;
    if (!o) return out;
    require(o->movement == 4 || o->movement == 8, "movement must be 4 or 8");
    out.movement = o->movement == 4 ? path::Movement::Four : path::Movement::Eight;
    require(o->diagonal >= GAMEPLAN_DIAGONAL_NEVER && o->diagonal <= GAMEPLAN_DIAGONAL_ALWAYS, "unknown diagonal rule");
    out.diagonal = static_cast<path::DiagonalRule>(static_cast<int>(o->diagonal));
    require(std::isfinite(o->weight) && o->weight >= 1.0, "weight must be a finite number >= 1");
    out.weight = o->weight;
    out.budget = budget_of(o->max_expansions, o->time_limit_seconds, o->max_memory_bytes);
    return out;
}

void fill_path(const path::GridPath& path, Status status, std::uint64_t expanded, search::BudgetLimit limit,
               std::vector<gameplan_point>& cells, gameplan_path_result* out) {
    cells.clear();
    for (const path::GridPoint& c : path.cells) cells.push_back(gameplan_point{c.x, c.y});
    out->status = to_c(status);
    out->cost = status == Status::Found ? path.cost : 0.0;
    out->cells = cells.empty() ? nullptr : cells.data();
    out->cell_count = cells.size();
    out->expanded = expanded;
    out->limit = to_c(status == Status::BudgetExhausted ? limit : search::BudgetLimit::None);
}

path::GridPoint to_cpp(gameplan_point p) noexcept { return path::GridPoint{p.x, p.y}; }

goap::Agent& agent_of(gameplan_agent_system* s, gameplan_agent_id id) {
    require(s != nullptr, "system is NULL");
    goap::Agent* a = s->system.find(to_cpp(id));
    if (!a) raise(GAMEPLAN_ERROR_NOT_FOUND, "no live agent with this id");
    return *a;
}

const goap::Agent& agent_of(const gameplan_agent_system* s, gameplan_agent_id id) {
    require(s != nullptr, "system is NULL");
    const goap::Agent* a = s->system.find(to_cpp(id));
    if (!a) raise(GAMEPLAN_ERROR_NOT_FOUND, "no live agent with this id");
    return *a;
}

gameplan_action_context action_context(const goap::ActionContext& c) {
    const auto* record = static_cast<const AgentRecord*>(c.user_data);
    return gameplan_action_context{record->system, record->id, c.action.value, c.tick, c.ticks_running, record->user_data};
}

gameplan_planning_context planning_context(const goap::PlanningContext& c) {
    const auto* record = static_cast<const AgentRecord*>(c.user_data);
    return gameplan_planning_context{record->system, record->id, c.action.value, c.goal, c.tick, record->user_data,
                                     record->system->domain, c.view.words().data()};
}

gameplan_error bind_result(goap::BindErrorKind kind, const char* action) {
    if (kind == goap::BindErrorKind::None) return GAMEPLAN_OK;
    return fail(kind == goap::BindErrorKind::UnknownAction ? GAMEPLAN_ERROR_NOT_FOUND : GAMEPLAN_ERROR_INVALID_ARGUMENT,
                std::string("action '") + action + "': " + std::string(goap::to_string(kind)));
}

}  // namespace

// ---- errors ------------------------------------------------------------------------------------------

extern "C" {

const char* gameplan_last_error(void) { return t_last_error.c_str(); }

const char* gameplan_budget_limit_name(gameplan_budget_limit limit) {
    switch (limit) {
        case GAMEPLAN_LIMIT_NONE: return "none";
        case GAMEPLAN_LIMIT_EXPANSIONS: return "expansions";
        case GAMEPLAN_LIMIT_TIME: return "time";
        case GAMEPLAN_LIMIT_MEMORY: return "memory";
    }
    return "unknown";
}

const char* gameplan_status_name(gameplan_status status) {
    switch (status) {
        case GAMEPLAN_STATUS_FOUND: return "found";
        case GAMEPLAN_STATUS_NO_PATH: return "no_path";
        case GAMEPLAN_STATUS_BUDGET_EXHAUSTED: return "budget_exhausted";
        case GAMEPLAN_STATUS_INVALID_QUERY: return "invalid_query";
        case GAMEPLAN_STATUS_IN_PROGRESS: return "in_progress";
    }
    return "unknown";
}

const char* gameplan_version(void) { return GAMEPLAN_VERSION_STRING; }

// ---- domains -----------------------------------------------------------------------------------------

gameplan_error gameplan_domain_load(const char* path, gameplan_domain** out) {
    return guarded("gameplan_domain_load", [&] {
        require(path != nullptr && out != nullptr, "path and out must not be NULL");
        auto d = std::make_unique<gameplan_domain>();
        d->file = io::load_domain(path);
        *out = d.release();
    });
}

gameplan_error gameplan_domain_parse(const char* text, size_t length, const char* source_name, gameplan_domain** out) {
    return guarded("gameplan_domain_parse", [&] {
        require((text != nullptr || length == 0) && out != nullptr, "text and out must not be NULL");
        const std::string_view view(text ? text : "", length);
        auto d = std::make_unique<gameplan_domain>();
        d->file = io::parse_domain(view, io::domain_format_of(std::filesystem::path(), view),
                                   source_name ? source_name : "<input>");
        *out = d.release();
    });
}

void gameplan_domain_destroy(gameplan_domain* domain) { delete domain; }

size_t gameplan_domain_atom_count(const gameplan_domain* d) { return d ? d->file.domain.atom_count() : 0; }
size_t gameplan_domain_action_count(const gameplan_domain* d) { return d ? d->file.domain.action_count() : 0; }
int gameplan_domain_has_variables(const gameplan_domain* d) { return d && d->file.domain.has_variables() ? 1 : 0; }

const char* gameplan_domain_atom_name(const gameplan_domain* d, uint32_t atom) {
    if (!d || atom >= d->file.domain.atom_count()) return nullptr;
    return d->file.domain.atom_name(goap::AtomId(atom)).c_str();
}

const char* gameplan_domain_action_name(const gameplan_domain* d, uint32_t action) {
    if (!d || action >= d->file.domain.action_count()) return nullptr;
    return d->file.domain.action_name(goap::ActionId(action)).c_str();
}

double gameplan_domain_action_cost(const gameplan_domain* d, uint32_t action) {
    if (!d || action >= d->file.domain.action_count()) return -1.0;
    return d->file.domain.action_cost(goap::ActionId(action));
}

gameplan_error gameplan_domain_find_atom(const gameplan_domain* d, const char* name, uint32_t* out) {
    return guarded("gameplan_domain_find_atom", [&] {
        require(name != nullptr && out != nullptr, "name and out must not be NULL");
        const goap::AtomId a = domain_of(d).find_atom(name);
        if (!a.valid()) raise(GAMEPLAN_ERROR_NOT_FOUND, std::string("no atom named '") + name + "'");
        *out = a.value;
    });
}

gameplan_error gameplan_domain_find_action(const gameplan_domain* d, const char* name, uint32_t* out) {
    return guarded("gameplan_domain_find_action", [&] {
        require(name != nullptr && out != nullptr, "name and out must not be NULL");
        const goap::ActionId a = domain_of(d).find_action(name);
        if (!a.valid()) raise(GAMEPLAN_ERROR_NOT_FOUND, std::string("no action named '") + name + "'");
        *out = a.value;
    });
}

int gameplan_domain_start_atom(const gameplan_domain* d, uint32_t atom) {
    if (!d || atom >= d->file.start.atom_count()) return 0;
    return d->file.start.get(goap::AtomId(atom)) ? 1 : 0;
}

size_t gameplan_domain_goal_count(const gameplan_domain* d) { return d ? d->file.goals.size() : 0; }

const char* gameplan_domain_goal_name(const gameplan_domain* d, size_t index) {
    if (!d || index >= d->file.goals.size()) return nullptr;
    return d->file.goals[index].name.c_str();
}

double gameplan_domain_goal_priority(const gameplan_domain* d, size_t index) {
    if (!d || index >= d->file.goals.size()) return 0.0;
    return d->file.goals[index].priority;
}

size_t gameplan_domain_variable_count(const gameplan_domain* d) { return d ? d->file.domain.variable_count() : 0; }

namespace {
bool has_variable(const gameplan_domain* d, uint32_t v) noexcept { return d && v < d->file.domain.variable_count(); }
}  // namespace

const char* gameplan_domain_variable_name(const gameplan_domain* d, uint32_t v) {
    return has_variable(d, v) ? d->file.domain.variable_name(goap::VarId(v)).c_str() : nullptr;
}

gameplan_error gameplan_domain_find_variable(const gameplan_domain* d, const char* name, uint32_t* out) {
    return guarded("gameplan_domain_find_variable", [&] {
        require(name != nullptr && out != nullptr, "name and out must not be NULL");
        const goap::VarId v = domain_of(d).find_variable(name);
        if (!v.valid()) raise(GAMEPLAN_ERROR_NOT_FOUND, std::string("no variable named '") + name + "'");
        *out = v.value;
    });
}

gameplan_variable_kind gameplan_domain_variable_kind(const gameplan_domain* d, uint32_t v) {
    return has_variable(d, v) && d->file.domain.variable_kind(goap::VarId(v)) == goap::VariableKind::Enumeration
               ? GAMEPLAN_VARIABLE_ENUMERATION
               : GAMEPLAN_VARIABLE_INTEGER;
}

int32_t gameplan_domain_variable_min(const gameplan_domain* d, uint32_t v) {
    return has_variable(d, v) ? d->file.domain.variable_min(goap::VarId(v)) : 0;
}

int32_t gameplan_domain_variable_max(const gameplan_domain* d, uint32_t v) {
    return has_variable(d, v) ? d->file.domain.variable_max(goap::VarId(v)) : 0;
}

size_t gameplan_domain_variable_value_count(const gameplan_domain* d, uint32_t v) {
    return has_variable(d, v) ? d->file.domain.variable_values(goap::VarId(v)).size() : 0;
}

const char* gameplan_domain_variable_value_name(const gameplan_domain* d, uint32_t v, size_t index) {
    if (!has_variable(d, v)) return nullptr;
    const auto values = d->file.domain.variable_values(goap::VarId(v));
    return index < values.size() ? values[index].c_str() : nullptr;
}

gameplan_error gameplan_domain_find_variable_value(const gameplan_domain* d, uint32_t v, const char* name, int32_t* out) {
    return guarded("gameplan_domain_find_variable_value", [&] {
        require(name != nullptr && out != nullptr, "name and out must not be NULL");
        const goap::VarId var = variable_of(domain_of(d), v);
        const std::int32_t index = d->file.domain.find_variable_value(var, name);
        if (index < 0) raise(GAMEPLAN_ERROR_NOT_FOUND, "variable '" + d->file.domain.variable_name(var) + "' has no value '" + name + "'");
        *out = index;
    });
}

int32_t gameplan_domain_start_value(const gameplan_domain* d, uint32_t v) {
    if (!has_variable(d, v) || v >= d->file.start.var_count()) return 0;
    return d->file.start.value(goap::VarId(v));
}

int gameplan_domain_variable_shared(const gameplan_domain* d, uint32_t v) {
    return has_variable(d, v) && d->file.domain.is_shared(goap::VarId(v)) ? 1 : 0;
}

gameplan_error gameplan_domain_builder_add_integer_variable(gameplan_domain_builder* b, const char* name, int32_t min,
                                                            int32_t max, int shared, uint32_t* out) {
    return guarded("gameplan_domain_builder_add_integer_variable", [&] {
        require(b != nullptr && name != nullptr && out != nullptr, "builder, name and out must not be NULL");
        require(*name != '\0', "the variable name is empty");
        require(min <= max, "max is smaller than min");
        require(!b->builder.find_atom(name).valid() && !b->builder.find_variable(name).valid(),
                "the name is already used by an atom or a variable");
        const goap::VarId v = b->builder.add_integer_variable(name, min, max, shared != 0);
        require(v.valid(), "the variable was refused");
        *out = v.value;
    });
}

gameplan_error gameplan_domain_builder_add_enum_variable(gameplan_domain_builder* b, const char* name, const char* const* values,
                                                         size_t value_count, int shared, uint32_t* out) {
    return guarded("gameplan_domain_builder_add_enum_variable", [&] {
        require(b != nullptr && name != nullptr && out != nullptr, "builder, name and out must not be NULL");
        require(*name != '\0', "the variable name is empty");
        require(values != nullptr && value_count > 0, "an enumerated variable needs at least one value");
        require(value_count <= static_cast<std::size_t>(INT32_MAX), "too many values");
        require(!b->builder.find_atom(name).valid() && !b->builder.find_variable(name).valid(),
                "the name is already used by an atom or a variable");
        std::vector<std::string> names;
        names.reserve(value_count);
        for (std::size_t i = 0; i < value_count; ++i) {
            require(values[i] != nullptr, "a value name is NULL");
            names.emplace_back(values[i]);
        }
        const goap::VarId v = b->builder.add_enum_variable(name, names, shared != 0);
        require(v.valid(), "the variable was refused (repeated value names?)");
        *out = v.value;
    });
}

gameplan_error gameplan_domain_builder_add_numeric_action(gameplan_domain_builder* b, const char* name, double cost,
                                                          const gameplan_literal* pre, size_t pre_count,
                                                          const gameplan_literal* eff, size_t eff_count,
                                                          const gameplan_comparison* comparisons, size_t comparison_count,
                                                          const gameplan_numeric_effect* numeric_effects,
                                                          size_t numeric_effect_count) {
    return guarded("gameplan_domain_builder_add_numeric_action", [&] {
        require(b != nullptr && name != nullptr, "builder and name must not be NULL");
        require(comparisons != nullptr || comparison_count == 0, "comparisons are NULL but the count is not 0");
        require(numeric_effects != nullptr || numeric_effect_count == 0, "numeric_effects are NULL but the count is not 0");
        const std::vector<goap::Literal> p = literals_of(pre, pre_count);
        const std::vector<goap::Literal> e = literals_of(eff, eff_count);
        std::vector<goap::Comparison> c;
        for (std::size_t i = 0; i < comparison_count; ++i) {
            require(comparisons[i].op >= GAMEPLAN_EQ && comparisons[i].op <= GAMEPLAN_GE, "unknown comparison operator");
            c.push_back(goap::Comparison{goap::VarId(comparisons[i].variable),
                                         static_cast<goap::CompareOp>(static_cast<int>(comparisons[i].op)), comparisons[i].value});
        }
        std::vector<goap::NumericEffect> n;
        for (std::size_t i = 0; i < numeric_effect_count; ++i) {
            require(numeric_effects[i].op >= GAMEPLAN_SET && numeric_effects[i].op <= GAMEPLAN_SUB, "unknown effect operator");
            n.push_back(goap::NumericEffect{goap::VarId(numeric_effects[i].variable),
                                            static_cast<goap::EffectOp>(static_cast<int>(numeric_effects[i].op)),
                                            numeric_effects[i].value});
        }
        const goap::DomainError err = b->builder.add_action(name, cost, p, e, c, n);
        if (err != goap::DomainError::None)
            raise(GAMEPLAN_ERROR_INVALID_ARGUMENT, std::string("action '") + name + "': " + std::string(goap::to_string(err)));
    });
}

gameplan_error gameplan_domain_builder_create(gameplan_domain_builder** out) {
    return guarded("gameplan_domain_builder_create", [&] {
        require(out != nullptr, "out must not be NULL");
        *out = new gameplan_domain_builder();
    });
}

void gameplan_domain_builder_destroy(gameplan_domain_builder* builder) { delete builder; }

gameplan_error gameplan_domain_builder_add_atom(gameplan_domain_builder* b, const char* name, int shared, uint32_t* out) {
    return guarded("gameplan_domain_builder_add_atom", [&] {
        require(b != nullptr && name != nullptr && out != nullptr, "builder, name and out must not be NULL");
        require(*name != '\0', "the atom name is empty");
        *out = b->builder.add_atom(name, shared != 0).value;
    });
}

gameplan_error gameplan_domain_builder_add_action(gameplan_domain_builder* b, const char* name, double cost,
                                                  const gameplan_literal* pre, size_t pre_count,
                                                  const gameplan_literal* eff, size_t eff_count) {
    return guarded("gameplan_domain_builder_add_action", [&] {
        require(b != nullptr && name != nullptr, "builder and name must not be NULL");
        const std::vector<goap::Literal> p = literals_of(pre, pre_count);
        const std::vector<goap::Literal> e = literals_of(eff, eff_count);
        const goap::DomainError err = b->builder.add_action(name, cost, p, e);
        if (err != goap::DomainError::None)
            raise(GAMEPLAN_ERROR_INVALID_ARGUMENT, std::string("action '") + name + "': " + std::string(goap::to_string(err)));
    });
}

gameplan_error gameplan_domain_builder_build(const gameplan_domain_builder* b, gameplan_domain** out) {
    return guarded("gameplan_domain_builder_build", [&] {
        require(b != nullptr && out != nullptr, "builder and out must not be NULL");
        auto d = std::make_unique<gameplan_domain>();
        d->file.domain = b->builder.build();
        d->file.start = d->file.domain.make_state();
        *out = d.release();
    });
}

// ---- planning ----------------------------------------------------------------------------------------

gameplan_plan_options gameplan_plan_options_default(void) { return gameplan_plan_options{GAMEPLAN_BACKWARD, 0, 0.0, 0}; }

gameplan_error gameplan_planner_create(const gameplan_domain* domain, gameplan_planner** out) {
    return guarded("gameplan_planner_create", [&] {
        require(domain != nullptr && out != nullptr, "domain and out must not be NULL");
        *out = new gameplan_planner(domain);
    });
}

void gameplan_planner_destroy(gameplan_planner* planner) { delete planner; }

gameplan_error gameplan_plan(gameplan_planner* p, const uint8_t* start, const gameplan_literal* goal, size_t goal_count,
                             const gameplan_plan_options* options, gameplan_plan_result* out) {
    return guarded("gameplan_plan", [&] {
        require(p != nullptr && out != nullptr, "planner and out must not be NULL");
        const goap::Domain& d = p->domain->file.domain;
        p->start = p->domain->file.start;
        if (start)
            for (std::size_t a = 0; a < d.atom_count(); ++a) p->start.set(goap::AtomId(static_cast<std::uint32_t>(a)), start[a] != 0);
        require(goal != nullptr || goal_count == 0, "goal is NULL but goal_count is not 0");
        if (p->goal.atom_count() != d.atom_count()) p->goal = d.make_condition();
        p->goal.clear();  // reused: no allocation per query after the first
        for (std::size_t i = 0; i < goal_count; ++i) p->goal.set(atom_of(d, goal[i].atom), goal[i].value != 0);
        const goap::PlanResult r = run_plan(*p, p->start, p->goal, options);
        fill_plan(*p, r, out);
    });
}

gameplan_error gameplan_plan_values(gameplan_planner* p, const uint8_t* start, const int32_t* start_values,
                                    const gameplan_literal* goal, size_t goal_count, const gameplan_comparison* goal_comparisons,
                                    size_t goal_comparison_count, const gameplan_plan_options* options, gameplan_plan_result* out) {
    return guarded("gameplan_plan_values", [&] {
        require(p != nullptr && out != nullptr, "planner and out must not be NULL");
        const goap::Domain& d = p->domain->file.domain;
        p->start = p->domain->file.start;
        if (start)
            for (std::size_t a = 0; a < d.atom_count(); ++a) p->start.set(goap::AtomId(static_cast<std::uint32_t>(a)), start[a] != 0);
        set_values(d, p->start, start_values, false);
        require(goal != nullptr || goal_count == 0, "goal is NULL but goal_count is not 0");
        if (p->goal.atom_count() != d.atom_count()) p->goal = d.make_condition();
        p->goal.clear();  // keeps its storage: no allocation per query after the first of this size
        for (std::size_t i = 0; i < goal_count; ++i) p->goal.set(atom_of(d, goal[i].atom), goal[i].value != 0);
        require_comparisons(d, p->goal, goal_comparisons, goal_comparison_count);
        const goap::PlanResult r = run_plan(*p, p->start, p->goal, options);
        fill_plan(*p, r, out);
    });
}

gameplan_error gameplan_plan_goal(gameplan_planner* p, const char* goal_name, const gameplan_plan_options* options,
                                  gameplan_plan_result* out) {
    return guarded("gameplan_plan_goal", [&] {
        require(p != nullptr && out != nullptr, "planner and out must not be NULL");
        const io::DomainFile& f = p->domain->file;
        const goap::Condition* goal = nullptr;
        if (goal_name) {
            const goap::Goal* g = f.find_goal(goal_name);
            if (!g) raise(GAMEPLAN_ERROR_NOT_FOUND, std::string("no goal named '") + goal_name + "' in \"goals\"");
            goal = &g->condition;
        } else {
            goal = f.default_goal();
            if (!goal) raise(GAMEPLAN_ERROR_NOT_FOUND, "the domain has no \"goal\" and no \"goals\" to plan for");
        }
        const goap::PlanResult r = run_plan(*p, f.start, *goal, options);
        fill_plan(*p, r, out);
    });
}

// ---- agents ------------------------------------------------------------------------------------------

gameplan_error gameplan_agent_type_builder_create(const gameplan_domain* domain, const char* name,
                                                  gameplan_agent_type_builder** out) {
    return guarded("gameplan_agent_type_builder_create", [&] {
        require(domain != nullptr && out != nullptr, "domain and out must not be NULL");
        *out = new gameplan_agent_type_builder(domain, name ? name : "");
    });
}

void gameplan_agent_type_builder_destroy(gameplan_agent_type_builder* builder) { delete builder; }

gameplan_error gameplan_agent_type_bind(gameplan_agent_type_builder* b, const char* action, const gameplan_behaviour* behaviour) {
    gameplan_error result = GAMEPLAN_OK;
    const gameplan_error e = guarded("gameplan_agent_type_bind", [&] {
        require(b != nullptr && action != nullptr && behaviour != nullptr, "builder, action and behaviour must not be NULL");
        require(behaviour->update != nullptr, "the behaviour has no update function");
        const gameplan_behaviour c = *behaviour;
        goap::Behaviour cpp;
        cpp.update = [c](goap::ActionContext& ctx) {
            const gameplan_action_context cc = action_context(ctx);
            switch (c.update(&cc, c.data)) {
                case GAMEPLAN_ACTION_RUNNING: return goap::ActionStatus::Running;
                case GAMEPLAN_ACTION_SUCCESS: return goap::ActionStatus::Success;
                case GAMEPLAN_ACTION_FAILURE: break;
            }
            return goap::ActionStatus::Failure;  // anything else counts as failure
        };
        if (c.start)
            cpp.start = [c](goap::ActionContext& ctx) {
                const gameplan_action_context cc = action_context(ctx);
                c.start(&cc, c.data);
            };
        if (c.abort)
            cpp.abort = [c](goap::ActionContext& ctx, goap::AbortReason reason) {
                const gameplan_action_context cc = action_context(ctx);
                c.abort(&cc, static_cast<gameplan_abort_reason>(static_cast<int>(reason)), c.data);
            };
        result = bind_result(b->builder.bind(action, std::move(cpp)), action);
    });
    return e != GAMEPLAN_OK ? e : result;
}

gameplan_error gameplan_agent_type_set_check(gameplan_agent_type_builder* b, const char* action, gameplan_check_fn check,
                                             void* data) {
    gameplan_error result = GAMEPLAN_OK;
    const gameplan_error e = guarded("gameplan_agent_type_set_check", [&] {
        require(b != nullptr && action != nullptr && check != nullptr, "builder, action and check must not be NULL");
        result = bind_result(b->builder.set_check(action, [check, data](const goap::PlanningContext& ctx) {
                                 const gameplan_planning_context cc = planning_context(ctx);
                                 return check(&cc, data) != 0;
                             }),
                             action);
    });
    return e != GAMEPLAN_OK ? e : result;
}

gameplan_error gameplan_agent_type_set_cost(gameplan_agent_type_builder* b, const char* action, gameplan_cost_fn cost,
                                            void* data) {
    gameplan_error result = GAMEPLAN_OK;
    const gameplan_error e = guarded("gameplan_agent_type_set_cost", [&] {
        require(b != nullptr && action != nullptr && cost != nullptr, "builder, action and cost must not be NULL");
        result = bind_result(b->builder.set_cost(action, [cost, data](const goap::PlanningContext& ctx) {
                                 const gameplan_planning_context cc = planning_context(ctx);
                                 return cost(&cc, data);
                             }),
                             action);
    });
    return e != GAMEPLAN_OK ? e : result;
}

gameplan_error gameplan_agent_type_exclude(gameplan_agent_type_builder* b, const char* action) {
    gameplan_error result = GAMEPLAN_OK;
    const gameplan_error e = guarded("gameplan_agent_type_exclude", [&] {
        require(b != nullptr && action != nullptr, "builder and action must not be NULL");
        result = bind_result(b->builder.exclude(action), action);
    });
    return e != GAMEPLAN_OK ? e : result;
}

gameplan_error gameplan_agent_type_builder_build(const gameplan_agent_type_builder* b, gameplan_agent_type** out) {
    return guarded("gameplan_agent_type_builder_build", [&] {
        require(b != nullptr && out != nullptr, "builder and out must not be NULL");
        goap::BindResult r = b->builder.build();
        if (!r.ok()) raise(GAMEPLAN_ERROR_INVALID_ARGUMENT, r.message());
        *out = new gameplan_agent_type{b->domain, std::move(r.type)};
    });
}

void gameplan_agent_type_destroy(gameplan_agent_type* type) { delete type; }

gameplan_error gameplan_agent_system_create(const gameplan_domain* domain, size_t threads, gameplan_agent_system** out) {
    return guarded("gameplan_agent_system_create", [&] {
        require(domain != nullptr && out != nullptr, "domain and out must not be NULL");
        require(threads <= 1024, "threads must be at most 1024");
        auto s = std::make_unique<gameplan_agent_system>(domain);
        s->system.blackboard().assign_shared(domain->file.start);  // the file's shared atoms and variables
        if (threads > 1) s->pool = std::make_unique<goap::ThreadPool>(threads);
        *out = s.release();
    });
}

void gameplan_agent_system_destroy(gameplan_agent_system* system) { delete system; }

gameplan_error gameplan_agent_system_add_agent(gameplan_agent_system* s, const gameplan_agent_params* params,
                                               gameplan_agent_id* out) {
    return guarded("gameplan_agent_system_add_agent", [&] {
        require(s != nullptr && params != nullptr && out != nullptr, "system, params and out must not be NULL");
        require(params->type != nullptr, "params.type is NULL");
        require(!s->ticking, "agents cannot be added from a callback during a tick");
        require(params->type->domain == s->domain, "the agent type was built for another domain");
        require(params->direction == GAMEPLAN_BACKWARD || params->direction == GAMEPLAN_FORWARD,
                "agents plan GAMEPLAN_BACKWARD or GAMEPLAN_FORWARD");
        const goap::Domain& d = s->domain->file.domain;
        goap::AgentParams p;
        p.name = params->name ? params->name : "";
        p.type = params->type->type;
        require(params->goals != nullptr || params->goal_count == 0, "goals are NULL but goal_count is not 0");
        for (std::size_t i = 0; i < params->goal_count; ++i) {
            const gameplan_goal& g = params->goals[i];
            goap::AgentGoal goal;
            goal.name = g.name ? g.name : "";
            goal.condition = condition_of(d, g.literals, g.literal_count);
            require_comparisons(d, goal.condition, g.comparisons, g.comparison_count);
            goal.priority = g.priority;
            p.goals.push_back(std::move(goal));
        }
        if (params->use_domain_goals)
            for (const goap::Goal& g : s->domain->file.goals) p.goals.push_back(goap::AgentGoal::from(g));
        p.state = s->domain->file.start;
        if (params->private_state)
            for (std::size_t a = 0; a < d.atom_count(); ++a)
                p.state.set(goap::AtomId(static_cast<std::uint32_t>(a)), params->private_state[a] != 0);
        set_values(d, p.state, params->private_values, true);
        auto record = std::make_unique<AgentRecord>();
        record->system = s;
        record->user_data = params->user_data;
        p.user_data = record.get();
        if (params->max_expansions_per_tick > 0) p.max_expansions_per_tick = params->max_expansions_per_tick;
        p.direction = params->direction == GAMEPLAN_FORWARD ? goap::Direction::Forward : goap::Direction::Backward;
        const goap::AgentId id = s->system.add_agent(std::move(p));
        if (!id.valid()) raise(GAMEPLAN_ERROR_INVALID_ARGUMENT, "the agent's goals or state do not fit the domain");
        record->id = to_c(id);
        s->records[key_of(id)] = std::move(record);
        *out = to_c(id);
    });
}

gameplan_error gameplan_agent_system_remove_agent(gameplan_agent_system* s, gameplan_agent_id agent) {
    return guarded("gameplan_agent_system_remove_agent", [&] {
        require(s != nullptr, "system is NULL");
        require(!s->ticking, "agents cannot be removed from a callback during a tick");
        if (!s->system.remove_agent(to_cpp(agent))) raise(GAMEPLAN_ERROR_NOT_FOUND, "no live agent with this id");
        s->records.erase(key_of(to_cpp(agent)));  // after removal: the abort hook still saw the record
    });
}

gameplan_error gameplan_agent_system_tick(gameplan_agent_system* s) {
    return guarded("gameplan_agent_system_tick", [&] {
        require(s != nullptr, "system is NULL");
        require(!s->ticking, "the system is already ticking (called from a callback)");
        s->ticking = true;
        struct Reset {
            bool& flag;
            ~Reset() { flag = false; }
        } reset{s->ticking};
        s->system.tick(s->pool.get());
    });
}

uint64_t gameplan_agent_system_current_tick(const gameplan_agent_system* s) { return s ? s->system.current_tick() : 0; }
size_t gameplan_agent_system_agent_count(const gameplan_agent_system* s) { return s ? s->system.agent_count() : 0; }

gameplan_error gameplan_blackboard_set(gameplan_agent_system* s, uint32_t atom, int value) {
    return guarded("gameplan_blackboard_set", [&] {
        require(s != nullptr, "system is NULL");
        const goap::AtomId a = atom_of(s->domain->file.domain, atom);
        require(s->domain->file.domain.is_shared(a), "the atom is private to each agent (use gameplan_agent_set)");
        (void)s->system.blackboard().set(a, value != 0);
    });
}

int gameplan_blackboard_get(const gameplan_agent_system* s, uint32_t atom) {
    if (!s) return 0;
    return s->system.blackboard().get(goap::AtomId(atom)) ? 1 : 0;
}

gameplan_error gameplan_agent_set(gameplan_agent_system* s, gameplan_agent_id agent, uint32_t atom, int value) {
    return guarded("gameplan_agent_set", [&] {
        goap::Agent& a = agent_of(s, agent);
        const goap::AtomId id = atom_of(s->domain->file.domain, atom);
        require(!s->domain->file.domain.is_shared(id), "the atom is shared (use gameplan_blackboard_set)");
        (void)a.set(id, value != 0);
    });
}

gameplan_error gameplan_agent_get(const gameplan_agent_system* s, gameplan_agent_id agent, uint32_t atom, int* out) {
    return guarded("gameplan_agent_get", [&] {
        require(out != nullptr, "out is NULL");
        const goap::Agent& a = agent_of(s, agent);
        const goap::AtomId id = atom_of(s->domain->file.domain, atom);
        *out = s->domain->file.domain.is_shared(id) ? (s->system.blackboard().get(id) ? 1 : 0)
                                                    : (a.private_state().get(id) ? 1 : 0);
    });
}

gameplan_error gameplan_blackboard_set_value(gameplan_agent_system* s, uint32_t variable, int32_t value) {
    return guarded("gameplan_blackboard_set_value", [&] {
        require(s != nullptr, "system is NULL");
        const goap::Domain& d = s->domain->file.domain;
        const goap::VarId v = variable_of(d, variable);
        require(d.is_shared(v), "the variable is private to each agent (use gameplan_agent_set_value)");
        require(d.in_bounds(v, value), "the value is outside the variable's bounds");
        (void)s->system.blackboard().set_value(v, value);
    });
}

gameplan_error gameplan_blackboard_get_value(const gameplan_agent_system* s, uint32_t variable, int32_t* out) {
    return guarded("gameplan_blackboard_get_value", [&] {
        require(s != nullptr && out != nullptr, "system and out must not be NULL");
        const goap::Domain& d = s->domain->file.domain;
        const goap::VarId v = variable_of(d, variable);
        require(d.is_shared(v), "the variable is private to each agent (use gameplan_agent_get_value)");
        *out = s->system.blackboard().value(v);
    });
}

gameplan_error gameplan_agent_set_value(gameplan_agent_system* s, gameplan_agent_id agent, uint32_t variable, int32_t value) {
    return guarded("gameplan_agent_set_value", [&] {
        goap::Agent& a = agent_of(s, agent);
        const goap::Domain& d = s->domain->file.domain;
        const goap::VarId v = variable_of(d, variable);
        require(!d.is_shared(v), "the variable is shared (use gameplan_blackboard_set_value)");
        require(d.in_bounds(v, value), "the value is outside the variable's bounds");
        (void)a.set_value(v, value);
    });
}

gameplan_error gameplan_agent_get_value(const gameplan_agent_system* s, gameplan_agent_id agent, uint32_t variable, int32_t* out) {
    return guarded("gameplan_agent_get_value", [&] {
        require(out != nullptr, "out is NULL");
        const goap::Agent& a = agent_of(s, agent);
        const goap::Domain& d = s->domain->file.domain;
        const goap::VarId v = variable_of(d, variable);
        *out = d.is_shared(v) ? s->system.blackboard().value(v) : a.private_state().value(v);
    });
}

gameplan_error gameplan_agent_abort(gameplan_agent_system* s, gameplan_agent_id agent) {
    return guarded("gameplan_agent_abort", [&] { agent_of(s, agent).abort(); });
}

gameplan_error gameplan_agent_info_get(const gameplan_agent_system* s, gameplan_agent_id agent, gameplan_agent_info* out) {
    return guarded("gameplan_agent_info_get", [&] {
        require(out != nullptr, "out is NULL");
        const goap::Agent& a = agent_of(s, agent);
        auto& plan = const_cast<gameplan_agent_system*>(s)->plan;  // scratch owned by the system
        plan.clear();
        for (const goap::ActionId id : a.plan()) plan.push_back(id.value);
        const goap::AgentStats& st = a.stats();
        *out = gameplan_agent_info{static_cast<gameplan_agent_status>(static_cast<int>(a.status())),
                                   a.current_goal(),
                                   a.current_action().value,
                                   plan.empty() ? nullptr : plan.data(),
                                   plan.size(),
                                   a.plan_position(),
                                   a.plan_cost(),
                                   st.replans,
                                   st.actions_succeeded,
                                   st.actions_failed};
    });
}

// ---- maps --------------------------------------------------------------------------------------------

gameplan_error gameplan_map_load(const char* path, gameplan_map** out) {
    return guarded("gameplan_map_load", [&] {
        require(path != nullptr && out != nullptr, "path and out must not be NULL");
        auto m = std::make_unique<gameplan_map>();
        m->map = io::load_grid_map(path);
        *out = m.release();
    });
}

gameplan_error gameplan_map_create(int64_t width, int64_t height, int passable, gameplan_map** out) {
    return guarded("gameplan_map_create", [&] {
        require(out != nullptr, "out must not be NULL");
        const path::GridSizeCheck check = path::GridMap::check_size(width, height);
        if (check != path::GridSizeCheck::Ok)
            raise(GAMEPLAN_ERROR_INVALID_ARGUMENT, std::to_string(width) + " x " + std::to_string(height) + ": " +
                                                       std::string(path::describe(check)));
        auto m = std::make_unique<gameplan_map>();
        (void)m->map.reset(width, height, passable != 0);
        *out = m.release();
    });
}

void gameplan_map_destroy(gameplan_map* map) { delete map; }
int32_t gameplan_map_width(const gameplan_map* m) { return m ? m->map.width() : 0; }
int32_t gameplan_map_height(const gameplan_map* m) { return m ? m->map.height() : 0; }
int gameplan_map_passable(const gameplan_map* m, gameplan_point cell) { return m && m->map.passable(to_cpp(cell)) ? 1 : 0; }

gameplan_error gameplan_map_set_passable(gameplan_map* m, gameplan_point cell, int passable) {
    return guarded("gameplan_map_set_passable", [&] {
        require(m != nullptr, "map is NULL");
        require(m->map.contains(to_cpp(cell)), "the cell is outside the map");
        (void)m->map.set_passable(to_cpp(cell), passable != 0);
    });
}

gameplan_error gameplan_map_set_cost(gameplan_map* m, gameplan_point cell, uint32_t cost) {
    return guarded("gameplan_map_set_cost", [&] {
        require(m != nullptr, "map is NULL");
        require(m->map.contains(to_cpp(cell)), "the cell is outside the map");
        require(cost >= 1 && cost <= path::kMaxTerrainCost, "the cost must be in [1, 2^24]");
        (void)m->map.set_cost(to_cpp(cell), cost);
    });
}

// ---- pathfinding -------------------------------------------------------------------------------------

gameplan_path_options gameplan_path_options_default(void) {
    return gameplan_path_options{8, GAMEPLAN_DIAGONAL_NO_CORNER_CUTTING, 1.0, 0, 0.0, 0};
}

gameplan_error gameplan_pathfinder_create(gameplan_algorithm algorithm, gameplan_pathfinder** out) {
    return guarded("gameplan_pathfinder_create", [&] {
        require(out != nullptr, "out must not be NULL");
        require(algorithm == GAMEPLAN_ASTAR || algorithm == GAMEPLAN_DIJKSTRA || algorithm == GAMEPLAN_JPS || algorithm == GAMEPLAN_HEX ||
                    algorithm == GAMEPLAN_THETA,
                "unknown algorithm");
        auto f = std::make_unique<gameplan_pathfinder>();
        f->algorithm = algorithm;
        *out = f.release();
    });
}

void gameplan_pathfinder_destroy(gameplan_pathfinder* finder) { delete finder; }

extern "C++" {  // a C++ helper inside the extern "C" block: C++ linkage (it returns a C++ type)
namespace {
path::GridSearchOptions finder_options(const gameplan_pathfinder* f, const gameplan_map* map, const gameplan_path_options* options) {
    require(f != nullptr && map != nullptr, "pathfinder and map must not be NULL");
    path::GridSearchOptions o = path_options_of(options);
    if (f->algorithm == GAMEPLAN_DIJKSTRA) o.heuristic = path::Heuristic::Zero;
    f->costs.apply_to(o);
    if (f->algorithm == GAMEPLAN_JPS) {
        const path::JpsSupport support = path::check_jps_support(map->map, o);
        if (support != path::JpsSupport::Ok) raise(GAMEPLAN_ERROR_UNSUPPORTED, "JPS: " + std::string(path::describe(support)));
    }
    return o;
}

// The hex search's options from the grid ones: the weight and the budget (hex has no movement rule).
path::HexSearchOptions hex_options_of(const path::GridSearchOptions& o) {
    path::HexSearchOptions h;
    h.weight = o.weight;
    h.budget = o.budget;
    return h;
}

// Calls `run(search, options)` with the search `f` runs (A* for Dijkstra too) and its options, with the
// pathfinder's islands.
template <class Run>
decltype(auto) with_search(gameplan_pathfinder& f, path::GridSearchOptions o, Run&& run) {
    if (f.algorithm == GAMEPLAN_HEX) {
        path::HexSearchOptions h = hex_options_of(o);
        h.islands = f.islands ? &f.islands->hexes : nullptr;
        return run(f.hex, h);
    }
    o.islands = f.islands ? &f.islands->square : nullptr;
    if (f.algorithm == GAMEPLAN_JPS) return run(f.jps, o);
    if (f.algorithm == GAMEPLAN_THETA) return run(f.theta, path::theta_star_options(o));
    return run(f.astar, o);
}

// The path of `f`'s last search into `out`, with the expansions and the limit of whichever search ran it.
void fill_finder_path(gameplan_pathfinder& f, Status status, gameplan_path_result* out) {
    with_search(f, path::GridSearchOptions{}, [&](const auto& search, const auto&) {
        fill_path(f.path, status, search.stats().expanded, search.budget_limit(), f.cells, out);
    });
}
}  // namespace
}  // extern "C++"

gameplan_error gameplan_find_path(gameplan_pathfinder* f, const gameplan_map* map, gameplan_point start, gameplan_point goal,
                                  const gameplan_path_options* options, gameplan_path_result* out) {
    return guarded("gameplan_find_path", [&] {
        require(out != nullptr, "out must not be NULL");
        const path::GridSearchOptions o = finder_options(f, map, options);
        const Status s = with_search(*f, o, [&](auto& search, const auto& so) {
            return search.find_path(map->map, to_cpp(start), to_cpp(goal), so, f->path);
        });
        fill_finder_path(*f, s, out);
    });
}

gameplan_error gameplan_pathfinder_begin(gameplan_pathfinder* f, const gameplan_map* map, gameplan_point start,
                                         gameplan_point goal, const gameplan_path_options* options, gameplan_status* out) {
    return guarded("gameplan_pathfinder_begin", [&] {
        require(out != nullptr, "out must not be NULL");
        const path::GridSearchOptions o = finder_options(f, map, options);
        *out = to_c(with_search(*f, o, [&](auto& search, const auto& so) { return search.begin(map->map, to_cpp(start), to_cpp(goal), so); }));
    });
}

gameplan_error gameplan_pathfinder_step(gameplan_pathfinder* f, uint64_t slice, gameplan_status* out) {
    return guarded("gameplan_pathfinder_step", [&] {
        require(f != nullptr && out != nullptr, "pathfinder and out must not be NULL");
        require(slice > 0, "the slice must be at least 1 expansion");
        *out = to_c(with_search(*f, path::GridSearchOptions{}, [&](auto& search, const auto&) { return search.step(slice); }));
    });
}

gameplan_error gameplan_pathfinder_finish(gameplan_pathfinder* f, gameplan_path_result* out) {
    return guarded("gameplan_pathfinder_finish", [&] {
        require(f != nullptr && out != nullptr, "pathfinder and out must not be NULL");
        fill_finder_path(*f, with_search(*f, path::GridSearchOptions{}, [&](auto& search, const auto&) { return search.finish(f->path); }),
                         out);
    });
}

extern "C++" {
namespace {
// The options of a flood or a nearest-target search by `f` (A* or Dijkstra only), with its islands.
path::GridSearchOptions flood_options(const gameplan_pathfinder* f, const gameplan_map* map, const gameplan_path_options* options,
                                      const char* what) {
    require(f != nullptr && map != nullptr, "pathfinder and map must not be NULL");
    if (f->algorithm != GAMEPLAN_ASTAR && f->algorithm != GAMEPLAN_DIJKSTRA)
        raise(GAMEPLAN_ERROR_UNSUPPORTED, std::string(what) + " needs a GAMEPLAN_ASTAR or GAMEPLAN_DIJKSTRA pathfinder");
    path::GridSearchOptions o = finder_options(f, map, options);
    o.islands = f->islands ? &f->islands->square : nullptr;
    return o;
}

void to_points(const gameplan_point* in, size_t count, std::vector<path::GridPoint>& out) {
    out.clear();
    for (size_t i = 0; i < count; ++i) out.push_back(to_cpp(in[i]));
}
}  // namespace
}  // extern "C++"

gameplan_error gameplan_find_nearest(gameplan_pathfinder* f, const gameplan_map* map, gameplan_point start, const gameplan_point* targets,
                                     size_t target_count, const gameplan_path_options* options, size_t* index, gameplan_path_result* out) {
    return guarded("gameplan_find_nearest", [&] {
        require(out != nullptr, "out must not be NULL");
        require(target_count == 0 || targets != nullptr, "targets must not be NULL with target_count > 0");
        const path::GridSearchOptions o = flood_options(f, map, options, "the nearest of many targets");
        to_points(targets, target_count, f->points);
        const path::NearestTarget r = f->nearest.find(map->map, to_cpp(start), f->points, o, &f->path);  // (cleared unless found)
        if (index) *index = r.index == path::kNoIndex ? SIZE_MAX : r.index;
        fill_path(f->path, r.status, r.expanded, f->nearest.pathfinder().budget_limit(), f->cells, out);
    });
}

gameplan_error gameplan_smooth_path(const gameplan_pathfinder* costs_of, const gameplan_map* map, const gameplan_point* cells, size_t count,
                                    const gameplan_path_options* options, gameplan_point* out, size_t* out_count, double* cost) {
    return guarded("gameplan_smooth_path", [&] {
        require(map != nullptr && out != nullptr && out_count != nullptr, "map, out and out_count must not be NULL");
        require(count == 0 || cells != nullptr, "cells must not be NULL with count > 0");
        path::GridSearchOptions o = path_options_of(options);
        if (costs_of != nullptr) costs_of->costs.apply_to(o);
        // smooth_path's precondition: a legal path under these rules
        if (count > 0 && !map->map.passable(to_cpp(cells[0]))) raise(GAMEPLAN_ERROR_INVALID_ARGUMENT, "cells[0] is blocked or off the map");
        for (size_t i = 1; i < count; ++i)
            if (!std::isfinite(path::query_step_cost(map->map, to_cpp(cells[i - 1]), to_cpp(cells[i]), o)))
                raise(GAMEPLAN_ERROR_INVALID_ARGUMENT, "cells[" + std::to_string(i - 1) + "] to cells[" + std::to_string(i) +
                                                           "] is not a legal move under these rules");
        // (smoothed in a path kept per thread, then copied to `out`, which has room for every cell)
        thread_local path::GridPath p;
        p.cells.clear();
        for (size_t i = 0; i < count; ++i) p.cells.push_back(to_cpp(cells[i]));
        p.cost = path::query_path_cost(map->map, p.cells, o);
        path::SmoothingOptions so;
        so.movement = o.movement;
        so.diagonal = o.diagonal;
        path::smooth_path(map->map, p, so, o);
        for (std::size_t i = 0; i < p.cells.size(); ++i) out[i] = gameplan_point{p.cells[i].x, p.cells[i].y};
        *out_count = p.cells.size();
        if (cost) *cost = p.cost;
    });
}

gameplan_error gameplan_distance_field(gameplan_pathfinder* f, const gameplan_map* map, const gameplan_point* sources, size_t source_count,
                                       const gameplan_path_options* options, double* distances, gameplan_point* toward,
                                       gameplan_status* status) {
    return guarded("gameplan_distance_field", [&] {
        require(distances != nullptr, "distances must not be NULL");
        require(source_count == 0 || sources != nullptr, "sources must not be NULL with source_count > 0");
        const path::GridSearchOptions o = flood_options(f, map, options, "a distance field");
        to_points(sources, source_count, f->points);
        const Status s = f->field.compute(map->map, f->points, o);
        const std::int32_t w = map->map.width(), h = map->map.height();
        for (std::int32_t y = 0; y < h; ++y)
            for (std::int32_t x = 0; x < w; ++x) {
                const path::GridPoint p{x, y};
                const bool settled = s != Status::InvalidQuery && f->field.final_cost(p);
                const std::size_t at = std::size_t(y) * std::size_t(w) + std::size_t(x);
                distances[at] = settled ? f->field.distance(p) : std::numeric_limits<double>::infinity();
                if (toward) {
                    const path::GridPoint n = settled ? f->field.toward_source(p) : path::GridPoint{-1, -1};
                    toward[at] = gameplan_point{n.x, n.y};
                }
            }
        if (status) *status = to_c(s);
    });
}

// ---- islands -----------------------------------------------------------------------------------------

extern "C++" {
namespace {
// The square islands of `islands` (null for none) for a user of square grids named `who`; hex islands are
// refused.
const path::Islands* square_islands(const gameplan_islands* islands, const char* who) {
    if (islands != nullptr && islands->hex)
        raise(GAMEPLAN_ERROR_INVALID_ARGUMENT, std::string(who) + " searches square grids: it needs square islands");
    return islands ? &islands->square : nullptr;
}
}  // namespace
}  // extern "C++"

gameplan_error gameplan_islands_build(const gameplan_map* map, const gameplan_path_options* rules, gameplan_islands** out) {
    return guarded("gameplan_islands_build", [&] {
        require(map != nullptr && out != nullptr, "map and out must not be NULL");
        const path::GridSearchOptions r = path_options_of(rules);
        auto result = std::make_unique<gameplan_islands>(gameplan_islands{map, false, {}, {}});
        result->square.build(map->map, r);
        *out = result.release();
    });
}

gameplan_error gameplan_hex_islands_build(const gameplan_map* map, gameplan_islands** out) {
    return guarded("gameplan_hex_islands_build", [&] {
        require(map != nullptr && out != nullptr, "map and out must not be NULL");
        auto result = std::make_unique<gameplan_islands>(gameplan_islands{map, true, {}, {}});
        result->hexes.build(map->map);
        *out = result.release();
    });
}

void gameplan_islands_destroy(gameplan_islands* islands) { delete islands; }

uint32_t gameplan_islands_id(const gameplan_islands* i, gameplan_point cell) {
    if (!i) return GAMEPLAN_NO_ISLAND;
    return i->hex ? i->hexes.island(to_cpp(cell)) : i->square.island(to_cpp(cell));
}

gameplan_reachability gameplan_islands_connectivity(const gameplan_islands* i, gameplan_point a, gameplan_point b) {
    if (!i) return GAMEPLAN_REACHABILITY_UNKNOWN;
    switch (i->hex ? i->hexes.connectivity(to_cpp(a), to_cpp(b)) : i->square.connectivity(to_cpp(a), to_cpp(b))) {
        case path::Reachability::Unreachable: return GAMEPLAN_UNREACHABLE;
        case path::Reachability::Reachable: return GAMEPLAN_REACHABLE;
        case path::Reachability::Unknown: break;
    }
    return GAMEPLAN_REACHABILITY_UNKNOWN;
}

size_t gameplan_islands_count(const gameplan_islands* i) {
    if (!i) return 0;
    return i->hex ? i->hexes.count() : i->square.island_count();
}

size_t gameplan_islands_size(const gameplan_islands* i, uint32_t island) {
    if (!i) return 0;
    return i->hex ? i->hexes.island_size(island) : i->square.island_size(island);
}

gameplan_error gameplan_islands_set_passable(gameplan_islands* i, gameplan_map* map, gameplan_point cell, int passable) {
    return guarded("gameplan_islands_set_passable", [&] {
        require(i != nullptr && map != nullptr, "islands and map must not be NULL");
        require(map == i->map, "the islands were built for another map");
        require(map->map.contains(to_cpp(cell)), "the cell is outside the map");
        if (i->hex) {
            (void)i->hexes.set_passable(map->map, to_cpp(cell), passable != 0);
        } else {
            (void)i->square.set_passable(map->map, to_cpp(cell), passable != 0);
        }
    });
}

gameplan_error gameplan_islands_update(gameplan_islands* i, const gameplan_map* map) {
    return guarded("gameplan_islands_update", [&] {
        require(i != nullptr && map != nullptr, "islands and map must not be NULL");
        require(map == i->map, "the islands were built for another map");
        if (i->hex) {
            if (!i->hexes.current(map->map)) i->hexes.build(map->map);
        } else {
            i->square.update(map->map);
        }
    });
}

gameplan_error gameplan_pathfinder_set_islands(gameplan_pathfinder* f, const gameplan_islands* islands) {
    return guarded("gameplan_pathfinder_set_islands", [&] {
        require(f != nullptr, "pathfinder is NULL");
        if (islands != nullptr) {
            require(islands->hex == (f->algorithm == GAMEPLAN_HEX),
                    islands->hex ? "hex islands serve the GAMEPLAN_HEX pathfinder only"
                                 : "the GAMEPLAN_HEX pathfinder needs hex islands (gameplan_hex_islands_build)");
        }
        f->islands = islands;
    });
}

// ---- areas, filters and cost layers ---------------------------------------------------------------------

extern "C++" {
namespace {
// `count` weighted layers as cost layers: INVALID_ARGUMENT for NULL arrays or entries, a weight that is
// negative or not finite, or (with `map`) a layer sized for another map.
std::vector<path::CostLayer> cost_layers_of(const gameplan_layer* const* layers, const double* weights, size_t count,
                                            const path::GridMap* map) {
    require(count == 0 || (layers != nullptr && weights != nullptr), "layers and weights must not be NULL with layer_count > 0");
    std::vector<path::CostLayer> out;
    for (size_t i = 0; i < count; ++i) {
        if (layers[i] == nullptr) raise(GAMEPLAN_ERROR_INVALID_ARGUMENT, "layers[" + std::to_string(i) + "] is NULL");
        if (map != nullptr && !layers[i]->influence.matches(*map))
            raise(GAMEPLAN_ERROR_INVALID_ARGUMENT, "layers[" + std::to_string(i) + "] is sized for another map");
        if (!(weights[i] >= 0.0 && std::isfinite(weights[i])))
            raise(GAMEPLAN_ERROR_INVALID_ARGUMENT, "weights[" + std::to_string(i) + "] must be finite and >= 0, got " + std::to_string(weights[i]));
        out.push_back(path::CostLayer{&layers[i]->influence.layer(), weights[i]});
    }
    return out;
}

// A CostProfile of the C handles (each may be NULL), its layers checked by cost_layers_of; with `map`,
// INVALID_ARGUMENT for areas sized for another map.
CostProfile cost_profile_of(const gameplan_areas* areas, const gameplan_area_filter* filter, const gameplan_layer* const* layers,
                            const double* weights, size_t count, const path::GridMap* map) {
    CostProfile p;
    p.layers = cost_layers_of(layers, weights, count, map);
    if (map != nullptr && areas != nullptr && !areas->areas.matches(*map)) raise(GAMEPLAN_ERROR_INVALID_ARGUMENT, "areas are sized for another map");
    p.areas = areas ? &areas->areas : nullptr;
    p.filter = filter ? &filter->filter : nullptr;
    return p;
}
}  // namespace
}  // extern "C++"

gameplan_error gameplan_areas_create(const gameplan_map* map, gameplan_areas** out) {
    return guarded("gameplan_areas_create", [&] {
        require(map != nullptr && out != nullptr, "map and out must not be NULL");
        auto a = std::make_unique<gameplan_areas>();
        a->areas.reset(map->map);
        *out = a.release();
    });
}

gameplan_error gameplan_map_load_with_areas(const char* path, int water_passable, int trees_passable, gameplan_map** map_out,
                                            gameplan_areas** areas_out) {
    return guarded("gameplan_map_load_with_areas", [&] {
        require(path != nullptr && map_out != nullptr && areas_out != nullptr, "path, map_out and areas_out must not be NULL");
        auto m = std::make_unique<gameplan_map>();
        auto a = std::make_unique<gameplan_areas>();
        io::MapLoadOptions o;
        o.water_passable = water_passable != 0;
        o.trees_passable = trees_passable != 0;
        o.areas = &a->areas;
        m->map = io::load_grid_map(path, o);
        *map_out = m.release();
        *areas_out = a.release();
    });
}

void gameplan_areas_destroy(gameplan_areas* areas) { delete areas; }

gameplan_error gameplan_areas_set(gameplan_areas* a, gameplan_point cell, uint32_t area) {
    return guarded("gameplan_areas_set", [&] {
        require(a != nullptr, "areas is NULL");
        if (!(area < path::kMaxAreas)) raise(GAMEPLAN_ERROR_INVALID_ARGUMENT, "area must be below GAMEPLAN_MAX_AREAS (64), got " + std::to_string(area));
        if (!(a->areas.set(to_cpp(cell), area))) raise(GAMEPLAN_ERROR_INVALID_ARGUMENT, "cell (" + std::to_string(cell.x) + ", " + std::to_string(cell.y) + ") is off the map");
    });
}

uint32_t gameplan_areas_get(const gameplan_areas* a, gameplan_point cell) { return a ? a->areas.at(to_cpp(cell)) : 0; }

gameplan_error gameplan_area_filter_create(gameplan_area_filter** out) {
    return guarded("gameplan_area_filter_create", [&] {
        require(out != nullptr, "out must not be NULL");
        *out = std::make_unique<gameplan_area_filter>().release();
    });
}

void gameplan_area_filter_destroy(gameplan_area_filter* filter) { delete filter; }

gameplan_error gameplan_area_filter_forbid(gameplan_area_filter* f, uint32_t area, int forbidden) {
    return guarded("gameplan_area_filter_forbid", [&] {
        require(f != nullptr, "filter is NULL");
        if (!(f->filter.forbid(area, forbidden != 0))) raise(GAMEPLAN_ERROR_INVALID_ARGUMENT, "area must be below GAMEPLAN_MAX_AREAS (64), got " + std::to_string(area));
    });
}

gameplan_error gameplan_area_filter_set_multiplier(gameplan_area_filter* f, uint32_t area, double multiplier) {
    return guarded("gameplan_area_filter_set_multiplier", [&] {
        require(f != nullptr, "filter is NULL");
        if (!(area < path::kMaxAreas)) raise(GAMEPLAN_ERROR_INVALID_ARGUMENT, "area must be below GAMEPLAN_MAX_AREAS (64), got " + std::to_string(area));
        require(f->filter.set_multiplier(area, multiplier), "a multiplier must be in (0, 1e6]");
    });
}

gameplan_error gameplan_layer_create(const gameplan_map* map, gameplan_layer** out) {
    return guarded("gameplan_layer_create", [&] {
        require(map != nullptr && out != nullptr, "map and out must not be NULL");
        auto l = std::make_unique<gameplan_layer>();
        l->influence.reset(map->map);
        *out = l.release();
    });
}

void gameplan_layer_destroy(gameplan_layer* layer) { delete layer; }

gameplan_error gameplan_layer_set(gameplan_layer* l, gameplan_point cell, float value) {
    return guarded("gameplan_layer_set", [&] {
        require(l != nullptr, "layer is NULL");
        require(value >= 0.0f && std::isfinite(value), "a layer value must be finite and >= 0");
        if (!(l->influence.set(to_cpp(cell), value))) raise(GAMEPLAN_ERROR_INVALID_ARGUMENT, "cell (" + std::to_string(cell.x) + ", " + std::to_string(cell.y) + ") is off the map");
    });
}

float gameplan_layer_get(const gameplan_layer* l, gameplan_point cell) { return l ? l->influence.at(to_cpp(cell)) : 0.0f; }

gameplan_error gameplan_layer_add_event(gameplan_layer* l, gameplan_point center, float amount, int32_t radius) {
    return guarded("gameplan_layer_add_event", [&] {
        require(l != nullptr, "layer is NULL");
        require(amount > 0.0f && std::isfinite(amount), "an event's amount must be finite and > 0");
        require(radius >= 0 && radius <= path::kMaxInfluenceRadius, "an event's radius must be in [0, 1024]");
        (void)l->influence.add_event(to_cpp(center), amount, radius);
    });
}

gameplan_error gameplan_layer_decay(gameplan_layer* l, float factor) {
    return guarded("gameplan_layer_decay", [&] {
        require(l != nullptr, "layer is NULL");
        require(l->influence.decay(factor), "a decay factor must be in [0, 1]");
    });
}

void gameplan_layer_clear(gameplan_layer* l) {
    if (l) l->influence.clear();
}

gameplan_error gameplan_pathfinder_set_costs(gameplan_pathfinder* f, const gameplan_areas* areas, const gameplan_area_filter* filter,
                                             const gameplan_layer* const* layers, const double* weights, size_t layer_count) {
    return guarded("gameplan_pathfinder_set_costs", [&] {
        require(f != nullptr, "pathfinder is NULL");
        const bool any = areas != nullptr || filter != nullptr || layer_count > 0;
        require(!(any && f->algorithm == GAMEPLAN_HEX), "the GAMEPLAN_HEX pathfinder takes no areas, filter or layers");
        f->costs = cost_profile_of(areas, filter, layers, weights, layer_count, nullptr);
    });
}

// ---- fog of war ----------------------------------------------------------------------------------------

gameplan_error gameplan_team_create(const gameplan_map* truth, gameplan_team** out) {
    return guarded("gameplan_team_create", [&] {
        require(truth != nullptr && out != nullptr, "truth and out must not be NULL");
        auto t = std::make_unique<gameplan_team>();
        t->team.reset(truth->map);
        *out = t.release();
    });
}

void gameplan_team_destroy(gameplan_team* team) { delete team; }

gameplan_error gameplan_team_reveal(gameplan_team* t, const gameplan_map* truth, gameplan_point center, int32_t radius,
                                    size_t* newly_blocked) {
    return guarded("gameplan_team_reveal", [&] {
        require(t != nullptr && truth != nullptr, "team and truth must not be NULL");
        require(t->team.matches(truth->map), "the team's knowledge is of another map shape");
        require(radius >= 0 && radius <= path::kMaxSightRadius, "radius must be in [0, 1024]");
        const std::size_t blocked = t->team.reveal(truth->map, to_cpp(center), radius);
        if (newly_blocked) *newly_blocked = blocked;
    });
}

gameplan_knowledge gameplan_team_state(const gameplan_team* t, gameplan_point cell) {
    return t ? static_cast<gameplan_knowledge>(static_cast<int>(t->team.state(to_cpp(cell)))) : GAMEPLAN_CELL_UNKNOWN;
}

size_t gameplan_team_known_count(const gameplan_team* t) { return t ? t->team.known_count() : 0; }

gameplan_explore_options gameplan_explore_options_default(void) {
    const path::ExploreOptions d;
    return gameplan_explore_options{8, GAMEPLAN_DIAGONAL_NO_CORNER_CUTTING, d.sight, d.unknown_multiplier, d.max_steps, 0, 0.0, 0};
}

gameplan_error gameplan_explorer_create(gameplan_explorer** out) {
    return guarded("gameplan_explorer_create", [&] {
        require(out != nullptr, "out must not be NULL");
        *out = std::make_unique<gameplan_explorer>().release();
    });
}

void gameplan_explorer_destroy(gameplan_explorer* explorer) { delete explorer; }

gameplan_error gameplan_explorer_set_costs(gameplan_explorer* e, const gameplan_areas* areas, const gameplan_area_filter* filter,
                                           const gameplan_layer* const* layers, const double* weights, size_t layer_count) {
    return guarded("gameplan_explorer_set_costs", [&] {
        require(e != nullptr, "explorer is NULL");
        e->costs = cost_profile_of(areas, filter, layers, weights, layer_count, nullptr);
    });
}

gameplan_error gameplan_explore(gameplan_explorer* e, const gameplan_map* truth, gameplan_team* t, gameplan_point start, gameplan_point goal,
                                const gameplan_explore_options* options, gameplan_explore_result* out) {
    return guarded("gameplan_explore", [&] {
        require(e != nullptr && truth != nullptr && t != nullptr && out != nullptr, "explorer, truth, team and out must not be NULL");
        const gameplan_explore_options o = options ? *options : gameplan_explore_options_default();
        require(o.movement == 4 || o.movement == 8, "movement must be 4 or 8");
        require(o.diagonal >= GAMEPLAN_DIAGONAL_NEVER && o.diagonal <= GAMEPLAN_DIAGONAL_ALWAYS, "unknown diagonal rule");
        path::ExploreOptions x;
        x.movement = o.movement == 4 ? path::Movement::Four : path::Movement::Eight;
        x.diagonal = static_cast<path::DiagonalRule>(static_cast<int>(o.diagonal));
        x.sight = o.sight;
        x.unknown_multiplier = o.unknown_multiplier;
        x.max_steps = o.max_steps;
        x.budget = budget_of(o.max_expansions, o.time_limit_seconds, o.max_memory_bytes);
        e->costs.apply_to(x);
        const Status s = e->explorer.explore(truth->map, t->team, to_cpp(start), to_cpp(goal), x, e->result);
        e->cells.clear();
        for (const path::GridPoint& c : e->result.path) e->cells.push_back(gameplan_point{c.x, c.y});
        *out = gameplan_explore_result{to_c(s),
                                       e->cells.empty() ? nullptr : e->cells.data(),
                                       e->cells.size(),
                                       e->result.travelled,
                                       e->result.steps,
                                       e->result.replans,
                                       e->result.expanded,
                                       to_c(s == Status::BudgetExhausted ? e->result.limit : search::BudgetLimit::None)};
    });
}

// ---- request queue -----------------------------------------------------------------------------------

gameplan_error gameplan_request_queue_create(const gameplan_map* map, uint32_t lanes, gameplan_request_queue** out) {
    return guarded("gameplan_request_queue_create", [&] {
        require(map != nullptr && out != nullptr, "map and out must not be NULL");
        *out = new gameplan_request_queue(map->map, lanes);
    });
}

void gameplan_request_queue_destroy(gameplan_request_queue* queue) { delete queue; }

gameplan_error gameplan_request_queue_submit(gameplan_request_queue* q, gameplan_point start, gameplan_point goal,
                                             const gameplan_path_options* options, int32_t priority, gameplan_path_handle* out) {
    return guarded("gameplan_request_queue_submit", [&] {
        require(q != nullptr && out != nullptr, "queue and out must not be NULL");
        path::PathRequest r{to_cpp(start), to_cpp(goal), path_options_of(options), priority};
        r.options.islands = q->islands;
        if (q->costs) q->costs->apply_to(r.options);
        const path::PathHandle h = q->queue.submit(r);
        if (q->costs) q->held[h.index] = q->costs;
        else q->held.erase(h.index);
        *out = gameplan_path_handle{h.index, h.generation};
    });
}

gameplan_error gameplan_request_queue_update(gameplan_request_queue* q, uint64_t max_expansions, uint32_t* completed) {
    return guarded("gameplan_request_queue_update", [&] {
        require(q != nullptr, "queue is NULL");
        const path::QueueUpdateStats st = q->queue.update(max_expansions);
        if (completed) *completed = st.completed;
    });
}

gameplan_request_state gameplan_request_queue_state(const gameplan_request_queue* q, gameplan_path_handle h) {
    if (!q) return GAMEPLAN_REQUEST_UNKNOWN;
    return static_cast<gameplan_request_state>(static_cast<int>(q->queue.state(path::PathHandle{h.index, h.generation})));
}

gameplan_error gameplan_request_queue_take(gameplan_request_queue* q, gameplan_path_handle h, gameplan_path_result* out) {
    return guarded("gameplan_request_queue_take", [&] {
        require(q != nullptr && out != nullptr, "queue and out must not be NULL");
        if (!q->queue.take(path::PathHandle{h.index, h.generation}, q->taken))
            raise(GAMEPLAN_ERROR_NOT_FOUND, "the request is not done (or the handle is unknown)");
        q->held.erase(h.index);
        fill_path(q->taken.path, q->taken.status, q->taken.expanded, q->taken.limit, q->cells, out);
    });
}

gameplan_error gameplan_request_queue_cancel(gameplan_request_queue* q, gameplan_path_handle h) {
    return guarded("gameplan_request_queue_cancel", [&] {
        require(q != nullptr, "queue is NULL");
        if (!q->queue.cancel(path::PathHandle{h.index, h.generation})) raise(GAMEPLAN_ERROR_NOT_FOUND, "unknown request handle");
        q->held.erase(h.index);
    });
}

size_t gameplan_request_queue_size(const gameplan_request_queue* q) { return q ? q->queue.size() : 0; }

gameplan_error gameplan_request_queue_set_islands(gameplan_request_queue* q, const gameplan_islands* islands) {
    return guarded("gameplan_request_queue_set_islands", [&] {
        require(q != nullptr, "queue is NULL");
        q->islands = square_islands(islands, "the request queue");
    });
}

gameplan_error gameplan_request_queue_set_costs(gameplan_request_queue* q, const gameplan_areas* areas, const gameplan_area_filter* filter,
                                                const gameplan_layer* const* layers, const double* weights, size_t layer_count) {
    return guarded("gameplan_request_queue_set_costs", [&] {
        require(q != nullptr, "queue is NULL");
        CostProfile profile = cost_profile_of(areas, filter, layers, weights, layer_count, &q->queue.map());
        const bool any = profile.areas != nullptr || profile.filter != nullptr || !profile.layers.empty();
        q->costs = any ? std::make_shared<const CostProfile>(std::move(profile)) : nullptr;
    });
}

gameplan_error gameplan_request_queue_set_restarts(gameplan_request_queue* q, int on_cost_change, int on_passability_change) {
    return guarded("gameplan_request_queue_set_restarts", [&] {
        require(q != nullptr, "queue is NULL");
        q->queue.set_restarts(on_cost_change != 0, on_passability_change != 0);
    });
}

// ---- HPA* --------------------------------------------------------------------------------------------

gameplan_error gameplan_hierarchy_build(const gameplan_map* map, const gameplan_path_options* rules, int32_t cluster_size,
                                        gameplan_hierarchy** out) {
    return guarded("gameplan_hierarchy_build", [&] {
        require(map != nullptr && out != nullptr, "map and out must not be NULL");
        require(cluster_size >= path::kMinClusterSize && cluster_size <= path::kMaxClusterSize, "cluster_size must be in [1, 256]");
        const path::GridSearchOptions r = path_options_of(rules);
        path::HierarchyOptions h;
        h.cluster_size = cluster_size;
        auto result = std::make_unique<gameplan_hierarchy>();
        const path::HierarchyBuild built = result->hierarchy.build(map->map, r, h);
        if (built != path::HierarchyBuild::Ok) raise(GAMEPLAN_ERROR_INVALID_ARGUMENT, std::string(path::describe(built)));
        *out = result.release();
    });
}

void gameplan_hierarchy_destroy(gameplan_hierarchy* hierarchy) { delete hierarchy; }

gameplan_error gameplan_hierarchy_update_cell(gameplan_hierarchy* h, const gameplan_map* map, gameplan_point cell) {
    return guarded("gameplan_hierarchy_update_cell", [&] {
        require(h != nullptr && map != nullptr, "hierarchy and map must not be NULL");
        require(h->hierarchy.map() == &map->map, "the hierarchy was built on another map");
        require(map->map.contains(to_cpp(cell)), "the cell is outside the map");
        (void)h->hierarchy.update_cell(map->map, to_cpp(cell));
    });
}

size_t gameplan_hierarchy_cluster_count(const gameplan_hierarchy* h) { return h ? h->hierarchy.cluster_count() : 0; }
size_t gameplan_hierarchy_node_count(const gameplan_hierarchy* h) { return h ? h->hierarchy.node_count() : 0; }

gameplan_hpa_options gameplan_hpa_options_default(void) { return gameplan_hpa_options{1, 0, 1.0, 0, 0.0, 0}; }

gameplan_error gameplan_hpa_pathfinder_create(gameplan_hpa_pathfinder** out) {
    return guarded("gameplan_hpa_pathfinder_create", [&] {
        require(out != nullptr, "out must not be NULL");
        *out = new gameplan_hpa_pathfinder();
    });
}

void gameplan_hpa_pathfinder_destroy(gameplan_hpa_pathfinder* finder) { delete finder; }

gameplan_error gameplan_hpa_find_path(gameplan_hpa_pathfinder* f, const gameplan_hierarchy* h, gameplan_point start,
                                      gameplan_point goal, const gameplan_hpa_options* options, gameplan_path_result* out) {
    return guarded("gameplan_hpa_find_path", [&] {
        require(f != nullptr && h != nullptr && out != nullptr, "finder, hierarchy and out must not be NULL");
        require(h->hierarchy.built(), "the hierarchy is not built");
        const gameplan_hpa_options o = options ? *options : gameplan_hpa_options_default();
        require(std::isfinite(o.weight) && o.weight >= 1.0, "weight must be a finite number >= 1");
        path::HpaQueryOptions q;
        q.movement = h->hierarchy.movement();
        q.diagonal = h->hierarchy.diagonal();
        q.weight = o.weight;
        q.refine = o.refine != 0;
        q.smooth = o.smooth != 0;
        q.budget = budget_of(o.max_expansions, o.time_limit_seconds, o.max_memory_bytes);
        const Status st = f->finder.find_path(h->hierarchy, to_cpp(start), to_cpp(goal), q, f->path);
        fill_path(f->path, st, f->finder.stats().expanded, f->finder.budget_limit(), f->cells, out);
    });
}

// ---- graphs ------------------------------------------------------------------------------------------

gameplan_error gameplan_graph_load(const char* path, gameplan_graph** out) {
    return guarded("gameplan_graph_load", [&] {
        require(path != nullptr && out != nullptr, "path and out must not be NULL");
        auto g = std::make_unique<gameplan_graph>();
        g->wg.graph = io::load_graph(path);
        *out = g.release();
    });
}

gameplan_error gameplan_graph_builder_create(gameplan_graph_builder** out) {
    return guarded("gameplan_graph_builder_create", [&] {
        require(out != nullptr, "out must not be NULL");
        *out = new gameplan_graph_builder();
    });
}

void gameplan_graph_builder_destroy(gameplan_graph_builder* builder) { delete builder; }

gameplan_error gameplan_graph_builder_add_node(gameplan_graph_builder* b, const char* id, const gameplan_vec2* position,
                                               uint32_t* out) {
    return guarded("gameplan_graph_builder_add_node", [&] {
        require(b != nullptr && id != nullptr, "builder and id must not be NULL");
        path::GraphError error = path::GraphError::None;
        const path::GraphNode n = position ? b->builder.add_node(id, position->x, position->y, &error) : b->builder.add_node(id, &error);
        if (n == path::kNoGraphNode) raise(GAMEPLAN_ERROR_INVALID_ARGUMENT, "node '" + std::string(id) + "': " + std::string(path::describe(error)));
        if (out) *out = n;
    });
}

gameplan_error gameplan_graph_builder_add_edge(gameplan_graph_builder* b, uint32_t from, uint32_t to, double cost, int undirected) {
    return guarded("gameplan_graph_builder_add_edge", [&] {
        require(b != nullptr, "builder must not be NULL");
        const path::GraphError e = b->builder.add_edge(from, to, cost, undirected != 0);
        if (e != path::GraphError::None)
            raise(GAMEPLAN_ERROR_INVALID_ARGUMENT,
                  "edge " + std::to_string(from) + " -> " + std::to_string(to) + ": " + std::string(path::describe(e)));
    });
}

gameplan_error gameplan_graph_builder_build(const gameplan_graph_builder* b, gameplan_graph** out) {
    return guarded("gameplan_graph_builder_build", [&] {
        require(b != nullptr && out != nullptr, "builder and out must not be NULL");
        auto g = std::make_unique<gameplan_graph>();
        g->wg.graph = b->builder.build();
        *out = g.release();
    });
}

void gameplan_graph_destroy(gameplan_graph* graph) { delete graph; }
size_t gameplan_graph_node_count(const gameplan_graph* graph) { return graph ? graph->wg.graph.node_count() : 0; }
size_t gameplan_graph_arc_count(const gameplan_graph* graph) { return graph ? graph->wg.graph.arc_count() : 0; }

gameplan_error gameplan_graph_find_node(const gameplan_graph* graph, const char* id, uint32_t* out) {
    return guarded("gameplan_graph_find_node", [&] {
        require(graph != nullptr && id != nullptr && out != nullptr, "graph, id and out must not be NULL");
        const path::GraphNode n = graph->wg.graph.find(id);
        if (!graph->wg.graph.contains(n)) raise(GAMEPLAN_ERROR_NOT_FOUND, "no node with id '" + std::string(id) + "'");
        *out = n;
    });
}

const char* gameplan_graph_node_id(const gameplan_graph* graph, uint32_t node) {
    return graph && graph->wg.graph.contains(node) ? graph->wg.graph.id(node).c_str() : nullptr;
}

gameplan_error gameplan_graph_node_position(const gameplan_graph* graph, uint32_t node, gameplan_vec2* out) {
    return guarded("gameplan_graph_node_position", [&] {
        require(graph != nullptr && out != nullptr, "graph and out must not be NULL");
        require(graph->wg.graph.contains(node), "node index out of range");
        if (!graph->wg.graph.has_positions()) raise(GAMEPLAN_ERROR_NOT_FOUND, "the graph's nodes have no positions");
        const path::GraphPosition p = graph->wg.graph.position(node);
        *out = gameplan_vec2{p.x, p.y};
    });
}

gameplan_error gameplan_graph_save(const gameplan_graph* graph, const char* file) {
    return guarded("gameplan_graph_save", [&] {
        require(graph != nullptr && file != nullptr, "graph and path must not be NULL");
        io::save_graph(file, graph->wg.graph);
    });
}

gameplan_waypoint_options gameplan_waypoint_options_default(void) {
    return gameplan_waypoint_options{1, 8, GAMEPLAN_DIAGONAL_NO_CORNER_CUTTING, 0.0, 0, 0.0, 0};
}

gameplan_error gameplan_waypoint_graph_build(const gameplan_map* map, const gameplan_point* given, size_t given_count,
                                             const gameplan_waypoint_options* options, gameplan_graph** out) {
    return guarded("gameplan_waypoint_graph_build", [&] {
        require(map != nullptr && out != nullptr, "map and out must not be NULL");
        require(given != nullptr || given_count == 0, "given must not be NULL when given_count > 0");
        const gameplan_waypoint_options o = options ? *options : gameplan_waypoint_options_default();
        require(o.movement == 4 || o.movement == 8, "movement must be 4 or 8");
        require(o.diagonal >= GAMEPLAN_DIAGONAL_NEVER && o.diagonal <= GAMEPLAN_DIAGONAL_ALWAYS, "unknown diagonal rule");
        require(o.max_distance >= 0 && std::isfinite(o.max_distance), "max_distance must be finite and >= 0 (0 = any distance)");
        const path::GridMap& m = map->map;
        require(!m.empty(), "the map is empty");
        require(!m.has_terrain_costs(), "the map has terrain costs (line-of-sight lengths are defined on uniform maps)");
        std::vector<path::GridPoint> cells;
        for (size_t i = 0; i < given_count; ++i) {
            const path::GridPoint p = to_cpp(given[i]);
            if (!m.contains(p.x, p.y) || !m.passable(p))
                raise(GAMEPLAN_ERROR_INVALID_ARGUMENT, "given[" + std::to_string(i) + "] (" + std::to_string(p.x) + ", " +
                                                           std::to_string(p.y) + ") is " +
                                                           (m.contains(p.x, p.y) ? "a blocked cell" : "outside the map"));
            cells.push_back(p);
        }
        path::WaypointOptions w;
        w.corners = o.corners != 0;
        w.movement = o.movement == 4 ? path::Movement::Four : path::Movement::Eight;
        w.diagonal = static_cast<path::DiagonalRule>(static_cast<int>(o.diagonal));
        if (o.max_distance > 0) w.max_distance = o.max_distance;
        w.budget = budget_of(o.max_pairs, o.time_limit_seconds, o.max_memory_bytes);
        path::WaypointGraph wg;
        const Status s = path::build_waypoint_graph(m, cells, w, wg);
        if (s == Status::BudgetExhausted)
            raise(GAMEPLAN_ERROR_UNSUPPORTED, std::string("the build ran out of its ") +
                                                  (wg.limit == search::BudgetLimit::Expansions ? "max_pairs"
                                                   : wg.limit == search::BudgetLimit::Time     ? "time_limit_seconds"
                                                                                               : "max_memory_bytes") +
                                                  " budget (use max_distance or fewer waypoints)");
        if (s != Status::Found)
            raise(GAMEPLAN_ERROR_INVALID_ARGUMENT, "more than " + std::to_string(path::kMaxWaypoints) +
                                                       " waypoints (every pair is checked): set corners to 0 and give your own");
        auto g = std::make_unique<gameplan_graph>();
        g->wg = std::move(wg);
        *out = g.release();
    });
}

gameplan_graph_options gameplan_graph_options_default(void) { return gameplan_graph_options{0, 1.0, 0, 0.0, 0}; }

gameplan_error gameplan_graph_pathfinder_create(gameplan_graph_pathfinder** out) {
    return guarded("gameplan_graph_pathfinder_create", [&] {
        require(out != nullptr, "out must not be NULL");
        *out = new gameplan_graph_pathfinder();
    });
}

void gameplan_graph_pathfinder_destroy(gameplan_graph_pathfinder* finder) { delete finder; }

extern "C++" {  // C++ helpers inside the extern "C" block: C++ linkage
namespace {
// Node indices of `g`, `count` of them at `nodes` (`what` names them in the error).
std::span<const path::GraphNode> graph_nodes_of(const gameplan_graph* g, const uint32_t* nodes, size_t count, const char* what) {
    require(g != nullptr, "graph must not be NULL");
    if (count == 0 || nodes == nullptr) raise(GAMEPLAN_ERROR_INVALID_ARGUMENT, std::string(what) + " must hold at least one node");
    for (size_t i = 0; i < count; ++i)
        if (!g->wg.graph.contains(nodes[i])) raise(GAMEPLAN_ERROR_INVALID_ARGUMENT, std::string(what) + " must be node indices of the graph");
    return {nodes, count};
}

// A graph query's options (NULL: the defaults), for graph and waypoint searches.
path::GraphSearchOptions graph_search_options(const gameplan_graph_options* options) {
    const gameplan_graph_options o = options ? *options : gameplan_graph_options_default();
    require(std::isfinite(o.weight) && o.weight >= 1.0, "weight must be a finite number >= 1");
    path::GraphSearchOptions out;
    if (o.dijkstra != 0) out.heuristic = path::GraphHeuristic::Zero;
    out.weight = o.weight;
    out.budget = budget_of(o.max_expansions, o.time_limit_seconds, o.max_memory_bytes);
    return out;
}

path::GraphSearchOptions graph_options_of(const gameplan_graph* g, uint32_t start, uint32_t goal, const gameplan_graph_options* options) {
    require(g != nullptr, "graph must not be NULL");
    require(g->wg.graph.contains(start) && g->wg.graph.contains(goal), "start and goal must be node indices of the graph");
    return graph_search_options(options);
}

void fill_graph_path(gameplan_graph_pathfinder& f, Status status, gameplan_graph_path_result* out) {
    const bool found = status == Status::Found && !f.path.nodes.empty();
    out->status = to_c(status);
    out->cost = status == Status::Found ? f.path.cost : 0.0;
    out->nodes = found ? f.path.nodes.data() : nullptr;
    out->node_count = found ? f.path.nodes.size() : 0;
    out->expanded = f.finder.stats().expanded;
    out->limit = to_c(status == Status::BudgetExhausted ? f.finder.budget_limit() : search::BudgetLimit::None);
}
}  // namespace
}  // extern "C++"

gameplan_error gameplan_graph_find_path(gameplan_graph_pathfinder* f, const gameplan_graph* g, uint32_t start, uint32_t goal,
                                        const gameplan_graph_options* options, gameplan_graph_path_result* out) {
    return guarded("gameplan_graph_find_path", [&] {
        require(f != nullptr && out != nullptr, "pathfinder and out must not be NULL");
        const path::GraphSearchOptions o = graph_options_of(g, start, goal, options);
        fill_graph_path(*f, f->finder.find_path(g->wg.graph, start, goal, o, f->path), out);
    });
}

gameplan_error gameplan_graph_find_nearest(gameplan_graph_pathfinder* f, const gameplan_graph* g, const uint32_t* sources,
                                           size_t source_count, const uint32_t* goals, size_t goal_count,
                                           const gameplan_graph_options* options, gameplan_graph_path_result* out) {
    return guarded("gameplan_graph_find_nearest", [&] {
        require(f != nullptr && out != nullptr, "pathfinder and out must not be NULL");
        const auto from = graph_nodes_of(g, sources, source_count, "sources");
        const auto to = graph_nodes_of(g, goals, goal_count, "goals");
        const path::GraphSearchOptions o = graph_options_of(g, from[0], to[0], options);
        if (f->finder.begin(g->wg.graph, from, to, o) == Status::InProgress) (void)f->finder.step();
        fill_graph_path(*f, f->finder.finish(f->path), out);
    });
}

gameplan_error gameplan_graph_distance_field(gameplan_graph_pathfinder* f, const gameplan_graph* g, const uint32_t* sources,
                                             size_t source_count, const gameplan_graph_options* options, double* distances,
                                             gameplan_status* status) {
    return guarded("gameplan_graph_distance_field", [&] {
        require(f != nullptr && distances != nullptr, "pathfinder and distances must not be NULL");
        const auto from = graph_nodes_of(g, sources, source_count, "sources");
        const gameplan_graph_options o = options ? *options : gameplan_graph_options_default();
        const Status st = path::distance_field(g->wg.graph, from, f->finder, f->field,
                                               budget_of(o.max_expansions, o.time_limit_seconds, o.max_memory_bytes));
        std::copy(f->field.begin(), f->field.end(), distances);
        if (status) *status = to_c(st);
    });
}

gameplan_error gameplan_graph_begin(gameplan_graph_pathfinder* f, const gameplan_graph* g, uint32_t start, uint32_t goal,
                                    const gameplan_graph_options* options, gameplan_status* out) {
    return guarded("gameplan_graph_begin", [&] {
        require(f != nullptr && out != nullptr, "pathfinder and out must not be NULL");
        const path::GraphSearchOptions o = graph_options_of(g, start, goal, options);
        *out = to_c(f->finder.begin(g->wg.graph, start, goal, o));
    });
}

gameplan_error gameplan_graph_step(gameplan_graph_pathfinder* f, uint64_t slice, gameplan_status* out) {
    return guarded("gameplan_graph_step", [&] {
        require(f != nullptr && out != nullptr, "pathfinder and out must not be NULL");
        require(slice > 0, "the slice must be at least 1 expansion");
        *out = to_c(f->finder.step(slice));
    });
}

gameplan_error gameplan_graph_finish(gameplan_graph_pathfinder* f, gameplan_graph_path_result* out) {
    return guarded("gameplan_graph_finish", [&] {
        require(f != nullptr && out != nullptr, "pathfinder and out must not be NULL");
        fill_graph_path(*f, f->finder.finish(f->path), out);
    });
}

gameplan_error gameplan_graph_node_cell(const gameplan_graph* graph, uint32_t node, gameplan_point* out) {
    return guarded("gameplan_graph_node_cell", [&] {
        require(graph != nullptr && out != nullptr, "graph and out must not be NULL");
        require(graph->wg.graph.contains(node), "node index out of range");
        if (graph->wg.cells.size() != graph->wg.graph.node_count())
            raise(GAMEPLAN_ERROR_NOT_FOUND, "the graph was not built by gameplan_waypoint_graph_build: its nodes have no cells");
        const path::GridPoint c = graph->wg.cells[node];
        *out = gameplan_point{c.x, c.y};
    });
}

gameplan_error gameplan_waypoint_pathfinder_create(gameplan_waypoint_pathfinder** out) {
    return guarded("gameplan_waypoint_pathfinder_create", [&] {
        require(out != nullptr, "out must not be NULL");
        *out = new gameplan_waypoint_pathfinder();
    });
}

void gameplan_waypoint_pathfinder_destroy(gameplan_waypoint_pathfinder* finder) { delete finder; }

extern "C++" {  // C++ helpers inside the extern "C" block: C++ linkage
namespace {
void fill_waypoint_path(gameplan_waypoint_pathfinder& f, Status status, gameplan_path_result* out) {
    fill_path(f.path, status, f.finder.stats().expanded, f.finder.budget_limit(), f.cells, out);
}
}  // namespace
}  // extern "C++"


gameplan_error gameplan_waypoint_find_path(gameplan_waypoint_pathfinder* f, const gameplan_graph* g, const gameplan_map* map,
                                           gameplan_point start, gameplan_point goal, const gameplan_graph_options* options,
                                           gameplan_path_result* out) {
    return guarded("gameplan_waypoint_find_path", [&] {
        require(f != nullptr && g != nullptr && map != nullptr && out != nullptr, "pathfinder, graph, map and out must not be NULL");
        const path::GraphSearchOptions o = graph_search_options(options);
        fill_waypoint_path(*f, f->finder.find_path(g->wg, map->map, to_cpp(start), to_cpp(goal), o, f->path), out);
    });
}

gameplan_error gameplan_waypoint_begin(gameplan_waypoint_pathfinder* f, const gameplan_graph* g, const gameplan_map* map,
                                       gameplan_point start, gameplan_point goal, const gameplan_graph_options* options,
                                       gameplan_status* out) {
    return guarded("gameplan_waypoint_begin", [&] {
        require(f != nullptr && g != nullptr && map != nullptr && out != nullptr, "pathfinder, graph, map and out must not be NULL");
        *out = to_c(f->finder.begin(g->wg, map->map, to_cpp(start), to_cpp(goal), graph_search_options(options)));
    });
}

gameplan_error gameplan_waypoint_step(gameplan_waypoint_pathfinder* f, uint64_t slice, gameplan_status* out) {
    return guarded("gameplan_waypoint_step", [&] {
        require(f != nullptr && out != nullptr, "pathfinder and out must not be NULL");
        require(slice > 0, "the slice must be at least 1 expansion");
        *out = to_c(f->finder.step(slice));
    });
}

gameplan_error gameplan_waypoint_finish(gameplan_waypoint_pathfinder* f, gameplan_path_result* out) {
    return guarded("gameplan_waypoint_finish", [&] {
        require(f != nullptr && out != nullptr, "pathfinder and out must not be NULL");
        fill_waypoint_path(*f, f->finder.finish(f->path), out);
    });
}

// ---- navigation meshes -------------------------------------------------------------------------------

gameplan_error gameplan_navmesh_build(const gameplan_map* map, gameplan_navmesh** out) {
    return guarded("gameplan_navmesh_build", [&] {
        require(map != nullptr && out != nullptr, "map and out must not be NULL");
        require(!map->map.has_terrain_costs(), "the map has terrain costs (any-angle lengths are defined on uniform maps)");
        auto result = std::make_unique<gameplan_navmesh>();
        require(result->mesh.build(map->map) == path::NavmeshBuild::Ok, "the map is empty");
        *out = result.release();
    });
}

void gameplan_navmesh_destroy(gameplan_navmesh* mesh) { delete mesh; }
size_t gameplan_navmesh_polygon_count(const gameplan_navmesh* mesh) { return mesh ? mesh->mesh.polygon_count() : 0; }
size_t gameplan_navmesh_memory_bytes(const gameplan_navmesh* mesh) { return mesh ? mesh->mesh.memory_bytes() : 0; }

gameplan_error gameplan_navmesh_hierarchy_build(const gameplan_navmesh* mesh, double time_limit_seconds, uint64_t max_memory_bytes,
                                                gameplan_navmesh_hierarchy** out) {
    return guarded("gameplan_navmesh_hierarchy_build", [&] {
        require(mesh != nullptr && out != nullptr, "mesh and out must not be NULL");
        const search::Budget b = budget_of(0, time_limit_seconds, max_memory_bytes);
        auto result = std::make_unique<gameplan_navmesh_hierarchy>();
        const path::JpsSupport built = result->hierarchy.build(mesh->mesh, b.max_memory_bytes, b.deadline);
        if (built != path::JpsSupport::Ok) raise(GAMEPLAN_ERROR_UNSUPPORTED, "navmesh hierarchy: " + std::string(path::describe(built)));
        *out = result.release();
    });
}

void gameplan_navmesh_hierarchy_destroy(gameplan_navmesh_hierarchy* hierarchy) { delete hierarchy; }
size_t gameplan_navmesh_hierarchy_memory_bytes(const gameplan_navmesh_hierarchy* hierarchy) {
    return hierarchy ? hierarchy->hierarchy.memory_bytes() : 0;
}

gameplan_navmesh_options gameplan_navmesh_options_default(void) { return gameplan_navmesh_options{0, 0.0, 0}; }

gameplan_error gameplan_navmesh_pathfinder_create(gameplan_navmesh_pathfinder** out) {
    return guarded("gameplan_navmesh_pathfinder_create", [&] {
        require(out != nullptr, "out must not be NULL");
        *out = new gameplan_navmesh_pathfinder();
    });
}

void gameplan_navmesh_pathfinder_destroy(gameplan_navmesh_pathfinder* finder) { delete finder; }

extern "C++" {  // C++ helpers inside the extern "C" block: C++ linkage
namespace {
path::NavmeshSearchOptions navmesh_options_of(const gameplan_navmesh_options* options) {
    const gameplan_navmesh_options o = options ? *options : gameplan_navmesh_options_default();
    path::NavmeshSearchOptions out;
    out.budget = budget_of(o.max_expansions, o.time_limit_seconds, o.max_memory_bytes);
    return out;
}

path::NavPoint nav_point_of(gameplan_vec2 p) {
    require(std::isfinite(p.x) && std::isfinite(p.y), "points must be finite");
    return path::NavPoint{p.x, p.y};
}

// The route of `f`'s last search into `out`, with the expansions and the limit of the tier that ran it.
void fill_navmesh_path(gameplan_navmesh_pathfinder& f, Status status, gameplan_navmesh_path_result* out) {
    f.points.clear();
    if (status == Status::Found)
        for (const path::NavPoint& q : f.route.points) f.points.push_back(gameplan_vec2{q.x, q.y});
    const search::BudgetLimit limit = f.on_hierarchy ? f.hierarchy_finder.budget_limit() : f.mesh_finder.budget_limit();
    out->status = to_c(status);
    out->cost = status == Status::Found ? f.route.cost : 0.0;
    out->points = f.points.empty() ? nullptr : f.points.data();
    out->point_count = f.points.size();
    out->expanded = f.on_hierarchy ? f.hierarchy_finder.stats().expanded : f.mesh_finder.stats().expanded;
    out->limit = to_c(status == Status::BudgetExhausted ? limit : search::BudgetLimit::None);
}
}  // namespace
}  // extern "C++"

gameplan_error gameplan_navmesh_begin(gameplan_navmesh_pathfinder* f, const gameplan_navmesh* mesh, gameplan_vec2 start,
                                      gameplan_vec2 goal, const gameplan_navmesh_options* options, gameplan_status* out) {
    return guarded("gameplan_navmesh_begin", [&] {
        require(f != nullptr && mesh != nullptr && out != nullptr, "pathfinder, mesh and out must not be NULL");
        const path::NavmeshSearchOptions o = navmesh_options_of(options);
        f->on_hierarchy = false;
        *out = to_c(f->mesh_finder.begin(mesh->mesh, nav_point_of(start), nav_point_of(goal), o));
    });
}

gameplan_error gameplan_navmesh_hierarchy_begin(gameplan_navmesh_pathfinder* f, const gameplan_navmesh_hierarchy* h,
                                                gameplan_vec2 start, gameplan_vec2 goal, const gameplan_navmesh_options* options,
                                                gameplan_status* out) {
    return guarded("gameplan_navmesh_hierarchy_begin", [&] {
        require(f != nullptr && h != nullptr && out != nullptr, "pathfinder, hierarchy and out must not be NULL");
        const path::NavmeshSearchOptions o = navmesh_options_of(options);
        f->on_hierarchy = true;
        *out = to_c(f->hierarchy_finder.begin(h->hierarchy, nav_point_of(start), nav_point_of(goal), o));
    });
}

gameplan_error gameplan_navmesh_step(gameplan_navmesh_pathfinder* f, uint64_t slice, gameplan_status* out) {
    return guarded("gameplan_navmesh_step", [&] {
        require(f != nullptr && out != nullptr, "pathfinder and out must not be NULL");
        require(slice > 0, "the slice must be at least 1 expansion");
        *out = to_c(f->on_hierarchy ? f->hierarchy_finder.step(slice) : f->mesh_finder.step(slice));
    });
}

gameplan_error gameplan_navmesh_finish(gameplan_navmesh_pathfinder* f, gameplan_navmesh_path_result* out) {
    return guarded("gameplan_navmesh_finish", [&] {
        require(f != nullptr && out != nullptr, "pathfinder and out must not be NULL");
        fill_navmesh_path(*f, f->on_hierarchy ? f->hierarchy_finder.finish(f->route) : f->mesh_finder.finish(f->route), out);
    });
}

gameplan_error gameplan_navmesh_find_path(gameplan_navmesh_pathfinder* f, const gameplan_navmesh* mesh, gameplan_vec2 start,
                                          gameplan_vec2 goal, const gameplan_navmesh_options* options,
                                          gameplan_navmesh_path_result* out) {
    return guarded("gameplan_navmesh_find_path", [&] {
        require(f != nullptr && mesh != nullptr && out != nullptr, "pathfinder, mesh and out must not be NULL");
        const path::NavmeshSearchOptions o = navmesh_options_of(options);
        f->on_hierarchy = false;
        fill_navmesh_path(*f, f->mesh_finder.find_path(mesh->mesh, nav_point_of(start), nav_point_of(goal), o, f->route), out);
    });
}

gameplan_error gameplan_navmesh_hierarchy_find_path(gameplan_navmesh_pathfinder* f, const gameplan_navmesh_hierarchy* h,
                                                    gameplan_vec2 start, gameplan_vec2 goal,
                                                    const gameplan_navmesh_options* options, gameplan_navmesh_path_result* out) {
    return guarded("gameplan_navmesh_hierarchy_find_path", [&] {
        require(f != nullptr && h != nullptr && out != nullptr, "pathfinder, hierarchy and out must not be NULL");
        const path::NavmeshSearchOptions o = navmesh_options_of(options);
        f->on_hierarchy = true;
        fill_navmesh_path(*f, f->hierarchy_finder.find_path(h->hierarchy, nav_point_of(start), nav_point_of(goal), o, f->route),
                          out);
    });
}

// ---- crowds ------------------------------------------------------------------------------------------

gameplan_crowd_options gameplan_crowd_options_default(void) {
    return gameplan_crowd_options{0, 0.0, 0, 0.0, 0, std::uint64_t{2} << 30};
}

gameplan_error gameplan_crowd_solver_create(gameplan_crowd_solver** out) {
    return guarded("gameplan_crowd_solver_create", [&] {
        require(out != nullptr, "out must not be NULL");
        *out = new gameplan_crowd_solver();
    });
}

void gameplan_crowd_solver_destroy(gameplan_crowd_solver* solver) { delete solver; }

gameplan_error gameplan_crowd_solve(gameplan_crowd_solver* c, const gameplan_map* map, const gameplan_point* starts,
                                    const gameplan_point* goals, size_t agent_count, const gameplan_crowd_options* options,
                                    gameplan_crowd_result* out) {
    return guarded("gameplan_crowd_solve", [&] {
        require(c != nullptr && map != nullptr && out != nullptr, "solver, map and out must not be NULL");
        require((starts != nullptr && goals != nullptr) || agent_count == 0, "starts and goals must not be NULL");
        const gameplan_crowd_options o = options ? *options : gameplan_crowd_options_default();
        require(std::isfinite(o.time_limit_seconds) && o.time_limit_seconds >= 0, "time_limit_seconds must be >= 0");
        require(std::isfinite(o.improve_seconds) && o.improve_seconds >= 0, "improve_seconds must be >= 0");
        path::CrowdOptions co;
        co.budget = budget_of(o.max_expansions, o.time_limit_seconds, 0);  // (the memory cap: max_memory_bytes below)
        co.anytime = o.anytime != 0;
        if (o.improve_seconds > 0 && o.improve_seconds < 1e9) co.improve_for = seconds(o.improve_seconds);
        co.seed = o.seed;
        co.max_memory_bytes = o.max_memory_bytes > SIZE_MAX ? SIZE_MAX : static_cast<std::size_t>(o.max_memory_bytes);
        // gameplan_point and path::GridPoint are both two int32 (x, y): the arrays are read in place.
        static_assert(sizeof(gameplan_point) == sizeof(path::GridPoint) && alignof(gameplan_point) == alignof(path::GridPoint));
        const std::span<const path::GridPoint> s(reinterpret_cast<const path::GridPoint*>(starts), agent_count);
        const std::span<const path::GridPoint> g(reinterpret_cast<const path::GridPoint*>(goals), agent_count);
        const Status st = c->solver.solve(map->map, s, g, co, c->solution);
        const bool found = st == Status::Found;
        c->cells.clear();
        if (found)
            for (const path::GridPoint& p : c->solution.cells) c->cells.push_back(gameplan_point{p.x, p.y});
        *out = gameplan_crowd_result{to_c(st),
                                     found ? c->solution.agents : 0,
                                     found ? c->solution.makespan : 0,
                                     found ? c->solution.sum_of_costs : 0,
                                     st == Status::InvalidQuery ? 0 : c->solver.lower_bound(),
                                     found && !c->solution.costs.empty() ? c->solution.costs.data() : nullptr,
                                     c->cells.empty() ? nullptr : c->cells.data(),
                                     c->solver.stats().search.expanded,
                                     to_c(c->solver.budget_limit()),
                                     c->solver.unreachable_agent()};
    });
}

// ---- movement ----------------------------------------------------------------------------------------

gameplan_movement_options gameplan_movement_options_default(void) {
    const path::MovementOptions d;
    return gameplan_movement_options{8,
                                     GAMEPLAN_DIAGONAL_NO_CORNER_CUTTING,
                                     d.path_weight,
                                     d.smooth ? 1 : 0,
                                     d.path_budget,
                                     d.lanes,
                                     d.search_budget,
                                     d.claim_cells,
                                     d.claim_penalty,
                                     d.still_penalty,
                                     d.claim_weight,
                                     d.detour_after,
                                     d.give_up_ticks,
                                     d.still_limit,
                                     GAMEPLAN_RESOLVER_BUILTIN};
}

extern "C++" {
namespace {
gameplan_error create_movement(const char* who, const gameplan_map* map, const gameplan_movement_options* options,
                               const gameplan_layer* const* layers, const double* weights, size_t layer_count, gameplan_movement** out) {
    return guarded(who, [&] {
        require(map != nullptr && out != nullptr, "map and out must not be NULL");
        std::vector<path::CostLayer> list = cost_layers_of(layers, weights, layer_count, &map->map);
        const gameplan_movement_options o = options ? *options : gameplan_movement_options_default();
        require(o.movement == 4 || o.movement == 8, "movement must be 4 or 8");
        require(o.diagonal >= GAMEPLAN_DIAGONAL_NEVER && o.diagonal <= GAMEPLAN_DIAGONAL_ALWAYS, "unknown diagonal rule");
        require(o.resolver == GAMEPLAN_RESOLVER_BUILTIN || o.resolver == GAMEPLAN_RESOLVER_CROWD, "unknown resolver");
        path::MovementOptions m;
        m.movement = o.movement == 4 ? path::Movement::Four : path::Movement::Eight;
        m.diagonal = static_cast<path::DiagonalRule>(static_cast<int>(o.diagonal));
        m.path_weight = o.path_weight;
        m.smooth = o.smooth != 0;
        m.path_budget = o.path_budget;
        m.lanes = o.lanes == 0 ? 1 : o.lanes;
        m.search_budget = o.search_budget;
        m.claim_cells = o.claim_cells;
        m.claim_penalty = o.claim_penalty;
        m.still_penalty = o.still_penalty;
        m.claim_weight = o.claim_weight;
        m.detour_after = o.detour_after;
        m.give_up_ticks = o.give_up_ticks;
        m.still_limit = o.still_limit;
        m.resolver = o.resolver == GAMEPLAN_RESOLVER_CROWD ? path::StepResolver::Crowd : path::StepResolver::Builtin;
        *out = new gameplan_movement(map->map, m, std::move(list));  // std::invalid_argument for options out of range
    });
}
}  // namespace
}  // extern "C++"

gameplan_error gameplan_movement_create(const gameplan_map* map, const gameplan_movement_options* options, gameplan_movement** out) {
    return create_movement("gameplan_movement_create", map, options, nullptr, nullptr, 0, out);
}

gameplan_error gameplan_movement_create_with_layers(const gameplan_map* map, const gameplan_movement_options* options,
                                                    const gameplan_layer* const* layers, const double* weights, size_t layer_count,
                                                    gameplan_movement** out) {
    return create_movement("gameplan_movement_create_with_layers", map, options, layers, weights, layer_count, out);
}

void gameplan_movement_destroy(gameplan_movement* movement) { delete movement; }

gameplan_error gameplan_movement_set_islands(gameplan_movement* m, const gameplan_islands* islands) {
    return guarded("gameplan_movement_set_islands", [&] {
        require(m != nullptr, "movement is NULL");
        m->system.set_islands(square_islands(islands, "the movement system"));
    });
}

gameplan_error gameplan_movement_set_restart_on_passability_change(gameplan_movement* m, int restart) {
    return guarded("gameplan_movement_set_restart_on_passability_change", [&] {
        require(m != nullptr, "movement is NULL");
        m->system.set_restart_on_passability_change(restart != 0);
    });
}

gameplan_error gameplan_movement_reserve(gameplan_movement* m, size_t units, size_t path_cells) {
    return guarded("gameplan_movement_reserve", [&] {
        require(m != nullptr, "movement is NULL");
        require(units <= (std::size_t{1} << 24) && path_cells <= (std::size_t{1} << 26), "reserve sizes are too large");
        m->system.reserve(units, path_cells);
        m->route.reserve(path_cells);
    });
}

namespace {
void require_unit(const gameplan_movement* m, uint32_t unit) {
    require(m != nullptr, "movement is NULL");
    if (unit >= m->system.id_bound() || m->system.position(unit).x < 0)
        raise(GAMEPLAN_ERROR_NOT_FOUND, "no unit with id " + std::to_string(unit));
}
}  // namespace

gameplan_error gameplan_movement_add_unit(gameplan_movement* m, gameplan_point cell, uint32_t* out) {
    return guarded("gameplan_movement_add_unit", [&] {
        require(m != nullptr && out != nullptr, "movement and out must not be NULL");
        const path::UnitId id = m->system.add_unit(to_cpp(cell));
        if (id == path::kNoUnit)
            raise(GAMEPLAN_ERROR_INVALID_ARGUMENT, "(" + std::to_string(cell.x) + ", " + std::to_string(cell.y) +
                                                       ") is off the map, blocked or taken by another unit");
        *out = id;
    });
}

gameplan_error gameplan_movement_remove_unit(gameplan_movement* m, uint32_t unit) {
    return guarded("gameplan_movement_remove_unit", [&] {
        require(m != nullptr, "movement is NULL");
        if (!m->system.remove_unit(unit)) raise(GAMEPLAN_ERROR_NOT_FOUND, "no unit with id " + std::to_string(unit));
    });
}

gameplan_error gameplan_movement_move_to(gameplan_movement* m, uint32_t unit, gameplan_destination d) {
    return guarded("gameplan_movement_move_to", [&] {
        require_unit(m, unit);
        (void)m->system.move_to(unit, path::Destination{to_cpp(d.cell), to_cpp(d.centre), d.radius});
    });
}

gameplan_error gameplan_movement_stop(gameplan_movement* m, uint32_t unit) {
    return guarded("gameplan_movement_stop", [&] {
        require_unit(m, unit);
        (void)m->system.stop(unit);
    });
}

gameplan_error gameplan_movement_set_anchored(gameplan_movement* m, uint32_t unit, int anchored) {
    return guarded("gameplan_movement_set_anchored", [&] {
        require_unit(m, unit);
        (void)m->system.set_anchored(unit, anchored != 0);
    });
}

gameplan_error gameplan_movement_update(gameplan_movement* m) {
    return guarded("gameplan_movement_update", [&] {
        require(m != nullptr, "movement is NULL");
        m->system.update();
    });
}

gameplan_error gameplan_movement_unit_info(const gameplan_movement* m, uint32_t unit, gameplan_unit_info* out) {
    return guarded("gameplan_movement_unit_info", [&] {
        require(out != nullptr, "out is NULL");
        require_unit(m, unit);
        const path::MovementSystem& s = m->system;
        auto& route = const_cast<gameplan_movement*>(m)->route;  // scratch owned by the system
        route.clear();
        for (const path::GridPoint& p : s.remaining_route(unit)) route.push_back(gameplan_point{p.x, p.y});
        const path::Destination d = s.destination(unit);
        const path::GridPoint pos = s.position(unit), prev = s.previous_position(unit);
        *out = gameplan_unit_info{gameplan_point{pos.x, pos.y},
                                  gameplan_point{prev.x, prev.y},
                                  static_cast<gameplan_unit_status>(static_cast<int>(s.status(unit))),
                                  static_cast<gameplan_move_failure>(static_cast<int>(s.failure(unit))),
                                  gameplan_destination{{d.cell.x, d.cell.y}, {d.centre.x, d.centre.y}, d.radius},
                                  route.empty() ? nullptr : route.data(),
                                  route.size(),
                                  s.still_ticks(unit),
                                  s.anchored(unit) ? 1 : 0};
    });
}

gameplan_point gameplan_movement_position(const gameplan_movement* m, uint32_t unit) {
    if (!m) return gameplan_point{-1, -1};
    const path::GridPoint p = m->system.position(unit);
    return gameplan_point{p.x, p.y};
}

gameplan_unit_status gameplan_movement_status(const gameplan_movement* m, uint32_t unit) {
    return m ? static_cast<gameplan_unit_status>(static_cast<int>(m->system.status(unit))) : GAMEPLAN_UNIT_IDLE;
}

uint32_t gameplan_movement_occupant(const gameplan_movement* m, gameplan_point cell) {
    return m ? m->system.occupant(to_cpp(cell)) : UINT32_MAX;
}

size_t gameplan_movement_unit_count(const gameplan_movement* m) { return m ? m->system.unit_count() : 0; }
size_t gameplan_movement_id_bound(const gameplan_movement* m) { return m ? m->system.id_bound() : 0; }

gameplan_error gameplan_movement_get_stats(const gameplan_movement* m, gameplan_movement_stats* out) {
    return guarded("gameplan_movement_get_stats", [&] {
        require(m != nullptr && out != nullptr, "movement and out must not be NULL");
        const path::MovementStats& st = m->system.stats();
        *out = gameplan_movement_stats{st.ticks, st.steps, st.waits, st.detours, st.pushes, st.path_requests,
                                       st.paths, st.arrivals, st.failures, st.jams};
    });
}

}  // extern "C"
