#include <gameplan/goap/world_state.hpp>

#include <random>
#include <vector>

#include <gtest/gtest.h>

using namespace gameplan::goap;

namespace {
AtomId atom(std::size_t i) { return AtomId(static_cast<std::uint32_t>(i)); }
}  // namespace

TEST(WorldState, SetGetAcrossWordBoundaries) {
    WorldState s(600);
    EXPECT_EQ(s.atom_count(), 600u);
    EXPECT_EQ(s.word_count(), 10u);
    for (std::size_t i : {0u, 63u, 64u, 127u, 128u, 599u}) {
        EXPECT_FALSE(s.get(atom(i)));
        s.set(atom(i), true);
        EXPECT_TRUE(s.get(atom(i)));
    }
    EXPECT_EQ(s.true_atoms().count(), 6u);
    s.set(atom(64), false);
    EXPECT_FALSE(s.get(atom(64)));
    EXPECT_EQ(s.true_atoms().count(), 5u);
    std::vector<std::uint32_t> members;
    s.true_atoms().for_each([&](AtomId a) { members.push_back(a.value); });
    EXPECT_EQ(members, (std::vector<std::uint32_t>{0, 63, 127, 128, 599}));
}

// Condition semantics against a plain reference over vector<int> (-1 = don't care).
TEST(Condition, SatisfiesAndApplyMatchReference) {
    std::mt19937 rng(7);
    for (int round = 0; round < 200; ++round) {
        const std::size_t n = 1 + rng() % 700;
        std::vector<bool> ref_state(n);
        std::vector<int> ref_cond(n, -1);
        WorldState s(n);
        Condition c(n);
        for (std::size_t i = 0; i < n; ++i) {
            ref_state[i] = rng() % 2;
            s.set(atom(i), ref_state[i]);
            if (rng() % 4 == 0) {
                ref_cond[i] = static_cast<int>(rng() % 2);
                c.set(atom(i), ref_cond[i] == 1);
            }
        }
        bool ref_sat = true;
        for (std::size_t i = 0; i < n; ++i)
            if (ref_cond[i] >= 0 && ref_state[i] != (ref_cond[i] == 1)) ref_sat = false;
        EXPECT_EQ(s.satisfies(c), ref_sat);
        EXPECT_EQ(c.satisfied_by(s), ref_sat);
        s.apply(c);
        for (std::size_t i = 0; i < n; ++i) {
            const bool expected = ref_cond[i] >= 0 ? ref_cond[i] == 1 : ref_state[i];
            ASSERT_EQ(s.get(atom(i)), expected) << "atom " << i;
        }
        EXPECT_TRUE(s.satisfies(c));
    }
}

TEST(Condition, SetResetAndLiterals) {
    Condition c(130);
    EXPECT_TRUE(c.empty());
    c.set(atom(3), false);
    c.set(atom(129), true);
    c.set(atom(3), true);  // replaces
    EXPECT_EQ(c.size(), 2u);
    EXPECT_TRUE(c.cares(atom(3)));
    EXPECT_TRUE(c.value(atom(3)));
    std::vector<Literal> lits;
    c.for_each([&](Literal l) { lits.push_back(l); });
    ASSERT_EQ(lits.size(), 2u);
    EXPECT_EQ(lits[0], (Literal{atom(3), true}));
    EXPECT_EQ(lits[1], (Literal{atom(129), true}));
    c.reset(atom(3));
    EXPECT_FALSE(c.cares(atom(3)));
    EXPECT_EQ(c.size(), 1u);
    // values stay within care: two conditions built differently compare equal
    Condition d(130);
    d.set(atom(129), true);
    EXPECT_EQ(c, d);
}

// Seed 000's merge: view = world's shared atoms + agent's private atoms; effects are written back.
TEST(WorldState, SharedPrivateViewAndWriteBack) {
    const std::size_t n = 200;
    std::mt19937 rng(11);
    AtomSet shared(n);
    WorldState world(n), agent(n);
    for (std::size_t i = 0; i < n; ++i) {
        if (rng() % 3 == 0) shared.set(atom(i));
        world.set(atom(i), rng() % 2);
        agent.set(atom(i), rng() % 2);
    }
    WorldState view(n);
    view.assign_view(world, agent, shared);
    for (std::size_t i = 0; i < n; ++i)
        EXPECT_EQ(view.get(atom(i)), shared.test(atom(i)) ? world.get(atom(i)) : agent.get(atom(i)));

    // Flip every atom of the view, then write back: the world changes only on shared atoms, the agent
    // only on private ones.
    const WorldState world_before = world, agent_before = agent;
    for (std::size_t i = 0; i < n; ++i) view.set(atom(i), !view.get(atom(i)));
    world.assign_masked(view, shared);
    agent.assign_unmasked(view, shared);
    for (std::size_t i = 0; i < n; ++i) {
        if (shared.test(atom(i))) {
            EXPECT_EQ(world.get(atom(i)), !world_before.get(atom(i)));
            EXPECT_EQ(agent.get(atom(i)), agent_before.get(atom(i)));
        } else {
            EXPECT_EQ(world.get(atom(i)), world_before.get(atom(i)));
            EXPECT_EQ(agent.get(atom(i)), !agent_before.get(atom(i)));
        }
    }
}

TEST(WorldState, EqualityAndClear) {
    WorldState a(70), b(70);
    EXPECT_EQ(a, b);
    a.set(atom(69), true);
    EXPECT_NE(a, b);
    a.clear();
    EXPECT_EQ(a, b);
    EXPECT_NE(WorldState(70), WorldState(71));
}
