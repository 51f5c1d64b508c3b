// The checks every JSON loader makes before reading fields (json_document.hpp: parse_checked_json).
#include "json_document.hpp"

#include <gameplan/io/load_error.hpp>

#include <algorithm>
#include <string>

namespace gameplan::io::detail {

namespace {

[[noreturn]] void fail_at(std::string_view text, const std::string& file, std::size_t offset, const JsonPath& path,
                          const std::string& message) {
    const TextPosition p = position_of(text, offset);
    throw LoadError(file, p.line, p.column, format_json_path(path), message);
}

}  // namespace

OrderedJson parse_checked_json(std::string_view text, const std::string& file, std::size_t max_depth) {
    if (const std::size_t deep = nesting_violation(text, max_depth); deep != std::string_view::npos)
        fail_at(text, file, deep, path_at(text, deep),
                "nested deeper than " + std::to_string(max_depth) + " levels of objects and arrays (the limit)");
    if (const std::size_t bad = invalid_utf8_offset(text); bad != std::string_view::npos) {
        static const char* hex = "0123456789ABCDEF";
        const auto u = static_cast<unsigned char>(text[bad]);
        fail_at(text, file, bad, path_at(text, bad), std::string("invalid UTF-8 (byte 0x") + hex[u >> 4] + hex[u & 15] + ")");
    }
    OrderedJson root;
    try {
        root = parse_ordered_json(text, max_depth);
    } catch (const JsonTooDeep&) {  // not reached: the nesting was checked above
        throw LoadError(file, 0, 0, "", "nested too deeply");
    } catch (const nlohmann::json::parse_error& e) {
        // nlohmann reports the last byte it read, i.e. the end of the offending token; the scanner stops
        // at the token's first byte, which is where a reader should look.
        const std::size_t last_read = e.byte > 0 ? std::min<std::size_t>(e.byte - 1, text.size()) : 0;
        const ScanStop where = scan_until(text, last_read + 1);
        std::string message = e.what();
        // "[json.exception.parse_error.101] parse error at line 1, column 9: syntax error ..." -> "syntax error ..."
        if (const std::size_t cut = message.find(": ", message.find("column")); cut != std::string::npos)
            message = message.substr(cut + 2);
        // The text ends early when the parser read to its end and wanted more (pointed at the end), or
        // when a string or literal runs into the end (a file cut off mid-token: pointed at that token's
        // start, where a reader should look).
        const bool at_end = last_read + 1 >= text.size();
        const bool cut = where.cut_token != std::string_view::npos;
        const bool wanted_more = at_end && message.find("end of input") != std::string::npos;
        if (wanted_more || (at_end && cut)) message = "truncated JSON: " + message;
        const std::size_t offset = wanted_more ? text.size() : cut ? where.cut_token : std::min(where.offset, last_read);
        fail_at(text, file, offset, where.path, printable(message, 200));
    } catch (const JsonNumberOverflow& e) {
        // Number out of range ("1e400"): nlohmann stops after it without saying where it starts.
        const std::size_t at = overflowing_number(text, e.end);
        fail_at(text, file, at, path_at(text, at), "number out of range");
    } catch (const nlohmann::json::exception& e) {
        throw LoadError(file, 0, 0, "", "invalid JSON: " + printable(e.what(), 200));
    }
    if (const DuplicateKey d = find_duplicate_key(text); d.found) fail_at(text, file, d.offset, d.path, "duplicate key");
    return root;
}

}  // namespace gameplan::io::detail
