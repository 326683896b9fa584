// Branch and inlining hints, spelled once for the whole library (c10 spells them C10_LIKELY /
// C10_UNLIKELY / C10_ALWAYS_INLINE).
//
//   if (SY_UNLIKELY(stack->size() < kNumArgs)) throwStackTooSmall(...);
//   SY_ALWAYS_INLINE inline void checkInput(const char* op, const Tensor& self) { ... }
//
// Use the branch hints only where a path is known to be cold (errors, slow paths of a hot call);
// the compiler lays the cold side out of line. Use SY_ALWAYS_INLINE only for a few-instruction
// check on a kernel's entry, whose call would cost more than its body.
#pragma once

#if defined(__GNUC__) || defined(__clang__)
#define SY_LIKELY(expr) (__builtin_expect(static_cast<bool>(expr), 1))
#define SY_UNLIKELY(expr) (__builtin_expect(static_cast<bool>(expr), 0))
#define SY_ALWAYS_INLINE __attribute__((always_inline))
#else
#define SY_LIKELY(expr) (expr)
#define SY_UNLIKELY(expr) (expr)
#define SY_ALWAYS_INLINE
#endif
