// Saving and restoring running state of the path module: a search in progress (GridPathfinder), the
// request queue and the movement layer. The io module turns these states into a save file (io/save.hpp).
#include <gameplan/path/grid_search.hpp>
#include <gameplan/path/request_queue.hpp>

#include <gameplan/search/generation.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace gameplan::path {

namespace {
constexpr std::uint32_t kFree = UINT32_MAX;  // as in request_queue_core.hpp: no slot / no lane
}  // namespace

bool GridPathfinder::save_search(GridSearchState& out) const {
    if (m_status != Status::InProgress || m_map == nullptr) return false;
    out = GridSearchState{};
    const std::uint32_t open = search::open_stamp(m_generation), closed = search::closed_stamp(m_generation);
    const std::size_t bound = std::min<std::size_t>(m_bound, m_capacity);
    for (std::uint32_t node = 0; node < bound; ++node) {
        const CellState& c = m_cells[node];
        if (c.stamp == open || c.stamp == closed) out.cells.push_back({node, c.g, c.parent, c.stamp == closed});
    }
    out.open.reserve(m_heap.size());
    for (const auto& e : m_heap.entries()) out.open.push_back({e.node, e.key.f_bits, e.key.tie});
    out.has_held = m_held_node != search::kNoNode;
    if (out.has_held) out.held = {m_held_node, m_held_key.f_bits, m_held_key.tie};
    out.sequence = m_sequence;
    out.stats = m_stats;
    out.map_version = m_map_version;
    return true;
}

Status GridPathfinder::restore_search(const GridMap& map, GridPoint start, GridPoint goal, const GridSearchOptions& options,
                                      const GridSearchState& state) {
    // The map's passability is as it was when the search began (costs may have changed since: the
    // request queue goes on with such a search), so its cells are checked against it.
    const bool same_map = !map.passability_changed_since(state.map_version);
    Status status = begin(map, start, goal, options);
    if (status != Status::InProgress) {
        if (same_map || map.empty()) return status;
        // The map changed since the search began (its start or goal may be blocked now): the caller
        // restarts it at its next step, so only the version matters. Keep a search with no cells.
        status = prepare(map, options);
        if (status != Status::InProgress) return status;
        m_step = nullptr;
        m_map_version = state.map_version;
        return status;
    }
    const auto fail = [&] {
        m_heap.clear();
        m_held_node = search::kNoNode;
        m_step = nullptr;
        return m_status = Status::InvalidQuery;
    };
    // Forget what begin() seeded: the saved state lists the sources itself.
    for (const auto& e : m_heap.entries()) m_cells[e.node].stamp = search::kUnvisitedStamp;
    m_heap.clear();
    m_held_node = search::kNoNode;
    const std::uint32_t open = search::open_stamp(m_generation), closed = search::closed_stamp(m_generation);
    const std::uint32_t bound = m_bound;
    std::size_t open_cells = 0;
    for (const GridSearchState::Cell& c : state.cells) {
        if (c.node >= bound || (c.parent != search::kNoNode && c.parent >= bound) || !std::isfinite(c.g) || c.g < 0.0)
            return fail();
        if (same_map && map.passable_data()[c.node] == 0) return fail();
        CellState& cell = m_cells[c.node];
        if (cell.stamp == open || cell.stamp == closed) return fail();  // listed twice
        cell = CellState{c.g, c.parent, c.closed ? closed : open};
        open_cells += c.closed ? 0 : 1;
    }
    // Parents must be reached cells and every chain must end at a source (path_to follows them): an
    // iterative colouring over the listed cells, O(cells log cells).
    {
        const std::size_t count = state.cells.size();
        std::vector<std::pair<std::uint32_t, std::uint32_t>> by_node;
        by_node.reserve(count);
        for (std::uint32_t i = 0; i < count; ++i) by_node.emplace_back(state.cells[i].node, i);
        std::sort(by_node.begin(), by_node.end());
        const auto index_of = [&](std::uint32_t node) -> std::uint32_t {
            const auto it = std::lower_bound(by_node.begin(), by_node.end(), std::make_pair(node, std::uint32_t{0}));
            return it != by_node.end() && it->first == node ? it->second : UINT32_MAX;
        };
        std::vector<std::uint8_t> colour(count, 0);
        std::vector<std::uint32_t> chain;
        for (std::uint32_t i = 0; i < count; ++i) {
            if (colour[i] != 0) continue;
            chain.clear();
            std::uint32_t at = i;
            while (at != UINT32_MAX && colour[at] == 0) {
                colour[at] = 1;
                chain.push_back(at);
                const std::uint32_t parent = state.cells[at].parent;
                if (parent == search::kNoNode) {
                    at = UINT32_MAX;
                    break;
                }
                at = index_of(parent);
                if (at == UINT32_MAX) return fail();  // a parent that was never reached
            }
            if (at != UINT32_MAX && colour[at] == 1) return fail();  // back on this chain: a cycle
            for (const std::uint32_t k : chain) colour[k] = 2;
        }
    }
    // Every open cell is on the open list exactly once (the held entry counts as on it).
    const auto key_of = [](const GridSearchState::OpenEntry& e) { return Key{e.f_bits, e.tie}; };
    if (state.open.size() + (state.has_held ? 1 : 0) != open_cells) return fail();
    const bool limited = m_budget.max_memory_bytes != SIZE_MAX;
    for (const GridSearchState::OpenEntry& e : state.open) {
        if (e.node >= bound || m_cells[e.node].stamp != open) return fail();
        // The open list grows as the search grew it (doubling) and only within the memory budget.
        if (limited && m_heap.size() == m_heap.capacity() && !grow_open()) {
            for (const auto& o : m_heap.entries()) m_cells[o.node].stamp = open;
            return out_of_memory();
        }
        m_cells[e.node].stamp = closed;  // temporarily: a second entry for the node is refused
        m_heap.push(e.node, key_of(e));
    }
    if (state.has_held) {
        if (state.held.node >= bound || m_cells[state.held.node].stamp != open) return fail();
        m_held_node = state.held.node;
        m_held_key = key_of(state.held);
    }
    for (const auto& e : m_heap.entries()) m_cells[e.node].stamp = open;
    m_sequence = state.sequence;
    m_stats = state.stats;
    m_map_version = state.map_version;
    return m_status = Status::InProgress;
}


