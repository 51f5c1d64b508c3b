#pragma once
// Per-query costs on the command line: --area-cost LETTER=MULT[,...], --avoid LETTERS, --layer FILE[:WEIGHT]
// (path/area_filter.hpp, io/layer_file.hpp). Shared by `gameplan path` and `gameplan explore`.
#include <gameplan/io/movingai.hpp>
#include <gameplan/path/area_filter.hpp>
#include <gameplan/path/grid_search.hpp>
#include <gameplan/path/penalty_layer.hpp>

#include <CLI/CLI.hpp>

#include <deque>
#include <string>
#include <vector>

namespace gameplan::cli {

/// The options as typed.
struct AreaArgs {
    std::vector<std::string> area_costs;  // each "LETTER=MULT[,LETTER=MULT...]"
    std::string avoid;                    // letters
    std::vector<std::string> layers;      // each "FILE[:WEIGHT]"
    [[nodiscard]] bool any() const noexcept { return !area_costs.empty() || !avoid.empty() || !layers.empty(); }
};

/// What a query needs: the areas of the map, the filter and the loaded layers.
struct AreaSetup {
    path::AreaMap areas;
    path::AreaFilter filter;
    bool use_areas = false;                 // --area-cost or --avoid given
    std::deque<path::PenaltyLayer> layers;  // stable addresses
    std::vector<path::CostLayer> cost_layers;
    /// Points `options` at the areas, the filter and the layers in use.
    void apply(path::GridSearchOptions& options) const;
};

/// Registers the three options on `cmd`.
void add_area_options(CLI::App* cmd, AreaArgs& args);
/// Parses --area-cost and --avoid into `setup.filter` (throws UsageError naming the option on an unknown
/// letter or a bad multiplier) and returns the map load options they need: the areas are read into
/// `setup.areas`, and water (`W`) and trees (`T`) become passable when --area-cost gives them a cost.
[[nodiscard]] io::MapLoadOptions parse_area_args(const AreaArgs& args, AreaSetup& setup);
/// Loads the --layer files for `map` (io::LoadError on bad files; UsageError on a bad weight).
void load_layers(const AreaArgs& args, const path::GridMap& map, AreaSetup& setup);

}  // namespace gameplan::cli
