#pragma once
// Private helper of the domain loaders (JSON, CSV, and lint's tolerant readers of both): the budget of
// a domain's dense atom tables, checked before any of them is built.

#include <gameplan/io/limits.hpp>

#include <cstdint>
#include <string>

namespace gameplan::io::detail {

/// Bytes of the dense atom tables of a domain: two conditions (care and value bits over every atom) per
/// action and one per goal, (32 x actions + 16 x goals + 8) x ceil(atoms / 64).
inline long double domain_table_bytes(std::uint64_t atoms, std::uint64_t actions, std::uint64_t goals) noexcept {
    const std::uint64_t words = (atoms + 63) / 64;
    return static_cast<long double>(words) *
           (32.0L * static_cast<long double>(actions) + 16.0L * static_cast<long double>(goals) + 8.0L);
}

/// The message for tables that would need more than `limit` bytes (`limit_name` says which limit), or
/// an empty string when they fit.
inline std::string table_budget_error(std::uint64_t atoms, std::uint64_t actions, std::uint64_t goals, std::uint64_t limit,
                                      const char* limit_name) {
    const long double need = domain_table_bytes(atoms, actions, goals);
    if (!(need > static_cast<long double>(limit))) return {};
    return "the domain's atom tables would need about " + format_bytes(static_cast<std::uint64_t>(need)) + " (" +
           std::to_string(actions) + " actions x " + std::to_string(atoms) + " atoms); the limit is " + format_bytes(limit) +
           " (" + limit_name + ")";
}

}  // namespace gameplan::io::detail
