#pragma once
// The scheduler of the frame-budgeted request queues (SearchRequestQueue, request_queue.hpp): slots and
// salted handles, the pending heap with aging, lanes sharing the update's budget, restarts after a
// space change and the check of finished results. Included by the files that instantiate it for their
// traits: request_queue.cpp (grid) and request_queue_graph.cpp (graph, hex).
#include <gameplan/path/request_queue.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gameplan::path {

namespace request_queue_detail {
inline constexpr std::uint32_t kFree = UINT32_MAX;  // no slot / no lane
}  // namespace request_queue_detail

template <class Traits>
SearchRequestQueue<Traits>::SearchRequestQueue(const Space& space, const QueueOptions& options)
    : m_space(&space), m_options(options), m_seen_version(Traits::version(space)) {
    if (m_options.lanes > kMaxQueueLanes)
        throw std::invalid_argument("request queue: lanes must be at most " + std::to_string(kMaxQueueLanes) + " (got " +
                                    std::to_string(m_options.lanes) + ")");
    m_lanes.resize(std::max<std::uint32_t>(1, m_options.lanes));
    for (Lane& lane : m_lanes) lane.finder.reserve(space);
}

template <class Traits>
std::uint64_t SearchRequestQueue<Traits>::version() const noexcept {
    return Traits::version(*m_space);
}

template <class Traits>
bool SearchRequestQueue<Traits>::must_restart(std::uint64_t since) const noexcept {
    if (since == version()) return false;
    if constexpr (!Traits::kSearchesGoOn) {
        return true;
    } else {
        return m_options.restart_on_cost_change ||
               (m_options.restart_on_passability_change && Traits::structure_changed(*m_space, since));
    }
}

template <class Traits>
bool SearchRequestQueue<Traits>::needs_fresh_search(Lane& lane, Status status) {
    if constexpr (!Traits::kSearchesGoOn) {
        return false;
    } else {
        // Only a search that went on through a change of passability (restart_on_passability_change off).
        if (lane.version == version() || !Traits::structure_changed(*m_space, lane.version)) return false;
        if (status == Status::NoPath) return true;  // a way may have opened where the search had already been
        if (status != Status::Found) return false;
        Slot& slot = m_slots[lane.slot];
        (void)lane.finder.finish(slot.result.path);
        return !Traits::still_legal(*m_space, slot.request, slot.result);  // it may cross a cell closed since
    }
}

template <class Traits>
bool SearchRequestQueue<Traits>::restart(Lane& lane, QueueUpdateStats& stats) {
    Slot& slot = m_slots[lane.slot];
    ++slot.result.restarts;
    ++stats.restarted;
    const Status status = begin(lane, slot);
    if (status == Status::InProgress) return true;
    complete(lane, status, stats);
    return false;
}

template <class Traits>
void SearchRequestQueue<Traits>::reserve(std::size_t requests, std::size_t path_length) {
    m_pending.reserve(requests);
    m_completed.reserve(requests);
    if (requests > m_slots.size()) {
        m_slots.reserve(requests);
        // New slots go on the free list in index order, so the first submissions take the lowest ones.
        const auto first = static_cast<std::uint32_t>(m_slots.size());
        m_slots.resize(requests);
        for (auto index = static_cast<std::uint32_t>(requests); index-- > first;) {
            m_slots[index].next_free = m_free;
            m_free = index;
        }
    }
    for (Slot& slot : m_slots) Traits::buffer(slot.result.path).reserve(path_length);
}

template <class Traits>
auto SearchRequestQueue<Traits>::live_slot(PathHandle handle) const noexcept -> const Slot* {
    if (handle.index >= m_slots.size()) return nullptr;
    const Slot& slot = m_slots[handle.index];
    return slot.generation == handle.generation && slot.state != RequestState::Unknown ? &slot : nullptr;
}

template <class Traits>
RequestState SearchRequestQueue<Traits>::state(PathHandle handle) const noexcept {
    const Slot* slot = live_slot(handle);
    return slot ? slot->state : RequestState::Unknown;
}

template <class Traits>
std::uint64_t SearchRequestQueue<Traits>::expanded(PathHandle handle) const noexcept {
    const Slot* slot = live_slot(handle);
    return slot ? slot->result.expanded : 0;
}

template <class Traits>
auto SearchRequestQueue<Traits>::result(PathHandle handle) const noexcept -> const Result* {
    const Slot* slot = live_slot(handle);
    return slot && slot->state == RequestState::Done ? &slot->result : nullptr;
}

template <class Traits>
std::size_t SearchRequestQueue<Traits>::running_count() const noexcept {
    return static_cast<std::size_t>(std::count_if(m_lanes.begin(), m_lanes.end(), [](const Lane& lane) {
        return lane.slot != request_queue_detail::kFree;
    }));
}

template <class Traits>
void SearchRequestQueue<Traits>::push_pending(std::uint32_t index) {
    const Slot& slot = m_slots[index];
    m_pending.push_back(PendingEntry{slot.rank, slot.sequence, index, slot.generation});
    std::push_heap(m_pending.begin(), m_pending.end(), PendingOrder{});
}

