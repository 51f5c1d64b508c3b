#include <gameplan/io/limits.hpp>
#include <gameplan/io/load_error.hpp>
#include <gameplan/io/movingai.hpp>

#include "number_text.hpp"
#include "quote_token.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <fstream>
#include <optional>
#include <sstream>
#include <system_error>

namespace gameplan::io {

namespace {

using path::GridMap;
using path::GridPoint;

struct Line {
    std::string_view text;  // without the line break (and without a trailing '\r')
    std::size_t number;     // 1-based
};

/// Splits text into lines; a final line break does not start another (empty) line. More than
/// `max_lines` lines is an error naming `source` and `field` (it bounds the line table's memory).
std::vector<Line> split_lines(std::string_view text, std::size_t max_lines, const std::string& source,
                              const char* field) {
    std::vector<Line> lines;
    std::size_t start = 0;
    std::size_t number = 1;
    while (start < text.size()) {
        if (number > max_lines)
            throw LoadError(source, number, 1, field,
                            "more than " + std::to_string(max_lines) + " lines (the limit for this kind of file)");
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(start, end - start);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        lines.push_back(Line{line, number++});
        start = end + 1;
    }
    return lines;
}

bool is_space(char c) noexcept { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

bool is_blank(std::string_view s) noexcept { return std::all_of(s.begin(), s.end(), is_space); }

struct Token {
    std::string_view text;
    std::size_t column;  // 1-based
};

std::vector<Token> tokenize(std::string_view line) {
    std::vector<Token> tokens;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && is_space(line[i])) ++i;
        if (i >= line.size()) break;
        const std::size_t begin = i;
        while (i < line.size() && !is_space(line[i])) ++i;
        tokens.push_back(Token{line.substr(begin, i - begin), begin + 1});
    }
    return tokens;
}


/// Parses a whole token as a base-10 integer. nullopt if it is not one; `overflow` set if it is one
/// that does not fit.
std::optional<std::int64_t> parse_integer(std::string_view s, bool& overflow) {
    overflow = false;
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (ec == std::errc::result_out_of_range && end == s.data() + s.size()) {
        overflow = true;
        return std::nullopt;
    }
    if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
    return value;
}

std::string read_file(const std::filesystem::path& file, std::uint64_t max_bytes, const char* what) {
    std::error_code ec;
    if (!std::filesystem::exists(file, ec)) throw LoadError(file.string(), 0, 0, "", "file not found");
    return read_bounded_file(file, max_bytes, what);
}

void check_size(std::string_view text, std::uint64_t max_bytes, const std::string& source, const char* what) {
    if (text.size() > max_bytes)
        throw LoadError(source, 0, 0, "", "larger than the limit of " + format_bytes(max_bytes) + " (" +
                                              std::to_string(max_bytes) + " bytes) for a " + what);
}

void check_options(const MapLoadOptions& options, const std::string& source) {
    if (options.swamp_cost < 1 || options.swamp_cost > path::kMaxTerrainCost)
        throw LoadError(source, 0, 0, "swamp_cost", "must be in [1, " + std::to_string(path::kMaxTerrainCost) + "]");
    if (options.water_cost < 1 || options.water_cost > path::kMaxTerrainCost)
        throw LoadError(source, 0, 0, "water_cost", "must be in [1, " + std::to_string(path::kMaxTerrainCost) + "]");
}

/// Applies one map character. Returns false for a character the format does not know.
bool apply_cell(GridMap& map, GridPoint p, char c, const MapLoadOptions& options, bool text_format) {
    switch (c) {
        case '.':
        case 'G': map.set_passable(p, true); return true;
        case '@':
        case 'O': return true;  // the map starts all blocked
        case 'T':
            if (options.areas != nullptr) options.areas->set(p, path::kAreaTrees);
            if (options.trees_passable) map.set_passable(p, true);
            return true;
        case '#': return text_format;
        case 'S':
            if (options.areas != nullptr) options.areas->set(p, path::kAreaSwamp);
            map.set_passable(p, true);
            if (options.swamp_cost != 1) map.set_cost(p, options.swamp_cost);
            return true;
        case 'W':
            if (options.areas != nullptr) options.areas->set(p, path::kAreaWater);
            if (options.water_passable) {
                map.set_passable(p, true);
                if (options.water_cost != 1) map.set_cost(p, options.water_cost);
            }
            return true;
        default:
            if (text_format && c >= '1' && c <= '9') {
                map.set_passable(p, true);
                if (c != '1') map.set_cost(p, static_cast<std::uint32_t>(c - '0'));
                return true;
            }
            return false;
    }
}

[[noreturn]] void bad_character(const std::string& source, const Line& line, std::size_t column, char c, bool text_format) {
    throw LoadError(source, line.number, column, "map",
                    "unexpected character " + detail::quote_token(std::string_view(&c, 1)) +
                        (text_format ? " (expected one of . G @ # O T S W 1-9)" : " (expected one of . G @ O T S W)"));
}

/// Parses one size field of a map header.
std::int64_t parse_size_field(const std::string& source, const Line& line, const Token& value, const char* field) {
    bool overflow = false;
    const auto parsed = parse_integer(value.text, overflow);
    if (!parsed) {
        if (overflow) throw LoadError(source, line.number, value.column, field, "number too large: " + detail::quote_token(value.text));
        throw LoadError(source, line.number, value.column, field, "not an integer: " + detail::quote_token(value.text));
    }
    if (*parsed < 1) throw LoadError(source, line.number, value.column, field, "must be at least 1, got " + std::to_string(*parsed));
    if (*parsed > path::kMaxGridSide)
        throw LoadError(source, line.number, value.column, field,
                        std::to_string(*parsed) + " exceeds the limit of " + std::to_string(path::kMaxGridSide));
    return *parsed;
}

struct ParsedHeader {
    std::int64_t width = 0;
    std::int64_t height = 0;
    std::size_t first_row = 0;  // index into lines
    std::size_t height_line = 0;
};

ParsedHeader parse_header(const std::vector<Line>& lines, const std::string& source) {
    ParsedHeader header;
    bool have_type = false, have_width = false, have_height = false, have_map = false;
    std::size_t i = 0;
    for (; i < lines.size() && !have_map; ++i) {
        const Line& line = lines[i];
        const auto tokens = tokenize(line.text);
        if (tokens.empty()) continue;
        const std::string_view key = tokens[0].text;
        if (key == "map") {
            if (tokens.size() != 1)
                throw LoadError(source, line.number, tokens[1].column, "map", "unexpected text after 'map'");
            have_map = true;
            continue;
        }
        if (key != "type" && key != "height" && key != "width")
            throw LoadError(source, line.number, tokens[0].column, "header",
                            "unknown header line " + detail::quote_token(key) + " (expected type, height, width, map)");
        if (tokens.size() < 2) throw LoadError(source, line.number, line.text.size() + 1, std::string(key), "missing value");
        if (tokens.size() > 2)
            throw LoadError(source, line.number, tokens[2].column, std::string(key), "unexpected text " + detail::quote_token(tokens[2].text));
        bool& seen = key == "type" ? have_type : key == "height" ? have_height : have_width;
        if (seen) throw LoadError(source, line.number, tokens[0].column, std::string(key), "given twice");
        seen = true;
        if (key == "type") {
            if (tokens[1].text != "octile")
                throw LoadError(source, line.number, tokens[1].column, "type",
                                "unsupported map type " + detail::quote_token(tokens[1].text) + " (expected octile)");
        } else if (key == "height") {
            header.height = parse_size_field(source, line, tokens[1], "height");
            header.height_line = line.number;
        } else {
            header.width = parse_size_field(source, line, tokens[1], "width");
        }
    }
    const std::size_t last_line = lines.empty() ? 1 : lines[i - 1].number;
    if (!have_map)
        throw LoadError(source, last_line, 0, "map", "missing 'map' line (the header must end with a line 'map')");
    if (!have_type) throw LoadError(source, last_line, 0, "type", "missing 'type octile' header line");
    if (!have_height) throw LoadError(source, last_line, 0, "height", "missing 'height' header line");
    if (!have_width) throw LoadError(source, last_line, 0, "width", "missing 'width' header line");
    const auto check = GridMap::check_size(header.width, header.height);
    if (check != path::GridSizeCheck::Ok)
        throw LoadError(source, header.height_line, 0, "height",
                        "map of " + std::to_string(header.width) + " x " + std::to_string(header.height) +
                            " refused: " + std::string(path::describe(check)));
    header.first_row = i;
    return header;
}

}  // namespace

