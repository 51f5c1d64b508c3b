// Building and repairing the HPA* abstract graph (HierarchicalMap). Queries live in hpa_query.cpp.
#include <gameplan/path/hpa.hpp>

#include "hpa_internal.hpp"

#include <gameplan/path/grid_space.hpp>

#include <algorithm>
#include "bit_cast.hpp"
#include "cost_layers.hpp"
#include <chrono>
#include <cmath>
#include <limits>
#include <span>
#include <string_view>
#include <utility>

namespace gameplan::path {

namespace {
constexpr double kInfinity = std::numeric_limits<double>::infinity();
// Relative slack when deciding that d(u, v) + d(v, w) equals d(u, w): sums of the same steps taken in
// another order differ only in the last bits.
constexpr double kPruneSlack = 1e-9;

std::uint8_t direction_code(std::int32_t dx, std::int32_t dy) noexcept {
    for (std::uint8_t d = 0; d < 8; ++d)
        if (kGridDirections[d].x == dx && kGridDirections[d].y == dy) return d;
    return 0;
}
}  // namespace

HierarchicalMap::HierarchicalMap() = default;
HierarchicalMap::~HierarchicalMap() = default;
HierarchicalMap::HierarchicalMap(HierarchicalMap&& other) noexcept { *this = std::move(other); }
HierarchicalMap& HierarchicalMap::operator=(HierarchicalMap&& other) noexcept {
    if (this == &other) return *this;
    m_options = other.m_options;
    m_movement = other.m_movement;
    m_diagonal = other.m_diagonal;
    m_map = other.m_map;
    m_has_costs = other.m_has_costs;
    m_width = std::exchange(other.m_width, 0);  // a moved-from hierarchy reads as not built
    m_height = std::exchange(other.m_height, 0);
    m_stride = other.m_stride;
    m_clusters_x = other.m_clusters_x;
    m_clusters_y = other.m_clusters_y;
    m_map_version = other.m_map_version;
    m_clusters = std::move(other.m_clusters);
    m_nodes = std::move(other.m_nodes);
    m_node_block = std::move(other.m_node_block);
    m_node_xy = std::move(other.m_node_xy);
    m_free_nodes = std::move(other.m_free_nodes);
    m_node_of_cell = std::move(other.m_node_of_cell);
    m_live_nodes = std::exchange(other.m_live_nodes, 0);
    m_profiled = other.m_profiled;
    m_areas = other.m_areas;
    m_filter = other.m_filter;
    m_has_filter = other.m_has_filter;
    m_layers = std::move(other.m_layers);
    m_layer_versions = std::move(other.m_layer_versions);
    m_areas_version = other.m_areas_version;
    m_min_multiplier = other.m_min_multiplier;
    m_pass = std::move(other.m_pass);
    m_scale = std::move(other.m_scale);
    m_add = std::move(other.m_add);
    m_build_stats = other.m_build_stats;
    m_impl = std::move(other.m_impl);
    return *this;
}

std::size_t HierarchicalMap::edge_count() const noexcept {
    std::size_t count = 0;
    for (const Cluster& c : m_clusters) count += c.edge_steps.size();
    return count;
}

std::size_t HierarchicalMap::memory_bytes() const noexcept {
    std::size_t bytes = m_nodes.capacity() * sizeof(Node) + m_free_nodes.capacity() * sizeof(std::uint32_t) +
                        m_node_of_cell.capacity() * sizeof(std::uint32_t) + m_clusters.capacity() * sizeof(Cluster) +
                        m_pass.capacity() + (m_scale.capacity() + m_add.capacity()) * sizeof(double);
    for (const Cluster& c : m_clusters)
        bytes += c.nodes.capacity() * sizeof(std::uint32_t) + c.blocks.capacity() * sizeof(std::uint32_t) + c.steps.capacity() +
                 c.edge_steps.capacity() * sizeof(std::uint32_t) +
                 (c.dist_from.capacity() + c.dist_to.capacity()) * sizeof(float) +
                 (c.right.capacity() + c.down.capacity() + c.down_right.capacity() + c.down_left.capacity()) *
                     sizeof(Transition);
    return bytes;
}

std::string_view describe(HierarchyBuild outcome) noexcept {
    switch (outcome) {
        case HierarchyBuild::Ok: return "";
        case HierarchyBuild::EmptyMap: return "the map has no cells";
        case HierarchyBuild::BadOptions:
            return "bad hierarchy options (cluster size outside [1, 256], entrance split < 1 or entrance spacing < 0)";
        case HierarchyBuild::OverMemory: return "the hierarchy's estimated memory exceeds the memory cap";
        case HierarchyBuild::BadCosts:
            return "bad cost profile (an area map or layer sized for another map, or a negative or non-finite weight)";
    }
    return "unknown build outcome";
}

std::size_t HierarchicalMap::estimate_after_scan() const noexcept {
    // After scan_transitions and assign_nodes: every array's final size is known except the cached
    // paths, estimated at one cluster side per intra edge (a path across a cluster).
    std::size_t bytes = m_nodes.size() * (sizeof(Node) + sizeof(std::uint32_t*) + sizeof(std::uint32_t)) +
                        m_node_of_cell.size() * sizeof(std::uint32_t) + m_clusters.size() * sizeof(Cluster) +
                        m_pass.size() + (m_scale.size() + m_add.size()) * sizeof(double);
    for (const Cluster& c : m_clusters) {
        const std::size_t k = c.nodes.size();
        const std::size_t cells = static_cast<std::size_t>(c.w) * static_cast<std::size_t>(c.h);
        const std::size_t inter = c.right.size() + c.down.size() + c.down_right.size() + c.down_left.size();
        const std::size_t edges = k * (k > 0 ? k - 1 : 0) + 2 * inter;
        bytes += k * sizeof(std::uint32_t) + (k * kBlockHeader + 2 * edges) * sizeof(std::uint32_t) +
                 edges * sizeof(std::uint32_t) + edges * static_cast<std::size_t>(std::max(c.w, c.h)) +
                 inter * sizeof(Transition);
        if (m_options.distance_tables) bytes += cells * k * sizeof(float) * (m_has_costs ? 2 : 1);
    }
    return bytes;
}

std::size_t HierarchicalMap::estimate_memory_bytes(const GridMap& map, const GridSearchOptions& rules,
                                                   const HierarchyOptions& options) {
    HierarchyOptions scan = options;
    scan.max_memory_bytes = 0;
    HierarchicalMap h;
    if (h.start_build(map, rules, scan) != HierarchyBuild::Ok) return 0;
    return h.estimate_after_scan();
}

HierarchyBuild HierarchicalMap::build(const GridMap& map, const GridSearchOptions& rules, const HierarchyOptions& options) {
    const auto started = std::chrono::steady_clock::now();
    const HierarchyBuild outcome = start_build(map, rules, options);
    if (outcome != HierarchyBuild::Ok) return outcome;
    if (options.max_memory_bytes > 0 && estimate_after_scan() > options.max_memory_bytes) {
        clear();
        return HierarchyBuild::OverMemory;
    }
    for (std::uint32_t c = 0; c < m_clusters.size(); ++c) build_edges(map, c);
    m_build_stats.clusters_rebuilt = m_clusters.size();
    m_map_version = map.version();
    m_build_stats.micros = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - started).count();
    return HierarchyBuild::Ok;
}

