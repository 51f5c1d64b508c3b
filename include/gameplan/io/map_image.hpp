#pragma once
/// @file map_image.hpp
/// Pictures of grid maps: the map itself, cells a search touched, paths and markers.
///
/// Every map cell becomes a `scale` × `scale` block of pixels, the top-left cell at pixel (0, 0).
/// Colours follow one legend everywhere in gameplan (`MapPalette`): walls dark, open ground light,
/// terrain costs shaded darker with cost, searched cells tinted, paths drawn as lines between cell
/// centres (so smoothed and any-angle paths look like what a unit walks).
///
/// Thread-safety: pure functions on caller-owned images.

#include <gameplan/io/image.hpp>
#include <gameplan/path/grid_map.hpp>

#include <cstdint>
#include <span>

namespace gameplan::io {

/// The colour legend of map pictures.
struct MapPalette {
    Rgb wall{40, 40, 48};          ///< impassable cell
    Rgb ground{236, 232, 220};     ///< passable cell of cost 1 (or of the map's minimum cost)
    Rgb costly{150, 130, 100};     ///< passable cell of the map's highest cost (lower costs blend toward ground)
    Rgb expanded{150, 190, 235};   ///< cell expanded (closed) by a search
    Rgb generated{205, 225, 245};  ///< cell generated but not expanded (still open)
    Rgb path{220, 30, 30};         ///< path line
    Rgb start{30, 160, 30};        ///< start marker
    Rgb goal{200, 30, 200};        ///< goal marker
};

/// Largest `scale` × map side accepted by render_map (the Image limit).
inline constexpr std::int32_t kMaxImageSide = 32768;

/// Pixel scale for drawing `map` with cells of about `preferred` pixels, reduced so neither image side
/// exceeds `max_side` (at least 1). Use it to keep pictures of big maps a sensible size.
[[nodiscard]] std::int32_t fit_scale(const path::GridMap& map, std::int32_t preferred,
                                     std::int32_t max_side = 4096) noexcept;

/// The map as an image, `scale` pixels per cell (1..256). Throws std::invalid_argument for a scale
/// outside 1..256 or an image side over kMaxImageSide.
[[nodiscard]] Image render_map(const path::GridMap& map, std::int32_t scale, const MapPalette& palette = {});

/// Fills cell `p` (scale × scale pixels) with `colour`; cells off the image are ignored.
void paint_cell(Image& image, path::GridPoint p, std::int32_t scale, Rgb colour) noexcept;

/// Fills a square of side about half a cell centred on cell `p`: a marker for a unit or a place.
void mark_cell(Image& image, path::GridPoint p, std::int32_t scale, Rgb colour) noexcept;

/// Draws `points` as a polyline through the cell centres (a single point is marked).
void draw_path(Image& image, std::span<const path::GridPoint> points, std::int32_t scale, Rgb colour) noexcept;

}  // namespace gameplan::io
