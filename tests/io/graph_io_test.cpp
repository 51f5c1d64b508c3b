// Graph JSON and CSV loaders: what they accept, and that every bad input names file, line, column, field.
#include <gameplan/io/graph_io.hpp>
#include <gameplan/io/load_error.hpp>
#include <gameplan/path/graph_search.hpp>

#include <nlohmann/json.hpp>

#include <bit>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::io;
using namespace gameplan::path;

namespace {

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

LoadError json_error(const std::string& text) {
    return expect_load_error([&] { (void)parse_graph_json(text, "g.json"); });
}
LoadError csv_error(const std::string& text) {
    return expect_load_error([&] { (void)parse_graph_csv(text, "g.csv"); });
}

double cost_between(const Graph& g, const std::string& a, const std::string& b) {
    GraphPathfinder f;
    GraphPath p;
    return f.find_path(g, g.find(a), g.find(b), {}, p) == Status::Found ? p.cost : -1.0;
}

}  // namespace

TEST(GraphJson, LoadsNodesPositionsAndEdges) {
    const Graph g = parse_graph_json(R"({
  "undirected": true,
  "_note": "ignored",
  "nodes": [{"id": "a", "x": 0, "y": 0}, {"id": 7, "x": 3, "y": 4}, {"id": "c", "x": 3, "y": 0}],
  "edges": [{"from": "a", "to": 7},
            {"from": 7, "to": "c", "cost": 1.5, "undirected": false},
            {"from": "a", "to": "c", "cost": 10}]
})", "g.json");
    ASSERT_EQ(g.node_count(), 3u);
    EXPECT_EQ(g.arc_count(), 5u);
    EXPECT_TRUE(g.has_positions());
    EXPECT_EQ(g.find("7"), 1u);
    EXPECT_DOUBLE_EQ(cost_between(g, "a", "c"), 6.5);   // a-7 (5, from positions) then 7->c
    EXPECT_DOUBLE_EQ(cost_between(g, "c", "a"), 10.0);  // 7->c is one-way
    EXPECT_DOUBLE_EQ(cost_between(g, "7", "a"), 5.0);
}

TEST(GraphJson, WithoutPositionsCostsAreRequired) {
    const Graph g = parse_graph_json(R"({"nodes": [{"id": "a"}, {"id": "b"}], "edges": [{"from": "a", "to": "b", "cost": 0}]})", "g");
    EXPECT_FALSE(g.has_positions());
    EXPECT_EQ(g.arc_count(), 1u);
    const LoadError e = json_error(R"({"nodes": [{"id": "a"}, {"id": "b"}],
 "edges": [{"from": "a", "to": "b"}]})");
    EXPECT_EQ(e.line(), 2u);
    EXPECT_EQ(e.field(), "edges[0].cost");
}

