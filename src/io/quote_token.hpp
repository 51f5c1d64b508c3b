// Internal to gameplan_io: a possibly long or binary token made safe inside an error message.
#pragma once

#include <string>
#include <string_view>

namespace gameplan::io::detail {

/// `s` in single quotes, cut after 40 bytes ("..."), bytes outside printable ASCII as \xNN.
inline std::string quote_token(std::string_view s) {
    std::string out = "'";
    for (char c : s.substr(0, 40)) {
        const auto u = static_cast<unsigned char>(c);
        if (u >= 0x20 && u < 0x7f) {
            out += c;
        } else {
            static constexpr char kHex[] = "0123456789abcdef";
            out += "\\x";
            out += kHex[u >> 4];
            out += kHex[u & 15];
        }
    }
    if (s.size() > 40) out += "...";
    return out + "'";
}

}  // namespace gameplan::io::detail
