#pragma once
// The query options jump point searches accept (JPS, JPS+ and the subgoal graph, whose edges jump too).
// Internal header.

#include <gameplan/path/grid_rules.hpp>
#include <gameplan/path/grid_search.hpp>
#include <gameplan/path/jps.hpp>

#include <cmath>

namespace gameplan::path::detail {

/// True if the query carries per-query costs or filters (penalties, weighted layers, areas, a filter).
inline bool has_query_costs(const GridSearchOptions& options) noexcept {
    return options.penalties != nullptr || !options.layers.empty() || options.areas != nullptr || options.filter != nullptr;
}

/// Validates a query's options (not the points): the MovingAI rules, a finite weight >= 1, no per-query
/// costs or filters (jumps skip cells without looking at their cost, so those would be ignored).
inline JpsSupport check_options(const GridSearchOptions& options) noexcept {
    if (options.movement != Movement::Eight) return JpsSupport::NotEightConnected;
    if (options.diagonal != DiagonalRule::NoCornerCutting) return JpsSupport::NotNoCornerCutting;
    if (!(options.weight >= 1.0) || !std::isfinite(options.weight)) return JpsSupport::BadWeight;
    if (has_query_costs(options)) return JpsSupport::NonUniformCosts;
    return JpsSupport::Ok;
}

}  // namespace gameplan::path::detail
