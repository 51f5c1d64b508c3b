#include <gameplan/path/dead_ends.hpp>
#include <gameplan/path/grid_search.hpp>

#include "grid_neighbours.hpp"

#include <algorithm>

namespace gameplan::path {

void DeadEnds::build(const GridMap& map) { build(map, GridSearchOptions{}); }

bool DeadEnds::applies_to(const GridMap& map, const GridSearchOptions& rules) const noexcept {
    return current(map) &&
           static_cast<int>(effective_diagonal(rules.movement, rules.diagonal)) <= static_cast<int>(m_rule);
}

void DeadEnds::build(const GridMap& map, const GridSearchOptions& rules) {
    const DiagonalRule rule = effective_diagonal(rules.movement, rules.diagonal);
    const std::uint32_t bound = map.node_bound();
    const std::uint32_t stride = map.stride();
    const std::uint8_t* pass = map.passable_data().data();
    const auto offsets = detail::neighbour_offsets(stride);
    constexpr std::uint32_t kNone = UINT32_MAX;
    m_map = &map;
    m_version = map.passability_version();
    m_rule = rule;

    std::vector<std::uint32_t> pre(bound, kNone), region(bound, kNoRegion);
    m_lo.clear();
    m_hi.clear();
    m_parent.clear();
    m_choke.clear();
    m_cells_in_regions = 0;
    std::vector<std::uint32_t> low(bound, 0), parent(bound, kNone), order;
    std::vector<std::uint8_t> next_dir(bound, 0);
    std::vector<std::uint32_t> own_region(bound, kNoRegion);  // region rooted at a separating child
    std::vector<std::uint32_t> stack;
    order.reserve(map.cell_count());
    std::uint32_t counter = 0;

    // Iterative Tarjan: the explicit stack replaces recursion (a maze corridor is a path of 10^5 cells).
    for (std::uint32_t root = 0; root < bound; ++root) {
        if (!pass[root] || pre[root] != kNone) continue;
        pre[root] = low[root] = counter++;
        order.push_back(root);
        stack.push_back(root);
        std::uint32_t root_children = 0;
        std::uint32_t first_child_region = kNoRegion;
        while (!stack.empty()) {
            const std::uint32_t v = stack.back();
            if (next_dir[v] < 8) {
                const unsigned dir = next_dir[v]++;
                if (rule == DiagonalRule::Never && dir >= 4) continue;
                if (!detail::step_legal(pass, stride, v, dir, rule)) continue;
                const auto w = static_cast<std::uint32_t>(static_cast<std::int64_t>(v) + offsets[dir]);
                if (pre[w] == kNone) {
                    parent[w] = v;
                    pre[w] = low[w] = counter++;
                    order.push_back(w);
                    stack.push_back(w);
                } else if (w != parent[v]) {
                    low[v] = std::min(low[v], pre[w]);
                }
                continue;
            }
            stack.pop_back();
            const std::uint32_t p = parent[v];
            if (p == kNone) continue;
            low[p] = std::min(low[p], low[v]);
            if (low[v] >= pre[p]) {  // p separates v's subtree [pre(v), counter) from the rest
                own_region[v] = static_cast<std::uint32_t>(m_lo.size());
                m_lo.push_back(pre[v]);
                m_hi.push_back(counter);
                m_parent.push_back(kNoRegion);
                m_choke.push_back(p);
                if (p == root && ++root_children == 1) first_child_region = own_region[v];
            } else if (p == root) {
                ++root_children;
            }
        }
        // A root with a single DFS child is no articulation point: that child's "region" is the whole
        // component but the root, which prunes nothing useful and would only cost a test per cell.
        if (root_children == 1 && first_child_region != kNoRegion) {
            for (std::uint32_t i = pre[root]; i < counter; ++i)
                if (own_region[order[i]] == first_child_region) own_region[order[i]] = kNoRegion;
            m_hi[first_child_region] = m_lo[first_child_region];  // empty interval: never contains a query
        }
    }
    for (const std::uint32_t v : order) {  // preorder: a parent is labelled before its children
        const std::uint32_t own = own_region[v];
        const std::uint32_t above = parent[v] != kNone ? region[parent[v]] : kNoRegion;
        region[v] = own != kNoRegion ? own : above;
        if (own != kNoRegion) m_parent[own] = above;  // every region around the choke encloses this one
        if (region[v] != kNoRegion) ++m_cells_in_regions;
    }
    m_cells.resize(bound);
    for (std::uint32_t node = 0; node < bound; ++node) m_cells[node] = CellInfo{pre[node], region[node]};
}

DeadEnds::Query DeadEnds::query(std::uint32_t s, std::uint32_t t) const noexcept {
    Query q;
    q.key_s = m_cells[s].key;
    q.key_t = m_cells[t].key;
    std::uint32_t r = m_cells[s].region;
    while (r != kNoRegion && !region_contains(r, q.key_t)) r = m_parent[r];
    if (r != kNoRegion) {
        q.lo = m_lo[r];
        q.hi = m_hi[r];
        q.choke = m_choke[r];
    }
    return q;
}

}  // namespace gameplan::path
