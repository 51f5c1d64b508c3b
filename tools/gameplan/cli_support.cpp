#include "cli_support.hpp"

#include "commands.hpp"

#include <gameplan/search/search_context.hpp>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <limits>

namespace gameplan::cli {

namespace {

std::string range_text(std::uint64_t min, std::uint64_t max) {
    return "[" + std::to_string(min) + ", " + std::to_string(max) + "]";
}

}  // namespace

std::string human_number(double value) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", value);
    return buf;
}

std::string human_bytes(double bytes) {
    static const char* const units[] = {"bytes", "KB", "MB", "GB", "TB", "PB"};
    std::size_t u = 0;
    while (bytes >= 1024.0 && u + 1 < std::size(units)) bytes /= 1024.0, ++u;
    char buf[48];
    if (u == 0) std::snprintf(buf, sizeof buf, "%.0f %s", bytes, units[u]);
    else std::snprintf(buf, sizeof buf, bytes < 10 ? "%.1f %s" : "%.0f %s", bytes, units[u]);
    return buf;
}

CLI::Option* add_integer_option(CLI::App* cmd, const std::string& name, std::uint64_t& target, std::uint64_t min,
                                std::uint64_t max, const std::string& description) {
    CLI::Option* opt = cmd->add_option_function<std::string>(
        name,
        [&target, name, min, max](const std::string& text) {
            std::string_view digits = text;
            if (!digits.empty() && digits.front() == '+') digits.remove_prefix(1);
            std::uint64_t value = 0;
            const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
            const std::string shown = printable(text, 40);
            if (digits.empty() || ec == std::errc::invalid_argument || end != digits.data() + digits.size())
                throw CLI::ValidationError(name, "expected a whole number in " + range_text(min, max) + ", got '" + shown + "'");
            if (ec == std::errc::result_out_of_range || value < min || value > max)
                throw CLI::ValidationError(name, "must be in " + range_text(min, max) + ", got " + shown);
            target = value;
        },
        description);
    opt->type_name("UINT");
    return opt;
}

CLI::Option* add_real_option(CLI::App* cmd, const std::string& name, double& target, double min, double max,
                             const std::string& description, bool zero_ok) {
    CLI::Option* opt = cmd->add_option_function<std::string>(
        name,
        [&target, name, min, max, zero_ok](const std::string& text) {
            double value = 0;
            const char* first = text.data();
            const char* last = first + text.size();
            if (first != last && *first == '+') ++first;
            const auto [end, ec] = std::from_chars(first, last, value);
            const std::string range = (zero_ok ? "0 or a number in [" : "a number in [") + human_number(min) + ", " +
                                      human_number(max) + "]";
            const std::string shown = printable(text, 40);
            if (first == last || ec == std::errc::invalid_argument || end != last)
                throw CLI::ValidationError(name, "expected " + range + ", got '" + shown + "'");
            const bool ok = ec == std::errc() && std::isfinite(value) &&
                            ((value >= min && value <= max) || (zero_ok && value == 0));
            if (!ok) throw CLI::ValidationError(name, "must be " + range + ", got " + shown);
            target = value;
        },
        description);
    opt->type_name("NUMBER");
    return opt;
}

std::string printable(std::string_view text, std::size_t max_bytes) {
    std::string out;
    const std::size_t limit = std::min(text.size(), max_bytes);
    std::size_t cut = limit;
    // Never cut inside a UTF-8 sequence: back up to the start of the character.
    if (cut < text.size())
        while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0u) == 0x80u) --cut;
    out.reserve(cut + 16);
    char hex[8];
    for (std::size_t i = 0; i < cut; ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x20 || c == 0x7f) {
            std::snprintf(hex, sizeof hex, "\\x%02x", c);
            out += hex;
        } else if (c == 0xC2 && i + 1 < cut && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
                   static_cast<unsigned char>(text[i + 1]) <= 0x9F) {  // U+0080..U+009F: C1 controls
            std::snprintf(hex, sizeof hex, "\\x%02x", static_cast<unsigned char>(text[i + 1]));
            out += hex;
            ++i;
        } else {
            out += static_cast<char>(c);
        }
    }
    if (cut < text.size()) out += "... (" + std::to_string(text.size()) + " bytes)";
    return out;
}

std::chrono::steady_clock::time_point ResourceLimits::deadline(std::chrono::steady_clock::time_point start) const {
    return search::deadline_after(time_limit_s, start);
}

