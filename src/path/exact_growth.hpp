// Growing a search's arrays to exactly the size its memory budget counted, and the budget test itself
// (internal).
//
// A search that honours `search::Budget::max_memory_bytes` counts the bytes an array will add before it
// allocates them. `std::vector::resize` from a smaller non-empty size may take more than asked (it can
// double), so the arrays are grown with an exact `reserve` first; `growth_bytes` is what that adds.
#pragma once

#include <cstddef>
#include <vector>

namespace gameplan::path::detail {

/// True when holding `more` bytes on top of `held` would pass a memory budget of `limit` bytes (written so
/// that neither the sum nor the difference can wrap).
[[nodiscard]] constexpr bool passes_budget(std::size_t held, std::size_t more, std::size_t limit) noexcept {
    return held > limit || more > limit - held;
}

/// Bytes growing an array with room for `have` elements of `element` bytes to room for `need` adds.
[[nodiscard]] constexpr std::size_t growth_bytes(std::size_t have, std::size_t need, std::size_t element) noexcept {
    return need > have ? (need - have) * element : 0;
}

/// Bytes growing `v` to room for `n` elements with an exact reserve adds (0 if it has the room).
template <class T>
[[nodiscard]] std::size_t growth_bytes(const std::vector<T>& v, std::size_t n) noexcept {
    return growth_bytes(v.capacity(), n, sizeof(T));
}

/// Grows `v` to `n` elements (new ones `value`), allocating exactly `n` when it must grow.
template <class T>
void grow_exactly(std::vector<T>& v, std::size_t n, const T& value = T{}) {
    if (v.size() >= n) return;
    v.reserve(n);
    v.resize(n, value);
}

}  // namespace gameplan::path::detail
