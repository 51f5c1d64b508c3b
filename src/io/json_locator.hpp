#pragma once
// Private helper of the JSON loaders: maps JSON paths to positions in the source text.
//
// nlohmann-json validates and builds values but keeps no positions. Positions are needed only when
// something is wrong (and to cut an inline sub-document out of a file), so this tolerant scanner
// re-reads the text on demand. It never trusts its input (it also runs on text that failed to parse),
// is iterative (no recursion depth to exhaust), and stops cleanly at anything it does not understand.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace gameplan::io::detail {

/// One step of a JSON path: an object key or an array index.
struct JsonPathElem {
    bool is_index = false;
    std::size_t index = 0;
    std::string key;
};
using JsonPath = std::vector<JsonPathElem>;

/// `p / "key"` and `p / 3` extend a path.
JsonPath operator/(JsonPath path, std::string key);
JsonPath operator/(JsonPath path, std::size_t index);

/// Printable form: `agents[2].goals[0]`, `types.enemy.actions["two words"]`.
std::string format_json_path(const JsonPath& path);

/// Longest name (in characters) quoted in a message; longer names end in "...".
inline constexpr std::size_t kMaxQuotedChars = 80;

/// A message-safe copy of `s`: control characters (C0, DEL, C1), quotes, backslashes and bytes that
/// are not UTF-8 escaped as \xNN, valid UTF-8 kept; cut after `max_chars` characters with "...".
std::string printable(std::string_view s, std::size_t max_chars = kMaxQuotedChars);

/// 1-based line and column of byte `offset`; columns count characters (UTF-8 lead bytes).
struct TextPosition {
    std::size_t line = 1;
    std::size_t column = 1;
};
TextPosition position_of(std::string_view text, std::size_t offset);

/// Offset of the first byte that is not well-formed UTF-8, or npos.
std::size_t invalid_utf8_offset(std::string_view text);

/// Where a path is in the text. `key` is the offset of the member's key (objects) and npos for array
/// elements and the root; `begin`/`end` delimit the value (end = npos if the value never closes).
struct JsonLocation {
    bool found = false;
    std::size_t key = std::string_view::npos;
    std::size_t begin = std::string_view::npos;
    std::size_t end = std::string_view::npos;
};
JsonLocation locate(std::string_view text, const JsonPath& path);

/// Where an error about the field at `path` of a well-formed document points: the key (or, for array
/// elements and the root, the value) of the deepest prefix of `path` that exists in `text`, else 0.
std::size_t field_error_offset(std::string_view text, const JsonPath& path);

/// For each of `paths`, the offset where it is in the text (as `locate`: its key, or its value for array
/// elements and the root), or else that of its deepest prefix in the text, or npos if none: for many
/// look-ups, in one scan of the text (each `locate` scans from the start).
std::vector<std::size_t> locate_all(std::string_view text, const std::vector<JsonPath>& paths);

/// position_of for many offsets in one pass over the text; npos gives line 0, column 0.
std::vector<TextPosition> positions_of(std::string_view text, const std::vector<std::size_t>& offsets);

/// The path being read at byte `offset` (for syntax errors reported at an offset).
JsonPath path_at(std::string_view text, std::size_t offset);

/// Where a tolerant read of the text up to byte `stop` ends: the path being read there, the offset of
/// the first byte it did not understand (or `stop`), and the start of a string or literal that `stop`
/// cuts off (npos if none) — for a syntax error, the token a reader should look at.
struct ScanStop {
    JsonPath path;
    std::size_t offset = 0;
    std::size_t cut_token = std::string_view::npos;
};
ScanStop scan_until(std::string_view text, std::size_t stop);

/// Start of the number token that ends at (or just before) byte `end`.
std::size_t number_start(std::string_view text, std::size_t end);

/// Offset of the first number token (outside strings) too large for a double; if there is none, the
/// start of the number ending at `parser_end` (where the JSON parser stopped), or npos without one.
/// For a text the parser refused, so it is well-formed up to that number.
std::size_t overflowing_number(std::string_view text, std::size_t parser_end = std::string_view::npos);

/// First duplicate object key, if any: its path and the key's offset.
struct DuplicateKey {
    bool found = false;
    JsonPath path;
    std::size_t offset = 0;
};
DuplicateKey find_duplicate_key(std::string_view text);

}  // namespace gameplan::io::detail
