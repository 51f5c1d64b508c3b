#include <gameplan/goap/domain.hpp>

#include <cmath>
#include <limits>

#include <string>

#include <gtest/gtest.h>

using namespace gameplan::goap;

// "prefix" + std::to_string(n) without GCC 12's false -Wrestrict positive on operator+(const char*, string&&).
[[maybe_unused]] static std::string cat(std::string prefix, long long n) {
    prefix += std::to_string(n);
    return prefix;
}


TEST(DomainBuilder, InternsAtomsAndActions) {
    DomainBuilder b;
    const AtomId hungry = b.add_atom("hungry");
    EXPECT_EQ(b.add_atom("hungry"), hungry);
    const AtomId door = b.add_atom("door_open", true);
    ASSERT_EQ(b.add_action("eat", 5, {{"has_food", true}}, {{"hungry", false}}), DomainError::None);
    ASSERT_EQ(b.add_action("open", 1, {}, {{"door_open", true}}), DomainError::None);
    const Domain d = b.build();
    EXPECT_EQ(d.atom_count(), 3u);
    EXPECT_EQ(d.find_atom("hungry"), hungry);
    EXPECT_EQ(d.find_atom("has_food"), AtomId(2));
    EXPECT_FALSE(d.find_atom("nope").valid());
    EXPECT_TRUE(d.is_shared(door));
    EXPECT_FALSE(d.is_shared(hungry));
    EXPECT_EQ(d.shared_atoms().count(), 1u);
    EXPECT_EQ(d.action_count(), 2u);
    const ActionId eat = d.find_action("eat");
    ASSERT_TRUE(eat.valid());
    EXPECT_EQ(d.action_name(eat), "eat");
    EXPECT_EQ(d.action_cost(eat), 5);
    EXPECT_TRUE(d.preconditions(eat).cares(AtomId(2)));
    EXPECT_FALSE(d.effects(eat).value(hungry));
    EXPECT_TRUE(d.effects(eat).cares(hungry));
    ASSERT_EQ(d.achievers(Literal{hungry, false}).size(), 1u);
    EXPECT_EQ(d.achievers(Literal{hungry, false})[0], eat);
    EXPECT_TRUE(d.achievers(Literal{hungry, true}).empty());
    EXPECT_FALSE(d.find_action("drink").valid());

    WorldState s = d.make_state();
    EXPECT_FALSE(d.applicable(eat, s));
    s.set(AtomId(2), true);
    EXPECT_TRUE(d.applicable(eat, s));
}

TEST(DomainBuilder, RejectsBadActions) {
    DomainBuilder b;
    const AtomId x = b.add_atom("x");
    const Literal pre[] = {{x, true}};
    EXPECT_EQ(b.add_action("", 1, pre, pre), DomainError::EmptyName);
    EXPECT_EQ(b.add_action("a", -1, pre, pre), DomainError::InvalidCost);
    EXPECT_EQ(b.add_action("a", std::nan(""), pre, pre), DomainError::InvalidCost);
    EXPECT_EQ(b.add_action("a", std::numeric_limits<double>::infinity(), pre, pre), DomainError::InvalidCost);
    const Literal bad[] = {{AtomId(7), true}};
    EXPECT_EQ(b.add_action("a", 1, bad, pre), DomainError::UnknownAtom);
    const Literal conflict[] = {{x, true}, {x, false}};
    EXPECT_EQ(b.add_action("a", 1, conflict, pre), DomainError::ConflictingLiteral);
    const Literal dup[] = {{x, true}, {x, true}};
    EXPECT_EQ(b.add_action("a", 0, dup, pre), DomainError::None);
    EXPECT_EQ(b.add_action("a", 1, pre, pre), DomainError::DuplicateAction);
    const Domain d = b.build();
    EXPECT_EQ(d.action_count(), 1u);
    EXPECT_EQ(d.precondition_literals(ActionId(0)).size(), 1u);  // duplicates merged
    EXPECT_EQ(d.action_cost(ActionId(0)), 0);
}

TEST(Domain, UnicodeNamesAndManyAtoms) {
    DomainBuilder b;
    for (int i = 0; i < 700; ++i) b.add_atom(cat("atom_", i));
    const AtomId kill = b.add_atom("击杀玩家");
    ASSERT_EQ(b.add_action("shoot", 2, {{"瞄准就绪", true}}, {{"击杀玩家", true}}), DomainError::None);
    const Domain d = b.build();
    EXPECT_EQ(d.atom_count(), 702u);
    EXPECT_EQ(d.find_atom("击杀玩家"), kill);
    EXPECT_EQ(d.atom_name(kill), "击杀玩家");
    EXPECT_EQ(d.find_atom("atom_699"), AtomId(699));
    EXPECT_EQ(d.make_state().word_count(), 11u);
}
