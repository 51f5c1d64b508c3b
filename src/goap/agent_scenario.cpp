// Scripted scenarios for the agent runtime: scripted behaviours, timeline, trace recording.
#include <gameplan/goap/agent_scenario.hpp>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <set>
#include <unordered_map>

namespace gameplan::goap {

std::string_view to_string(ScenarioEventKind kind) noexcept {
    switch (kind) {
        case ScenarioEventKind::Set: return "set";
        case ScenarioEventKind::Fail: return "fail";
        case ScenarioEventKind::Abort: return "abort";
        case ScenarioEventKind::Cost: return "cost";
        case ScenarioEventKind::Enable: return "enable";
        case ScenarioEventKind::Add: return "add";
        case ScenarioEventKind::Expect: return "expect";
    }
    return "unknown";
}

namespace {
std::string number(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

bool valid_var(const Domain& d, VarId v) { return v.valid() && v.value < d.variable_count(); }

std::string var_name(const Domain& d, VarId v) { return valid_var(d, v) ? d.variable_name(v) : std::string("?"); }

// A value of `v` as written in files: the number, or the enumeration's value name.
std::string value_text(const Domain& d, VarId v, std::int64_t value) {
    if (valid_var(d, v) && d.variable_kind(v) == VariableKind::Enumeration && value >= 0 &&
        static_cast<std::size_t>(value) < d.variable_values(v).size())
        return d.variable_values(v)[static_cast<std::size_t>(value)];
    return std::to_string(value);
}

std::string_view op_text(CompareOp op) {
    switch (op) {
        case CompareOp::Eq: return "==";
        case CompareOp::Ne: return "!=";
        case CompareOp::Lt: return "<";
        case CompareOp::Le: return "<=";
        case CompareOp::Gt: return ">";
        case CompareOp::Ge: return ">=";
    }
    return "?";
}

std::string condition_text(const Domain& d, const Condition& c) {
    std::string s;
    if (c.atom_count() == d.atom_count())
        c.for_each([&](Literal l) { s += (s.empty() ? "" : ", ") + d.atom_name(l.atom) + (l.value ? "=true" : "=false"); });
    for (const Comparison& x : c.comparisons())
        s += (s.empty() ? "" : ", ") + var_name(d, x.var) + std::string(op_text(x.op)) + value_text(d, x.var, x.value);
    return s;
}
}  // namespace

std::string describe(const Domain& domain, const ScenarioEvent& e, bool applied) {
    switch (e.kind) {
        case ScenarioEventKind::Set: {
            std::string s = "set ";
            for (std::size_t i = 0; i < e.literals.size(); ++i) {
                const Literal l = e.literals[i];
                s += (i ? ", " : "") + (l.atom.value < domain.atom_count() ? domain.atom_name(l.atom) : std::string("?")) +
                     (l.value ? "=true" : "=false");
            }
            for (std::size_t i = 0; i < e.values.size(); ++i)
                s += (i || !e.literals.empty() ? ", " : "") + var_name(domain, e.values[i].var) + "=" +
                     value_text(domain, e.values[i].var, e.values[i].value);
            return s;
        }
        case ScenarioEventKind::Add: {
            std::string s = "add ";
            for (std::size_t i = 0; i < e.values.size(); ++i)
                s += (i ? ", " : "") + var_name(domain, e.values[i].var) + (e.values[i].value < 0 ? "" : "+") +
                     std::to_string(e.values[i].value);
            return s;
        }
        case ScenarioEventKind::Expect: return "expect " + condition_text(domain, e.expect);
        case ScenarioEventKind::Fail:
            return applied ? "fail " + e.action + " (scheduled for this tick)" : "fail " + e.action + " ignored (not running)";
        case ScenarioEventKind::Abort: return "abort";
        case ScenarioEventKind::Cost: return "cost of " + e.action + " = " + number(e.value);
        case ScenarioEventKind::Enable: return std::string("context check of ") + e.action + " = " + (e.enabled ? "true" : "false");
    }
    return "unknown";
}

// Per-agent scripted data; the agent's user data points here.
struct ScenarioRunner::AgentData {
    const ScenarioType* type = nullptr;
    std::vector<double> cost;            // by action id
    std::vector<std::uint8_t> enabled;   // by action id
    std::vector<std::string> labels;     // by action id
    struct Fail {
        const ScenarioEvent* event;
        ActionId action;
        bool consumed;
    };
    std::vector<Fail> fails;  // scheduled for the current tick
    std::uint64_t fail_tick = UINT64_MAX;
};

ScenarioRunner::ScenarioRunner(const Scenario& scenario, AgentSystemOptions options) : m_scenario(&scenario) {
    std::string error = build(options);
    if (!error.empty()) {
        m_error = scenario.name.empty() ? std::move(error) : scenario.name + ": " + error;
        m_agents.clear();
        m_data.clear();
        m_system.reset();
    }
}

std::string ScenarioRunner::build(const AgentSystemOptions& options) {
    const Scenario& scenario = *m_scenario;
    const Domain& d = scenario.domain;
    const auto fail = [](std::string message) { return message; };

    // Names.
    std::unordered_map<std::string, const ScenarioType*> types;
    for (const ScenarioType& t : scenario.types)
        if (!types.emplace(t.name, &t).second) return fail("duplicate agent type '" + t.name + "'");
    std::unordered_map<std::string, std::size_t> agent_index;
    for (std::size_t i = 0; i < scenario.agents.size(); ++i) {
        const ScenarioAgent& a = scenario.agents[i];
        if (!agent_index.emplace(a.name, i).second) return fail("duplicate agent name '" + a.name + "'");
        if (!types.count(a.type)) return fail("agent '" + a.name + "': unknown type '" + a.type + "'");
        if (a.state.atom_count() != 0 && (a.state.atom_count() != d.atom_count() || a.state.var_count() != d.variable_count()))
            return fail("agent '" + a.name + "': state does not match the domain");
        for (const ScenarioGoal& g : a.goals) {
            if (g.condition.atom_count() != d.atom_count()) return fail("agent '" + a.name + "': goal '" + g.name + "' does not match the domain");
            if (g.when.atom_count() != 0 && g.when.atom_count() != d.atom_count())
                return fail("agent '" + a.name + "': the \"when\" of goal '" + g.name + "' does not match the domain");
            if (g.priority_var.valid() && (!valid_var(d, g.priority_var) || d.variable_kind(g.priority_var) != VariableKind::Integer))
                return fail("agent '" + a.name + "': goal '" + g.name + "' reads its priority from a missing or enumerated variable");
            for (const PriorityRule& r : g.rules)
                if (r.when.atom_count() != d.atom_count() && r.when.atom_count() != 0)
                    return fail("agent '" + a.name + "': a priority rule of goal '" + g.name + "' does not match the domain");
        }
    }
    if (scenario.world.atom_count() != 0 && scenario.world.atom_count() != d.atom_count())
        return fail("world state does not match the domain");

    // Timeline checks, and which actions need cost / check callbacks per type.
    std::set<std::pair<const ScenarioType*, std::uint32_t>> dyn_cost, dyn_check;
    for (std::size_t i = 0; i < scenario.timeline.size(); ++i) {
        const ScenarioEvent& e = scenario.timeline[i];
        const std::string where = "timeline[" + std::to_string(i) + "]";
        const ScenarioType* type = nullptr;
        if (!e.agent.empty()) {
            const auto it = agent_index.find(e.agent);
            if (it == agent_index.end()) return fail(where + ": unknown agent '" + e.agent + "'");
            type = types.at(scenario.agents[it->second].type);
        } else if (e.kind != ScenarioEventKind::Set && e.kind != ScenarioEventKind::Add && e.kind != ScenarioEventKind::Expect) {
            return fail(where + ": '" + std::string(to_string(e.kind)) + "' needs an agent");
        }
        for (const NumericEffect& v : e.values) {
            if (!valid_var(d, v.var)) return fail(where + ": invalid variable");
            if (e.agent.empty() && !d.is_shared(v.var))
                return fail(where + ": variable '" + d.variable_name(v.var) + "' is private: name the agent that owns it");
            if (!e.agent.empty() && d.is_shared(v.var))
                return fail(where + ": variable '" + d.variable_name(v.var) + "' is shared: set it on the world (no agent)");
            if (e.kind == ScenarioEventKind::Set && !d.in_bounds(v.var, v.value))
                return fail(where + ": value " + std::to_string(v.value) + " is outside the bounds of '" + d.variable_name(v.var) + "'");
            if (e.kind == ScenarioEventKind::Add && d.variable_kind(v.var) != VariableKind::Integer)
                return fail(where + ": '" + d.variable_name(v.var) + "' is an enumerated variable: only set assigns it");
        }
        if (e.kind == ScenarioEventKind::Expect) {
            if (e.expect.atom_count() != d.atom_count()) return fail(where + ": the expectation does not match the domain");
            for (const Comparison& c : e.expect.comparisons())
                if (!valid_var(d, c.var)) return fail(where + ": invalid variable");
        }
        if (e.kind == ScenarioEventKind::Set) {
            for (const Literal l : e.literals) {
                if (!l.atom.valid() || l.atom.value >= d.atom_count()) return fail(where + ": invalid atom");
                if (e.agent.empty() && !d.is_shared(l.atom))
                    return fail(where + ": atom '" + d.atom_name(l.atom) + "' is private: name the agent that owns it");
                if (!e.agent.empty() && d.is_shared(l.atom))
                    return fail(where + ": atom '" + d.atom_name(l.atom) + "' is shared: set it on the world (no agent)");
            }
        }
        if (e.kind == ScenarioEventKind::Fail || e.kind == ScenarioEventKind::Cost || e.kind == ScenarioEventKind::Enable) {
            const ActionId a = d.find_action(e.action);
            if (!a.valid()) return fail(where + ": unknown action '" + e.action + "'");
            if (e.kind == ScenarioEventKind::Cost) {
                if (!(e.value >= 0) || e.value == std::numeric_limits<double>::infinity())
                    return fail(where + ": cost must be a finite number >= 0");
                dyn_cost.emplace(type, a.value);
            }
            if (e.kind == ScenarioEventKind::Enable) dyn_check.emplace(type, a.value);
        }
    }

    // Agent types: scripted behaviours, validated by the runtime's own binder.
    std::unordered_map<const ScenarioType*, std::shared_ptr<const AgentType>> built;
    for (const ScenarioType& t : scenario.types) {
        AgentTypeBuilder builder(d, t.name);
        for (const std::string& x : t.excluded) builder.exclude(x);
        for (const ScenarioAction& sa : t.actions) {
            if (sa.ticks == 0) return fail("type '" + t.name + "': action '" + sa.action + "': ticks must be >= 1");
            const std::uint32_t ticks = sa.ticks;
            const bool succeeds = sa.succeeds;
            builder.bind(sa.action, Behaviour([ticks, succeeds](ActionContext& c) {
                auto* data = static_cast<AgentData*>(c.user_data);
                if (data->fail_tick == c.tick)
                    for (AgentData::Fail& f : data->fails)
                        if (f.action == c.action && !f.consumed) {
                            f.consumed = true;
                            return ActionStatus::Failure;
                        }
                if (c.ticks_running + 1 >= ticks) return succeeds ? ActionStatus::Success : ActionStatus::Failure;
                return ActionStatus::Running;
            }));
            const ActionId id = d.find_action(sa.action);
            if (id.valid() && (sa.cost || dyn_cost.count({&t, id.value})))
                builder.set_cost(sa.action, [](const PlanningContext& c) {
                    return static_cast<const AgentData*>(c.user_data)->cost[c.action.value];
                });
            if (id.valid() && (sa.enabled || dyn_check.count({&t, id.value})))
                builder.set_check(sa.action, [](const PlanningContext& c) {
                    return static_cast<const AgentData*>(c.user_data)->enabled[c.action.value] != 0;
                });
        }
        BindResult r = builder.build();
        if (!r.ok()) return fail("type '" + t.name + "': " + r.message());
        built.emplace(&t, std::move(r.type));
    }

    // The system and its agents.
    m_system = std::make_unique<AgentSystem>(d, options);
    if (scenario.world.atom_count() == d.atom_count()) m_system->blackboard().assign_shared(scenario.world);
    for (const ScenarioAgent& a : scenario.agents) {
        const ScenarioType* t = types.at(a.type);
        auto data = std::make_unique<AgentData>();
        data->type = t;
        data->cost.assign(d.action_costs().begin(), d.action_costs().end());
        data->enabled.assign(d.action_count(), 1);
        data->labels.resize(d.action_count());
        for (std::uint32_t i = 0; i < d.action_count(); ++i) data->labels[i] = d.action_name(ActionId(i));
        for (const ScenarioAction& sa : t->actions) {
            const ActionId id = d.find_action(sa.action);
            if (sa.cost) data->cost[id.value] = *sa.cost;
            if (sa.enabled) data->enabled[id.value] = *sa.enabled ? 1 : 0;
            if (!sa.behaviour.empty()) data->labels[id.value] = sa.behaviour;
        }
        AgentParams params;
        params.name = a.name;
        params.type = built.at(t);
        params.state = a.state;
        params.user_data = data.get();
        params.max_expansions_per_tick = a.max_expansions_per_tick;
        params.direction = scenario.direction;
        for (const ScenarioGoal& g : a.goals) {
            AgentGoal goal{g.name, g.condition, g.priority, {}};
            if (g.when.atom_count() == d.atom_count()) goal.when = g.when;
            goal.priority_var = g.priority_var;
            goal.priority_scale = g.priority_scale;
            goal.priority_offset = g.priority_offset;
            goal.retry = g.retry;
            if (!g.rules.empty()) {
                goal.priority_fn = [rules = g.rules](const PlanningContext& c) {
                    for (const PriorityRule& r : rules)
                        if (r.when.atom_count() == 0 || c.view.satisfies(r.when)) return r.value;
                    return kInactivePriority;
                };
            }
            params.goals.push_back(std::move(goal));
        }
        const AgentId id = m_system->add_agent(std::move(params));
        if (!id.valid()) return fail("agent '" + a.name + "' does not match the domain");
        m_agents.push_back(id);
        m_data.push_back(std::move(data));
    }

    // Each event's agent, found once (a name lookup per event and tick would be O(agents)).
    m_event_agent.assign(scenario.timeline.size(), kNoAgent);
    for (std::size_t i = 0; i < scenario.timeline.size(); ++i)
        if (const std::string& name = scenario.timeline[i].agent; !name.empty()) m_event_agent[i] = agent_index.at(name);
    m_timeline_order.resize(scenario.timeline.size());
    for (std::size_t i = 0; i < m_timeline_order.size(); ++i) m_timeline_order[i] = i;
    std::stable_sort(m_timeline_order.begin(), m_timeline_order.end(),
                     [&](std::size_t a, std::size_t b) { return scenario.timeline[a].tick < scenario.timeline[b].tick; });
    return {};
}

ScenarioRunner::~ScenarioRunner() = default;

const std::string& ScenarioRunner::behaviour_label(const Agent& agent, ActionId action) const {
    return static_cast<const AgentData*>(agent.user_data())->labels[action.value];
}

void ScenarioRunner::set_observer(ScenarioObserver* observer) noexcept {
    m_observer = observer;
    if (m_system) m_system->set_observer(observer);
}

void ScenarioRunner::step(Executor* executor) {
    if (!m_error.empty() || !m_system) return;
    const Scenario& s = *m_scenario;
    const Domain& d = s.domain;
    const std::uint64_t tick = m_system->current_tick();
    std::vector<AgentData*> failing;
    while (m_next_event < m_timeline_order.size() && s.timeline[m_timeline_order[m_next_event]].tick <= tick) {
        const std::size_t index = m_timeline_order[m_next_event++];
        const ScenarioEvent& e = s.timeline[index];
        Agent* agent = nullptr;
        AgentData* data = nullptr;
        if (const std::size_t i = m_event_agent[index]; i != kNoAgent) {
            agent = m_system->find(m_agents[i]);
            data = m_data[i].get();
        }
        switch (e.kind) {
            case ScenarioEventKind::Set:
                for (const Literal l : e.literals) {
                    if (agent) (void)agent->set(l.atom, l.value);
                    else (void)m_system->blackboard().set(l.atom, l.value);
                }
                for (const NumericEffect& v : e.values) {
                    if (agent) (void)agent->set_value(v.var, v.value);
                    else (void)m_system->blackboard().set_value(v.var, v.value);
                }
                break;
            case ScenarioEventKind::Add:
                for (const NumericEffect& v : e.values) {
                    const std::int64_t now = agent ? agent->private_state().value(v.var) : m_system->blackboard().value(v.var);
                    const std::int64_t next = std::clamp<std::int64_t>(now + v.value, d.variable_min(v.var), d.variable_max(v.var));
                    if (agent) (void)agent->set_value(v.var, static_cast<std::int32_t>(next));
                    else (void)m_system->blackboard().set_value(v.var, static_cast<std::int32_t>(next));
                }
                break;
            case ScenarioEventKind::Expect: break;  // checked below, after the note
            case ScenarioEventKind::Fail:
                if (data->fail_tick != tick) {
                    data->fails.clear();
                    data->fail_tick = tick;
                    failing.push_back(data);
                }
                data->fails.push_back(AgentData::Fail{&e, d.find_action(e.action), false});
                break;
            case ScenarioEventKind::Abort: agent->abort(); break;
            case ScenarioEventKind::Cost:
                data->cost[d.find_action(e.action).value] = e.value;
                agent->notify_context_changed();
                break;
            case ScenarioEventKind::Enable:
                data->enabled[d.find_action(e.action).value] = e.enabled ? 1 : 0;
                agent->notify_context_changed();
                break;
        }
        if (m_observer) m_observer->on_timeline(e, true);
        if (e.kind == ScenarioEventKind::Expect) check_expectation(e, agent);
    }
    m_system->tick(executor);
    for (AgentData* data : failing) {
        for (const AgentData::Fail& f : data->fails)
            if (!f.consumed && m_observer) m_observer->on_timeline(*f.event, false);
        data->fails.clear();
        data->fail_tick = UINT64_MAX;
    }
}

void ScenarioRunner::check_expectation(const ScenarioEvent& e, const Agent* agent) {
    const Domain& d = m_scenario->domain;
    const Blackboard& world = m_system->blackboard();
    // The live view: the world's shared part and the agent's private part (the world alone without an agent).
    WorldState view = world.state();
    if (agent) {
        view.assign_view(world.state(), agent->private_state(), d.shared_atoms());
        if (d.variable_count() > 0) view.assign_view_values(world.state(), agent->private_state(), d.shared_variables());
    }
    std::string actual;
    e.expect.for_each([&](Literal l) {
        if (view.get(l.atom) != l.value)
            actual += (actual.empty() ? "" : ", ") + d.atom_name(l.atom) + (view.get(l.atom) ? "=true" : "=false");
    });
    for (const Comparison& c : e.expect.comparisons())
        if (!compare(view.value(c.var), c.op, c.value))
            actual += (actual.empty() ? "" : ", ") + d.variable_name(c.var) + "=" + value_text(d, c.var, view.value(c.var));
    const bool passed = actual.empty();
    ++m_expect_checked;
    if (!passed) ++m_expect_failed;
    if (m_observer) m_observer->on_expect(e, passed, actual);
}

void ScenarioRunner::run(std::uint64_t ticks, Executor* executor) {
    if (ticks == 0) ticks = m_scenario->ticks;
    for (std::uint64_t t = 0; t < ticks; ++t) step(executor);
}

// ---- trace ----------------------------------------------------------------------------------------

void ScenarioTrace::on_event(const Agent& agent, const AgentEvent& event) {
    TraceRecord r;
    r.tick = event.tick;
    r.agent = agent.name();
    r.kind = event.kind;
    r.text = describe(agent, event);
    if (event.action.valid()) r.action = agent.domain().action_name(event.action);
    if (event.kind == AgentEventKind::PlanFound && !event.plan.empty()) r.action = agent.domain().action_name(event.plan.front());
    if (event.kind == AgentEventKind::ActionStarted) {
        const std::string& label = m_runner->behaviour_label(agent, event.action);
        if (label != r.action) r.text += " [" + label + "]";
    }
    m_records.push_back(std::move(r));
}

void ScenarioTrace::on_timeline(const ScenarioEvent& event, bool applied) {
    TraceRecord r;
    r.tick = event.tick;
    r.agent = event.agent.empty() ? "world" : event.agent;
    r.timeline = true;
    r.action = event.action;
    r.text = "timeline: " + describe(*m_domain, event, applied);
    m_records.push_back(std::move(r));
}

void ScenarioTrace::on_expect(const ScenarioEvent& event, bool passed, std::string_view actual) {
    TraceRecord r;
    r.tick = event.tick;
    r.agent = event.agent.empty() ? "world" : event.agent;
    r.timeline = true;
    r.text = passed ? "expectation met" : "expectation FAILED: " + std::string(actual);
    m_records.push_back(std::move(r));
}

std::vector<std::string> ScenarioTrace::actions_started(std::string_view agent) const {
    std::vector<std::string> out;
    for (const TraceRecord& r : m_records)
        if (!r.timeline && r.agent == agent && r.kind == AgentEventKind::ActionStarted) out.push_back(r.action);
    return out;
}

std::vector<TraceRecord> ScenarioTrace::of(std::string_view agent, AgentEventKind kind) const {
    std::vector<TraceRecord> out;
    for (const TraceRecord& r : m_records)
        if (!r.timeline && r.agent == agent && r.kind == kind) out.push_back(r);
    return out;
}

std::string ScenarioTrace::text() const {
    std::string out;
    for (const TraceRecord& r : m_records) out += "tick " + std::to_string(r.tick) + "  " + r.agent + "  " + r.text + "\n";
    return out;
}

}  // namespace gameplan::goap
