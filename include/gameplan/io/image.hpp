#pragma once
/// @file image.hpp
/// RGB images and PNG files, for pictures of maps, searches and simulations.
///
/// `Image` is a plain 8-bit RGB raster (row-major, top row first) with a few drawing helpers; PNG
/// encoding and decoding go through libpng (Debian's libpng-dev), linked privately by `gameplan::io`.
/// Decoding exists so tests (and tools) can check what was written.

#include <cstdint>
#include <filesystem>
#include <vector>

namespace gameplan::io {

/// An 8-bit RGB colour.
struct Rgb {
    std::uint8_t r = 0, g = 0, b = 0;
    friend constexpr bool operator==(Rgb, Rgb) noexcept = default;
};

/// A width × height RGB raster. Pixels outside the image are ignored by the drawing helpers.
class Image {
public:
    Image() = default;
    /// A `width` × `height` image filled with `fill`. Throws std::length_error for sizes over 32768 per side.
    Image(std::int32_t width, std::int32_t height, Rgb fill = {});

    [[nodiscard]] std::int32_t width() const noexcept { return m_width; }
    [[nodiscard]] std::int32_t height() const noexcept { return m_height; }
    /// Colour at (x, y); black outside the image.
    [[nodiscard]] Rgb at(std::int32_t x, std::int32_t y) const noexcept;
    /// Sets (x, y) to `colour` if inside the image.
    void set(std::int32_t x, std::int32_t y, Rgb colour) noexcept;
    /// Fills the rectangle [x, x + w) × [y, y + h), clipped to the image.
    void fill_rect(std::int32_t x, std::int32_t y, std::int32_t w, std::int32_t h, Rgb colour) noexcept;
    /// Draws a 1-pixel line from (x0, y0) to (x1, y1) (Bresenham), clipped to the image.
    void line(std::int32_t x0, std::int32_t y0, std::int32_t x1, std::int32_t y1, Rgb colour) noexcept;
    /// Raw pixels, 3 bytes per pixel, rows top to bottom.
    [[nodiscard]] const std::vector<std::uint8_t>& pixels() const noexcept { return m_pixels; }

private:
    std::int32_t m_width = 0;
    std::int32_t m_height = 0;
    std::vector<std::uint8_t> m_pixels;
};

/// Writes `image` as an 8-bit RGB PNG. Throws io::LoadError (naming the file) if it cannot be written.
void write_png(const std::filesystem::path& path, const Image& image);

/// Reads an 8-bit-per-channel PNG (RGB, RGBA, grey or palette are converted to RGB). Throws
/// io::LoadError naming the file on a missing, truncated or malformed file.
[[nodiscard]] Image read_png(const std::filesystem::path& path);

}  // namespace gameplan::io
