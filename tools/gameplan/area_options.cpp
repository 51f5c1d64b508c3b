#include "area_options.hpp"

#include "cli_support.hpp"
#include "commands.hpp"

#include <gameplan/io/layer_file.hpp>

#include <charconv>
#include <cctype>
#include <cmath>
#include <optional>
#include <string_view>

namespace gameplan::cli {

namespace {

std::optional<std::uint8_t> area_of_letter(char c) noexcept {
    switch (c) {
        case '.':
        case 'G': return path::kAreaGround;
        case 'S': return path::kAreaSwamp;
        case 'W': return path::kAreaWater;
        case 'T': return path::kAreaTrees;
        default: return std::nullopt;
    }
}

std::optional<double> parse_real(std::string_view text) noexcept {
    if (!text.empty() && text.front() == '+') text.remove_prefix(1);
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) return std::nullopt;
    return value;
}

UsageError unknown_letter(const char* option, char c) {
    return UsageError(std::string(option) + ": unknown area letter '" + printable(std::string(1, c)) +
                      "' (known: . and G ground, S swamp, W water, T trees)");
}

}  // namespace

void AreaSetup::apply(path::GridSearchOptions& options) const {
    if (use_areas) {
        options.areas = &areas;
        options.filter = &filter;
    }
    options.layers = cost_layers;
}

void add_area_options(CLI::App* cmd, AreaArgs& args) {
    cmd->add_option("--area-cost", args.area_costs,
                    "Cost multiplier per terrain area, LETTER=MULT[,LETTER=MULT...] (letters . G S W T; MULT in (0, 1e6]); "
                    "giving W or T a cost makes water or trees walkable")
        ->type_name("LETTER=MULT");
    cmd->add_option("--avoid", args.avoid, "Terrain letters this unit may not enter, e.g. SW (swamp and water)")
        ->type_name("LETTERS");
    cmd->add_option("--layer", args.layers,
                    "Cost layer file (height lines of width numbers >= 0) with an optional weight (default 1): "
                    "entering a cell adds WEIGHT x value; repeatable")
        ->type_name("FILE[:WEIGHT]");
}

io::MapLoadOptions parse_area_args(const AreaArgs& args, AreaSetup& setup) {
    io::MapLoadOptions load;
    setup.use_areas = !args.area_costs.empty() || !args.avoid.empty();
    bool water_cost = false, trees_cost = false;
    for (const std::string& list : args.area_costs) {
        std::string_view rest = list;
        while (true) {
            const std::size_t comma = rest.find(',');
            const std::string_view item = rest.substr(0, comma);
            const std::size_t eq = item.find('=');
            if (eq != 1)
                throw UsageError("--area-cost: expected LETTER=MULT, got '" + printable(std::string(item), 40) + "'");
            const auto area = area_of_letter(item[0]);
            if (!area) throw unknown_letter("--area-cost", item[0]);
            const auto value = parse_real(item.substr(2));
            if (!value || !setup.filter.set_multiplier(*area, *value))
                throw UsageError("--area-cost " + std::string(1, item[0]) + ": the multiplier must be a number in (0, 1e6], got '" +
                                 printable(std::string(item.substr(2)), 40) + "'");
            water_cost = water_cost || item[0] == 'W';
            trees_cost = trees_cost || item[0] == 'T';
            if (comma == std::string_view::npos) break;
            rest.remove_prefix(comma + 1);
        }
    }
    for (const char c : args.avoid) {
        const auto area = area_of_letter(c);
        if (!area) throw unknown_letter("--avoid", c);
        (void)setup.filter.forbid(*area);
    }
    if (setup.use_areas) {
        load.areas = &setup.areas;
        load.water_passable = water_cost && !setup.filter.forbidden(path::kAreaWater);
        load.trees_passable = trees_cost && !setup.filter.forbidden(path::kAreaTrees);
    }
    return load;
}

void load_layers(const AreaArgs& args, const path::GridMap& map, AreaSetup& setup) {
    for (const std::string& spec : args.layers) {
        std::string file = spec;
        double weight = 1.0;
        const std::size_t colon = spec.rfind(':');
        if (colon != std::string::npos) {
            const std::string_view suffix = std::string_view(spec).substr(colon + 1);
            if (const auto value = parse_real(suffix)) {
                if (!(*value >= 0.0) || *value > 1e6)
                    throw UsageError("--layer " + printable(spec, 80) + ": the weight must be a number in [0, 1e6]");
                weight = *value;
                file = spec.substr(0, colon);
            } else if (!suffix.empty() && (suffix.front() == '-' || std::isdigit(static_cast<unsigned char>(suffix.front())))) {
                throw UsageError("--layer " + printable(spec, 80) + ": the weight must be a number in [0, 1e6]");
            }
        }
        setup.layers.push_back(io::load_penalty_layer(file, map));
        setup.cost_layers.push_back(path::CostLayer{&setup.layers.back(), weight});
    }
}

}  // namespace gameplan::cli