void HierarchicalMap::clear() noexcept {
    m_width = m_height = 0;
    m_map = nullptr;
    m_clusters.clear();
    m_nodes.clear();
    m_node_block.clear();
    m_node_xy.clear();
    m_free_nodes.clear();
    m_node_of_cell.clear();
    m_live_nodes = 0;
    m_profiled = false;
    m_areas = nullptr;
    m_filter = AreaFilter{};
    m_has_filter = false;
    m_layers.clear();
    m_layer_versions.clear();
    m_min_multiplier = 1.0;
    m_pass.clear();
    m_scale.clear();
    m_add.clear();
}

bool HierarchicalMap::set_profile(const GridMap& map, const GridSearchOptions& rules) {
    if (!detail::collect_cost_layers(map, rules.penalties, rules.penalty_weight, rules.layers,
                                     [&](const PenaltyLayer* l, double w) { m_layers.push_back(CostLayer{l, w}); }))
        return false;
    if (rules.filter != nullptr) {
        if (rules.areas != nullptr && !rules.areas->matches(map)) return false;
        m_has_filter = true;
        m_filter = *rules.filter;
        m_areas = rules.areas;
    }
    m_profiled = m_has_filter || !m_layers.empty();
    if (!m_profiled) return true;
    m_pass.assign(map.node_bound(), 0);
    m_scale.assign(map.node_bound(), 1.0);
    m_add.assign(map.node_bound(), 0.0);
    for (std::uint32_t cell = 0; cell < map.node_bound(); ++cell) price_cell(map, cell);
    record_versions(map);
    return true;
}

