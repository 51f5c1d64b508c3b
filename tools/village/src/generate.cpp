// Village map generator. See generate.hpp.
#include <gameplan_village/generate.hpp>

#include <cmath>
#include <stdexcept>
#include <vector>

namespace gameplan::village {

namespace {

std::uint64_t mix(std::uint64_t z) noexcept {
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// Value noise in [0, 1): random values on a lattice of `cell` cells, smoothly interpolated.
double value_noise(std::int32_t x, std::int32_t y, std::int32_t cell, std::uint64_t seed) noexcept {
    const double fx = static_cast<double>(x) / cell, fy = static_cast<double>(y) / cell;
    const auto x0 = static_cast<std::int64_t>(std::floor(fx)), y0 = static_cast<std::int64_t>(std::floor(fy));
    const double tx = fx - static_cast<double>(x0), ty = fy - static_cast<double>(y0);
    const auto at = [&](std::int64_t i, std::int64_t j) {
        const std::uint64_t h = mix(seed ^ mix(static_cast<std::uint64_t>(i) * 0x51ED27ull ^ static_cast<std::uint64_t>(j) << 32));
        return static_cast<double>(h >> 11) * 0x1.0p-53;
    };
    const double sx = tx * tx * (3 - 2 * tx), sy = ty * ty * (3 - 2 * ty);
    const double a = at(x0, y0) + (at(x0 + 1, y0) - at(x0, y0)) * sx;
    const double b = at(x0, y0 + 1) + (at(x0 + 1, y0 + 1) - at(x0, y0 + 1)) * sx;
    return a + (b - a) * sy;
}

}  // namespace

path::GridMap generate_village_map(std::int32_t width, std::int32_t height, std::uint64_t seed) {
    if (width < 16 || height < 16 || width > 4096 || height > 4096)
        throw std::invalid_argument("generated map sides must be in [16, 4096]");
    path::GridMap map;
    (void)map.reset(width, height, true);
    const std::uint64_t s1 = mix(seed ^ 0xA11CEull), s2 = mix(seed ^ 0xB0Bull);
    for (std::int32_t y = 0; y < height; ++y)
        for (std::int32_t x = 0; x < width; ++x) {
            const double v = 0.7 * value_noise(x, y, 14, s1) + 0.3 * value_noise(x, y, 5, s2);
            const bool border = x == 0 || y == 0 || x == width - 1 || y == height - 1;
            if (border || v < 0.24 || v > 0.78) (void)map.set_passable({x, y}, false);
        }
    return map;
}

}  // namespace gameplan::village
