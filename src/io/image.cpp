#include <gameplan/io/image.hpp>
#include <gameplan/io/load_error.hpp>

#include <png.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>

namespace gameplan::io {

Image::Image(std::int32_t width, std::int32_t height, Rgb fill) {
    if (width < 0 || height < 0 || width > 32768 || height > 32768)
        throw std::length_error("image size out of range (0..32768 per side)");
    m_width = width;
    m_height = height;
    m_pixels.resize(static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 3);
    for (std::size_t i = 0; i < m_pixels.size(); i += 3) {
        m_pixels[i] = fill.r;
        m_pixels[i + 1] = fill.g;
        m_pixels[i + 2] = fill.b;
    }
}

Rgb Image::at(std::int32_t x, std::int32_t y) const noexcept {
    if (x < 0 || y < 0 || x >= m_width || y >= m_height) return {};
    const std::size_t i = (static_cast<std::size_t>(y) * static_cast<std::size_t>(m_width) + static_cast<std::size_t>(x)) * 3;
    return {m_pixels[i], m_pixels[i + 1], m_pixels[i + 2]};
}

void Image::set(std::int32_t x, std::int32_t y, Rgb c) noexcept {
    if (x < 0 || y < 0 || x >= m_width || y >= m_height) return;
    const std::size_t i = (static_cast<std::size_t>(y) * static_cast<std::size_t>(m_width) + static_cast<std::size_t>(x)) * 3;
    m_pixels[i] = c.r;
    m_pixels[i + 1] = c.g;
    m_pixels[i + 2] = c.b;
}

void Image::fill_rect(std::int32_t x, std::int32_t y, std::int32_t w, std::int32_t h, Rgb c) noexcept {
    const std::int32_t x0 = std::max(0, x), y0 = std::max(0, y);
    const std::int32_t x1 = std::min<std::int64_t>(m_width, std::int64_t{x} + w);
    const std::int32_t y1 = std::min<std::int64_t>(m_height, std::int64_t{y} + h);
    for (std::int32_t yy = y0; yy < y1; ++yy)
        for (std::int32_t xx = x0; xx < x1; ++xx) set(xx, yy, c);
}

void Image::line(std::int32_t x0, std::int32_t y0, std::int32_t x1, std::int32_t y1, Rgb c) noexcept {
    const std::int64_t dx = std::abs(std::int64_t{x1} - x0), dy = -std::abs(std::int64_t{y1} - y0);
    const int sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;
    std::int64_t err = dx + dy;
    for (;;) {
        set(x0, y0, c);
        if (x0 == x1 && y0 == y1) break;
        const std::int64_t e2 = 2 * err;
        if (e2 >= dy) err += dy, x0 += sx;
        if (e2 <= dx) err += dx, y0 += sy;
    }
}

namespace {
struct FileCloser {
    void operator()(std::FILE* f) const noexcept { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

[[noreturn]] void png_fail(png_structp png, png_const_charp message) {
    // libpng requires this handler not to return; unwind through the C frames with longjmp.
    auto* text = static_cast<std::string*>(png_get_error_ptr(png));
    if (text) *text = message;
    png_longjmp(png, 1);
}
void png_warn(png_structp, png_const_charp) {}
}  // namespace

void write_png(const std::filesystem::path& path, const Image& image) {
    File file(std::fopen(path.c_str(), "wb"));
    if (!file) throw LoadError(path.string(), 0, 0, "", std::string("cannot write: ") + std::strerror(errno));
    std::string error;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &error, png_fail, png_warn);
    png_infop info = png ? png_create_info_struct(png) : nullptr;
    if (!png || !info) {
        png_destroy_write_struct(&png, nullptr);
        throw LoadError(path.string(), 0, 0, "", "libpng: out of memory");
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        throw LoadError(path.string(), 0, 0, "", "libpng: " + error);
    }
    png_init_io(png, file.get());
    png_set_IHDR(png, info, static_cast<png_uint_32>(image.width()), static_cast<png_uint_32>(image.height()), 8,
                 PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    const auto* data = image.pixels().data();
    for (std::int32_t y = 0; y < image.height(); ++y)
        png_write_row(png, data + static_cast<std::size_t>(y) * static_cast<std::size_t>(image.width()) * 3);
    png_write_end(png, nullptr);
    png_destroy_write_struct(&png, &info);
    if (std::fflush(file.get()) != 0) throw LoadError(path.string(), 0, 0, "", "write failed");
}

Image read_png(const std::filesystem::path& path) {
    File file(std::fopen(path.c_str(), "rb"));
    if (!file) throw LoadError(path.string(), 0, 0, "", std::string("cannot open: ") + std::strerror(errno));
    unsigned char signature[8] = {};
    if (std::fread(signature, 1, 8, file.get()) != 8 || png_sig_cmp(signature, 0, 8) != 0)
        throw LoadError(path.string(), 0, 0, "", "not a PNG file");
    std::string error;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &error, png_fail, png_warn);
    png_infop info = png ? png_create_info_struct(png) : nullptr;
    if (!png || !info) {
        png_destroy_read_struct(&png, nullptr, nullptr);
        throw LoadError(path.string(), 0, 0, "", "libpng: out of memory");
    }
    Image image;  // declared before setjmp so a longjmp leaves it destructible
    std::vector<std::uint8_t> row;
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, nullptr);
        throw LoadError(path.string(), 0, 0, "", "libpng: " + error);
    }
    png_init_io(png, file.get());
    png_set_sig_bytes(png, 8);
    png_read_info(png, info);
    const png_uint_32 w = png_get_image_width(png, info), h = png_get_image_height(png, info);
    if (w > 32768 || h > 32768) {
        png_destroy_read_struct(&png, &info, nullptr);
        throw LoadError(path.string(), 0, 0, "", "image too large");
    }
    png_set_strip_16(png);
    png_set_palette_to_rgb(png);
    png_set_expand_gray_1_2_4_to_8(png);
    png_set_gray_to_rgb(png);
    png_set_strip_alpha(png);
    png_read_update_info(png, info);
    image = Image(static_cast<std::int32_t>(w), static_cast<std::int32_t>(h));
    row.resize(png_get_rowbytes(png, info));
    for (png_uint_32 y = 0; y < h; ++y) {
        png_read_row(png, row.data(), nullptr);
        for (png_uint_32 x = 0; x < w; ++x)
            image.set(static_cast<std::int32_t>(x), static_cast<std::int32_t>(y), Rgb{row[x * 3], row[x * 3 + 1], row[x * 3 + 2]});
    }
    png_destroy_read_struct(&png, &info, nullptr);
    return image;
}

}  // namespace gameplan::io
