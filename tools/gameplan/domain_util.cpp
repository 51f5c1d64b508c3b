#include "domain_util.hpp"

#include "cli_support.hpp"

#include <gameplan/goap/explain.hpp>
#include <gameplan/io/domain_file.hpp>
#include <gameplan/io/lint.hpp>
#include <gameplan/io/map_image.hpp>
#include <gameplan/io/movingai.hpp>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iostream>

namespace gameplan::cli {

std::string items_text(const goap::Domain& domain, std::span<const goap::Literal> literals, const char* separator) {
    std::string out;
    for (const goap::Literal l : literals) out += (out.empty() ? "" : separator) + goap::literal_text(domain, l);
    return out;
}

void write_output(const std::string& path, const std::string& text) {
    if (path == "-") {
        std::cout << text;
        std::cout.flush();
        if (!std::cout) throw UsageError("cannot write to standard output");
        return;
    }
    std::ofstream out(path, std::ios::binary);
    if (!out) throw UsageError(path + ": cannot open for writing");
    out << text;
    out.close();
    if (!out) throw UsageError(path + ": write error");
}

io::DomainFile load_domain_reporting_all(const std::string& path) {
    const std::string text = io::read_text_input(path);
    const io::DomainFormat format = io::domain_format_of(path, text);
    try {
        return io::parse_domain(text, format, io::input_name(path));
    } catch (const io::LoadError& first) {
        const std::vector<io::LoadError> all = io::domain_load_errors(text, format, io::input_name(path));
        std::size_t others = 0;
        for (const io::LoadError& e : all)
            if (std::string(e.what()) != first.what()) ++others;
        if (others == 0) throw;
        // Every error on its own line (each message is escaped on its own), then the count as the error.
        std::cerr << "gameplan: " << first.what() << '\n';
        for (const io::LoadError& e : all)
            if (std::string(e.what()) != first.what()) std::cerr << "gameplan: " << e.what() << '\n';
        throw UsageError(std::to_string(others + 1) + " errors in " + io::input_name(path));
    }
}

path::GridMap read_grid_map(const std::string& path, const io::MapLoadOptions& options) {
    if (path != "-") return io::load_grid_map(path, options);
    const std::string text = io::read_text_input("-", std::size_t{256} << 20);
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && text.compare(first, 4, "type") == 0) return io::parse_movingai_map(text, "<stdin>", options);
    return io::parse_text_map(text, "<stdin>", options);
}

// Parses "X,Y" (integers). Throws UsageError naming the option.
path::GridPoint parse_point(const std::string& text, const char* option, const path::GridMap& map) {
    const auto comma = text.find(',');
    const auto bad = [&](const std::string& why) {
        return UsageError(std::string(option) + ": " + why + " (expected X,Y, got '" + printable(text, 40) + "')");
    };
    if (comma == std::string::npos) throw bad("missing comma");
    std::int64_t xy[2] = {0, 0};
    const std::string_view parts[2] = {std::string_view(text).substr(0, comma), std::string_view(text).substr(comma + 1)};
    for (int i = 0; i < 2; ++i) {
        const auto [end, ec] = std::from_chars(parts[i].data(), parts[i].data() + parts[i].size(), xy[i]);
        if (ec == std::errc::result_out_of_range) throw bad("coordinate out of range");
        if (ec != std::errc() || end != parts[i].data() + parts[i].size() || parts[i].empty())
            throw bad("coordinates must be integers");
    }
    if (!map.contains(xy[0], xy[1]))
        throw UsageError(std::string(option) + " " + text + " is outside the map (x in [0, " + std::to_string(map.width() - 1) +
                         "], y in [0, " + std::to_string(map.height() - 1) + "])");
    return path::GridPoint{static_cast<std::int32_t>(xy[0]), static_cast<std::int32_t>(xy[1])};
}

// The largest --png picture of any command: 8192 x 8192 pixels (192 MiB of RGB while it is drawn).
constexpr std::int64_t kMaxPicturePixels = std::int64_t{8192} * 8192;

// The picture's scale: --png-scale, or the largest that fits ~2048 px; refuses pictures over
// kMaxPicturePixels (checked before loading anything else, so nothing big is allocated).
std::int32_t picture_scale(std::uint64_t requested, const path::GridMap& map) {
    const std::int32_t scale = requested == 0 ? io::fit_scale(map, 8, 2048) : static_cast<std::int32_t>(requested);
    const std::int64_t w = std::int64_t{map.width()} * scale, h = std::int64_t{map.height()} * scale;
    if (w * h > kMaxPicturePixels || w > io::kMaxImageSide || h > io::kMaxImageSide)
        throw UsageError("--png-scale " + std::to_string(scale) + " makes a " + std::to_string(w) + " x " + std::to_string(h) +
                         " picture of this " + std::to_string(map.width()) + " x " + std::to_string(map.height()) +
                         " map; the limit is " + std::to_string(kMaxPicturePixels) + " pixels (8192 x 8192): use a smaller --png-scale");
    return scale;
}

}  // namespace gameplan::cli
