#pragma once
/// Independent references for planning tests on boolean domains: the cheapest plan cost by Dijkstra
/// over complete states (bit masks), and the replay of a plan.
#include <gameplan/goap/domain.hpp>
#include <gameplan/goap/world_state.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <queue>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace gameplan::test {

/// "<prefix><i>": names of generated atoms and actions.
inline std::string indexed_name(const char* prefix, int i) {
    std::string s = prefix;
    s += std::to_string(i);  // (not prefix + to_string: GCC 12 -O3 warns falsely with -Wrestrict)
    return s;
}

/// Cheapest cost from `start` to `goal` by Dijkstra over complete states, or nullopt when the goal is
/// unreachable. `enabled` and `costs` (per action) switch actions off and replace their costs; empty
/// means every action enabled at its domain cost. Only for domains of <= 20 atoms (a table of 2^atoms
/// costs; only the states reachable from the start are visited).
inline std::optional<double> brute_force_cost(const goap::Domain& d, const goap::WorldState& start, const goap::Condition& goal,
                                              const std::vector<bool>& enabled = {}, const std::vector<double>& costs = {}) {
    using goap::ActionId;
    using goap::AtomId;
    using goap::Literal;
    const std::size_t n = d.atom_count();
    EXPECT_LE(n, 20u);
    const auto encode = [&](const goap::WorldState& s) {
        std::uint32_t v = 0;
        for (std::uint32_t i = 0; i < n; ++i)
            if (s.get(AtomId(i))) v |= 1u << i;
        return v;
    };
    std::vector<double> dist(std::size_t{1} << n, std::numeric_limits<double>::infinity());
    using Item = std::pair<double, std::uint32_t>;
    std::priority_queue<Item, std::vector<Item>, std::greater<>> open;
    const std::uint32_t s0 = encode(start);
    dist[s0] = 0;
    open.push({0, s0});
    std::uint32_t goal_care = 0, goal_values = 0;
    for (std::uint32_t i = 0; i < n; ++i)
        if (goal.cares(AtomId(i))) {
            goal_care |= 1u << i;
            if (goal.value(AtomId(i))) goal_values |= 1u << i;
        }
    while (!open.empty()) {
        const auto [g, s] = open.top();
        open.pop();
        if (g > dist[s]) continue;
        if ((s & goal_care) == goal_values) return g;
        for (std::uint32_t a = 0; a < d.action_count(); ++a) {
            if (!enabled.empty() && !enabled[a]) continue;
            bool ok = true;
            for (const Literal l : d.precondition_literals(ActionId(a))) ok &= (((s >> l.atom.value) & 1u) != 0) == l.value;
            if (!ok) continue;
            std::uint32_t t = s;
            for (const Literal l : d.effect_literals(ActionId(a))) t = l.value ? (t | (1u << l.atom.value)) : (t & ~(1u << l.atom.value));
            const double ng = g + (costs.empty() ? d.action_cost(ActionId(a)) : costs[a]);
            if (ng < dist[t]) {
                dist[t] = ng;
                open.push({ng, t});
            }
        }
    }
    return std::nullopt;
}

/// The cost of `plan` replayed from `start`, or -1 when an action is not applicable or the goal is missed.
inline double replay_cost(const goap::Domain& d, const goap::WorldState& start, const goap::Condition& goal,
                          std::span<const goap::ActionId> plan) {
    goap::WorldState s = start;
    double cost = 0;
    for (const goap::ActionId a : plan) {
        if (!d.applicable(a, s)) return -1;
        d.apply(a, s);
        cost += d.action_cost(a);
    }
    return goal.satisfied_by(s) ? cost : -1;
}

}  // namespace gameplan::test
