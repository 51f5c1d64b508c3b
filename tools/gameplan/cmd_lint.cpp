// `gameplan lint DOMAIN [--json]`: every problem of a domain file at once (exit 0 clean, 1 findings,
// 2 unreadable).
#include "commands.hpp"

#include <gameplan/io/lint.hpp>

#include <nlohmann/json.hpp>

#include <iostream>
#include <memory>
#include <string>

namespace gameplan::cli {

namespace {

struct LintArgs {
    std::string file;
    bool json = false;
};

int run_lint(const LintArgs& args) {
    const io::LintReport report = io::lint_domain_file(args.file);
    if (args.json) {
        nlohmann::ordered_json out;
        out["file"] = report.file;
        out["readable"] = report.readable;
        nlohmann::ordered_json list = nlohmann::ordered_json::array();
        for (const io::LintFinding& f : report.findings) {
            nlohmann::ordered_json j;
            j["kind"] = std::string(io::to_string(f.kind));
            j["line"] = f.line;
            j["column"] = f.column;
            j["field"] = f.field;
            j["message"] = f.message;
            if (!f.suggestion.empty()) j["suggestion"] = f.suggestion;
            list.push_back(std::move(j));
        }
        out["findings"] = std::move(list);
        std::cout << out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    } else {
        for (const io::LintFinding& f : report.findings) std::cout << io::format_finding(report, f) << '\n';
        if (!report.readable) std::cout << report.file << ": cannot be read; fix the error above first\n";
        else if (report.findings.empty()) std::cout << report.file << ": no problems found\n";
        else
            std::cout << report.file << ": " << report.findings.size()
                      << (report.findings.size() == 1 ? " problem\n" : " problems\n");
    }
    if (!report.readable) return 2;
    return report.findings.empty() ? 0 : 1;
}

}  // namespace

void add_lint_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<LintArgs>();
    CLI::App* cmd = app.add_subcommand(
        "lint", "List every problem of a domain file at once: errors, typos, dead actions, unreachable goals "
                "(exit 0 clean, 1 problems, 2 unreadable)");
    cmd->add_option("domain", args->file, "Domain file, JSON or CSV ('-' = standard input)")->required();
    cmd->add_flag("--json", args->json, "One JSON object: {file, readable, findings: [{kind, line, column, field, message, suggestion}]}");
    cmd->callback([args, &exit_code] { exit_code = run_lint(*args); });
}

}  // namespace gameplan::cli
