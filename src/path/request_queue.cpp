#include <gameplan/path/request_queue.hpp>

#include <algorithm>
#include <cmath>

namespace gameplan::path {

namespace {
constexpr std::uint32_t kFree = UINT32_MAX;

// std::push_heap keeps the *largest* element on top: higher rank first, then earlier submission.
struct PendingOrder {
    template <class Entry>
    bool operator()(const Entry& a, const Entry& b) const noexcept {
        return a.rank < b.rank || (a.rank == b.rank && a.sequence > b.sequence);
    }
};
}  // namespace

PathRequestQueue::PathRequestQueue(const GridMap& map, const QueueOptions& options)
    : m_map(&map), m_options(options), m_seen_version(map.version()) {
    m_lanes.resize(std::max<std::uint32_t>(1, m_options.lanes));
    for (Lane& lane : m_lanes) lane.finder.reserve(map);
}

void PathRequestQueue::reserve(std::size_t requests, std::size_t path_cells) {
    m_pending.reserve(requests);
    m_completed.reserve(requests);
    if (requests > m_slots.size()) {
        m_slots.reserve(requests);
        // New slots go on the free list in index order, so the first submissions take the lowest ones.
        const auto first = static_cast<std::uint32_t>(m_slots.size());
        m_slots.resize(requests);
        for (std::uint32_t index = static_cast<std::uint32_t>(requests); index-- > first;) {
            m_slots[index].next_free = m_free;
            m_free = index;
        }
    }
    for (Slot& slot : m_slots) slot.result.path.cells.reserve(path_cells);
}

const PathRequestQueue::Slot* PathRequestQueue::live_slot(PathHandle handle) const noexcept {
    if (handle.index >= m_slots.size()) return nullptr;
    const Slot& slot = m_slots[handle.index];
    return slot.generation == handle.generation && slot.state != RequestState::Unknown ? &slot : nullptr;
}

RequestState PathRequestQueue::state(PathHandle handle) const noexcept {
    const Slot* slot = live_slot(handle);
    return slot ? slot->state : RequestState::Unknown;
}

std::uint64_t PathRequestQueue::expanded(PathHandle handle) const noexcept {
    const Slot* slot = live_slot(handle);
    return slot ? slot->result.expanded : 0;
}

const PathResult* PathRequestQueue::result(PathHandle handle) const noexcept {
    const Slot* slot = live_slot(handle);
    return slot && slot->state == RequestState::Done ? &slot->result : nullptr;
}

std::size_t PathRequestQueue::running_count() const noexcept {
    return static_cast<std::size_t>(
        std::count_if(m_lanes.begin(), m_lanes.end(), [](const Lane& lane) { return lane.slot != kFree; }));
}

void PathRequestQueue::push_pending(std::uint32_t index) {
    const Slot& slot = m_slots[index];
    m_pending.push_back(PendingEntry{slot.rank, slot.sequence, index, slot.generation});
    std::push_heap(m_pending.begin(), m_pending.end(), PendingOrder{});
}

bool PathRequestQueue::pop_pending(std::uint32_t& index) noexcept {
    while (!m_pending.empty()) {
        std::pop_heap(m_pending.begin(), m_pending.end(), PendingOrder{});
        const PendingEntry entry = m_pending.back();
        m_pending.pop_back();
        const Slot& slot = m_slots[entry.slot];
        // Entries of cancelled requests stay in the heap until they surface; skip them here.
        if (slot.generation == entry.generation && slot.state == RequestState::Pending) {
            index = entry.slot;
            return true;
        }
    }
    return false;
}

PathHandle PathRequestQueue::submit(const PathRequest& request) {
    std::uint32_t index;
    if (m_free != kFree) {
        index = m_free;
        m_free = m_slots[index].next_free;
    } else {
        index = static_cast<std::uint32_t>(m_slots.size());
        m_slots.emplace_back();
    }
    Slot& slot = m_slots[index];
    slot.request = request;
    slot.result.status = Status::NoPath;
    slot.result.path.cells.clear();  // keeps the buffer
    slot.result.path.cost = 0.0;
    slot.result.expanded = 0;
    slot.result.restarts = 0;
    slot.result.map_version = m_map->version();
    slot.result.submitted_frame = m_frame;
    slot.result.completed_frame = 0;
    slot.sequence = m_sequence++;
    // Aging: rank by p - s / N, scaled by N to stay integral. The frame a request was submitted in is
    // fixed, so ranks never change and a heap keeps them ordered.
    const std::int64_t aging = m_options.aging_frames;
    slot.rank = aging > 0 ? std::int64_t{request.priority} * aging - static_cast<std::int64_t>(m_frame)
                          : std::int64_t{request.priority};
    slot.lane = kFree;
    slot.state = RequestState::Pending;
    slot.next_free = kFree;
    ++m_pending_count;
    ++m_live;
    push_pending(index);
    return PathHandle{index, slot.generation};
}

void PathRequestQueue::release(std::uint32_t index) noexcept {
    Slot& slot = m_slots[index];
    slot.state = RequestState::Unknown;
    slot.lane = kFree;
    if (++slot.generation == 0) slot.generation = 1;  // 0 marks invalid handles
    slot.next_free = m_free;
    m_free = index;
    --m_live;
}

bool PathRequestQueue::cancel(PathHandle handle) noexcept {
    if (!live_slot(handle)) return false;
    Slot& slot = m_slots[handle.index];
    if (slot.state == RequestState::Pending) --m_pending_count;
    if (slot.state == RequestState::Running) m_lanes[slot.lane].slot = kFree;  // its search is simply dropped
    release(handle.index);
    return true;
}

bool PathRequestQueue::take(PathHandle handle, PathResult& out) noexcept {
    const Slot* live = live_slot(handle);
    if (!live || live->state != RequestState::Done) return false;
    Slot& slot = m_slots[handle.index];
    out.status = slot.result.status;
    out.path.cost = slot.result.path.cost;
    out.path.cells.swap(slot.result.path.cells);  // the caller's old buffer comes back to the slot
    out.expanded = slot.result.expanded;
    out.restarts = slot.result.restarts;
    out.map_version = slot.result.map_version;
    out.submitted_frame = slot.result.submitted_frame;
    out.completed_frame = slot.result.completed_frame;
    release(handle.index);
    return true;
}

void PathRequestQueue::start(Lane& lane, std::uint32_t index, QueueUpdateStats& stats) {
    Slot& slot = m_slots[index];
    slot.state = RequestState::Running;
    slot.lane = static_cast<std::uint32_t>(&lane - m_lanes.data());
    lane.slot = index;
    --m_pending_count;
    ++stats.started;
    const Status status = lane.finder.begin(*m_map, slot.request.start, slot.request.goal, slot.request.options);
    if (status != Status::InProgress) complete(lane, status, stats);
}

void PathRequestQueue::complete(Lane& lane, Status status, QueueUpdateStats& stats) {
    const std::uint32_t index = lane.slot;
    Slot& slot = m_slots[index];
    (void)lane.finder.finish(slot.result.path);
    slot.result.status = status;
    slot.result.map_version = m_map->version();
    slot.result.completed_frame = m_frame;
    slot.state = RequestState::Done;
    slot.lane = kFree;
    lane.slot = kFree;
    m_completed.push_back(PathHandle{index, slot.generation});
    ++stats.completed;
}

bool PathRequestQueue::path_still_valid(const Slot& slot) const noexcept {
    const std::vector<GridPoint>& cells = slot.result.path.cells;
    const GridSearchOptions& options = slot.request.options;
    if (cells.empty()) return false;
    // The step costs of the request's own rules: terrain, area multipliers, forbidden areas, layers.
    const double cost = query_path_cost(*m_map, cells, options);
    if (!std::isfinite(cost)) return false;
    // Penalties and cost layers are advice that may change every frame: such a result is only checked
    // for legality (its steps, forbidden areas included).
    if (options.penalties != nullptr || !options.layers.empty()) return true;
    const double expected = slot.result.path.cost;
    return std::abs(cost - expected) <= 1e-9 * std::max(1.0, expected);
}

void PathRequestQueue::revalidate_done(QueueUpdateStats& stats) {
    const std::uint64_t version = m_map->version();
    for (std::uint32_t index = 0; index < m_slots.size(); ++index) {
        Slot& slot = m_slots[index];
        if (slot.state != RequestState::Done || slot.result.map_version == version) continue;
        ++stats.revalidated;
        if (slot.result.status == Status::Found && path_still_valid(slot)) {
            slot.result.map_version = version;
            continue;
        }
        slot.state = RequestState::Pending;  // same rank and sequence: it goes back where it was
        ++m_pending_count;
        ++stats.requeued;
        push_pending(index);
    }
}

QueueUpdateStats PathRequestQueue::update(std::uint64_t max_expansions) {
    QueueUpdateStats stats;
    m_completed.clear();
    ++m_frame;
    if (m_map->version() != m_seen_version) {
        if (m_options.revalidate_done) revalidate_done(stats);
        m_seen_version = m_map->version();
    }
    const auto lanes = static_cast<std::uint32_t>(m_lanes.size());
    const std::uint32_t cursor = m_lane_cursor;
    m_lane_cursor = (m_lane_cursor + 1) % lanes;
    std::uint64_t remaining = max_expansions;

    // Each round fills free lanes, then splits what is left of the budget evenly over the running
    // searches. A search stops early only by finishing, so every round either spends the whole budget
    // or finishes a search: the loop ends.
    while (remaining > 0) {
        for (std::uint32_t k = 0; k < lanes; ++k) {
            Lane& lane = m_lanes[(cursor + k) % lanes];
            std::uint32_t index;
            while (lane.slot == kFree && pop_pending(index)) start(lane, index, stats);
        }
        std::uint64_t running = 0;
        for (const Lane& lane : m_lanes) running += lane.slot != kFree;
        if (running == 0) break;
        const std::uint64_t share = remaining / running;
        std::uint64_t extra = remaining % running;
        for (std::uint32_t k = 0; k < lanes; ++k) {
            Lane& lane = m_lanes[(cursor + k) % lanes];
            if (lane.slot == kFree) continue;
            std::uint64_t slice = share;
            if (extra > 0) {
                ++slice;
                --extra;
            }
            if (slice == 0) continue;
            Slot& slot = m_slots[lane.slot];
            if (lane.finder.map_version() != m_map->version()) {
                ++slot.result.restarts;
                ++stats.restarted;
                const Status status = lane.finder.begin(*m_map, slot.request.start, slot.request.goal, slot.request.options);
                if (status != Status::InProgress) {
                    complete(lane, status, stats);
                    continue;
                }
            }
            const std::uint64_t before = lane.finder.stats().expanded;
            const Status status = lane.finder.step(slice);
            const std::uint64_t used = lane.finder.stats().expanded - before;
            remaining -= used;
            stats.expanded += used;
            slot.result.expanded += used;
            if (status != Status::InProgress) complete(lane, status, stats);
        }
    }
    return stats;
}

}  // namespace gameplan::path
