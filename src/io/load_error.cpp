#include <gameplan/io/load_error.hpp>

#include <utility>

namespace gameplan::io {
namespace {
std::string format(const std::string& file, std::size_t line, std::size_t column, const std::string& field,
                   const std::string& message) {
    std::string out = file.empty() ? std::string("<input>") : file;
    if (line > 0) {
        out += ':' + std::to_string(line);
        if (column > 0) out += ':' + std::to_string(column);
    }
    out += ": ";
    if (!field.empty()) out += field + ": ";
    out += message;
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
