#pragma once
// Helpers shared by the commands that read GOAP domains (plan, explain, lint, dot, convert).
#include "commands.hpp"
#include "results_json.hpp"

#include <gameplan/goap/domain.hpp>
#include <gameplan/goap/world_state.hpp>
#include <gameplan/io/domain_json.hpp>
#include <gameplan/io/movingai.hpp>
#include <gameplan/path/grid_map.hpp>

#include <nlohmann/json.hpp>

#include <span>
#include <string>

namespace gameplan::cli {

/// Literals in the CSV cell syntax as "a, !b" (items_json: results_json.hpp).
std::string items_text(const goap::Domain& domain, std::span<const goap::Literal> literals, const char* separator = ", ");

/// Writes `text` to `path`, or to standard output for `-`. Throws UsageError if it cannot.
void write_output(const std::string& path, const std::string& text);

}  // namespace gameplan::cli

namespace gameplan::cli {
/// Loads a domain (JSON or CSV, `-` = standard input). When it does not load, throws a LoadError whose
/// message lists every error of the file (one per line), not just the first.
io::DomainFile load_domain_reporting_all(const std::string& path);
/// A grid map file in either format (`io::load_grid_map`), or from standard input for `-` (at most
/// 256 MiB; MovingAI when the text starts with `type`, else the plain-text grid).
path::GridMap read_grid_map(const std::string& path, const io::MapLoadOptions& options = {});
/// Parses a cell "X,Y" (integers) of `map`. Throws UsageError naming `option` for bad text or a cell off
/// the map.
path::GridPoint parse_point(const std::string& text, const char* option, const path::GridMap& map);
/// The --png picture's pixels per cell: `requested` (--png-scale), or for 0 the largest that fits about
/// 2048 px. Throws UsageError for a picture over 8192 x 8192 pixels (checked before anything is drawn).
std::int32_t picture_scale(std::uint64_t requested, const path::GridMap& map);
}  // namespace gameplan::cli
