#pragma once
// Floating-point text conversions of the io module: std::to_chars / std::from_chars where the standard
// library has them for double (__cpp_lib_to_chars), else equivalents built on snprintf / strtod. Some
// C++20 standard libraries still in use lack them (libc++ before 17, as shipped with emscripten 3.1.6);
// the fallbacks read the same numbers, and write the same digits (the C locale is assumed).
#include <cerrno>
#include <cmath>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <system_error>

namespace gameplan::io::detail {

/// The shortest text that reads back to the same double (std::to_chars without a format).
[[nodiscard]] inline std::string shortest_text(double v) {
    char buf[64];
#if defined(__cpp_lib_to_chars)
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
#else
    for (int precision = 1; precision <= 17; ++precision) {
        std::snprintf(buf, sizeof buf, "%.*g", precision, v);
        if (std::strtod(buf, nullptr) == v) break;
    }
    return buf;  // as to_chars, except that %g may pick the exponent form where a fixed one is as short
#endif
}

/// A number in a message, as printf's %g writes it: a limit such as 1e9 as "1e+09".
[[nodiscard]] inline std::string number_text(double v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%g", v);
    return buffer;
}

/// std::from_chars(first, last, value) in the general format: no leading whitespace or '+', no hex.
inline std::from_chars_result parse_double(const char* first, const char* last, double& value) {
#if defined(__cpp_lib_to_chars)
    return std::from_chars(first, last, value);
#else
    const std::string text(first, last);
    const char* s = text.c_str();
    const char* digits = s + (*s == '-' ? 1 : 0);
    if (*s == '\0' || *digits == '+' || *digits == '-' || *digits == ' ' || *digits == '\t' || *digits == '\n' ||
        *digits == '\r' || *digits == '\f' || *digits == '\v')
        return {first, std::errc::invalid_argument};
    if (digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {  // from_chars reads the 0 and stops
        value = *s == '-' ? -0.0 : 0.0;
        return {first + (digits - s) + 1, std::errc()};
    }
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(s, &end);
    if (end == s) return {first, std::errc::invalid_argument};
    const char* stop = first + (end - s);
    // strtod may report ERANGE for a subnormal result too, which from_chars reads: only overflow and a
    // result that underflowed to zero are out of range.
    if (errno == ERANGE && (v == 0.0 || v == HUGE_VAL || v == -HUGE_VAL)) return {stop, std::errc::result_out_of_range};
    value = v;
    return {stop, std::errc()};
#endif
}

}  // namespace gameplan::io::detail