GridMap parse_movingai_map(std::string_view text, const std::string& source_name, const MapLoadOptions& options) {
    check_options(options, source_name);
    check_size(text, options.max_bytes, source_name, "map file");
    const std::vector<Line> lines = split_lines(text, kMaxMapLines, source_name, "map");
    const ParsedHeader header = parse_header(lines, source_name);
    const auto width = static_cast<std::size_t>(header.width);
    const auto height = static_cast<std::size_t>(header.height);
    // Check the row count before allocating, so a short file cannot make us allocate a huge map.
    const std::size_t available = lines.size() - header.first_row;
    if (available < height) {
        std::size_t rows = available;
        while (rows > 0 && is_blank(lines[header.first_row + rows - 1].text)) --rows;
        const std::size_t line = lines.empty() ? 1 : lines.back().number + 1;
        throw LoadError(source_name, line, 0, "map",
                        "truncated: expected " + std::to_string(height) + " rows of " + std::to_string(width) +
                            " cells, found " + std::to_string(rows));
    }
    for (std::size_t r = 0; r < height; ++r) {
        const Line& line = lines[header.first_row + r];
        if (line.text.size() != width)
            throw LoadError(source_name, line.number, std::min(line.text.size(), width) + 1, "map",
                            "row " + std::to_string(r) + " has " + std::to_string(line.text.size()) +
                                " cells, expected width " + std::to_string(width));
    }
    for (std::size_t i = header.first_row + height; i < lines.size(); ++i)
        if (!is_blank(lines[i].text))
            throw LoadError(source_name, lines[i].number, 1, "map",
                            "more rows than the declared height " + std::to_string(height));

    GridMap map;
    (void)map.reset(header.width, header.height, false);
    if (options.areas != nullptr) options.areas->reset(map);
    for (std::size_t r = 0; r < height; ++r) {
        const Line& line = lines[header.first_row + r];
        for (std::size_t c = 0; c < width; ++c)
            if (!apply_cell(map, GridPoint{static_cast<std::int32_t>(c), static_cast<std::int32_t>(r)}, line.text[c],
                            options, false))
                bad_character(source_name, line, c + 1, line.text[c], false);
    }
    map.recompute_min_cost();
    return map;
}