void GridMap::restore_version(std::uint64_t version, std::uint32_t min_cost, std::uint64_t passability_changed_at) noexcept {
    m_version = version;
    ++m_passability_version;
    m_passability_changed_at = std::min(version, passability_changed_at);
    if (m_cost.empty()) {
        m_min_cost = 1;
        return;
    }
    recompute_min_cost();  // the exact minimum; a saved lower bound may be smaller
    m_min_cost = std::clamp<std::uint32_t>(min_cost, 1, m_min_cost);
}

// ---- the request queue -----------------------------------------------------------------------------

void PathRequestQueue::save_state(PathRequestQueueState& out) const {
    out = PathRequestQueueState{};
    out.lanes = static_cast<std::uint32_t>(m_lanes.size());
    out.generations.reserve(m_slots.size());
    for (std::uint32_t i = 0; i < m_slots.size(); ++i) {
        const Slot& slot = m_slots[i];
        out.generations.push_back(slot.generation);
        if (slot.state == RequestState::Unknown) continue;
        PathRequestQueueState::Request r;
        r.slot = i;
        r.state = slot.state;
        r.request = slot.request;
        r.uses_islands = slot.request.options.islands != nullptr;
        r.uses_dead_ends = slot.request.options.dead_ends != nullptr;
        r.uses_penalties = slot.request.options.penalties != nullptr;
        r.uses_areas = slot.request.options.areas != nullptr;
        r.uses_filter = slot.request.options.filter != nullptr;
        r.uses_layers = !slot.request.options.layers.empty();
        r.request.options.islands = nullptr;
        r.request.options.dead_ends = nullptr;
        r.request.options.penalties = nullptr;
        r.request.options.areas = nullptr;
        r.request.options.filter = nullptr;
        r.request.options.layers = {};
        r.request.options.budget.deadline = std::chrono::steady_clock::time_point::max();
        r.result = slot.result;
        r.sequence = slot.sequence;
        r.rank = slot.rank;
        r.lane = slot.lane;
        if (slot.state == RequestState::Running) (void)m_lanes[slot.lane].finder.save_search(r.search);
        out.requests.push_back(std::move(r));
    }
    for (const PendingEntry& e : m_pending) out.pending.push_back({e.rank, e.sequence, e.slot, e.generation});
    for (std::uint32_t i = m_free; i != kFree && out.free_slots.size() < m_slots.size(); i = m_slots[i].next_free)
        out.free_slots.push_back(i);
    out.completed = m_completed;
    out.sequence = m_sequence;
    out.frame = m_frame;
    out.seen_version = m_seen_version;
    out.lane_cursor = m_lane_cursor;
}

