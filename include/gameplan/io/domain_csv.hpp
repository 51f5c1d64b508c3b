#pragma once
/// @file domain_csv.hpp
/// GOAP domains as spreadsheets: an RFC 4180 CSV reader and writer, the cell item syntax, and the
/// domain format of docs/formats.md ("GOAP domain CSV").
///
/// Overview
/// --------
/// ```
/// name,cost,preconditions,effects,notes
/// @atoms,,,hungry; has_food; at_home         optional: when present every atom used must be listed
/// @variable:coins,,,0..10                    an integer variable (MIN..MAX) or an enumeration (a|b|c)
/// @shared,,,door_open                        optional: world-owned atoms and variables
/// @start,,,hungry; coins=3                   the start state (atoms not listed are false)
/// @goal,,!hungry,                            the default goal
/// @goal:eat,2,!hungry,                       a named goal; its cost cell is its priority
/// eat,5,has_food,!hungry; !has_food          one action per row
/// ```
/// The header names the columns `name`, `cost`, `preconditions` and `effects` in any order (matched
/// without regard to case or surrounding spaces). A column whose header starts with `_` or is `notes`
/// is ignored; any other column is an error. A condition or effect cell lists items separated by `;`
/// (spaces around items are ignored, empty items are skipped): `atom` means true, `!atom` false.
/// Rows whose cells are all empty are skipped. Names are trimmed of surrounding spaces.
///
/// Numeric items (`var>=3`, `var==2`, `var!=forest` in conditions; `var=10`, `var+=2`, `var-=1` in
/// effects) name variables declared in `@variable:NAME` rows, with the semantics of domain_json.hpp.
/// Optional columns `when` (a named goal's condition) and `retry` (back-off of an action or a named
/// goal: `on` or `after_failures=N; cooldown_ticks=T`) complete goals; a named goal's priority cell may
/// read a variable, `SCALE*VARIABLE+OFFSET`. See docs/formats.md, "GOAP domain CSV".
///
/// Errors throw `io::LoadError` naming the file, the line and the character column of the offending
/// text, and the column header, e.g.
/// `actions.csv:7:10: preconditions: unknown atom 'sees_playr' (did you mean 'sees_player'?)`.
/// The column counts characters (UTF-8 code points) from 1 at the start of the physical line, quotes
/// and commas as written. It points at the first character of the offending item inside a condition,
/// effect or retry cell (at its value when the value is wrong), otherwise at the cell's first character
/// (its opening quote if it is quoted); a missing cell is pointed at where the row ends.
///
/// Atoms are interned in the order of `@atoms`, then in order of first use in file order; the writer
/// always emits `@atoms`, so JSON -> CSV -> JSON keeps atom ids, and a round trip is the identity on
/// the domain (atoms, shared flags, actions with costs and literals, start, goal, named goals).
///
/// Thread-safety: the functions are reentrant. Loading allocates freely (it is not a per-frame path).

