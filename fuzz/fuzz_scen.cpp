// libFuzzer target for the MovingAI .scen reader. Any input must either parse or throw io::LoadError;
// parsed scenarios are checked against a small map and their tolerances exercised.
#include <gameplan/io/load_error.hpp>
#include <gameplan/io/movingai.hpp>
#include <gameplan/path/grid_map.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const auto scen = gameplan::io::parse_movingai_scenarios(text, "fuzz.scen");
        gameplan::path::GridMap map;
        (void)map.reset(8, 8);
        for (const auto& s : scen.scenarios) {
            (void)gameplan::io::matches_optimal(s, s.optimal);
            if (!map.contains(s.start) && s.map_width == 8 && s.map_height == 8) __builtin_trap();  // parser let it through
        }
        try {
            gameplan::io::check_scenarios_fit(scen, map, "fuzz.map");
        } catch (const gameplan::io::LoadError&) {
        }
    } catch (const gameplan::io::LoadError&) {
    }
    (void)gameplan::io::last_digit_unit(text);
    return 0;
}
