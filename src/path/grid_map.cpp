#include <gameplan/path/grid_map.hpp>

#include <algorithm>

namespace gameplan::path {

std::string_view describe(GridSizeCheck check) noexcept {
    switch (check) {
        case GridSizeCheck::Ok: return "";
        case GridSizeCheck::NotPositive: return "width and height must be at least 1";
        case GridSizeCheck::SideTooLarge: return "width and height must be at most 32768";
        case GridSizeCheck::TooManyCells: return "width * height must be at most 268435456 (16384 x 16384)";
    }
    return "invalid size";
}

GridSizeCheck GridMap::check_size(std::int64_t width, std::int64_t height) noexcept {
    if (width < 1 || height < 1) return GridSizeCheck::NotPositive;
    if (width > kMaxGridSide || height > kMaxGridSide) return GridSizeCheck::SideTooLarge;
    if (width * height > kMaxGridCells) return GridSizeCheck::TooManyCells;
    return GridSizeCheck::Ok;
}

GridSizeCheck GridMap::reset(std::int64_t width, std::int64_t height, bool passable) {
    const GridSizeCheck check = check_size(width, height);
    if (check != GridSizeCheck::Ok) return check;
    const auto stride = static_cast<std::uint32_t>(width + 2);
    const std::size_t padded = std::size_t{stride} * static_cast<std::size_t>(height + 2);
    std::vector<std::uint8_t> cells(padded, 0);
    if (passable)
        for (std::int64_t y = 0; y < height; ++y) {
            auto row = cells.begin() + static_cast<std::ptrdiff_t>(std::size_t(y + 1) * stride + 1);
            std::fill(row, row + width, std::uint8_t{1});
        }
    m_passable = std::move(cells);
    m_cost = {};
    m_width = static_cast<std::int32_t>(width);
    m_height = static_cast<std::int32_t>(height);
    m_stride = stride;
    m_min_cost = 1;
    ++m_version;
    ++m_passability_version;
    m_passability_changed_at = m_version;
    ++m_resets;
    return GridSizeCheck::Ok;
}

std::size_t GridMap::passable_count() const noexcept {
    std::size_t count = 0;
    for (std::int32_t y = 0; y < m_height; ++y)
        for (std::int32_t x = 0; x < m_width; ++x) count += m_passable[index({x, y})] != 0;
    return count;
}

bool GridMap::set_passable(GridPoint p, bool passable) noexcept {
    if (!contains(p)) return false;
    std::uint8_t& cell = m_passable[index(p)];
    const std::uint8_t value = passable ? 1 : 0;
    if (cell != value) {
        cell = value;
        ++m_version;
        ++m_passability_version;
        m_passability_changed_at = m_version;
    }
    return true;
}

bool GridMap::set_cost(GridPoint p, std::uint32_t cost) {
    if (!contains(p) || cost < 1 || cost > kMaxTerrainCost) return false;
    if (m_cost.empty()) {
        if (cost == 1) return true;
        m_cost.assign(m_passable.size(), 1u);  // border cells too: never entered, but keeps min exact
    }
    std::uint32_t& cell = m_cost[index(p)];
    if (cell != cost) {
        cell = cost;
        m_min_cost = std::min(m_min_cost, cost);
        ++m_version;
    }
    return true;
}

void GridMap::recompute_min_cost() noexcept {
    if (m_cost.empty()) {
        m_min_cost = 1;
        return;
    }
    std::uint32_t lowest = kMaxTerrainCost;
    for (std::int32_t y = 0; y < m_height; ++y) {
        const std::uint32_t* row = m_cost.data() + std::size_t(y + 1) * m_stride + 1;
        lowest = std::min(lowest, *std::min_element(row, row + m_width));
    }
    m_min_cost = lowest;
}

}  // namespace gameplan::path
