// Stack: the argument and result stack of boxed calls.
//
// A boxed kernel finds its arguments as the last N IValues, pops them and pushes its results.
// The helpers mirror torch::jit's (`pop`, `push`, `drop`, `peek`, `last`) so PyTorch fallbacks
// port unchanged; the container itself has std::vector's interface.
//
// Note [Stack storage]
// The first kInlineStackSize values live inside the Stack object, so boxing a call of a few
// arguments allocates nothing. The container is our own rather than absl::InlinedVector because
// the boxed call path performs a dozen stack operations per call: InlinedVector keeps "inline or
// allocated" in a tag that every access branches on, while this one keeps plain begin/end/capacity
// pointers that are valid either way. IValues are trivially relocatable (a tag and one word), so
// growing or moving a Stack is a memcpy. Relocating within a Stack keeps borrowed values borrowed;
// moving the whole Stack makes them owned, since it may outlive the call (Note [Borrowed IValues]).
#pragma once

#include <cstddef>
#include <cstring>
#include <initializer_list>
#include <new>
#include <utility>

#include "absl/types/span.h"
#include "switchyard/ivalue/ivalue.h"

namespace sy {

inline constexpr size_t kInlineStackSize = 8;

class Stack {
 public:
  using value_type = IValue;
  using iterator = IValue*;
  using const_iterator = const IValue*;

  Stack() noexcept : begin_(inlineSlots()), end_(begin_), capacity_end_(begin_ + kInlineStackSize) {}
  Stack(std::initializer_list<IValue> values) : Stack() {
    reserve(values.size());
    for (const IValue& v : values) new (end_++) IValue(v);
  }
  Stack(const Stack& other) : Stack() {
    reserve(other.size());
    for (const IValue& v : other) new (end_++) IValue(v);
  }
  Stack(Stack&& other) noexcept : Stack() { takeFrom(other); }
  Stack& operator=(const Stack& other) {
    if (this != &other) {
      Stack copy(other);
      clear();
      takeFrom(copy);
    }
    return *this;
  }
  Stack& operator=(Stack&& other) noexcept {
    if (this != &other) {
      clear();
      releaseHeap();
      takeFrom(other);
    }
    return *this;
  }
  ~Stack() {
    clear();
    releaseHeap();
  }

  size_t size() const { return static_cast<size_t>(end_ - begin_); }
  bool empty() const { return end_ == begin_; }
  size_t capacity() const { return static_cast<size_t>(capacity_end_ - begin_); }
  IValue* data() { return begin_; }
  const IValue* data() const { return begin_; }
  iterator begin() { return begin_; }
  iterator end() { return end_; }
  const_iterator begin() const { return begin_; }
  const_iterator end() const { return end_; }
  IValue& operator[](size_t i) { return begin_[i]; }
  const IValue& operator[](size_t i) const { return begin_[i]; }
  IValue& front() { return *begin_; }
  IValue& back() { return end_[-1]; }
  const IValue& back() const { return end_[-1]; }

  template <class... Args>
  IValue& emplace_back(Args&&... args) {
    if (__builtin_expect(end_ == capacity_end_, 0)) grow(size() + 1);
    return *new (end_++) IValue(std::forward<Args>(args)...);
  }
  // For callers that know there is room (a fresh Stack holds kInlineStackSize values; a call that
  // popped its arguments has room for as many results).
  template <class... Args>
  IValue& emplaceBackWithinCapacity(Args&&... args) {
    return *new (end_++) IValue(std::forward<Args>(args)...);
  }
  void push_back(const IValue& v) { emplace_back(v); }
  void push_back(IValue&& v) { emplace_back(std::move(v)); }
  void pop_back() { (--end_)->~IValue(); }
  // Destroys the last n values.
  void truncateBy(size_t n) {
    IValue* old_end = end_;
    end_ -= n;
    for (IValue* v = end_; v != old_end; ++v) v->~IValue();
  }
  // Forget the last n (or all) values without destroying them: for callers that destroyed them
  // already, or relocated them, or know that they hold nothing to release.
  void forgetLast(size_t n) { end_ -= n; }
  void forgetAll() { end_ = begin_; }
  void clear() { truncateBy(size()); }
  void reserve(size_t n) {
    if (n > capacity()) grow(n);
  }
  void resize(size_t n) {
    if (n < size()) return truncateBy(size() - n);
    reserve(n);
    while (size() < n) new (end_++) IValue();
  }
  iterator erase(iterator first, iterator last);
  iterator erase(iterator pos) { return erase(pos, pos + 1); }
  iterator insert(iterator pos, IValue value);

 private:
  IValue* inlineSlots() { return reinterpret_cast<IValue*>(inline_storage_); }
  bool onHeap() const { return begin_ != reinterpret_cast<const IValue*>(inline_storage_); }
  void grow(size_t min_capacity);
  void releaseHeap() {
    if (onHeap()) ::operator delete(begin_);
    begin_ = end_ = inlineSlots();
    capacity_end_ = begin_ + kInlineStackSize;
  }
  // Moves `other`'s values into this empty Stack, leaving `other` empty with inline storage.
  void takeFrom(Stack& other) noexcept;

  IValue* begin_;
  IValue* end_;
  IValue* capacity_end_;
  alignas(IValue) unsigned char inline_storage_[kInlineStackSize * sizeof(IValue)];
};

inline IValue pop(Stack& stack) {
  IValue v = std::move(stack.back());
  stack.pop_back();
  return v;
}
inline IValue pop(Stack* stack) { return pop(*stack); }

inline void drop(Stack& stack, size_t n) { stack.truncateBy(n); }
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
