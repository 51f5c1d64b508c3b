#pragma once
// Private to the agent runtime: an exact cache of planner answers, one per worker.
//
// The planner is a pure function of (domain, start, goal, direction, enable mask, costs): the same query
// always gives the same plan, cost and expansion count. Many agents share situations (ten thousand
// soldiers of a few types), so the runtime keeps the last answers per worker, keyed by every input of
// the query, and answers repeated queries without searching. A hit returns exactly what the search
// would have returned (including its expansion count, which events report), so results, traces and
// statistics other than `cache_hits` do not depend on the cache or on which worker holds an entry.
//
// Two-way set associative: a hash selects a bucket of two entries; a new answer replaces the one used
// least recently. Entries keep their buffers, so after warm-up inserting allocates nothing.

#include <gameplan/goap/world_state.hpp>
#include <gameplan/status.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

namespace gameplan::goap::detail {

class PlanCache {
public:
    struct Entry {
        bool used = false;
        std::uint64_t hash = 0;
        std::vector<std::uint64_t> key;
        Status status = Status::NoPath;
        double cost = 0;
        std::uint64_t expanded = 0;
        std::vector<ActionId> plan;
        std::vector<Literal> unreachable;
    };

    explicit PlanCache(std::size_t entries) {
        std::size_t n = 2;
        while (n < entries) n <<= 1;
        m_entries.resize(n);
        m_recent.assign(n / 2, 0);
        m_bucket_mask = n / 2 - 1;
    }

    /// Builds the key of a query into `key` (reusing its storage) and returns its hash.
    /// (The domain is the same for every query of a system, so it is not part of the key.)
    static std::uint64_t make_key(std::vector<std::uint64_t>& key, std::uint8_t direction, const WorldState& view,
                                  const Condition& goal, std::span<const std::uint8_t> enabled, std::span<const double> costs) {
        key.clear();
        key.push_back(std::uint64_t{direction} | (enabled.empty() ? 0u : 2u) << 8 | (costs.empty() ? 0u : 1u) << 12);
        for (const std::uint64_t w : view.words()) key.push_back(w);
        for (const std::uint64_t w : goal.care().words()) key.push_back(w);
        for (const std::uint64_t w : goal.values().words()) key.push_back(w);
        // Variables and comparisons (domains with variables): part of the query like the atoms.
        for (const std::int32_t v : view.values()) key.push_back(static_cast<std::uint32_t>(v));
        for (const Comparison& c : goal.comparisons())
            key.push_back(std::uint64_t{c.var.value} << 40 | std::uint64_t{static_cast<std::uint8_t>(c.op)} << 32 |
                          static_cast<std::uint32_t>(c.value));
        for (std::size_t i = 0; i < enabled.size(); i += 8) {
            std::uint64_t w = 0;
            std::memcpy(&w, enabled.data() + i, std::min<std::size_t>(8, enabled.size() - i));
            key.push_back(w);
        }
        for (const double c : costs) {
            std::uint64_t w;
            std::memcpy(&w, &c, sizeof w);
            key.push_back(w);
        }
        // Every word goes through a full 64-bit finalizer: keys often differ only in high bits (costs are
        // doubles), and the slot is taken from the low bits.
        std::uint64_t h = 0x9e3779b97f4a7c15ULL;
        for (const std::uint64_t w : key) h = mix(h ^ mix(w + 0x9e3779b97f4a7c15ULL));
        return h;
    }

    /// MurmurHash3's fmix64.
    static std::uint64_t mix(std::uint64_t x) noexcept {
        x ^= x >> 33;
        x *= 0xff51afd7ed558ccdULL;
        x ^= x >> 33;
        x *= 0xc4ceb9fe1a85ec53ULL;
        return x ^ (x >> 33);
    }

    /// The entry for `key`, or nullptr.
    [[nodiscard]] const Entry* find(std::uint64_t hash, const std::vector<std::uint64_t>& key) noexcept {
        const std::size_t bucket = hash & m_bucket_mask;
        for (std::size_t way = 0; way < 2; ++way) {
            const Entry& e = m_entries[2 * bucket + way];
            if (!e.used || e.hash != hash || e.key.size() != key.size()) continue;
            if (std::memcmp(e.key.data(), key.data(), key.size() * sizeof(std::uint64_t)) != 0) continue;
            m_recent[bucket] = static_cast<std::uint8_t>(way);
            return &e;
        }
        return nullptr;
    }

    /// Stores an answer (Found or NoPath) for `key`.
    void insert(std::uint64_t hash, const std::vector<std::uint64_t>& key, Status status, double cost, std::uint64_t expanded,
                std::span<const ActionId> plan, std::span<const Literal> unreachable) {
        const std::size_t bucket = hash & m_bucket_mask;
        const std::size_t way = m_recent[bucket] ^ 1u;  // the less recently used one
        m_recent[bucket] = static_cast<std::uint8_t>(way);
        Entry& e = m_entries[2 * bucket + way];
        e.used = true;
        e.hash = hash;
        e.key.assign(key.begin(), key.end());
        e.status = status;
        e.cost = cost;
        e.expanded = expanded;
        e.plan.assign(plan.begin(), plan.end());
        e.unreachable.assign(unreachable.begin(), unreachable.end());
    }

private:
    std::vector<Entry> m_entries;       // bucket b holds entries 2b and 2b + 1
    std::vector<std::uint8_t> m_recent;  // per bucket: the way used last
    std::size_t m_bucket_mask = 0;
};

}  // namespace gameplan::goap::detail
