#pragma once
// Writing a finished grid search into the caller's GridPath: one behaviour, shared by the grid
// pathfinders' finish(), for what a status, a cost and a PathDetail leave in the path.
#include <gameplan/path/grid_search.hpp>
#include <gameplan/status.hpp>

#include <limits>
#include <vector>

namespace gameplan::path::detail {

// Writes the result of a search that ended with `status` into `out`: when nothing was found the cells
// are cleared and the cost is +infinity; otherwise the cost is `cost`, and unless `detail` is CostOnly
// `fill(out.cells)` writes every cell from start to goal into the cleared vector, which is then
// reduced to `detail` (reduce_path). Returns `status`. Allocates only if `out.cells` must grow.
template <class Fill>
Status write_result(Status status, double cost, PathDetail detail, GridPath& out, Fill&& fill) {
    out.cells.clear();
    if (status != Status::Found) {
        out.cost = std::numeric_limits<double>::infinity();
        return status;
    }
    out.cost = cost;
    if (detail == PathDetail::CostOnly) return status;
    fill(out.cells);
    reduce_path(out, detail);
    return status;
}

}  // namespace gameplan::path::detail
