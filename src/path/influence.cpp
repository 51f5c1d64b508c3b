#include <gameplan/path/influence.hpp>

#include <algorithm>
#include <cmath>

namespace gameplan::path {

std::size_t InfluenceMap::add_event(GridPoint center, float amount, std::int32_t radius) noexcept {
    if (!(amount > 0.0f) || !std::isfinite(amount) || radius < 0 || radius > kMaxInfluenceRadius) return 0;
    std::size_t changed = 0;
    const double reach = double(radius) + 1.0;
    const std::int32_t y0 = std::max(0, center.y - radius), y1 = std::min(m_layer.height() - 1, center.y + radius);
    const std::int32_t x0 = std::max(0, center.x - radius), x1 = std::min(m_layer.width() - 1, center.x + radius);
    for (std::int32_t y = y0; y <= y1; ++y)
        for (std::int32_t x = x0; x <= x1; ++x) {
            const double dx = x - center.x, dy = y - center.y;
            const double d = std::sqrt(dx * dx + dy * dy);
            if (d > double(radius)) continue;
            const auto delta = static_cast<float>(double(amount) * (1.0 - d / reach));
            if (m_layer.add(GridPoint{x, y}, delta)) ++changed;
        }
    return changed;
}

bool InfluenceMap::decay_for(double seconds, double half_life) noexcept {
    if (!(seconds >= 0.0) || !std::isfinite(seconds) || !(half_life > 0.0) || !std::isfinite(half_life)) return false;
    return decay(static_cast<float>(std::exp2(-seconds / half_life)));
}

double InfluenceMap::sum_along(std::span<const GridPoint> path) const noexcept {
    double sum = 0.0;
    for (std::size_t i = 1; i < path.size(); ++i) sum += double(m_layer.at(path[i]));
    return sum;
}

float InfluenceMap::max_along(std::span<const GridPoint> path) const noexcept {
    float best = 0.0f;
    for (const GridPoint& p : path) best = std::max(best, m_layer.at(p));
    return best;
}

}  // namespace gameplan::path
