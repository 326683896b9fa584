// Branch hints, spelled once for the whole library (c10 spells them C10_LIKELY / C10_UNLIKELY).
//
//   if (SY_UNLIKELY(stack->size() < kNumArgs)) throwStackTooSmall(...);
//
// Use them only where a path is known to be cold (errors, slow paths of a hot call); the compiler
// lays the cold side out of line.
#pragma once

#if defined(__GNUC__) || defined(__clang__)
#define SY_LIKELY(expr) (__builtin_expect(static_cast<bool>(expr), 1))
#define SY_UNLIKELY(expr) (__builtin_expect(static_cast<bool>(expr), 0))
#else
#define SY_LIKELY(expr) (expr)
#define SY_UNLIKELY(expr) (expr)
#endif
