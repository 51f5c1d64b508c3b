#pragma once
/// @file movingai.hpp
/// Readers for MovingAI grid maps (`.map`), scenario files (`.scen`) and gameplan's plain-text grids.
///
/// Overview
/// --------
/// MovingAI `.map` (Sturtevant's benchmark format):
///
///     type octile
///     height H
///     width W
///     map
///     <H rows of W characters>
///
/// `.` and `G` are passable; `@`, `O` and `T` are blocked; `S` (swamp) is passable, with terrain cost
/// `MapLoadOptions::swamp_cost` (default 1); `W` (water: "traversable, but not enterable from regular
/// terrain") is **blocked by default**, because a walking agent can never enter it, or passable with cost
/// `water_cost` when `MapLoadOptions::water_passable` is set; `T` is passable when
/// `MapLoadOptions::trees_passable` is set. `MapLoadOptions::areas` receives the area of every cell
/// (path/area_filter.hpp: swamp, water, trees, ground), so one map serves units with different filters. The header fields may come in any order
/// before `map`; `type` must be `octile`. Rows may end in `\r\n`. Trailing blank lines are ignored; a
/// missing row, a row of the wrong length, an unknown character, or an extra non-blank line is an error.
///
/// Plain-text grid (gameplan's own, for hand-authored maps with terrain costs): rows of equal length,
/// no header. `.` and `G` passable (cost 1); `1`..`9` passable with that terrain
/// cost; `@`, `#`, `O`, `T` blocked; `S` and `W` as above. Lines starting with `;` are comments.
/// `load_grid_map` reads either format, deciding by the first line (`type ...` means MovingAI).
///
/// MovingAI `.scen`: a first line `version 1` (or `version 1.0`), then one problem per line with 9
/// whitespace-separated fields (tabs or spaces):
/// `bucket map map-width map-height start-x start-y goal-x goal-y optimal-length`. A map path containing
/// spaces is accepted (everything between the bucket and the last seven fields). Each problem keeps its
/// 1-based line number, and the optimal length's tolerance: one unit in its last printed digit
/// (`3.41421` -> 1e-5, `244.95` -> 0.01), the precision the file guarantees.
///
/// Finding a scenario's map (`resolve_scenario_map`): the path written in a line is relative to the
/// benchmark root, not to the scenario file, and the bg512 files name `maps/bgmaps/X.map` while the
/// 512 x 512 map they were computed on lives in `maps/bg512/`. Candidates, in order, and the first
/// existing file whose header size matches the line's map-width x map-height wins:
///   1. the path as written, relative to the scenario file's folder (or as is, if absolute);
///   2. the path as written, relative to each ancestor of that folder (the shared layout
///      `scenarios/<set>/<name>.map.scen` -> `<root>/maps/<set>/<name>.map`);
///   3. `<ancestor>/maps/<scenario folder name>/<file name>` for each ancestor (the bg512 quirk);
///   4. `<file name>` next to the scenario file.
/// Either map format may be named (a plain-text grid is matched by its row count and length).
///
/// Errors: every reader throws `io::LoadError` naming the file, the 1-based line and column and the
/// field (`height`, `map`, `start-x`, `optimal-length`, ...). Oversized maps (beyond
/// `path::GridMap::check_size`) are refused before any allocation. Files are read through a bounded
/// reader (directories and devices refused, at most `MapLoadOptions::max_bytes` or the `.scen` reader's
/// `max_bytes`), and a map has at most kMaxMapLines lines, a `.scen` file kMaxScenLines (limits.hpp).
///
/// Thread-safety: all functions are reentrant; they share no state.

#include <gameplan/io/limits.hpp>
#include <gameplan/path/area_filter.hpp>
#include <gameplan/path/grid_map.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace gameplan::io {

/// How the terrain letters of a map become cells.
struct MapLoadOptions {
    /// Make `W` (water) passable instead of blocked.
    bool water_passable = false;
    /// Terrain cost of an `S` (swamp) cell, in [1, path::kMaxTerrainCost].
    std::uint32_t swamp_cost = 1;
    /// Terrain cost of a `W` cell when water_passable is set, in [1, path::kMaxTerrainCost].
    std::uint32_t water_cost = 1;
    /// Largest map file (or text) accepted, in bytes; see limits.hpp.
    std::uint64_t max_bytes = kDefaultMaxMapBytes;
    /// Make `T` (trees) passable (terrain cost 1) instead of blocked; for units whose area filter
    /// allows trees (path/area_filter.hpp).
    bool trees_passable = false;
    /// Optional output: when set, reset to the map's shape and filled with the standard areas of the
    /// terrain letters (`path::kAreaSwamp` for `S`, `kAreaWater` for `W`, `kAreaTrees` for `T`,
    /// `kAreaGround` for every other cell). Not owned.
    path::AreaMap* areas = nullptr;
};

