// One round of a request queue, shared by the queue allocation tests: submits every request, updates
// with `per_update` expansions until all are done and takes each result into `out` (round robin, so the
// same result objects hand their path buffers back and forth). Returns how many were found.
#pragma once

#include <gameplan/path/request_queue.hpp>

#include <cstdint>
#include <vector>

namespace gameplan::test {

template <class Queue, class Request, class Result>
std::uint64_t run_queue_round(Queue& queue, const std::vector<Request>& requests, std::vector<Result>& out,
                              std::uint64_t per_update) {
    std::uint64_t found = 0;
    for (const Request& r : requests) (void)queue.submit(r);
    std::size_t taken = 0;
    for (int frame = 0; frame < 100000 && taken < requests.size(); ++frame) {
        (void)queue.update(per_update);
        for (const path::PathHandle h : queue.completed()) {
            Result& result = out[taken % out.size()];
            if (queue.take(h, result)) {
                ++taken;
                found += result.status == Status::Found;
            }
        }
    }
    return found;
}

}  // namespace gameplan::test
