#include <gameplan/path/penalty_layer.hpp>

#include <algorithm>
#include <cmath>

namespace gameplan::path {

void PenaltyLayer::reset(const GridMap& map) {
    m_width = map.width();
    m_height = map.height();
    m_stride = map.stride();
    m_values.assign(map.node_bound(), 0.0f);
    m_marked.assign(map.node_bound(), 0);
    m_touched.clear();
    ++m_version;
}

float PenaltyLayer::at(GridPoint p) const noexcept { return inside(p) ? m_values[node(p)] : 0.0f; }

void PenaltyLayer::touch(std::uint32_t n) {
    if (m_marked[n]) return;
    m_marked[n] = 1;
    m_touched.push_back(n);
}

bool PenaltyLayer::set(GridPoint p, float penalty) noexcept {
    if (!inside(p) || !(penalty >= 0.0f) || !std::isfinite(penalty)) return false;
    const std::uint32_t n = node(p);
    try {
        touch(n);
    } catch (...) {
        return false;  // bad_alloc growing the touched list
    }
    m_values[n] = penalty;
    ++m_version;
    return true;
}

bool PenaltyLayer::add(GridPoint p, float delta) noexcept {
    if (!inside(p) || !std::isfinite(delta)) return false;
    const std::uint32_t n = node(p);
    const float value = std::max(0.0f, m_values[n] + delta);
    if (!std::isfinite(value)) return false;
    try {
        touch(n);
    } catch (...) {
        return false;
    }
    m_values[n] = value;
    ++m_version;
    return true;
}

void PenaltyLayer::clear() noexcept {
    for (const std::uint32_t n : m_touched) {
        m_values[n] = 0.0f;
        m_marked[n] = 0;
    }
    m_touched.clear();
    ++m_version;
}

bool PenaltyLayer::scale(float factor, float floor) noexcept {
    if (!(factor >= 0.0f) || !(factor <= 1.0f) || !(floor >= 0.0f) || !std::isfinite(floor)) return false;
    for (const std::uint32_t n : m_touched) {
        const float value = m_values[n] * factor;
        m_values[n] = value < floor ? 0.0f : value;
    }
    ++m_version;
    return true;
}

}  // namespace gameplan::path
