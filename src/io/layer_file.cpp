#include <gameplan/io/layer_file.hpp>
#include <gameplan/io/load_error.hpp>

#include "number_text.hpp"
#include "quote_token.hpp"

#include <charconv>
#include <cmath>
#include <system_error>

namespace gameplan::io {

namespace {

bool is_space(char c) noexcept { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }


std::string shape(const path::GridMap& map) {
    return std::to_string(map.width()) + " x " + std::to_string(map.height());
}

}  // namespace

path::PenaltyLayer parse_penalty_layer(std::string_view text, const std::string& source, const path::GridMap& map,
                                       std::uint64_t max_bytes) {
    if (text.size() > max_bytes)
        throw LoadError(source, 0, 0, "", "larger than the limit of " + format_bytes(max_bytes) + " (" +
                                              std::to_string(max_bytes) + " bytes) for a layer file");
    if (map.empty()) throw LoadError(source, 0, 0, "layer", "the map has no cells");
    path::PenaltyLayer layer(map);
    const auto width = static_cast<std::size_t>(map.width());
    const auto height = static_cast<std::size_t>(map.height());
    std::size_t row = 0;
    std::size_t line_number = 0;
    std::size_t start = 0;
    while (start < text.size()) {
        ++line_number;
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        const std::string_view line = text.substr(start, end - start);
        start = end + 1;
        std::size_t i = 0;
        while (i < line.size() && is_space(line[i])) ++i;
        if (i == line.size() || line[i] == ';') continue;  // blank or comment
        if (row == height)
            throw LoadError(source, line_number, i + 1, "layer",
                            "more than " + std::to_string(height) + " rows (the map is " + shape(map) + ")");
        std::size_t column = 0;
        while (i < line.size()) {
            const std::size_t begin = i;
            while (i < line.size() && !is_space(line[i])) ++i;
            const std::string_view token = line.substr(begin, i - begin);
            if (column == width)
                throw LoadError(source, line_number, begin + 1, "layer",
                                "row " + std::to_string(row) + " has more than " + std::to_string(width) +
                                    " values (the map is " + shape(map) + ")");
            double value = 0.0;
            const auto [stop, ec] = detail::parse_double(token.data(), token.data() + token.size(), value);
            if (stop != token.data() + token.size() || (ec != std::errc() && ec != std::errc::result_out_of_range))
                throw LoadError(source, line_number, begin + 1, "layer", detail::quote_token(token) + " is not a number");
            if (token.front() == '-')
                throw LoadError(source, line_number, begin + 1, "layer",
                                "negative value " + detail::quote_token(token) + " (layer values must be >= 0)");
            if (ec == std::errc::result_out_of_range || !std::isfinite(value) || value > kMaxLayerValue)
                throw LoadError(source, line_number, begin + 1, "layer",
                                "value " + detail::quote_token(token) + " is not finite or above the limit of 1e9");
            if (value > 0.0)
                (void)layer.set(path::GridPoint{static_cast<std::int32_t>(column), static_cast<std::int32_t>(row)},
                                static_cast<float>(value));
            ++column;
            while (i < line.size() && is_space(line[i])) ++i;
        }
        if (column < width)
            throw LoadError(source, line_number, line.size() + 1, "layer",
                            "row " + std::to_string(row) + " has " + std::to_string(column) + " values, expected " +
                                std::to_string(width) + " (the map is " + shape(map) + ")");
        ++row;
    }
    if (row < height)
        throw LoadError(source, line_number + 1, 1, "layer",
                        "found " + std::to_string(row) + " rows, expected " + std::to_string(height) + " (the map is " +
                            shape(map) + ")");
    return layer;
}

path::PenaltyLayer load_penalty_layer(const std::filesystem::path& file, const path::GridMap& map,
                                      std::uint64_t max_bytes) {
    std::error_code ec;
    if (!std::filesystem::exists(file, ec)) throw LoadError(file.string(), 0, 0, "", "file not found");
    const std::string text = read_bounded_file(file, max_bytes, "layer file");
    return parse_penalty_layer(text, file.string(), map, max_bytes);
}

}  // namespace gameplan::io
