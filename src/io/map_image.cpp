#include <gameplan/io/map_image.hpp>

#include <algorithm>
#include <stdexcept>

namespace gameplan::io {

std::int32_t fit_scale(const path::GridMap& map, std::int32_t preferred, std::int32_t max_side) noexcept {
    const std::int32_t side = std::max({map.width(), map.height(), std::int32_t{1}});
    const std::int32_t limit = std::max<std::int32_t>(1, std::min(max_side, kMaxImageSide) / side);
    return std::clamp<std::int32_t>(preferred, 1, std::min<std::int32_t>(limit, 256));
}

Image render_map(const path::GridMap& map, std::int32_t scale, const MapPalette& palette) {
    if (scale < 1 || scale > 256) throw std::invalid_argument("map image scale must be 1..256");
    const std::int64_t w = std::int64_t{map.width()} * scale, h = std::int64_t{map.height()} * scale;
    if (w > kMaxImageSide || h > kMaxImageSide)
        throw std::invalid_argument("map image would exceed 32768 pixels per side; use a smaller scale");
    Image image(static_cast<std::int32_t>(w), static_cast<std::int32_t>(h), palette.ground);
    std::uint32_t max_cost = 0;
    if (map.has_terrain_costs())
        for (std::int32_t y = 0; y < map.height(); ++y)
            for (std::int32_t x = 0; x < map.width(); ++x)
                if (map.passable({x, y})) max_cost = std::max(max_cost, map.cost({x, y}));
    const std::uint32_t min_cost = map.has_terrain_costs() ? map.min_cost() : 1;
    for (std::int32_t y = 0; y < map.height(); ++y) {
        for (std::int32_t x = 0; x < map.width(); ++x) {
            const path::GridPoint p{x, y};
            if (!map.passable(p)) {
                paint_cell(image, p, scale, palette.wall);
            } else if (max_cost > min_cost) {
                const std::uint32_t c = map.cost(p);
                if (c <= min_cost) continue;
                const double t = static_cast<double>(c - min_cost) / static_cast<double>(max_cost - min_cost);
                const auto mix = [t](std::uint8_t a, std::uint8_t b) {
                    return static_cast<std::uint8_t>(static_cast<double>(a) + t * (static_cast<double>(b) - a) + 0.5);
                };
                paint_cell(image, p, scale,
                           {mix(palette.ground.r, palette.costly.r), mix(palette.ground.g, palette.costly.g),
                            mix(palette.ground.b, palette.costly.b)});
            }
        }
    }
    return image;
}

void paint_cell(Image& image, path::GridPoint p, std::int32_t scale, Rgb colour) noexcept {
    image.fill_rect(p.x * scale, p.y * scale, scale, scale, colour);
}

void mark_cell(Image& image, path::GridPoint p, std::int32_t scale, Rgb colour) noexcept {
    const std::int32_t side = std::max<std::int32_t>(1, (scale + 1) / 2);
    const std::int32_t off = (scale - side) / 2;
    image.fill_rect(p.x * scale + off, p.y * scale + off, side, side, colour);
}

void draw_path(Image& image, std::span<const path::GridPoint> points, std::int32_t scale, Rgb colour) noexcept {
    if (points.empty()) return;
    const auto cx = [scale](std::int32_t v) { return v * scale + scale / 2; };
    if (points.size() == 1) {
        mark_cell(image, points[0], scale, colour);
        return;
    }
    for (std::size_t i = 1; i < points.size(); ++i) {
        const path::GridPoint a = points[i - 1], b = points[i];
        image.line(cx(a.x), cx(a.y), cx(b.x), cx(b.y), colour);
        if (scale >= 6) {  // a 2-pixel line reads better on large cells
            image.line(cx(a.x) + 1, cx(a.y), cx(b.x) + 1, cx(b.y), colour);
            image.line(cx(a.x), cx(a.y) + 1, cx(b.x), cx(b.y) + 1, colour);
        }
    }
}

}  // namespace gameplan::io