TEST(GraphJson, BadInputNamesThePlace) {
    struct Case {
        const char* text;
        std::size_t line, column;
        const char* field;
        const char* words;
    };
    const Case cases[] = {
        {"{\"nodes\": [{\"id\": \"a\"}],\n \"edges\": [{\"from\": \"a\", \"to\": \"zz\", \"cost\": 1}]}", 2, 32, "edges[0].to", "unknown node id 'zz'"},
        {"{\"nodes\": [{\"id\": \"a\"}, {\"id\": \"b\"}],\n \"edges\": [{\"from\": \"a\", \"to\": \"b\", \"cost\": -2}]}", 2, 45, "edges[0].cost", "finite number >= 0"},
        {"{\"nodes\": [{\"id\": \"a\"},\n  {\"id\": \"a\"}], \"edges\": []}", 2, 10, "nodes[1].id", "duplicate node id 'a'"},
        {"{\"nodes\": [{\"id\": \"a\"}], \"edges\": [{\"from\": \"a\", \"to\": \"a\", \"cost\": NaN}]}", 1, 69, "edges[0].cost", ""},
        {"{\"nodes\": [{\"id\": \"a\"}], \"edges\": [{\"from\": \"a\", \"to\": \"a\", \"cost\": 1e999}]}", 1, 69, "edges[0].cost", "out of range"},
        {"{\"nodes\": [{\"id\": \"a\", \"x\": 1, \"y\": 2}, {\"id\": \"b\"}], \"edges\": []}", 1, 41, "nodes[1]", "missing position"},
        {"{\"nodes\": [{\"id\": \"a\", \"x\": 1}], \"edges\": []}", 1, 0, "nodes[0].y", "needs both x and y"},
        {"{\"nodes\": [{\"id\": -3}], \"edges\": []}", 1, 19, "nodes[0].id", "integer >= 0"},
        {"{\"nodes\": [{\"id\": \"\"}], \"edges\": []}", 1, 19, "nodes[0].id", "empty string"},
        {"{\"nodes\": [{\"id\": \"a\"}], \"edges\": [{\"from\": \"a\", \"to\": \"a\", \"cost\": 1, \"weight\": 2}]}", 1, 0, "edges[0].weight", "unknown field"},
        {"{\"nodes\": [{\"id\": \"a\"}], \"edges\": [{\"from\": \"a\", \"to\": \"a\", \"cost\": 1, \"undirected\": 1}]}", 1, 0, "edges[0].undirected", "true or false"},
        {"{\"nodes\": [{\"id\": \"a\"}]}", 1, 0, "edges", "missing required field"},
        {"{\"edges\": []}", 1, 0, "nodes", "missing required field"},
        {"[1, 2]", 1, 1, "", "must be an object"},
        {"{\"nodes\": [{\"id\": \"a\"}], \"edges\": [", 1, 36, "edges[0]", "truncated"},
        {"{\"nodes\": [], \"nodes\": [], \"edges\": []}", 1, 0, "nodes", "duplicate key"},
    };
    for (const Case& c : cases) {
        const LoadError e = json_error(c.text);
        EXPECT_EQ(e.file(), "g.json") << c.text;
        EXPECT_EQ(e.line(), c.line) << c.text << "\n" << e.what();
        if (c.column) {
            EXPECT_EQ(e.column(), c.column) << c.text << "\n" << e.what();
        }
        EXPECT_GT(e.column(), 0u) << c.text << "\n" << e.what();
        EXPECT_EQ(e.field(), c.field) << c.text << "\n" << e.what();
        EXPECT_NE(std::string(e.what()).find(c.words), std::string::npos) << e.what();
    }
    EXPECT_EQ(json_error("   ").line(), 0u);
}

TEST(GraphCsv, LoadsEdgeListsAsSpreadsheetsWriteThem) {
    const Graph g = parse_graph_csv("\xEF\xBB\xBF# a comment line, with \"quotes\"\r\n"
                                    "To,From,Cost,Undirected\r\n"
                                    "b,a,2,\r\n"
                                    "\r\n"
                                    "\"c, the third\",b,1.5e0,yes\r\n"
                                    "  a , \"c, the third\" ,4,TRUE\r\n"
                                    "\"say \"\"hi\"\"\",a,0,0\r\n",
                                    "g.csv");
    ASSERT_EQ(g.node_count(), 4u);
    EXPECT_EQ(g.id(0), "a");  // first appearance: from before to on each line
    EXPECT_EQ(g.id(1), "b");
    EXPECT_NE(g.find("c, the third"), kNoGraphNode);
    EXPECT_NE(g.find("say \"hi\""), kNoGraphNode);
    EXPECT_EQ(g.arc_count(), 6u);
    EXPECT_FALSE(g.has_positions());
    EXPECT_DOUBLE_EQ(cost_between(g, "a", "b"), 2.0);
    EXPECT_DOUBLE_EQ(cost_between(g, "b", "a"), 5.5);  // b -> c (1.5) -> a (4)
    EXPECT_DOUBLE_EQ(cost_between(g, "a", "say \"hi\""), 0.0);
    EXPECT_EQ(cost_between(g, "say \"hi\"", "a"), -1.0);
}

