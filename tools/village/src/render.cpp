// Village pictures and terminal view. See render.hpp.
#include <gameplan_village/render.hpp>

#include <gameplan/io/map_image.hpp>

#include <algorithm>
#include <cmath>

namespace gameplan::village {

io::Rgb place_colour(const Place& place, const SnapshotPalette& palette) noexcept {
    switch (place.kind) {
        case PlaceKind::Tree: return place.standing ? palette.tree : palette.stump;
        case PlaceKind::Mine: return palette.mine;
        case PlaceKind::Market: return palette.market;
        case PlaceKind::Store: return palette.store;
        case PlaceKind::Kitchen: return palette.kitchen;
        case PlaceKind::Home: return palette.home;
    }
    return palette.outline;
}

std::int32_t snapshot_scale(const path::GridMap& map) noexcept { return io::fit_scale(map, 8, 2048); }

namespace {
// Danger at which the heat overlay is strongest (and the terminal view starts marking a cell).
constexpr float kHeatFull = 8.0f;
constexpr float kHeatText = 1.0f;

std::uint8_t blend(std::uint8_t from, std::uint8_t to, float alpha) noexcept {
    return static_cast<std::uint8_t>(std::lround(float(from) + (float(to) - float(from)) * alpha));
}
}  // namespace

io::Image render_snapshot(const Village& village, std::int32_t scale, const SnapshotPalette& palette) {
    io::Image image = io::render_map(village.map(), scale);
    // The danger (wolves) as a heat overlay on open cells: the more, the redder.
    const path::GridMap& map = village.map();
    for (std::int32_t y = 0; y < map.height(); ++y)
        for (std::int32_t x = 0; x < map.width(); ++x) {
            const float d = village.danger().at({x, y});
            if (!(d > 0.0f) || !map.passable({x, y})) continue;
            const float alpha = 0.75f * std::min(1.0f, d / kHeatFull);
            for (std::int32_t py = y * scale; py < (y + 1) * scale; ++py)
                for (std::int32_t px = x * scale; px < (x + 1) * scale; ++px) {
                    const io::Rgb c = image.at(px, py);
                    image.set(px, py, io::Rgb{blend(c.r, palette.heat.r, alpha), blend(c.g, palette.heat.g, alpha),
                                              blend(c.b, palette.heat.b, alpha)});
                }
        }
    for (const Place& p : village.places()) {
        if (p.kind == PlaceKind::Tree && !p.standing) io::mark_cell(image, p.cell, scale, palette.stump);
        else io::paint_cell(image, p.cell, scale, place_colour(p, palette));
    }
    for (const path::GridPoint den : village.dens()) io::mark_cell(image, den, scale, palette.den);
    for (const Villager& v : village.villagers())
        if (const auto route = village.route(v); !route.empty()) {
            // The remaining route, from where the villager stands.
            std::vector<path::GridPoint> rest;
            rest.push_back(v.cell);
            rest.insert(rest.end(), route.begin(), route.end());
            io::draw_path(image, rest, scale, palette.route[std::size_t(v.kind)]);
        }
    for (const Villager& v : village.villagers()) {
        const io::Rgb colour = palette.villager[std::size_t(v.kind)];
        if (scale >= 3) {
            image.fill_rect(v.cell.x * scale, v.cell.y * scale, scale, scale, palette.outline);
            image.fill_rect(v.cell.x * scale + 1, v.cell.y * scale + 1, scale - 2, scale - 2, colour);
        } else {
            io::paint_cell(image, v.cell, scale, colour);
        }
    }
    return image;
}

path::GridPoint view_origin(const Village& village, std::int32_t cols, std::int32_t rows) noexcept {
    const path::GridMap& map = village.map();
    std::int64_t sx = 0, sy = 0;
    for (const Villager& v : village.villagers()) sx += v.cell.x, sy += v.cell.y;
    const auto n = static_cast<std::int64_t>(std::max<std::size_t>(1, village.villagers().size()));
    const auto cx = static_cast<std::int32_t>(sx / n), cy = static_cast<std::int32_t>(sy / n);
    return path::GridPoint{std::clamp(cx - cols / 2, 0, std::max(0, map.width() - cols)),
                           std::clamp(cy - rows / 2, 0, std::max(0, map.height() - rows))};
}

namespace {
const char* ansi_colour(char c) {
    switch (c) {
        case '#': return "\x1b[90m";
        case 'T': return "\x1b[32m";
        case ',': return "\x1b[33m";
        case 'M': return "\x1b[35m";
        case '$': return "\x1b[93m";
        case 'S': return "\x1b[33;1m";
        case 'K': return "\x1b[31;1m";
        case 'H': return "\x1b[34;1m";
        case 'w': return "\x1b[96;1m";
        case 'm': return "\x1b[95;1m";
        case 'c': return "\x1b[93;1m";
        case ':': return "\x1b[31m";
        case 'W': return "\x1b[91;1m";
        default: return "";
    }
}
}  // namespace

std::string render_text(const Village& village, path::GridPoint origin, std::int32_t cols, std::int32_t rows, bool ansi) {
    const path::GridMap& map = village.map();
    const std::int32_t w = std::max(0, std::min(cols, map.width() - origin.x));
    const std::int32_t h = std::max(0, std::min(rows, map.height() - origin.y));
    std::vector<char> grid(static_cast<std::size_t>(w) * static_cast<std::size_t>(h), ' ');
    const auto at = [&](path::GridPoint p) -> std::ptrdiff_t {
        if (p.x < origin.x || p.y < origin.y || p.x >= origin.x + w || p.y >= origin.y + h) return -1;
        return static_cast<std::ptrdiff_t>(p.y - origin.y) * w + (p.x - origin.x);
    };
    for (std::int32_t y = 0; y < h; ++y)
        for (std::int32_t x = 0; x < w; ++x)
            if (!map.passable({origin.x + x, origin.y + y})) grid[static_cast<std::size_t>(y * w + x)] = '#';
            else if (village.danger().at({origin.x + x, origin.y + y}) >= kHeatText) grid[static_cast<std::size_t>(y * w + x)] = ':';
    static constexpr char kPlaceChar[kPlaceKindCount] = {'T', 'M', '$', 'S', 'K', 'H'};
    for (const Place& p : village.places()) {
        const std::ptrdiff_t i = at(p.cell);
        if (i >= 0) grid[static_cast<std::size_t>(i)] = p.kind == PlaceKind::Tree && !p.standing ? ',' : kPlaceChar[std::size_t(p.kind)];
    }
    for (const path::GridPoint den : village.dens())
        if (const std::ptrdiff_t i = at(den); i >= 0) grid[static_cast<std::size_t>(i)] = 'W';
    static constexpr char kKindChar[kKindCount] = {'w', 'm', 'c'};
    for (const Villager& v : village.villagers()) {
        const std::ptrdiff_t i = at(v.cell);
        if (i < 0) continue;
        const char c = kKindChar[std::size_t(v.kind)];
        grid[static_cast<std::size_t>(i)] = c;
    }
    std::string out;
    out.reserve(grid.size() * (ansi ? 4 : 1) + static_cast<std::size_t>(h) * 8);
    for (std::int32_t y = 0; y < h; ++y) {
        const char* current = "";
        for (std::int32_t x = 0; x < w; ++x) {
            const std::size_t i = static_cast<std::size_t>(y * w + x);
            const char c = grid[i];
            if (ansi) {
                const char* colour = ansi_colour(c);
                if (colour != current) {
                    out += "\x1b[0m";
                    out += colour;
                    current = colour;
                }
            }
            out += c;
        }
        if (ansi) out += "\x1b[0m\x1b[K";
        out += '\n';
    }
    return out;
}

}  // namespace gameplan::village
