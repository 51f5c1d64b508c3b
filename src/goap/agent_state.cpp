// Saving and restoring a running AgentSystem (AgentSystem::save_state / restore_state, agent.hpp).
#include <gameplan/goap/agent.hpp>

#include <algorithm>

#include "agent_plan_cache.hpp"

#include <cmath>
#include <string>
#include <utility>

namespace gameplan::goap {

namespace {

SavedWorldState save_world(const WorldState& s) {
    SavedWorldState out;
    out.words.assign(s.words().begin(), s.words().end());
    out.values.assign(s.values().begin(), s.values().end());
    return out;
}

// Checks a saved state against the domain (sizes, no bits past the last atom, values in bounds, and
// with `shared_false` no shared atom set) and writes it into `out` (made by the domain).
std::optional<std::string> load_world(const Domain& d, const SavedWorldState& s, bool shared_false, WorldState& out,
                                      std::string& field) {
    out = d.make_state();
    const auto words = out.mutable_words();
    if (s.words.size() != words.size()) {
        field = "words";
        return "expected " + std::to_string(words.size()) + " words for " + std::to_string(d.atom_count()) + " atoms, found " +
               std::to_string(s.words.size());
    }
    const auto shared = d.shared_atoms().words();
    for (std::size_t w = 0; w < words.size(); ++w) {
        const std::size_t atoms_here = std::min<std::size_t>(64, d.atom_count() - 64 * w);
        const std::uint64_t valid = atoms_here == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << atoms_here) - 1;
        field = "words[" + std::to_string(w) + "]";
        if ((s.words[w] & ~valid) != 0) return std::string("bits set past the domain's last atom");
        if (shared_false && (s.words[w] & shared[w]) != 0) return std::string("a shared atom is set in an agent's private state");
        words[w] = s.words[w];
    }
    if (s.values.size() != d.variable_count()) {
        field = "values";
        return "expected " + std::to_string(d.variable_count()) + " variable values, found " + std::to_string(s.values.size());
    }
    for (std::size_t v = 0; v < s.values.size(); ++v) {
        if (!d.in_bounds(VarId(static_cast<std::uint32_t>(v)), s.values[v])) {
            field = "values[" + std::to_string(v) + "]";
            return "value " + std::to_string(s.values[v]) + " is outside the variable's bounds";
        }
        out.set_value(VarId(static_cast<std::uint32_t>(v)), s.values[v]);
    }
    field.clear();
    return std::nullopt;
}

}  // namespace

void AgentSystem::save_state(AgentSystemState& out) const {
    out = AgentSystemState{};
    out.tick = m_tick;
    out.blackboard = save_world(m_blackboard.state());
    out.blackboard_version = m_blackboard.version();
    out.generations = m_generations;
    out.free_slots = m_free_slots;
    out.agents.resize(m_agents.size());
    for (std::size_t i = 0; i < m_agents.size(); ++i) {
        if (!m_agents[i]) continue;
        const Agent& a = *m_agents[i];
        AgentState& s = out.agents[i].emplace();
        s.name = a.m_name;
        s.type = a.m_type->name();
        for (const AgentGoal& g : a.m_goals) s.goals.push_back(g.name);
        s.budget = a.m_budget;
        s.direction = a.m_direction;
        s.private_state = save_world(a.m_private);
        s.view = save_world(a.m_view);
        s.private_version = a.m_private_version;
        s.seen_world_version = a.m_seen_world_version;
        s.seen_private_version = a.m_seen_private_version;
        s.context_version = a.m_context_version;
        s.seen_context_version = a.m_seen_context_version;
        s.status = a.m_status;
        s.idle_reason = a.m_idle_reason;
        s.goal = a.m_goal;
        for (const ActionId id : a.m_plan) s.plan.push_back(id.value);
        s.step = a.m_step;
        s.plan_cost = a.m_plan_cost;
        s.running = a.m_running;
        s.ticks_running = a.m_ticks_running;
        s.has_pending = a.m_has_pending;
        s.pending = a.m_pending;
        s.pending_action = a.m_pending_action.value;
        s.abort_requested = a.m_abort_requested;
        s.replan_requested = a.m_replan_requested;
        s.dirty = a.m_dirty;
        s.abort_hook_pending = a.m_abort_hook_pending;
        s.abort_hook_action = a.m_abort_hook_action.value;
        s.abort_hook_reason = a.m_abort_hook_reason;
        s.abort_hook_ticks = a.m_abort_hook_ticks;
        s.priorities = a.m_priority;
        s.selecting = a.m_selecting;
        s.speculative = a.m_speculative;
        s.any_failed = a.m_any_failed;
        s.candidates = a.m_candidates;
        s.candidate = a.m_candidate;
        s.search_active = a.m_search_active && a.m_planner != nullptr;
        if (s.search_active) {
            s.search_start = save_world(a.m_search_start);
            s.search_mask = a.m_search_mask;
            if (s.search_mask == 2) {
                s.search_enabled = a.m_enabled;
                if (a.m_type_ptr->has_callbacks()) s.search_costs = a.m_costs;
            }
            s.search_expanded = a.m_planner->result().stats.expanded;
        }
        s.failures = a.m_failures;
        s.cooldown_until = a.m_cooldown_until;
        s.next_cooldown_end = a.m_next_cooldown_end;
        if (std::any_of(a.m_goal_failures.begin(), a.m_goal_failures.end(), [](std::uint32_t x) { return x != 0; }) ||
            std::any_of(a.m_goal_cooldown_until.begin(), a.m_goal_cooldown_until.end(), [](std::uint64_t x) { return x != 0; })) {
            s.goal_failures = a.m_goal_failures;
            s.goal_cooldown_until = a.m_goal_cooldown_until;
        }
        s.stats = a.m_stats;
    }
}

