#pragma once
/// Helpers shared by the `gameplan` subcommands: strict numeric options, the resource limits of a
/// search (--time-limit, --max-memory), escaping of names before they reach a terminal, and the
/// memory estimates behind the map-size checks.
#include <gameplan/search/search_context.hpp>

#include <CLI/CLI.hpp>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

namespace gameplan::cli {

/// Adds an integer option that accepts only decimal digits (an optional leading '+') whose value lies
/// in [min, max]. Anything else (a sign, a fraction, an overflow, an out-of-range value) is refused
/// with a message naming the option and the range; CLI11 turns it into exit code 2.
CLI::Option* add_integer_option(CLI::App* cmd, const std::string& name, std::uint64_t& target, std::uint64_t min,
                                std::uint64_t max, const std::string& description);
/// The same for a real number: finite (no nan/inf) and in [min, max]; `zero_ok` additionally accepts 0
/// when min > 0 (e.g. "--fps 0 = as fast as possible").
CLI::Option* add_real_option(CLI::App* cmd, const std::string& name, double& target, double min, double max,
                             const std::string& description, bool zero_ok = false);

/// `--preprocess-time-limit SECONDS` for commands that build a subgoal graph: 0 or a number in
/// (0, 86400], default `seconds`' value on entry.
void add_preprocess_time_option(CLI::App* cmd, double& seconds);

/// Refuses an empty value ("--goal: must not be empty") for every option of every subcommand that takes
/// one, except those named in `empty_ok`: `--goal ''` or `--png ''` from an unset script variable would
/// otherwise quietly mean "not given". Call once, after every command is registered.
void refuse_empty_values(CLI::App& app, std::initializer_list<std::string_view> empty_ok);

/// Short human form of a number for messages: up to 6 significant digits ("1e+308", "0.5", "64").
[[nodiscard]] std::string human_number(double value);

/// Bytes as a human string: "512 MB", "5.6 GB" (powers of 1024, labelled KB/MB/GB/TB).
[[nodiscard]] std::string human_bytes(double bytes);

/// `text` made safe for a terminal: control characters (C0, DEL, and the C1 range when encoded in
/// UTF-8) become \xNN escapes, and text longer than `max_bytes` is cut at a character boundary and
/// ends with "... (N bytes)". Valid UTF-8 letters are kept as they are.
[[nodiscard]] std::string printable(std::string_view text, std::size_t max_bytes = 200);

/// Resource limits of one command's searches: --time-limit SECONDS and --max-memory MB.
struct ResourceLimits {
    /// Wall-clock limit of the whole computation in seconds; 0 = none.
    double time_limit_s = 0;
    /// Memory budget in MiB for what the command builds while computing (search storage, preprocessing).
    std::uint64_t max_memory_mb = 0;

    /// The deadline time_limit_s after `start` (time_point::max() when there is no limit).
    [[nodiscard]] std::chrono::steady_clock::time_point deadline(std::chrono::steady_clock::time_point start) const;
    /// max_memory_mb in bytes.
    [[nodiscard]] std::size_t max_memory_bytes() const noexcept;
};

/// Default --max-memory of every command, in MiB: large enough for any shipped example and every
/// benchmark map, small enough that a runaway search stops well before a desktop runs out of memory.
inline constexpr std::uint64_t kDefaultMaxMemoryMb = 512;
/// Default --max-memory of `crowd`, in MiB: the library's default cap (CrowdOptions::max_memory_bytes,
/// 2 GiB), which holds the distance tables of 1,000 agents on the largest MAPF benchmark maps.
inline constexpr std::uint64_t kDefaultCrowdMemoryMb = 2048;
/// Default --time-limit of `plan`, in seconds (a game plans in microseconds; a search still running
/// after this long is exponential, and a larger limit only moves the wait).
inline constexpr double kDefaultPlanTimeLimitS = 5;

/// Registers --time-limit and --max-memory on `cmd`, with the given defaults (0 s = no time limit).
void add_limit_options(CLI::App* cmd, ResourceLimits& limits, double default_time_s, const std::string& what);
/// Registers --max-memory alone (commands whose work is linear in their input: no time limit to set).
void add_memory_option(CLI::App* cmd, ResourceLimits& limits, const std::string& what);

/// Which budget a search used up, for text output: "time limit of 5 s (--time-limit)", "memory budget of
/// 512 MiB (--max-memory)", or for the expansions "budget of N expansions (OPTION)", N and OPTION the
/// command's (`--max-nodes`, `--max-expansions`). "budget" for BudgetLimit::None.
std::string budget_text(search::BudgetLimit limit, const ResourceLimits& limits, std::uint64_t max_expansions,
                        const std::string& expansions_option);

/// Throws UsageError unless `bytes` (what building `what` would take) fits `limits`: the message names
/// what, the memory it needs and the --max-memory that would allow it.
void require_memory(const ResourceLimits& limits, double bytes, const std::string& what);

/// Flushes standard output and throws UsageError ("cannot write the output: ...") if any write to it
/// failed (a full disk, a closed pipe, a closed descriptor). Every command calls it last.
void finish_output();

/// `scen --time-limit`: true when a scenario's search was stopped by the run's own `deadline` (it is then
/// no result and is left out of the report, like the scenarios never started).
[[nodiscard]] bool cut_off(Status status, search::BudgetLimit limit, std::chrono::steady_clock::time_point deadline);
/// The text report's line for a `scen` run stopped by --time-limit after `completed` scenarios.
[[nodiscard]] std::string scen_stop_text(const ResourceLimits& limits, std::size_t completed);

}  // namespace gameplan::cli
