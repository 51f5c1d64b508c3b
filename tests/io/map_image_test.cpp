#include <gameplan/io/map_image.hpp>

#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::io;

namespace {
path::GridMap blank(std::int32_t w, std::int32_t h) {
    path::GridMap map;
    EXPECT_EQ(map.reset(w, h), path::GridSizeCheck::Ok);
    return map;
}
path::GridMap small_map() {
    path::GridMap map = blank(6, 4);
    (void)map.set_passable({2, 1}, false);
    (void)map.set_cost({4, 2}, 5);
    (void)map.set_cost({5, 3}, 3);
    return map;
}
}  // namespace

TEST(MapImage, CellsBecomeScaledBlocksInTheLegendColours) {
    const MapPalette pal;
    const Image img = render_map(small_map(), 3);
    ASSERT_EQ(img.width(), 18);
    ASSERT_EQ(img.height(), 12);
    EXPECT_EQ(img.at(6, 3), pal.wall);    // cell (2,1) top-left pixel
    EXPECT_EQ(img.at(8, 5), pal.wall);    // cell (2,1) bottom-right pixel
    EXPECT_EQ(img.at(9, 3), pal.ground);  // cell (3,1)
    EXPECT_EQ(img.at(12, 6), pal.costly);  // cell (4,2): the highest cost gets the full colour
    const Rgb mid = img.at(15, 9);        // cell (5,3): cost 3 of 1..5, halfway
    EXPECT_NE(mid, pal.ground);
    EXPECT_NE(mid, pal.costly);
    EXPECT_EQ(mid.r, (pal.ground.r + pal.costly.r + 1) / 2);
}

TEST(MapImage, PathsRunThroughCellCentresAndMarkersStayInTheirCell) {
    path::GridMap map = blank(5, 5);
    Image img = render_map(map, 4);
    const std::vector<path::GridPoint> pts{{0, 0}, {4, 0}, {4, 4}};
    draw_path(img, pts, 4, {255, 0, 0});
    EXPECT_EQ(img.at(2, 2), (Rgb{255, 0, 0}));    // centre of (0,0)
    EXPECT_EQ(img.at(10, 2), (Rgb{255, 0, 0}));   // between (2,0)
    EXPECT_EQ(img.at(18, 10), (Rgb{255, 0, 0}));  // down the right column
    EXPECT_EQ(img.at(10, 10), MapPalette{}.ground);
    mark_cell(img, {1, 3}, 4, {0, 0, 255});
    EXPECT_EQ(img.at(5, 13), (Rgb{0, 0, 255}));
    EXPECT_EQ(img.at(4, 12), MapPalette{}.ground);  // the marker leaves a margin
    paint_cell(img, {9, 9}, 4, {1, 1, 1});           // off the image: ignored
}

TEST(MapImage, ScalesAreCheckedAndFitted) {
    const path::GridMap map = blank(1000, 10);
    EXPECT_THROW((void)render_map(map, 0), std::invalid_argument);
    EXPECT_THROW((void)render_map(map, 40), std::invalid_argument);  // 40,000 pixels wide
    EXPECT_EQ(fit_scale(map, 8), 4);
    EXPECT_EQ(fit_scale(map, 2), 2);
    EXPECT_EQ(fit_scale(blank(20000, 1), 8), 1);
}
