#pragma once
/// @file load_error.hpp
/// The one exception type thrown by gameplan's text loaders (domains, maps, scenarios).
///
/// Loaders are the only library code that throws: a malformed file is the caller's input, not a
/// programming error, and the message must lead a designer straight to the mistake. Every error names
/// the file, the 1-based line and column (0 when not applicable, e.g. a missing file) and the field
/// (a JSON path such as `actions[3].cost`, or a format field such as `height`).

#include <cstddef>
#include <stdexcept>
#include <string>

namespace gameplan::io {

/// A load failure with its location. `what()` reads `file:line:column: field: message`
/// (parts that are unknown are left out). what() is safe to print on a terminal: control characters
/// are escaped as `\xNN` and each part is cut after 1000 bytes with "..."; the accessors return the
/// parts as given.
class LoadError : public std::runtime_error {
public:
    LoadError(std::string file, std::size_t line, std::size_t column, std::string field, std::string message);

    [[nodiscard]] const std::string& file() const noexcept { return m_file; }
    [[nodiscard]] std::size_t line() const noexcept { return m_line; }
    [[nodiscard]] std::size_t column() const noexcept { return m_column; }
    [[nodiscard]] const std::string& field() const noexcept { return m_field; }
    [[nodiscard]] const std::string& message() const noexcept { return m_message; }

private:
    std::string m_file;
    std::size_t m_line;
    std::size_t m_column;
    std::string m_field;
    std::string m_message;
};

}  // namespace gameplan::io
