#pragma once
/// @file restore.hpp
/// The result of restoring saved state (`AgentSystem::restore_state`, `PathRequestQueue::restore_state`,
/// `MovementSystem::restore_state`; io/save.hpp reads and writes the save file).
///
/// Restoring checks every saved value against the objects it is restored into (sizes, ids, ranges and
/// the invariants the runtime relies on) and refuses state that does not fit, naming the field as a
/// path into the saved state (`agents[3].plan[2]`, the same path the save file uses), so that a loader
/// can point at the line and column of the mistake. A refused restore leaves the object empty or as it
/// was created, never half-restored in a state that could crash later.

#include <optional>
#include <string>

namespace gameplan {

/// Why saved state could not be restored.
struct RestoreError {
    std::string field;    ///< path of the offending value inside the saved state ("" for the whole state)
    std::string message;  ///< what is wrong, for a person
};

/// nullopt when the state was restored, else why not.
using RestoreResult = std::optional<RestoreError>;

}  // namespace gameplan
