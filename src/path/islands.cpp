#include <gameplan/path/islands.hpp>

#include <gameplan/search/generation.hpp>

#include "grid_neighbours.hpp"

#include <algorithm>
#include <cassert>

namespace gameplan::path {

namespace {
constexpr std::uint32_t kNone = Islands::kNoIsland;
}  // namespace

namespace {
GridSearchOptions rules_of(DiagonalRule rule) {
    GridSearchOptions rules;
    rules.movement = Movement::Eight;
    rules.diagonal = rule;
    return rules;
}
}  // namespace

void Islands::build(const GridMap& map, const GridSearchOptions& rules, IslandUpdate update) {
    const std::uint64_t rebuilds = m_stats.rebuilds;
    m_map = &map;
    m_pass = map.passable_data().data();
    m_version = map.passability_version();
    m_bound = map.node_bound();
    m_stride = map.stride();
    m_resets = map.reset_count();
    m_width = map.width();
    m_height = map.height();
    m_rule = effective_diagonal(rules.movement, rules.diagonal);
    m_update = update;
    m_stats = {};
    m_stats.rebuilds = rebuilds + 1;

    m_label.assign(m_bound, kNone);
    m_visit.assign(m_bound, 0);
    m_visit_base = 0;
    m_root.clear();
    m_next.clear();
    m_tail.clear();
    m_count.clear();
    m_cells.clear();
    m_dirty.clear();
    m_seeds.clear();
    m_live = 0;

    std::vector<std::uint32_t>& stack = m_scratch;
    for (std::uint32_t start = 0; start < m_bound; ++start) {
        if (!m_pass[start] || m_label[start] != kNone) continue;
        const std::uint32_t label = new_island(0);
        std::uint32_t cells = 0;
        stack.clear();
        stack.push_back(start);
        m_label[start] = label;
        while (!stack.empty()) {
            const std::uint32_t node = stack.back();
            stack.pop_back();
            ++cells;
            detail::for_each_neighbour(m_pass, m_stride, node, m_rule, [&](std::uint32_t next) {
                if (m_label[next] != kNone) return;
                m_label[next] = label;
                stack.push_back(next);
            });
        }
        add_cells(label, cells);
    }
}

std::uint32_t Islands::new_island(std::uint32_t cells) {
    const auto label = static_cast<std::uint32_t>(m_root.size());
    m_root.push_back(label);
    m_next.push_back(kNone);
    m_tail.push_back(label);
    m_count.push_back(1);
    m_cells.push_back(0);
    m_dirty.push_back(0);
    add_cells(label, cells);
    return label;
}

void Islands::add_cells(std::uint32_t root, std::int64_t delta) noexcept {
    const std::uint32_t before = m_cells[root];
    const auto after = static_cast<std::uint32_t>(static_cast<std::int64_t>(before) + delta);
    m_cells[root] = after;
    if (before == 0 && after != 0) ++m_live;
    if (before != 0 && after == 0) --m_live;
}

std::uint32_t Islands::merge(std::uint32_t a, std::uint32_t b) {
    if (a == b) return a;
    if (m_count[a] < m_count[b]) std::swap(a, b);  // a keeps its root: re-point the shorter list only
    for (std::uint32_t label = b; label != kNone; label = m_next[label]) m_root[label] = a;
    m_next[m_tail[a]] = b;
    m_tail[a] = m_tail[b];
    m_count[a] += m_count[b];
    const std::uint32_t moved = m_cells[b];
    add_cells(b, -static_cast<std::int64_t>(moved));
    add_cells(a, moved);
    m_dirty[a] = static_cast<std::uint8_t>(m_dirty[a] | m_dirty[b]);
    m_dirty[b] = 0;
    ++m_stats.merges;
    return a;
}

void Islands::relabel(std::span<const std::uint32_t> nodes, std::uint32_t old_root) {
    const std::uint32_t label = new_island(static_cast<std::uint32_t>(nodes.size()));
    for (const std::uint32_t node : nodes) m_label[node] = label;
    add_cells(old_root, -static_cast<std::int64_t>(nodes.size()));
}

std::uint32_t Islands::next_visit_base(std::uint32_t span) {
    return search::next_stamp_block(m_visit_base, span, [&] { std::fill(m_visit.begin(), m_visit.end(), search::kUnvisitedStamp); });
}

void Islands::flood(std::uint32_t seed, std::uint32_t stamp, std::vector<std::uint32_t>& out) {
    out.clear();
    out.push_back(seed);
    m_visit[seed] = stamp;
    for (std::size_t i = 0; i < out.size(); ++i)
        detail::for_each_neighbour(m_pass, m_stride, out[i], m_rule, [&](std::uint32_t next) {
            if (m_visit[next] == stamp) return;
            m_visit[next] = stamp;
            out.push_back(next);
        });
}

void Islands::cell_became_passable(std::uint32_t node) {
    std::uint32_t root = kNone;
    detail::for_each_neighbour(m_pass, m_stride, node, m_rule, [&](std::uint32_t next) {
        const std::uint32_t other = m_root[m_label[next]];
        root = root == kNone ? other : merge(root, other);
    });
    if (root == kNone) {
        m_label[node] = new_island(1);
    } else {
        m_label[node] = root;
        add_cells(root, 1);
    }
}

void Islands::cell_became_blocked(std::uint32_t node) {
    const std::uint32_t root = m_root[m_label[node]];
    m_label[node] = kNone;
    add_cells(root, -1);

    // The steps removed are those into `node` and the diagonals it flanked; every one of them joins two
    // of node's former neighbours (or node itself). If those neighbours are still connected inside the
    // 3 x 3 window, every route through a removed step has a detour: nothing split.
    std::array<std::uint32_t, 8> ring{};
    std::size_t ring_size = 0;
    detail::for_each_neighbour(m_pass, m_stride, node, m_rule, [&](std::uint32_t next) { ring[ring_size++] = next; });
    if (ring_size <= 1) {
        ++m_stats.blocked_local;
        return;
    }
    const auto offsets = detail::neighbour_offsets(m_stride);
    const auto in_window = [&](std::uint32_t cell) {
        for (const std::int64_t off : offsets)
            if (static_cast<std::int64_t>(node) + off == static_cast<std::int64_t>(cell)) return true;
        return false;
    };
    std::array<std::uint8_t, 8> group{};
    group.fill(UINT8_MAX);
    std::array<std::uint32_t, 4> seeds{};
    std::size_t groups = 0;
    for (std::size_t i = 0; i < ring_size; ++i) {
        if (group[i] != UINT8_MAX) continue;
        assert(groups < seeds.size());  // a ring of 8 cells splits into at most 4 separated runs
        seeds[groups] = ring[i];
        // Flood the window (passable cells other than node) from ring[i]; mark ring members reached.
        std::array<std::uint32_t, 8> stack{};
        std::array<std::uint32_t, 8> seen{};
        std::size_t stack_size = 0, seen_size = 0;
        stack[stack_size++] = ring[i];
        seen[seen_size++] = ring[i];
        while (stack_size > 0) {
            const std::uint32_t cell = stack[--stack_size];
            for (std::size_t j = 0; j < ring_size; ++j)
                if (ring[j] == cell) group[j] = static_cast<std::uint8_t>(groups);
            detail::for_each_neighbour(m_pass, m_stride, cell, m_rule, [&](std::uint32_t next) {
                if (!in_window(next)) return;
                for (std::size_t k = 0; k < seen_size; ++k)
                    if (seen[k] == next) return;
                seen[seen_size++] = next;
                stack[stack_size++] = next;
            });
        }
        ++groups;
    }
    if (groups == 1) {
        ++m_stats.blocked_local;
        return;
    }
    if (m_update == IslandUpdate::Lazy) {
        m_seeds.insert(m_seeds.end(), seeds.begin(), seeds.begin() + static_cast<std::ptrdiff_t>(groups));
        m_dirty[root] = 1;
        ++m_stats.deferred;
        return;
    }
    resolve_split(std::span<const std::uint32_t>(seeds.data(), groups), root);
}

void Islands::resolve_split(std::span<const std::uint32_t> seeds, std::uint32_t root) {
    ++m_stats.split_searches;
    const auto k = static_cast<std::uint32_t>(seeds.size());
    const std::uint32_t base = next_visit_base(4);
    std::array<std::uint32_t, 4> leader{};  // union-find over the searches: searches that met
    std::array<std::size_t, 4> head{};
    std::array<bool, 4> finished{};
    for (std::uint32_t i = 0; i < k; ++i) {
        leader[i] = i;
        m_queues[i].clear();
        m_queues[i].push_back(seeds[i]);
        m_visit[seeds[i]] = base + i;
    }
    const auto find = [&](std::uint32_t i) {
        while (leader[i] != i) i = leader[i];
        return i;
    };
    // Lock step: one expansion per live search per round, so the work is bounded by k times the
    // smallest side. A group of searches that met is one side; it is a separate island once all its
    // searches are exhausted, and the last side standing keeps the old island.
    for (;;) {
        std::uint32_t live_groups = 0;
        for (std::uint32_t i = 0; i < k; ++i)
            if (!finished[i] && find(i) == i) ++live_groups;
        if (live_groups <= 1) break;
        for (std::uint32_t g = 0; g < k; ++g) {
            if (finished[g] || find(g) != g) continue;
            bool exhausted = true;
            for (std::uint32_t i = 0; i < k; ++i)
                if (find(i) == g && head[i] < m_queues[i].size()) exhausted = false;
            if (!exhausted) continue;
            m_scratch.clear();
            for (std::uint32_t i = 0; i < k; ++i)
                if (find(i) == g) {
                    m_scratch.insert(m_scratch.end(), m_queues[i].begin(), m_queues[i].end());
                    finished[i] = true;
                }
            relabel(m_scratch, root);
            ++m_stats.splits;
            if (--live_groups <= 1) break;
        }
        if (live_groups <= 1) break;
        for (std::uint32_t i = 0; i < k; ++i) {
            if (finished[i] || head[i] == m_queues[i].size()) continue;
            const std::uint32_t cell = m_queues[i][head[i]++];
            detail::for_each_neighbour(m_pass, m_stride, cell, m_rule, [&](std::uint32_t next) {
                const std::uint32_t stamp = m_visit[next] - base;
                if (stamp < 4) {
                    const std::uint32_t a = find(i), b = find(stamp);
                    if (a != b) leader[std::max(a, b)] = std::min(a, b);
                    return;
                }
                m_visit[next] = base + i;
                m_queues[i].push_back(next);
            });
        }
    }
    for (std::uint32_t i = 0; i < k; ++i) m_stats.searched_cells += m_queues[i].size();
}

bool Islands::cell_changed(const GridMap& map, GridPoint p) {
    if (m_map != &map || !map.contains(p)) return false;
    if (map.node_bound() != m_bound || map.stride() != m_stride || map.reset_count() != m_resets) {
        build(map, rules_of(m_rule), m_update);
        return true;
    }
    m_pass = map.passable_data().data();
    const std::uint32_t node = node_of(p);
    const bool was = m_label[node] != kNone;
    const bool now = m_pass[node] != 0;
    if (was != now) {
        if (now) cell_became_passable(node);
        else cell_became_blocked(node);
        ++m_version;  // in step with the map once every change is reported (as each bumps it once)
    }
    // Labels abandoned by splits and isolated cells pile up; compact them now and then.
    if (m_root.size() > 2 * map.cell_count() + 1024) build(map, rules_of(m_rule), m_update);
    return true;
}

bool Islands::cells_changed(const GridMap& map, std::span<const GridPoint> cells) {
    bool all = true;
    for (const GridPoint& p : cells) all = cell_changed(map, p) && all;
    return all;
}

bool Islands::set_passable(GridMap& map, GridPoint p, bool passable) {
    if (!map.set_passable(p, passable)) return false;
    return cell_changed(map, p);
}

void Islands::refresh() {
    if (m_seeds.empty()) return;
    const std::uint32_t stamp = next_visit_base(1);
    std::vector<std::uint32_t> refreshed_roots;  // rare path: a small allocation is acceptable
    for (const std::uint32_t seed : m_seeds) {
        if (!m_pass[seed] || m_visit[seed] == stamp) continue;
        const std::uint32_t root = m_root[m_label[seed]];
        if (!m_dirty[root]) continue;
        if (m_dirty[root] == 1) {
            m_dirty[root] = 2;  // being re-flooded: its first piece is no split
            refreshed_roots.push_back(root);
        } else {
            ++m_stats.splits;
        }
        // Every cell of a dirty island reaches one of its seeds (each route to a blocked cell passes one
        // of the seeds recorded for it), so flooding from the seeds relabels the whole island.
        flood(seed, stamp, m_scratch);
        m_stats.searched_cells += m_scratch.size();
        relabel(m_scratch, root);
    }
    for (const std::uint32_t root : refreshed_roots) m_dirty[root] = 0;
    m_seeds.clear();
    if (m_root.size() > 2 * m_map->cell_count() + 1024) build(*m_map, rules_of(m_rule), m_update);
}

void Islands::update(const GridMap& map) {
    if (!current(map)) {
        build(map, rules_of(m_map ? m_rule : DiagonalRule::NoCornerCutting), m_update);
        return;
    }
    m_pass = map.passable_data().data();
    refresh();
}

bool Islands::proves_unreachable(const GridMap& map, const GridSearchOptions& rules,
                                 std::span<const GridPoint> sources, std::span<const GridPoint> goals) const noexcept {
    if (goals.empty() || sources.empty() || !applies_to(map, rules)) return false;
    std::array<std::uint32_t, 16> source_islands{};
    std::size_t count = 0;
    for (const GridPoint& s : sources) {
        const std::uint32_t id = island(s);
        if (id == kNoIsland) return false;  // blocked or off the map: the search reports InvalidQuery
        if (std::find(source_islands.begin(), source_islands.begin() + static_cast<std::ptrdiff_t>(count), id) !=
            source_islands.begin() + static_cast<std::ptrdiff_t>(count))
            continue;
        if (count == source_islands.size()) return false;
        source_islands[count++] = id;
    }
    for (const GridPoint& g : goals) {
        const std::uint32_t id = island(g);
        if (id == kNoIsland) return false;
        for (std::size_t i = 0; i < count; ++i)
            if (source_islands[i] == id) return false;
    }
    return true;
}

}  // namespace gameplan::path
