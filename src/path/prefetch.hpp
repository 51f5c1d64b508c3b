// A cache hint shared by the searches (internal to the library).
#pragma once

#include <cstddef>

namespace gameplan::path::detail {

/// Asks the cache for the line holding `p` (no effect without GCC's builtins).
inline void prefetch(const void* p) noexcept {
#if defined(__GNUC__)
    __builtin_prefetch(p);
#else
    (void)p;
#endif
}

/// Asks the cache for every line of the `bytes` bytes from `p` (nothing when `bytes` is 0).
inline void prefetch_range(const void* p, std::size_t bytes) noexcept {
    const char* const first = static_cast<const char*>(p);
    for (std::size_t b = 0; b < bytes; b += 64) prefetch(first + b);
    if (bytes > 0) prefetch(first + bytes - 1);  // the last line, when the range is not line-aligned
}

}  // namespace gameplan::path::detail
