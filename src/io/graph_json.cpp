// Graph JSON and CSV loaders (io/graph_io.hpp; docs/formats.md, "Graph JSON" and "Graph CSV").
#include <gameplan/io/graph_io.hpp>
#include <gameplan/io/load_error.hpp>

#include <gameplan/io/limits.hpp>

#include "json_document.hpp"
#include "json_locator.hpp"
#include "json_values.hpp"
#include "number_text.hpp"

#include <nlohmann/json.hpp>

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <optional>
#include <string>

namespace gameplan::io {

namespace {

using Json = nlohmann::ordered_json;
using detail::JsonPath;
using detail::operator/;
using detail::printable;

class GraphJsonLoader : public detail::JsonValueReader<GraphJsonLoader> {
    friend class detail::JsonValueReader<GraphJsonLoader>;  // reports through fail()

public:
    GraphJsonLoader(std::string_view text, const std::string& file) : m_text(text), m_file(file) {}

    path::Graph load() {
        bool blank = true;
        for (const char c : m_text) blank &= std::isspace(static_cast<unsigned char>(c)) != 0;
        if (blank) throw LoadError(m_file, 0, 0, "", "empty file (expected a JSON object with \"nodes\" and \"edges\")");
        const Json root = detail::parse_checked_json(m_text, m_file, kDefaultMaxJsonDepth);
        return read(root);
    }

private:
    [[noreturn]] void fail_at(std::size_t offset, const JsonPath& path, const std::string& message) const {
        const detail::TextPosition p = detail::position_of(m_text, offset);
        throw LoadError(m_file, p.line, p.column, detail::format_json_path(path), message);
    }

    // Error at a field of a valid document: points at the deepest existing prefix of `path`.
    [[noreturn]] void fail(const JsonPath& path, const std::string& message) const {
        fail_at(detail::field_error_offset(m_text, path), path, message);
    }

    // Error at a field's value (where the bad number or id is), falling back to fail().
    [[noreturn]] void fail_value(const JsonPath& path, const std::string& message) const {
        const detail::JsonLocation loc = detail::locate(m_text, path);
        if (loc.found && loc.begin != std::string_view::npos) fail_at(loc.begin, path, message);
        fail(path, message);
    }

    // A node id: a non-empty string, or a non-negative integer (as its decimal text).
    std::string id_of(const Json& j, const JsonPath& path) const {
        if (j.is_string()) {
            if (j.get_ref<const std::string&>().empty()) fail_value(path, "must be a non-empty string or an integer >= 0 (found an empty string)");
            return j.get<std::string>();
        }
        if (j.is_number_unsigned()) return std::to_string(j.get<std::uint64_t>());
        if (j.is_number_integer() && j.get<std::int64_t>() >= 0) return std::to_string(j.get<std::int64_t>());
        fail_value(path, std::string("must be a non-empty string or an integer >= 0 (found ") +
                             (j.is_number() ? "a negative or fractional number" : type_name(j)) + ")");
    }

    double finite(const Json& j, const JsonPath& path, bool non_negative) const {
        const char* what = non_negative ? "must be a finite number >= 0" : "must be a finite number";
        if (!j.is_number()) fail_value(path, std::string(what) + " (found " + type_name(j) + ")");
        const double v = j.get<double>();
        if (!std::isfinite(v)) fail_value(path, std::string(what) + " (found a number out of range)");
        if (non_negative && v < 0) fail_value(path, std::string(what) + " (found " + printable(j.dump()) + ")");
        return v;
    }

    bool boolean(const Json& j, const JsonPath& path) const {
        if (!j.is_boolean()) fail_value(path, std::string("must be true or false (found ") + type_name(j) + ")");
        return j.get<bool>();
    }

