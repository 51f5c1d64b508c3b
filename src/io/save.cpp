// Save files (io/save.hpp): the JSON writer and the checked reader.
#include <gameplan/io/save.hpp>

#include "json_document.hpp"
#include "json_locator.hpp"

#include <cctype>
#include <cmath>
#include <fstream>
#include <limits>
#include <utility>

namespace gameplan::io {

namespace {

using Json = nlohmann::ordered_json;
using detail::JsonPath;
using detail::operator/;
using detail::printable;

// ---- writing ----------------------------------------------------------------------------------------

Json number(double v) {
    if (std::isfinite(v)) return Json(v);
    return Json(std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
}
template <class T>
Json list(const std::vector<T>& v) {
    Json a = Json::array();
    for (const T& x : v) {
        if constexpr (std::is_same_v<T, double>) a.push_back(number(x));
        else a.push_back(x);
    }
    return a;
}
Json point(path::GridPoint p) { return Json::array({p.x, p.y}); }
Json world(const goap::SavedWorldState& s) { return Json{{"words", list(s.words)}, {"values", list(s.values)}}; }

Json stats_json(const goap::AgentStats& s) {
    Json j;
    j["replans"] = s.replans;
    j["replans_by_trigger"] = Json(std::vector<std::uint64_t>(s.replans_by_trigger.begin(), s.replans_by_trigger.end()));
    j["searches"] = s.searches;
    j["plans_found"] = s.plans_found;
    j["plans_failed"] = s.plans_failed;
    j["expanded"] = s.expanded;
    j["cache_hits"] = s.cache_hits;
    j["checks"] = s.checks;
    j["cost_calls"] = s.cost_calls;
    j["priority_calls"] = s.priority_calls;
    j["actions_started"] = s.actions_started;
    j["actions_succeeded"] = s.actions_succeeded;
    j["actions_failed"] = s.actions_failed;
    j["actions_aborted"] = s.actions_aborted;
    j["updates"] = s.updates;
    return j;
}

Json agent_json(const goap::AgentState& s) {
    Json j;
    j["name"] = s.name;
    j["type"] = s.type;
    j["goals"] = s.goals;
    j["budget"] = s.budget;
    j["direction"] = static_cast<unsigned>(s.direction);
    j["private_state"] = world(s.private_state);
    j["view"] = world(s.view);
    j["private_version"] = s.private_version;
    j["seen_world_version"] = s.seen_world_version;
    j["seen_private_version"] = s.seen_private_version;
    j["context_version"] = s.context_version;
    j["seen_context_version"] = s.seen_context_version;
    j["status"] = static_cast<unsigned>(s.status);
    j["idle_reason"] = static_cast<unsigned>(s.idle_reason);
    j["goal"] = s.goal;
    j["plan"] = s.plan;
    j["step"] = s.step;
    j["plan_cost"] = number(s.plan_cost);
    j["running"] = s.running;
    j["ticks_running"] = s.ticks_running;
    j["has_pending"] = s.has_pending;
    j["pending"] = static_cast<unsigned>(s.pending);
    j["pending_action"] = s.pending_action;
    j["abort_requested"] = s.abort_requested;
    j["replan_requested"] = s.replan_requested;
    j["dirty"] = s.dirty;
    j["abort_hook_pending"] = s.abort_hook_pending;
    j["abort_hook_action"] = s.abort_hook_action;
    j["abort_hook_reason"] = static_cast<unsigned>(s.abort_hook_reason);
    j["abort_hook_ticks"] = s.abort_hook_ticks;
    j["priorities"] = list(s.priorities);
    j["selecting"] = s.selecting;
    j["speculative"] = s.speculative;
    j["any_failed"] = s.any_failed;
    j["candidates"] = s.candidates;
    j["candidate"] = s.candidate;
    j["search_active"] = s.search_active;
    j["search_start"] = world(s.search_start);
    j["search_mask"] = s.search_mask;
    j["search_enabled"] = list(s.search_enabled);
    j["search_costs"] = list(s.search_costs);
    j["search_expanded"] = s.search_expanded;
    j["failures"] = s.failures;
    j["cooldown_until"] = s.cooldown_until;
    j["next_cooldown_end"] = s.next_cooldown_end;
    if (!s.goal_failures.empty()) j["goal_failures"] = s.goal_failures;
    if (!s.goal_cooldown_until.empty()) j["goal_cooldown_until"] = s.goal_cooldown_until;
    j["stats"] = stats_json(s.stats);
    return j;
}

Json system_json(const goap::AgentSystemState& s) {
    Json j;
    j["tick"] = s.tick;
    j["blackboard"] = world(s.blackboard);
    j["blackboard_version"] = s.blackboard_version;
    j["generations"] = s.generations;
    Json agents = Json::array();
    for (const auto& a : s.agents) agents.push_back(a ? agent_json(*a) : Json(nullptr));
    j["agents"] = std::move(agents);
    j["free_slots"] = s.free_slots;
    return j;
}

Json map_json(const path::GridMap& m) {
    Json j;
    j["width"] = m.width();
    j["height"] = m.height();
    Json rows = Json::array();
    for (std::int32_t y = 0; y < m.height(); ++y) {
        std::string row(static_cast<std::size_t>(m.width()), '.');
        for (std::int32_t x = 0; x < m.width(); ++x)
            if (!m.passable({x, y})) row[static_cast<std::size_t>(x)] = '@';
        rows.push_back(std::move(row));
    }
    j["rows"] = std::move(rows);
    if (m.has_terrain_costs()) {
        Json costs = Json::array();
        for (std::int32_t y = 0; y < m.height(); ++y) {
            Json row = Json::array();
            for (std::int32_t x = 0; x < m.width(); ++x) row.push_back(m.cost({x, y}));
            costs.push_back(std::move(row));
        }
        j["costs"] = std::move(costs);
    }
    j["min_cost"] = m.min_cost();
    j["version"] = m.version();
    j["passability_changed_at"] = m.passability_changed_at();
    return j;
}

Json options_json(const path::GridSearchOptions& o) {
    Json j;
    j["movement"] = static_cast<unsigned>(o.movement);
    j["diagonal"] = static_cast<unsigned>(o.diagonal);
    j["heuristic"] = static_cast<unsigned>(o.heuristic);
    j["weight"] = number(o.weight);
    j["max_expansions"] = o.budget.max_expansions;
    j["max_memory_bytes"] = static_cast<std::uint64_t>(o.budget.max_memory_bytes);
    j["penalty_weight"] = number(o.penalty_weight);
    return j;
}

Json search_json(const path::GridSearchState& s) {
    Json j;
    Json cells = Json::array();
    for (const auto& c : s.cells) cells.push_back(Json::array({c.node, number(c.g), c.parent, c.closed}));
    j["cells"] = std::move(cells);
    Json open = Json::array();
    for (const auto& e : s.open) open.push_back(Json::array({e.node, e.f_bits, e.tie}));
    j["open"] = std::move(open);
    j["held"] = s.has_held ? Json::array({s.held.node, s.held.f_bits, s.held.tie}) : Json(nullptr);
    j["sequence"] = s.sequence;
    j["expanded"] = s.stats.expanded;
    j["generated"] = s.stats.generated;
    j["reopened"] = s.stats.reopened;
    j["map_version"] = s.map_version;
    return j;
}

Json queue_json(const path::PathRequestQueueState& q) {
    Json j;
    j["lanes"] = q.lanes;
    j["generations"] = q.generations;
    Json requests = Json::array();
    for (const auto& r : q.requests) {
        Json o;
        o["slot"] = r.slot;
        o["state"] = static_cast<unsigned>(r.state);
        o["start"] = point(r.request.start);
        o["goal"] = point(r.request.goal);
        o["priority"] = r.request.priority;
        o["options"] = options_json(r.request.options);
        o["islands"] = r.uses_islands;
        o["dead_ends"] = r.uses_dead_ends;
        o["penalties"] = r.uses_penalties;
        if (r.uses_areas) o["areas"] = true;
        if (r.uses_filter) o["filter"] = true;
        if (r.uses_layers) o["layers"] = true;
        Json res;
        res["status"] = static_cast<unsigned>(r.result.status);
        if (r.result.limit != search::BudgetLimit::None) res["limit"] = static_cast<unsigned>(r.result.limit);  // optional
        Json cells = Json::array();
        for (const path::GridPoint p : r.result.path.cells) cells.push_back(point(p));
        res["cells"] = std::move(cells);
        res["cost"] = number(r.result.path.cost);
        res["expanded"] = r.result.expanded;
        res["restarts"] = r.result.restarts;
        res["map_version"] = r.result.map_version;
        res["submitted_frame"] = r.result.submitted_frame;
        res["completed_frame"] = r.result.completed_frame;
        o["result"] = std::move(res);
        o["sequence"] = r.sequence;
        o["rank"] = r.rank;
        o["lane"] = r.lane;
        o["search"] = r.state == path::RequestState::Running ? search_json(r.search) : Json(nullptr);
        requests.push_back(std::move(o));
    }
    j["requests"] = std::move(requests);
    Json pending = Json::array();
    for (const auto& e : q.pending) pending.push_back(Json::array({e.rank, e.sequence, e.slot, e.generation}));
    j["pending"] = std::move(pending);
    j["free_slots"] = q.free_slots;
    Json completed = Json::array();
    for (const auto& h : q.completed) completed.push_back(Json::array({h.index, h.generation}));
    j["completed"] = std::move(completed);
    j["sequence"] = q.sequence;
    j["frame"] = q.frame;
    j["seen_version"] = q.seen_version;
    j["lane_cursor"] = q.lane_cursor;
    return j;
}

Json movement_json(const path::MovementState& m) {
    Json j;
    Json units = Json::array();
    for (const auto& u : m.units) {
        if (!u.live) {
            units.push_back(nullptr);
            continue;
        }
        Json o;
        o["pos"] = point(u.pos);
        o["prev"] = point(u.prev);
        o["dest"] = Json{{"cell", point(u.dest.cell)}, {"centre", point(u.dest.centre)}, {"radius", u.dest.radius}};
        Json route = Json::array();
        for (const path::GridPoint p : u.route) route.push_back(point(p));
        o["route"] = std::move(route);
        o["idx"] = u.idx;
        o["request"] = Json::array({u.request.index, u.request.generation});
        o["status"] = static_cast<unsigned>(u.status);
        o["failure"] = static_cast<unsigned>(u.failure);
        o["anchored"] = u.anchored;
        o["moved"] = u.moved;
        o["still"] = u.still;
        o["stalled"] = u.stalled;
        o["waits_in_row"] = u.waits_in_row;
        o["walk_ticks"] = u.walk_ticks;
        units.push_back(std::move(o));
    }
    j["units"] = std::move(units);
    j["free_units"] = m.free_units;
    const path::MovementStats& s = m.stats;
    j["stats"] = Json::array({s.ticks, s.steps, s.waits, s.detours, s.pushes, s.path_requests, s.paths, s.repaths_map,
                              s.repaths_goal, s.repaths_off_route, s.repaths_blocked, s.arrivals, s.failures, s.jams,
                              s.longest_still});
    j["seen_version"] = m.seen_version;
    j["queue"] = queue_json(m.queue);
    if (!m.crowd.units.empty() || !m.crowd.free_ids.empty() || m.crowd.stats.ticks != 0) {
        Json crowd;
        Json cu = Json::array();
        for (const auto& u : m.crowd.units) {
            if (!u.alive) {
                cu.push_back(nullptr);
                continue;
            }
            Json o;
            o["cell"] = point(u.cell);
            o["prev"] = point(u.prev);
            o["goal"] = u.has_goal ? point(u.goal) : Json(nullptr);
            o["held"] = u.held;
            o["move"] = static_cast<unsigned>(u.move);
            o["stuck"] = u.stuck;
            o["age"] = u.age;
            o["best"] = u.best;
            o["off_route"] = u.off_route;
            cu.push_back(std::move(o));
        }
        crowd["units"] = std::move(cu);
        crowd["free_ids"] = m.crowd.free_ids;
        const path::CrowdStepperStats& cs = m.crowd.stats;
        crowd["stats"] = Json::array({cs.ticks, cs.advanced, cs.pushed, cs.waited});
        j["crowd"] = std::move(crowd);
    }
    return j;
}

// ---- reading ----------------------------------------------------------------------------------------

class Reader {
public:
    Reader(std::string_view text, std::string file) : m_text(text), m_file(std::move(file)) {}

    [[noreturn]] void fail_at(std::size_t offset, const JsonPath& path, const std::string& message) const {
        const detail::TextPosition p = detail::position_of(m_text, offset);
        throw LoadError(m_file, p.line, p.column, detail::format_json_path(path), message);
    }
    [[noreturn]] void fail(const JsonPath& path, const std::string& message) const {
        const detail::JsonLocation loc = detail::locate(m_text, path);
        if (loc.found && loc.begin != std::string_view::npos) fail_at(loc.begin, path, message);
        fail_at(detail::field_error_offset(m_text, path), path, message);
    }

    const Json& member(const Json& obj, const JsonPath& path, const char* key) const {
        const auto it = obj.find(key);
        if (it == obj.end()) fail(path, std::string("missing field \"") + key + "\"");
        return *it;
    }
    void object(const Json& j, const JsonPath& path, std::initializer_list<std::string_view> known) const {
        if (!j.is_object()) fail(path, "expected an object");
        if (const auto unknown = detail::first_unknown_key(j, known)) fail(path / *unknown, detail::unknown_field_message(known));
    }
    const Json& array(const Json& j, const JsonPath& path) const {
        if (!j.is_array()) fail(path, "expected an array");
        return j;
    }
    std::uint64_t u64(const Json& j, const JsonPath& path, std::uint64_t max = UINT64_MAX) const {
        if (!j.is_number_integer() || (j.is_number_integer() && !j.is_number_unsigned() && j.get<std::int64_t>() < 0))
            fail(path, "expected a non-negative integer");
        const std::uint64_t v = j.get<std::uint64_t>();
        if (v > max) fail(path, "value " + std::to_string(v) + " is above the largest allowed, " + std::to_string(max));
        return v;
    }
    std::uint32_t u32(const Json& j, const JsonPath& path, std::uint32_t max = UINT32_MAX) const {
        return static_cast<std::uint32_t>(u64(j, path, max));
    }
    std::int64_t i64(const Json& j, const JsonPath& path, std::int64_t lo = INT64_MIN, std::int64_t hi = INT64_MAX) const {
        if (!j.is_number_integer() || (j.is_number_unsigned() && j.get<std::uint64_t>() > std::uint64_t(INT64_MAX)))
            fail(path, "expected an integer");
        const std::int64_t v = j.get<std::int64_t>();
        if (v < lo || v > hi) fail(path, "value " + std::to_string(v) + " is outside [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
        return v;
    }
    std::int32_t i32(const Json& j, const JsonPath& path) const {
        return static_cast<std::int32_t>(i64(j, path, INT32_MIN, INT32_MAX));
    }
    bool boolean(const Json& j, const JsonPath& path) const {
        if (!j.is_boolean()) fail(path, "expected true or false");
        return j.get<bool>();
    }
    double dbl(const Json& j, const JsonPath& path, bool allow_infinite) const {
        if (j.is_string() && allow_infinite) {
            const std::string& s = j.get_ref<const std::string&>();
            if (s == "inf") return std::numeric_limits<double>::infinity();
            if (s == "-inf") return -std::numeric_limits<double>::infinity();
        }
        if (!j.is_number()) fail(path, allow_infinite ? "expected a number (or \"inf\", \"-inf\")" : "expected a finite number");
        return j.get<double>();
    }
    std::string str(const Json& j, const JsonPath& path) const {
        if (!j.is_string()) fail(path, "expected a string");
        return j.get<std::string>();
    }
    template <class T, class F>
    std::vector<T> vec(const Json& j, const JsonPath& path, F&& each) const {
        array(j, path);
        std::vector<T> out;
        out.reserve(j.size());
        for (std::size_t i = 0; i < j.size(); ++i) out.push_back(each(j[i], path / i));
        return out;
    }
    /// An array of exactly `fields.size()` non-negative counters, read into `fields` in order.
    void counters(const Json& j, const JsonPath& path, std::initializer_list<std::uint64_t*> fields) const {
        array(j, path);
        if (j.size() != fields.size()) fail(path, "expected " + std::to_string(fields.size()) + " counters");
        std::size_t i = 0;
        for (std::uint64_t* field : fields) {
            *field = u64(j[i], path / i);
            ++i;
        }
    }
    path::GridPoint point(const Json& j, const JsonPath& path) const {
        if (!j.is_array() || j.size() != 2) fail(path, "expected a point [x, y]");
        return path::GridPoint{i32(j[0], path / 0), i32(j[1], path / 1)};
    }
    template <class E>
    E enumeration(const Json& j, const JsonPath& path, E last) const {
        return static_cast<E>(u64(j, path, static_cast<std::uint64_t>(last)));
    }

    goap::SavedWorldState world(const Json& j, const JsonPath& path) const {
        object(j, path, {"words", "values"});
        goap::SavedWorldState s;
        s.words = vec<std::uint64_t>(member(j, path, "words"), path / "words", [&](const Json& v, const JsonPath& p) { return u64(v, p); });
        s.values = vec<std::int32_t>(member(j, path, "values"), path / "values", [&](const Json& v, const JsonPath& p) { return i32(v, p); });
        return s;
    }

    goap::AgentStats stats(const Json& j, const JsonPath& path) const {
        object(j, path, {"replans", "replans_by_trigger", "searches", "plans_found", "plans_failed", "expanded", "cache_hits", "checks",
                         "cost_calls", "priority_calls", "actions_started", "actions_succeeded", "actions_failed", "actions_aborted", "updates"});
        goap::AgentStats s;
        const auto get = [&](const char* key) { return u64(member(j, path, key), path / key); };
        s.replans = get("replans");
        const Json& by = array(member(j, path, "replans_by_trigger"), path / "replans_by_trigger");
        if (by.size() != s.replans_by_trigger.size())
            fail(path / "replans_by_trigger", "expected " + std::to_string(s.replans_by_trigger.size()) + " counters");
        for (std::size_t i = 0; i < by.size(); ++i) s.replans_by_trigger[i] = u64(by[i], path / "replans_by_trigger" / i);
        s.searches = get("searches");
        s.plans_found = get("plans_found");
        s.plans_failed = get("plans_failed");
        s.expanded = get("expanded");
        s.cache_hits = get("cache_hits");
        s.checks = get("checks");
        s.cost_calls = get("cost_calls");
        s.priority_calls = get("priority_calls");
        s.actions_started = get("actions_started");
        s.actions_succeeded = get("actions_succeeded");
        s.actions_failed = get("actions_failed");
        s.actions_aborted = get("actions_aborted");
        s.updates = get("updates");
        return s;
    }

    goap::AgentState agent(const Json& j, const JsonPath& path) const {
        object(j, path, {"name", "type", "goals", "budget", "direction", "private_state", "view", "private_version", "seen_world_version",
                         "seen_private_version", "context_version", "seen_context_version", "status", "idle_reason", "goal", "plan", "step",
                         "plan_cost", "running", "ticks_running", "has_pending", "pending", "pending_action", "abort_requested",
                         "replan_requested", "dirty", "abort_hook_pending", "abort_hook_action", "abort_hook_reason", "abort_hook_ticks",
                         "priorities", "selecting", "speculative", "any_failed", "candidates", "candidate", "search_active", "search_start",
                         "search_mask", "search_enabled", "search_costs", "search_expanded", "failures", "cooldown_until",
                         "next_cooldown_end", "goal_failures", "goal_cooldown_until", "stats"});
        goap::AgentState s;
        const auto m = [&](const char* key) -> const Json& { return member(j, path, key); };
        const auto p = [&](const char* key) { return path / key; };
        const auto get = [&](const char* key) { return u64(m(key), p(key)); };
        const auto flag = [&](const char* key) { return boolean(m(key), p(key)); };
        const auto u32s = [&](const char* key) {
            return vec<std::uint32_t>(m(key), p(key), [&](const Json& v, const JsonPath& q) { return u32(v, q); });
        };
        s.name = str(m("name"), p("name"));
        s.type = str(m("type"), p("type"));
        s.goals = vec<std::string>(m("goals"), p("goals"), [&](const Json& v, const JsonPath& q) { return str(v, q); });
        s.budget = get("budget");
        s.direction = enumeration(m("direction"), p("direction"), goap::Direction::Backward);
        s.private_state = world(m("private_state"), p("private_state"));
        s.view = world(m("view"), p("view"));
        s.private_version = get("private_version");
        s.seen_world_version = get("seen_world_version");
        s.seen_private_version = get("seen_private_version");
        s.context_version = get("context_version");
        s.seen_context_version = get("seen_context_version");
        s.status = enumeration(m("status"), p("status"), goap::AgentStatus::Acting);
        s.idle_reason = enumeration(m("idle_reason"), p("idle_reason"), goap::IdleReason::NoPlan);
        s.goal = u32(m("goal"), p("goal"));
        s.plan = u32s("plan");
        s.step = get("step");
        s.plan_cost = dbl(m("plan_cost"), p("plan_cost"), false);
        s.running = flag("running");
        s.ticks_running = get("ticks_running");
        s.has_pending = flag("has_pending");
        s.pending = enumeration(m("pending"), p("pending"), goap::ReplanTrigger::Requested);
        s.pending_action = u32(m("pending_action"), p("pending_action"));
        s.abort_requested = flag("abort_requested");
        s.replan_requested = flag("replan_requested");
        s.dirty = flag("dirty");
        s.abort_hook_pending = flag("abort_hook_pending");
        s.abort_hook_action = u32(m("abort_hook_action"), p("abort_hook_action"));
        s.abort_hook_reason = enumeration(m("abort_hook_reason"), p("abort_hook_reason"), goap::AbortReason::Removed);
        s.abort_hook_ticks = get("abort_hook_ticks");
        s.priorities = vec<double>(m("priorities"), p("priorities"), [&](const Json& v, const JsonPath& q) { return dbl(v, q, true); });
        s.selecting = flag("selecting");
        s.speculative = flag("speculative");
        s.any_failed = flag("any_failed");
        s.candidates = u32s("candidates");
        s.candidate = get("candidate");
        s.search_active = flag("search_active");
        s.search_start = world(m("search_start"), p("search_start"));
        s.search_mask = static_cast<std::uint8_t>(u64(m("search_mask"), p("search_mask"), 2));
        s.search_enabled = vec<std::uint8_t>(m("search_enabled"), p("search_enabled"),
                                             [&](const Json& v, const JsonPath& q) { return static_cast<std::uint8_t>(u64(v, q, 1)); });
        s.search_costs = vec<double>(m("search_costs"), p("search_costs"), [&](const Json& v, const JsonPath& q) { return dbl(v, q, false); });
        s.search_expanded = get("search_expanded");
        s.failures = u32s("failures");
        s.cooldown_until = vec<std::uint64_t>(m("cooldown_until"), p("cooldown_until"), [&](const Json& v, const JsonPath& q) { return u64(v, q); });
        s.next_cooldown_end = get("next_cooldown_end");
        if (j.contains("goal_failures")) s.goal_failures = u32s("goal_failures");  // optional: goal back-off in progress
        if (j.contains("goal_cooldown_until"))
            s.goal_cooldown_until = vec<std::uint64_t>(m("goal_cooldown_until"), p("goal_cooldown_until"),
                                                       [&](const Json& v, const JsonPath& q) { return u64(v, q); });
        s.stats = stats(m("stats"), p("stats"));
        return s;
    }

    goap::AgentSystemState system(const Json& j, const JsonPath& path) const {
        object(j, path, {"tick", "blackboard", "blackboard_version", "generations", "agents", "free_slots"});
        goap::AgentSystemState s;
        s.tick = u64(member(j, path, "tick"), path / "tick");
        s.blackboard = world(member(j, path, "blackboard"), path / "blackboard");
        s.blackboard_version = u64(member(j, path, "blackboard_version"), path / "blackboard_version");
        s.generations = vec<std::uint32_t>(member(j, path, "generations"), path / "generations",
                                           [&](const Json& v, const JsonPath& q) { return u32(v, q); });
        const Json& agents = array(member(j, path, "agents"), path / "agents");
        for (std::size_t i = 0; i < agents.size(); ++i) {
            if (agents[i].is_null()) s.agents.emplace_back();
            else s.agents.emplace_back(agent(agents[i], path / "agents" / i));
        }
        s.free_slots = vec<std::uint32_t>(member(j, path, "free_slots"), path / "free_slots",
                                          [&](const Json& v, const JsonPath& q) { return u32(v, q); });
        return s;
    }

    path::GridMap map(const Json& j, const JsonPath& path) const {
        object(j, path, {"width", "height", "rows", "costs", "min_cost", "version", "passability_changed_at"});
        const std::int64_t w = i64(member(j, path, "width"), path / "width", 1, path::kMaxGridSide);
        const std::int64_t h = i64(member(j, path, "height"), path / "height", 1, path::kMaxGridSide);
        if (path::GridMap::check_size(w, h) != path::GridSizeCheck::Ok)
            fail(path / "width", std::string(path::describe(path::GridMap::check_size(w, h))));
        const Json& rows = array(member(j, path, "rows"), path / "rows");
        if (rows.size() != static_cast<std::size_t>(h)) fail(path / "rows", "expected " + std::to_string(h) + " rows");
        for (std::size_t y = 0; y < rows.size(); ++y) {
            if (!rows[y].is_string() || rows[y].get_ref<const std::string&>().size() != static_cast<std::size_t>(w))
                fail(path / "rows" / y, "expected a string of " + std::to_string(w) + " cells ('.' passable, '@' blocked)");
            for (const char c : rows[y].get_ref<const std::string&>())
                if (c != '.' && c != '@') fail(path / "rows" / y, "a cell is '.' (passable) or '@' (blocked)");
        }
        path::GridMap m;
        (void)m.reset(w, h, true);
        for (std::int32_t y = 0; y < h; ++y) {
            const std::string& row = rows[static_cast<std::size_t>(y)].get_ref<const std::string&>();
            for (std::int32_t x = 0; x < w; ++x)
                if (row[static_cast<std::size_t>(x)] == '@') (void)m.set_passable({x, y}, false);
        }
        if (const auto it = j.find("costs"); it != j.end()) {
            const Json& costs = array(*it, path / "costs");
            if (costs.size() != static_cast<std::size_t>(h)) fail(path / "costs", "expected " + std::to_string(h) + " rows");
            for (std::int32_t y = 0; y < h; ++y) {
                const JsonPath rp = path / "costs" / static_cast<std::size_t>(y);
                const Json& row = array(costs[static_cast<std::size_t>(y)], rp);
                if (row.size() != static_cast<std::size_t>(w)) fail(rp, "expected " + std::to_string(w) + " costs");
                for (std::int32_t x = 0; x < w; ++x) {
                    const JsonPath cp = rp / static_cast<std::size_t>(x);
                    const std::uint32_t cost = u32(row[static_cast<std::size_t>(x)], cp, path::kMaxTerrainCost);
                    if (cost == 0) fail(cp, "a terrain cost is at least 1");
                    (void)m.set_cost({x, y}, cost);
                }
            }
        }
        const std::uint32_t min_cost = u32(member(j, path, "min_cost"), path / "min_cost", path::kMaxTerrainCost);
        const std::uint64_t version = u64(member(j, path, "version"), path / "version");
        // optional (saves before it was written): as if passability had changed at the saved version
        std::uint64_t changed_at = version;
        if (const auto it = j.find("passability_changed_at"); it != j.end()) {
            changed_at = u64(*it, path / "passability_changed_at");
            if (changed_at > version) fail(path / "passability_changed_at", "must not exceed the map's version");
        }
        m.restore_version(version, min_cost, changed_at);
        return m;
    }

    path::GridSearchOptions options(const Json& j, const JsonPath& path) const {
        object(j, path, {"movement", "diagonal", "heuristic", "weight", "max_expansions", "max_memory_bytes", "penalty_weight"});
        path::GridSearchOptions o;
        o.movement = enumeration(member(j, path, "movement"), path / "movement", path::Movement::Eight);
        o.diagonal = enumeration(member(j, path, "diagonal"), path / "diagonal", path::DiagonalRule::Always);
        o.heuristic = enumeration(member(j, path, "heuristic"), path / "heuristic", path::Heuristic::Zero);
        o.weight = dbl(member(j, path, "weight"), path / "weight", false);
        o.budget.max_expansions = u64(member(j, path, "max_expansions"), path / "max_expansions");
        o.budget.max_memory_bytes = static_cast<std::size_t>(u64(member(j, path, "max_memory_bytes"), path / "max_memory_bytes", SIZE_MAX));
        o.penalty_weight = dbl(member(j, path, "penalty_weight"), path / "penalty_weight", false);
        return o;
    }

    path::GridSearchState::OpenEntry entry(const Json& j, const JsonPath& path) const {
        if (!j.is_array() || j.size() != 3) fail(path, "expected [node, f_bits, tie]");
        return {u32(j[0], path / 0), u64(j[1], path / 1), u64(j[2], path / 2)};
    }

    path::GridSearchState search(const Json& j, const JsonPath& path) const {
        object(j, path, {"cells", "open", "held", "sequence", "expanded", "generated", "reopened", "map_version"});
        path::GridSearchState s;
        s.cells = vec<path::GridSearchState::Cell>(member(j, path, "cells"), path / "cells", [&](const Json& c, const JsonPath& p) {
            if (!c.is_array() || c.size() != 4) fail(p, "expected [node, g, parent, closed]");
            return path::GridSearchState::Cell{u32(c[0], p / 0), dbl(c[1], p / 1, false), u32(c[2], p / 2), boolean(c[3], p / 3)};
        });
        s.open = vec<path::GridSearchState::OpenEntry>(member(j, path, "open"), path / "open",
                                                       [&](const Json& e, const JsonPath& p) { return entry(e, p); });
        const Json& held = member(j, path, "held");
        s.has_held = !held.is_null();
        if (s.has_held) s.held = entry(held, path / "held");
        s.sequence = u32(member(j, path, "sequence"), path / "sequence");
        s.stats.expanded = u64(member(j, path, "expanded"), path / "expanded");
        s.stats.generated = u64(member(j, path, "generated"), path / "generated");
        s.stats.reopened = u64(member(j, path, "reopened"), path / "reopened");
        s.map_version = u64(member(j, path, "map_version"), path / "map_version");
        return s;
    }

    path::PathRequestQueueState queue(const Json& j, const JsonPath& path) const {
        object(j, path, {"lanes", "generations", "requests", "pending", "free_slots", "completed", "sequence", "frame", "seen_version",
                         "lane_cursor"});
        path::PathRequestQueueState q;
        q.lanes = u32(member(j, path, "lanes"), path / "lanes");
        q.generations = vec<std::uint32_t>(member(j, path, "generations"), path / "generations",
                                           [&](const Json& v, const JsonPath& p) { return u32(v, p); });
        q.requests = vec<path::PathRequestQueueState::Request>(member(j, path, "requests"), path / "requests", [&](const Json& o, const JsonPath& p) {
            object(o, p, {"slot", "state", "start", "goal", "priority", "options", "islands", "dead_ends", "penalties", "areas", "filter", "layers", "result", "sequence",
                          "rank", "lane", "search"});
            path::PathRequestQueueState::Request r;
            r.slot = u32(member(o, p, "slot"), p / "slot");
            r.state = enumeration(member(o, p, "state"), p / "state", path::RequestState::Done);
            r.request.start = point(member(o, p, "start"), p / "start");
            r.request.goal = point(member(o, p, "goal"), p / "goal");
            r.request.priority = i32(member(o, p, "priority"), p / "priority");
            r.request.options = options(member(o, p, "options"), p / "options");
            r.uses_islands = boolean(member(o, p, "islands"), p / "islands");
            r.uses_dead_ends = boolean(member(o, p, "dead_ends"), p / "dead_ends");
            r.uses_penalties = boolean(member(o, p, "penalties"), p / "penalties");
            // optional: written only when set
            r.uses_areas = o.contains("areas") && boolean(o["areas"], p / "areas");
            r.uses_filter = o.contains("filter") && boolean(o["filter"], p / "filter");
            r.uses_layers = o.contains("layers") && boolean(o["layers"], p / "layers");
            const Json& res = member(o, p, "result");
            const JsonPath rp = p / "result";
            object(res, rp, {"status", "limit", "cells", "cost", "expanded", "restarts", "map_version", "submitted_frame", "completed_frame"});
            r.result.status = enumeration(member(res, rp, "status"), rp / "status", Status::InProgress);
            // optional: written only when a budget limit ended the request
            r.result.limit = res.contains("limit") ? enumeration(res["limit"], rp / "limit", search::BudgetLimit::Memory)
                                                   : search::BudgetLimit::None;
            if (r.result.limit != search::BudgetLimit::None && r.result.status != Status::BudgetExhausted)
                fail(rp / "limit", "only a request that ran out of budget (status BudgetExhausted) has a limit");
            r.result.path.cells = vec<path::GridPoint>(member(res, rp, "cells"), rp / "cells",
                                                       [&](const Json& v, const JsonPath& q2) { return point(v, q2); });
            r.result.path.cost = dbl(member(res, rp, "cost"), rp / "cost", true);
            r.result.expanded = u64(member(res, rp, "expanded"), rp / "expanded");
            r.result.restarts = u32(member(res, rp, "restarts"), rp / "restarts");
            r.result.map_version = u64(member(res, rp, "map_version"), rp / "map_version");
            r.result.submitted_frame = u64(member(res, rp, "submitted_frame"), rp / "submitted_frame");
            r.result.completed_frame = u64(member(res, rp, "completed_frame"), rp / "completed_frame");
            r.sequence = u64(member(o, p, "sequence"), p / "sequence");
            r.rank = i64(member(o, p, "rank"), p / "rank");
            r.lane = u32(member(o, p, "lane"), p / "lane");
            const Json& s = member(o, p, "search");
            if (r.state == path::RequestState::Running) {
                if (s.is_null()) fail(p / "search", "a running request needs its search");
                r.search = search(s, p / "search");
            } else if (!s.is_null()) {
                fail(p / "search", "only a running request has a search (expected null)");
            }
            return r;
        });
        q.pending = vec<path::PathRequestQueueState::PendingEntry>(member(j, path, "pending"), path / "pending", [&](const Json& e, const JsonPath& p) {
            if (!e.is_array() || e.size() != 4) fail(p, "expected [rank, sequence, slot, generation]");
            return path::PathRequestQueueState::PendingEntry{i64(e[0], p / 0), u64(e[1], p / 1), u32(e[2], p / 2), u32(e[3], p / 3)};
        });
        q.free_slots = vec<std::uint32_t>(member(j, path, "free_slots"), path / "free_slots", [&](const Json& v, const JsonPath& p) { return u32(v, p); });
        q.completed = vec<path::PathHandle>(member(j, path, "completed"), path / "completed", [&](const Json& e, const JsonPath& p) {
            if (!e.is_array() || e.size() != 2) fail(p, "expected [slot, generation]");
            return path::PathHandle{u32(e[0], p / 0), u32(e[1], p / 1)};
        });
        q.sequence = u64(member(j, path, "sequence"), path / "sequence");
        q.frame = u64(member(j, path, "frame"), path / "frame");
        q.seen_version = u64(member(j, path, "seen_version"), path / "seen_version");
        q.lane_cursor = u32(member(j, path, "lane_cursor"), path / "lane_cursor");
        return q;
    }

    path::MovementState movement(const Json& j, const JsonPath& path) const {
        object(j, path, {"units", "free_units", "stats", "seen_version", "queue", "crowd"});
        path::MovementState m;
        m.units = vec<path::MovementState::Unit>(member(j, path, "units"), path / "units", [&](const Json& o, const JsonPath& p) {
            path::MovementState::Unit u;
            if (o.is_null()) return u;
            object(o, p, {"pos", "prev", "dest", "route", "idx", "request", "status", "failure", "anchored", "moved", "still", "stalled",
                          "waits_in_row", "walk_ticks"});
            u.live = true;
            u.pos = point(member(o, p, "pos"), p / "pos");
            u.prev = point(member(o, p, "prev"), p / "prev");
            const Json& d = member(o, p, "dest");
            object(d, p / "dest", {"cell", "centre", "radius"});
            u.dest.cell = point(member(d, p / "dest", "cell"), p / "dest" / "cell");
            u.dest.centre = point(member(d, p / "dest", "centre"), p / "dest" / "centre");
            u.dest.radius = i32(member(d, p / "dest", "radius"), p / "dest" / "radius");
            u.route = vec<path::GridPoint>(member(o, p, "route"), p / "route", [&](const Json& v, const JsonPath& q2) { return point(v, q2); });
            u.idx = u64(member(o, p, "idx"), p / "idx");
            const Json& r = member(o, p, "request");
            if (!r.is_array() || r.size() != 2) fail(p / "request", "expected [slot, generation]");
            u.request = path::PathHandle{u32(r[0], p / "request" / 0), u32(r[1], p / "request" / 1)};
            u.status = enumeration(member(o, p, "status"), p / "status", path::UnitStatus::Failed);
            u.failure = enumeration(member(o, p, "failure"), p / "failure", path::MoveFailure::Stuck);
            u.anchored = boolean(member(o, p, "anchored"), p / "anchored");
            u.moved = boolean(member(o, p, "moved"), p / "moved");
            u.still = u32(member(o, p, "still"), p / "still");
            u.stalled = u32(member(o, p, "stalled"), p / "stalled");
            u.waits_in_row = u32(member(o, p, "waits_in_row"), p / "waits_in_row");
            u.walk_ticks = u64(member(o, p, "walk_ticks"), p / "walk_ticks");
            return u;
        });
        m.free_units = vec<std::uint32_t>(member(j, path, "free_units"), path / "free_units", [&](const Json& v, const JsonPath& p) { return u32(v, p); });
        counters(member(j, path, "stats"), path / "stats",
                 {&m.stats.ticks, &m.stats.steps, &m.stats.waits, &m.stats.detours, &m.stats.pushes, &m.stats.path_requests,
                  &m.stats.paths, &m.stats.repaths_map, &m.stats.repaths_goal, &m.stats.repaths_off_route,
                  &m.stats.repaths_blocked, &m.stats.arrivals, &m.stats.failures, &m.stats.jams, &m.stats.longest_still});
        m.seen_version = u64(member(j, path, "seen_version"), path / "seen_version");
        m.queue = queue(member(j, path, "queue"), path / "queue");
        if (const auto c = j.find("crowd"); c != j.end()) m.crowd = crowd(*c, path / "crowd");
        return m;
    }

    path::CrowdStepperState crowd(const Json& j, const JsonPath& path) const {
        object(j, path, {"units", "free_ids", "stats"});
        path::CrowdStepperState c;
        c.units = vec<path::CrowdStepperState::Unit>(member(j, path, "units"), path / "units", [&](const Json& o, const JsonPath& p) {
            path::CrowdStepperState::Unit u;
            if (o.is_null()) return u;
            object(o, p, {"cell", "prev", "goal", "held", "move", "stuck", "age", "best", "off_route"});
            u.alive = true;
            u.cell = point(member(o, p, "cell"), p / "cell");
            u.prev = point(member(o, p, "prev"), p / "prev");
            const Json& g = member(o, p, "goal");
            u.has_goal = !g.is_null();
            if (u.has_goal) u.goal = point(g, p / "goal");
            u.held = boolean(member(o, p, "held"), p / "held");
            u.move = enumeration(member(o, p, "move"), p / "move", path::CrowdMove::Waited);
            u.stuck = u32(member(o, p, "stuck"), p / "stuck");
            u.age = u32(member(o, p, "age"), p / "age");
            u.best = u32(member(o, p, "best"), p / "best");
            u.off_route = u32(member(o, p, "off_route"), p / "off_route");
            return u;
        });
        c.free_ids = vec<std::uint32_t>(member(j, path, "free_ids"), path / "free_ids", [&](const Json& v, const JsonPath& p) { return u32(v, p); });
        counters(member(j, path, "stats"), path / "stats", {&c.stats.ticks, &c.stats.advanced, &c.stats.pushed, &c.stats.waited});
        return c;
    }

    SaveTable table(const Json& j, const JsonPath& path) const {
        object(j, path, {"name", "columns", "rows"});
        SaveTable t;
        t.name = str(member(j, path, "name"), path / "name");
        t.columns = vec<std::string>(member(j, path, "columns"), path / "columns", [&](const Json& v, const JsonPath& p) { return str(v, p); });
        t.rows = vec<std::vector<std::int64_t>>(member(j, path, "rows"), path / "rows", [&](const Json& r, const JsonPath& p) {
            std::vector<std::int64_t> row = vec<std::int64_t>(r, p, [&](const Json& v, const JsonPath& q2) { return i64(v, q2); });
            if (row.size() != t.columns.size()) fail(p, "expected " + std::to_string(t.columns.size()) + " values (one per column)");
            return row;
        });
        return t;
    }

    SaveFile document(const Json& root) const {
        const JsonPath top;
        if (!root.is_object()) fail(top, "expected a JSON object (a gameplan save file)");
        const auto format = root.find("format");
        if (format == root.end() || !format->is_string() || format->get_ref<const std::string&>() != kSaveFormat)
            fail(top / "format", "not a gameplan save file (expected \"format\": \"gameplan-save\")");
        const auto version = root.find("version");
        if (version == root.end()) fail(top / "version", "missing field \"version\"");
        if (!version->is_number_unsigned() || version->get<std::uint64_t>() != kSaveVersion)
            fail(top / "version", "save format version " + printable(version->dump()) + " is not supported (this build reads version " +
                                      std::to_string(kSaveVersion) + ")");
        object(root, top, {"format", "version", "application", "tick", "maps", "agent_systems", "movement", "queues", "tables"});
        SaveFile s;
        s.application = str(member(root, top, "application"), top / "application");
        s.tick = u64(member(root, top, "tick"), top / "tick");
        s.maps = vec<path::GridMap>(member(root, top, "maps"), top / "maps", [&](const Json& v, const JsonPath& p) { return map(v, p); });
        s.agent_systems = vec<goap::AgentSystemState>(member(root, top, "agent_systems"), top / "agent_systems",
                                                      [&](const Json& v, const JsonPath& p) { return system(v, p); });
        s.movement = vec<path::MovementState>(member(root, top, "movement"), top / "movement",
                                              [&](const Json& v, const JsonPath& p) { return movement(v, p); });
        s.queues = vec<path::PathRequestQueueState>(member(root, top, "queues"), top / "queues",
                                                    [&](const Json& v, const JsonPath& p) { return queue(v, p); });
        s.tables = vec<SaveTable>(member(root, top, "tables"), top / "tables", [&](const Json& v, const JsonPath& p) { return table(v, p); });
        return s;
    }

    SaveFile load(std::size_t max_depth) const {
        bool blank = true;
        for (const char c : m_text) blank &= std::isspace(static_cast<unsigned char>(c)) != 0;
        if (blank) throw LoadError(m_file, 0, 0, "", "empty file (expected a gameplan save file)");
        const Json root = detail::parse_checked_json(m_text, m_file, max_depth);
        return document(root);
    }

private:
    std::string_view m_text;
    std::string m_file;
};

// "agents[3].plan[2]" -> path elements (keys are plain names, indices in brackets).
JsonPath parse_field(std::string_view field) {
    JsonPath out;
    std::size_t i = 0;
    while (i < field.size()) {
        if (field[i] == '.') {
            ++i;
        } else if (field[i] == '[') {
            std::size_t j = i + 1, v = 0;
            while (j < field.size() && std::isdigit(static_cast<unsigned char>(field[j]))) v = v * 10 + std::size_t(field[j++] - '0');
            out = std::move(out) / v;
            i = j < field.size() ? j + 1 : j;
        } else {
            std::size_t j = i;
            while (j < field.size() && field[j] != '.' && field[j] != '[') ++j;
            out = std::move(out) / std::string(field.substr(i, j - i));
            i = j;
        }
    }
    return out;
}

[[noreturn]] void throw_at(const SaveFile& save, const JsonPath& path, const std::string& message) {
    const std::string_view text = save.source_text;
    if (text.empty()) throw LoadError(save.source_name, 0, 0, detail::format_json_path(path), message);
    Reader(text, save.source_name).fail(path, message);
}

JsonPath section_path(const char* section, std::size_t index, const RestoreError& e) {
    JsonPath p = JsonPath{} / std::string(section) / index;
    for (auto& el : parse_field(e.field)) p.push_back(std::move(el));
    return p;
}

}  // namespace

const SaveTable* SaveFile::find_table(std::string_view name) const noexcept {
    for (const SaveTable& t : tables)
        if (t.name == name) return &t;
    return nullptr;
}

std::string write_save(const SaveFile& save) {
    Json j;
    j["format"] = kSaveFormat;
    j["version"] = kSaveVersion;
    j["application"] = save.application;
    j["tick"] = save.tick;
    Json maps = Json::array();
    for (const path::GridMap& m : save.maps) maps.push_back(map_json(m));
    j["maps"] = std::move(maps);
    Json systems = Json::array();
    for (const auto& s : save.agent_systems) systems.push_back(system_json(s));
    j["agent_systems"] = std::move(systems);
    Json movement = Json::array();
    for (const auto& m : save.movement) movement.push_back(movement_json(m));
    j["movement"] = std::move(movement);
    Json queues = Json::array();
    for (const auto& q : save.queues) queues.push_back(queue_json(q));
    j["queues"] = std::move(queues);
    Json tables = Json::array();
    for (const SaveTable& t : save.tables) tables.push_back(Json{{"name", t.name}, {"columns", t.columns}, {"rows", t.rows}});
    j["tables"] = std::move(tables);
    return j.dump(1) + "\n";
}

void write_save_file(const std::filesystem::path& file, const SaveFile& save) {
    const std::string text = write_save(save);
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    if (!out) throw LoadError(file.string(), 0, 0, "", "cannot write the save file");
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.close();
    if (!out) throw LoadError(file.string(), 0, 0, "", "cannot write the save file");
}

SaveFile parse_save(std::string_view text, std::string_view name, const SaveLimits& limits) {
    const std::string file(name);
    if (text.size() > limits.max_bytes)
        throw LoadError(file, 0, 0, "", "save file larger than the limit of " + format_bytes(limits.max_bytes));
    SaveFile s = Reader(text, file).load(std::min(limits.max_depth, kMaxJsonDepthCap));
    s.source_name = file;
    s.source_text = std::string(text);
    return s;
}

SaveFile load_save(const std::filesystem::path& file, const SaveLimits& limits) {
    const std::string text = read_bounded_file(file, limits.max_bytes, "save file");
    return parse_save(text, file.string(), limits);
}

void throw_save_error(const SaveFile& save, std::string_view field, const std::string& message) {
    throw_at(save, parse_field(field), message);
}

void restore(goap::AgentSystem& system, const SaveFile& save, std::size_t index, const goap::AgentSystem::AgentBinder& bind) {
    if (index >= save.agent_systems.size())
        throw_at(save, JsonPath{} / "agent_systems", "the save holds no agent system " + std::to_string(index));
    if (const RestoreResult r = system.restore_state(save.agent_systems[index], bind))
        throw_at(save, section_path("agent_systems", index, *r), r->message);
}

void restore(path::MovementSystem& movement, const SaveFile& save, std::size_t index) {
    if (index >= save.movement.size()) throw_at(save, JsonPath{} / "movement", "the save holds no movement system " + std::to_string(index));
    if (const RestoreResult r = movement.restore_state(save.movement[index])) throw_at(save, section_path("movement", index, *r), r->message);
}

void restore(path::PathRequestQueue& queue, const SaveFile& save, std::size_t index, const path::QueueBindings& bindings) {
    if (index >= save.queues.size()) throw_at(save, JsonPath{} / "queues", "the save holds no request queue " + std::to_string(index));
    if (const RestoreResult r = queue.restore_state(save.queues[index], bindings)) throw_at(save, section_path("queues", index, *r), r->message);
}

}  // namespace gameplan::io
