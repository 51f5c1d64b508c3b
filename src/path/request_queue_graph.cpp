// Frame-budgeted queues of graph and hex searches: the grid queue's scheduler (request_queue_core.hpp)
// over GraphPathfinder / HexPathfinder. See request_queue_graph.hpp.
#include <gameplan/path/request_queue_graph.hpp>

#include "request_queue_core.hpp"

namespace gameplan::path {

template class SearchRequestQueue<detail::GraphQueueTraits>;
template class SearchRequestQueue<detail::HexQueueTraits>;

}  // namespace gameplan::path