GridMap load_movingai_map(const std::filesystem::path& file, const MapLoadOptions& options) {
    return parse_movingai_map(read_file(file, options.max_bytes, "map file"), file.string(), options);
}

GridMap parse_text_map(std::string_view text, const std::string& source_name, const MapLoadOptions& options) {
    check_options(options, source_name);
    check_size(text, options.max_bytes, source_name, "map file");
    std::vector<Line> lines = split_lines(text, kMaxMapLines, source_name, "map");
    while (!lines.empty() && is_blank(lines.back().text)) lines.pop_back();
    std::vector<Line> rows;
    for (const Line& line : lines)
        if (line.text.empty() || line.text.front() != ';') rows.push_back(line);
    if (rows.empty()) throw LoadError(source_name, 1, 0, "map", "no rows: the grid is empty");
    const std::size_t width = rows.front().text.size();
    const auto check = GridMap::check_size(static_cast<std::int64_t>(width), static_cast<std::int64_t>(rows.size()));
    if (check != path::GridSizeCheck::Ok)
        throw LoadError(source_name, rows.front().number, 0, "map",
                        "grid of " + std::to_string(width) + " x " + std::to_string(rows.size()) +
                            " refused: " + std::string(path::describe(check)));
    for (const Line& row : rows)
        if (row.text.size() != width)
            throw LoadError(source_name, row.number, std::min(row.text.size(), width) + 1, "map",
                            "row has " + std::to_string(row.text.size()) + " cells, expected " + std::to_string(width) +
                                " like the first row");
    GridMap map;
    (void)map.reset(static_cast<std::int64_t>(width), static_cast<std::int64_t>(rows.size()), false);
    if (options.areas != nullptr) options.areas->reset(map);
    for (std::size_t r = 0; r < rows.size(); ++r)
        for (std::size_t c = 0; c < width; ++c)
            if (!apply_cell(map, GridPoint{static_cast<std::int32_t>(c), static_cast<std::int32_t>(r)}, rows[r].text[c],
                            options, true))
                bad_character(source_name, rows[r], c + 1, rows[r].text[c], true);
    map.recompute_min_cost();
    return map;
}

