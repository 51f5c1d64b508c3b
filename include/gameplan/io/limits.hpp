#pragma once
/// @file limits.hpp
/// The input limits of gameplan's loaders (docs/limits.md, "Input files").
///
/// Every loader refuses input it cannot handle safely with an `io::LoadError` (file, line, column,
/// field) instead of crashing, running forever or exhausting memory. The defaults below fit every
/// real-world file comfortably; each can be changed through the loader's options (`JsonLimits`,
/// `MapLoadOptions::max_bytes`, the `max_bytes` argument of the `.scen` reader).
///
/// Reading a file: directories, character and block devices and sockets are refused by name; regular
/// files and pipes are read through a bounded reader that stops one byte past the limit, so `/dev/zero`
/// or an endless pipe end with "larger than the limit" instead of filling memory.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace gameplan::io {

/// Default byte limit of a GOAP domain or scenario JSON file (16 MiB). Parsing needs up to about 20
/// times the file size in memory, so this keeps a load well under 1 GB.
inline constexpr std::uint64_t kDefaultMaxJsonBytes = std::uint64_t{16} << 20;
/// Default byte limit of a grid map file (320 MiB: the largest map gameplan accepts, 2^28 cells, with
/// CRLF line ends and room for comments).
inline constexpr std::uint64_t kDefaultMaxMapBytes = std::uint64_t{320} << 20;
/// Default byte limit of a MovingAI `.scen` file (64 MiB, about 800,000 problems).
inline constexpr std::uint64_t kDefaultMaxScenBytes = std::uint64_t{64} << 20;
/// Largest graph file (JSON or CSV) `io::load_graph` reads: 256 MiB.
inline constexpr std::uint64_t kDefaultMaxGraphBytes = std::uint64_t{256} << 20;
/// Default byte limit of a cost layer file (`io::load_penalty_layer`): 1 GiB, room for the largest map
/// (2^28 cells) with a digit and a separator per value and CRLF line ends.
inline constexpr std::uint64_t kDefaultMaxLayerBytes = std::uint64_t{1} << 30;
/// Largest value of a cell in a cost layer file (values are stored as 32-bit floats; with this bound a
/// weighted sum over any path stays finite and far from float overflow).
inline constexpr double kMaxLayerValue = 1e9;
/// Most lines a map file may have (the tallest map, 32768 rows, plus room for headers, comments and
/// trailing blank lines).
inline constexpr std::size_t kMaxMapLines = 100000;
/// Most lines a `.scen` file may have.
inline constexpr std::size_t kMaxScenLines = 1000000;

/// Default nesting limit of JSON input: objects and arrays nested deeper are refused before any value
/// is built (real domains and scenarios nest fewer than 10 levels).
inline constexpr std::size_t kDefaultMaxJsonDepth = 256;
/// Largest nesting limit a caller may set (`JsonLimits::max_depth` is clamped to it).
inline constexpr std::size_t kMaxJsonDepthCap = 10000;

/// Largest cost of one action (also of a scenario's cost overrides). With it, a plan's cost cannot
/// overflow: even 2^53 steps at this cost stay finite.
inline constexpr double kMaxActionCost = 1e9;
/// Largest sum of all action costs of one domain (2^53 is about 9e15: sums of distinct actions stay
/// exact in double arithmetic).
inline constexpr double kMaxTotalActionCost = 1e15;

/// Default budget for the dense atom tables a domain or scenario needs (bits over all atoms per
/// action, goal, rule and agent): 256 MiB.
inline constexpr std::uint64_t kDefaultMaxTableBytes = std::uint64_t{256} << 20;

/// Largest run length (`"ticks"`) a scenario file may ask for.
inline constexpr std::uint64_t kMaxScenarioTicks = 10000000;

/// Limits of the JSON loaders (domains and scenarios).
struct JsonLimits {
    /// Largest input, in bytes (files and texts alike).
    std::uint64_t max_bytes = kDefaultMaxJsonBytes;
    /// Deepest nesting of objects and arrays (the document itself is level 1); at most kMaxJsonDepthCap.
    std::size_t max_depth = kDefaultMaxJsonDepth;
    /// Budget for the dense atom tables, in bytes: a domain needs (32 x actions + 16 x goals + 8) x
    /// ceil(atoms / 64) bytes, and a scenario's agents 32 x (1 + goals + priority rules) x ceil(atoms / 64)
    /// bytes each (their states and conditions, in the file and in the runtime). Over budget, the loader
    /// refuses the file and names the memory it would need.
    std::uint64_t max_table_bytes = kDefaultMaxTableBytes;
    /// Largest cost of one action or cost override; values above kMaxActionCost act as kMaxActionCost.
    double max_action_cost = kMaxActionCost;
    /// Largest sum of a domain's action costs; values above kMaxTotalActionCost act as kMaxTotalActionCost.
    double max_total_cost = kMaxTotalActionCost;
};

/// Reads a whole file of at most `max_bytes` bytes. Refuses directories, devices and sockets, and
/// stops reading one byte past the limit (pipes and endless streams are safe).
/// @throws LoadError naming `file` (line and column 0) when the file is missing, unreadable, not a
/// regular file or pipe, or larger than `max_bytes`; `what` names the kind of file in the messages
/// ("domain file", "map file").
[[nodiscard]] std::string read_bounded_file(const std::filesystem::path& file, std::uint64_t max_bytes,
                                            std::string_view what = "file");

/// `bytes` in human units for messages ("1.2 GB", "640 KB", "12 bytes").
[[nodiscard]] std::string format_bytes(std::uint64_t bytes);

}  // namespace gameplan::io
