// The C API (include/gameplan/c/gameplan.h) over the C++ library. Every entry point catches every
// exception and turns it into a gameplan_error plus a per-thread message.
#include <gameplan/c/gameplan.h>

#include <gameplan/config.hpp>
#include <gameplan/goap/agent.hpp>
#include <gameplan/goap/agent_batch.hpp>
#include <gameplan/goap/behaviour.hpp>
#include <gameplan/goap/domain.hpp>
#include <gameplan/goap/planner.hpp>
#include <gameplan/io/domain_file.hpp>
#include <gameplan/io/load_error.hpp>
#include <gameplan/io/movingai.hpp>
#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/grid_search.hpp>
#include <gameplan/path/jps.hpp>
#include <gameplan/path/request_queue.hpp>

#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <memory>
#include <new>
#include <optional>
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
    } catch (const std::bad_alloc&) {
        return fail(GAMEPLAN_ERROR_OUT_OF_MEMORY, std::string(function) + ": out of memory");
    } catch (const std::exception& e) {
        return fail(GAMEPLAN_ERROR_INTERNAL, std::string(function) + ": " + e.what());
    } catch (...) {
        return fail(GAMEPLAN_ERROR_INTERNAL, std::string(function) + ": unknown error");
    }
}

gameplan_status to_c(Status s) noexcept { return static_cast<gameplan_status>(static_cast<int>(s)); }

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

struct gameplan_pathfinder {
    gameplan_algorithm algorithm;
    path::GridPathfinder astar;
    path::JpsPathfinder jps;
    std::vector<gameplan_point> cells;
    path::GridPath path;
};

struct gameplan_request_queue {
    path::PathRequestQueue queue;
    path::PathResult taken;
    std::vector<gameplan_point> cells;
    gameplan_request_queue(const path::GridMap& map, std::uint32_t lanes)
        : queue(map, path::QueueOptions{lanes == 0 ? 1u : lanes, 0, true}) {}
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

goap::PlanOptions plan_options_of(const gameplan_plan_options* o) {
    goap::PlanOptions out;
    if (!o) return out;
    require(o->direction == GAMEPLAN_BACKWARD || o->direction == GAMEPLAN_FORWARD, "direction must be GAMEPLAN_BACKWARD or GAMEPLAN_FORWARD");
    out.direction = o->direction == GAMEPLAN_FORWARD ? goap::Direction::Forward : goap::Direction::Backward;
    if (o->max_expansions > 0) out.max_expansions = o->max_expansions;
    require(!(o->time_limit_seconds < 0) && !std::isnan(o->time_limit_seconds), "time_limit_seconds must be >= 0");
    if (o->time_limit_seconds > 0 && o->time_limit_seconds < 1e9)
        out.deadline = std::chrono::steady_clock::now() +
                       std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(o->time_limit_seconds));
    return out;
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
    if (o->max_expansions > 0) out.budget.max_expansions = o->max_expansions;
    return out;
}

void fill_path(const path::GridPath& path, Status status, std::uint64_t expanded, std::vector<gameplan_point>& cells,
               gameplan_path_result* out) {
    cells.clear();
    for (const path::GridPoint& c : path.cells) cells.push_back(gameplan_point{c.x, c.y});
    out->status = to_c(status);
    out->cost = status == Status::Found ? path.cost : 0.0;
    out->cells = cells.empty() ? nullptr : cells.data();
    out->cell_count = cells.size();
    out->expanded = expanded;
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

gameplan_plan_options gameplan_plan_options_default(void) { return gameplan_plan_options{GAMEPLAN_BACKWARD, 0, 0.0}; }

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
        const goap::PlanResult r = p->planner.plan(p->start, p->goal, plan_options_of(options));
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
        const goap::PlanResult r = p->planner.plan(f.start, *goal, plan_options_of(options));
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
        require(params->direction == GAMEPLAN_BACKWARD || params->direction == GAMEPLAN_FORWARD, "unknown direction");
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
            goal.priority = g.priority;
            p.goals.push_back(std::move(goal));
        }
        if (params->use_domain_goals)
            for (const goap::Goal& g : s->domain->file.goals) p.goals.push_back(goap::AgentGoal::from(g));
        p.state = s->domain->file.start;
        if (params->private_state)
            for (std::size_t a = 0; a < d.atom_count(); ++a)
                p.state.set(goap::AtomId(static_cast<std::uint32_t>(a)), params->private_state[a] != 0);
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
    return gameplan_path_options{8, GAMEPLAN_DIAGONAL_NO_CORNER_CUTTING, 1.0, 0};
}

