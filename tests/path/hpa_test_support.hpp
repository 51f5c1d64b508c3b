#pragma once
// Test support for the HPA*, smoothing and Theta* tests:
// - a tiny private MovingAI .map / .scen reader (the io module's reader belongs to another change;
//   this one only needs the shared benchmark files, which are well-formed);
// - conversions between the library's GridMap and the oracle's RefGrid (grid_reference.hpp);
// - an exact, independent any-angle line-of-sight oracle: it classifies every cell near a segment by
//   exact rational geometry (open-square intersection, grid vertices on the segment) instead of
//   walking the line like the library does.
#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/grid_rules.hpp>
#include <gameplan/path/hpa.hpp>

#include "grid_reference.hpp"

#include <test_data.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

using gameplan::path::GridMap;
using gameplan::path::GridPoint;
using gameplan::path::GridSizeCheck;
using gameplan::test::RefDiagonal;
using gameplan::test::RefGrid;

// Query options with the rules a hierarchy was built for (HPA* refuses any other rule).
[[maybe_unused]] gameplan::path::HpaQueryOptions query_of(const gameplan::path::HierarchicalMap& h) {
    gameplan::path::HpaQueryOptions query;
    query.movement = h.movement();
    query.diagonal = h.diagonal();
    return query;
}

// Build rules from a movement and a diagonal rule.
template <class Rule>
gameplan::path::GridSearchOptions rules_of(const Rule& rule) {
    gameplan::path::GridSearchOptions rules;
    rules.movement = rule.movement;
    rules.diagonal = rule.diagonal;
    return rules;
}

// ---- MovingAI files ------------------------------------------------------------------------------

struct TestScenario {
    GridPoint start;
    GridPoint goal;
    double optimal = 0.0;
    double tolerance = 0.0;  // one unit in the last printed digit
};

// Reads a MovingAI .map ('.' 'G' 'S' passable, everything else blocked). Returns an empty map on error.
inline GridMap read_movingai_map(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::string word;
    int width = 0, height = 0;
    while (in >> word && word != "map") {
        if (word == "width") in >> width;
        else if (word == "height") in >> height;
        else if (word == "type") in >> word;
    }
    GridMap map;
    if (width <= 0 || height <= 0 || map.reset(width, height, false) != GridSizeCheck::Ok) return GridMap{};
    std::string row;
    for (int y = 0; y < height && in >> row; ++y)
        for (int x = 0; x < width && x < static_cast<int>(row.size()); ++x)
            if (row[x] == '.' || row[x] == 'G' || row[x] == 'S') map.set_passable({x, y}, true);
    return map;
}

inline double last_digit_unit(const std::string& number) {
    const auto dot = number.find('.');
    if (dot == std::string::npos) return 1.0;
    double unit = 1.0;
    for (std::size_t i = dot + 1; i < number.size(); ++i) unit /= 10.0;
    return unit;
}

// Reads a MovingAI .scen file (any whitespace between fields).
inline std::vector<TestScenario> read_movingai_scenarios(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::string line;
    std::vector<TestScenario> out;
    std::getline(in, line);  // version line
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        std::string bucket, map, w, h, sx, sy, gx, gy, optimal;
        if (!(fields >> bucket >> map >> w >> h >> sx >> sy >> gx >> gy >> optimal)) continue;
        out.push_back(TestScenario{GridPoint{std::stoi(sx), std::stoi(sy)}, GridPoint{std::stoi(gx), std::stoi(gy)},
                                   std::stod(optimal), last_digit_unit(optimal)});
    }
    return out;
}

// The shared benchmark pairs: scenarios/<set>/<name>.map.scen -> maps/<set>/<name>.map.
struct BenchmarkMap {
    const char* set;
    const char* name;
};
inline constexpr BenchmarkMap kSmallMaps[] = {{"dao", "arena"}, {"dao", "den312d"}, {"dao", "lak303d"}};
inline constexpr BenchmarkMap kAllMaps[] = {
    {"dao", "arena"},          {"dao", "den312d"},           {"dao", "lak303d"},         {"dao", "brc202d"},
    {"dao", "orz900d"},        {"mazes", "maze512-1-0"},     {"mazes", "maze512-8-0"},   {"random", "random512-10-0"},
    {"random", "random512-40-0"}, {"rooms", "16room_000"},   {"sc1", "Aftershock"},      {"bg512", "AR0011SR"}};

inline std::filesystem::path movingai_dir() { return gameplan::test::benchmark_dir() / "movingai"; }
inline std::filesystem::path map_file(const BenchmarkMap& m) {
    return movingai_dir() / "maps" / m.set / (std::string(m.name) + ".map");
}
inline std::filesystem::path scen_file(const BenchmarkMap& m) {
    return movingai_dir() / "scenarios" / m.set / (std::string(m.name) + ".map.scen");
}

// ---- conversions -----------------------------------------------------------------------------------

inline GridMap to_map(const RefGrid& g) {
    GridMap map;
    (void)map.reset(g.width, g.height, false);
    for (int y = 0; y < g.height; ++y)
        for (int x = 0; x < g.width; ++x) {
            const int c = g.at(x, y);
            if (c > 0) {
                map.set_passable({x, y}, true);
                map.set_cost({x, y}, static_cast<std::uint32_t>(c));
            }
        }
    map.recompute_min_cost();
    return map;
}

inline RefGrid to_ref(const GridMap& map) {
    RefGrid g{map.width(), map.height(), std::vector<int>(map.cell_count(), 0)};
    for (int y = 0; y < map.height(); ++y)
        for (int x = 0; x < map.width(); ++x)
            if (map.passable({x, y})) g.cost[std::size_t(y) * g.width + x] = static_cast<int>(map.cost({x, y}));
    return g;
}

