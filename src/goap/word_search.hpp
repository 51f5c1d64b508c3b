#pragma once
// Best-first search over states that fit in two 64-bit words (a one-word world state, or a one-word
// sub-goal as care + values): the planner's path whenever the relevant atoms of a query fit in one word,
// which covers every small game domain and most large ones after relevance analysis.
//
// Why it exists beside search::SearchContext: for a typical small query (a handful of expansions) the
// generic path spends most of its time outside the actual search work: interning a state goes through
// a registry (hash over a runtime width, a per-id hash array, a copy into flat storage), then the
// engine keeps g / h / parent / label / stamp in five arrays indexed by that id, and its open-list key
// carries two composite costs. Here a node is one 48-byte record holding its key words, so interning,
// relaxing and the heuristic touch one cache line; nodes are created by the search that uses them, so
// they need no generation stamps (only the hash slots do); the open-list key is 24 bytes.
//
// It reuses the engine's parts: search::IndexedHeap (with a compact key), search::Budget, SearchStats
// and Status, and follows SearchContext's rules exactly, so results (plan, cost, expanded / generated /
// reopened counts) are identical to the generic path (the tests compare them query by query):
// - the open list pops the smallest f = g + h, ties to the smaller h, then to the later push (LIFO);
// - the goal test runs when a node reaches the top of the open list, before the budget checks;
// - the deadline is read every 64 expansions; the expansion budget counts the whole query;
// - an open node whose g improves gets a new key (fresh sequence number); a closed node whose g
//   improves is re-opened (counted in `reopened`); a node whose heuristic is infinite is dead for the
//   rest of the query; every relaxed edge counts as generated.
// Costs are PlanCost (cost, actions) compared lexicographically; heuristics bound the cost only.
//
// Memory: nodes, hash slots and heap grow to the largest query seen and are reused (no allocation
// after warm-up). Not thread-safe; one per planner.

#include "plan_cost.hpp"

#include <gameplan/search/indexed_heap.hpp>
#include <gameplan/search/search_context.hpp>
#include <gameplan/status.hpp>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdint>
#include <limits>
#include <vector>

namespace gameplan::goap::detail {

class WordSearch {
public:
    /// Open-list key: SearchContext<PlanCost>'s order (f, then h, then later push first) on a flat
    /// layout. f_actions = g_actions + space.length_bound(h): 0 for h_max and blind (they bound the cost
    /// only, as PlanCost{h, 0}), h / (largest action cost) for LM-cut.
    struct Key {
        double f;
        double h;
        std::uint32_t f_actions;
        std::uint32_t sequence;
        friend bool operator<(const Key& a, const Key& b) noexcept {
            if (a.f < b.f) return true;
            if (b.f < a.f) return false;
            if (a.f_actions != b.f_actions) return a.f_actions < b.f_actions;
            if (a.h < b.h) return true;
            if (b.h < a.h) return false;
            return a.sequence > b.sequence;
        }
    };

    enum class NodeState : std::uint8_t { Open, Closed, Dead };

    struct Node {
        std::uint64_t key0;  // forward: the state; backward: care
        std::uint64_t key1;  // forward: 0; backward: values
        double g_cost;
        double h;
        std::uint32_t g_actions;
        std::uint32_t parent;  // search::kNoNode for the root
        std::uint32_t label;   // action id of the edge parent -> this node
        NodeState state;
    };

    /// Pre-sizes storage for `states` nodes.
    void reserve(std::size_t states) {
        if (m_nodes.size() < states) grow_nodes(states);
        std::size_t slots = m_slots.empty() ? kInitialSlots : m_slots.size();
        while (slots < 2 * states) slots *= 2;
        if (slots > m_slots.size()) resize_table(slots);
        m_heap.reserve_entries(states);
    }

