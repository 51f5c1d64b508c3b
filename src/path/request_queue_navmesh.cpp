// Frame-budgeted queues of navmesh searches: the grid queue's scheduler (request_queue_core.hpp) over
// NavmeshPathfinder / NavmeshHierarchyPathfinder. See request_queue_navmesh.hpp.
#include <gameplan/path/request_queue_navmesh.hpp>

#include "request_queue_core.hpp"

namespace gameplan::path {

template class SearchRequestQueue<detail::NavmeshQueueTraits>;
template class SearchRequestQueue<detail::NavmeshHierarchyQueueTraits>;

}  // namespace gameplan::path