inline std::vector<std::pair<int, int>> pairs_of(const std::vector<GridPoint>& cells) {
    std::vector<std::pair<int, int>> out;
    for (GridPoint c : cells) out.emplace_back(c.x, c.y);
    return out;
}

inline RefDiagonal ref_rule(gameplan::path::Movement movement, gameplan::path::DiagonalRule rule) {
    switch (gameplan::path::effective_diagonal(movement, rule)) {
        case gameplan::path::DiagonalRule::Never: return RefDiagonal::None;
        case gameplan::path::DiagonalRule::NoCornerCutting: return RefDiagonal::BothFree;
        case gameplan::path::DiagonalRule::OneObstacle: return RefDiagonal::OneFree;
        case gameplan::path::DiagonalRule::Always: return RefDiagonal::Always;
    }
    return RefDiagonal::BothFree;
}

// ---- exact line-of-sight oracle -------------------------------------------------------------------

// p / q with q > 0, compared exactly (all values here are small integers).
struct Fraction {
    std::int64_t p, q;
};
inline bool less(Fraction a, Fraction b) { return a.p * b.q < b.p * a.q; }
inline Fraction make_fraction(std::int64_t p, std::int64_t q) { return q < 0 ? Fraction{-p, -q} : Fraction{p, q}; }

// Does the segment from the centre of a to the centre of b pass through the interior of cell c?
// Doubled coordinates: centres at even numbers, cell c is the open square (2cx - 1, 2cx + 1) x (...).
inline bool passes_interior(GridPoint a, GridPoint b, GridPoint c) {
    const std::int64_t ax = 2 * a.x, ay = 2 * a.y, dx = 2 * (b.x - a.x), dy = 2 * (b.y - a.y);
    Fraction lo{0, 1}, hi{1, 1};  // closed [0, 1] intersected with open slabs
    bool lo_open = false, hi_open = false;
    const auto clip = [&](std::int64_t origin, std::int64_t delta, std::int64_t centre) {
        const std::int64_t low = 2 * centre - 1, high = 2 * centre + 1;
        if (delta == 0) return low < origin && origin < high;
        Fraction t0 = make_fraction(low - origin, delta), t1 = make_fraction(high - origin, delta);
        if (less(t1, t0)) std::swap(t0, t1);
        if (!less(t0, lo)) {
            lo = t0;
            lo_open = true;
        }
        if (!less(hi, t1)) {
            hi = t1;
            hi_open = true;
        }
        return true;
    };
    if (!clip(ax, dx, c.x) || !clip(ay, dy, c.y)) return false;
    if (less(lo, hi)) return true;
    return !less(hi, lo) && !lo_open && !hi_open;  // a single closed point (only when dx = dy = 0)
}

// Calls visit(x, y) for a superset of the cells within one cell of the segment between the centres of
// a and b: a band of rows around the line in every column (or of columns in every row).
template <class Visit>
void for_each_cell_near(GridPoint a, GridPoint b, Visit&& visit) {
    const bool by_x = std::abs(b.x - a.x) >= std::abs(b.y - a.y);
    const GridPoint p = by_x ? a : GridPoint{a.y, a.x}, q = by_x ? b : GridPoint{b.y, b.x};
    const int lo = std::min(p.x, q.x), hi = std::max(p.x, q.x);
    const double slope = p.x == q.x ? 0.0 : static_cast<double>(q.y - p.y) / (q.x - p.x);
    for (int u = lo - 1; u <= hi + 1; ++u) {
        const double v0 = p.y + slope * (std::clamp(u - 0.5, double(lo), double(hi)) - p.x);
        const double v1 = p.y + slope * (std::clamp(u + 0.5, double(lo), double(hi)) - p.x);
        for (int v = static_cast<int>(std::floor(std::min(v0, v1))) - 1; v <= static_cast<int>(std::ceil(std::max(v0, v1))) + 1; ++v)
            by_x ? visit(u, v) : visit(v, u);
    }
}

// The oracle: every cell whose interior the segment crosses is passable, and at every grid vertex on
// the segment the cells touched but not entered satisfy the rule.
inline bool oracle_line_of_sight(const RefGrid& g, GridPoint a, GridPoint b, RefDiagonal rule) {
    bool ok = true;
    const std::int64_t ax = 2 * a.x, ay = 2 * a.y, bx = 2 * b.x, by = 2 * b.y;
    for_each_cell_near(a, b, [&](int x, int y) {
        if (!ok) return;
        if (passes_interior(a, b, GridPoint{x, y}) && !g.free(x, y)) ok = false;
        // The vertex at the cell's lower-right corner, doubled (2x + 1, 2y + 1), if strictly inside.
        const std::int64_t px = 2 * x + 1, py = 2 * y + 1;
        if ((bx - ax) * (py - ay) != (by - ay) * (px - ax)) return;  // not collinear
        if (px <= std::min(ax, bx) || px >= std::max(ax, bx) || py <= std::min(ay, by) || py >= std::max(ay, by)) return;
        int touched_free = 0, touched = 0;
        for (int cy = y; cy <= y + 1; ++cy)
            for (int cx = x; cx <= x + 1; ++cx) {
                if (passes_interior(a, b, GridPoint{cx, cy})) continue;
                ++touched;
                touched_free += g.free(cx, cy) ? 1 : 0;
            }
        if (touched != 2) ok = false;  // cannot happen for a segment between centres
        switch (rule) {
            case RefDiagonal::None:
            case RefDiagonal::BothFree:
                if (touched_free != 2) ok = false;
                break;
            case RefDiagonal::OneFree:
                if (touched_free == 0) ok = false;
                break;
            case RefDiagonal::Always: break;
        }
    });
    return ok;
}

}  // namespace
