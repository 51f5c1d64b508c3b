#pragma once
/// @file generation.hpp
/// Generation stamps: the protocol that lets a search reuse its per-node arrays without clearing them.
///
/// Every node carries a 32-bit stamp. A search owns one *generation* value g: a stamp equal to g means
/// "open in this search", g + 1 means "closed in this search", anything else means "not touched by this
/// search" (its other per-node fields are garbage). Starting a new search advances g by 2, which makes
/// every node unvisited in O(1). Only when the counter is about to wrap (once per ~2 billion searches)
/// must every stamp be reset to `kUnvisitedStamp`.
///
/// `SearchContext` and the specialised loops that live beside it (the grid pathfinder) share this one
/// definition, so the open/closed encoding cannot drift between them.

#include <cstdint>

namespace gameplan::search {

/// Stamp value that is never a live generation (generations start at 2). Fresh arrays hold it.
inline constexpr std::uint32_t kUnvisitedStamp = 0;

/// Stamp marking a node as open in the search of generation `generation`.
[[nodiscard]] constexpr std::uint32_t open_stamp(std::uint32_t generation) noexcept { return generation; }
/// Stamp marking a node as closed (expanded) in the search of generation `generation`.
[[nodiscard]] constexpr std::uint32_t closed_stamp(std::uint32_t generation) noexcept { return generation + 1; }

/// Advances `generation` to the next search. On wrap-around, calls `reset_all_stamps()` (which must set
/// every stamp to kUnvisitedStamp) before restarting the count. O(1) except on wrap.
template <class ResetAllStamps>
void advance_generation(std::uint32_t& generation, ResetAllStamps&& reset_all_stamps) {
    if (generation >= UINT32_MAX - 4) {
        reset_all_stamps();
        generation = kUnvisitedStamp;
    }
    generation += 2;
}

/// Reserves a block of `span` stamps, [base, base + span), for the next round of searches run side by side
/// (one stamp per side; islands' split searches use it). `last` holds the previous block's base. On
/// wrap-around, calls `reset_all_stamps()` (which must set every stamp to kUnvisitedStamp) first. Returns
/// the new base; kUnvisitedStamp is never inside a block. O(1) except on wrap.
template <class ResetAllStamps>
std::uint32_t next_stamp_block(std::uint32_t& last, std::uint32_t span, ResetAllStamps&& reset_all_stamps) {
    if (last > UINT32_MAX - 2 * span) {
        reset_all_stamps();
        last = kUnvisitedStamp;
    }
    last += span;
    return last;
}

}  // namespace gameplan::search
