// Agent types: binding behaviours, checks and costs to a domain's action names, validated at build time.
#include <gameplan/goap/behaviour.hpp>

namespace gameplan::goap {

std::string_view to_string(AbortReason reason) noexcept {
    switch (reason) {
        case AbortReason::External: return "external";
        case AbortReason::Replaced: return "replaced";
        case AbortReason::GoalReached: return "goal_reached";
        case AbortReason::PreconditionsLost: return "preconditions_lost";
        case AbortReason::NoPlan: return "no_plan";
        case AbortReason::Removed: return "removed";
    }
    return "unknown";
}

std::string_view to_string(ActionStatus status) noexcept {
    switch (status) {
        case ActionStatus::Running: return "running";
        case ActionStatus::Success: return "success";
        case ActionStatus::Failure: return "failure";
    }
    return "unknown";
}

std::string_view to_string(BindErrorKind kind) noexcept {
    switch (kind) {
        case BindErrorKind::None: return "none";
        case BindErrorKind::UnknownAction: return "unknown_action";
        case BindErrorKind::AlreadyBound: return "already_bound";
        case BindErrorKind::EmptyBehaviour: return "empty_behaviour";
        case BindErrorKind::Excluded: return "excluded";
        case BindErrorKind::Unbound: return "unbound";
    }
    return "unknown";
}

namespace {
std::string_view explain(BindErrorKind kind) noexcept {
    switch (kind) {
        case BindErrorKind::None: return "";
        case BindErrorKind::UnknownAction: return "the domain has no such action";
        case BindErrorKind::AlreadyBound: return "bound more than once";
        case BindErrorKind::EmptyBehaviour: return "the behaviour has no update function";
        case BindErrorKind::Excluded: return "the action is excluded for this type";
        case BindErrorKind::Unbound: return "the type may plan this action but no behaviour is bound to it (bind it or exclude it)";
    }
    return "";
}
}  // namespace

std::string BindResult::message() const {
    std::string out;
    for (const BindError& e : errors) {
        if (!out.empty()) out += '\n';
        out += "action '" + e.action + "': " + std::string(to_string(e.kind)) + " (" + std::string(explain(e.kind)) + ")";
    }
    return out;
}

AgentTypeBuilder::AgentTypeBuilder(const Domain& domain, std::string name)
    : m_domain(&domain),
      m_name(std::move(name)),
      m_behaviours(domain.action_count()),
      m_checks(domain.action_count()),
      m_costs(domain.action_count()),
      m_bound(domain.action_count(), 0),
      m_excluded(domain.action_count(), 0) {}

BindErrorKind AgentTypeBuilder::record(BindErrorKind kind, std::string_view action) {
    if (kind != BindErrorKind::None) m_errors.push_back(BindError{kind, std::string(action)});
    return kind;
}

BindErrorKind AgentTypeBuilder::bind(std::string_view action, Behaviour behaviour) {
    const ActionId id = m_domain->find_action(action);
    if (!id.valid()) return record(BindErrorKind::UnknownAction, action);
    if (m_excluded[id.value]) return record(BindErrorKind::Excluded, action);
    if (m_bound[id.value]) return record(BindErrorKind::AlreadyBound, action);
    if (!behaviour.update) return record(BindErrorKind::EmptyBehaviour, action);
    m_bound[id.value] = 1;
    m_behaviours[id.value] = std::move(behaviour);
    return BindErrorKind::None;
}

BindErrorKind AgentTypeBuilder::set_check(std::string_view action, ContextCheck check) {
    const ActionId id = m_domain->find_action(action);
    if (!id.valid()) return record(BindErrorKind::UnknownAction, action);
    if (m_excluded[id.value]) return record(BindErrorKind::Excluded, action);
    if (m_checks[id.value]) return record(BindErrorKind::AlreadyBound, action);
    m_checks[id.value] = std::move(check);
    return BindErrorKind::None;
}

BindErrorKind AgentTypeBuilder::set_cost(std::string_view action, CostFunction cost) {
    const ActionId id = m_domain->find_action(action);
    if (!id.valid()) return record(BindErrorKind::UnknownAction, action);
    if (m_excluded[id.value]) return record(BindErrorKind::Excluded, action);
    if (m_costs[id.value]) return record(BindErrorKind::AlreadyBound, action);
    m_costs[id.value] = std::move(cost);
    return BindErrorKind::None;
}

BindErrorKind AgentTypeBuilder::exclude(std::string_view action) {
    const ActionId id = m_domain->find_action(action);
    if (!id.valid()) return record(BindErrorKind::UnknownAction, action);
    if (m_excluded[id.value] || m_bound[id.value] || m_checks[id.value] || m_costs[id.value])
        return record(BindErrorKind::Excluded, action);
    m_excluded[id.value] = 1;
    return BindErrorKind::None;
}

BindResult AgentTypeBuilder::build() const {
    BindResult result;
    result.errors = m_errors;
    for (std::uint32_t a = 0; a < m_domain->action_count(); ++a)
        if (!m_bound[a] && !m_excluded[a])
            result.errors.push_back(BindError{BindErrorKind::Unbound, m_domain->action_name(ActionId(a))});
    if (!result.errors.empty()) return result;
    std::shared_ptr<AgentType> type(new AgentType());
    type->m_domain = m_domain;
    type->m_name = m_name;
    type->m_behaviours = m_behaviours;
    type->m_checks = m_checks;
    type->m_costs = m_costs;
    type->m_sensors = m_sensors;
    type->m_enabled.resize(m_domain->action_count());
    for (std::uint32_t a = 0; a < m_domain->action_count(); ++a) {
        type->m_enabled[a] = m_bound[a] ? 1 : 0;
        type->m_all_plannable &= m_bound[a] != 0;
        if (m_bound[a] && (m_checks[a] || m_costs[a])) type->m_has_callbacks = true;
    }
    result.type = std::move(type);
    return result;
}

}  // namespace gameplan::goap