void HierarchicalMap::price_cell(const GridMap& map, std::uint32_t cell) noexcept {
    // The cost of entering `cell` with a step of length l is l x m_scale + m_add, as query_step_cost.
    const std::uint32_t area = m_areas != nullptr ? m_areas->data()[cell] : 0u;
    m_pass[cell] = map.passable_data()[cell] != 0 && !m_filter.forbidden(area) ? 1 : 0;
    const double terrain = map.has_terrain_costs() ? static_cast<double>(map.cost_data()[cell]) : 1.0;
    m_scale[cell] = terrain * m_filter.multiplier(area);
    double add = 0.0;
    for (const CostLayer& layer : m_layers) add += layer.weight * static_cast<double>(layer.layer->data()[cell]);
    m_add[cell] = add;
}

void HierarchicalMap::record_versions(const GridMap& map) noexcept {
    (void)map;
    m_areas_version = m_areas != nullptr ? m_areas->version() : 0;
    m_layer_versions.resize(m_layers.size());  // no allocation after the build sized it
    for (std::size_t i = 0; i < m_layers.size(); ++i) m_layer_versions[i] = m_layers[i].layer->version();
    m_min_multiplier = !m_has_filter ? 1.0
                       : m_areas != nullptr ? m_filter.min_allowed_multiplier(m_areas->present())
                                            : m_filter.min_allowed_multiplier(1u);
}

bool HierarchicalMap::versions_current() const noexcept {
    if (!m_profiled) return true;
    if (m_areas != nullptr && m_areas->version() != m_areas_version) return false;
    for (std::size_t i = 0; i < m_layers.size(); ++i)
        if (m_layers[i].layer->version() != m_layer_versions[i]) return false;
    return true;
}

bool HierarchicalMap::matches_costs(const GridSearchOptions& options) const noexcept {
    // The query's profile, normalised as set_profile does, compared item by item.
    std::size_t at = 0;
    const auto next_layer = [&](const PenaltyLayer* layer, double weight) {
        if (!(weight > 0.0)) return weight == 0.0;  // weight 0: no cost; negative or NaN: refused
        if (at >= m_layers.size() || m_layers[at].layer != layer || m_layers[at].weight != weight) return false;
        ++at;
        return true;
    };
    if (options.penalties != nullptr && !next_layer(options.penalties, options.penalty_weight)) return false;
    for (const CostLayer& layer : options.layers)
        if (!next_layer(layer.layer, layer.weight)) return false;
    if (at != m_layers.size()) return false;
    if ((options.filter != nullptr) != m_has_filter) return false;
    return !m_has_filter || (options.areas == m_areas && *options.filter == m_filter);
}

HierarchyBuild HierarchicalMap::start_build(const GridMap& map, const GridSearchOptions& rules, const HierarchyOptions& options) {
    clear();
    m_build_stats = {};
    if (!m_impl) m_impl = std::make_unique<Impl>();
    if (map.empty()) return HierarchyBuild::EmptyMap;
    if (options.cluster_size < kMinClusterSize || options.cluster_size > kMaxClusterSize || options.entrance_split < 1 ||
        options.entrance_spacing < 0)
        return HierarchyBuild::BadOptions;

    if (!set_profile(map, rules)) {
        clear();
        return HierarchyBuild::BadCosts;
    }
    m_options = options;
    m_movement = rules.movement;
    m_diagonal = effective_diagonal(rules.movement, rules.diagonal);
    m_map = &map;
    m_has_costs = map.has_terrain_costs() || m_profiled;
    m_width = map.width();
    m_height = map.height();
    m_stride = map.stride();
    const std::int32_t size = options.cluster_size;
    m_clusters_x = (m_width + size - 1) / size;
    m_clusters_y = (m_height + size - 1) / size;
    m_clusters.resize(static_cast<std::size_t>(m_clusters_x) * static_cast<std::size_t>(m_clusters_y));
    for (std::int32_t cy = 0; cy < m_clusters_y; ++cy)
        for (std::int32_t cx = 0; cx < m_clusters_x; ++cx) {
            Cluster& c = m_clusters[static_cast<std::size_t>(cy) * static_cast<std::size_t>(m_clusters_x) + static_cast<std::size_t>(cx)];
            c.x0 = cx * size;
            c.y0 = cy * size;
            c.w = std::min(size, m_width - c.x0);
            c.h = std::min(size, m_height - c.y0);
        }
    m_node_of_cell.assign(map.node_bound(), search::kNoNode);

    for (std::uint32_t c = 0; c < m_clusters.size(); ++c) scan_transitions(map, c);
    for (std::uint32_t c = 0; c < m_clusters.size(); ++c) assign_nodes(c);
    return HierarchyBuild::Ok;
}

