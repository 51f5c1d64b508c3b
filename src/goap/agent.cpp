// The agent runtime: per-agent think/act state machine and the system that ticks agents.
// See include/gameplan/goap/agent.hpp for the semantics this file implements.
#include <gameplan/goap/agent.hpp>

#include "agent_plan_cache.hpp"

#include <gameplan/goap/explain.hpp>

#include <algorithm>
#include <cmath>
#include <utility>

namespace gameplan::goap {

namespace {

bool active(double priority) noexcept { return !std::isnan(priority) && priority != kInactivePriority; }

// Actions backward-reachable from `goal` through achievers, restricted to those `type` may plan and
// keeping only those with a check or cost callback: the callbacks a planning call for this goal runs.
std::vector<ActionId> callback_actions_for(const Domain& domain, const AgentType& type, const Condition& goal) {
    std::vector<ActionId> out;
    if (!type.has_callbacks()) return out;
    if (domain.has_variables()) {  // numeric effects have no achiever index: every callback may matter
        for (std::uint32_t a = 0; a < domain.action_count(); ++a)
            if (type.plannable(ActionId(a)) && (type.check(ActionId(a)) || type.cost(ActionId(a)))) out.push_back(ActionId(a));
        return out;
    }
    std::vector<std::uint8_t> literal_seen(2 * domain.atom_count(), 0);
    std::vector<std::uint8_t> action_seen(domain.action_count(), 0);
    std::vector<Literal> queue;
    goal.for_each([&](Literal l) {
        literal_seen[literal_index(l)] = 1;
        queue.push_back(l);
    });
    while (!queue.empty()) {
        const Literal l = queue.back();
        queue.pop_back();
        for (const ActionId a : domain.achievers(l)) {
            if (action_seen[a.value] || !type.plannable(a)) continue;
            action_seen[a.value] = 1;
            for (const Literal p : domain.precondition_literals(a)) {
                if (literal_seen[literal_index(p)]) continue;
                literal_seen[literal_index(p)] = 1;
                queue.push_back(p);
            }
        }
    }
    for (std::uint32_t a = 0; a < domain.action_count(); ++a)
        if (action_seen[a] && (type.check(ActionId(a)) || type.cost(ActionId(a)))) out.push_back(ActionId(a));
    return out;
}

}  // namespace

// ---- names ----------------------------------------------------------------------------------------

std::string_view to_string(AgentStatus status) noexcept {
    switch (status) {
        case AgentStatus::Idle: return "idle";
        case AgentStatus::Planning: return "planning";
        case AgentStatus::Acting: return "acting";
    }
    return "unknown";
}

void AgentStats::add(const AgentStats& o) noexcept {
    replans += o.replans;
    for (std::size_t i = 0; i < replans_by_trigger.size(); ++i) replans_by_trigger[i] += o.replans_by_trigger[i];
    searches += o.searches;
    plans_found += o.plans_found;
    plans_failed += o.plans_failed;
    expanded += o.expanded;
    checks += o.checks;
    cost_calls += o.cost_calls;
    cache_hits += o.cache_hits;
    priority_calls += o.priority_calls;
    actions_started += o.actions_started;
    actions_succeeded += o.actions_succeeded;
    actions_failed += o.actions_failed;
    actions_aborted += o.actions_aborted;
    updates += o.updates;
}

// ---- Agent ----------------------------------------------------------------------------------------

Agent::Agent(AgentSystem& system, AgentId id, AgentParams&& params)
    : m_system(&system),
      m_domain(&system.domain()),
      m_type_ptr(params.type.get()),
      m_user_data(params.user_data),
      m_budget(params.max_expansions_per_tick == 0 ? 1 : params.max_expansions_per_tick),
      m_id(id),
      m_direction(params.direction),
      m_type(std::move(params.type)),
      m_name(std::move(params.name)),
      m_goals(std::move(params.goals)) {
    const Domain& d = *m_domain;
    const std::size_t atoms = d.atom_count();
    m_private = params.state.atom_count() == atoms && params.state.var_count() == d.variable_count() ? std::move(params.state)
                                                                                                   : d.make_state();
    {
        // The world owns shared atoms: an agent's copy of them is always false.
        const auto w = m_private.mutable_words();
        const auto shared = d.shared_atoms().words();
        for (std::size_t i = 0; i < w.size(); ++i) w[i] &= ~shared[i];
    }
    m_view = d.make_state();
    m_scratch = d.make_state();
    m_search_start = d.make_state();
    m_priority.resize(m_goals.size());
    for (std::size_t g = 0; g < m_goals.size(); ++g) {
        m_has_goal_conditions |= !m_goals[g].when.empty() || m_goals[g].priority_var.valid();
        m_dynamic_priorities |= static_cast<bool>(m_goals[g].priority_fn) || m_has_goal_conditions;
        m_priority[g] = std::isnan(m_goals[g].priority) ? kInactivePriority : m_goals[g].priority;
    }
    m_candidates.reserve(m_goals.size());
    m_callback_actions.reserve(m_goals.size());
    for (const AgentGoal& g : m_goals) m_callback_actions.push_back(callback_actions_for(d, *m_type_ptr, g.condition));
    m_enabled.assign(d.action_count(), 1);
    m_failures.assign(d.action_count(), 0);
    m_cooldown_until.assign(d.action_count(), 0);
    m_goal_failures.assign(m_goals.size(), 0);
    m_goal_cooldown_until.assign(m_goals.size(), 0);
    m_costs.assign(d.action_count(), 0.0);
    m_plan.reserve(8);
}

Agent::~Agent() = default;

bool Agent::set(AtomId atom, bool value) noexcept {
    if (!atom.valid() || atom.value >= m_private.atom_count() || m_domain->is_shared(atom)) return false;
    if (m_private.get(atom) != value) {
        m_private.set(atom, value);
        ++m_private_version;
    }
    return true;
}

bool Agent::set_value(VarId var, std::int32_t value) noexcept {
    if (!var.valid() || var.value >= m_private.var_count() || m_domain->is_shared(var) || !m_domain->in_bounds(var, value))
        return false;
    if (m_private.value(var) != value) {
        m_private.set_value(var, value);
        ++m_private_version;
    }
    return true;
}

// view = world's shared atoms and variables + the agent's private ones.
void Agent::merge_view(WorldState& out, const Blackboard& world) const noexcept {
    out.assign_view(world.state(), m_private, m_domain->shared_atoms());
    if (out.var_count() > 0) out.assign_view_values(world.state(), m_private, m_domain->shared_variables());
}

void Agent::run_sensors(std::uint64_t tick) {
    for (const Sensor& s : m_type_ptr->sensors())
        if (tick % s.period == 0) {
            SensorContext ctx{*this, m_system->blackboard(), tick, m_user_data};
            s.fn(ctx);
        }
}

// Ends cool-downs that are over (an event each); true if any ended, so the agent re-decides.
bool Agent::update_back_off(std::uint64_t tick) {
    if (tick < m_next_cooldown_end) return false;
    std::uint64_t next = UINT64_MAX;
    bool ended = false;
    for (std::uint32_t a = 0; a < m_cooldown_until.size(); ++a) {
        const std::uint64_t until = m_cooldown_until[a];
        if (until == 0) continue;
        if (until <= tick) {
            m_cooldown_until[a] = 0;
            ended = true;
            emit(AgentEventKind::BackOffEnded, tick).event.action = ActionId(a);
        } else {
            next = std::min(next, until);
        }
    }
    for (std::uint32_t g = 0; g < m_goal_cooldown_until.size(); ++g) {
        const std::uint64_t until = m_goal_cooldown_until[g];
        if (until == 0) continue;
        if (until <= tick) {
            m_goal_cooldown_until[g] = 0;
            ended = true;
            emit(AgentEventKind::GoalBackOffEnded, tick).event.goal = g;
        } else {
            next = std::min(next, until);
        }
    }
    m_next_cooldown_end = next;
    return ended;
}

// A failure of `goal` (no plan, or an action of its plan failed): counts towards its back-off.
void Agent::record_goal_failure(std::uint32_t goal, std::uint64_t tick) {
    const RetryPolicy& policy = m_goals[goal].retry;
    if (policy.after_failures == 0 || ++m_goal_failures[goal] < policy.after_failures) return;
    PendingEvent& e = emit(AgentEventKind::GoalBackedOff, tick);
    e.event.goal = goal;
    e.event.expanded = m_goal_failures[goal];
    e.event.ticks = policy.cooldown_ticks;
    m_goal_failures[goal] = 0;
    if (policy.cooldown_ticks == 0) return;
    m_goal_cooldown_until[goal] = tick + 1 + policy.cooldown_ticks;  // skipped for the next cooldown_ticks ticks
    m_next_cooldown_end = std::min(m_next_cooldown_end, m_goal_cooldown_until[goal]);
}

// The no-plan analysis of the query that just failed, into the event buffers (observer set only).
void Agent::analyze_failure(PendingEvent& event, std::uint32_t goal) {
    const std::span<const std::uint8_t> mask = m_search_mask == 0   ? std::span<const std::uint8_t>{}
                                               : m_search_mask == 1 ? m_type_ptr->plannable_mask()
                                                                    : std::span<const std::uint8_t>(m_enabled);
    const NoPlanAnalysis a = analyze_no_plan(*m_domain, m_search_start, m_goals[goal].condition, mask);
    emit_literals(event, a.unreachable);
    event.event.analyzed = true;
    event.root_offset = static_cast<std::uint32_t>(m_event_literals.size());
    event.root_size = static_cast<std::uint32_t>(a.root_causes.size());
    m_event_literals.insert(m_event_literals.end(), a.root_causes.begin(), a.root_causes.end());
    event.cycle_offset = static_cast<std::uint32_t>(m_event_literals.size());
    event.sizes_offset = static_cast<std::uint32_t>(m_event_sizes.size());
    for (const std::vector<Literal>& c : a.cycles) {
        m_event_literals.insert(m_event_literals.end(), c.begin(), c.end());
        m_event_sizes.push_back(static_cast<std::uint32_t>(c.size()));
    }
    event.cycle_size = static_cast<std::uint32_t>(m_event_literals.size()) - event.cycle_offset;
    event.sizes_size = static_cast<std::uint32_t>(a.cycles.size());
    event.disabled_offset = static_cast<std::uint32_t>(m_event_actions.size());
    for (const ActionId x : a.disabled)
        if (m_type_ptr->plannable(x)) m_event_actions.push_back(x);  // switched off for this query, not excluded
    event.disabled_size = static_cast<std::uint32_t>(m_event_actions.size()) - event.disabled_offset;
    event.comparison_offset = static_cast<std::uint32_t>(m_event_comparisons.size());
    m_event_comparisons.insert(m_event_comparisons.end(), a.unreachable_comparisons.begin(), a.unreachable_comparisons.end());
    event.comparison_size = static_cast<std::uint32_t>(a.unreachable_comparisons.size());
    event.numeric_root_offset = static_cast<std::uint32_t>(m_event_comparisons.size());
    for (const NumericBlock& b : a.numeric)
        if (b.root_cause()) m_event_comparisons.push_back(b.condition);
    event.numeric_root_size = static_cast<std::uint32_t>(m_event_comparisons.size()) - event.numeric_root_offset;
}

void Agent::record_action_outcome(ActionId a, bool failed, std::uint64_t tick) {
    if (!failed) {
        m_failures[a.value] = 0;
        return;
    }
    const RetryPolicy& policy = m_domain->retry_policy(a);
    if (policy.after_failures == 0 || ++m_failures[a.value] < policy.after_failures) return;
    PendingEvent& e = emit(AgentEventKind::ActionBackedOff, tick);
    e.event.action = a;
    e.event.expanded = m_failures[a.value];
    e.event.ticks = policy.cooldown_ticks;
    m_failures[a.value] = 0;
    if (policy.cooldown_ticks == 0) return;
    m_cooldown_until[a.value] = tick + 1 + policy.cooldown_ticks;  // skipped for the next cooldown_ticks ticks
    m_next_cooldown_end = std::min(m_next_cooldown_end, m_cooldown_until[a.value]);
}

void Agent::set_pending(ReplanTrigger trigger, ActionId action) noexcept {
    m_has_pending = true;
    m_pending = trigger;
    m_pending_action = action;
}

Agent::PendingEvent& Agent::emit(AgentEventKind kind, std::uint64_t tick) {
    if (!m_record) return m_discard;  // written to and never read
    PendingEvent& p = m_events.emplace_back();
    p.event.kind = kind;
    p.event.tick = tick;
    p.event.agent = m_id;
    return p;
}

void Agent::emit_plan(PendingEvent& event, std::span<const ActionId> plan) {
    if (!m_record) return;
    event.plan_offset = static_cast<std::uint32_t>(m_event_actions.size());
    event.plan_size = static_cast<std::uint32_t>(plan.size());
    m_event_actions.insert(m_event_actions.end(), plan.begin(), plan.end());
}

void Agent::emit_literals(PendingEvent& event, std::span<const Literal> literals) {
    if (!m_record) return;
    event.literal_offset = static_cast<std::uint32_t>(m_event_literals.size());
    event.literal_size = static_cast<std::uint32_t>(literals.size());
    m_event_literals.insert(m_event_literals.end(), literals.begin(), literals.end());
}

bool Agent::refresh_view(const Blackboard& world) {
    if (world.version() == m_seen_world_version && m_private_version == m_seen_private_version) return false;
    m_seen_world_version = world.version();
    m_seen_private_version = m_private_version;
    merge_view(m_scratch, world);
    if (m_scratch == m_view) return false;  // e.g. only the agent's own, already-believed effects
    std::swap(m_view, m_scratch);
    return true;
}

void Agent::evaluate_priorities(std::uint64_t tick) {
    if (!m_dynamic_priorities) return;  // fixed priorities were stored once, at construction
    for (std::uint32_t g = 0; g < m_goals.size(); ++g) {
        const AgentGoal& goal = m_goals[g];
        if (goal.priority_fn) {
            ++m_stats.priority_calls;
            const double p = goal.priority_fn(PlanningContext{*this, m_view, ActionId{}, g, tick, m_user_data});
            m_priority[g] = std::isnan(p) ? kInactivePriority : p;
        } else if (goal.priority_var.valid()) {
            const double p = goal.priority_scale * m_view.value(goal.priority_var) + goal.priority_offset;
            m_priority[g] = std::isnan(p) ? kInactivePriority : p;
        } else {
            m_priority[g] = std::isnan(goal.priority) ? kInactivePriority : goal.priority;
        }
        if (!goal.when.empty() && !m_view.satisfies(goal.when)) m_priority[g] = kInactivePriority;
    }
}

bool Agent::higher_priority_goal_pending() const {
    const double current = m_priority[m_goal];
    for (std::uint32_t g = 0; g < m_goals.size(); ++g)
        if (g != m_goal && active(m_priority[g]) && m_priority[g] > current && m_goal_cooldown_until[g] == 0 &&
            !m_view.satisfies(m_goals[g].condition))
            return true;
    return false;
}

bool Agent::plan_reaches_goal() {
    m_scratch = m_view;  // same size: reuses storage
    for (std::size_t i = m_step; i < m_plan.size(); ++i) {
        const ActionId a = m_plan[i];
        if (!(i == m_step && m_running) && !m_domain->can_apply(a, m_scratch)) return false;
        m_domain->apply(a, m_scratch);
    }
    return m_scratch.satisfies(m_goals[m_goal].condition);
}

void Agent::abort_running(AbortReason reason, std::uint64_t tick) {
    if (!m_running) return;
    const ActionId a = m_plan[m_step];
    m_running = false;
    ++m_stats.actions_aborted;
    PendingEvent& e = emit(AgentEventKind::ActionAborted, tick);
    e.event.action = a;
    e.event.abort_reason = reason;
    e.event.ticks = m_ticks_running;
    // The behaviour's abort hook is game code: it runs in the act phase, on the calling thread.
    if (m_type_ptr->behaviour(a)->abort) {
        m_abort_hook_pending = true;
        m_abort_hook_action = a;
        m_abort_hook_reason = reason;
        m_abort_hook_ticks = m_ticks_running;
    }
}

void Agent::begin_selection(ReplanTrigger trigger, ActionId action, bool speculative, bool evaluated, std::uint64_t tick) {
    ++m_stats.replans;
    ++m_stats.replans_by_trigger[static_cast<std::size_t>(trigger)];
    PendingEvent& e = emit(AgentEventKind::Replan, tick);
    e.event.trigger = trigger;
    e.event.goal = m_goal;
    e.event.action = action;
    m_has_pending = false;
    m_replan_requested = false;
    if (!evaluated) evaluate_priorities(tick);
    const double floor = speculative ? m_priority[m_goal] : kInactivePriority;
    m_candidates.clear();
    for (std::uint32_t g = 0; g < m_goals.size(); ++g) {
        const double p = m_priority[g];
        if (!active(p) || (speculative && !(p > floor)) || m_view.satisfies(m_goals[g].condition) ||
            m_goal_cooldown_until[g] > tick)
            continue;
        // Insertion keeps declaration order among equal priorities (stable, no allocation).
        std::size_t pos = m_candidates.size();
        m_candidates.push_back(g);
        while (pos > 0 && m_priority[m_candidates[pos - 1]] < p) {
            m_candidates[pos] = m_candidates[pos - 1];
            --pos;
        }
        m_candidates[pos] = g;
    }
    m_selecting = true;
    m_speculative = speculative;
    m_candidate = 0;
    m_search_active = false;
    m_any_failed = false;
    // A goal skipped for its back-off failed recently: idling for it is "no plan", not "satisfied".
    for (std::uint32_t g = 0; g < m_goals.size() && !m_any_failed; ++g)
        m_any_failed = m_goal_cooldown_until[g] > tick && active(m_priority[g]) && !m_view.satisfies(m_goals[g].condition);
}

void Agent::prepare_query(std::uint32_t goal, std::uint64_t tick, PlanOptions& options) {
    options.direction = m_direction;
    const AgentType& type = *m_type_ptr;
    const bool backing_off = m_next_cooldown_end != UINT64_MAX;
    if (!type.has_callbacks() && !backing_off) {
        if (!type.all_plannable()) options.enabled = type.plannable_mask();
        return;
    }
    const auto mask = type.plannable_mask();
    std::copy(mask.begin(), mask.end(), m_enabled.begin());
    if (backing_off)
        for (std::uint32_t a = 0; a < m_cooldown_until.size(); ++a)
            if (m_cooldown_until[a] > tick) m_enabled[a] = 0;
    if (!type.has_callbacks()) {
        options.enabled = m_enabled;
        return;
    }
    const auto costs = m_domain->action_costs();
    std::copy(costs.begin(), costs.end(), m_costs.begin());
    for (const ActionId a : m_callback_actions[goal]) {
        if (m_enabled[a.value] == 0) continue;  // backed off
        const PlanningContext ctx{*this, m_view, a, goal, tick, m_user_data};
        if (const ContextCheck& check = type.check(a)) {
            ++m_stats.checks;
            if (!check(ctx)) {
                m_enabled[a.value] = 0;
                continue;
            }
        }
        if (const CostFunction& cost = type.cost(a)) {
            ++m_stats.cost_calls;
            const double c = cost(ctx);
            if (std::isfinite(c) && c >= 0) m_costs[a.value] = c;
            else m_enabled[a.value] = 0;
        }
    }
    options.enabled = m_enabled;
    options.costs = m_costs;
}

void Agent::finish_search(PlannerSlot slot) {
    m_search_active = false;
    if (m_planner) slot.system->release_planner(std::move(m_planner));
}

void Agent::adopt_plan(std::uint32_t goal, const PlanResult& result, std::uint64_t tick) {
    ++m_stats.plans_found;
    const std::uint32_t previous = m_goal;
    // Continue the running action when the new plan starts with it (no restart, no abort).
    const bool keep = m_running && !result.plan.empty() && result.plan.front() == m_plan[m_step];
    if (m_running && !keep) abort_running(AbortReason::Replaced, tick);
    m_plan.assign(result.plan.begin(), result.plan.end());
    m_step = 0;
    m_plan_cost = result.cost;
    m_goal = goal;
    m_status = AgentStatus::Acting;
    m_selecting = false;
    m_plan_fresh = true;
    if (m_plan.empty()) set_pending(ReplanTrigger::GoalReached, ActionId{});
    PendingEvent& found = emit(AgentEventKind::PlanFound, tick);
    found.event.goal = goal;
    found.event.priority = m_priority[goal];
    found.event.cost = result.cost;
    found.event.expanded = result.stats.expanded;
    emit_plan(found, m_plan);
    PendingEvent& chosen = emit(AgentEventKind::GoalChosen, tick);
    chosen.event.goal = goal;
    chosen.event.previous_goal = previous;
    chosen.event.priority = m_priority[goal];
}

void Agent::end_selection_without_plan(std::uint64_t tick) {
    m_selecting = false;
    if (m_speculative && m_goal != kNoGoal) {
        // No more important goal is achievable: the current plan continues untouched.
        m_status = AgentStatus::Acting;
        return;
    }
    abort_running(AbortReason::NoPlan, tick);
    m_plan.clear();
    m_step = 0;
    m_plan_cost = 0;
    m_goal = kNoGoal;
    m_status = AgentStatus::Idle;
    m_idle_reason = m_any_failed ? IdleReason::NoPlan : IdleReason::GoalsSatisfied;
    PendingEvent& e = emit(AgentEventKind::Idle, tick);
    e.event.idle_reason = m_idle_reason;
}

void Agent::record_failure(std::uint32_t goal, std::uint64_t expanded, std::span<const Literal> unreachable, std::uint64_t tick,
                           Status status, search::BudgetLimit limit) {
    ++m_stats.plans_failed;
    m_any_failed = true;
    PendingEvent& e = emit(AgentEventKind::PlanFailed, tick);
    e.event.goal = goal;
    e.event.priority = m_priority[goal];
    e.event.expanded = expanded;
    e.event.search_status = status;
    e.event.search_limit = status == Status::BudgetExhausted ? limit : search::BudgetLimit::None;
    const std::uint32_t budget = m_system->m_options.explain_no_plan;
    if (m_record && status == Status::NoPath && budget > 0) {
        if (m_analysis_tick != tick) {
            m_analysis_tick = tick;
            m_analyses_this_tick = 0;
        }
        if (m_analyses_this_tick < budget) {
            ++m_analyses_this_tick;
            analyze_failure(e, goal);
        } else {
            emit_literals(e, unreachable);
        }
    } else {
        emit_literals(e, unreachable);
    }
    record_goal_failure(goal, tick);
}

void Agent::continue_selection(PlannerSlot slot, std::uint64_t tick) {
    std::uint64_t budget = m_budget;
    while (m_candidate < m_candidates.size()) {
        if (budget == 0) {
            // The budget ran out between two goals: the next one starts next tick.
            m_status = AgentStatus::Planning;
            PendingEvent& e = emit(AgentEventKind::PlanningPaused, tick);
            e.event.goal = m_candidates[m_candidate];
            return;
        }
        const std::uint32_t g = m_candidates[m_candidate];
        Planner& planner = m_planner ? *m_planner : **slot.scratch;
        Status status = Status::InProgress;
        std::uint64_t before = 0;  // a new search has expanded nothing yet
        if (!m_search_active) {
            PlanOptions options;
            prepare_query(g, tick, options);
            options.budget.max_memory_bytes = slot.system->m_options.max_search_memory_bytes;
            options.budget.deadline = slot.system->m_search_deadline;
            ++m_stats.searches;
            m_search_mask = options.enabled.empty() ? 0 : options.enabled.data() == m_enabled.data() ? 2 : 1;
            m_search_start = m_view;  // same size: no allocation
            if (slot.cache) {
                m_query_hash = detail::PlanCache::make_key(m_query_key, static_cast<std::uint8_t>(options.direction), m_view,
                                                           m_goals[g].condition, options.enabled, options.costs);
                const detail::PlanCache::Entry* hit = slot.cache->find(m_query_hash, m_query_key);
                // A hit stands in for the search only when that search would have finished within this
                // tick's budget, and it uses up the same budget: timing never depends on the cache.
                if (hit && (budget == UINT64_MAX || hit->expanded < budget)) {
                    ++m_stats.cache_hits;
                    m_stats.expanded += hit->expanded;
                    if (budget != UINT64_MAX) budget -= hit->expanded;
                    if (hit->status == Status::Found) {
                        PlanResult r;
                        r.status = Status::Found;
                        r.cost = hit->cost;
                        r.plan = hit->plan;
                        r.stats.expanded = hit->expanded;
                        adopt_plan(g, r, tick);
                        finish_search(slot);
                        return;
                    }
                    record_failure(g, hit->expanded, hit->unreachable, tick);
                    ++m_candidate;
                    continue;
                }
            }
            m_search_active = true;
            status = planner.begin(m_view, m_goals[g].condition, options);
        } else {
            before = planner.result().stats.expanded;
        }
        if (status == Status::InProgress) status = planner.step(budget);
        const PlanResult result = planner.result();
        const std::uint64_t used = result.stats.expanded - before;
        m_stats.expanded += used;
        if (budget != UINT64_MAX) budget = used >= budget ? 0 : budget - used;
        if (status == Status::InProgress) {
            // Keep this planner (and its paused search) until a later tick; the worker gets another.
            if (!m_planner) {
                m_planner = std::move(*slot.scratch);
                *slot.scratch = slot.system->acquire_planner();
            }
            m_status = AgentStatus::Planning;
            PendingEvent& e = emit(AgentEventKind::PlanningPaused, tick);
            e.event.goal = g;
            e.event.priority = m_priority[g];
            e.event.expanded = result.stats.expanded;
            return;
        }
        if (slot.cache && (status == Status::Found || status == Status::NoPath))
            slot.cache->insert(m_query_hash, m_query_key, status, result.cost, result.stats.expanded, result.plan,
                               planner.unreachable_goals());
        if (status == Status::Found) {
            adopt_plan(g, result, tick);
            finish_search(slot);
            return;
        }
        // NoPath; or BudgetExhausted (the system's search memory or deadline), InvalidQuery (e.g. costs
        // that overflow): whether a plan exists is then unknown, and no unreachable literals are reported.
        if (status == Status::NoPath) record_failure(g, result.stats.expanded, planner.unreachable_goals(), tick);
        else record_failure(g, result.stats.expanded, {}, tick, status, result.limit);
        m_search_active = false;
        ++m_candidate;
    }
    finish_search(slot);
    end_selection_without_plan(tick);
}

bool Agent::next_action_startable(std::uint64_t tick) {
    const ActionId a = m_plan[m_step];
    if (!m_domain->can_apply(a, m_view) || backed_off(a, tick)) return false;
    if (const ContextCheck& check = m_type_ptr->check(a)) {
        ++m_stats.checks;
        if (!check(PlanningContext{*this, m_view, a, m_goal, tick, m_user_data})) return false;
    }
    return true;
}

void Agent::check_changes(std::uint64_t tick) {
    if (m_status == AgentStatus::Idle) {
        begin_selection(ReplanTrigger::ViewChanged, ActionId{}, false, false, tick);
        return;
    }
    const ActionId a = m_plan[m_step];
    if (!m_domain->can_apply(a, m_view)) {
        // The running action lost its preconditions (seed 000 checks them every tick), or the next
        // action can no longer start.
        abort_running(AbortReason::PreconditionsLost, tick);
        begin_selection(ReplanTrigger::PreconditionsFailed, a, false, false, tick);
        return;
    }
    if (m_view.satisfies(m_goals[m_goal].condition)) {
        m_goal_failures[m_goal] = 0;
        abort_running(AbortReason::GoalReached, tick);
        begin_selection(ReplanTrigger::GoalReached, ActionId{}, false, false, tick);
        return;
    }
    evaluate_priorities(tick);
    if (!active(m_priority[m_goal])) {
        begin_selection(ReplanTrigger::GoalDropped, ActionId{}, false, true, tick);
        return;
    }
    if (!plan_reaches_goal()) {
        begin_selection(ReplanTrigger::PlanInvalidated, ActionId{}, false, true, tick);
        return;
    }
    if (higher_priority_goal_pending()) begin_selection(ReplanTrigger::HigherPriorityGoal, ActionId{}, true, true, tick);
}

void Agent::think(PlannerSlot slot, std::uint64_t tick, bool record) {
    m_record = record;
    m_plan_fresh = false;
    if (!m_type_ptr->sensors().empty()) run_sensors(tick);
    bool changed = refresh_view(m_system->blackboard());
    if (m_next_cooldown_end != UINT64_MAX && update_back_off(tick)) changed = true;
    if (m_context_version != m_seen_context_version) {
        m_seen_context_version = m_context_version;
        changed = true;
    }
    if (m_selecting) {
        // A search paused in an earlier tick. Requests restart it; view changes are examined once the
        // selection is over (restarting on every change could starve a budgeted search forever).
        if (m_abort_requested || m_replan_requested) {
            const bool aborted = m_abort_requested;
            m_abort_requested = false;
            finish_search(slot);
            if (aborted) abort_running(AbortReason::External, tick);
            begin_selection(aborted ? ReplanTrigger::ActionAborted : ReplanTrigger::Requested, ActionId{}, false, false, tick);
        } else {
            m_dirty |= changed;
        }
    } else {
        changed |= m_dirty;
        m_dirty = false;
        if (m_abort_requested) {
            m_abort_requested = false;
            const ActionId a = m_running ? m_plan[m_step] : ActionId{};
            abort_running(AbortReason::External, tick);
            begin_selection(ReplanTrigger::ActionAborted, a, false, false, tick);
        } else if (m_has_pending) {
            begin_selection(m_pending, m_pending_action, false, false, tick);
        } else if (m_replan_requested) {
            begin_selection(ReplanTrigger::Requested, ActionId{}, false, false, tick);
        } else if (changed) {
            check_changes(tick);
        }
    }
    if (m_selecting) continue_selection(slot, tick);
    if (m_status == AgentStatus::Acting && !m_selecting && !m_running && !m_plan_fresh && m_step < m_plan.size() &&
        !next_action_startable(tick)) {
        begin_selection(ReplanTrigger::PreconditionsFailed, m_plan[m_step], false, false, tick);
        continue_selection(slot, tick);
    }
}

void Agent::act(Blackboard& world, std::uint64_t tick, bool record) {
    m_record = record;
    if (m_abort_hook_pending) {
        m_abort_hook_pending = false;
        merge_view(m_scratch, world);
        ActionContext ctx{*this, world, m_abort_hook_action, m_scratch, tick, m_abort_hook_ticks, m_user_data};
        m_type_ptr->behaviour(m_abort_hook_action)->abort(ctx, m_abort_hook_reason);
    }
    if (m_status != AgentStatus::Acting || m_selecting || m_step >= m_plan.size()) return;
    const ActionId a = m_plan[m_step];
    const Behaviour& behaviour = *m_type_ptr->behaviour(a);
    const AtomSet& shared = m_domain->shared_atoms();
    // The live view. When neither the world nor the private atoms changed since this agent's think
    // phase, it is the view the agent already holds.
    const WorldState* live = &m_view;
    if (world.version() != m_seen_world_version || m_private_version != m_seen_private_version) {
        merge_view(m_scratch, world);
        live = &m_scratch;
    }
    if (!m_running) {
        // Re-check against the live view: an agent earlier in this tick may have changed the world.
        if (!m_domain->can_apply(a, *live)) {
            set_pending(ReplanTrigger::PreconditionsFailed, a);
            return;
        }
        m_running = true;
        m_ticks_running = 0;
        ++m_stats.actions_started;
        emit(AgentEventKind::ActionStarted, tick).event.action = a;
        if (behaviour.start) {
            ActionContext ctx{*this, world, a, *live, tick, 0, m_user_data};
            behaviour.start(ctx);
        }
    }
    ActionContext ctx{*this, world, a, *live, tick, m_ticks_running, m_user_data};
    const ActionStatus status = behaviour.update(ctx);
    ++m_stats.updates;
    ++m_ticks_running;
    if (status == ActionStatus::Running) return;
    m_running = false;
    if (status == ActionStatus::Success) {
        ++m_stats.actions_succeeded;
        record_action_outcome(a, false, tick);
        // The behaviour may itself have written atoms: apply the effects on top of the live state.
        merge_view(m_scratch, world);
        m_domain->apply(a, m_scratch);
        world.assign_shared(m_scratch);
        const auto priv = m_private.mutable_words();
        const auto src = m_scratch.words();
        const auto mask = shared.words();
        bool changed = false;
        for (std::size_t w = 0; w < priv.size(); ++w) {
            const std::uint64_t v = src[w] & ~mask[w];
            changed |= v != priv[w];
            priv[w] = v;
        }
        if (m_private.var_count() > 0) changed |= m_private.assign_values_masked(m_scratch, m_domain->shared_variables(), true);
        if (changed) ++m_private_version;
        m_domain->apply(a, m_view);  // the agent expects its own effects: they are not news next tick
        PendingEvent& e = emit(AgentEventKind::ActionSucceeded, tick);
        e.event.action = a;
        e.event.ticks = m_ticks_running;
        ++m_step;
        if (m_step >= m_plan.size()) {
            m_goal_failures[m_goal] = 0;
            set_pending(ReplanTrigger::GoalReached, ActionId{});
        }
    } else {
        ++m_stats.actions_failed;
        PendingEvent& e = emit(AgentEventKind::ActionFailed, tick);
        e.event.action = a;
        e.event.ticks = m_ticks_running;
        set_pending(ReplanTrigger::ActionFailed, a);
        record_action_outcome(a, true, tick);
        if (m_goal != kNoGoal) record_goal_failure(m_goal, tick);
    }
}

void Agent::release_for_removal(std::uint64_t tick, bool record) {
    m_record = record;
    if (m_running) {
        abort_running(AbortReason::Removed, tick);
    }
    if (m_abort_hook_pending) {
        m_abort_hook_pending = false;
        Blackboard& world = m_system->blackboard();
        merge_view(m_scratch, world);
        ActionContext ctx{*this, world, m_abort_hook_action, m_scratch, tick, m_abort_hook_ticks, m_user_data};
        m_type_ptr->behaviour(m_abort_hook_action)->abort(ctx, m_abort_hook_reason);
    }
    if (m_planner) m_system->release_planner(std::move(m_planner));
}

// ---- AgentSystem ----------------------------------------------------------------------------------

AgentSystem::AgentSystem(const Domain& domain, AgentSystemOptions options)
    : m_domain(&domain), m_options(options), m_blackboard(domain) {
    if (m_options.chunk_size == 0) m_options.chunk_size = 1;
}

AgentSystem::~AgentSystem() = default;

AgentId AgentSystem::add_agent(AgentParams params) {
    const Domain& d = *m_domain;
    if (!params.type || &params.type->domain() != &d) return AgentId{};
    if (params.state.atom_count() != 0 && params.state.atom_count() != d.atom_count()) return AgentId{};
    for (const AgentGoal& g : params.goals)
        if (g.condition.atom_count() != d.atom_count()) return AgentId{};
    std::uint32_t index;
    if (!m_free_slots.empty()) {
        index = m_free_slots.back();
        m_free_slots.pop_back();
    } else {
        index = static_cast<std::uint32_t>(m_agents.size());
        m_agents.emplace_back();
        m_generations.push_back(0);
    }
    const AgentId id{index, m_generations[index]};
    m_agents[index].reset(new Agent(*this, id, std::move(params)));
    ++m_live;
    return id;
}

bool AgentSystem::remove_agent(AgentId id) {
    Agent* agent = find(id);
    if (!agent) return false;
    agent->release_for_removal(m_tick, m_observer != nullptr);
    if (m_observer) deliver(*agent);
    m_agents[id.index].reset();
    ++m_generations[id.index];
    m_free_slots.push_back(id.index);
    --m_live;
    return true;
}

Agent* AgentSystem::find(AgentId id) noexcept {
    if (!id.valid() || id.index >= m_agents.size() || m_generations[id.index] != id.generation) return nullptr;
    return m_agents[id.index].get();
}

const Agent* AgentSystem::find(AgentId id) const noexcept {
    if (!id.valid() || id.index >= m_agents.size() || m_generations[id.index] != id.generation) return nullptr;
    return m_agents[id.index].get();
}

std::unique_ptr<Planner> AgentSystem::acquire_planner() {
    {
        const std::lock_guard<std::mutex> lock(m_pool_mutex);
        if (!m_free_planners.empty()) {
            std::unique_ptr<Planner> p = std::move(m_free_planners.back());
            m_free_planners.pop_back();
            return p;
        }
    }
    return std::make_unique<Planner>(*m_domain);
}

void AgentSystem::release_planner(std::unique_ptr<Planner> planner) {
    const std::lock_guard<std::mutex> lock(m_pool_mutex);
    m_free_planners.push_back(std::move(planner));
}

void AgentSystem::deliver(Agent& agent) {
    for (Agent::PendingEvent& p : agent.m_events) {
        p.event.plan = {agent.m_event_actions.data() + p.plan_offset, p.plan_size};
        p.event.unreachable = {agent.m_event_literals.data() + p.literal_offset, p.literal_size};
        if (p.event.analyzed) {
            p.event.root_causes = {agent.m_event_literals.data() + p.root_offset, p.root_size};
            p.event.cycle_literals = {agent.m_event_literals.data() + p.cycle_offset, p.cycle_size};
            p.event.cycle_sizes = {agent.m_event_sizes.data() + p.sizes_offset, p.sizes_size};
            p.event.disabled = {agent.m_event_actions.data() + p.disabled_offset, p.disabled_size};
            p.event.unreachable_comparisons = {agent.m_event_comparisons.data() + p.comparison_offset, p.comparison_size};
            p.event.numeric_root_causes = {agent.m_event_comparisons.data() + p.numeric_root_offset, p.numeric_root_size};
        }
        m_observer->on_event(agent, p.event);
    }
    agent.m_events.clear();
    agent.m_event_actions.clear();
    agent.m_event_literals.clear();
    agent.m_event_comparisons.clear();
    agent.m_event_sizes.clear();
}

void AgentSystem::think(Executor* executor) {
    const bool record = m_observer != nullptr;
    const std::size_t n = m_agents.size();
    const std::size_t workers = executor ? std::max<std::size_t>(1, executor->concurrency()) : 1;
    if (m_worker_planners.size() < workers) m_worker_planners.resize(workers);
    if (m_worker_caches.size() < workers) m_worker_caches.resize(workers);
    for (std::size_t w = 0; w < workers; ++w)
        if (!m_worker_caches[w] && m_options.plan_cache_entries > 0)
            m_worker_caches[w] = std::make_unique<detail::PlanCache>(m_options.plan_cache_entries);
    const std::size_t chunk = m_options.chunk_size;
    const std::size_t tasks = (n + chunk - 1) / chunk;
    if (workers == 1 || tasks <= 1) {
        if (!m_worker_planners[0]) m_worker_planners[0] = std::make_unique<Planner>(*m_domain);
        const Agent::PlannerSlot slot{&m_worker_planners[0], this, m_worker_caches[0].get()};
        for (const std::unique_ptr<Agent>& a : m_agents)
            if (a) a->think(slot, m_tick, record);
    } else {
        for (std::size_t w = 0; w < workers; ++w)
            if (!m_worker_planners[w]) m_worker_planners[w] = std::make_unique<Planner>(*m_domain);
        executor->run(tasks, [this, record](std::size_t task, std::size_t worker) {
            const Agent::PlannerSlot slot{&m_worker_planners[worker], this, m_worker_caches[worker].get()};
            const std::size_t begin = task * m_options.chunk_size;
            const std::size_t end = std::min(begin + m_options.chunk_size, m_agents.size());
            for (std::size_t i = begin; i < end; ++i)
                if (m_agents[i]) m_agents[i]->think(slot, m_tick, record);
        });
    }
    if (record)
        for (const std::unique_ptr<Agent>& a : m_agents)
            if (a && !a->m_events.empty()) deliver(*a);
}

void AgentSystem::act() {
    const bool record = m_observer != nullptr;
    // By index: a behaviour may add agents (they start acting next tick).
    for (std::size_t i = 0; i < m_agents.size(); ++i) {
        Agent* a = m_agents[i].get();
        if (!a) continue;
        a->act(m_blackboard, m_tick, record);
        if (record && !a->m_events.empty()) deliver(*a);
    }
    ++m_tick;
}

void AgentSystem::tick(Executor* executor) {
    think(executor);
    act();
}

AgentStats AgentSystem::total_stats() const noexcept {
    AgentStats total;
    for (const std::unique_ptr<Agent>& a : m_agents)
        if (a) total.add(a->stats());
    return total;
}

}  // namespace gameplan::goap
