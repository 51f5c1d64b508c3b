#pragma once
/// Checks of the loaders' errors (io::LoadError): catching the error a parse throws, and comparing the
/// position it reports with the position of a piece of the text, counted here independently.
#include <gameplan/io/load_error.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

#include <gtest/gtest.h>

namespace gameplan::test {

/// The LoadError that `parse()` throws; a test failure (and an empty error) when it throws none.
template <class Parse>
io::LoadError load_error_of(Parse&& parse, std::string_view text_for_failure = {}) {
    try {
        parse();
    } catch (const io::LoadError& e) {
        return e;
    }
    ADD_FAILURE() << "no error for:\n" << text_for_failure;
    return io::LoadError("", 0, 0, "", "");
}

/// what() of the LoadError that `parse()` throws, or "no error".
template <class Parse>
std::string load_error_text(Parse&& parse) {
    try {
        parse();
    } catch (const io::LoadError& e) {
        return e.what();
    }
    return "no error";
}

/// 1-based line and column of the nth (from 0) occurrence of `needle` in `text` (ASCII text before it).
inline std::pair<std::size_t, std::size_t> line_column_of(std::string_view text, std::string_view needle, std::size_t nth = 0) {
    std::size_t at = text.find(needle);
    for (std::size_t i = 0; i < nth; ++i) at = text.find(needle, at + 1);
    EXPECT_NE(at, std::string_view::npos) << needle;
    std::size_t line = 1, line_start = 0;
    for (std::size_t i = 0; i < at; ++i)
        if (text[i] == '\n') {
            ++line;
            line_start = i + 1;
        }
    return {line, at - line_start + 1};
}

/// Expects `e` to name the JSON path `field`, to say `message_part` and, unless `at` is empty, to point
/// at the nth occurrence of `at` in `text`.
inline void expect_load_error(const io::LoadError& e, std::string_view text, std::string_view field,
                              std::string_view message_part, std::string_view at, std::size_t nth = 0) {
    EXPECT_EQ(e.field(), field) << e.what();
    EXPECT_NE(e.message().find(message_part), std::string::npos) << e.what();
    if (!at.empty()) {
        const auto [line, column] = line_column_of(text, at, nth);
        EXPECT_EQ(e.line(), line) << e.what();
        EXPECT_EQ(e.column(), column) << e.what();
    }
}

}  // namespace gameplan::test