void HierarchicalMap::add_entrance_transitions(std::vector<Transition>& out, const std::uint8_t* pass, std::uint32_t first_a,
                                               std::uint32_t along, std::uint32_t across, std::int32_t begin,
                                               std::int32_t end) const {
    // [begin, end] spans one entrance along the border: both ends are open pairs, and so are the
    // positions wanted below after snapping each to the nearest open pair (the lower one on a tie).
    const auto open_at = [&](std::int32_t i) {
        const std::uint32_t a = first_a + static_cast<std::uint32_t>(i) * along;
        return i >= begin && i <= end && pass[a] && pass[a + across];
    };
    const std::size_t first = out.size();
    const auto add = [&](std::int32_t wanted) {
        std::int32_t at = wanted;
        for (std::int32_t d = 1; !open_at(at); ++d) {
            if (open_at(wanted - d)) at = wanted - d;
            else if (open_at(wanted + d)) at = wanted + d;
        }
        const std::uint32_t a = first_a + static_cast<std::uint32_t>(at) * along;
        if (out.size() == first || out.back().a != a) out.push_back(Transition{a, a + across});
    };
    const std::int32_t length = end - begin + 1;
    if (length < m_options.entrance_split) {
        add(begin + (length - 1) / 2);
        return;
    }
    add(begin);
    const std::int32_t last = length - 1;
    if (m_options.entrance_spacing > 0 && last > m_options.entrance_spacing) {
        const std::int32_t segments = (last + m_options.entrance_spacing - 1) / m_options.entrance_spacing;
        for (std::int32_t k = 1; k < segments; ++k)
            add(begin + static_cast<std::int32_t>((static_cast<std::int64_t>(k) * last + segments / 2) / segments));
    }
    add(end);
}

void HierarchicalMap::scan_transitions(const GridMap& map, std::uint32_t cluster) {
    Cluster& c = m_clusters[cluster];
    const std::uint8_t* pass = Impl::costs(*this, map).pass;
    const bool squeeze = m_diagonal == DiagonalRule::Always;
    const std::uint32_t stride = m_stride;
    const auto cx = static_cast<std::int32_t>(cluster % static_cast<std::uint32_t>(m_clusters_x));
    const auto cy = static_cast<std::int32_t>(cluster / static_cast<std::uint32_t>(m_clusters_x));
    c.right.clear();
    c.down.clear();
    c.down_right.clear();
    c.down_left.clear();
    ++m_build_stats.borders_scanned;

    // One border: cells a_i = first_a + i * along (i < length) in this cluster, b_i = a_i + across in the
    // neighbour. A maximal run of open pairs (a_i, b_i both passable) is an entrance; with merging,
    // two consecutive runs form one entrance when the gap between them is bridged on both sides by
    // the line of cells one step inside each cluster (`a_inside`, `b_inside`: whether those exist).
    const auto scan_border = [&](std::vector<Transition>& out, std::uint32_t first_a, std::uint32_t along,
                                 std::uint32_t across, std::int32_t length, bool a_inside, bool b_inside) {
        const auto open_at = [&](std::int32_t i) {
            const std::uint32_t a = first_a + static_cast<std::uint32_t>(i) * along;
            return pass[a] && pass[a + across];
        };
        const auto bridged = [&](std::int32_t from, std::int32_t to) {
            if (!m_options.merge_entrances || !a_inside || !b_inside) return false;
            for (std::int32_t i = from; i <= to; ++i) {
                const std::uint32_t a = first_a + static_cast<std::uint32_t>(i) * along;
                if (!pass[a - across] || !pass[a + 2 * across]) return false;
            }
            return true;
        };
        std::int32_t begin = -1, last_open = -1;
        for (std::int32_t i = 0; i < length; ++i) {
            if (!open_at(i)) continue;
            if (begin >= 0 && i > last_open + 1 && !bridged(last_open, i)) {
                add_entrance_transitions(out, pass, first_a, along, across, begin, last_open);
                begin = -1;
            }
            if (begin < 0) begin = i;
            last_open = i;
        }
        if (begin >= 0) add_entrance_transitions(out, pass, first_a, along, across, begin, last_open);
        if (!squeeze) return;
        for (std::int32_t i = 0; i + 1 < length; ++i) {
            const std::uint32_t a0 = first_a + static_cast<std::uint32_t>(i) * along;
            const std::uint32_t a1 = a0 + along;
            // a0 -> b1 passes a1 and b0; a1 -> b0 passes a0 and b1.
            if (pass[a0] && pass[a1 + across] && !pass[a1] && !pass[a0 + across]) out.push_back(Transition{a0, a1 + across});
            if (pass[a1] && pass[a0 + across] && !pass[a0] && !pass[a1 + across]) out.push_back(Transition{a1, a0 + across});
        }
    };

    const std::uint32_t top_left = static_cast<std::uint32_t>(c.y0 + 1) * stride + static_cast<std::uint32_t>(c.x0 + 1);
    const std::uint32_t right_col = top_left + static_cast<std::uint32_t>(c.w - 1);
    const std::uint32_t bottom_row = top_left + static_cast<std::uint32_t>(c.h - 1) * stride;
    // The neighbour to the right / below is narrower than a full cluster only at the map's edge.
    if (cx + 1 < m_clusters_x)
        scan_border(c.right, right_col, stride, 1, c.h, c.w >= 2, std::min(m_options.cluster_size, m_width - c.x0 - c.w) >= 2);
    if (cy + 1 < m_clusters_y)
        scan_border(c.down, bottom_row, 1, stride, c.w, c.h >= 2, std::min(m_options.cluster_size, m_height - c.y0 - c.h) >= 2);
    if (squeeze && cy + 1 < m_clusters_y) {
        if (cx + 1 < m_clusters_x) {
            const std::uint32_t a = bottom_row + static_cast<std::uint32_t>(c.w - 1);
            const std::uint32_t b = a + stride + 1;
            if (pass[a] && pass[b] && !pass[a + 1] && !pass[a + stride]) c.down_right.push_back(Transition{a, b});
        }
        if (cx > 0) {
            const std::uint32_t a = bottom_row;
            const std::uint32_t b = a + stride - 1;
            if (pass[a] && pass[b] && !pass[a - 1] && !pass[a + stride]) c.down_left.push_back(Transition{a, b});
        }
    }
}

