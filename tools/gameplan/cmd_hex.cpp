// `gameplan path MAP --topology hex ...`: one query on a hex map (odd-r offset rows), with the same
// output as the square-grid path command. Called from cmd_path.cpp.
#include "commands.hpp"
#include "results_json.hpp"

#include <gameplan/io/image.hpp>
#include <gameplan/io/map_image.hpp>
#include <gameplan/path/hex_grid.hpp>
#include <gameplan/search/search_context.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

namespace gameplan::cli {

namespace {

/// The map around the path, each hex two characters wide, odd rows shifted right by one character.
void render_hex(std::ostream& out, const path::GridMap& map, const path::GridPath& result, path::GridPoint from, path::GridPoint to) {
    std::int32_t x0 = std::min(from.x, to.x), x1 = std::max(from.x, to.x);
    std::int32_t y0 = std::min(from.y, to.y), y1 = std::max(from.y, to.y);
    for (const auto& c : result.cells) {
        x0 = std::min(x0, c.x), x1 = std::max(x1, c.x);
        y0 = std::min(y0, c.y), y1 = std::max(y1, c.y);
    }
    x0 = std::max(0, x0 - 2), y0 = std::max(0, y0 - 2);
    x1 = std::min(map.width() - 1, x1 + 2), y1 = std::min(map.height() - 1, y1 + 2);
    out << "map region x " << x0 << ".." << x1 << ", y " << y0 << ".." << y1
        << "  (hex, odd rows shifted right; S start, G goal, * path, . free, 2-9 terrain cost, + cost > 9, @ blocked)\n";
    for (std::int32_t y = y0; y <= y1; ++y) {
        std::string row = (y & 1) ? " " : "";
        for (std::int32_t x = x0; x <= x1; ++x) {
            char c = '@';
            if (map.passable({x, y})) {
                const auto cost = map.cost({x, y});
                c = cost == 1 ? '.' : cost <= 9 ? char('0' + cost) : '+';
            }
            if (std::find(result.cells.begin(), result.cells.end(), path::GridPoint{x, y}) != result.cells.end()) c = '*';
            if (path::GridPoint{x, y} == from) c = 'S';
            if (path::GridPoint{x, y} == to) c = 'G';
            row += c;
            row += ' ';
        }
        while (!row.empty() && row.back() == ' ') row.pop_back();
        out << row << '\n';
    }
}

/// The picture: each hex drawn as a `scale`-wide cell, odd rows shifted right by half a cell (the odd-r
/// layout's neighbourhood: east, west and the two cells above and below that touch), coloured like the
/// square-grid pictures (io::MapPalette): walls, terrain, expanded cells, the path through the centres.
void write_hex_png(const std::string& file, std::int32_t scale, const path::GridMap& map, const path::HexPathfinder& finder,
                   const path::GridPath& result, path::GridPoint from, path::GridPoint to) {
    const io::MapPalette palette;
    io::Image image(std::min<std::int32_t>((map.width() * 2 + 1) * scale / 2 + 1, io::kMaxImageSide), map.height() * scale, palette.wall);
    const auto left = [&](path::GridPoint p) { return p.x * scale + ((p.y & 1) ? scale / 2 : 0); };
    const std::uint32_t max_cost = [&] {
        std::uint32_t m = 1;
        for (std::int32_t y = 0; y < map.height(); ++y)
            for (std::int32_t x = 0; x < map.width(); ++x)
                if (map.passable({x, y})) m = std::max(m, map.cost({x, y}));
        return m;
    }();
    const auto blend = [](io::Rgb a, io::Rgb b, double t) {
        const auto mix = [t](std::uint8_t u, std::uint8_t v) { return static_cast<std::uint8_t>(std::lround(u + (v - u) * t)); };
        return io::Rgb{mix(a.r, b.r), mix(a.g, b.g), mix(a.b, b.b)};
    };
    const std::int32_t inset = scale >= 4 ? 1 : 0;  // a thin gap shows the hex outlines
    for (std::int32_t y = 0; y < map.height(); ++y)
        for (std::int32_t x = 0; x < map.width(); ++x) {
            const path::GridPoint p{x, y};
            if (!map.passable(p)) continue;
            io::Rgb colour = max_cost > 1 ? blend(palette.ground, palette.costly, double(map.cost(p) - 1) / double(max_cost - 1))
                                          : palette.ground;
            if (finder.closed(p)) colour = palette.expanded;
            image.fill_rect(left(p) + inset, y * scale + inset, scale - 2 * inset, scale - 2 * inset, colour);
        }
    const auto centre_x = [&](path::GridPoint p) { return left(p) + scale / 2; };
    for (std::size_t i = 1; i < result.cells.size(); ++i)
        image.line(centre_x(result.cells[i - 1]), result.cells[i - 1].y * scale + scale / 2, centre_x(result.cells[i]),
                   result.cells[i].y * scale + scale / 2, palette.path);
    const auto marker = [&](path::GridPoint p, io::Rgb colour) {
        const std::int32_t r = std::max(1, scale / 4);
        image.fill_rect(centre_x(p) - r, p.y * scale + scale / 2 - r, 2 * r + 1, 2 * r + 1, colour);
    };
    marker(from, palette.start);
    marker(to, palette.goal);
    io::write_png(file, image);
}

}  // namespace

int run_hex_path(const HexPathRequest& r) {
    const path::GridMap& map = *r.map;
    path::HexSearchOptions options;
    options.heuristic = r.dijkstra ? path::HexHeuristic::Zero : path::HexHeuristic::Auto;
    options.weight = r.weight;
    if (r.max_expansions > 0) options.budget.max_expansions = r.max_expansions;
    path::HexIslands islands;
    if (r.islands) {
        islands.build(map);
        options.islands = &islands;
    }
    options.budget.max_memory_bytes = r.max_memory_bytes;
    path::HexPathfinder finder;
    finder.reserve(map);
    path::GridPath result;
    options.budget.deadline = search::deadline_after(r.time_limit_s);
    const auto t0 = std::chrono::steady_clock::now();
    const Status status = finder.find_path(map, r.from, r.to, options, result);
    const double micros = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
    std::string problem;
    if (status == Status::InvalidQuery) {
        if (!map.passable(r.from)) problem = "start " + r.from_text + " is blocked";
        else if (!map.passable(r.to)) problem = "goal " + r.to_text + " is blocked";
        else problem = "invalid query";
    }
    if (r.json) {
        std::cout << hex_path_json(status, finder.budget_limit(), result, finder.stats().expanded, micros, problem).dump() << '\n';
    } else {
        std::cout << "status: " << to_string(status) << '\n' << "topology: hex\n";
        if (status == Status::Found)
            std::cout << "cost: " << std::setprecision(10) << result.cost << '\n' << "cells: " << result.cells.size() << '\n';
        std::cout << "expanded: " << finder.stats().expanded << '\n'
                  << "micros: " << std::fixed << std::setprecision(1) << micros << std::defaultfloat << '\n';
        if (status == Status::Found) {
            std::cout << "path:";
            for (const auto& c : result.cells) std::cout << " (" << c.x << ',' << c.y << ')';
            std::cout << '\n';
        }
    }
    if (r.render) render_hex(std::cout, map, result, r.from, r.to);
    if (!r.png.empty()) write_hex_png(r.png, r.png_scale, map, finder, result, r.from, r.to);
    if (!problem.empty()) std::cerr << "gameplan: " << problem << '\n';
    switch (status) {
        case Status::Found: return 0;
        case Status::InvalidQuery: return 2;
        default: return 1;
    }
}

}  // namespace gameplan::cli