GridMap load_text_map(const std::filesystem::path& file, const MapLoadOptions& options) {
    return parse_text_map(read_file(file, options.max_bytes, "map file"), file.string(), options);
}

GridMap load_grid_map(const std::filesystem::path& file, const MapLoadOptions& options) {
    const std::string text = read_file(file, options.max_bytes, "map file");
    for (const Line& line : split_lines(text, kMaxMapLines, file.string(), "map")) {
        const auto tokens = tokenize(line.text);
        if (tokens.empty()) continue;
        if (tokens[0].text == "type") return parse_movingai_map(text, file.string(), options);
        break;
    }
    return parse_text_map(text, file.string(), options);
}

MapHeader read_map_size(const std::filesystem::path& file) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec)) throw LoadError(file.string(), 0, 0, "", "file not found");
    std::ifstream in(file, std::ios::binary);
    if (!in) throw LoadError(file.string(), 0, 0, "", "cannot open file");
    // A MovingAI header is a few short lines: read a bounded prefix (64 KiB) up to and including 'map'.
    std::string prefix(std::size_t{1} << 16, '\0');
    in.read(prefix.data(), static_cast<std::streamsize>(prefix.size()));
    prefix.resize(static_cast<std::size_t>(in.gcount()));
    std::istringstream head(prefix);
    std::string text;
    std::string line;
    bool movingai = false;
    for (int i = 0; i < 64 && std::getline(head, line); ++i) {
        text += line;
        text += '\n';
        const auto tokens = tokenize(line);
        if (tokens.empty()) continue;
        if (!movingai && tokens[0].text != "type") break;
        movingai = true;
        if (tokens[0].text == "map") break;
    }
    if (movingai) {
        const ParsedHeader header = parse_header(split_lines(text, kMaxMapLines, file.string(), "map"), file.string());
        return MapHeader{header.width, header.height};
    }
    const GridMap map = load_text_map(file);
    return MapHeader{map.width(), map.height()};
}

// ---- scenarios ---------------------------------------------------------------------------------

double last_digit_unit(std::string_view s) noexcept {
    std::size_t i = 0;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    std::size_t digits = 0;
    int decimals = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++digits;
    if (i < s.size() && s[i] == '.') {
        ++i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++digits, ++decimals;
    }
    if (digits == 0) return 0.0;
    int exponent = 0;
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        bool overflow = false;
        std::string_view rest = s.substr(i);
        if (!rest.empty() && rest.front() == '+') rest.remove_prefix(1);
        const auto e = parse_integer(rest, overflow);
        if (!e || *e < -300 || *e > 300) return 0.0;
        exponent = static_cast<int>(*e);
        i = s.size();
    }
    if (i != s.size()) return 0.0;
    return std::pow(10.0, exponent - decimals);
}

bool matches_optimal(const Scenario& scenario, double cost) noexcept {
    if (!std::isfinite(cost)) return false;
    const double slack = scenario.tolerance + 1e-9 * std::max(1.0, std::abs(scenario.optimal));
    return std::abs(cost - scenario.optimal) <= slack;
}