#include <gameplan/io/domain_json.hpp>

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace gameplan::io {

/// Bounds on CSV input; exceeding one is a LoadError naming the line (never unbounded memory).
struct CsvLimits {
    std::size_t max_bytes = std::size_t{64} << 20;       ///< whole text, bytes
    std::size_t max_record_bytes = std::size_t{1} << 20; ///< one record (row, embedded newlines included)
    std::size_t max_cells = 4096;                        ///< cells in one record
    std::size_t max_records = 1'000'000;                 ///< records in the text
};

/// One CSV record: its cells (unquoted), the 1-based line on which it starts, and where each cell is
/// written in the text.
struct CsvRecord {
    std::size_t line = 0;            ///< physical line of the record's first character
    std::vector<std::string> cells;  ///< cell texts, quotes removed, doubled quotes undone
    std::vector<std::size_t> offsets;  ///< by cell: byte offset in the text of its first character as written
                                       ///< (the opening quote of a quoted cell)
};

/// Splits RFC 4180 text into records: fields separated by `,`, records by CRLF or LF (a lone CR too);
/// a field in double quotes may hold commas, line breaks and doubled quotes (`""` = `"`). An optional
/// UTF-8 byte order mark is skipped; a final line break does not start an empty record. Errors
/// (a quote inside an unquoted field, text after a closing quote, an unterminated quote, a limit)
/// throw LoadError with the line and column. O(size of text).
[[nodiscard]] std::vector<CsvRecord> parse_csv(std::string_view text, std::string_view file_name = "<input>",
                                               const CsvLimits& limits = {});

/// `cell` as one CSV field: unchanged if it needs no quotes, otherwise in double quotes with inner
/// quotes doubled (needed for `,`, `"`, CR, LF, and leading/trailing spaces).
[[nodiscard]] std::string csv_field(std::string_view cell);

/// What an item of a condition or effect cell says.
enum class CsvItemKind : unsigned char {
    Atom,        ///< `atom` (value true) or `!atom` (value false)
    Comparison,  ///< `var OP value` with OP one of `==`, `!=`, `<`, `<=`, `>`, `>=` (conditions)
    Assignment,  ///< `var OP value` with OP one of `=`, `+=`, `-=` (effects)
};

/// One item of a cell, parsed but not yet resolved against a domain. Comparison and Assignment items
/// resolve against the variables declared in `@variable:` rows.
struct CsvItem {
    CsvItemKind kind = CsvItemKind::Atom;
    std::string name;      ///< the atom or variable name (trimmed, never empty)
    bool value = true;     ///< Atom: the required or assigned value
    std::string op;        ///< Comparison / Assignment: the operator as written
    std::string operand;   ///< Comparison / Assignment: the right-hand side, trimmed, never empty
    std::string text;      ///< the item as written (trimmed), for messages
    std::size_t offset = 0;          ///< byte offset of `text` in the cell
    std::size_t name_offset = 0;     ///< byte offset of `name` in the cell
    std::size_t op_offset = 0;       ///< Comparison / Assignment: byte offset of `op` in the cell
    std::size_t operand_offset = 0;  ///< Comparison / Assignment: byte offset of `operand` in the cell
};

/// Parses the `;`-separated items of one cell into `out` (appended). Returns an empty string on
/// success, otherwise a message about the first malformed item (e.g. `item '!' has no atom name`) and,
/// if `error_offset` is given, the byte offset in `cell` of the character the message is about.
/// Whether an item suits a condition or an effect is left to the caller.
[[nodiscard]] std::string parse_csv_items(std::string_view cell, std::vector<CsvItem>& out,
                                          std::size_t* error_offset = nullptr);

/// Parses a domain from CSV `text`; `file_name` is used in error messages only.
/// @throws LoadError on any CSV, header, cell or domain error (see the file overview).
[[nodiscard]] DomainFile parse_domain_csv(std::string_view text, std::string_view file_name = "<input>");

/// Reads and parses the CSV domain file `path` (at most CsvLimits::max_bytes).
/// @throws LoadError if the file cannot be read or is not a valid domain.
[[nodiscard]] DomainFile load_domain_csv(const std::filesystem::path& path);

/// The domain as CSV text (header `name,cost,preconditions,effects`; rows `@atoms`, `@shared` if any,
/// `@start`, `@goal` if any, `@goal:NAME` per named goal, then one row per action). Costs are written
/// in the shortest form that reads back to the same double.
/// @throws std::invalid_argument if a name cannot be written in the cell syntax (an atom name that is
/// empty, has surrounding spaces or contains `;`, `!`, `=`, `<`, `>`; an action name starting with `@`
/// or with surrounding spaces).
/// Variables are written as `@variable:` rows, and the optional columns `when` and `retry` when a goal
/// or an action uses them. A variable or enumeration value name the cell syntax cannot hold (also `|`,
/// `*`, `..`, a leading `+`, a trailing `+` or `-`, a name that reads as a number) throws too.
[[nodiscard]] std::string write_domain_csv(const DomainFile& file);

/// The domain as JSON text in the format of domain_json.hpp (with an explicit "atoms" list, so atom
/// ids are kept), one action per line. Reading it back gives the same domain.
/// Variables, numeric conditions and effects, back-off, goals' `when` and variable priorities included.
[[nodiscard]] std::string write_domain_json(const DomainFile& file);

/// Edit distance (Levenshtein, with adjacent transpositions counting one) between two byte strings.
/// O(|a| * |b|) time, O(|b|) memory.
[[nodiscard]] std::size_t edit_distance(std::string_view a, std::string_view b);

/// The candidate most like `name` when it is close enough to be a likely typo (distance at most 2 and
/// at most half of `name`'s length, or differing only in case), else an empty string. Ties go to the
/// first candidate.
[[nodiscard]] std::string closest_name(std::string_view name, const std::vector<std::string>& candidates);

}  // namespace gameplan::io
