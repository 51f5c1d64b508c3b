#pragma once
// Private to the path module: the f part of the open-list keys of the grid searches (GridPathfinder,
// JPS, JPS+).

#include "bit_cast.hpp"
#include <cstdint>

namespace gameplan::path::detail {

/// Bits of f >= 0 for an open-list key, rounded to 32 significant bits (a relative step of 2^-32).
/// Grid costs are sums of 1 and sqrt 2 (times terrain costs): two paths of equal exact cost, summed
/// in a different order, differ in the last bits of a double, and without the rounding the search
/// would expand every cell whose f falls an ulp below the goal's before the goal itself, on open maps
/// thousands of them. Rounded, such cells tie with the goal, and the tie-break (smallest h first)
/// takes the goal. Distinct exact costs of paths of up to 10^4 steps differ by far more than 2^-32
/// relative (a + b sqrt 2 is never that close to an integer for |b| <= 10^4), so the search stays
/// exact; with fractional penalties it is exact to that relative precision. Rounding to nearest is
/// monotone, so the order of distinct keys never inverts.
[[nodiscard]] inline std::uint64_t tie_f_bits(double f) noexcept {
    constexpr unsigned kDropped = 20;  // of the 52 fraction bits
    constexpr std::uint64_t kHalf = std::uint64_t{1} << (kDropped - 1);
    return (detail::bit_cast<std::uint64_t>(f) + kHalf) & ~((std::uint64_t{1} << kDropped) - 1);
}

}  // namespace gameplan::path::detail
