#include <gameplan/io/image.hpp>
#include <gameplan/io/load_error.hpp>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

using namespace gameplan::io;

namespace {
std::filesystem::path temp_file(const char* name) {
    return std::filesystem::temp_directory_path() / (std::string("gameplan_image_test_") + name);
}
}  // namespace

TEST(Image, DrawingClipsAndLinesHitBothEnds) {
    Image img(10, 5, {1, 2, 3});
    EXPECT_EQ(img.at(9, 4), (Rgb{1, 2, 3}));
    EXPECT_EQ(img.at(10, 0), (Rgb{}));  // outside: black, no crash
    img.set(-1, 0, {9, 9, 9});
    img.fill_rect(8, 3, 100, 100, {200, 0, 0});
    EXPECT_EQ(img.at(9, 4), (Rgb{200, 0, 0}));
    EXPECT_EQ(img.at(7, 4), (Rgb{1, 2, 3}));
    img.line(0, 0, 6, 2, {0, 255, 0});
    EXPECT_EQ(img.at(0, 0), (Rgb{0, 255, 0}));
    EXPECT_EQ(img.at(6, 2), (Rgb{0, 255, 0}));
    EXPECT_EQ(img.at(3, 1), (Rgb{0, 255, 0}));
}

// A written PNG decodes back to the same pixels (libpng on both sides, but the encoder sees only bytes).
TEST(Image, PngRoundTrip) {
    Image img(37, 11, {10, 20, 30});
    for (int x = 0; x < 37; ++x) img.set(x, x % 11, {static_cast<std::uint8_t>(x * 7), 255, static_cast<std::uint8_t>(x)});
    const auto path = temp_file("roundtrip.png");
    write_png(path, img);
    const Image back = read_png(path);
    ASSERT_EQ(back.width(), 37);
    ASSERT_EQ(back.height(), 11);
    EXPECT_EQ(back.pixels(), img.pixels());
    // The file starts with the PNG signature.
    std::ifstream in(path, std::ios::binary);
    char sig[8] = {};
    in.read(sig, 8);
    EXPECT_EQ(std::string(sig + 1, 3), "PNG");
    std::filesystem::remove(path);
}

TEST(Image, BadFilesGiveLoadErrors) {
    EXPECT_THROW((void)read_png("/nonexistent/x.png"), LoadError);
    const auto path = temp_file("bad.png");
    { std::ofstream(path) << "not a png at all"; }
    EXPECT_THROW((void)read_png(path), LoadError);
    // Truncated: a valid header and then nothing.
    Image img(50, 50, {1, 1, 1});
    write_png(path, img);
    std::filesystem::resize_file(path, 60);
    EXPECT_THROW((void)read_png(path), LoadError);
    std::filesystem::remove(path);
    EXPECT_THROW(write_png("/nonexistent-dir/x.png", img), LoadError);
}
