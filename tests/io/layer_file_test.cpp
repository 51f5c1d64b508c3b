// Cost layer files (io/layer_file.hpp) and the terrain areas of MovingAI maps (MapLoadOptions::areas).
#include <gameplan/io/layer_file.hpp>
#include <gameplan/io/load_error.hpp>
#include <gameplan/io/movingai.hpp>

#include <gtest/gtest.h>

#include <string>

namespace {

using namespace gameplan;

path::GridMap map_of(int w, int h) {
    path::GridMap map;
    EXPECT_EQ(map.reset(w, h), path::GridSizeCheck::Ok);
    return map;
}

// Expects a LoadError at `line`:`column` whose message contains `words`.
void expect_error(const std::string& text, const path::GridMap& map, std::size_t line, std::size_t column,
                  const std::string& words) {
    try {
        (void)io::parse_penalty_layer(text, "danger.txt", map);
        ADD_FAILURE() << "accepted: " << text;
    } catch (const io::LoadError& e) {
        EXPECT_EQ(e.file(), "danger.txt");
        EXPECT_EQ(e.line(), line) << e.what();
        EXPECT_EQ(e.column(), column) << e.what();
        EXPECT_EQ(e.field(), "layer");
        EXPECT_NE(e.message().find(words), std::string::npos) << e.what();
    }
}

TEST(LayerFile, ReadsValuesInMapOrientation) {
    const auto map = map_of(3, 2);
    const auto layer = io::parse_penalty_layer("; a comment\n0 1.5 2\r\n\n  3\t0 1e2  \n", "t", map);
    EXPECT_TRUE(layer.matches(map));
    EXPECT_EQ(layer.at({0, 0}), 0.0f);
    EXPECT_EQ(layer.at({1, 0}), 1.5f);
    EXPECT_EQ(layer.at({2, 0}), 2.0f);
    EXPECT_EQ(layer.at({0, 1}), 3.0f);
    EXPECT_EQ(layer.at({2, 1}), 100.0f);
    EXPECT_EQ(layer.touched_count(), 4u);
}

TEST(LayerFile, RefusesBadInputNamingLineAndColumn) {
    const auto map = map_of(3, 2);
    expect_error("0 0 0\n0 x 0\n", map, 2, 3, "'x' is not a number");
    expect_error("0 0 0\n0 -1 0\n", map, 2, 3, "negative");
    expect_error("0 0 0\n0 0 nan\n", map, 2, 5, "not finite");
    expect_error("0 0 0\n0 0 inf\n", map, 2, 5, "not finite");
    expect_error("0 0 0\n0 0 2e9\n", map, 2, 5, "limit");
    expect_error("0 0 0\n0 0 1e999\n", map, 2, 5, "limit");
    expect_error("0 0 0\n0 0\n", map, 2, 4, "row 1 has 2 values, expected 3");
    expect_error("0 0 0 7\n0 0 0\n", map, 1, 7, "more than 3 values");
    expect_error("0 0 0\n0 0 0\n0 0 0\n", map, 3, 1, "more than 2 rows");
    expect_error("0 0 0\n", map, 2, 1, "found 1 rows, expected 2");
    expect_error("", map, 1, 1, "found 0 rows");
    expect_error("0 0 0\n0 0 1,5\n", map, 2, 5, "'1,5' is not a number");
    expect_error("0 0 0\n0 0 +1\n", map, 2, 5, "not a number");
}

TEST(LayerFile, MissingFileAndSizeLimit) {
    const auto map = map_of(2, 1);
    EXPECT_THROW((void)io::load_penalty_layer("no/such/layer.txt", map), io::LoadError);
    EXPECT_THROW((void)io::parse_penalty_layer("0 0\n", "t", map, 3), io::LoadError);
}

TEST(MapAreas, TerrainLettersBecomeAreas) {
    const std::string text = "type octile\nheight 2\nwidth 4\nmap\n.GST\nW@.T\n";
    path::AreaMap areas;
    io::MapLoadOptions options;
    options.areas = &areas;
    const auto map = io::parse_movingai_map(text, "m", options);
    ASSERT_TRUE(areas.matches(map));
    EXPECT_EQ(areas.at({0, 0}), path::kAreaGround);
    EXPECT_EQ(areas.at({1, 0}), path::kAreaGround);
    EXPECT_EQ(areas.at({2, 0}), path::kAreaSwamp);
    EXPECT_EQ(areas.at({3, 0}), path::kAreaTrees);
    EXPECT_EQ(areas.at({0, 1}), path::kAreaWater);
    // plain behaviour unchanged: trees and water stay blocked unless asked for
    EXPECT_FALSE(map.passable({3, 0}));
    EXPECT_FALSE(map.passable({0, 1}));
    options.trees_passable = true;
    options.water_passable = true;
    const auto open = io::parse_movingai_map(text, "m", options);
    EXPECT_TRUE(open.passable({3, 0}));
    EXPECT_TRUE(open.passable({0, 1}));
    EXPECT_FALSE(open.passable({1, 1}));
}

}  // namespace
