#include <gameplan/io/load_error.hpp>
#include <gameplan/io/movingai.hpp>

#include <test_data.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::io;
using gameplan::path::GridPoint;

namespace {

/// Runs `f`, expects a LoadError, and returns it (or a dummy when none was thrown).
template <class F>
LoadError expect_load_error(F&& f) {
    try {
        f();
    } catch (const LoadError& e) {
        return e;
    }
    ADD_FAILURE() << "expected a LoadError";
    return LoadError("", 0, 0, "", "");
}

const char* kSmallMap =
    "type octile\n"
    "height 3\n"
    "width 5\n"
    "map\n"
    ".G@OT\n"
    "S.W..\n"
    "....@\n";

/// A fresh temporary folder, removed at the end of the test.
struct TempDir {
    std::filesystem::path root;
    TempDir() {
        root = std::filesystem::temp_directory_path() /
               ("gameplan_movingai_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::remove_all(root);
        std::filesystem::create_directories(root);
    }
    ~TempDir() { std::filesystem::remove_all(root); }
    void write(const std::filesystem::path& rel, const std::string& text) const {
        std::filesystem::create_directories((root / rel).parent_path());
        std::ofstream(root / rel, std::ios::binary) << text;
    }
};

std::string square_map(int w, int h) {
    std::string s = "type octile\nheight " + std::to_string(h) + "\nwidth " + std::to_string(w) + "\nmap\n";
    for (int y = 0; y < h; ++y) s += std::string(std::size_t(w), '.') + "\n";
    return s;
}

}  // namespace

TEST(MovingAiMap, ParsesCharacters) {
    const auto map = parse_movingai_map(kSmallMap, "small.map");
    EXPECT_EQ(map.width(), 5);
    EXPECT_EQ(map.height(), 3);
    EXPECT_TRUE(map.passable({0, 0}));   // .
    EXPECT_TRUE(map.passable({1, 0}));   // G
    EXPECT_FALSE(map.passable({2, 0}));  // @
    EXPECT_FALSE(map.passable({3, 0}));  // O
    EXPECT_FALSE(map.passable({4, 0}));  // T
    EXPECT_TRUE(map.passable({0, 1}));   // S: passable
    EXPECT_FALSE(map.passable({2, 1}));  // W: blocked by default
    EXPECT_FALSE(map.passable({4, 2}));
    EXPECT_FALSE(map.has_terrain_costs());
}

TEST(MovingAiMap, TerrainOptions) {
    MapLoadOptions options;
    options.water_passable = true;
    options.water_cost = 5;
    options.swamp_cost = 3;
    const auto map = parse_movingai_map(kSmallMap, "small.map", options);
    EXPECT_TRUE(map.passable({2, 1}));
    EXPECT_EQ(map.cost({2, 1}), 5u);
    EXPECT_EQ(map.cost({0, 1}), 3u);
    EXPECT_EQ(map.cost({0, 0}), 1u);
    EXPECT_EQ(map.min_cost(), 1u);
    options.swamp_cost = 0;
    EXPECT_EQ(expect_load_error([&] { (void)parse_movingai_map(kSmallMap, "x", options); }).field(), "swamp_cost");
}

TEST(MovingAiMap, AcceptsCrlfHeaderOrderAndTrailingBlankLines) {
    const auto map = parse_movingai_map("type octile\r\nwidth 2\r\nheight 2\r\nmap\r\n.@\r\n@.\r\n\r\n\n", "crlf.map");
    EXPECT_EQ(map.width(), 2);
    EXPECT_TRUE(map.passable({1, 1}));
    EXPECT_FALSE(map.passable({0, 1}));
    const auto tabs = parse_movingai_map("type\toctile\nheight\t1\nwidth  3\nmap\n..@", "tabs.map");
    EXPECT_EQ(tabs.width(), 3);
}

TEST(MovingAiMap, ErrorsNameFileLineAndField) {
    struct Case {
        const char* text;
        std::size_t line;
        const char* field;
        const char* message_part;
    };
    const Case cases[] = {
        {"type octile\nheight 2\nwidth 2\nmap\n..\n.", 6, "map", "has 1 cells"},          // truncated row
        {"type octile\nheight 3\nwidth 2\nmap\n..\n..\n", 7, "map", "truncated"},           // missing row
        {"type octile\nheight 2\nwidth 2\nmap\n..\n..\n..\n", 7, "map", "more rows"},        // oversized
        {"type octile\nheight 1\nwidth 2\nmap\n...\n", 5, "map", "has 3 cells"},            // long row
        {"type octile\nheight -4\nwidth 2\nmap\n", 2, "height", "at least 1"},              // negative
        {"type octile\nheight 0\nwidth 2\nmap\n", 2, "height", "at least 1"},
        {"type octile\nheight abc\nwidth 2\nmap\n", 2, "height", "not an integer"},
        {"type octile\nheight 99999999999999999999\nwidth 2\nmap\n", 2, "height", "too large"},
        {"type octile\nheight 40000\nwidth 2\nmap\n", 2, "height", "exceeds"},
        {"type octile\nheight 20000\nwidth 20000\nmap\n", 2, "height", "refused"},         // too many cells
        {"type hex\nheight 1\nwidth 1\nmap\n.\n", 1, "type", "unsupported"},
        {"height 1\nwidth 1\nmap\n.\n", 3, "type", "missing"},
        {"type octile\nwidth 1\nmap\n.\n", 3, "height", "missing"},
        {"type octile\nheight 1\nwidth 1\n", 3, "map", "missing 'map'"},
        {"type octile\nheight 1\nheight 1\nwidth 1\nmap\n.\n", 3, "height", "twice"},
        {"type octile\nheight 1\nwidth 1\ncolour blue\nmap\n.\n", 4, "header", "unknown"},
        {"type octile\nheight 1\nwidth 2\nmap\n.x\n", 5, "map", "unexpected character 'x'"},
        {"type octile\nheight 1\nwidth 2\nmap\n.#\n", 5, "map", "unexpected character '#'"},  // text-map only
        {"", 1, "map", "missing 'map'"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.text);
        const LoadError e = expect_load_error([&] { (void)parse_movingai_map(c.text, "bad.map"); });
        EXPECT_EQ(e.file(), "bad.map");
        EXPECT_EQ(e.line(), c.line);
        EXPECT_EQ(e.field(), c.field);
        EXPECT_NE(e.message().find(c.message_part), std::string::npos) << e.what();
    }
    const LoadError col = expect_load_error([] { (void)parse_movingai_map("type octile\nheight 1\nwidth 3\nmap\n..?\n", "c.map"); });
    EXPECT_EQ(col.column(), 3u);
}

TEST(MovingAiMap, MissingFile) {
    const LoadError e = expect_load_error([] { (void)load_movingai_map("/nonexistent/dir/x.map"); });
    EXPECT_NE(std::string(e.what()).find("/nonexistent/dir/x.map"), std::string::npos);
    EXPECT_NE(e.message().find("not found"), std::string::npos);
    (void)expect_load_error([] { (void)load_grid_map(std::filesystem::temp_directory_path()); });
}

TEST(TextMap, ParsesCostsCommentsAndBlockedCharacters) {
    const auto map = parse_text_map("; a comment\n.#3\n9@G\n;another\nT1.\n\n", "t.txt");
    EXPECT_EQ(map.width(), 3);
    EXPECT_EQ(map.height(), 3);
    EXPECT_FALSE(map.passable({1, 0}));
    EXPECT_EQ(map.cost({2, 0}), 3u);
    EXPECT_EQ(map.cost({0, 1}), 9u);
    EXPECT_FALSE(map.passable({1, 1}));
    EXPECT_FALSE(map.passable({0, 2}));
    EXPECT_EQ(map.cost({1, 2}), 1u);
    EXPECT_EQ(map.min_cost(), 1u);
    const LoadError ragged = expect_load_error([] { (void)parse_text_map("...\n..\n", "r.txt"); });
    EXPECT_EQ(ragged.line(), 2u);
    EXPECT_EQ(ragged.field(), "map");
    const LoadError bad = expect_load_error([] { (void)parse_text_map("..0\n", "b.txt"); });
    EXPECT_EQ(bad.column(), 3u);
    (void)expect_load_error([] { (void)parse_text_map("\n\n", "e.txt"); });
    (void)expect_load_error([] { (void)parse_text_map(std::string(40000, '.'), "w.txt"); });
}

TEST(TextMap, LoadGridMapDetectsTheFormat) {
    TempDir dir;
    dir.write("a.map", kSmallMap);
    dir.write("b.txt", "..\n.2\n");
    EXPECT_EQ(load_grid_map(dir.root / "a.map").width(), 5);
    EXPECT_EQ(load_grid_map(dir.root / "b.txt").cost({1, 1}), 2u);
}

TEST(MovingAiScen, ParsesBothVersionsTabsAndSpaces) {
    const auto tab = parse_movingai_scenarios(
        "version 1\n0\tmaps/dao/arena.map\t49\t49\t1\t13\t4\t12\t3.41421\n1\tmaps/dao/arena.map\t49\t49\t2\t3\t4\t5\t12\n",
        "a.scen");
    ASSERT_EQ(tab.scenarios.size(), 2u);
    EXPECT_EQ(tab.version, "1");
    const Scenario& s = tab.scenarios[0];
    EXPECT_EQ(s.bucket, 0u);
    EXPECT_EQ(s.map, "maps/dao/arena.map");
    EXPECT_EQ(s.map_width, 49);
    EXPECT_EQ(s.start, (GridPoint{1, 13}));
    EXPECT_EQ(s.goal, (GridPoint{4, 12}));
    EXPECT_DOUBLE_EQ(s.optimal, 3.41421);
    EXPECT_DOUBLE_EQ(s.tolerance, 1e-5);
    EXPECT_EQ(s.line, 2u);
    EXPECT_DOUBLE_EQ(tab.scenarios[1].tolerance, 1.0);

    const auto space = parse_movingai_scenarios(
        "version 1.0\r\n61 maps/bgmaps/AR0011SR.map 512 512 210 395 87 201 244.95\r\n\r\n", "b.scen");
    ASSERT_EQ(space.scenarios.size(), 1u);
    EXPECT_EQ(space.version, "1.0");
    EXPECT_DOUBLE_EQ(space.scenarios[0].tolerance, 0.01);
    EXPECT_EQ(space.scenarios[0].start, (GridPoint{210, 395}));

    const auto spaced_path = parse_movingai_scenarios("version 1\n3 my maps/x y.map 4 4 0 0 3 3 4.24264\n", "c.scen");
    EXPECT_EQ(spaced_path.scenarios[0].map, "my maps/x y.map");
}

TEST(MovingAiScen, ToleranceIsOneUnitOfTheLastPrintedDigit) {
    EXPECT_DOUBLE_EQ(last_digit_unit("3.41421"), 1e-5);
    EXPECT_DOUBLE_EQ(last_digit_unit("446.00"), 0.01);
    EXPECT_DOUBLE_EQ(last_digit_unit("12"), 1.0);
    EXPECT_DOUBLE_EQ(last_digit_unit("1.5e+03"), 100.0);
    EXPECT_DOUBLE_EQ(last_digit_unit("2E-2"), 0.01);
    EXPECT_EQ(last_digit_unit("abc"), 0.0);
    EXPECT_EQ(last_digit_unit("1.2.3"), 0.0);
    EXPECT_EQ(last_digit_unit(""), 0.0);
    Scenario s;
    s.optimal = 635.764;
    s.tolerance = 0.001;
    EXPECT_TRUE(matches_optimal(s, 635.7645020));  // the README's rounding-boundary case
    EXPECT_TRUE(matches_optimal(s, 635.763));
    EXPECT_FALSE(matches_optimal(s, 635.7660));
    EXPECT_FALSE(matches_optimal(s, std::numeric_limits<double>::infinity()));
}

TEST(MovingAiScen, ErrorsNameLineAndField) {
    struct Case {
        const char* text;
        std::size_t line;
        const char* field;
        const char* message_part;
    };
    const Case cases[] = {
        {"", 1, "version", "empty"},
        {"0\tm.map\t4\t4\t0\t0\t1\t1\t1.4\n", 1, "version", "expected a first line"},
        {"version 2\n", 1, "version", "unsupported"},
        {"version\n", 1, "version", "missing"},
        {"version 1\n0 m.map 4 4 0 0 1\n", 2, "goal-y", "missing field"},
        {"version 1\n0 m.map 4 4 0 0 1 1\n", 2, "optimal-length", "missing field"},
        {"version 1\n0\n", 2, "map", "missing field"},
        {"version 1\nx m.map 4 4 0 0 1 1 1.4\n", 2, "bucket", "not an integer"},
        {"version 1\n0 m.map 4 4 0 0 1 1 1.4\n0 m.map 4 4 4 0 1 1 1.4\n", 3, "start-x", "outside the map"},
        {"version 1\n0 m.map 4 4 0 -1 1 1 1.4\n", 2, "start-y", "out of range"},
        {"version 1\n0 m.map 4 4 0 0 1 9 1.4\n", 2, "goal-y", "outside"},
        {"version 1\n0 m.map 4 4 0 0 1.5 1 1.4\n", 2, "goal-x", "not an integer"},
        {"version 1\n0 m.map 0 4 0 0 1 1 1.4\n", 2, "map-width", "out of range"},
        {"version 1\n0 m.map 4 99999 0 0 1 1 1.4\n", 2, "map-height", "out of range"},
        {"version 1\n0 m.map 20000 20000 0 0 1 1 1.4\n", 2, "map-width", "268435456"},
        {"version 1\n0 m.map 4 4 0 0 1 1 abc\n", 2, "optimal-length", "not a number"},
        {"version 1\n0 m.map 4 4 0 0 1 1 -3\n", 2, "optimal-length", ">= 0"},
        {"version 1\n0 m.map 4 4 0 0 1 1 inf\n", 2, "optimal-length", "not a number"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.text);
        const LoadError e = expect_load_error([&] { (void)parse_movingai_scenarios(c.text, "bad.scen"); });
        EXPECT_EQ(e.file(), "bad.scen");
        EXPECT_EQ(e.line(), c.line);
        EXPECT_EQ(e.field(), c.field);
        EXPECT_NE(e.message().find(c.message_part), std::string::npos) << e.what();
    }
}

TEST(MovingAiScen, ResolvesMapsLikeTheBenchmarkLayout) {
    TempDir dir;
    // <root>/scenarios/dao/a.map.scen names maps/dao/a.map relative to <root>.
    dir.write("maps/dao/a.map", square_map(4, 4));
    dir.write("scenarios/dao/a.map.scen", "version 1\n0\tmaps/dao/a.map\t4\t4\t0\t0\t3\t3\t4.24264\n");
    const auto scen = load_movingai_scenarios(dir.root / "scenarios/dao/a.map.scen");
    const auto found = resolve_scenario_map(dir.root / "scenarios/dao/a.map.scen", scen.scenarios[0]);
    EXPECT_TRUE(std::filesystem::equivalent(found, dir.root / "maps/dao/a.map"));

    // bg512 quirk: the line names maps/bgmaps/X.map; a smaller map of that name exists, the 512 map
    // lives in maps/bg512/ (the scenario's set folder). The size decides.
    dir.write("maps/bgmaps/X.map", square_map(3, 2));
    dir.write("maps/bg512/X.map", square_map(6, 5));
    dir.write("scenarios/bg512/X.map.scen", "version 1.0\n1 maps/bgmaps/X.map 6 5 0 0 5 4 5.65\n");
    const auto bg = load_movingai_scenarios(dir.root / "scenarios/bg512/X.map.scen");
    const auto bg_map = resolve_scenario_map(dir.root / "scenarios/bg512/X.map.scen", bg.scenarios[0]);
    EXPECT_TRUE(std::filesystem::equivalent(bg_map, dir.root / "maps/bg512/X.map"));

    // A map right next to the scenario file.
    dir.write("loose/b.map", square_map(2, 2));
    dir.write("loose/b.map.scen", "version 1\n0 somewhere/else/b.map 2 2 0 0 1 1 1.41421\n");
    const auto loose = load_movingai_scenarios(dir.root / "loose/b.map.scen");
    EXPECT_TRUE(std::filesystem::equivalent(resolve_scenario_map(dir.root / "loose/b.map.scen", loose.scenarios[0]),
                                            dir.root / "loose/b.map"));

    // Nothing fits: the error names the scenario file, line and the map.
    dir.write("lost/c.map.scen", "version 1\n\n0 maps/none/c.map 2 2 0 0 1 1 1.41421\n");
    const auto lost = load_movingai_scenarios(dir.root / "lost/c.map.scen");
    const LoadError e = expect_load_error([&] { (void)resolve_scenario_map(dir.root / "lost/c.map.scen", lost.scenarios[0]); });
    EXPECT_EQ(e.line(), 3u);
    EXPECT_EQ(e.field(), "map");
    EXPECT_NE(e.message().find("maps/none/c.map"), std::string::npos);
    // Wrong size only: says so.
    dir.write("maps/dao/d.map", square_map(3, 3));
    dir.write("scenarios/dao/d.map.scen", "version 1\n0 maps/dao/d.map 9 9 0 0 1 1 1.41421\n");
    const auto wrong = load_movingai_scenarios(dir.root / "scenarios/dao/d.map.scen");
    const LoadError w = expect_load_error([&] { (void)resolve_scenario_map(dir.root / "scenarios/dao/d.map.scen", wrong.scenarios[0]); });
    EXPECT_NE(w.message().find("3 x 3"), std::string::npos) << w.what();
}

TEST(MovingAiScen, CheckScenariosFit) {
    const auto map = parse_movingai_map(square_map(4, 4), "m.map");
    const auto good = parse_movingai_scenarios("version 1\n0 m.map 4 4 0 0 3 3 4.24264\n", "g.scen");
    EXPECT_NO_THROW(check_scenarios_fit(good, map, "m.map"));
    const auto other = parse_movingai_scenarios("version 1\n0 m.map 4 4 0 0 3 3 4.24264\n0 m.map 5 4 0 0 4 3 5\n", "o.scen");
    const LoadError e = expect_load_error([&] { check_scenarios_fit(other, map, "m.map"); });
    EXPECT_EQ(e.line(), 3u);
    EXPECT_EQ(e.file(), "o.scen");
}

TEST(MovingAiShared, ReadsEverySharedMapHeaderAndScenarioFile) {
    GAMEPLAN_REQUIRE_BENCHMARK_DATA();
    const auto root = gameplan::test::benchmark_dir() / "movingai";
    int files = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root / "scenarios")) {
        if (entry.path().extension() != ".scen") continue;
        const auto scen = load_movingai_scenarios(entry.path());
        ASSERT_FALSE(scen.scenarios.empty());
        const auto map_file = resolve_scenario_map(entry.path(), scen.scenarios.front());
        const auto map = load_movingai_map(map_file);
        EXPECT_NO_THROW(check_scenarios_fit(scen, map, map_file.string()));
        if (entry.path().filename() == "AR0011SR.map.scen") {
            EXPECT_EQ(map_file.parent_path().filename(), "bg512");
            EXPECT_EQ(scen.version, "1.0");
        }
        ++files;
    }
    EXPECT_EQ(files, 12);
}
