// Safe-interval path planning against a reservation table; see sipp.hpp.
#include "sipp.hpp"

#include <algorithm>
#include <functional>

namespace gameplan::path::detail {

namespace {
constexpr std::uint32_t kInf = UINT32_MAX;
}  // namespace

void Reservation::reset(std::uint32_t vertices) {
    if (m_at.size() < vertices) {
        m_at.resize(vertices);
        m_steps.resize(vertices);
    }
    for (auto& list : m_at) list.clear();
    for (auto& list : m_steps) list.clear();
    m_park_time.assign(vertices, kSippNone);
    m_park_agent.assign(vertices, kSippNone);
}

void Reservation::add(std::uint32_t agent, const std::uint32_t* path, std::uint32_t cost) {
    for (std::uint32_t t = 0; t < cost; ++t) {
        auto& steps = m_steps[path[t]];
        auto& list = m_at[path[t]];
        const Entry e{agent, path[t + 1]};
        if (steps.empty() || steps.back() < t) {
            steps.push_back(t);
            list.push_back(e);
        } else {
            const auto k = std::lower_bound(steps.begin(), steps.end(), t) - steps.begin();
            steps.insert(steps.begin() + k, t);
            list.insert(list.begin() + k, e);
        }
    }
    m_park_time[path[cost]] = cost;
    m_park_agent[path[cost]] = agent;
}

void Reservation::remove(std::uint32_t agent, const std::uint32_t* path, std::uint32_t cost) noexcept {
    for (std::uint32_t t = 0; t < cost; ++t) {
        auto& steps = m_steps[path[t]];
        auto& list = m_at[path[t]];
        auto k = std::lower_bound(steps.begin(), steps.end(), t) - steps.begin();
        const auto size = static_cast<std::ptrdiff_t>(steps.size());
        while (k < size && steps[static_cast<std::size_t>(k)] == t && list[static_cast<std::size_t>(k)].agent != agent) ++k;
        if (k < size && steps[static_cast<std::size_t>(k)] == t) {
            steps.erase(steps.begin() + k);
            list.erase(list.begin() + k);
        }
    }
    if (m_park_agent[path[cost]] == agent) {
        m_park_time[path[cost]] = kSippNone;
        m_park_agent[path[cost]] = kSippNone;
    }
}

std::uint32_t Reservation::occupant(std::uint32_t v, std::uint32_t t) const noexcept {
    if (m_park_time[v] <= t) return m_park_agent[v];
    const auto& steps = m_steps[v];
    const auto it = std::lower_bound(steps.begin(), steps.end(), t);
    return it != steps.end() && *it == t ? m_at[v][static_cast<std::size_t>(it - steps.begin())].agent : kSippNone;
}

void SippPlanner::reset(std::uint32_t vertices) {
    m_here.assign(vertices, Here{0, kSippNone});
    m_gen = 0;
}

std::uint32_t SippPlanner::node_for(std::uint32_t v, std::uint32_t interval) {
    Here& here = m_here[v];
    if (here.stamp != m_gen) {
        here.stamp = m_gen;
        here.head = kSippNone;
    }
    for (std::uint32_t k = here.head; k != kSippNone; k = m_nodes[k].next_here)
        if (m_nodes[k].interval == interval) return k;
    const auto id = static_cast<std::uint32_t>(m_nodes.size());
    m_nodes.push_back(Node{v, interval, kInf, kSippNone, here.head, false});
    here.head = id;
    return id;
}

std::uint32_t SippPlanner::plan(const SippGraph& graph, const Reservation& table, std::uint32_t agent,
                                std::uint32_t start, std::uint32_t goal, std::uint32_t bound,
                                std::vector<std::uint32_t>& out, std::uint64_t max_expanded) {
    m_expanded = 0;
    if (++m_gen == 0) {
        std::fill(m_here.begin(), m_here.end(), Here{0, kSippNone});
        m_gen = 1;
    }
    m_nodes.clear();
    m_heap.clear();
    const std::uint32_t* h = graph.dist + static_cast<std::size_t>(agent) * graph.vertices;
    // Interval k of vertex v is [lo, end): lo = steps[k-1] + 1 (0 for k = 0), end = steps[k],
    // or the park step (infinity if nobody parks there) for k = entries.size().
    const auto interval_end = [&](std::uint32_t v, std::uint32_t k) -> std::uint32_t {
        const auto& list = table.steps(v);
        if (k < list.size()) return list[k];
        const std::uint32_t park = table.park_time(v);
        return park == kSippNone ? kInf : park;
    };
    const auto interval_lo = [&](std::uint32_t v, std::uint32_t k) -> std::uint32_t {
        return k == 0 ? 0 : table.steps(v)[k - 1] + 1;
    };
    // The agent can only settle on its goal after the last other agent has left it, so its arrival
    // is at least `settle`: f = max(g + h, settle) is still a lower bound (and consistent). Among
    // equal f, states nearer the goal first, then later arrivals.
    const auto& goal_list = table.steps(goal);
    const std::uint32_t settle = goal_list.empty() ? 0 : goal_list.back() + 1;
    const auto f_of = [&](std::uint32_t g, std::uint32_t v) {
        return std::max<std::uint64_t>(static_cast<std::uint64_t>(g) + h[v], settle);
    };
    const auto push = [&](std::uint32_t id) {
        const Node& node = m_nodes[id];
        m_heap.push_back(HeapItem{(f_of(node.g, node.v) << 32) | h[node.v], ~node.g, id});
        std::push_heap(m_heap.begin(), m_heap.end(), std::greater<>());
    };
    if (interval_end(start, 0) == 0 || f_of(0, start) > bound) return kSippNone;
    {
        const std::uint32_t id = node_for(start, 0);
        m_nodes[id].g = 0;
        push(id);
    }
    const std::uint32_t goal_interval = static_cast<std::uint32_t>(table.steps(goal).size());
    const bool goal_free_forever = table.park_time(goal) == kSippNone;
    while (!m_heap.empty()) {
        std::pop_heap(m_heap.begin(), m_heap.end(), std::greater<>());
        const HeapItem item = m_heap.back();
        m_heap.pop_back();
        Node& cur = m_nodes[item.node];
        if (cur.closed || ~item.late != cur.g) continue;  // stale entry
        cur.closed = true;
        if (++m_expanded > max_expanded) return kSippNone;
        const std::uint32_t v = cur.v;
        const std::uint32_t g = cur.g;
        if (v == goal && cur.interval == goal_interval && goal_free_forever) {
            // reconstruct: a node (v, g) with parent (pv, pg) means pv at steps pg..g-1, then v at g
            out.resize(static_cast<std::size_t>(g) + 1);
            std::uint32_t id = item.node;
            while (true) {
                const Node& node = m_nodes[id];
                out[node.g] = node.v;
                if (node.parent == kSippNone) break;
                const Node& par = m_nodes[node.parent];
                for (std::uint32_t t = par.g; t < node.g; ++t) out[t] = par.v;
                id = node.parent;
            }
            return g;
        }
        const std::uint32_t end_v = interval_end(v, cur.interval);  // may stay on v up to end_v - 1
        const std::uint32_t* nb = graph.nbr + static_cast<std::size_t>(v) * 4;
        for (std::uint32_t s = 0; s < graph.degree[v]; ++s) {
            const std::uint32_t u = nb[s];
            const auto& list = table.steps(u);
            const auto m = static_cast<std::uint32_t>(list.size());
            // first interval of u that can contain a step >= g + 1
            auto k = static_cast<std::uint32_t>(std::lower_bound(list.begin(), list.end(), g + 1) - list.begin());
            for (; k <= m; ++k) {
                const std::uint32_t lo = interval_lo(u, k);
                std::uint32_t arrive = std::max(lo, g + 1);
                if (arrive > end_v) break;  // would have to leave v after its interval ends
                if (f_of(arrive, u) > bound) break;  // f only grows with later intervals
                const std::uint32_t end_u = interval_end(u, k);
                // swap: the agent leaving u at arrive - 1 goes to v at arrive
                if (arrive == lo && k > 0 && table.entries(u)[k - 1].next == v) ++arrive;
                if (arrive < end_u && arrive <= end_v && f_of(arrive, u) <= bound) {  // (+1 for a swap)
                    const std::uint32_t id = node_for(u, k);
                    Node& next = m_nodes[id];
                    if (!next.closed && arrive < next.g) {
                        next.g = arrive;
                        next.parent = item.node;
                        push(id);
                    }
                }
                if (end_u == kInf) break;
            }
        }
    }
    return kSippNone;
}

}  // namespace gameplan::path::detail