TEST(GraphCsv, BadInputNamesThePlace) {
    struct Case {
        const char* text;
        std::size_t line, column;
        const char* field;
        const char* words;
    };
    const Case cases[] = {
        {"from,to,cost\na,b,-1\n", 2, 5, "cost", "finite number >= 0"},
        {"from,to,cost\na,b,1\nb,c,nan\n", 3, 5, "cost", "not a number 'nan'"},
        {"from,to,cost\na,b,inf\n", 2, 5, "cost", "not a number"},
        {"from,to,cost\na,b,1e999\n", 2, 5, "cost", "out of range"},
        {"from,to,cost\na,b,\n", 2, 5, "cost", "missing cost"},
        {"from,to,cost\na,,1\n", 2, 3, "to", "empty node id"},
        {"from,to,cost\na,b,1,true\n", 2, 7, "", "expected 3 fields"},
        {"from,to\na,b\n", 1, 1, "header", "missing column 'cost'"},
        {"from,to,cost,weight\n", 1, 14, "header", "unknown column 'weight'"},
        {"from,to,cost,undirected\na,b,1,maybe\n", 2, 7, "undirected", "true/false"},
        {"from,to,cost\n\"a,b,1\n", 2, 1, "", "unterminated"},
        {"from,to,cost\na\"x,b,1\n", 2, 2, "", "quote inside an unquoted field"},
        {"from,to,cost\n\"a\"x,b,1\n", 2, 4, "", "after a quoted field"},
        {"from,from,cost\n", 1, 6, "header", "appears twice"},
    };
    for (const Case& c : cases) {
        const LoadError e = csv_error(c.text);
        EXPECT_EQ(e.file(), "g.csv");
        EXPECT_EQ(e.line(), c.line) << c.text << "\n" << e.what();
        EXPECT_EQ(e.column(), c.column) << c.text << "\n" << e.what();
        EXPECT_EQ(e.field(), c.field) << c.text << "\n" << e.what();
        EXPECT_NE(std::string(e.what()).find(c.words), std::string::npos) << e.what();
    }
    EXPECT_EQ(csv_error("").field(), "header");
    EXPECT_EQ(csv_error("# only a comment\n\n").field(), "header");
}

