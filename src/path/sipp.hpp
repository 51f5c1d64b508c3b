#pragma once
// Safe-interval path planning (SIPP, Phillips & Likhachev, ICRA 2011) for one agent on a 4-connected
// vertex graph against the fixed paths of other agents (a reservation table). Used by the crowd
// solver's large neighbourhood search (crowd_solver.cpp); internal, never installed.
//
// Model (classic MAPF): unit-time steps, an agent moves to a neighbour or waits; no two agents on one
// vertex at one step, no two agents exchanging vertices in one step; an agent stays on its goal after
// its last arrival and blocks it forever. A path p[0..c] has cost c = the step of the last arrival
// (p[c] is the goal and the agent is parked there from c on).
//
// Reservation: per vertex, the steps at which another agent stands there (sorted, in an array of their
// own that the search binary-searches), each with the agent and the vertex that agent occupies one
// step later (for swap checks), plus the step from which an agent
// is parked on it for good. The free steps of a vertex form *safe intervals*: [0, t0-1],
// [t0+1, t1-1], ..., [t_last+1, park-1 or infinity]. SIPP searches over (vertex, safe interval)
// states with the earliest arrival time as g and the agent's BFS distance as h (consistent), so the
// first goal state popped in the goal's last (unbounded) interval is a cheapest path. The number of
// states is at most vertices + reserved entries, so even a failing search is bounded.
//
// Memory: all buffers are kept between searches (node pool, heap, per-vertex stamps); per-vertex
// entry lists keep their capacity, so after warm-up neither planning nor (un)reserving allocates.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gameplan::path::detail {

inline constexpr std::uint32_t kSippNone = UINT32_MAX;

/// Reserved steps of the other agents, per vertex.
class Reservation {
public:
    struct Entry {
        std::uint32_t agent;  // the agent standing on the vertex at the matching step
        std::uint32_t next;   // the agent's vertex one step later (for swap checks)
    };

    /// Empties the table for `vertices` vertices (keeps capacity).
    void reset(std::uint32_t vertices);
    /// Reserves path[0..cost] of `agent` (path[cost] is its goal, parked from step cost on).
    void add(std::uint32_t agent, const std::uint32_t* path, std::uint32_t cost);
    /// Removes a path added before with the same arguments.
    void remove(std::uint32_t agent, const std::uint32_t* path, std::uint32_t cost) noexcept;

    /// Agent on vertex v at step t, or kSippNone.
    [[nodiscard]] std::uint32_t occupant(std::uint32_t v, std::uint32_t t) const noexcept;
    /// Reserved steps of vertex v, ascending (the parking step not included); entries(v)[k] belongs
    /// to steps(v)[k]. Kept apart so that the searches binary-search a dense array of steps.
    [[nodiscard]] const std::vector<std::uint32_t>& steps(std::uint32_t v) const noexcept { return m_steps[v]; }
    [[nodiscard]] const std::vector<Entry>& entries(std::uint32_t v) const noexcept { return m_at[v]; }
    /// Step from which an agent is parked on v (kSippNone: nobody).
    [[nodiscard]] std::uint32_t park_time(std::uint32_t v) const noexcept { return m_park_time[v]; }
    [[nodiscard]] std::uint32_t park_agent(std::uint32_t v) const noexcept { return m_park_agent[v]; }
    /// Bytes held (capacities, the per-vertex lists included).
    [[nodiscard]] std::size_t memory_bytes() const noexcept {
        std::size_t bytes = (m_steps.capacity() + m_at.capacity()) * sizeof(m_steps[0]) +
                            (m_park_time.capacity() + m_park_agent.capacity()) * sizeof(std::uint32_t);
        for (const auto& s : m_steps) bytes += s.capacity() * sizeof(std::uint32_t);
        for (const auto& a : m_at) bytes += a.capacity() * sizeof(Entry);
        return bytes;
    }

private:
    std::vector<std::vector<std::uint32_t>> m_steps;
    std::vector<std::vector<Entry>> m_at;
    std::vector<std::uint32_t> m_park_time, m_park_agent;
};

/// The vertex graph SIPP runs on: 4 neighbour slots per vertex (padded), their count, and one
/// distance-to-goal table per agent (agents x vertices).
struct SippGraph {
    const std::uint32_t* nbr = nullptr;
    const std::uint8_t* degree = nullptr;
    const std::uint32_t* dist = nullptr;
    std::uint32_t vertices = 0;
};

/// Reusable single-agent planner.
class SippPlanner {
public:
    /// Sizes the per-vertex stamps (keeps other buffers).
    void reset(std::uint32_t vertices);
    /// Cheapest path of `agent` from `start` to `goal` avoiding every reservation, with cost at most
    /// `bound`. On success writes the path (cost + 1 vertices) to `out` and returns the cost; returns
    /// kSippNone if there is none within the bound, or if the search would expand more than
    /// `max_expanded` states. `agent` must not be in the table itself.
    std::uint32_t plan(const SippGraph& graph, const Reservation& table, std::uint32_t agent, std::uint32_t start,
                       std::uint32_t goal, std::uint32_t bound, std::vector<std::uint32_t>& out,
                       std::uint64_t max_expanded = UINT64_MAX);
    /// States expanded by the last plan().
    [[nodiscard]] std::uint64_t expanded() const noexcept { return m_expanded; }
    /// Bytes held (capacities).
    [[nodiscard]] std::size_t memory_bytes() const noexcept {
        return m_nodes.capacity() * sizeof(Node) + m_heap.capacity() * sizeof(HeapItem) + m_here.capacity() * sizeof(Here);
    }

private:
    struct Node {
        std::uint32_t v;
        std::uint32_t interval;  // index into the vertex's entry list (see interval_bounds)
        std::uint32_t g;         // earliest arrival
        std::uint32_t parent;
        std::uint32_t next_here;  // next node of the same vertex (lookup list)
        bool closed;
    };
    struct HeapItem {
        std::uint64_t key;    // f << 32 | h: lower f first, then nearer the goal
        std::uint32_t late;   // ~g: then later arrival first
        std::uint32_t node;
        bool operator>(const HeapItem& o) const noexcept {
            if (key != o.key) return key > o.key;
            if (late != o.late) return late > o.late;
            return node > o.node;
        }
    };
    std::uint32_t node_for(std::uint32_t v, std::uint32_t interval);

    std::vector<Node> m_nodes;
    std::vector<HeapItem> m_heap;
    struct Here {
        std::uint32_t stamp;  // search generation
        std::uint32_t head;   // first node of the vertex in this search
    };
    std::vector<Here> m_here;  // per vertex
    std::uint32_t m_gen = 0;
    std::uint64_t m_expanded = 0;
};

}  // namespace gameplan::path::detail
