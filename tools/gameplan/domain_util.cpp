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

ChosenGoal choose_goal(const io::DomainFile& f, const std::string& requested, const std::string& file) {
    ChosenGoal out;
    if (!requested.empty()) {
        const goap::Goal* g = f.find_goal(requested);
        if (!g) {
            std::string names;
            for (const goap::Goal& x : f.goals) names += (names.empty() ? "" : ", ") + x.name;
            throw UsageError(file + ": no goal named '" + requested + "' in \"goals\"" +
                             (names.empty() ? std::string(" (the file has no named goals)") : " (available: " + names + ")"));
        }
        out.condition = &g->condition;
        out.name = g->name;
        out.description = "goal '" + g->name + "' (priority " + cost_text(g->priority) + ")";
        return out;
    }
    if (f.goal) {
        out.condition = &*f.goal;
        out.name = "goal";
        out.description = "the default goal (\"goal\")";
        return out;
    }
    const goap::Goal* best = nullptr;
    for (const goap::Goal& g : f.goals)
        if (!best || g.priority > best->priority) best = &g;
    if (!best) throw UsageError(file + ": the domain has no \"goal\" and no \"goals\" to plan for");
    out.condition = &best->condition;
    out.name = best->name;
    out.description = "goal '" + best->name + "' (priority " + cost_text(best->priority) + ", the highest; choose one with --goal)";
    return out;
}

nlohmann::ordered_json items_json(const goap::Domain& domain, std::span<const goap::Literal> literals) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const goap::Literal l : literals) out.push_back(goap::literal_text(domain, l));
    return out;
}

std::string items_text(const goap::Domain& domain, std::span<const goap::Literal> literals, const char* separator) {
    std::string out;
    for (const goap::Literal l : literals) out += (out.empty() ? "" : separator) + goap::literal_text(domain, l);
    return out;
}

nlohmann::ordered_json cost_json(double cost) {
    if (cost == std::floor(cost) && std::fabs(cost) < 9.0e15) return static_cast<std::int64_t>(cost);
    return cost;
}

std::string cost_text(double cost) {
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, cost);
    return std::string(buf, r.ptr);
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