    /// Starts a search from the root (key0, key1) with g = 0.
    template <class Space>
    void begin(Space& space, std::uint64_t key0, std::uint64_t key1, const search::Budget& budget) {
        if (m_slots.empty()) resize_table(kInitialSlots);
        if (m_generation == UINT32_MAX) {
            for (Slot& s : m_slots) s.stamp = 0;
            m_generation = 0;
        }
        ++m_generation;
        m_count = 0;
        m_flat_size = 0;
        m_in_heap = false;
        m_stats = {};
        m_budget = budget;
        m_goal = search::kNoNode;
        m_status = Status::InProgress;
        m_limit = search::BudgetLimit::None;
        m_out_of_memory = false;
        m_sequence = 0;
        const double h = space.heuristic(key0, key1);
        const bool dead = !(h < kInf);
        const std::uint32_t root = add_node(key0, key1, 0, h, 0, search::kNoNode, UINT32_MAX,
                                            dead ? NodeState::Dead : NodeState::Open, slot_of(key0, key1));
        if (root == search::kNoNode) {
            exhausted(search::BudgetLimit::Memory);
            return;
        }
        if (!dead) push(root, Key{h, h, space.length_bound(h), ++m_sequence});
    }

    /// Runs up to `slice_expansions` expansions; see SearchContext::step.
    template <class Space>
    Status step(Space& space, std::uint64_t slice_expansions) {
        if (m_status != Status::InProgress) return m_status;
        const bool has_deadline = m_budget.deadline != std::chrono::steady_clock::time_point::max();
        std::uint64_t slice_left = slice_expansions;
        for (;;) {
            std::size_t at = 0;  // flat list: index of the minimum
            std::uint32_t id;
            if (!m_in_heap) {
                if (m_flat_size == 0) break;
                for (std::size_t i = 1; i < m_flat_size; ++i)
                    if (m_flat[i].key < m_flat[at].key) at = i;
                id = m_flat[at].node;
            } else {
                if (m_heap.empty()) break;
                id = m_heap.top().node;
            }
            const std::uint64_t key0 = m_nodes[id].key0, key1 = m_nodes[id].key1;
            if (space.is_goal(key0, key1)) {
                m_goal = id;
                return m_status = Status::Found;
            }
            if (m_stats.expanded >= m_budget.max_expansions) return exhausted(search::BudgetLimit::Expansions);
            if (has_deadline && (m_stats.expanded & 63u) == 0 && std::chrono::steady_clock::now() >= m_budget.deadline)
                return exhausted(search::BudgetLimit::Time);
            if (slice_left == 0) return Status::InProgress;
            --slice_left;
            if (!m_in_heap) m_flat[at] = m_flat[--m_flat_size];
            else m_heap.pop();
            m_nodes[id].state = NodeState::Closed;
            ++m_stats.expanded;
            const double g_cost = m_nodes[id].g_cost;
            const std::uint32_t g_actions = m_nodes[id].g_actions + 1;
            space.expand(key0, key1, [&](std::uint64_t s0, std::uint64_t s1, double step_cost, std::uint32_t label) {
                relax(space, id, g_cost + step_cost, g_actions, s0, s1, label);
            });
            if (m_out_of_memory) return exhausted(search::BudgetLimit::Memory);
        }
        return m_status = Status::NoPath;
    }

    [[nodiscard]] Status status() const noexcept { return m_status; }
    /// Which budget limit ended the search (None unless BudgetExhausted).
    [[nodiscard]] search::BudgetLimit budget_limit() const noexcept { return m_limit; }
    /// Bytes of the node records, hash slots and heap (at capacity).
    [[nodiscard]] std::size_t memory_bytes() const noexcept {
        return m_nodes.capacity() * sizeof(Node) + m_slots.capacity() * sizeof(Slot) + m_heap.memory_bytes();
    }
    [[nodiscard]] const search::SearchStats& stats() const noexcept { return m_stats; }
    [[nodiscard]] std::uint32_t goal() const noexcept { return m_goal; }
    [[nodiscard]] const Node& node(std::uint32_t id) const noexcept { return m_nodes[id]; }

private:
    static constexpr double kInf = std::numeric_limits<double>::infinity();
    static constexpr std::size_t kInitialSlots = 256;  // 2 KiB: a small query's table stays in L1

    struct Slot {
        std::uint32_t stamp = 0;
        std::uint32_t id = 0;
    };

