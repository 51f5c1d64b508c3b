#pragma once
/// @file save.hpp
/// Save files: a running game's planning and pathfinding state written to one versioned JSON document
/// and read back, so that loading continues exactly where the game left off (docs/formats.md, "Save
/// files").
///
/// Overview
/// --------
/// A `SaveFile` holds any number of sections, each the plain-data state of one library object:
/// grid maps (cells, terrain costs and the change counter), agent systems (`goap::AgentSystemState`:
/// blackboard, agents, goals, plans, positions in them, cool-downs, paused searches), movement systems
/// (`path::MovementState`, with their request queues) and stand-alone request queues
/// (`path::PathRequestQueueState`, with searches in progress), plus the game's own data as named
/// integer tables (`SaveTable`: a village's places and stocks, a unit list, counters). The game fills
/// it with the objects' `save_state` calls, `write_save` writes it; `load_save` reads and checks it and
/// `restore` puts each section back into a freshly made object.
///
/// The document starts with `"format": "gameplan-save"` and `"version": 1`; a file of another format or
/// version is refused by name. Every error is an `io::LoadError` naming the file, line, column and
/// field, for syntax, structure and ranges at load time, and for state that does not fit the object it
/// is restored into (an action id past the domain's actions, a unit in a wall) at restore time. Limits:
/// `SaveLimits` (docs/limits.md).
///
/// Thread-safety: plain functions over values; no shared state.

#include <gameplan/goap/agent.hpp>
#include <gameplan/io/load_error.hpp>
#include <gameplan/io/limits.hpp>
#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/movement.hpp>
#include <gameplan/path/request_queue.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace gameplan::io {

/// Value of the "format" member of every save file.
inline constexpr std::string_view kSaveFormat = "gameplan-save";
/// The save format version this build writes and reads.
inline constexpr std::uint32_t kSaveVersion = 1;
/// Default byte limit of a save file (64 MiB).
inline constexpr std::uint64_t kDefaultMaxSaveBytes = std::uint64_t{64} << 20;

/// Limits of `load_save`.
struct SaveLimits {
    std::uint64_t max_bytes = kDefaultMaxSaveBytes;  ///< largest file
    std::size_t max_depth = kDefaultMaxJsonDepth;    ///< deepest nesting (at most kMaxJsonDepthCap)
};

/// Game data: a named table of integers (rows of `columns.size()` values each).
struct SaveTable {
    std::string name;
    std::vector<std::string> columns;
    std::vector<std::vector<std::int64_t>> rows;
};

/// Everything one save file holds. See the file overview.
struct SaveFile {
    std::string application;  ///< who wrote it (free text, e.g. "gameplan demo")
    std::uint64_t tick = 0;   ///< the game's tick when saved (informational)
    std::vector<path::GridMap> maps;
    std::vector<goap::AgentSystemState> agent_systems;
    std::vector<path::MovementState> movement;
    std::vector<path::PathRequestQueueState> queues;
    std::vector<SaveTable> tables;

    /// The table called `name`, or nullptr.
    [[nodiscard]] const SaveTable* find_table(std::string_view name) const noexcept;

    // Where it was read from (set by load_save / parse_save; used to place restore errors).
    std::string source_name;
    std::string source_text;
};

/// The save file as JSON text (one document, ends with a newline). Doubles are written exactly
/// (shortest round-trip form); infinities as "inf" / "-inf".
[[nodiscard]] std::string write_save(const SaveFile& save);
/// Writes `write_save(save)` to `file` (replaced if it exists). Throws LoadError (naming the file,
/// line 0) when it cannot be written.
void write_save_file(const std::filesystem::path& file, const SaveFile& save);

/// Reads a save file. Throws LoadError (file, line, column, field) for anything that is not a valid
/// save file of this version: missing or unreadable, larger than the limit, not JSON, truncated, a
/// wrong format or version, a missing or unknown field, a value of the wrong type or out of range.
[[nodiscard]] SaveFile load_save(const std::filesystem::path& file, const SaveLimits& limits = {});
/// The same for text in memory; `name` stands for the file in messages.
[[nodiscard]] SaveFile parse_save(std::string_view text, std::string_view name = "<input>", const SaveLimits& limits = {});

/// Restores agent system `index` of `save` into `system` (see `AgentSystem::restore_state`). Throws
/// LoadError naming the field and its position in the save file when the state does not fit.
void restore(goap::AgentSystem& system, const SaveFile& save, std::size_t index, const goap::AgentSystem::AgentBinder& bind);
/// Restores movement system `index` (see `MovementSystem::restore_state`). Throws LoadError as above.
void restore(path::MovementSystem& movement, const SaveFile& save, std::size_t index);
/// Restores request queue `index` (see `PathRequestQueue::restore_state`). Throws LoadError as above.
void restore(path::PathRequestQueue& queue, const SaveFile& save, std::size_t index, const path::QueueBindings& bindings = {});

/// Throws a LoadError for a problem the game found in its own data: `field` is a path into the save
/// file (`tables[0].rows[3][2]`), placed at its line and column.
[[noreturn]] void throw_save_error(const SaveFile& save, std::string_view field, const std::string& message);

}  // namespace gameplan::io
