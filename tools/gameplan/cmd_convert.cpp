// `gameplan convert IN OUT [--to json|csv] [--json]`: a GOAP domain from JSON to CSV or back (lossless).
#include "commands.hpp"
#include "domain_util.hpp"

#include <gameplan/io/domain_csv.hpp>
#include <gameplan/io/domain_file.hpp>

#include <nlohmann/json.hpp>

#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>

namespace gameplan::cli {

namespace {

struct ConvertArgs {
    std::string in;
    std::string out;
    std::string to;
    bool json = false;
};

int run_convert(const ConvertArgs& args) {
    if (args.json && args.out == "-")
        throw UsageError("convert: --json prints a summary on standard output; write the domain to a file");
    io::DomainFormat format;
    if (!args.to.empty()) format = args.to == "csv" ? io::DomainFormat::Csv : io::DomainFormat::Json;
    else if (args.out == "-") throw UsageError("convert: writing to standard output needs --to json or --to csv");
    else {
        std::string ext = std::filesystem::path(args.out).extension().string();
        for (char& c : ext) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
        if (ext == ".csv") format = io::DomainFormat::Csv;
        else if (ext == ".json") format = io::DomainFormat::Json;
        else throw UsageError("convert: cannot tell the format of '" + args.out + "' (name it .json or .csv, or give --to)");
    }
    const io::DomainFile file = io::load_domain(args.in);
    std::string text;
    try {
        text = format == io::DomainFormat::Csv ? io::write_domain_csv(file) : io::write_domain_json(file);
    } catch (const std::invalid_argument& e) {
        throw UsageError(io::input_name(args.in) + ": cannot convert to CSV: " + e.what());
    }
    write_output(args.out, text);
    if (args.json) {
        nlohmann::ordered_json out;
        out["input"] = io::input_name(args.in);
        out["output"] = args.out;
        out["format"] = format == io::DomainFormat::Csv ? "csv" : "json";
        out["atoms"] = file.domain.atom_count();
        out["variables"] = file.domain.variable_count();
        out["actions"] = file.domain.action_count();
        out["goals"] = file.goals.size() + (file.goal ? 1 : 0);
        out["bytes"] = text.size();
        std::cout << out.dump() << '\n';
    }
    return 0;
}

}  // namespace

void add_convert_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<ConvertArgs>();
    CLI::App* cmd = app.add_subcommand("convert", "Convert a GOAP domain between JSON and CSV (lossless; exit 0 done, 2 bad input)");
    cmd->add_option("in", args->in, "Domain file to read, JSON or CSV ('-' = standard input)")->required();
    cmd->add_option("out", args->out, "File to write; its extension (.json, .csv) picks the format ('-' = standard output)")->required();
    cmd->add_option("--to", args->to, "Output format, overriding the extension")->check(CLI::IsMember({"json", "csv"}));
    cmd->add_flag("--json", args->json,
                  "Print one JSON object: input, output, format, atoms, variables, actions, goals, bytes (written)");
    cmd->callback([args, &exit_code] { exit_code = run_convert(*args); });
}

}  // namespace gameplan::cli
