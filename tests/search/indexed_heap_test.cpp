#include <gameplan/search/indexed_heap.hpp>

#include <algorithm>
#include <map>
#include <random>

#include <gtest/gtest.h>

using gameplan::search::IndexedHeap;
using gameplan::search::NodeIndex;

namespace {
struct Key {
    int value;
    NodeIndex node;  // makes keys unique, as the engine's sequence number does
    friend bool operator<(const Key& a, const Key& b) { return a.value != b.value ? a.value < b.value : a.node < b.node; }
};
}  // namespace

// Random push / pop / decrease against a std::map reference: pops must come out in exact key order.
TEST(IndexedHeap, MatchesOrderedReferenceUnderRandomOperations) {
    std::mt19937 rng(7);
    for (int round = 0; round < 50; ++round) {
        IndexedHeap<Key> heap;
        heap.reserve_nodes(200);
        std::map<NodeIndex, int> live;  // node -> key value
        for (int op = 0; op < 2000; ++op) {
            const int kind = static_cast<int>(rng() % 3);
            const NodeIndex node = rng() % 200;
            if (kind == 0 && !live.count(node)) {
                const int v = static_cast<int>(rng() % 1000);
                heap.push(node, Key{v, node});
                live[node] = v;
            } else if (kind == 1 && live.count(node)) {
                const int v = live[node] - static_cast<int>(rng() % 50);
                heap.decrease(node, Key{v, node});
                live[node] = v;
            } else if (kind == 2 && !heap.empty()) {
                auto best = std::min_element(live.begin(), live.end(), [](auto& a, auto& b) {
                    return Key{a.second, a.first} < Key{b.second, b.first};
                });
                const auto e = heap.pop();
                ASSERT_EQ(e.node, best->first);
                ASSERT_EQ(e.key.value, best->second);
                live.erase(best);
            }
            ASSERT_EQ(heap.size(), live.size());
        }
    }
}
