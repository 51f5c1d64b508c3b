#pragma once
/// @file graph_io.hpp
/// Readers and writers for graph files: JSON (nodes with optional positions, edges) and a CSV edge list
/// that any spreadsheet can export. docs/formats.md describes both formats in full.
///
/// Overview
/// --------
/// Graph JSON:
///
///     {"undirected": true,
///      "nodes": [{"id": "gate", "x": 0, "y": 0}, {"id": "hall", "x": 4, "y": 3}, ...],
///      "edges": [{"from": "gate", "to": "hall", "cost": 5}, {"from": "hall", "to": "gate", "undirected": false}, ...]}
///
/// Node ids are non-empty strings or non-negative integers (an integer id 7 is the id "7"); ids are
/// unique. Either every node has `x` and `y` (finite numbers) or none has. An edge's `cost` is a finite
/// number >= 0; it may be left out when the graph has positions, and is then the Euclidean distance
/// between the two nodes. An edge is directed unless its own `"undirected": true`, or the file's top-level
/// `"undirected": true` with no per-edge override. Keys starting with `_` are ignored (comments).
///
/// Graph CSV (an edge list): a header line naming the columns, in any order: `from`, `to`, `cost`
/// (required) and `undirected` (optional: `true`/`false`, `yes`/`no`, `1`/`0`, or empty for false).
/// Then one edge per line. Nodes are the ids that appear, numbered in order of first appearance; there
/// are no positions (searches are Dijkstra). Fields may be double-quoted as spreadsheets write them
/// (`"Rock, Paper"`, `""` for a quote inside). Blank lines and lines starting with `#` are skipped; a
/// UTF-8 byte-order mark and `\r\n` line ends are accepted. A line with a different number of fields
/// than the header is an error.
///
/// Errors: every reader throws `io::LoadError` naming the file, the 1-based line and column and the
/// field (`edges[3].cost` in JSON, the column name `cost` in CSV): unknown node ids, duplicate ids,
/// negative, NaN or infinite costs, mixed positions, malformed text.
///
/// Writers: `write_graph_json` writes every node (with its position when the graph has them) and every
/// arc; an arc u -> v with an unwritten twin v -> u of the same cost is written once, as an undirected
/// edge. Loading the text gives the same nodes in the same order, the same positions, and every node the
/// same arcs (costs to the bit), possibly in another order. The CSV edge list has no positions and no
/// nodes without arcs (its nodes are the ids its edges name), so it keeps only the arcs: the same arcs
/// between the same ids.
///
/// Thread-safety: all functions are reentrant.

#include <gameplan/path/graph.hpp>

#include <filesystem>
#include <string>
#include <string_view>

namespace gameplan::io {

/// Parses graph JSON text. `source_name` names the text in errors. Throws LoadError.
[[nodiscard]] path::Graph parse_graph_json(std::string_view text, const std::string& source_name);
/// Parses a CSV edge list. Throws LoadError.
[[nodiscard]] path::Graph parse_graph_csv(std::string_view text, const std::string& source_name);
/// True when `file` names a CSV edge list (its extension is `.csv`, any case); graph files are JSON otherwise.
[[nodiscard]] bool is_csv_graph_file(const std::filesystem::path& file);
/// Reads a graph file: CSV when the name ends in `.csv` (any case), JSON otherwise. Throws LoadError
/// (also for a missing or unreadable file).
[[nodiscard]] path::Graph load_graph(const std::filesystem::path& file);

/// Graph JSON of `graph`, one node or edge per line (see the overview). Throws std::invalid_argument for a
/// node id that is not valid UTF-8 (graph files hold UTF-8 only; a graph built in code may hold any bytes).
[[nodiscard]] std::string write_graph_json(const path::Graph& graph);
/// A CSV edge list of `graph`'s arcs (header `from,to,cost,undirected`; fields quoted where needed).
/// Throws std::invalid_argument as write_graph_json does.
[[nodiscard]] std::string write_graph_csv(const path::Graph& graph);
/// Writes `graph` to `file`: a CSV edge list when the name ends in `.csv` (any case), JSON otherwise.
/// Throws LoadError naming the file when it cannot be written.
void save_graph(const std::filesystem::path& file, const path::Graph& graph);

}  // namespace gameplan::io
