#pragma once
/// @file render.hpp
/// Pictures of a village: PNG snapshots and the terminal view of `gameplan demo`.
///
/// Legend (both): walls dark / `#`; trees green `T` (a felled tree's stump brown `,`); mines purple
/// `M`; markets orange `$`; stores brown `S`; kitchens red `K`; homes blue `H`; villagers by kind -
/// woodcutters cyan `w`, miners magenta `m`, cooks yellow `c`; in pictures
/// each villager's remaining route is a line in its kind's darker colour. Wolf dens: a dark red mark /
/// `W`; the danger wolves spread (Village::danger): a red heat overlay on open cells, strongest at 8 and
/// above / `:` (red) on open cells with a danger of at least 1.

#include <gameplan_village/village.hpp>

#include <gameplan/io/image.hpp>

#include <cstdint>
#include <string>

namespace gameplan::village {

/// Colours of the pictures (see the file overview).
struct SnapshotPalette {
    io::Rgb tree{34, 120, 52}, stump{150, 110, 70}, mine{120, 80, 150}, market{240, 150, 30}, store{140, 90, 45},
        kitchen{210, 50, 40}, home{70, 100, 190};
    io::Rgb villager[kKindCount] = {{0, 200, 255}, {255, 0, 200}, {255, 225, 0}};  ///< by Kind
    io::Rgb route[kKindCount] = {{0, 130, 180}, {180, 0, 140}, {190, 160, 0}};     ///< by Kind
    io::Rgb outline{0, 0, 0};  ///< villager outline (scale >= 3)
    io::Rgb heat{230, 20, 20};  ///< danger overlay colour (blended over open cells)
    io::Rgb den{120, 0, 0};     ///< wolf dens
};

/// Colour of a place as drawn.
[[nodiscard]] io::Rgb place_colour(const Place& place, const SnapshotPalette& palette = {}) noexcept;

/// Pixel scale for snapshots of `map`: cells of about 8 pixels, images at most 2048 pixels a side.
[[nodiscard]] std::int32_t snapshot_scale(const path::GridMap& map) noexcept;

/// The village now: map, places, each villager's remaining route, villagers on top. `scale` pixels
/// per cell (see io::render_map for the limits).
[[nodiscard]] io::Image render_snapshot(const Village& village, std::int32_t scale, const SnapshotPalette& palette = {});

/// Upper-left cell of a `cols` x `rows` window centred on the villagers (clamped to the map).
[[nodiscard]] path::GridPoint view_origin(const Village& village, std::int32_t cols, std::int32_t rows) noexcept;

/// The window of the map at `origin`, `cols` x `rows` cells (clipped to the map), one text line per
/// row ending in '\n'; with `ansi` the characters carry ANSI colours.
[[nodiscard]] std::string render_text(const Village& village, path::GridPoint origin, std::int32_t cols,
                                      std::int32_t rows, bool ansi);

}  // namespace gameplan::village
