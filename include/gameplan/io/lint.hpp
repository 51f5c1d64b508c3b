#pragma once
/// @file lint.hpp
/// Every problem of a GOAP domain file at once (JSON or CSV), for designers.
///
/// Overview
/// --------
/// `lint_domain_text` reads a domain tolerantly (errors are collected, the valid parts kept) and then
/// checks what the loader accepts but is likely a mistake:
///
/// | kind | what |
/// |---|---|
/// | `error` | what the loader rejects: a bad value, an unknown atom when atoms are listed, a duplicate name |
/// | `unknown_field` | a JSON key or CSV column the format does not know (with "did you mean") |
/// | `likely_typo` | an atom only read (or only set) whose name is a small edit away from another atom's |
/// | `never_set` | an atom a precondition or goal needs, that no action sets and the start does not give |
/// | `never_applies` | an action whose preconditions can never all hold from the start (relaxed reachability) |
/// | `no_effect` | an action without effects, or an effect the action's own precondition already demands |
/// | `duplicate_action` | two actions with the same preconditions, effects and cost |
/// | `unreachable_goal` | a goal no plan reaches (with the root causes of goap/explain.hpp), or whose items interfere |
///
/// Findings are in file order where they have a place, each with line, column (0 when unknown) and
/// field. A text that cannot be read at all (CSV or JSON syntax, encoding, a missing header) gives
/// `readable = false` and the reason as its one finding.
///
/// Complexity: linear in the file plus O(atoms^2 * name length) for the typo check and one relaxed
/// analysis per goal; goals whose items are all relaxed-reachable are planned with a budget of
/// `LintOptions::plan_budget` expansions and `plan_memory_bytes` of search storage. Thread-safety:
/// reentrant.

#include <gameplan/io/domain_file.hpp>
#include <gameplan/io/load_error.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace gameplan::io {

/// What a finding is about. See the table in the file overview.
enum class LintKind : unsigned char {
    Error,
    UnknownField,
    LikelyTypo,
    NeverSet,
    NeverApplies,
    NoEffect,
    DuplicateAction,
    UnreachableGoal,
};

/// Stable snake_case name of a kind ("likely_typo", ...).
[[nodiscard]] std::string_view to_string(LintKind kind) noexcept;

/// One problem.
struct LintFinding {
    LintKind kind = LintKind::Error;
    std::size_t line = 0;     ///< 1-based; 0 when unknown
    std::size_t column = 0;   ///< 1-based characters; 0 when unknown
    std::string field;        ///< JSON path or CSV column header; may be empty
    std::string message;      ///< for people
    std::string suggestion;   ///< "did you mean" name, if any
};

/// Options of a lint run.
struct LintOptions {
    /// Expansion budget of the planning check of a goal whose items are all relaxed-reachable
    /// (a budget that runs out is not a finding).
    std::uint64_t plan_budget = 200'000;
    /// Memory budget of that check's search (`search::Budget::max_memory_bytes`): 512 MiB, the CLI's
    /// default `--max-memory`. A domain with thousands of actions can generate that much within the
    /// expansion budget; running out is not a finding either.
    std::size_t plan_memory_bytes = std::size_t{512} << 20;
};

/// The findings of one file.
struct LintReport {
    std::string file;                   ///< the name used in messages
    bool readable = true;               ///< false: the text could not be read at all
    std::vector<LintFinding> findings;  ///< every problem found
};

/// Lints a domain given as text in `format`; `file_name` is used in messages.
[[nodiscard]] LintReport lint_domain_text(std::string_view text, DomainFormat format, std::string_view file_name,
                                          const LintOptions& options = {});

/// Reads `path` (or standard input for `-`) and lints it; the format as in `load_domain`. A file that
/// cannot be read gives `readable = false`.
[[nodiscard]] LintReport lint_domain_file(const std::filesystem::path& path, const LintOptions& options = {});

/// Every load error of a domain text, in file order (what the loader would reject, not the warnings);
/// empty when the text loads. Used to report all errors of a file after the first stopped loading.
[[nodiscard]] std::vector<LoadError> domain_load_errors(std::string_view text, DomainFormat format, std::string_view file_name);

/// `file:line:column: field: kind: message` for people.
[[nodiscard]] std::string format_finding(const LintReport& report, const LintFinding& finding);

}  // namespace gameplan::io