    // Multiplicative (Fibonacci) hashing: the top bits of the product depend on every key bit, so the
    // table is indexed by them (m_shift = 64 - log2(slots)).
    [[nodiscard]] static std::uint64_t hash(std::uint64_t key0, std::uint64_t key1) noexcept {
        return (key0 ^ (key1 * 0xc4ceb9fe1a85ec53ULL)) * 0x9e3779b97f4a7c15ULL;
    }

    // The slot holding (key0, key1), or the empty slot where it belongs.
    [[nodiscard]] std::size_t slot_of(std::uint64_t key0, std::uint64_t key1) const noexcept {
        std::size_t slot = static_cast<std::size_t>(hash(key0, key1) >> m_shift);
        for (;;) {
            const Slot& s = m_slots[slot];
            if (s.stamp != m_generation) return slot;
            const Node& n = m_nodes[s.id];
            if (n.key0 == key0 && n.key1 == key1) return slot;
            slot = (slot + 1) & m_mask;
        }
    }

    // Stores a new node under a new id in `slot` (the empty slot slot_of() found for its key).
    std::uint32_t add_node(std::uint64_t key0, std::uint64_t key1, double g_cost, double h, std::uint32_t g_actions,
                           std::uint32_t parent, std::uint32_t label, NodeState state, std::size_t slot) {
        if (m_count == m_node_limit) {
            slot = make_room(key0, key1);
            if (slot == SIZE_MAX) return search::kNoNode;
        }
        const std::uint32_t id = static_cast<std::uint32_t>(m_count++);
        m_slots[slot] = Slot{m_generation, id};
        Node& n = m_nodes[id];
        n.key0 = key0;
        n.key1 = key1;
        n.g_cost = g_cost;
        n.h = h;
        n.g_actions = g_actions;
        n.parent = parent;
        n.label = label;
        n.state = state;
        return id;
    }

    // m_nodes is used as a buffer of m_nodes.size() records of which the first m_count are live, so
    // adding a node is a few stores; the heap's position array covers the same ids. The table is
    // kept at most half full. m_node_limit = the count at which either must grow before an insert.
    // Returns the key's slot in the (possibly rehashed) table.
    // SIZE_MAX (and m_out_of_memory) when growing would exceed the budget's memory limit.
    [[gnu::noinline]] std::size_t make_room(std::uint64_t key0, std::uint64_t key1) {
        if (m_budget.max_memory_bytes != SIZE_MAX) {
            const bool more_nodes = m_count == m_nodes.size(), more_slots = 2 * (m_count + 1) > m_slots.size();
            const std::size_t nodes = more_nodes ? std::max<std::size_t>(2 * m_count, 64) : m_nodes.size();
            const std::size_t slots = more_slots ? 2 * m_slots.size() : m_slots.size();
            // Node records, heap entries and positions for every node; old and new tables while rehashing.
            const std::size_t per_node = sizeof(Node) + sizeof(search::IndexedHeap<Key>::Entry) + sizeof(std::uint32_t);
            const std::size_t bytes = nodes * per_node + (slots + (more_slots ? m_slots.size() : 0)) * sizeof(Slot);
            if (bytes > m_budget.max_memory_bytes) {
                m_out_of_memory = true;
                return SIZE_MAX;
            }
        }
        if (m_count == m_nodes.size()) grow_nodes(2 * m_count);
        if (2 * (m_count + 1) > m_slots.size()) resize_table(2 * m_slots.size());
        return slot_of(key0, key1);
    }

    void grow_nodes(std::size_t count) {
        count = std::max<std::size_t>(count, 64);
        m_nodes.resize(count);
        m_heap.reserve_nodes(count);
        m_node_limit = std::min(m_nodes.size(), m_slots.size() / 2);
    }

    void resize_table(std::size_t slots) {
        m_slots.assign(slots, Slot{});
        m_node_limit = std::min(m_nodes.size(), slots / 2);
        m_shift = 64 - static_cast<unsigned>(std::countr_zero(slots));
        m_mask = slots - 1;
        m_generation = 1;
        for (std::uint32_t id = 0; id < m_count; ++id) {
            std::size_t slot = static_cast<std::size_t>(hash(m_nodes[id].key0, m_nodes[id].key1) >> m_shift);
            while (m_slots[slot].stamp == m_generation) slot = (slot + 1) & m_mask;
            m_slots[slot] = Slot{m_generation, id};
        }
    }