RestoreResult AgentSystem::restore_state(const AgentSystemState& state, const AgentBinder& bind) {
    const Domain& d = *m_domain;
    const auto clear = [&] {
        for (std::unique_ptr<Agent>& a : m_agents)
            if (a && a->m_planner) release_planner(std::move(a->m_planner));
        m_agents.clear();
        m_generations.clear();
        m_free_slots.clear();
        m_live = 0;
    };
    const auto fail = [&](std::string field, std::string message) -> RestoreResult {
        clear();
        return RestoreError{std::move(field), std::move(message)};
    };
    clear();
    const std::size_t slots = state.agents.size();
    if (state.generations.size() != slots)
        return fail("generations", "expected one generation per agent slot (" + std::to_string(slots) + ")");
    {
        WorldState board = d.make_state();
        std::string field;
        if (auto message = load_world(d, state.blackboard, false, board, field)) return fail("blackboard." + field, *message);
        for (std::size_t w = 0; w < board.words().size(); ++w)
            if ((board.words()[w] & ~d.shared_atoms().words()[w]) != 0)
                return fail("blackboard.words[" + std::to_string(w) + "]", "a private atom is set on the blackboard");
        m_blackboard.restore(board, state.blackboard_version);
    }
    const std::size_t actions = d.action_count();
    m_agents.resize(slots);
    m_generations = state.generations;
    for (std::size_t i = 0; i < slots; ++i) {
        if (!state.agents[i]) continue;
        const AgentState& s = *state.agents[i];
        const std::string at = "agents[" + std::to_string(i) + "]";
        AgentParams params;
        if (!bind(s, params)) return fail(at, "the game cannot bind agent '" + s.name + "' of type '" + s.type + "'");
        if (!params.type || &params.type->domain() != &d) return fail(at + ".type", "no agent type bound to this system's domain");
        if (params.type->name() != s.type)
            return fail(at + ".type", "the saved type is '" + s.type + "' but the game bound '" + params.type->name() + "'");
        if (params.goals.size() != s.goals.size())
            return fail(at + ".goals", "the save has " + std::to_string(s.goals.size()) + " goals, the game bound " +
                                           std::to_string(params.goals.size()));
        for (std::size_t g = 0; g < s.goals.size(); ++g) {
            if (params.goals[g].name != s.goals[g])
                return fail(at + ".goals[" + std::to_string(g) + "]", "the saved goal is '" + s.goals[g] + "' but the game bound '" +
                                                                          params.goals[g].name + "'");
            if (params.goals[g].condition.atom_count() != d.atom_count())
                return fail(at + ".goals[" + std::to_string(g) + "]", "the bound goal does not match the domain");
        }
        std::string field;
        WorldState priv = d.make_state(), view = d.make_state(), start = d.make_state();
        if (auto m = load_world(d, s.private_state, true, priv, field)) return fail(at + ".private_state." + field, *m);
        if (auto m = load_world(d, s.view, false, view, field)) return fail(at + ".view." + field, *m);
        if (s.search_active)
            if (auto m = load_world(d, s.search_start, false, start, field)) return fail(at + ".search_start." + field, *m);
        const std::size_t goals = s.goals.size();
        const auto bad_action = [&](std::uint32_t a) { return a >= actions; };
        for (std::size_t k = 0; k < s.plan.size(); ++k)
            if (bad_action(s.plan[k])) return fail(at + ".plan[" + std::to_string(k) + "]", "no action " + std::to_string(s.plan[k]));
        if (s.step > s.plan.size()) return fail(at + ".step", "past the end of the plan");
        if (s.goal != kNoGoal && s.goal >= goals) return fail(at + ".goal", "no goal " + std::to_string(s.goal));
        if (s.status > AgentStatus::Acting) return fail(at + ".status", "unknown status");
        if (s.status != AgentStatus::Idle && s.goal == kNoGoal && !s.selecting)
            return fail(at + ".goal", "an agent that is not idle pursues a goal");
        if (s.status != AgentStatus::Idle && s.goal != kNoGoal && s.step >= s.plan.size() && !s.has_pending && !s.selecting)
            return fail(at + ".step", "an acting agent's plan position must be inside its plan (or a replan pending)");
        if (s.running && (s.step >= s.plan.size() || s.goal == kNoGoal))
            return fail(at + ".running", "a running action must be a step of the plan");
        if (static_cast<std::size_t>(s.pending) >= kReplanTriggerCount) return fail(at + ".pending", "unknown trigger");
        if (s.idle_reason > IdleReason::NoPlan) return fail(at + ".idle_reason", "unknown idle reason");
        if (s.abort_hook_reason > AbortReason::Removed) return fail(at + ".abort_hook_reason", "unknown abort reason");
        if (s.pending_action != ActionId::kInvalid && bad_action(s.pending_action)) return fail(at + ".pending_action", "no such action");
        if (s.abort_hook_pending) {
            if (bad_action(s.abort_hook_action)) return fail(at + ".abort_hook_action", "no such action");
            const Behaviour* b = params.type->behaviour(ActionId(s.abort_hook_action));
            if (!b || !b->abort) return fail(at + ".abort_hook_action", "the action's behaviour has no abort hook");
        }
        if (s.running && !params.type->behaviour(ActionId(s.plan[s.step])))
            return fail(at + ".running", "the running action has no behaviour");
        for (std::size_t k = 0; k < s.plan.size(); ++k)
            if (!params.type->behaviour(ActionId(s.plan[k])))
                return fail(at + ".plan[" + std::to_string(k) + "]", "the action has no behaviour in the bound type");
        if (s.priorities.size() != goals) return fail(at + ".priorities", "expected one priority per goal");
        for (std::size_t k = 0; k < goals; ++k)
            if (std::isnan(s.priorities[k])) return fail(at + ".priorities[" + std::to_string(k) + "]", "not a number");
        for (std::size_t k = 0; k < s.candidates.size(); ++k)
            if (s.candidates[k] >= goals) return fail(at + ".candidates[" + std::to_string(k) + "]", "no such goal");
        if (s.candidates.size() > goals) return fail(at + ".candidates", "more candidates than goals");
        if (s.candidate > s.candidates.size()) return fail(at + ".candidate", "past the end of the candidates");
        if (s.speculative && s.selecting && s.goal == kNoGoal) return fail(at + ".speculative", "a speculative selection needs a current goal");
        if (s.failures.size() != actions) return fail(at + ".failures", "expected one entry per action");
        if (s.cooldown_until.size() != actions) return fail(at + ".cooldown_until", "expected one entry per action");
        if (!s.goal_failures.empty() && s.goal_failures.size() != goals) return fail(at + ".goal_failures", "expected one entry per goal");
        if (!s.goal_cooldown_until.empty() && s.goal_cooldown_until.size() != goals)
            return fail(at + ".goal_cooldown_until", "expected one entry per goal");
        if (s.search_active) {
            if (!s.selecting || s.candidate >= s.candidates.size())
                return fail(at + ".search_active", "a paused search belongs to a goal selection in progress");
            if (s.search_mask > 2) return fail(at + ".search_mask", "expected 0, 1 or 2");
            if (s.search_mask == 2 && s.search_enabled.size() != actions) return fail(at + ".search_enabled", "expected one entry per action");
            if (!s.search_costs.empty() && s.search_costs.size() != actions) return fail(at + ".search_costs", "expected one entry per action");
            for (std::size_t k = 0; k < s.search_costs.size(); ++k)
                if (!std::isfinite(s.search_costs[k]) || s.search_costs[k] < 0)
                    return fail(at + ".search_costs[" + std::to_string(k) + "]", "a cost is finite and >= 0");
        }

        params.name = s.name;
        params.state = std::move(priv);
        params.max_expansions_per_tick = s.budget;
        params.direction = s.direction;
        m_agents[i].reset(new Agent(*this, AgentId{static_cast<std::uint32_t>(i), m_generations[i]}, std::move(params)));
        ++m_live;
        Agent& a = *m_agents[i];
        a.m_view = std::move(view);
        a.m_private_version = s.private_version;
        a.m_seen_world_version = s.seen_world_version;
        a.m_seen_private_version = s.seen_private_version;
        a.m_context_version = s.context_version;
        a.m_seen_context_version = s.seen_context_version;
        a.m_status = s.status;
        a.m_idle_reason = s.idle_reason;
        a.m_goal = s.goal;
        a.m_plan.clear();
        for (const std::uint32_t id : s.plan) a.m_plan.push_back(ActionId(id));
        a.m_step = static_cast<std::size_t>(s.step);
        a.m_plan_cost = s.plan_cost;
        a.m_running = s.running;
        a.m_ticks_running = s.ticks_running;
        a.m_has_pending = s.has_pending;
        a.m_pending = s.pending;
        a.m_pending_action = ActionId(s.pending_action);
        a.m_abort_requested = s.abort_requested;
        a.m_replan_requested = s.replan_requested;
        a.m_dirty = s.dirty;
        a.m_abort_hook_pending = s.abort_hook_pending;
        a.m_abort_hook_action = ActionId(s.abort_hook_action);
        a.m_abort_hook_reason = s.abort_hook_reason;
        a.m_abort_hook_ticks = s.abort_hook_ticks;
        a.m_priority = s.priorities;
        a.m_selecting = s.selecting;
        a.m_speculative = s.speculative;
        a.m_any_failed = s.any_failed;
        a.m_candidates.assign(s.candidates.begin(), s.candidates.end());
        a.m_candidate = static_cast<std::size_t>(s.candidate);
        a.m_failures = s.failures;
        a.m_cooldown_until = s.cooldown_until;
        a.m_next_cooldown_end = s.next_cooldown_end;
        if (!s.goal_failures.empty()) a.m_goal_failures = s.goal_failures;
        if (!s.goal_cooldown_until.empty()) a.m_goal_cooldown_until = s.goal_cooldown_until;
        a.m_stats = s.stats;
        a.m_search_active = false;
        if (s.search_active) {
            // Replay the paused search: the same query, the same number of expansions, the same state.
            const std::uint32_t g = a.m_candidates[a.m_candidate];
            a.m_search_start = std::move(start);
            a.m_search_mask = s.search_mask;
            PlanOptions options;
            options.direction = a.m_direction;
            if (s.search_mask == 1) options.enabled = a.m_type_ptr->plannable_mask();
            if (s.search_mask == 2) {
                a.m_enabled = s.search_enabled;
                options.enabled = a.m_enabled;
                if (!s.search_costs.empty()) {
                    a.m_costs = s.search_costs;
                    options.costs = a.m_costs;
                }
            }
            std::unique_ptr<Planner> planner = acquire_planner();
            Status status = planner->begin(a.m_search_start, a.m_goals[g].condition, options);
            if (status == Status::InProgress && s.search_expanded > 0) status = planner->step(s.search_expanded);
            if (status != Status::InProgress || planner->result().stats.expanded != s.search_expanded) {
                release_planner(std::move(planner));
                return fail(at + ".search_expanded", "the paused search does not replay to a paused search with this many expansions");
            }
            if (m_options.plan_cache_entries > 0)
                a.m_query_hash = detail::PlanCache::make_key(a.m_query_key, static_cast<std::uint8_t>(options.direction),
                                                             a.m_search_start, a.m_goals[g].condition, options.enabled, options.costs);
            a.m_planner = std::move(planner);
            a.m_search_active = true;
        }
    }
    {
        std::vector<std::uint8_t> seen(slots, 0);
        for (std::size_t i = 0; i < slots; ++i) seen[i] = state.agents[i] ? 1 : 0;
        for (std::size_t k = 0; k < state.free_slots.size(); ++k) {
            const std::uint32_t i = state.free_slots[k];
            if (i >= slots || seen[i]) return fail("free_slots[" + std::to_string(k) + "]", "not a free slot (or listed twice)");
            seen[i] = 1;
        }
        for (std::size_t i = 0; i < slots; ++i)
            if (!seen[i]) return fail("free_slots", "slot " + std::to_string(i) + " is neither an agent nor free");
        m_free_slots = state.free_slots;
    }
    m_tick = state.tick;
    return std::nullopt;
}

}  // namespace gameplan::goap
