#pragma once
// Per-tick conflict resolution for the movement layer: priority inheritance (PIBT, Okumura, Machida,
// Defago and Tokuda 2019) over the units' next cells. Internal to the library (src/path).
//
// Every agent ends the tick on one cell; no two agents end on the same cell and no two swap cells.
// `plan` takes the agents in the given priority order; an agent that is not decided yet when a
// higher-priority agent wants its cell inherits that priority and chooses first (recursively); if it
// cannot move, the asking agent tries its next candidate. Candidates are the legal neighbours and
// staying, ranked by the caller's `rank(agent, cell)` (smaller first; equal ranks keep the neighbour
// order, then staying last). Fixed agents never move and are never asked to.
//
// Memory: sized by `reset`; `plan` allocates nothing. Thread-safety: one stepper per thread.
#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/grid_rules.hpp>

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace gameplan::path::detail {

class PibtStepper {
public:
    static constexpr std::uint32_t kNone = UINT32_MAX;

    // Sizes the per-node reservation table for `map` and per-agent state for `agents`.
    void reset(const GridMap& map, std::size_t agents) {
        if (m_next_owner.size() != map.node_bound()) m_next_owner.assign(map.node_bound(), kNone);
        if (m_next.size() < agents) m_next.resize(agents);
    }

    // positions[i]: where agent i stands; occupant(node): agent standing on a node or kNone; fixed(i):
    // never moves; rank(i, cell) -> std::uint64_t; order: agents that choose actively, highest priority
    // first (the others only move when asked). Writes next[i] for every agent in `all`.
    template <class Occupant, class Fixed, class Rank>
    void plan(const GridMap& map, Movement movement, DiagonalRule rule, std::span<const GridPoint> positions,
              std::span<const std::uint32_t> all, std::span<const std::uint32_t> order, Occupant&& occupant,
              Fixed&& fixed, Rank&& rank) {
        m_map = &map;
        m_movement = movement;
        m_rule = rule;
        for (const std::uint32_t a : all) m_next[a] = GridPoint{-1, -1};
        for (const std::uint32_t a : all)
            if (fixed(a)) reserve(a, positions[a]);
        for (const std::uint32_t a : order)
            if (m_next[a].x < 0) (void)choose(a, kNone, positions, occupant, fixed, rank);
        for (const std::uint32_t a : all)
            if (m_next[a].x < 0) reserve(a, positions[a]);  // asked by nobody: stays
        for (const std::uint32_t a : all) m_next_owner[map.index(m_next[a])] = kNone;  // table clean again
    }

    [[nodiscard]] GridPoint next(std::uint32_t agent) const noexcept { return m_next[agent]; }

private:
    void reserve(std::uint32_t agent, GridPoint cell) {
        m_next[agent] = cell;
        m_next_owner[m_map->index(cell)] = agent;
    }

    template <class Occupant, class Fixed, class Rank>
    bool choose(std::uint32_t a, std::uint32_t parent, std::span<const GridPoint> positions, Occupant& occupant,
                Fixed& fixed, Rank& rank) {
        static constexpr GridPoint kDirs[8] = {{0, -1}, {1, 0}, {0, 1}, {-1, 0}, {1, -1}, {1, 1}, {-1, 1}, {-1, -1}};
        struct Candidate {
            std::uint64_t key;
            GridPoint cell;
        };
        std::array<Candidate, 9> c{};
        std::size_t n = 0;
        const GridPoint here = positions[a];
        const int dirs = m_movement == Movement::Four ? 4 : 8;
        for (int d = 0; d < dirs; ++d) {
            const GridPoint to{here.x + kDirs[d].x, here.y + kDirs[d].y};
            if (!step_allowed(*m_map, here, to, m_movement, m_rule)) continue;
            c[n++] = Candidate{rank(a, to), to};
        }
        c[n++] = Candidate{rank(a, here), here};
        // Insertion sort, stable: equal ranks keep the neighbour order (staying last).
        for (std::size_t i = 1; i < n; ++i)
            for (std::size_t j = i; j > 0 && c[j].key < c[j - 1].key; --j) std::swap(c[j], c[j - 1]);
        for (std::size_t i = 0; i < n; ++i) {
            const GridPoint to = c[i].cell;
            const std::uint32_t node = m_map->index(to);
            if (m_next_owner[node] != kNone) continue;
            if (parent != kNone && to == positions[parent]) continue;  // never swap with the asking agent
            reserve(a, to);
            const std::uint32_t other = occupant(node);
            if (other != kNone && other != a && m_next[other].x < 0) {
                if (fixed(other) || !choose(other, a, positions, occupant, fixed, rank)) continue;
            }
            return true;
        }
        reserve(a, here);
        return false;
    }

    const GridMap* m_map = nullptr;
    Movement m_movement = Movement::Eight;
    DiagonalRule m_rule = DiagonalRule::NoCornerCutting;
    std::vector<std::uint32_t> m_next_owner;  // per node: agent that ends the tick there, kNone
    std::vector<GridPoint> m_next;
};

}  // namespace gameplan::path::detail
