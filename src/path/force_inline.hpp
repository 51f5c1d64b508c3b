#pragma once
// GAMEPLAN_FORCE_INLINE: asks GCC and Clang to inline a hot function or lambda into its callers even
// where their size heuristics would not (a search's relaxation or successor step, called many times per
// expansion); nothing elsewhere. On a function definition, write it before `inline`; on a lambda, after
// its parameter list.
#if defined(__GNUC__) || defined(__clang__)
#define GAMEPLAN_FORCE_INLINE __attribute__((always_inline))
#else
#define GAMEPLAN_FORCE_INLINE
#endif
