// libFuzzer target for cost layer files (io/layer_file.hpp). The input's first byte picks the map
// shape (1..16 x 1..16) the layer must match; the rest is the layer text. Any input must either load
// or throw io::LoadError; a loaded layer then weighs a search with an area filter.
#include <gameplan/io/layer_file.hpp>
#include <gameplan/io/load_error.hpp>
#include <gameplan/path/area_filter.hpp>
#include <gameplan/path/grid_search.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace gameplan;
    if (size == 0) return 0;
    path::GridMap map;
    (void)map.reset(1 + (data[0] & 15), 1 + (data[0] >> 4));
    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
    try {
        const path::PenaltyLayer layer = io::parse_penalty_layer(text, "fuzz.txt", map);
        path::AreaMap areas(map);
        for (std::int32_t x = 0; x < map.width(); x += 2) (void)areas.set({x, 0}, path::kAreaSwamp);
        path::AreaFilter filter;
        (void)filter.set_multiplier(path::kAreaSwamp, 2.5);
        const path::CostLayer layers[] = {{&layer, 0.5}};
        path::GridSearchOptions options;
        options.areas = &areas;
        options.filter = &filter;
        options.layers = layers;
        path::GridPathfinder finder;
        path::GridPath out;
        (void)finder.find_path(map, {0, 0}, {map.width() - 1, map.height() - 1}, options, out);
    } catch (const io::LoadError&) {
    }
    return 0;
}