    template <class Space>
    void relax(Space& space, std::uint32_t from, double g_cost, std::uint32_t g_actions, std::uint64_t key0,
               std::uint64_t key1, std::uint32_t label) {
        ++m_stats.generated;
        const std::size_t slot = slot_of(key0, key1);
        if (m_slots[slot].stamp == m_generation) {
            const std::uint32_t id = m_slots[slot].id;
            Node& n = m_nodes[id];
            if (n.state == NodeState::Dead) return;
            if (!(g_cost < n.g_cost || (g_cost == n.g_cost && g_actions < n.g_actions))) return;
            n.g_cost = g_cost;
            n.g_actions = g_actions;
            n.parent = from;
            n.label = label;
            const Key key{g_cost + n.h, n.h, g_actions + space.length_bound(n.h), ++m_sequence};
            if (n.state == NodeState::Open) {
                decrease(id, key);
            } else {
                ++m_stats.reopened;
                n.state = NodeState::Open;
                push(id, key);
            }
            return;
        }
        const double h = space.heuristic(key0, key1);
        if (!(h < kInf)) {  // proved dead end: kept so later routes to it are ignored
            add_node(key0, key1, 0, h, 0, search::kNoNode, UINT32_MAX, NodeState::Dead, slot);
            return;
        }
        const std::uint32_t id = add_node(key0, key1, g_cost, h, g_actions, from, label, NodeState::Open, slot);
        if (id == search::kNoNode) return;  // out of memory: step() stops after this expansion
        push(id, Key{g_cost + h, h, g_actions + space.length_bound(h), ++m_sequence});
    }

    // The open list starts as an unsorted array scanned on pop (a small query never holds more than a
    // few open nodes, and a scan of those is cheaper than sifting a heap); when it would overflow, its
    // entries move to the indexed heap for the rest of the query. Both pop the minimum of the same
    // total order, so the switch cannot change the result.
    Status exhausted(search::BudgetLimit limit) noexcept {
        m_limit = limit;
        return m_status = Status::BudgetExhausted;
    }

    void push(std::uint32_t id, const Key& key) {
        if (m_flat_size < kFlatCapacity && !m_in_heap) {
            Entry& e = m_flat[m_flat_size++];
            e.key = key;
            e.node = id;
            return;
        }
        push_to_heap(id, key);
    }

    [[gnu::noinline]] void push_to_heap(std::uint32_t id, const Key& key) {
        if (!m_in_heap) spill();
        m_heap.push(id, key);
    }

    void decrease(std::uint32_t id, const Key& key) {
        if (m_in_heap) {
            m_heap.decrease(id, key);
            return;
        }
        for (std::size_t i = 0;; ++i)
            if (m_flat[i].node == id) {
                m_flat[i].key = key;
                return;
            }
    }

    [[gnu::noinline]] void spill() {
        m_heap.clear();
        for (std::size_t i = 0; i < m_flat_size; ++i) m_heap.push(m_flat[i].node, m_flat[i].key);
        m_flat_size = 0;
        m_in_heap = true;
    }

    static constexpr std::size_t kFlatCapacity = 16;
    using Entry = search::IndexedHeap<Key>::Entry;

    std::vector<Node> m_nodes;
    std::size_t m_node_limit = 0;
    std::size_t m_count = 0;
    Entry m_flat[kFlatCapacity];
    std::size_t m_flat_size = 0;
    bool m_in_heap = false;
    std::vector<Slot> m_slots;
    std::size_t m_mask = 0;
    unsigned m_shift = 64;
    std::uint32_t m_generation = 0;
    search::IndexedHeap<Key> m_heap;
    search::SearchStats m_stats;
    search::Budget m_budget;
    std::uint32_t m_goal = search::kNoNode;
    Status m_status = Status::NoPath;
    search::BudgetLimit m_limit = search::BudgetLimit::None;
    bool m_out_of_memory = false;
    std::uint32_t m_sequence = 0;
};

}  // namespace gameplan::goap::detail
