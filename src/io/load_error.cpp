#include <gameplan/io/load_error.hpp>

#include <utility>

namespace gameplan::io {
namespace {

// Longest part (file, field, message) of what(), in bytes; longer parts are cut with "...".
constexpr std::size_t kMaxPartBytes = 1000;

// A terminal-safe copy of a message part: C0 controls and DEL are escaped as \xNN, C1 controls
// (U+0080..U+009F, encoded C2 80..C2 9F) too, and the part is cut after kMaxPartBytes (on a UTF-8
// character boundary). Loaders escape names themselves; this is the last line of defence.
std::string safe(const std::string& s) {
    static const char* hex = "0123456789abcdef";
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (out.size() >= kMaxPartBytes) {
            while (!out.empty() && (static_cast<unsigned char>(out.back()) & 0xC0) == 0x80) out.pop_back();
            if (!out.empty() && static_cast<unsigned char>(out.back()) >= 0xC0) out.pop_back();
            out += "...";
            break;
        }
        const auto u = static_cast<unsigned char>(s[i]);
        const bool c1 = u == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) >= 0x80 &&
                        static_cast<unsigned char>(s[i + 1]) < 0xA0;
        if (u < 0x20 || u == 0x7f || c1) {
            const unsigned char v = c1 ? static_cast<unsigned char>(s[++i]) : u;
            out += "\\x";
            out += hex[v >> 4];
            out += hex[v & 15];
        } else {
            out += static_cast<char>(u);
        }
    }
    return out;
}

std::string format(const std::string& file, std::size_t line, std::size_t column, const std::string& field,
                   const std::string& message) {
    std::string out = file.empty() ? std::string("<input>") : safe(file);
    if (line > 0) {
        out += ':' + std::to_string(line);
        if (column > 0) out += ':' + std::to_string(column);
    }
    out += ": ";
    if (!field.empty()) out += safe(field) + ": ";
    out += safe(message);
    return out;
}
}  // namespace

LoadError::LoadError(std::string file, std::size_t line, std::size_t column, std::string field, std::string message)
    : std::runtime_error(format(file, line, column, field, message)),
      m_file(std::move(file)),
      m_line(line),
      m_column(column),
      m_field(std::move(field)),
      m_message(std::move(message)) {}
}  // namespace gameplan::io
