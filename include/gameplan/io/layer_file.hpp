#pragma once
/// @file layer_file.hpp
/// Reader for cost layer files: one non-negative number per map cell, as a `path::PenaltyLayer`.
///
/// Overview
/// --------
/// A layer file is a plain text matrix sized like the map it belongs to: `height` rows of `width`
/// values separated by spaces or tabs, row 0 first (the map's top row), column 0 first, the same
/// orientation as a MovingAI map. Values are decimal numbers (`0`, `2`, `0.5`, `1e3`) in
/// [0, kMaxLayerValue]; they are stored as 32-bit floats. Blank lines and lines starting with `;`
/// (comments) are skipped anywhere. Rows may end in `\r\n`.
///
///     ; danger near the river
///     0 0 1 4
///     0 2 6 9
///
/// Use: `GridSearchOptions::layers` (path/area_filter.hpp), each layer with a weight; the CLI's
/// `gameplan path --layer FILE[:WEIGHT]`.
///
/// Errors: `io::LoadError` naming the file, the 1-based line and column and the field `layer`: a value
/// that is not a number, negative, not finite or above kMaxLayerValue; a row with too few or too many
/// values; too few or too many rows; a file above `max_bytes` (default kDefaultMaxLayerBytes,
/// limits.hpp). Memory: the text plus the layer (about 5 bytes per map cell, 4 more per non-zero cell).
///
/// Thread-safety: reentrant.

#include <gameplan/io/limits.hpp>
#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/penalty_layer.hpp>

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace gameplan::io {

/// Parses layer text for `map`'s shape. `source_name` names the text in errors. Throws LoadError.
[[nodiscard]] path::PenaltyLayer parse_penalty_layer(std::string_view text, const std::string& source_name,
                                                     const path::GridMap& map,
                                                     std::uint64_t max_bytes = kDefaultMaxLayerBytes);
/// Reads a layer file for `map`'s shape. Throws LoadError (also for a missing or unreadable file).
[[nodiscard]] path::PenaltyLayer load_penalty_layer(const std::filesystem::path& file, const path::GridMap& map,
                                                    std::uint64_t max_bytes = kDefaultMaxLayerBytes);

}  // namespace gameplan::io
