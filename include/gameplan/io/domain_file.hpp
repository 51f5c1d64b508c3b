#pragma once
/// @file domain_file.hpp
/// Loading a GOAP domain in either format (JSON or CSV), from a file or from standard input.
///
/// The format is chosen by the file name's extension (`.csv` -> CSV, `.json` -> JSON); for any other
/// name, and for standard input (the name `-`), by the content: text whose first non-blank character
/// (after an optional UTF-8 byte order mark) is `{` is JSON, anything else CSV.
///
/// Reading is bounded: more than `max_bytes` is a LoadError, never unbounded memory.
/// Thread-safety: reentrant, except that reading standard input consumes it.

#include <gameplan/io/domain_json.hpp>
#include <gameplan/io/limits.hpp>

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

namespace gameplan::io {

/// The two domain file formats.
enum class DomainFormat : unsigned char { Json, Csv };

/// Default bound on a domain file read by `read_text_input`: the JSON limit (16 MiB, io/limits.hpp);
/// `load_domain` uses its `limits.max_bytes`.
inline constexpr std::size_t kMaxDomainBytes = static_cast<std::size_t>(kDefaultMaxJsonBytes);

/// "json" / "csv".
[[nodiscard]] std::string_view to_string(DomainFormat format) noexcept;

/// The format of `path` by its extension, or by `text` when the extension says nothing (see overview).
[[nodiscard]] DomainFormat domain_format_of(const std::filesystem::path& path, std::string_view text);

/// Reads the whole file `path`, or standard input when `path` is `-`, in binary.
/// @throws LoadError naming the file ("<stdin>" for `-`) if it cannot be opened, is a directory, cannot
/// be read, is a device, socket or directory (pipes are read up to the limit), or holds more than
/// `max_bytes` bytes.
[[nodiscard]] std::string read_text_input(const std::filesystem::path& path, std::size_t max_bytes = kMaxDomainBytes);

/// The name errors use for `path`: "<stdin>" for `-`, otherwise the path as given.
[[nodiscard]] std::string input_name(const std::filesystem::path& path);

/// Parses `text` as a domain in `format`. @throws LoadError.
/// `limits` bound JSON input (nesting, costs, tables); CSV has its own fixed limits (docs/limits.md).
[[nodiscard]] DomainFile parse_domain(std::string_view text, DomainFormat format, std::string_view file_name = "<input>",
                                      const JsonLimits& limits = {});

/// Reads and parses a domain file in either format (or standard input for `-`). @throws LoadError.
[[nodiscard]] DomainFile load_domain(const std::filesystem::path& path, const JsonLimits& limits = {});

}  // namespace gameplan::io
