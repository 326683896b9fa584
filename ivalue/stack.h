// Stack: the argument and result stack of boxed calls.
//
// A boxed kernel finds its arguments as the last N IValues, pops them and pushes its results.
// Small arities live inline (no heap allocation for calls of up to 8 values); the helpers mirror
// torch::jit's (`pop`, `push`, `drop`, `peek`, `last`) so PyTorch fallbacks port unchanged.
#pragma once

#include <cstddef>
#include <utility>

#include "absl/container/inlined_vector.h"
#include "absl/types/span.h"
#include "switchyard/ivalue/ivalue.h"

namespace sy {

inline constexpr size_t kInlineStackSize = 8;
using Stack = absl::InlinedVector<IValue, kInlineStackSize>;

inline IValue pop(Stack& stack) {
  IValue v = std::move(stack.back());
  stack.pop_back();
  return v;
}
inline IValue pop(Stack* stack) { return pop(*stack); }

inline void drop(Stack& stack, size_t n) { stack.erase(stack.end() - n, stack.end()); }
inline void drop(Stack* stack, size_t n) { drop(*stack, n); }

// The i-th of the last n values.
inline IValue& peek(Stack& stack, size_t i, size_t n) { return *(stack.end() - n + i); }
inline IValue& peek(Stack* stack, size_t i, size_t n) { return peek(*stack, i, n); }

inline absl::Span<IValue> last(Stack& stack, size_t n) {
  return absl::Span<IValue>(stack.data() + stack.size() - n, n);
}
inline absl::Span<IValue> last(Stack* stack, size_t n) { return last(*stack, n); }

template <class... Values>
void push(Stack& stack, Values&&... values) {
  (stack.emplace_back(std::forward<Values>(values)), ...);
}
template <class... Values>
void push(Stack* stack, Values&&... values) {
  push(*stack, std::forward<Values>(values)...);
}

}  // namespace sy
