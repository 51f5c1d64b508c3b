// The frame-budgeted grid queue: the shared scheduler (request_queue_core.hpp) over GridPathfinder.
// Saving and restoring its state: state_save.cpp.
#include <gameplan/path/request_queue.hpp>

#include "request_queue_core.hpp"

#include <algorithm>
#include <cmath>

namespace gameplan::path {

bool detail::GridQueueTraits::still_valid(const GridMap& map, const PathRequest& request,
                                          const PathResult& result) noexcept {
    const std::vector<GridPoint>& cells = result.path.cells;
    const GridSearchOptions& options = request.options;
    if (cells.empty()) return false;
    // The step costs of the request's own rules: terrain, area multipliers, forbidden areas, layers.
    const double cost = query_path_cost(map, cells, options);
    if (!std::isfinite(cost)) return false;
    // Penalties and cost layers are advice that may change every frame: such a result is only checked
    // for legality (its steps, forbidden areas included).
    if (options.penalties != nullptr || !options.layers.empty()) return true;
    const double expected = result.path.cost;
    return std::abs(cost - expected) <= 1e-9 * std::max(1.0, expected);
}

bool detail::GridQueueTraits::still_legal(const GridMap& map, const PathRequest& request, const PathResult& result) noexcept {
    return !result.path.cells.empty() && std::isfinite(query_path_cost(map, result.path.cells, request.options));
}

void detail::GridQueueTraits::reprice(const GridMap& map, const PathRequest& request, PathResult& result) noexcept {
    if (result.path.cells.empty()) return;
    const double cost = query_path_cost(map, result.path.cells, request.options);
    if (std::isfinite(cost)) result.path.cost = cost;
}

template class SearchRequestQueue<detail::GridQueueTraits>;

}  // namespace gameplan::path