gameplan_error gameplan_pathfinder_create(gameplan_algorithm algorithm, gameplan_pathfinder** out) {
    return guarded("gameplan_pathfinder_create", [&] {
        require(out != nullptr, "out must not be NULL");
        require(algorithm == GAMEPLAN_ASTAR || algorithm == GAMEPLAN_DIJKSTRA || algorithm == GAMEPLAN_JPS, "unknown algorithm");
        auto f = std::make_unique<gameplan_pathfinder>();
        f->algorithm = algorithm;
        *out = f.release();
    });
}

void gameplan_pathfinder_destroy(gameplan_pathfinder* finder) { delete finder; }

namespace {
path::GridSearchOptions finder_options(const gameplan_pathfinder* f, const gameplan_map* map, const gameplan_path_options* options) {
    require(f != nullptr && map != nullptr, "pathfinder and map must not be NULL");
    path::GridSearchOptions o = path_options_of(options);
    if (f->algorithm == GAMEPLAN_DIJKSTRA) o.heuristic = path::Heuristic::Zero;
    if (f->algorithm == GAMEPLAN_JPS) {
        const path::JpsSupport support = path::check_jps_support(map->map, o);
        if (support != path::JpsSupport::Ok) raise(GAMEPLAN_ERROR_UNSUPPORTED, "JPS: " + std::string(path::describe(support)));
    }
    return o;
}
}  // namespace

gameplan_error gameplan_find_path(gameplan_pathfinder* f, const gameplan_map* map, gameplan_point start, gameplan_point goal,
                                  const gameplan_path_options* options, gameplan_path_result* out) {
    return guarded("gameplan_find_path", [&] {
        require(out != nullptr, "out must not be NULL");
        const path::GridSearchOptions o = finder_options(f, map, options);
        Status s;
        std::uint64_t expanded;
        if (f->algorithm == GAMEPLAN_JPS) {
            s = f->jps.find_path(map->map, to_cpp(start), to_cpp(goal), o, f->path);
            expanded = f->jps.stats().expanded;
        } else {
            s = f->astar.find_path(map->map, to_cpp(start), to_cpp(goal), o, f->path);
            expanded = f->astar.stats().expanded;
        }
        fill_path(f->path, s, expanded, f->cells, out);
    });
}

gameplan_error gameplan_pathfinder_begin(gameplan_pathfinder* f, const gameplan_map* map, gameplan_point start,
                                         gameplan_point goal, const gameplan_path_options* options, gameplan_status* out) {
    return guarded("gameplan_pathfinder_begin", [&] {
        require(out != nullptr, "out must not be NULL");
        const path::GridSearchOptions o = finder_options(f, map, options);
        *out = to_c(f->algorithm == GAMEPLAN_JPS ? f->jps.begin(map->map, to_cpp(start), to_cpp(goal), o)
                                                 : f->astar.begin(map->map, to_cpp(start), to_cpp(goal), o));
    });
}

gameplan_error gameplan_pathfinder_step(gameplan_pathfinder* f, uint64_t slice, gameplan_status* out) {
    return guarded("gameplan_pathfinder_step", [&] {
        require(f != nullptr && out != nullptr, "pathfinder and out must not be NULL");
        require(slice > 0, "the slice must be at least 1 expansion");
        *out = to_c(f->algorithm == GAMEPLAN_JPS ? f->jps.step(slice) : f->astar.step(slice));
    });
}

gameplan_error gameplan_pathfinder_finish(gameplan_pathfinder* f, gameplan_path_result* out) {
    return guarded("gameplan_pathfinder_finish", [&] {
        require(f != nullptr && out != nullptr, "pathfinder and out must not be NULL");
        const Status s = f->algorithm == GAMEPLAN_JPS ? f->jps.finish(f->path) : f->astar.finish(f->path);
        fill_path(f->path, s, f->algorithm == GAMEPLAN_JPS ? f->jps.stats().expanded : f->astar.stats().expanded, f->cells, out);
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
        const path::PathHandle h = q->queue.submit(r);
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
        fill_path(q->taken.path, q->taken.status, q->taken.expanded, q->cells, out);
    });
}

gameplan_error gameplan_request_queue_cancel(gameplan_request_queue* q, gameplan_path_handle h) {
    return guarded("gameplan_request_queue_cancel", [&] {
        require(q != nullptr, "queue is NULL");
        if (!q->queue.cancel(path::PathHandle{h.index, h.generation})) raise(GAMEPLAN_ERROR_NOT_FOUND, "unknown request handle");
    });
}

size_t gameplan_request_queue_size(const gameplan_request_queue* q) { return q ? q->queue.size() : 0; }

}  // extern "C"
