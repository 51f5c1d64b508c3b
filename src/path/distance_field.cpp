#include <gameplan/path/distance_field.hpp>

#include <gameplan/path/islands.hpp>

#include <algorithm>

namespace gameplan::path {

void DistanceField::reserve(const GridMap& map, std::size_t sources) {
    m_finder.reserve(map);
    m_sources.reserve(sources);
}

Status DistanceField::compute(const GridMap& map, std::span<const GridPoint> sources, const GridSearchOptions& options) {
    m_sources.assign(sources.begin(), sources.end());
    GridSearchOptions flood = options;
    flood.heuristic = Heuristic::Zero;
    flood.weight = 1.0;
    flood.islands = nullptr;  // no goal: nothing to prove unreachable
    flood.dead_ends = nullptr;
    Status status = m_finder.begin(map, sources, std::span<const GridPoint>(), flood);
    if (status == Status::InProgress) status = m_finder.step();
    // With no goal, exhausting the open list is success: every reachable cell is settled.
    return m_status = status == Status::NoPath ? Status::Found : status;
}

Status DistanceField::compute(const GridMap& map, GridPoint source, const GridSearchOptions& options) {
    return compute(map, std::span<const GridPoint>(&source, 1), options);
}

std::size_t DistanceField::nearest_source(GridPoint p) const noexcept {
    if (!m_finder.reached(p)) return kNoIndex;
    GridPoint at = p;
    for (GridPoint up = m_finder.parent(at); !(up == at); up = m_finder.parent(at)) at = up;
    const auto it = std::find(m_sources.begin(), m_sources.end(), at);
    return it == m_sources.end() ? kNoIndex : static_cast<std::size_t>(it - m_sources.begin());
}

void DistanceField::path_to_source(GridPoint p, GridPath& out) const {
    m_finder.path_to(p, out);
    std::reverse(out.cells.begin(), out.cells.end());
}

void NearestTargets::reserve(const GridMap& map, std::size_t targets) {
    m_finder.reserve(map);
    m_usable.reserve(targets);
}

NearestTarget NearestTargets::find(const GridMap& map, GridPoint from, std::span<const GridPoint> targets,
                                   const GridSearchOptions& options, GridPath* path) {
    NearestTarget result;
    if (path) {
        path->cells.clear();
        path->cost = result.cost;
    }
    if (!map.passable(from)) {
        result.status = Status::InvalidQuery;
        return result;
    }
    // Dropping targets the search can never reach keeps the multi-goal heuristic tight and, when none is
    // left, answers without a flood of the whole island.
    const Islands* islands =
        options.islands && options.islands->applies_to(map, options) ? options.islands : nullptr;
    m_usable.clear();
    for (const GridPoint& t : targets) {
        if (!map.passable(t)) continue;
        if (options.filter != nullptr && options.filter->forbidden(options.areas != nullptr ? options.areas->at(t) : 0u))
            continue;  // a target in a forbidden area is never reached
        if (islands && islands->connectivity(from, t) == Reachability::Unreachable) continue;
        m_usable.push_back(t);
    }
    if (m_usable.empty()) {
        result.status = map.empty() ? Status::InvalidQuery : Status::NoPath;
        return result;
    }
    GridSearchOptions search = options;
    search.islands = nullptr;  // already applied, target by target
    Status status = m_finder.begin(map, std::span<const GridPoint>(&from, 1), m_usable, search);
    if (status == Status::InProgress) status = m_finder.step();
    result.status = status;
    result.expanded = m_finder.stats().expanded;
    if (status != Status::Found) return result;
    result.cell = m_finder.goal_reached();
    result.cost = m_finder.cost();
    result.index = static_cast<std::size_t>(std::find(targets.begin(), targets.end(), result.cell) - targets.begin());
    if (path) (void)m_finder.finish(*path);
    return result;
}

NearestTarget nearest(const GridMap& map, GridPoint from, std::span<const GridPoint> targets,
                      const GridSearchOptions& options) {
    thread_local NearestTargets finder;
    return finder.find(map, from, targets, options);
}

}  // namespace gameplan::path