template <class Visit>
void HierarchicalMap::for_each_transition(std::uint32_t cluster, Visit&& visit) const {
    // visit(cell in `cluster`, cell in the neighbour)
    const Cluster& c = m_clusters[cluster];
    for (const auto* list : {&c.right, &c.down, &c.down_right, &c.down_left})
        for (const Transition& t : *list) visit(t.a, t.b);
    const auto cx = static_cast<std::int32_t>(cluster % static_cast<std::uint32_t>(m_clusters_x));
    const auto cy = static_cast<std::int32_t>(cluster / static_cast<std::uint32_t>(m_clusters_x));
    const auto at = [&](std::int32_t x, std::int32_t y) -> const Cluster& {
        return m_clusters[static_cast<std::size_t>(y) * static_cast<std::size_t>(m_clusters_x) + static_cast<std::size_t>(x)];
    };
    if (cx > 0)
        for (const Transition& t : at(cx - 1, cy).right) visit(t.b, t.a);
    if (cy > 0)
        for (const Transition& t : at(cx, cy - 1).down) visit(t.b, t.a);
    if (cx > 0 && cy > 0)
        for (const Transition& t : at(cx - 1, cy - 1).down_right) visit(t.b, t.a);
    if (cx + 1 < m_clusters_x && cy > 0)
        for (const Transition& t : at(cx + 1, cy - 1).down_left) visit(t.b, t.a);
}

