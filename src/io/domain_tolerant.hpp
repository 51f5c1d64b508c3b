#pragma once
// Private to the io module: a domain read tolerantly (every error collected, the valid parts kept) and
// where its parts were written, for lint and for reporting all errors of one file.
#include <gameplan/io/domain_json.hpp>
#include <gameplan/io/load_error.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace gameplan::io::detail {

/// A place in a domain file: 1-based line and column (0 = unknown) and the field.
struct Place {
    std::size_t line = 0;
    std::size_t column = 0;
    std::string field;
};

/// A domain read tolerantly.
struct TolerantDomain {
    bool readable = true;               ///< false: the text could not be read at all (then `errors` says why)
    DomainFile file;                    ///< the valid parts
    std::vector<LoadError> errors;      ///< every error, in file order
    std::vector<Place> action_place;    ///< by action id
    std::vector<Place> atom_place;      ///< by atom id: its first use
    Place goal_place;                   ///< the default goal
    std::vector<Place> goals_place;     ///< by named goal
    bool atoms_declared = false;        ///< an atom list ("atoms" / @atoms) was given
};

/// CSV: parse_domain_csv's rules, collecting row errors instead of stopping at the first.
TolerantDomain read_domain_csv_tolerant(std::string_view text, std::string_view file_name);
/// JSON: parse_domain_json's rules, collecting errors instead of stopping at the first.
TolerantDomain read_domain_json_tolerant(std::string_view text, std::string_view file_name);

}  // namespace gameplan::io::detail
