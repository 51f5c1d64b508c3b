// libFuzzer target for the graph JSON reader. Any input must either load or throw io::LoadError; a
// loaded graph is then searched (A*, Dijkstra, nearest of many, a flood) with a small budget, and written
// in both formats and read back with the same arcs.
#include <gameplan/io/graph_io.hpp>
#include <gameplan/io/load_error.hpp>
#include <gameplan/path/graph_search.hpp>

#include "fuzz_graph_search.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const gameplan::path::Graph graph = gameplan::io::parse_graph_json(text, "fuzz.json");
        gameplan::fuzz::search_graph(graph);
        gameplan::fuzz::write_and_read_back(graph);
    } catch (const gameplan::io::LoadError&) {
    }
    return 0;
}