    path::Graph read(const Json& root) {
        const JsonPath top{};
        if (!root.is_object()) fail(top, std::string("must be an object with \"nodes\" and \"edges\" (found ") + type_name(root) + ")");
        check_keys(root, top, {"undirected", "nodes", "edges"});
        const bool file_undirected = root.contains("undirected") ? boolean(root["undirected"], top / "undirected") : false;
        if (!root.contains("nodes")) fail(top / "nodes", "missing required field (an array of {\"id\", \"x\", \"y\"})");
        const Json& nodes = root["nodes"];
        if (!nodes.is_array()) fail(top / "nodes", std::string("must be an array (found ") + type_name(nodes) + ")");
        path::GraphBuilder builder;
        bool positions = false;
        for (std::size_t i = 0; i < nodes.size(); ++i) {
            const JsonPath p = top / "nodes" / i;
            const Json& n = nodes[i];
            if (!n.is_object()) fail(p, std::string("must be an object {\"id\", \"x\", \"y\"} (found ") + type_name(n) + ")");
            check_keys(n, p, {"id", "x", "y"});
            if (!n.contains("id")) fail(p / "id", "missing required field (a string or an integer >= 0)");
            const std::string id = id_of(n["id"], p / "id");
            const bool has_x = n.contains("x"), has_y = n.contains("y");
            if (has_x != has_y) fail(p / (has_x ? "y" : "x"), "missing (a position needs both x and y)");
            if (i == 0) positions = has_x;
            else if (has_x != positions)
                fail(has_x ? p / "x" : p, positions ? "missing position (the first node has x and y, so every node needs them)"
                                                    : "unexpected position (the first node has none, so no node may have one)");
            path::GraphError error = path::GraphError::None;
            if (has_x) (void)builder.add_node(id, finite(n["x"], p / "x", false), finite(n["y"], p / "y", false), &error);
            else (void)builder.add_node(id, &error);
            if (error == path::GraphError::DuplicateId) {
                const std::size_t first = builder.find(id);
                fail_value(p / "id", "duplicate node id '" + printable(id) + "' (first used by nodes[" + std::to_string(first) + "])");
            }
            if (error != path::GraphError::None) fail_value(p / "id", std::string(path::describe(error)));
        }
        if (!root.contains("edges")) fail(top / "edges", "missing required field (an array of {\"from\", \"to\", \"cost\"})");
        const Json& edges = root["edges"];
        if (!edges.is_array()) fail(top / "edges", std::string("must be an array (found ") + type_name(edges) + ")");
        for (std::size_t i = 0; i < edges.size(); ++i) {
            const JsonPath p = top / "edges" / i;
            const Json& e = edges[i];
            if (!e.is_object()) fail(p, std::string("must be an object {\"from\", \"to\", \"cost\"} (found ") + type_name(e) + ")");
            check_keys(e, p, {"from", "to", "cost", "undirected"});
            path::GraphNode ends[2] = {path::kNoGraphNode, path::kNoGraphNode};
            const char* names[2] = {"from", "to"};
            for (int k = 0; k < 2; ++k) {
                if (!e.contains(names[k])) fail(p / names[k], "missing required field (a node id)");
                const std::string id = id_of(e[names[k]], p / names[k]);
                ends[k] = builder.find(id);
                if (ends[k] == path::kNoGraphNode) fail_value(p / names[k], "unknown node id '" + printable(id) + "' (not in \"nodes\")");
            }
            const bool undirected = e.contains("undirected") ? boolean(e["undirected"], p / "undirected") : file_undirected;
            path::GraphError error = path::GraphError::None;
            if (e.contains("cost")) {
                error = builder.add_edge(ends[0], ends[1], finite(e["cost"], p / "cost", true), undirected);
            } else {
                if (!positions) fail(p / "cost", "missing required field (a finite number >= 0; it may be left out only when the nodes have positions)");
                error = builder.add_edge(ends[0], ends[1], undirected);
            }
            if (error != path::GraphError::None) fail(p, std::string(path::describe(error)));
        }
        return builder.build();
    }

    std::string_view m_text;
    const std::string& m_file;
};

// ---- CSV ------------------------------------------------------------------------------------------

class GraphCsvLoader {
public:
    GraphCsvLoader(std::string_view text, const std::string& file) : m_text(text), m_file(file) {}

