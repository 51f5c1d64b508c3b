#include <gameplan/io/domain_csv.hpp>
#include <gameplan/io/domain_file.hpp>
#include <gameplan/io/limits.hpp>
#include <gameplan/io/load_error.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>

namespace gameplan::io {

std::string_view to_string(DomainFormat format) noexcept { return format == DomainFormat::Csv ? "csv" : "json"; }

std::string input_name(const std::filesystem::path& path) { return path == "-" ? std::string("<stdin>") : path.string(); }

DomainFormat domain_format_of(const std::filesystem::path& path, std::string_view text) {
    std::string ext = path.extension().string();
    for (char& c : ext)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (ext == ".csv") return DomainFormat::Csv;
    if (ext == ".json") return DomainFormat::Json;
    if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    return first != std::string_view::npos && text[first] == '{' ? DomainFormat::Json : DomainFormat::Csv;
}

std::string read_text_input(const std::filesystem::path& path, std::size_t max_bytes) {
    const std::string name = input_name(path);
    const std::string too_large = "too large (more than " + std::to_string(max_bytes) + " bytes)";
    std::string text;
    char buf[1 << 16];
    if (path == "-") {
        std::istream& in = std::cin;
        while (in) {
            in.read(buf, sizeof buf);
            text.append(buf, static_cast<std::size_t>(in.gcount()));
            if (text.size() > max_bytes) throw LoadError(name, 0, 0, "", too_large);
        }
        if (in.bad()) throw LoadError(name, 0, 0, "", "read error");
        return text;
    }
    return read_bounded_file(path, max_bytes, "domain file");
}

DomainFile parse_domain(std::string_view text, DomainFormat format, std::string_view file_name,
                        const JsonLimits& limits) {
    return format == DomainFormat::Csv ? parse_domain_csv(text, file_name) : parse_domain_json(text, file_name, limits);
}

DomainFile load_domain(const std::filesystem::path& path, const JsonLimits& limits) {
    const std::string text = read_text_input(path, limits.max_bytes);
    return parse_domain(text, domain_format_of(path, text), input_name(path), limits);
}

}  // namespace gameplan::io
