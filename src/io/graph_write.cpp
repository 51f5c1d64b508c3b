// Graph writers: graph JSON and CSV edge lists that the readers of graph_json.cpp load back (graph_io.hpp).
#include <gameplan/io/graph_io.hpp>
#include <gameplan/io/load_error.hpp>

#include "json_locator.hpp"
#include "number_text.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

namespace gameplan::io {

namespace {

// A cost's bits, to compare costs exactly (std::bit_cast is missing from some C++20 libraries).
std::uint64_t bits_of(double v) noexcept {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    return bits;
}

// One line of the edge list: an arc, or an undirected pair of equal arcs written once.
struct EdgeLine {
    path::GraphNode from;
    path::GraphNode to;
    double cost;
    bool undirected;
};

// The graph's arcs, node by node in their order, with every arc u -> v that has a not yet written twin
// v -> u of the same cost written once as an undirected edge (so a graph built from undirected edges
// comes out as it was written). Loading the lines gives every node the same multiset of arcs.
std::vector<EdgeLine> edge_lines(const path::Graph& graph) {
    using Key = std::tuple<path::GraphNode, path::GraphNode, std::uint64_t>;
    // Arcs of each (from, to, cost) neither written nor taken as a twin yet. An arc whose count is down to
    // 0 when its turn comes was taken as a twin: written already.
    std::map<Key, std::uint32_t> unwritten;
    for (path::GraphNode u = 0; u < graph.node_count(); ++u)
        for (const path::GraphArc& a : graph.arcs(u)) ++unwritten[Key{u, a.to, bits_of(a.cost)}];
    std::vector<EdgeLine> lines;
    for (path::GraphNode u = 0; u < graph.node_count(); ++u)
        for (const path::GraphArc& a : graph.arcs(u)) {
            const std::uint64_t bits = bits_of(a.cost);
            std::uint32_t& left = unwritten[Key{u, a.to, bits}];
            if (left == 0) continue;
            --left;
            bool undirected = false;
            if (a.to != u) {
                const auto twin = unwritten.find(Key{a.to, u, bits});
                if (twin != unwritten.end() && twin->second > 0) {
                    --twin->second;
                    undirected = true;
                }
            }
            lines.push_back({u, a.to, a.cost, undirected});
        }
    return lines;
}

// Graph files are UTF-8 (both readers refuse anything else), and so are ids read from them; a graph built
// in code may hold any bytes.
void check_ids(const path::Graph& graph) {
    for (path::GraphNode n = 0; n < graph.node_count(); ++n)
        if (detail::invalid_utf8_offset(graph.id(n)) != std::string_view::npos)
            throw std::invalid_argument("the id of node " + std::to_string(n) +
                                        " is not valid UTF-8 text; graph files hold UTF-8 only");
}

std::string json_text(const nlohmann::json& value) { return value.dump(); }

// A CSV field, quoted (RFC 4180) when the reader would otherwise split, trim or skip it.
std::string csv_field(const std::string& text) {
    bool quote = text.empty() || text.front() == ' ' || text.front() == '\t' || text.back() == ' ' || text.back() == '\t' ||
                 text.front() == '#';
    for (const char c : text) quote = quote || c == ',' || c == '"' || c == '\n' || c == '\r';
    if (text.size() >= 3 && static_cast<unsigned char>(text[0]) == 0xEF && static_cast<unsigned char>(text[1]) == 0xBB &&
        static_cast<unsigned char>(text[2]) == 0xBF)
        quote = true;  // a byte-order mark at the start of the file would be dropped
    if (!quote) return text;
    std::string out = "\"";
    for (const char c : text) {
        if (c == '"') out += '"';
        out += c;
    }
    out += '"';
    return out;
}

}  // namespace

std::string write_graph_json(const path::Graph& graph) {
    check_ids(graph);
    std::string out = "{\"nodes\": [";
    for (path::GraphNode n = 0; n < graph.node_count(); ++n) {
        out += n == 0 ? "\n  {\"id\": " : ",\n  {\"id\": ";
        out += json_text(graph.id(n));
        if (graph.has_positions()) {
            out += ", \"x\": " + json_text(graph.position(n).x);
            out += ", \"y\": " + json_text(graph.position(n).y);
        }
        out += '}';
    }
    out += "],\n \"edges\": [";
    bool first = true;
    for (const EdgeLine& e : edge_lines(graph)) {
        out += first ? "\n  {\"from\": " : ",\n  {\"from\": ";
        first = false;
        out += json_text(graph.id(e.from)) + ", \"to\": " + json_text(graph.id(e.to)) + ", \"cost\": " + json_text(e.cost);
        if (e.undirected) out += ", \"undirected\": true";
        out += '}';
    }
    out += "]}\n";
    return out;
}

std::string write_graph_csv(const path::Graph& graph) {
    check_ids(graph);
    std::string out = "from,to,cost,undirected\n";
    for (const EdgeLine& e : edge_lines(graph)) {
        out += csv_field(graph.id(e.from)) + ',' + csv_field(graph.id(e.to)) + ',' + detail::shortest_text(e.cost) + ',' +
               (e.undirected ? "true" : "false") + '\n';
    }
    return out;
}

void save_graph(const std::filesystem::path& file, const path::Graph& graph) {
    const std::string text = is_csv_graph_file(file) ? write_graph_csv(graph) : write_graph_json(graph);
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    if (!out) throw LoadError(file.string(), 0, 0, "", "cannot write the graph file");
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.close();
    if (!out) throw LoadError(file.string(), 0, 0, "", "cannot write the graph file");
}

}  // namespace gameplan::io
