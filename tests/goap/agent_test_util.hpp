#pragma once
// Helpers for the agent runtime tests: small domains, scripted agent types, an event recorder, and an
// independent brute-force planner (Dijkstra over complete states, goap_reference.hpp) used as the reference.
#include <gameplan/goap/agent.hpp>

#include <goap_reference.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gameplan::goap::test {

using Lits = std::initializer_list<std::pair<std::string_view, bool>>;

inline Condition cond(const Domain& d, Lits lits) {
    Condition c = d.make_condition();
    for (const auto& [name, value] : lits) {
        const AtomId a = d.find_atom(name);
        EXPECT_TRUE(a.valid()) << name;
        c.set(a, value);
    }
    return c;
}

inline WorldState state(const Domain& d, Lits lits) {
    WorldState s = d.make_state();
    for (const auto& [name, value] : lits) {
        const AtomId a = d.find_atom(name);
        EXPECT_TRUE(a.valid()) << name;
        s.set(a, value);
    }
    return s;
}

inline AtomId atom(const Domain& d, std::string_view name) { return d.find_atom(name); }
inline ActionId action(const Domain& d, std::string_view name) { return d.find_action(name); }

/// Per-action script: the behaviour runs `ticks` updates, then succeeds (or fails).
struct Script {
    std::uint32_t ticks = 1;
    bool succeeds = true;
};

/// A behaviour following `script`.
inline Behaviour scripted(Script script) {
    return Behaviour([script](ActionContext& c) {
        if (c.ticks_running + 1 >= script.ticks) return script.succeeds ? ActionStatus::Success : ActionStatus::Failure;
        return ActionStatus::Running;
    });
}

/// A type binding every action of `d` (except `excluded`) to a scripted behaviour (default 1 tick).
inline std::shared_ptr<const AgentType> scripted_type(const Domain& d, const std::map<std::string, Script>& scripts = {},
                                                      const std::vector<std::string>& excluded = {},
                                                      const std::function<void(AgentTypeBuilder&)>& extra = {}) {
    AgentTypeBuilder b(d, "scripted");
    for (const std::string& x : excluded) EXPECT_EQ(b.exclude(x), BindErrorKind::None);
    for (std::uint32_t i = 0; i < d.action_count(); ++i) {
        const std::string& name = d.action_name(ActionId(i));
        if (std::find(excluded.begin(), excluded.end(), name) != excluded.end()) continue;
        const auto it = scripts.find(name);
        EXPECT_EQ(b.bind(name, scripted(it == scripts.end() ? Script{} : it->second)), BindErrorKind::None);
    }
    if (extra) extra(b);
    BindResult r = b.build();
    EXPECT_TRUE(r.ok()) << r.message();
    return r.type;
}

inline AgentGoal goal(const Domain& d, std::string name, Lits lits, double priority = 0) {
    return AgentGoal{std::move(name), cond(d, lits), priority, {}};
}

/// A copy of an event with names resolved and spans copied.
struct Recorded {
    std::uint64_t tick = 0;
    std::string agent;
    AgentEventKind kind{};
    ReplanTrigger trigger{};
    AbortReason abort_reason{};
    IdleReason idle_reason{};
    std::string action;
    std::string goal;
    std::string previous_goal;
    std::vector<std::string> plan;
    std::vector<Literal> unreachable;
    double cost = 0;
    double priority = 0;
    std::uint64_t expanded = 0;
    std::uint64_t ticks = 0;
    Status search_status = Status::NoPath;
    search::BudgetLimit search_limit = search::BudgetLimit::None;
    std::string text;
};

/// Records every event (in delivery order).
class Recorder final : public AgentObserver {
public:
    void on_event(const Agent& agent, const AgentEvent& e) override {
        Recorded r;
        r.tick = e.tick;
        r.agent = agent.name();
        r.kind = e.kind;
        r.trigger = e.trigger;
        r.abort_reason = e.abort_reason;
        r.idle_reason = e.idle_reason;
        if (e.action.valid()) r.action = agent.domain().action_name(e.action);
        if (e.goal != kNoGoal) r.goal = agent.goals()[e.goal].name;
        if (e.previous_goal != kNoGoal) r.previous_goal = agent.goals()[e.previous_goal].name;
        for (const ActionId a : e.plan) r.plan.push_back(agent.domain().action_name(a));
        r.unreachable.assign(e.unreachable.begin(), e.unreachable.end());
        r.cost = e.cost;
        r.priority = e.priority;
        r.expanded = e.expanded;
        r.ticks = e.ticks;
        r.search_status = e.search_status;
        r.search_limit = e.search_limit;
        r.text = "tick " + std::to_string(e.tick) + " " + agent.name() + " " + describe(agent, e);
        events.push_back(std::move(r));
    }

    std::vector<Recorded> of(std::string_view agent, AgentEventKind kind) const {
        std::vector<Recorded> out;
        for (const Recorded& r : events)
            if (r.agent == agent && r.kind == kind) out.push_back(r);
        return out;
    }
    std::vector<std::string> started(std::string_view agent) const {
        std::vector<std::string> out;
        for (const Recorded& r : of(agent, AgentEventKind::ActionStarted)) out.push_back(r.action);
        return out;
    }
    std::vector<ReplanTrigger> triggers(std::string_view agent) const {
        std::vector<ReplanTrigger> out;
        for (const Recorded& r : of(agent, AgentEventKind::Replan)) out.push_back(r.trigger);
        return out;
    }
    std::string text() const {
        std::string out;
        for (const Recorded& r : events) out += r.text + "\n";
        return out;
    }

    std::vector<Recorded> events;
};

/// Independent reference planner (tests/support/goap_reference.hpp).
using gameplan::test::brute_force_cost;

}  // namespace gameplan::goap::test