void HierarchicalMap::assign_nodes(std::uint32_t cluster) {
    Cluster& c = m_clusters[cluster];
    std::vector<std::uint32_t>& cells = m_impl->cells;
    cells.clear();
    for_each_transition(cluster, [&](std::uint32_t mine, std::uint32_t) { cells.push_back(mine); });
    std::sort(cells.begin(), cells.end());
    cells.erase(std::unique(cells.begin(), cells.end()), cells.end());

    for (std::uint32_t id : c.nodes) {
        const std::uint32_t cell = m_nodes[id].cell;
        if (!std::binary_search(cells.begin(), cells.end(), cell)) {
            m_node_of_cell[cell] = search::kNoNode;
            m_nodes[id].cluster = search::kNoNode;
            m_nodes[id].edge_count = 0;
            m_nodes[id].intra_count = 0;
            m_node_block[id] = nullptr;
            m_free_nodes.push_back(id);
            --m_live_nodes;
        }
    }
    c.nodes.clear();
    for (std::uint32_t cell : cells) {
        std::uint32_t id = m_node_of_cell[cell];
        if (id == search::kNoNode) {
            if (!m_free_nodes.empty()) {
                id = m_free_nodes.back();
                m_free_nodes.pop_back();
            } else {
                id = static_cast<std::uint32_t>(m_nodes.size());
                m_nodes.push_back(Node{});
                m_node_block.push_back(nullptr);
                m_node_xy.push_back(0);
            }
            m_node_of_cell[cell] = id;
            ++m_live_nodes;
        }
        Node& n = m_nodes[id];
        n.cell = cell;
        n.x = static_cast<std::int32_t>(cell % m_stride) - 1;
        n.y = static_cast<std::int32_t>(cell / m_stride) - 1;
        n.cluster = cluster;
        m_node_xy[id] = static_cast<std::uint32_t>(n.x) | static_cast<std::uint32_t>(n.y) << 16;
        n.slot = static_cast<std::uint32_t>(c.nodes.size());
        n.block_offset = 0;
        n.edge_begin = 0;
        n.edge_count = 0;
        n.intra_count = 0;
        c.nodes.push_back(id);
    }
}