/// Parses MovingAI `.map` text. `source_name` names the text in errors. Throws LoadError.
[[nodiscard]] path::GridMap parse_movingai_map(std::string_view text, const std::string& source_name,
                                               const MapLoadOptions& options = {});
/// Reads a MovingAI `.map` file. Throws LoadError (also for a missing or unreadable file).
[[nodiscard]] path::GridMap load_movingai_map(const std::filesystem::path& file, const MapLoadOptions& options = {});

/// Parses gameplan's plain-text grid (see the overview). Throws LoadError.
[[nodiscard]] path::GridMap parse_text_map(std::string_view text, const std::string& source_name,
                                           const MapLoadOptions& options = {});
/// Reads a plain-text grid file. Throws LoadError.
[[nodiscard]] path::GridMap load_text_map(const std::filesystem::path& file, const MapLoadOptions& options = {});

/// Reads a map in either format: MovingAI if the first line starts with `type`, else plain text.
[[nodiscard]] path::GridMap load_grid_map(const std::filesystem::path& file, const MapLoadOptions& options = {});

/// Width and height of a map file.
struct MapHeader {
    std::int64_t width = 0;
    std::int64_t height = 0;
};
/// Reads the size of a map file in either format: only the header of a MovingAI `.map` (cheap), the
/// whole file for a plain-text grid. Used to match scenario files to maps. Throws LoadError.
[[nodiscard]] MapHeader read_map_size(const std::filesystem::path& file);

/// One problem of a scenario file.
struct Scenario {
    std::uint32_t bucket = 0;          ///< difficulty bucket (field 1)
    std::string map;                   ///< map path as written in the line (field 2)
    std::int32_t map_width = 0;        ///< map size the problem was made for (fields 3, 4)
    std::int32_t map_height = 0;
    path::GridPoint start;             ///< fields 5, 6
    path::GridPoint goal;              ///< fields 7, 8
    double optimal = 0.0;              ///< optimal length (field 9), as printed
    double tolerance = 0.0;            ///< one unit in the last printed digit of `optimal`
    std::size_t line = 0;              ///< 1-based line number in the file
};

/// A parsed scenario file.
struct ScenarioFile {
    std::string file;                  ///< the name used in errors
    std::string version;               ///< the version text, "1" or "1.0"
    std::vector<Scenario> scenarios;   ///< in file order; index = scenario id
};

/// Parses `.scen` text. Coordinates are checked against the line's own map-width / map-height.
/// Throws LoadError naming the line and field.
[[nodiscard]] ScenarioFile parse_movingai_scenarios(std::string_view text, const std::string& source_name);
/// Reads a `.scen` file of at most `max_bytes` bytes. Throws LoadError.
[[nodiscard]] ScenarioFile load_movingai_scenarios(const std::filesystem::path& file,
                                                   std::uint64_t max_bytes = kDefaultMaxScenBytes);

/// Unit of the last printed digit of a decimal number written as text ("3.41421" -> 1e-5,
/// "446.00" -> 0.01, "12" -> 1, "1.5e+03" -> 100). Returns 0 for text that is not a number.
[[nodiscard]] double last_digit_unit(std::string_view number) noexcept;

/// True if `cost` matches the scenario's optimal length within its tolerance (plus a relative 1e-9
/// for floating-point noise).
[[nodiscard]] bool matches_optimal(const Scenario& scenario, double cost) noexcept;

/// Finds the map file of a scenario (see the overview for the candidates). Throws LoadError naming the
/// scenario file, the line and the candidates tried when none exists with the right size.
[[nodiscard]] std::filesystem::path resolve_scenario_map(const std::filesystem::path& scenario_file,
                                                         const Scenario& scenario);

/// Checks that every scenario fits `map`: the declared map size equals the map's, and start and goal
/// lie on it. Throws LoadError naming `scenarios.file`, the first offending line and field.
void check_scenarios_fit(const ScenarioFile& scenarios, const path::GridMap& map, const std::string& map_name);

}  // namespace gameplan::io