    path::Graph load() {
        if (const std::size_t bad = detail::invalid_utf8_offset(m_text); bad != std::string_view::npos) {
            const detail::TextPosition p = detail::position_of(m_text, bad);
            throw LoadError(m_file, p.line, p.column, "", "invalid UTF-8");
        }
        std::size_t pos = 0;
        if (m_text.substr(0, 3) == "\xEF\xBB\xBF") pos = 3;  // byte-order mark (spreadsheet exports)
        std::size_t line_no = 0;
        bool have_header = false;
        int col_from = -1, col_to = -1, col_cost = -1, col_undirected = -1;
        std::size_t columns = 0;
        path::GraphBuilder builder;
        std::vector<Field> fields;
        while (pos < m_text.size()) {
            ++line_no;
            const std::size_t line_start = pos;
            std::size_t peek = pos;
            while (peek < m_text.size() && (m_text[peek] == ' ' || m_text[peek] == '\t')) ++peek;
            if (peek < m_text.size() && m_text[peek] == '#') {  // a comment line: skip it whole
                const std::size_t end = m_text.find('\n', peek);
                pos = end == std::string_view::npos ? m_text.size() : end + 1;
                continue;
            }
            // A record may span lines inside quotes; split_record advances pos past the record's end.
            const std::size_t record_line = line_no;
            split_record(pos, line_no, line_start, fields);
            if (fields.size() == 1 && !fields[0].quoted && trim(fields[0].text).empty()) continue;  // blank line
            if (!have_header) {
                for (std::size_t c = 0; c < fields.size(); ++c) {
                    std::string name = trim(fields[c].text);
                    for (char& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
                    int* slot = name == "from" ? &col_from : name == "to" ? &col_to : name == "cost" ? &col_cost
                               : name == "undirected" ? &col_undirected : nullptr;
                    if (!slot)
                        fail(record_line, fields[c].column, "header",
                             "unknown column '" + printable(fields[c].text) + "' (expected from, to, cost and optionally undirected)");
                    if (*slot >= 0) fail(record_line, fields[c].column, "header", "column '" + name + "' appears twice");
                    *slot = static_cast<int>(c);
                }
                const char* missing = col_from < 0 ? "from" : col_to < 0 ? "to" : col_cost < 0 ? "cost" : nullptr;
                if (missing)
                    fail(record_line, 1, "header",
                         std::string("missing column '") + missing + "' (the first line must name the columns: from,to,cost[,undirected])");
                columns = fields.size();
                have_header = true;
                continue;
            }
            if (fields.size() != columns)
                fail(record_line, fields.back().column, "",
                     "expected " + std::to_string(columns) + " fields like the header, found " + std::to_string(fields.size()));
            path::GraphNode ends[2];
            const int cols[2] = {col_from, col_to};
            const char* names[2] = {"from", "to"};
            for (int k = 0; k < 2; ++k) {
                const Field& f = fields[static_cast<std::size_t>(cols[k])];
                const std::string id = f.quoted ? f.text : trim(f.text);
                if (id.empty()) fail(record_line, f.column, names[k], "empty node id");
                ends[k] = builder.find(id);
                if (ends[k] == path::kNoGraphNode) {
                    path::GraphError error = path::GraphError::None;
                    ends[k] = builder.add_node(id, &error);
                    if (error != path::GraphError::None) fail(record_line, f.column, names[k], std::string(path::describe(error)));
                }
            }
            const Field& cf = fields[static_cast<std::size_t>(col_cost)];
            const double cost = number(cf, record_line);
            bool undirected = false;
            if (col_undirected >= 0) {
                const Field& uf = fields[static_cast<std::size_t>(col_undirected)];
                std::string v = trim(uf.text);
                for (char& ch : v) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
                if (v == "true" || v == "yes" || v == "1") undirected = true;
                else if (!(v.empty() || v == "false" || v == "no" || v == "0"))
                    fail(record_line, uf.column, "undirected", "must be true/false, yes/no, 1/0 or empty (found '" + printable(uf.text) + "')");
            }
            if (const path::GraphError error = builder.add_edge(ends[0], ends[1], cost, undirected); error != path::GraphError::None)
                fail(record_line, cf.column, "cost", std::string(path::describe(error)));
        }
        if (!have_header) throw LoadError(m_file, 0, 0, "header", "empty file (expected a header line: from,to,cost[,undirected])");
        return builder.build();
    }

private:
    struct Field {
        std::string text;
        std::size_t column = 1;  // 1-based character column where the field starts
        bool quoted = false;
    };

    [[noreturn]] void fail(std::size_t line, std::size_t column, const std::string& field, const std::string& message) const {
        throw LoadError(m_file, line, column, field, message);
    }

    static std::string trim(std::string_view s) {
        while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
        while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
        return std::string(s);
    }

    // Column (1-based, in characters) of byte `offset` on the line starting at `line_start`.
    std::size_t column_of(std::size_t line_start, std::size_t offset) const {
        std::size_t column = 1;
        for (std::size_t i = line_start; i < offset; ++i)
            if ((static_cast<unsigned char>(m_text[i]) & 0xC0u) != 0x80u) ++column;
        return column;
    }

    // Splits one record (RFC 4180: fields separated by commas, optionally double-quoted, "" inside quotes
    // for a quote; a quoted field may contain commas and line breaks). Advances `pos` past the line end.
    void split_record(std::size_t& pos, std::size_t& line_no, std::size_t line_start, std::vector<Field>& fields) const {
        fields.clear();
        const std::size_t first_line = line_no;
        for (;;) {
            Field f;
            f.column = column_of(line_start, pos);
            std::size_t start = pos;
            while (pos < m_text.size() && (m_text[pos] == ' ' || m_text[pos] == '\t')) ++pos;
            if (pos < m_text.size() && m_text[pos] == '"') {
                f.quoted = true;
                ++pos;
                for (;;) {
                    if (pos >= m_text.size()) fail(first_line, f.column, "", "unterminated quoted field");
                    const char c = m_text[pos];
                    if (c == '"') {
                        if (pos + 1 < m_text.size() && m_text[pos + 1] == '"') {
                            f.text += '"';
                            pos += 2;
                            continue;
                        }
                        ++pos;
                        break;
                    }
                    if (c == '\n') {
                        ++line_no;
                        line_start = pos + 1;
                    }
                    f.text += c;
                    ++pos;
                }
                while (pos < m_text.size() && (m_text[pos] == ' ' || m_text[pos] == '\t')) ++pos;
                if (pos < m_text.size() && m_text[pos] != ',' && m_text[pos] != '\n' && m_text[pos] != '\r')
                    fail(line_no, column_of(line_start, pos), "", "unexpected character after a quoted field (expected ',' or the line end)");
            } else {
                pos = start;
                while (pos < m_text.size() && m_text[pos] != ',' && m_text[pos] != '\n' && m_text[pos] != '\r') {
                    if (m_text[pos] == '"')
                        fail(line_no, column_of(line_start, pos), "", "a quote inside an unquoted field (quote the whole field, doubling inner quotes)");
                    ++pos;
                }
                f.text.assign(m_text.substr(start, pos - start));
            }
            fields.push_back(std::move(f));
            if (pos < m_text.size() && m_text[pos] == ',') {
                ++pos;
                continue;
            }
            if (pos < m_text.size() && m_text[pos] == '\r') {
                ++pos;
                if (pos < m_text.size() && m_text[pos] != '\n')
                    fail(line_no, column_of(line_start, pos - 1), "", "a carriage return not followed by a line feed");
            }
            if (pos < m_text.size() && m_text[pos] == '\n') ++pos;
            return;
        }
    }

    double number(const Field& f, std::size_t line) const {
        const std::string s = trim(f.text);
        if (s.empty()) fail(line, f.column, "cost", "missing cost (a finite number >= 0)");
        double v = 0.0;
        bool ok = true;
        // Plain decimal notation only (no hex, inf or nan); from_chars reads subnormal numbers too, which
        // strtod reports as out of range.
        for (const char c : s) ok &= (std::isdigit(static_cast<unsigned char>(c)) != 0) || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E';
        if (ok) {
            const char* first = s.data() + (s[0] == '+' && s.size() > 1 && s[1] != '-' ? 1 : 0);
            const auto [end, ec] = detail::parse_double(first, s.data() + s.size(), v);
            if (ec == std::errc::result_out_of_range)
                fail(line, f.column, "cost", "number out of range '" + printable(s) + "' (a finite number >= 0)");
            ok = ec == std::errc{} && end == s.data() + s.size();
        }
        if (!ok) fail(line, f.column, "cost", "not a number '" + printable(s) + "' (a finite number >= 0)");
        if (!std::isfinite(v) || v < 0) fail(line, f.column, "cost", "must be a finite number >= 0 (found '" + printable(s) + "')");
        return v;
    }

    std::string_view m_text;
    const std::string& m_file;
};

}  // namespace

path::Graph parse_graph_json(std::string_view text, const std::string& source_name) {
    return GraphJsonLoader(text, source_name).load();
}

path::Graph parse_graph_csv(std::string_view text, const std::string& source_name) {
    return GraphCsvLoader(text, source_name).load();
}

bool is_csv_graph_file(const std::filesystem::path& file) {
    std::string ext = file.extension().string();
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return ext == ".csv";
}

path::Graph load_graph(const std::filesystem::path& file) {
    const std::string text = read_bounded_file(file, kDefaultMaxGraphBytes, "graph file");
    return is_csv_graph_file(file) ? parse_graph_csv(text, file.string()) : parse_graph_json(text, file.string());
}

}  // namespace gameplan::io
