// A cache hint shared by the searches (internal to the library).
#pragma once

namespace gameplan::path::detail {

/// Asks the cache for the line holding `p` (no effect without GCC's builtins).
inline void prefetch(const void* p) noexcept {
#if defined(__GNUC__)
    __builtin_prefetch(p);
#else
    (void)p;
#endif
}

}  // namespace gameplan::path::detail