ScenarioFile parse_movingai_scenarios(std::string_view text, const std::string& source_name) {
    static constexpr std::array<const char*, 9> kFields{"bucket", "map",    "map-width", "map-height",    "start-x",
                                                        "start-y", "goal-x", "goal-y",   "optimal-length"};
    ScenarioFile out;
    out.file = source_name;
    const std::vector<Line> lines = split_lines(text, kMaxScenLines, source_name, "problem");
    std::size_t i = 0;
    while (i < lines.size() && is_blank(lines[i].text)) ++i;
    if (i == lines.size()) throw LoadError(source_name, 1, 0, "version", "empty file: expected a first line 'version 1'");
    {
        const auto tokens = tokenize(lines[i].text);
        if (tokens[0].text != "version")
            throw LoadError(source_name, lines[i].number, 1, "version",
                            "expected a first line 'version 1' or 'version 1.0', got " + detail::quote_token(lines[i].text));
        if (tokens.size() != 2)
            throw LoadError(source_name, lines[i].number, tokens.size() > 2 ? tokens[2].column : lines[i].text.size() + 1,
                            "version", tokens.size() > 2 ? "unexpected text after the version" : "missing version number");
        double version = 0;
        const auto [end, ec] = detail::parse_double(tokens[1].text.data(), tokens[1].text.data() + tokens[1].text.size(), version);
        if (ec != std::errc() || end != tokens[1].text.data() + tokens[1].text.size() || version != 1.0)
            throw LoadError(source_name, lines[i].number, tokens[1].column, "version",
                            "unsupported version " + detail::quote_token(tokens[1].text) + " (expected 1 or 1.0)");
        out.version = std::string(tokens[1].text);
        ++i;
    }
    for (; i < lines.size(); ++i) {
        const Line& line = lines[i];
        const auto tokens = tokenize(line.text);
        if (tokens.empty()) continue;
        if (tokens.size() < kFields.size())
            throw LoadError(source_name, line.number, line.text.size() + 1, kFields[tokens.size()],
                            "missing field (expected 9 fields, found " + std::to_string(tokens.size()) + ")");
        const std::size_t tail = tokens.size() - 7;  // index of map-width
        Scenario s;
        s.line = line.number;
        const auto integer_field = [&](const Token& token, const char* field, std::int64_t lo, std::int64_t hi,
                                       const std::string& range_note) {
            bool overflow = false;
            const auto value = parse_integer(token.text, overflow);
            if (!value) throw LoadError(source_name, line.number, token.column, field, "not an integer: " + detail::quote_token(token.text));
            if (*value < lo || *value > hi)
                throw LoadError(source_name, line.number, token.column, field,
                                std::to_string(*value) + " is out of range" + range_note);
            return *value;
        };
        s.bucket = static_cast<std::uint32_t>(integer_field(tokens[0], "bucket", 0, UINT32_MAX, " (must be >= 0)"));
        const std::size_t map_begin = tokens[1].column - 1;
        const std::size_t map_end = tokens[tail - 1].column - 1 + tokens[tail - 1].text.size();
        s.map = std::string(line.text.substr(map_begin, map_end - map_begin));
        const std::int64_t w =
            integer_field(tokens[tail], "map-width", 1, path::kMaxGridSide, " (must be in [1, 32768])");
        const std::int64_t h =
            integer_field(tokens[tail + 1], "map-height", 1, path::kMaxGridSide, " (must be in [1, 32768])");
        if (path::GridMap::check_size(w, h) != path::GridSizeCheck::Ok)
            throw LoadError(source_name, line.number, tokens[tail].column, "map-width",
                            std::string(path::describe(path::GridMap::check_size(w, h))));
        s.map_width = static_cast<std::int32_t>(w);
        s.map_height = static_cast<std::int32_t>(h);
        const std::string x_note = " (outside the map: x must be in [0, " + std::to_string(w - 1) + "])";
        const std::string y_note = " (outside the map: y must be in [0, " + std::to_string(h - 1) + "])";
        s.start.x = static_cast<std::int32_t>(integer_field(tokens[tail + 2], "start-x", 0, w - 1, x_note));
        s.start.y = static_cast<std::int32_t>(integer_field(tokens[tail + 3], "start-y", 0, h - 1, y_note));
        s.goal.x = static_cast<std::int32_t>(integer_field(tokens[tail + 4], "goal-x", 0, w - 1, x_note));
        s.goal.y = static_cast<std::int32_t>(integer_field(tokens[tail + 5], "goal-y", 0, h - 1, y_note));
        const Token& opt = tokens[tail + 6];
        const auto [end, ec] = detail::parse_double(opt.text.data(), opt.text.data() + opt.text.size(), s.optimal);
        s.tolerance = last_digit_unit(opt.text);
        if (ec != std::errc() || end != opt.text.data() + opt.text.size() || s.tolerance == 0.0)
            throw LoadError(source_name, line.number, opt.column, "optimal-length", "not a number: " + detail::quote_token(opt.text));
        if (!std::isfinite(s.optimal) || s.optimal < 0)
            throw LoadError(source_name, line.number, opt.column, "optimal-length",
                            "must be a finite number >= 0, got " + detail::quote_token(opt.text));
        out.scenarios.push_back(std::move(s));
    }
    return out;
}