TEST(GraphFiles, LoadGraphPicksTheFormatByExtension) {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("gameplan_graph_io_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
    std::filesystem::create_directories(dir);
    {
        std::ofstream(dir / "e.CSV") << "from,to,cost\nx,y,3\n";
        std::ofstream(dir / "e.json") << R"({"nodes": [{"id": "x"}, {"id": "y"}], "edges": [{"from": "x", "to": "y", "cost": 4}]})";
    }
    EXPECT_DOUBLE_EQ(cost_between(load_graph(dir / "e.CSV"), "x", "y"), 3.0);
    EXPECT_DOUBLE_EQ(cost_between(load_graph(dir / "e.json"), "x", "y"), 4.0);
    const LoadError missing = expect_load_error([&] { (void)load_graph(dir / "none.json"); });
    EXPECT_NE(std::string(missing.what()).find("no such file"), std::string::npos);
    const LoadError folder = expect_load_error([&] { (void)load_graph(dir); });
    EXPECT_NE(std::string(folder.what()).find("directory"), std::string::npos);
    std::filesystem::remove_all(dir);
}

// Hostile input: deep nesting is refused at the bracket that crosses the limit (before any value is
// built), a number beyond double range is named at its place, and a device is never read.
TEST(GraphFiles, HostileInputIsRefusedWithAPlace) {
    std::string deep = R"({"nodes": [], "edges": [], "_x": )";
    const std::size_t opened_at = deep.size();
    for (int i = 0; i < 100000; ++i) deep += '[';
    const LoadError nested = json_error(deep);
    EXPECT_EQ(nested.line(), 1u);
    // The document is level 1 and "_x"'s first '[' is level 2, so the bracket that opens level 257 is
    // the 256th '[' of the run.
    EXPECT_EQ(nested.column(), opened_at + 256u);
    EXPECT_NE(std::string(nested.what()).find("nested deeper than 256"), std::string::npos);

    const LoadError huge = json_error("{\"nodes\": [{\"id\": \"a\", \"x\": 1e999}], \"edges\": []}");
    EXPECT_EQ(huge.line(), 1u);
    EXPECT_EQ(huge.column(), 29u);  // the number's first character
    EXPECT_NE(std::string(huge.what()).find("out of range"), std::string::npos);

    if (std::filesystem::exists("/dev/zero")) {
        const LoadError device = expect_load_error([] { (void)load_graph("/dev/zero"); });
        EXPECT_NE(std::string(device.what()).find("device"), std::string::npos);
    }
}

// ---- writers: what is written loads back as the same graph ----

namespace {

using ArcKey = std::tuple<std::string, std::string, std::uint64_t>;  // from id, to id, cost bits

// Every arc of `g`, by ids and exact cost, in a multiset: the reference a written-and-read graph must equal.
std::multiset<ArcKey> arcs_by_id(const Graph& g) {
    std::multiset<ArcKey> out;
    for (GraphNode u = 0; u < g.node_count(); ++u)
        for (const GraphArc& a : g.arcs(u)) out.insert({g.id(u), g.id(a.to), std::bit_cast<std::uint64_t>(a.cost)});
    return out;
}

// A random graph with ids a reader could mistake (commas, quotes, spaces at the ends, '#', line breaks, a
// byte-order mark, non-ASCII), costs from 0 to 1e300, parallel arcs, self-loops, both kinds of edges.
Graph random_graph(std::mt19937& rng, bool positions, bool undirected_only = false) {
    static const std::vector<std::string> kTricky = {"a,b", "say \"hi\"", " lead", "trail ", "#hash", "line\nbreak",
                                                     "\xEF\xBB\xBF" "bom", "日本", "x", "\ttab", "7", "cr\rlf"};
    GraphBuilder b;
    const int n = 2 + int(rng() % 12);
    for (int i = 0; i < n; ++i) {
        std::string id = kTricky[rng() % kTricky.size()] + std::to_string(i);
        if (rng() % 3 == 0) id = std::to_string(i) + kTricky[rng() % kTricky.size()];
        if (positions)
            (void)b.add_node(id, std::ldexp(double(rng() % 2001) - 1000.0, int(rng() % 40) - 20), double(rng() % 100) / 7.0);
        else (void)b.add_node(id);
    }
    const int m = int(rng() % 30);
    for (int k = 0; k < m; ++k) {
        const GraphNode u = rng() % unsigned(n), v = rng() % 5 == 0 ? u : GraphNode(rng() % unsigned(n));
        const double costs[] = {0.0, 1.0, 0.1, std::sqrt(2.0), 1e300, 5e-324, double(rng() % 1000) / 3.0};
        const double cost = costs[rng() % 7];
        EXPECT_EQ(b.add_edge(u, v, cost, undirected_only || rng() % 2 == 0), GraphError::None);
        if (rng() % 6 == 0) {
            EXPECT_EQ(b.add_edge(u, v, cost, undirected_only), GraphError::None);  // a parallel arc
        }
    }
    return b.build();
}

}  // namespace

TEST(GraphWriters, JsonLoadsBackAsTheSameGraph) {
    std::mt19937 rng(3);
    for (int round = 0; round < 300; ++round) {
        const Graph g = random_graph(rng, round % 2 == 0);
        const std::string text = write_graph_json(g);
        const Graph back = parse_graph_json(text, "written.json");
        ASSERT_EQ(back.node_count(), g.node_count()) << text;
        ASSERT_EQ(back.has_positions(), g.has_positions());
        for (GraphNode n = 0; n < g.node_count(); ++n) {
            EXPECT_EQ(back.id(n), g.id(n));
            if (g.has_positions()) {
                EXPECT_EQ(back.position(n), g.position(n));
            }
            // The same arcs at every node (by index: the nodes keep their order).
            std::multiset<std::pair<GraphNode, std::uint64_t>> want, got;
            for (const GraphArc& a : g.arcs(n)) want.insert({a.to, std::bit_cast<std::uint64_t>(a.cost)});
            for (const GraphArc& a : back.arcs(n)) got.insert({a.to, std::bit_cast<std::uint64_t>(a.cost)});
            EXPECT_EQ(got, want) << "node " << n << " of\n" << text;
        }
    }
}

TEST(GraphWriters, CsvLoadsBackWithTheSameArcs) {
    std::mt19937 rng(4);
    for (int round = 0; round < 300; ++round) {
        const Graph g = random_graph(rng, false);
        const std::string text = write_graph_csv(g);
        const Graph back = parse_graph_csv(text, "written.csv");
        EXPECT_EQ(arcs_by_id(back), arcs_by_id(g)) << text;
        std::size_t with_arcs = 0;  // the CSV's nodes are the ids its edges name
        for (GraphNode u = 0; u < g.node_count(); ++u) {
            bool touched = !g.arcs(u).empty();
            for (GraphNode v = 0; v < g.node_count() && !touched; ++v)
                for (const GraphArc& a : g.arcs(v)) touched = touched || a.to == u;
            with_arcs += touched ? 1 : 0;
        }
        EXPECT_EQ(back.node_count(), with_arcs);
    }
}

TEST(GraphWriters, UndirectedEdgesAreWrittenOnce) {
    std::mt19937 rng(5);
    for (int round = 0; round < 50; ++round) {
        const Graph g = random_graph(rng, true, true);
        std::size_t loops = 0;
        for (GraphNode u = 0; u < g.node_count(); ++u)
            for (const GraphArc& a : g.arcs(u)) loops += a.to == u ? 1 : 0;
        // An undirected self-loop is two arcs u -> u, written as two lines; every other edge as one.
        const auto json = nlohmann::json::parse(write_graph_json(g));
        EXPECT_EQ(json["edges"].size(), (g.arc_count() - loops) / 2 + loops);
        for (const auto& e : json["edges"]) EXPECT_EQ(e.contains("undirected"), e["from"] != e["to"]);
    }
}

TEST(GraphWriters, WhatJsonCannotHoldIsRefused) {
    // A graph built in code may name a node with bytes that are not UTF-8; graph files hold UTF-8 only.
    GraphBuilder b;
    (void)b.add_node("\xff\xfe");
    (void)b.add_node("b");
    ASSERT_EQ(b.add_edge(0, 1, 1.0), GraphError::None);
    const Graph latin = b.build();
    EXPECT_THROW((void)write_graph_json(latin), std::invalid_argument);
    EXPECT_THROW((void)write_graph_csv(latin), std::invalid_argument);
    const Graph g = parse_graph_csv("from,to,cost\na,b,1\n", "g.csv");
    const LoadError e = expect_load_error([&] { save_graph("/nonexistent-dir/g.json", g); });
    EXPECT_EQ(e.file(), "/nonexistent-dir/g.json");
    EXPECT_NE(std::string(e.what()).find("cannot write"), std::string::npos);
}

TEST(GraphCsv, ReadsEveryFiniteCostIncludingSubnormalOnes) {
    const Graph g = parse_graph_csv("from,to,cost\na,b,5e-324\nb,c,+2.5\nc,d,2.2250738585072014e-308\n", "g.csv");
    EXPECT_EQ(g.arcs(0)[0].cost, 5e-324);
    EXPECT_EQ(g.arcs(1)[0].cost, 2.5);
    EXPECT_EQ(g.arcs(2)[0].cost, 2.2250738585072014e-308);
    EXPECT_NE(std::string(csv_error("from,to,cost\na,b,1e-400\n").what()).find("g.csv:2:5: cost: number out of range '1e-400'"),
              std::string::npos);
    EXPECT_NE(std::string(csv_error("from,to,cost\na,b,1e400\n").what()).find("number out of range"), std::string::npos);
    EXPECT_NE(std::string(csv_error("from,to,cost\na,b,+-1\n").what()).find("not a number '+-1'"), std::string::npos);
    EXPECT_NE(std::string(csv_error("from,to,cost\na,b,1e\n").what()).find("not a number '1e'"), std::string::npos);
}

TEST(GraphWriters, SaveGraphPicksTheFormatByExtension) {
    const Graph g = parse_graph_json(
        R"({"nodes": [{"id": "a", "x": 0, "y": 0}, {"id": "b", "x": 3, "y": 4}, {"id": "lonely", "x": 9, "y": 9}],
            "edges": [{"from": "a", "to": "b", "undirected": true}]})",
        "g.json");
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / "gameplan_graph_writer_test";
    std::filesystem::create_directories(dir);
    save_graph(dir / "g.json", g);
    save_graph(dir / "g.CSV", g);
    const Graph json = load_graph(dir / "g.json"), csv = load_graph(dir / "g.CSV");
    EXPECT_EQ(json.node_count(), 3u);
    EXPECT_TRUE(json.has_positions());
    EXPECT_DOUBLE_EQ(cost_between(json, "b", "a"), 5.0);
    EXPECT_EQ(csv.node_count(), 2u);  // "lonely" has no edge
    EXPECT_FALSE(csv.has_positions());
    EXPECT_DOUBLE_EQ(cost_between(csv, "a", "b"), 5.0);
    std::filesystem::remove_all(dir);
}