void HierarchicalMap::build_edges(const GridMap& map, std::uint32_t cluster) {
    Cluster& c = m_clusters[cluster];
    Impl& s = *m_impl;
    const std::size_t k = c.nodes.size();
    const detail::ClusterFlood::Rect rect{c.x0, c.y0, c.w, c.h};
    s.dist.assign(k * k, kInfinity);
    s.path_begin.assign(k * k, 0);
    s.path_length.assign(k * k, 0);
    s.pool.clear();
    s.targets.clear();
    for (std::uint32_t id : c.nodes)
        s.targets.push_back(static_cast<std::uint32_t>((m_nodes[id].y - c.y0) * c.w + (m_nodes[id].x - c.x0)));

    // All-pairs in-cluster distances and paths: one flood per node, stopping once all nodes settle
    // unless the distance tables need every cell.
    const detail::CellCosts costs = Impl::costs(*this, map);
    const bool tables = m_options.distance_tables;
    const bool directed = tables && costs.directed();
    const std::size_t cells = static_cast<std::size_t>(c.w) * static_cast<std::size_t>(c.h);
    c.dist_from.assign(tables ? cells * k : 0, std::numeric_limits<float>::infinity());
    c.dist_to.assign(directed ? cells * k : 0, std::numeric_limits<float>::infinity());
    const std::span<const std::uint32_t> stop_at = tables ? std::span<const std::uint32_t>{} : std::span<const std::uint32_t>(s.targets);
    for (std::size_t i = 0; i < k; ++i) {
        const Node& from = m_nodes[c.nodes[i]];
        if (directed) {
            s.flood.run(map, costs, rect, m_diagonal, true, GridPoint{from.x, from.y}, stop_at);
            m_build_stats.local_expanded += s.flood.stats().expanded;
            for (std::uint32_t cell = 0; cell < cells; ++cell)
                if (s.flood.settled(cell)) c.dist_to[i * cells + cell] = static_cast<float>(s.flood.g(cell));
        }
        s.flood.run(map, costs, rect, m_diagonal, false, GridPoint{from.x, from.y}, stop_at);
        m_build_stats.local_expanded += s.flood.stats().expanded;
        if (tables)
            for (std::uint32_t cell = 0; cell < cells; ++cell)
                if (s.flood.settled(cell)) c.dist_from[i * cells + cell] = static_cast<float>(s.flood.g(cell));
        for (std::size_t j = 0; j < k; ++j) {
            if (i == j) continue;
            const std::uint32_t target = s.targets[j];
            if (!s.flood.settled(target)) continue;
            s.dist[i * k + j] = s.flood.g(target);
            // Direction codes collected backwards from the target, then reversed.
            const auto begin = static_cast<std::uint32_t>(s.pool.size());
            for (std::uint32_t n = target; s.flood.parent(n) != search::kNoNode; n = s.flood.parent(n))
                s.pool.push_back(s.flood.direction(n));
            std::reverse(s.pool.begin() + begin, s.pool.end());
            s.path_begin[i * k + j] = begin;
            s.path_length[i * k + j] = static_cast<std::uint32_t>(s.pool.size()) - begin;
        }
    }

    c.blocks.clear();
    c.edge_steps.clear();
    c.steps.clear();
    // Inter edges grouped by their source slot.
    std::vector<std::pair<std::uint32_t, std::uint32_t>>& inter = s.inter;  // (slot, target cell)
    inter.clear();
    for_each_transition(cluster, [&](std::uint32_t mine, std::uint32_t other) {
        inter.emplace_back(m_nodes[m_node_of_cell[mine]].slot, other);
    });
    std::sort(inter.begin(), inter.end());
    std::size_t next_inter = 0;

    const auto push_edge = [&](double cost, std::uint32_t to) {
        c.blocks.push_back(detail::bit_cast<std::uint32_t>(static_cast<float>(cost)));
        c.blocks.push_back(to);
    };
    for (std::size_t i = 0; i < k; ++i) {
        Node& from = m_nodes[c.nodes[i]];
        from.block_offset = static_cast<std::uint32_t>(c.blocks.size());
        from.edge_begin = static_cast<std::uint32_t>(c.edge_steps.size());
        c.blocks.insert(c.blocks.end(), kBlockHeader, 0u);
        for (std::size_t j = 0; j < k; ++j) {
            const double d = s.dist[i * k + j];
            if (i == j || d == kInfinity) continue;
            if (m_options.prune_implied_edges) {
                bool implied = false;
                for (std::size_t v = 0; v < k && !implied; ++v)
                    if (v != i && v != j && s.dist[i * k + v] + s.dist[v * k + j] <= d * (1.0 + kPruneSlack)) implied = true;
                if (implied) continue;
            }
            c.edge_steps.push_back(static_cast<std::uint32_t>(c.steps.size()));
            const std::uint8_t* path = s.pool.data() + s.path_begin[i * k + j];
            c.steps.insert(c.steps.end(), path, path + s.path_length[i * k + j]);
            push_edge(d, c.nodes[j]);
        }
        from.intra_count = static_cast<std::uint32_t>(c.edge_steps.size()) - from.edge_begin;
        for (; next_inter < inter.size() && inter[next_inter].first == i; ++next_inter) {
            const std::uint32_t to_cell = inter[next_inter].second;
            const std::int32_t tx = static_cast<std::int32_t>(to_cell % m_stride) - 1;
            const std::int32_t ty = static_cast<std::int32_t>(to_cell / m_stride) - 1;
            const std::int32_t dx = tx - from.x, dy = ty - from.y;
            const double length = (dx != 0 && dy != 0) ? kDiagonalStep : 1.0;
            c.edge_steps.push_back(static_cast<std::uint32_t>(c.steps.size()));
            c.steps.push_back(direction_code(dx, dy));
            push_edge(costs.enter(to_cell, length), m_node_of_cell[to_cell]);
        }
        from.edge_count = static_cast<std::uint32_t>(c.edge_steps.size()) - from.edge_begin;
        std::uint32_t* header = c.blocks.data() + from.block_offset;
        header[0] = from.edge_count;
        header[1] = from.intra_count;
        header[2] = cluster;
        header[3] = from.slot;
    }
    for (std::uint32_t id : c.nodes) m_node_block[id] = c.blocks.data() + m_nodes[id].block_offset;
}

bool HierarchicalMap::update_cell(const GridMap& map, GridPoint p) { return update_cells(map, std::span<const GridPoint>(&p, 1)); }

bool HierarchicalMap::update_cells(const GridMap& map, std::span<const GridPoint> cells) {
    if (!built() || map.width() != m_width || map.height() != m_height) return false;
    for (const GridPoint& p : cells)
        if (!map.contains(p)) return false;
    if (cells.empty()) return true;  // nothing repaired: the recorded versions stay as they were
    const auto started = std::chrono::steady_clock::now();
    m_build_stats = {};
    Impl& s = *m_impl;
    s.dirty.clear();
    // The profile's prices first: the rescans and floods read them.
    if (m_profiled)
        for (const GridPoint& p : cells) price_cell(map, map.index(p));
    for (const GridPoint& p : cells) collect_dirty(map, p);
    std::vector<std::uint32_t>& dirty = s.dirty;
    std::sort(dirty.begin(), dirty.end());
    dirty.erase(std::unique(dirty.begin(), dirty.end()), dirty.end());
    // Node sets first (new nodes need ids before any cluster's inter edges can point at them).
    for (std::uint32_t c : dirty) assign_nodes(c);
    for (std::uint32_t c : dirty) build_edges(map, c);
    m_build_stats.clusters_rebuilt = dirty.size();
    m_map_version = map.version();
    m_map = &map;
    m_has_costs = m_has_costs || map.has_terrain_costs();
    if (m_profiled) record_versions(map);
    m_build_stats.micros = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - started).count();
    return true;
}

