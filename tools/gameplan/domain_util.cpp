#include "domain_util.hpp"

#include <gameplan/goap/explain.hpp>
#include <gameplan/io/domain_file.hpp>
#include <gameplan/io/lint.hpp>
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

}  // namespace gameplan::cli
