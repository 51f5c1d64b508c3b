#pragma once
// Graphviz DOT text helpers of the `dot` command and `plan --trace`.
#include <string>
#include <string_view>

namespace gameplan::cli {

/// `text` as a DOT double-quoted string: `"` and `\` escaped, line breaks as `\n`, control bytes dropped.
inline std::string dot_quote(std::string_view text) {
    std::string out = "\"";
    for (const char c : text) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (c == '\n') {
            out += "\\n";
        } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
            continue;
        } else {
            out += c;
        }
    }
    return out + "\"";
}

}  // namespace gameplan::cli