std::size_t ResourceLimits::max_memory_bytes() const noexcept {
    return static_cast<std::size_t>(max_memory_mb) * 1024 * 1024;
}

void add_limit_options(CLI::App* cmd, ResourceLimits& limits, double default_time_s, const std::string& what) {
    limits.time_limit_s = default_time_s;
    add_real_option(cmd, "--time-limit", limits.time_limit_s, 0.001, 86400.0,
                    "Stop " + what + " after this many seconds, with status budget_exhausted (0 = no limit; default " +
                        (default_time_s > 0 ? human_number(default_time_s) : std::string("none")) + ")",
                    true);
    add_memory_option(cmd, limits, what);
}

void add_memory_option(CLI::App* cmd, ResourceLimits& limits, const std::string& what) {
    limits.max_memory_mb = kDefaultMaxMemoryMb;
    add_integer_option(cmd, "--max-memory", limits.max_memory_mb, 1, std::uint64_t{1} << 30,
                       "Memory budget in MiB for " + what + " (default " + std::to_string(kDefaultMaxMemoryMb) + ")");
}

std::string budget_text(search::BudgetLimit limit, const ResourceLimits& limits, std::uint64_t max_expansions,
                        const std::string& expansions_option) {
    switch (limit) {
        case search::BudgetLimit::Expansions:
            return "budget of " + std::to_string(max_expansions) + (max_expansions == 1 ? " expansion (" : " expansions (") +
                   expansions_option + ")";
        case search::BudgetLimit::Time: return "time limit of " + human_number(limits.time_limit_s) + " s (--time-limit)";
        case search::BudgetLimit::Memory: return "memory budget of " + std::to_string(limits.max_memory_mb) + " MiB (--max-memory)";
        case search::BudgetLimit::None: break;
    }
    return "budget";
}

void refuse_empty_values(CLI::App& app, std::initializer_list<std::string_view> empty_ok) {
    const CLI::Validator non_empty(
        [](std::string& value) { return value.empty() ? std::string("must not be empty") : std::string(); }, "", "NONEMPTY");
    for (CLI::App* cmd : app.get_subcommands([](CLI::App*) { return true; }))
        for (CLI::Option* opt : cmd->get_options([](CLI::Option* o) { return o->get_type_size() != 0; }))
            if (std::find(empty_ok.begin(), empty_ok.end(), opt->get_single_name()) == empty_ok.end()) opt->check(non_empty);
}

void add_preprocess_time_option(CLI::App* cmd, double& seconds) {
    add_real_option(cmd, "--preprocess-time-limit", seconds, 0.001, 86400.0,
                    "Give up building --algorithm subgoal's graph (navmesh-ch's hierarchy) after this many seconds (exit 2; 0 = no limit; default " +
                        human_number(seconds) + ")",
                    true);
}

void require_memory(const ResourceLimits& limits, double bytes, const std::string& what) {
    if (bytes <= static_cast<double>(limits.max_memory_bytes())) return;
    const double mb = std::ceil(bytes / (1024.0 * 1024.0));
    throw UsageError(what + " needs about " + human_bytes(bytes) + ", more than --max-memory " +
                     std::to_string(limits.max_memory_mb) + " (MiB) allows; raise it to at least " +
                     std::to_string(static_cast<std::uint64_t>(mb)) + " to try");
}

void finish_output() {
    std::cout.flush();
    if (std::cout) {
        // The stream reached the descriptor; a full disk shows up only when the kernel is asked.
        if (std::fflush(stdout) == 0 && !std::ferror(stdout)) return;
    }
    const int err = errno;
    std::cout.clear();
    throw UsageError(std::string("cannot write the output to standard output") +
                     (err != 0 ? std::string(": ") + std::strerror(err) : std::string()));
}

bool cut_off(Status status, search::BudgetLimit limit, std::chrono::steady_clock::time_point deadline) {
    return status == Status::BudgetExhausted && limit == search::BudgetLimit::Time &&
           std::chrono::steady_clock::now() >= deadline;
}

std::string scen_stop_text(const ResourceLimits& limits, std::size_t completed) {
    return "stopped: time limit of " + human_number(limits.time_limit_s) + " s (--time-limit) after " +
           std::to_string(completed) + (completed == 1 ? " scenario" : " scenarios") + "; the figures below cover those";
}

}  // namespace gameplan::cli
