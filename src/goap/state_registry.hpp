#pragma once
// State registry: interns fixed-width bit states (world states, or care+values sub-goals) and hands
// out dense ids 0, 1, 2, ... in first-seen order, as Fast Downward's StateRegistry does. The search
// engine then keeps all per-node data in flat arrays indexed by those ids.
//
// Layout: the states live back to back in one flat word array (id * width); a power-of-two open-
// addressing table (linear probing, load <= 1/2) maps a state to its id. Each slot carries the
// generation of the query that wrote it, so reset() is O(1): stale slots read as empty. A per-id copy
// of the 32-bit hash lets probes skip most word comparisons and makes growth a rehash without
// recomputing hashes. Nothing shrinks; after warm-up interning allocates nothing.
//
// Width is a runtime value, but intern<kWidth>() takes it as a template argument when known at compile
// time (kWidth = 0 means "use the runtime width") so the one-word loops compile to straight-line code.

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace gameplan::goap::detail {

class StateRegistry {
public:
    /// Forgets every state (O(1)) and sets the width in words of the states to come.
    void reset(std::size_t width) {
        m_width = width;
        m_count = 0;
        if (m_generation == UINT32_MAX) {
            for (Slot& s : m_table) s.stamp = 0;
            m_generation = 0;
        }
        ++m_generation;
        if (m_table.empty()) rehash(1024);
    }

    /// Pre-sizes storage for `states` states of `width` words.
    void reserve(std::size_t states, std::size_t width) {
        if (m_words.size() < states * width) m_words.resize(states * width);
        if (m_hashes.size() < states) m_hashes.resize(states);
        std::size_t slots = m_table.empty() ? 1024 : m_table.size();
        while (slots < states * 2) slots *= 2;
        if (slots > m_table.size()) {
            const std::size_t keep = m_count;
            m_count = 0;  // nothing to re-insert: reserve is called between queries
            rehash(slots);
            m_count = keep;
        }
    }

    /// What intern() returns when storing a new state would take the registry past its memory limit.
    static constexpr std::uint32_t kFull = UINT32_MAX;

    /// Memory budget of the registry: intern() refuses (returns kFull) a new state whose storage would
    /// take `memory_bytes() + other_bytes()` past `limit`; `other` reports the rest of the search's
    /// storage (the engine's arrays). SIZE_MAX = unlimited.
    void set_memory_limit(std::size_t limit, std::size_t (*other)(const void*) = nullptr, const void* other_arg = nullptr) noexcept {
        m_limit = limit;
        m_other = other;
        m_other_arg = other_arg;
        m_full = false;
    }
    /// The same, with the rest of the search's storage reported by `engine.engine_bytes()` (the
    /// planners' search::SearchContext), which must outlive the query.
    template <class Engine>
    void set_memory_limit(std::size_t limit, const Engine& engine) noexcept {
        set_memory_limit(limit, [](const void* e) { return static_cast<const Engine*>(e)->engine_bytes(); }, &engine);
    }
    /// The registry's bytes as the engine's memory budget sees them (a search space's `memory_bytes()`):
    /// past any limit once intern() has refused a state, so that the engine stops too.
    [[nodiscard]] std::size_t budget_bytes() const noexcept { return m_full ? SIZE_MAX : memory_bytes(); }
    /// Bytes held by the registry (at capacity).
    [[nodiscard]] std::size_t memory_bytes() const noexcept {
        return m_words.capacity() * sizeof(std::uint64_t) + m_hashes.capacity() * sizeof(std::uint32_t) +
               m_table.capacity() * sizeof(Slot);
    }

    [[nodiscard]] std::size_t size() const noexcept { return m_count; }
    [[nodiscard]] std::size_t width() const noexcept { return m_width; }
    [[nodiscard]] const std::uint64_t* state(std::uint32_t id) const noexcept { return m_words.data() + std::size_t{id} * m_width; }

    /// Id of the state `words` (width words), adding it if new. `words` must not point into the registry.
    template <std::size_t kWidth>
    std::uint32_t intern(const std::uint64_t* words) {
        const std::size_t width = kWidth ? kWidth : m_width;
        const std::uint32_t hash = hash_words<kWidth>(words);
        std::size_t slot = hash & m_mask;
        for (;;) {
            const Slot& s = m_table[slot];
            if (s.stamp != m_generation) break;
            if (m_hashes[s.id] == hash && equal<kWidth>(m_words.data() + std::size_t{s.id} * width, words)) return s.id;
            slot = (slot + 1) & m_mask;
        }
        const std::uint32_t id = static_cast<std::uint32_t>(m_count);
        if ((m_count + 1) * width > m_words.size() || m_count + 1 > m_hashes.size() ||
            (m_count + 1) * 2 > m_table.size()) {
            if (!room_for_one_more(width)) return kFull;
            if ((m_count + 1) * width > m_words.size()) m_words.resize(std::max<std::size_t>(64 * width, m_words.size() * 2));
            if (m_count + 1 > m_hashes.size()) m_hashes.resize(std::max<std::size_t>(64, m_hashes.size() * 2));
        }
        std::memcpy(m_words.data() + std::size_t{id} * width, words, width * sizeof(std::uint64_t));
        m_hashes[id] = hash;
        m_table[slot] = Slot{m_generation, id};
        ++m_count;
        if (m_count * 2 > m_table.size()) rehash(m_table.size() * 2);
        return id;
    }

private:
    struct Slot {
        std::uint32_t stamp = 0;
        std::uint32_t id = 0;
    };

    static std::uint64_t mix(std::uint64_t x) noexcept {
        // murmur3 fmix64: full avalanche, so linear probing on the low bits stays short.
        x ^= x >> 33;
        x *= 0xff51afd7ed558ccdULL;
        x ^= x >> 33;
        x *= 0xc4ceb9fe1a85ec53ULL;
        x ^= x >> 33;
        return x;
    }

    template <std::size_t kWidth>
    std::uint32_t hash_words(const std::uint64_t* words) const noexcept {
        const std::size_t width = kWidth ? kWidth : m_width;
        std::uint64_t h = 0x9e3779b97f4a7c15ULL;
        for (std::size_t w = 0; w < width; ++w) h = mix(h ^ words[w]) + w;
        return static_cast<std::uint32_t>(h ^ (h >> 32));
    }

    template <std::size_t kWidth>
    bool equal(const std::uint64_t* a, const std::uint64_t* b) const noexcept {
        const std::size_t width = kWidth ? kWidth : m_width;
        for (std::size_t w = 0; w < width; ++w)
            if (a[w] != b[w]) return false;
        return true;
    }

    // False (and budget_bytes() SIZE_MAX from now on) if growing for one more state of `width` words would exceed the limit.
    bool room_for_one_more(std::size_t width) noexcept {
        if (m_limit == SIZE_MAX) return true;
        std::size_t words = m_words.size(), hashes = m_hashes.size(), slots = m_table.size();
        if ((m_count + 1) * width > words) words = std::max<std::size_t>(64 * width, words * 2);
        if (m_count + 1 > hashes) hashes = std::max<std::size_t>(64, hashes * 2);
        if ((m_count + 1) * 2 > slots) slots *= 2;
        const std::size_t other = m_other ? m_other(m_other_arg) : 0;
        // The table is rebuilt by assign(): old and new tables briefly coexist.
        const std::size_t bytes = words * sizeof(std::uint64_t) + hashes * sizeof(std::uint32_t) +
                                  (slots + (slots != m_table.size() ? m_table.size() : 0)) * sizeof(Slot);
        if (bytes <= m_limit && other <= m_limit - bytes) return true;
        m_full = true;
        return false;
    }

    void rehash(std::size_t slots) {
        m_table.assign(slots, Slot{});
        m_mask = slots - 1;
        if (m_generation == 0) m_generation = 1;
        for (std::uint32_t id = 0; id < m_count; ++id) {
            std::size_t slot = m_hashes[id] & m_mask;
            while (m_table[slot].stamp == m_generation) slot = (slot + 1) & m_mask;
            m_table[slot] = Slot{m_generation, id};
        }
    }

    std::vector<std::uint64_t> m_words;
    std::vector<std::uint32_t> m_hashes;
    std::vector<Slot> m_table;
    std::size_t m_mask = 0;
    std::size_t m_width = 1;
    std::size_t m_count = 0;
    std::uint32_t m_generation = 0;
    std::size_t m_limit = SIZE_MAX;
    std::size_t (*m_other)(const void*) = nullptr;
    const void* m_other_arg = nullptr;
    bool m_full = false;
};

}  // namespace gameplan::goap::detail
