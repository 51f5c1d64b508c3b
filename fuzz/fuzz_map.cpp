// libFuzzer target for the map readers (MovingAI .map and the plain-text grid). Any input must either
// load or throw io::LoadError; a loaded map is then searched with a small budget to exercise the
// pathfinder on odd shapes (1 x N, all blocked, huge thin maps).
#include <gameplan/io/load_error.hpp>
#include <gameplan/io/movingai.hpp>
#include <gameplan/path/grid_search.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace {
void search_corners(const gameplan::path::GridMap& map) {
    using namespace gameplan::path;
    GridPathfinder finder;
    GridPath path;
    GridSearchOptions options;
    options.budget.max_expansions = 2000;
    const GridPoint corners[] = {{0, 0}, {map.width() - 1, map.height() - 1}, {map.width() - 1, 0}, {0, map.height() - 1}};
    for (const auto& a : corners)
        for (const auto& b : corners) {
            (void)finder.find_path(map, a, b, options, path);
            options.movement = options.movement == Movement::Four ? Movement::Eight : Movement::Four;
        }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        search_corners(gameplan::io::parse_movingai_map(text, "fuzz.map"));
    } catch (const gameplan::io::LoadError&) {
    }
    try {
        gameplan::io::MapLoadOptions options;
        options.water_passable = true;
        options.swamp_cost = 3;
        search_corners(gameplan::io::parse_text_map(text, "fuzz.txt", options));
    } catch (const gameplan::io::LoadError&) {
    }
    return 0;
}