RestoreResult PathRequestQueue::restore_state(const PathRequestQueueState& state, const QueueBindings& bindings) {
    const auto fail = [&](std::string field, std::string message) -> RestoreResult {
        // Back to an empty queue on the same map, lanes kept.
        m_slots.clear();
        m_pending.clear();
        m_completed.clear();
        m_free = kFree;
        m_pending_count = m_live = 0;
        m_sequence = m_frame = 0;
        m_seen_version = m_space->version();
        m_lane_cursor = 0;
        for (Lane& lane : m_lanes) lane.slot = kFree;
        return RestoreError{std::move(field), std::move(message)};
    };
    const std::size_t lanes = m_lanes.size();
    if (state.lanes != lanes)
        return fail("lanes", "the saved queue has " + std::to_string(state.lanes) + " lanes, this one " + std::to_string(lanes));
    const std::size_t slots = state.generations.size();
    m_slots.clear();
    m_slots.resize(slots);
    m_pending.clear();
    m_completed.clear();
    m_free = kFree;
    m_pending_count = m_live = 0;
    for (Lane& lane : m_lanes) lane.slot = kFree;
    for (std::size_t i = 0; i < slots; ++i) {
        if (state.generations[i] == 0) return fail("generations[" + std::to_string(i) + "]", "a generation is never 0");
        m_slots[i].generation = state.generations[i];
    }
    std::uint32_t previous = 0;
    for (std::size_t k = 0; k < state.requests.size(); ++k) {
        const PathRequestQueueState::Request& r = state.requests[k];
        const std::string at = "requests[" + std::to_string(k) + "]";
        if (r.slot >= slots) return fail(at + ".slot", "slot " + std::to_string(r.slot) + " is not below the slot count " + std::to_string(slots));
        if (k > 0 && r.slot <= previous) return fail(at + ".slot", "requests must be listed once each, in slot order");
        previous = r.slot;
        if (r.state != RequestState::Pending && r.state != RequestState::Running && r.state != RequestState::Done)
            return fail(at + ".state", "a live request is pending, running or done");
        Slot& slot = m_slots[r.slot];
        slot.request = r.request;
        slot.request.options.budget.deadline = std::chrono::steady_clock::time_point::max();
        if (r.uses_islands && !bindings.islands) return fail(at + ".islands", "the request used islands and none were given to bind");
        if (r.uses_dead_ends && !bindings.dead_ends) return fail(at + ".dead_ends", "the request used dead ends and none were given to bind");
        if (r.uses_penalties && !bindings.penalties) return fail(at + ".penalties", "the request used penalties and no layer was given to bind");
        slot.request.options.islands = r.uses_islands ? bindings.islands : nullptr;
        slot.request.options.dead_ends = r.uses_dead_ends ? bindings.dead_ends : nullptr;
        slot.request.options.penalties = r.uses_penalties ? bindings.penalties : nullptr;
        if (r.uses_areas && !bindings.areas) return fail(at + ".areas", "the request used an area map and none was given to bind");
        if (r.uses_filter && !bindings.filter) return fail(at + ".filter", "the request used an area filter and none was given to bind");
        if (r.uses_layers && bindings.layers.empty()) return fail(at + ".layers", "the request used cost layers and none were given to bind");
        slot.request.options.areas = r.uses_areas ? bindings.areas : nullptr;
        slot.request.options.filter = r.uses_filter ? bindings.filter : nullptr;
        slot.request.options.layers = r.uses_layers ? bindings.layers : std::span<const CostLayer>{};
        for (std::size_t c = 0; c < r.result.path.cells.size(); ++c)
            if (!m_space->contains(r.result.path.cells[c]))
                return fail(at + ".result.cells[" + std::to_string(c) + "]", "a path cell off the map");
        slot.result = r.result;
        slot.sequence = r.sequence;
        slot.rank = r.rank;
        slot.state = r.state;
        slot.lane = kFree;
        slot.next_free = kFree;
        ++m_live;
        if (r.state == RequestState::Pending) ++m_pending_count;
        if (r.state == RequestState::Running) {
            if (r.lane >= lanes) return fail(at + ".lane", "lane " + std::to_string(r.lane) + " does not exist");
            Lane& lane = m_lanes[r.lane];
            if (lane.slot != kFree) return fail(at + ".lane", "two running requests share lane " + std::to_string(r.lane));
            const Status s = lane.finder.restore_search(*m_space, slot.request.start, slot.request.goal, slot.request.options, r.search);
            if (s != Status::InProgress)
                return fail(at + ".search", "the saved search does not fit the map or its request");
            lane.version = lane.finder.map_version();  // the next update restarts a search of an older map
            lane.slot = r.slot;
            slot.lane = r.lane;
        }
    }
    // The free list: every slot without a live request, each once.
    {
        std::vector<std::uint8_t> seen(slots, 0);
        for (const PathRequestQueueState::Request& r : state.requests) seen[r.slot] = 1;
        for (std::size_t k = state.free_slots.size(); k-- > 0;) {
            const std::uint32_t i = state.free_slots[k];
            const std::string at = "free_slots[" + std::to_string(k) + "]";
            if (i >= slots || seen[i]) return fail(at, "slot " + std::to_string(i) + " is not a free slot (or is listed twice)");
            seen[i] = 1;
            m_slots[i].next_free = m_free;
            m_free = i;
        }
        for (std::size_t i = 0; i < slots; ++i)
            if (!seen[i]) return fail("free_slots", "slot " + std::to_string(i) + " is neither live nor free");
    }
    for (std::size_t k = 0; k < state.pending.size(); ++k) {
        const PathRequestQueueState::PendingEntry& e = state.pending[k];
        if (e.slot >= slots) return fail("pending[" + std::to_string(k) + "].slot", "no such slot");
        m_pending.push_back(PendingEntry{e.rank, e.sequence, e.slot, e.generation});
    }
    if (!std::is_heap(m_pending.begin(), m_pending.end(), PendingOrder{}))
        return fail("pending", "the pending entries are not in heap order");
    // Every pending request must be reachable through the heap.
    {
        std::vector<std::uint8_t> queued(slots, 0);
        for (const PendingEntry& e : m_pending) queued[e.slot] |= e.generation == m_slots[e.slot].generation ? 1 : 0;
        for (std::size_t k = 0; k < state.requests.size(); ++k) {
            const PathRequestQueueState::Request& r = state.requests[k];
            if (r.state == RequestState::Pending && !queued[r.slot])
                return fail("requests[" + std::to_string(k) + "]", "a pending request has no entry in the pending heap");
        }
    }
    for (std::size_t k = 0; k < state.completed.size(); ++k) {
        if (state.completed[k].index >= slots) return fail("completed[" + std::to_string(k) + "]", "no such slot");
        m_completed.push_back(state.completed[k]);
    }
    if (state.lane_cursor >= lanes) return fail("lane_cursor", "not a lane");
    m_sequence = state.sequence;
    m_frame = state.frame;
    m_seen_version = state.seen_version;
    m_lane_cursor = state.lane_cursor;
    return std::nullopt;
}

}  // namespace gameplan::path
