#pragma once
// Private helper of the grid searches (grid_search.cpp, theta_star.cpp, hpa_build.cpp): the cost layers a
// query puts in force, checked the same way everywhere.
#include <gameplan/path/area_filter.hpp>
#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/penalty_layer.hpp>

#include <cmath>
#include <span>

namespace gameplan::path::detail {

/// Calls `add(layer, weight)` for the query's penalty layer and then each cost layer whose weight is
/// above 0. False at the first one that is missing, does not match `map`, or has a weight that is
/// negative or not finite (the layers before it have been added).
template <class Add>
bool collect_cost_layers(const GridMap& map, const PenaltyLayer* penalties, double penalty_weight,
                         std::span<const CostLayer> layers, Add&& add) {
    const auto good_weight = [](double w) { return w >= 0.0 && std::isfinite(w); };
    if (penalties != nullptr) {
        if (!penalties->matches(map) || !good_weight(penalty_weight)) return false;
        if (penalty_weight > 0.0) add(penalties, penalty_weight);
    }
    for (const CostLayer& layer : layers) {
        if (layer.layer == nullptr || !layer.layer->matches(map) || !good_weight(layer.weight)) return false;
        if (layer.weight > 0.0) add(layer.layer, layer.weight);
    }
    return true;
}

}  // namespace gameplan::path::detail