ScenarioFile load_movingai_scenarios(const std::filesystem::path& file, std::uint64_t max_bytes) {
    return parse_movingai_scenarios(read_file(file, max_bytes, "scenario file"), file.string());
}

std::filesystem::path resolve_scenario_map(const std::filesystem::path& scenario_file, const Scenario& scenario) {
    namespace fs = std::filesystem;
    const fs::path written = fs::path(scenario.map).lexically_normal();
    const fs::path folder = scenario_file.parent_path().empty() ? fs::path(".") : scenario_file.parent_path();
    fs::path absolute_folder = fs::absolute(folder).lexically_normal();
    if (!absolute_folder.has_filename() && absolute_folder.has_relative_path())
        absolute_folder = absolute_folder.parent_path();  // "a/b/" -> "a/b"
    std::vector<fs::path> ancestors;  // the folder's parents, nearest first
    for (fs::path at = absolute_folder; at.has_relative_path() && ancestors.size() < 16;) {
        at = at.parent_path();
        ancestors.push_back(at);
    }
    std::vector<fs::path> candidates;
    if (written.is_absolute()) {
        candidates.push_back(written);
    } else {
        candidates.push_back(folder / written);
        for (const fs::path& a : ancestors) candidates.push_back(a / written);
    }
    const fs::path set_name = absolute_folder.filename();
    if (!set_name.empty() && !written.filename().empty())
        for (const fs::path& a : ancestors) candidates.push_back(a / "maps" / set_name / written.filename());
    if (!written.filename().empty()) candidates.push_back(folder / written.filename());

    std::string tried;
    std::error_code ec;
    for (const fs::path& candidate : candidates) {
        if (!fs::is_regular_file(candidate, ec)) continue;
        try {
            const MapHeader header = read_map_size(candidate);
            if (header.width == scenario.map_width && header.height == scenario.map_height) return candidate;
            tried += "\n  " + candidate.string() + " (exists, but is " + std::to_string(header.width) + " x " +
                     std::to_string(header.height) + ")";
        } catch (const LoadError& e) {
            tried += "\n  " + candidate.string() + " (exists, but is not a map: " + e.message() + ")";
        }
    }
    if (tried.empty()) tried = " none of the candidates exists (use --map to name the map)";
    throw LoadError(scenario_file.string(), scenario.line, 0, "map",
                    "cannot find map " + detail::quote_token(scenario.map) + " of size " + std::to_string(scenario.map_width) +
                        " x " + std::to_string(scenario.map_height) + ":" + tried);
}

void check_scenarios_fit(const ScenarioFile& scenarios, const GridMap& map, const std::string& map_name) {
    for (const Scenario& s : scenarios.scenarios) {
        if (s.map_width != map.width() || s.map_height != map.height())
            throw LoadError(scenarios.file, s.line, 0, "map-width",
                            "scenario is for a " + std::to_string(s.map_width) + " x " + std::to_string(s.map_height) +
                                " map, but " + map_name + " is " + std::to_string(map.width()) + " x " +
                                std::to_string(map.height()));
        if (!map.contains(s.start))
            throw LoadError(scenarios.file, s.line, 0, "start-x", "start lies outside " + map_name);
        if (!map.contains(s.goal)) throw LoadError(scenarios.file, s.line, 0, "goal-x", "goal lies outside " + map_name);
    }
}

}  // namespace gameplan::io
