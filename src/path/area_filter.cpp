#include <gameplan/path/area_filter.hpp>

#include <algorithm>
#include <bit>

namespace gameplan::path {

void AreaMap::reset(const GridMap& map) {
    m_width = map.width();
    m_height = map.height();
    m_stride = map.stride();
    m_areas.assign(map.node_bound(), 0);
    m_present = map.empty() ? 0 : 1;
    ++m_version;
}

std::uint8_t AreaMap::at(GridPoint p) const noexcept {
    if (p.x < 0 || p.y < 0 || p.x >= m_width || p.y >= m_height) return 0;
    return m_areas[static_cast<std::uint32_t>(p.y + 1) * m_stride + static_cast<std::uint32_t>(p.x + 1)];
}

bool AreaMap::set(GridPoint p, std::uint32_t area) noexcept {
    if (p.x < 0 || p.y < 0 || p.x >= m_width || p.y >= m_height || area >= kMaxAreas) return false;
    m_areas[static_cast<std::uint32_t>(p.y + 1) * m_stride + static_cast<std::uint32_t>(p.x + 1)] =
        static_cast<std::uint8_t>(area);
    m_present |= std::uint64_t{1} << area;
    ++m_version;
    return true;
}

double AreaFilter::min_allowed_multiplier(std::uint64_t present) const noexcept {
    double best = 0.0;
    bool any = false;
    for (std::uint64_t allowed = present & ~m_forbidden; allowed != 0; allowed &= allowed - 1) {
        const double m = m_multiplier[static_cast<std::size_t>(std::countr_zero(allowed))];
        best = any ? std::min(best, m) : m;
        any = true;
    }
    return any ? best : 1.0;
}

}  // namespace gameplan::path
