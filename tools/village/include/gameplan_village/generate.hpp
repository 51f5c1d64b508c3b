#pragma once
/// @file generate.hpp
/// The built-in village map: open country with lakes and rocky outcrops, generated from a seed, so
/// `gameplan demo` needs no file. Any MovingAI map works as well (`--map`).
///
/// The map is deterministic for (width, height, seed): smooth value noise (two octaves on a lattice)
/// decides where water (low values) and rock (high values) lie; the border is rock. Both are blocked
/// cells. Places (trees, mines, hamlets) are scattered afterwards by `Village::create`, as on any map.

#include <gameplan/path/grid_map.hpp>

#include <cstdint>

namespace gameplan::village {

/// Default size of the generated map (fits a 120-column terminal view without scrolling).
inline constexpr std::int32_t kDefaultMapWidth = 120;
/// See kDefaultMapWidth.
inline constexpr std::int32_t kDefaultMapHeight = 56;

/// Generates a `width` x `height` village map (each side in [16, 4096]). Throws std::invalid_argument
/// for other sizes. O(width * height).
[[nodiscard]] path::GridMap generate_village_map(std::int32_t width, std::int32_t height, std::uint64_t seed);

}  // namespace gameplan::village
