#pragma once
// detail::bit_cast: std::bit_cast where the standard library has it, else the same reinterpretation
// through memcpy (which compilers turn into a register move). Some C++20 standard libraries still in
// use lack std::bit_cast (libc++ before 14, as shipped with emscripten 3.1.6).
#include <cstring>
#include <type_traits>
#if __has_include(<bit>)
#include <bit>
#endif

namespace gameplan::path::detail {

template <class To, class From>
[[nodiscard]] inline To bit_cast(const From& from) noexcept {
    static_assert(sizeof(To) == sizeof(From) && std::is_trivially_copyable_v<To> && std::is_trivially_copyable_v<From>,
                  "bit_cast needs trivially copyable types of one size");
#if defined(__cpp_lib_bit_cast)
    return std::bit_cast<To>(from);
#else
    To to;
    std::memcpy(&to, &from, sizeof(To));
    return to;
#endif
}

}  // namespace gameplan::path::detail
