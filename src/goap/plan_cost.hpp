#pragma once
// The GOAP search cost: (total cost, number of actions), compared lexicographically, so that among
// plans of equal cost the shorter one wins. Heuristics return {h, 0}: a lower bound on the cost and
// the trivial bound 0 on the length, which keeps them admissible (and consistent) in this order.

#include <gameplan/search/search_context.hpp>

#include <cstdint>
#include <limits>

namespace gameplan::goap::detail {

struct PlanCost {
    double cost = 0;
    std::uint32_t actions = 0;

    friend PlanCost operator+(const PlanCost& a, const PlanCost& b) noexcept {
        return PlanCost{a.cost + b.cost, a.actions + b.actions};
    }
    friend bool operator<(const PlanCost& a, const PlanCost& b) noexcept {
        return a.cost < b.cost || (a.cost == b.cost && a.actions < b.actions);
    }
};

}  // namespace gameplan::goap::detail

template <>
struct gameplan::search::CostTraits<gameplan::goap::detail::PlanCost> {
    using Cost = gameplan::goap::detail::PlanCost;
    static constexpr Cost zero() noexcept { return Cost{0, 0}; }
    static constexpr Cost infinity() noexcept { return Cost{std::numeric_limits<double>::infinity(), 0}; }
    static constexpr bool is_infinite(const Cost& c) noexcept { return !(c.cost < std::numeric_limits<double>::infinity()); }
};
