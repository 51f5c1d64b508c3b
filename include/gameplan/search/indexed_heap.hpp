#pragma once
/// @file indexed_heap.hpp
/// A d-ary (binary by default) min-heap of dense node indices with O(log n) decrease-key.
///
/// Every entry carries its key inline (so comparisons never chase a pointer into the node arrays) and
/// the heap keeps a position array indexed by node, so a node's entry can be found and moved up in
/// O(log n) when a cheaper route to it is found. The position array is sized to the largest node index
/// ever seen and is *not* cleared between searches: a position is only meaningful while the caller
/// knows the node is in the heap (the search context tracks that with its generation stamps).
///
/// Ordering is strict and deterministic: `Key::operator<` must be a strict weak order in which no two
/// distinct live entries compare equal (the search engine appends an insertion sequence number).

#include <cstdint>
#include <utility>
#include <vector>

namespace gameplan::search {

/// Index of a node in a search space. Dense: every search space maps its states to [0, bound).
using NodeIndex = std::uint32_t;

/// Sentinel for "no node" (no parent, no goal).
inline constexpr NodeIndex kNoNode = UINT32_MAX;

/// d-ary min-heap keyed by `Key`, holding node indices, with decrease-key.
/// @tparam Key totally ordered by `operator<`; small and trivially copyable.
/// @tparam Arity children per node: 2 (binary, the default) or more. A 4-ary heap is shallower, so
///         pop and sift-up touch half as many levels; the grid pathfinder uses it. The pop order is the
///         same for every arity because the key order is total.
/// Not thread-safe; one per search context.
template <class Key, unsigned Arity = 2>
class IndexedHeap {
    static_assert(Arity >= 2, "a heap needs at least two children per node");

public:
    struct Entry {
        Key key;
        NodeIndex node;
    };

    /// Makes `position()` valid for node indices below `bound`. Allocates only when growing, and then
    /// exactly `bound` positions (so a memory budget can count what it will hold).
    void reserve_nodes(std::size_t bound) {
        if (m_position.size() < bound) {
            m_position.reserve(bound);
            m_position.resize(bound);
        }
    }
    /// Reserves room for `count` simultaneous entries. Allocates only when growing.
    void reserve_entries(std::size_t count) { m_entries.reserve(count); }
    /// Entries the heap has room for: a push at this size allocates (for a caller that checks a memory
    /// budget before the open list grows).
    [[nodiscard]] std::size_t capacity() const noexcept { return m_entries.capacity(); }
    /// Node indices the position array has room for (its capacity).
    [[nodiscard]] std::size_t node_capacity() const noexcept { return m_position.capacity(); }

    /// Bytes held by the heap's storage (entries and the position array, at capacity).
    [[nodiscard]] std::size_t memory_bytes() const noexcept {
        return m_entries.capacity() * sizeof(Entry) + m_position.capacity() * sizeof(std::uint32_t);
    }

    [[nodiscard]] bool empty() const noexcept { return m_entries.empty(); }
    [[nodiscard]] std::size_t size() const noexcept { return m_entries.size(); }
    void clear() noexcept { m_entries.clear(); }

    [[nodiscard]] const Entry& top() const noexcept { return m_entries.front(); }
    /// Every entry, in heap order (for saving a search; the pop order depends only on the keys).
    [[nodiscard]] const std::vector<Entry>& entries() const noexcept { return m_entries; }

    /// Inserts `node` (which must not be in the heap). `reserve_nodes` must cover `node`.
    void push(NodeIndex node, const Key& key) {
        m_entries.push_back(Entry{key, node});
        sift_up(m_entries.size() - 1);
    }

    /// Removes and returns the minimum entry. Precondition: !empty().
    Entry pop() noexcept {
        Entry result = m_entries.front();
        Entry last = m_entries.back();
        m_entries.pop_back();
        if (!m_entries.empty()) {
            m_entries.front() = last;
            m_position[last.node] = 0;
            sift_down(0);
        }
        return result;
    }

    /// Lowers the key of `node`, which must be in the heap, to `key` (which must not be greater).
    void decrease(NodeIndex node, const Key& key) noexcept {
        const std::size_t at = m_position[node];
        m_entries[at].key = key;
        sift_up(at);
    }

private:
    // The sift loops work on raw pointers so the compiler can keep them in registers across the
    // position-array stores.
    void sift_up(std::size_t at) noexcept {
        Entry* const entries = m_entries.data();
        std::uint32_t* const position = m_position.data();
        const Entry moving = entries[at];
        while (at > 0) {
            const std::size_t parent = (at - 1) / Arity;
            if (!(moving.key < entries[parent].key)) break;
            entries[at] = entries[parent];
            position[entries[at].node] = static_cast<std::uint32_t>(at);
            at = parent;
        }
        entries[at] = moving;
        position[moving.node] = static_cast<std::uint32_t>(at);
    }

    void sift_down(std::size_t at) noexcept {
        Entry* const entries = m_entries.data();
        std::uint32_t* const position = m_position.data();
        const std::size_t count = m_entries.size();
        const Entry moving = entries[at];
        for (;;) {
            const std::size_t first = Arity * at + 1;
            if (first >= count) break;
            std::size_t child = first;
            if (first + Arity <= count) {  // a full group: fixed trip count, unrolled by the compiler
                for (std::size_t c = first + 1; c < first + Arity; ++c)
                    child = entries[c].key < entries[child].key ? c : child;
            } else {
                for (std::size_t c = first + 1; c < count; ++c)
                    child = entries[c].key < entries[child].key ? c : child;
            }
            if (!(entries[child].key < moving.key)) break;
            entries[at] = entries[child];
            position[entries[at].node] = static_cast<std::uint32_t>(at);
            at = child;
        }
        entries[at] = moving;
        position[moving.node] = static_cast<std::uint32_t>(at);
    }

    std::vector<Entry> m_entries;
    std::vector<std::uint32_t> m_position;  // node -> index in m_entries; valid only while queued
};

}  // namespace gameplan::search
