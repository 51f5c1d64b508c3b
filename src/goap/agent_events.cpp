// Names of runtime enums and one-line descriptions of agent events.
#include <gameplan/goap/agent.hpp>
#include <gameplan/goap/agent_events.hpp>

#include <cstdio>

namespace gameplan::goap {

std::string_view to_string(ReplanTrigger trigger) noexcept {
    switch (trigger) {
        case ReplanTrigger::Start: return "start";
        case ReplanTrigger::ActionFailed: return "action_failed";
        case ReplanTrigger::ActionAborted: return "action_aborted";
        case ReplanTrigger::PreconditionsFailed: return "preconditions_failed";
        case ReplanTrigger::PlanInvalidated: return "plan_invalidated";
        case ReplanTrigger::GoalReached: return "goal_reached";
        case ReplanTrigger::GoalDropped: return "goal_dropped";
        case ReplanTrigger::HigherPriorityGoal: return "higher_priority_goal";
        case ReplanTrigger::ViewChanged: return "view_changed";
        case ReplanTrigger::Requested: return "requested";
    }
    return "unknown";
}

std::string_view to_string(IdleReason reason) noexcept {
    switch (reason) {
        case IdleReason::GoalsSatisfied: return "goals_satisfied";
        case IdleReason::NoPlan: return "no_plan";
    }
    return "unknown";
}

std::string_view to_string(AgentEventKind kind) noexcept {
    switch (kind) {
        case AgentEventKind::Replan: return "replan";
        case AgentEventKind::PlanFound: return "plan_found";
        case AgentEventKind::PlanFailed: return "plan_failed";
        case AgentEventKind::PlanningPaused: return "planning_paused";
        case AgentEventKind::GoalChosen: return "goal_chosen";
        case AgentEventKind::Idle: return "idle";
        case AgentEventKind::ActionStarted: return "action_started";
        case AgentEventKind::ActionSucceeded: return "action_succeeded";
        case AgentEventKind::ActionFailed: return "action_failed";
        case AgentEventKind::ActionAborted: return "action_aborted";
        case AgentEventKind::ActionBackedOff: return "action_backed_off";
        case AgentEventKind::BackOffEnded: return "back_off_ended";
        case AgentEventKind::GoalBackedOff: return "goal_backed_off";
        case AgentEventKind::GoalBackOffEnded: return "goal_back_off_ended";
    }
    return "unknown";
}

namespace {

std::string number(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

std::string ticks(std::uint64_t n) { return std::to_string(n) + (n == 1 ? " tick" : " ticks"); }

std::string goal_name(const Agent& agent, std::uint32_t goal) {
    if (goal == kNoGoal || goal >= agent.goals().size()) return "(none)";
    return agent.goals()[goal].name;
}

}  // namespace

std::string describe(const Agent& agent, const AgentEvent& e) {
    const Domain& d = agent.domain();
    const auto action = [&](ActionId a) { return a.valid() ? d.action_name(a) : std::string("(none)"); };
    switch (e.kind) {
        case AgentEventKind::Replan: {
            std::string s = "replan: " + std::string(to_string(e.trigger));
            if (e.action.valid()) s += " (" + action(e.action) + ")";
            return s;
        }
        case AgentEventKind::PlanFound: {
            std::string s = "plan found for " + goal_name(agent, e.goal) + ": ";
            for (std::size_t i = 0; i < e.plan.size(); ++i) s += (i ? ", " : "") + action(e.plan[i]);
            if (e.plan.empty()) s += "(empty)";
            return s + " (cost " + number(e.cost) + ")";
        }
        case AgentEventKind::PlanFailed: {
            std::string s = "no plan for " + goal_name(agent, e.goal);
            if (e.search_status == Status::BudgetExhausted)
                return s + ": the search budget ran out after " + std::to_string(e.expanded) + " expansions" +
                       (e.search_limit != search::BudgetLimit::None
                            ? std::string(" (") + std::string(search::to_string(e.search_limit)) + " limit)"
                            : std::string());
            if (e.search_status == Status::InvalidQuery) return s + ": the query is invalid";
            const auto comparisons = [&](std::span<const Comparison> cs) {
                std::string out;
                static const char* const ops[] = {"==", "!=", "<", "<=", ">", ">="};
                for (std::size_t i = 0; i < cs.size(); ++i) {
                    const Comparison& c = cs[i];
                    out += (i ? ", " : "") + d.variable_name(c.var) + ops[static_cast<int>(c.op)] +
                           (d.variable_kind(c.var) == VariableKind::Enumeration ? d.variable_values(c.var)[static_cast<std::size_t>(c.value)]
                                                                                 : std::to_string(c.value));
                }
                return out;
            };
            if (e.unreachable.empty() && e.unreachable_comparisons.empty())
                return s + ": its atoms are reachable one by one but not together";
            const auto items = [&](std::span<const Literal> ls) {
                std::string out;
                for (std::size_t i = 0; i < ls.size(); ++i)
                    out += (i ? ", " : "") + d.atom_name(ls[i].atom) + (ls[i].value ? "=true" : "=false");
                return out;
            };
            s += ": unreachable " + items(e.unreachable);
            if (!e.unreachable_comparisons.empty()) s += (e.unreachable.empty() ? "" : ", ") + comparisons(e.unreachable_comparisons);
            if (!e.analyzed) return s;
            if (!e.root_causes.empty()) s += "; root causes (nothing enabled sets them) " + items(e.root_causes);
            if (!e.numeric_root_causes.empty())
                s += "; never holds (no enabled action changes the variable that way) " + comparisons(e.numeric_root_causes);
            for (std::size_t k = 0, at = 0; k < e.cycle_sizes.size(); at += e.cycle_sizes[k], ++k)
                s += "; cycle " + items(e.cycle_literals.subspan(at, e.cycle_sizes[k]));
            if (!e.disabled.empty()) {
                s += "; switched off: ";
                for (std::size_t i = 0; i < e.disabled.size(); ++i) s += (i ? ", " : "") + action(e.disabled[i]);
            }
            return s;
        }
        case AgentEventKind::PlanningPaused:
            return "planning " + goal_name(agent, e.goal) + " paused after " + std::to_string(e.expanded) +
                   " expansions (node budget per tick)";
        case AgentEventKind::GoalChosen: {
            std::string s = "goal chosen: " + goal_name(agent, e.goal) + " (priority " + number(e.priority) + ")";
            if (e.previous_goal != kNoGoal && e.previous_goal != e.goal) s += ", was " + goal_name(agent, e.previous_goal);
            return s;
        }
        case AgentEventKind::Idle: return "idle: " + std::string(to_string(e.idle_reason));
        case AgentEventKind::ActionStarted: return "action started: " + action(e.action);
        case AgentEventKind::ActionSucceeded: return "action succeeded: " + action(e.action) + " (" + ticks(e.ticks) + ")";
        case AgentEventKind::ActionFailed: return "action failed: " + action(e.action) + " (" + ticks(e.ticks) + ")";
        case AgentEventKind::ActionAborted:
            return "action aborted: " + action(e.action) + " (" + std::string(to_string(e.abort_reason)) + ", after " +
                   ticks(e.ticks) + ")";
        case AgentEventKind::ActionBackedOff:
            return "action backed off: " + action(e.action) + " (failed " + std::to_string(e.expanded) + " times in a row; skipped for " +
                   ticks(e.ticks) + ")";
        case AgentEventKind::BackOffEnded: return "back-off ended: " + action(e.action);
        case AgentEventKind::GoalBackedOff:
            return "goal backed off: " + goal_name(agent, e.goal) + " (failed " + std::to_string(e.expanded) +
                   " times in a row; skipped for " + ticks(e.ticks) + ")";
        case AgentEventKind::GoalBackOffEnded: return "goal back-off ended: " + goal_name(agent, e.goal);
    }
    return "unknown event";
}

}  // namespace gameplan::goap