void HierarchicalMap::collect_dirty(const GridMap& map, GridPoint p) {
    Impl& s = *m_impl;
    // Clusters holding a cell of p's 5 x 5 neighbourhood: every transition that depends on p (a pair
    // containing p, a squeeze whose 2 x 2 block contains p, or a merge bridged through p, one step
    // inside a cluster) lies on a border between two of them, and each such border is owned (as its
    // right / down / corner list) by one of them.
    std::uint32_t* involved = s.involved;  // up to 25 with 1 x 1 clusters, 4 with clusters of side 5 or more
    std::size_t count = 0;
    for (std::int32_t dy = -2; dy <= 2; ++dy)
        for (std::int32_t dx = -2; dx <= 2; ++dx) {
            const GridPoint q{p.x + dx, p.y + dy};
            if (!map.contains(q)) continue;
            const std::uint32_t c = cluster_of(q.x, q.y);
            if (std::find(involved, involved + count, c) == involved + count) involved[count++] = c;
        }

    std::vector<std::uint32_t>& dirty = s.dirty;
    dirty.push_back(cluster_of(p.x, p.y));
    for (std::size_t i = 0; i < count; ++i) {
        Cluster& c = m_clusters[involved[i]];
        s.before[0] = c.right;
        s.before[1] = c.down;
        s.before[2] = c.down_right;
        s.before[3] = c.down_left;
        scan_transitions(map, involved[i]);
        const auto cx = static_cast<std::int32_t>(involved[i] % static_cast<std::uint32_t>(m_clusters_x));
        const auto cy = static_cast<std::int32_t>(involved[i] / static_cast<std::uint32_t>(m_clusters_x));
        const std::vector<Transition>* now[4] = {&c.right, &c.down, &c.down_right, &c.down_left};
        const std::int32_t to_x[4] = {cx + 1, cx, cx + 1, cx - 1};
        const std::int32_t to_y[4] = {cy, cy + 1, cy + 1, cy + 1};
        for (std::size_t l = 0; l < 4; ++l) {
            if (*now[l] == s.before[l]) continue;
            dirty.push_back(involved[i]);
            dirty.push_back(static_cast<std::uint32_t>(to_y[l] * m_clusters_x + to_x[l]));
        }
    }
    // A neighbour with an inter edge into p carries p's price (terrain, multiplier, layers) in that
    // edge's cost.
    const std::uint32_t p_cell = map.index(p);
    if (m_node_of_cell[p_cell] != search::kNoNode)
        for (std::size_t i = 0; i < count; ++i)
            for_each_transition(involved[i], [&](std::uint32_t, std::uint32_t other) {
                if (other == p_cell) dirty.push_back(involved[i]);
            });
}

void HierarchicalMap::edges(std::vector<AbstractEdgeView>& out) const {
    out.clear();
    for (const Cluster& c : m_clusters)
        for (std::uint32_t id : c.nodes) {
            const Node& n = m_nodes[id];
            const std::uint32_t* edge = m_node_block[id] + kBlockHeader;
            for (std::uint32_t e = 0; e < n.edge_count; ++e, edge += 2) {
                const Node& to = m_nodes[edge[1]];
                out.push_back(AbstractEdgeView{GridPoint{n.x, n.y}, GridPoint{to.x, to.y},
                                               static_cast<double>(detail::bit_cast<float>(edge[0])), to.cluster != n.cluster});
            }
        }
    const auto key = [](GridPoint p) { return std::pair{p.y, p.x}; };
    std::sort(out.begin(), out.end(), [&](const AbstractEdgeView& a, const AbstractEdgeView& b) {
        if (a.from != b.from) return key(a.from) < key(b.from);
        return key(a.to) < key(b.to);
    });
}

void HierarchicalMap::node_cells(std::vector<GridPoint>& out) const {
    out.clear();
    for (const Node& n : m_nodes)
        if (n.cluster != search::kNoNode) out.push_back(GridPoint{n.x, n.y});
    std::sort(out.begin(), out.end(), [](GridPoint a, GridPoint b) { return std::pair{a.y, a.x} < std::pair{b.y, b.x}; });
}

}  // namespace gameplan::path