template <class Traits>
bool SearchRequestQueue<Traits>::pop_pending(std::uint32_t& index) noexcept {
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

template <class Traits>
PathHandle SearchRequestQueue<Traits>::submit(const Request& request) {
    using request_queue_detail::kFree;
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
    slot.result.limit = search::BudgetLimit::None;
    Traits::buffer(slot.result.path).clear();  // keeps the buffer
    slot.result.path.cost = 0.0;
    slot.result.expanded = 0;
    slot.result.restarts = 0;
    slot.result.map_version = version();
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

template <class Traits>
void SearchRequestQueue<Traits>::release(std::uint32_t index) noexcept {
    Slot& slot = m_slots[index];
    slot.state = RequestState::Unknown;
    slot.lane = request_queue_detail::kFree;
    if (++slot.generation == 0) slot.generation = 1;  // 0 marks invalid handles
    slot.next_free = m_free;
    m_free = index;
    --m_live;
}

template <class Traits>
bool SearchRequestQueue<Traits>::cancel(PathHandle handle) noexcept {
    if (!live_slot(handle)) return false;
    Slot& slot = m_slots[handle.index];
    if (slot.state == RequestState::Pending) --m_pending_count;
    // A running search is simply dropped.
    if (slot.state == RequestState::Running) m_lanes[slot.lane].slot = request_queue_detail::kFree;
    release(handle.index);
    return true;
}

template <class Traits>
bool SearchRequestQueue<Traits>::take(PathHandle handle, Result& out) noexcept {
    const Slot* live = live_slot(handle);
    if (!live || live->state != RequestState::Done) return false;
    Slot& slot = m_slots[handle.index];
    out.status = slot.result.status;
    out.limit = slot.result.limit;
    out.path.cost = slot.result.path.cost;
    Traits::buffer(out.path).swap(Traits::buffer(slot.result.path));  // the caller's old buffer comes back
    out.expanded = slot.result.expanded;
    out.restarts = slot.result.restarts;
    out.map_version = slot.result.map_version;
    out.submitted_frame = slot.result.submitted_frame;
    out.completed_frame = slot.result.completed_frame;
    release(handle.index);
    return true;
}

template <class Traits>
Status SearchRequestQueue<Traits>::begin(Lane& lane, const Slot& slot) {
    lane.version = version();
    return lane.finder.begin(*m_space, slot.request.start, slot.request.goal, slot.request.options);
}

template <class Traits>
void SearchRequestQueue<Traits>::start(Lane& lane, std::uint32_t index, QueueUpdateStats& stats) {
    Slot& slot = m_slots[index];
    slot.state = RequestState::Running;
    slot.lane = static_cast<std::uint32_t>(&lane - m_lanes.data());
    lane.slot = index;
    --m_pending_count;
    ++stats.started;
    const Status status = begin(lane, slot);
    if (status != Status::InProgress) complete(lane, status, stats);
}

template <class Traits>
void SearchRequestQueue<Traits>::complete(Lane& lane, Status status, QueueUpdateStats& stats) {
    const std::uint32_t index = lane.slot;
    Slot& slot = m_slots[index];
    (void)lane.finder.finish(slot.result.path);
    slot.result.status = status;
    slot.result.limit = lane.finder.budget_limit();
    // The search began on this version, or on an older one that differs in costs alone (update() restarts
    // the others first): priced on the map as it is now.
    if constexpr (Traits::kSearchesGoOn)
        if (status == Status::Found && lane.version != version()) Traits::reprice(*m_space, slot.request, slot.result);
    slot.result.map_version = version();
    slot.result.completed_frame = m_frame;
    slot.state = RequestState::Done;
    slot.lane = request_queue_detail::kFree;
    lane.slot = request_queue_detail::kFree;
    m_completed.push_back(PathHandle{index, slot.generation});
    ++stats.completed;
}

template <class Traits>
void SearchRequestQueue<Traits>::revalidate_done(QueueUpdateStats& stats) {
    const std::uint64_t now = version();
    for (std::uint32_t index = 0; index < m_slots.size(); ++index) {
        Slot& slot = m_slots[index];
        if (slot.state != RequestState::Done || slot.result.map_version == now) continue;
        ++stats.revalidated;
        // A found path is kept while legal at the same cost; no path (or an invalid query) stands when costs
        // alone changed (they open no way); anything else is searched again.
        const Status status = slot.result.status;
        bool costs_only = false;
        if constexpr (Traits::kSearchesGoOn)
            costs_only = !m_options.restart_on_cost_change && !Traits::structure_changed(*m_space, slot.result.map_version);
        const bool kept = status == Status::Found ? Traits::still_valid(*m_space, slot.request, slot.result)
                                                  : (status == Status::NoPath || status == Status::InvalidQuery) && costs_only;
        if (kept) {
            slot.result.map_version = now;
            continue;
        }
        slot.state = RequestState::Pending;  // same rank and sequence: it goes back where it was
        ++m_pending_count;
        ++stats.requeued;
        push_pending(index);
    }
}

template <class Traits>
QueueUpdateStats SearchRequestQueue<Traits>::update(std::uint64_t max_expansions) {
    using request_queue_detail::kFree;
    QueueUpdateStats stats;
    m_completed.clear();
    ++m_frame;
    if (version() != m_seen_version) {
        if (m_options.revalidate_done) revalidate_done(stats);
        m_seen_version = version();
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
            // The space changed under the search: start it again.
            if (must_restart(lane.version) && !restart(lane, stats)) continue;
            const std::uint64_t before = lane.finder.stats().expanded;
            const Status status = lane.finder.step(slice);
            const std::uint64_t used = lane.finder.stats().expanded - before;
            remaining -= used;
            stats.expanded += used;
            slot.result.expanded += used;
            if (status == Status::InProgress) continue;
            if (needs_fresh_search(lane, status)) {  // went on through a change of passability that spoilt it
                (void)restart(lane, stats);
                continue;
            }
            complete(lane, status, stats);
        }
    }
    return stats;
}

}  // namespace gameplan::path
