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
// moving the whole Stack makes them owned, since it may outlive the call (see Note [Borrowed IValues]).
//
// Note [Deferred boxing]
// When an unboxed call reaches a boxed kernel (a backend fallback), the bridge does not box the
// arguments up front. It hands the kernel a Stack that *stands for* them: `size()` is the number
// of arguments, and the first thing that looks at a value (indexing, iterating, `data()`, `pop`,
// `back()`, pushing, copying or moving the Stack) boxes them all, exactly as they would have been
// boxed eagerly (borrowed, see Note [Borrowed IValues]). A fallback that inspects its arguments pays
// for boxing them then; one that passes them on untouched (a profiler, a mode that only sets
// thread-local state, any `op.redispatchBoxed(ks, stack)` that does not read the stack first) does
// not, and when the kernel it reaches is unboxed, that kernel's boxed wrapper takes the caller's
// arguments as they are (`deferredArgumentsOfType`) instead of unboxing IValues that were never
// made. Dropping all the arguments unread (`drop(stack, n)`, `clear()`) boxes nothing either.
// Boxing on first read can fail only as eager boxing would have (an allocation, an int list too
// long to borrow); the read then throws, as every read of them will. Because the first read,
// even through a const Stack, writes the boxed values, a fallback that hands its Stack to other
// threads to read at once must box it first (`data()`).
//
// The invariant that makes this safe: while arguments are deferred they are the Stack's only
// values, so any operation that could observe or change a value boxes them first, and a kernel
// may take them unboxed only when the Stack is untouched since the bridge made it. The arguments
// carry a tag for their exact C++ types, and a kernel takes them only when its parameters have
// the same tag, so it never reads them as other types; it then runs on exactly the values eager
// boxing and unboxing would have given it, whichever operator it belongs to. The Stack keeps
// standing for them while the kernel runs, so a fallback whose kernel throws can still read or
// retry its arguments. bench/README.md measures both kinds of fallback.
#pragma once

#include <cstddef>
#include <cstring>
#include <initializer_list>
#include <new>
#include <iterator>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "switchyard/ivalue/ivalue.h"
#include "switchyard/core/macros.h"

namespace sy {

inline constexpr size_t kInlineStackSize = 8;

// Note [Stack underflow is checked]
// A boxed kernel that pops more values than the Stack holds would otherwise read and destroy
// memory below the Stack's storage. pop, drop, peek, last, at, back and pop_back check the count
// first, always: one comparison against a size the kernel was about to compute anyway, with the
// error built out of line (bench/overhead.py shows no change). The dispatcher's own boxing code
// knows its counts and uses the unchecked forgetLast.
[[noreturn]] void throwStackUnderflow(const char* operation, size_t requested, size_t size);

// The arguments of an unboxed call that reached a boxed kernel, not yet boxed (see Note [Deferred
// boxing]). The bridge derives from this to hold the arguments themselves.
struct DeferredArguments {
  // Constructs the arguments, boxed, in the raw storage `slots` (one slot each). Should boxing one
  // of them throw, every slot is left holding None.
  void (*box)(const DeferredArguments& self, IValue* slots);
  // Identifies the arguments' exact C++ types: only a kernel whose parameters have the same tag
  // may take them unboxed.
  const void* type;
};

class Stack {
 public:
  using value_type = IValue;
  using iterator = IValue*;
  using const_iterator = const IValue*;

  Stack() noexcept
      : begin_(inlineSlots()), end_(begin_), capacity_end_(begin_ + kInlineStackSize), deferred_(nullptr) {}
  Stack(std::initializer_list<IValue> values) : Stack(values.begin(), values.end()) {}
  // From any range of values convertible to IValue, as torch::jit::Stack (a std::vector) can be.
  template <class InputIt, class = typename std::iterator_traits<InputIt>::iterator_category>
  Stack(InputIt first, InputIt last) : Stack() {
    for (; first != last; ++first) emplace_back(*first);
  }
  Stack(const std::vector<IValue>& values) : Stack(values.begin(), values.end()) {}  // NOLINT: a vector, as in PyTorch
  Stack(std::vector<IValue>&& values) : Stack() {                                    // NOLINT
    reserve(values.size());
    for (IValue& v : values) new (end_++) IValue(std::move(v));
  }
  Stack(const Stack& other) : Stack() {
    reserve(other.size());
    for (const IValue& v : other) new (end_++) IValue(v);
  }
  // Not noexcept: a Stack standing for deferred arguments boxes them when moved, since the moved-to
  // Stack may outlive the call they belong to.
  Stack(Stack&& other) : Stack() { takeFrom(other); }
  Stack& operator=(const Stack& other) {
    if (this != &other) {
      Stack copy(other);
      clear();
      releaseHeap();
      takeFrom(copy);
    }
    return *this;
  }
  Stack& operator=(Stack&& other) {
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

  // The number of values, deferred arguments included; the only accessor that does not box them.
  size_t size() const { return static_cast<size_t>(end_ - begin_); }
  bool empty() const { return end_ == begin_; }
  size_t capacity() const { return static_cast<size_t>(capacity_end_ - begin_); }
  IValue* data() { return boxed(); }
  const IValue* data() const { return boxed(); }
  iterator begin() { return boxed(); }
  iterator end() {
    boxDeferredArguments();
    return end_;
  }
  const_iterator begin() const { return boxed(); }
  const_iterator end() const {
    boxDeferredArguments();
    return end_;
  }
  IValue& operator[](size_t i) { return boxed()[i]; }
  const IValue& operator[](size_t i) const { return boxed()[i]; }
  // Bounds-checked, as std::vector's.
  IValue& at(size_t i) {
    if (SY_UNLIKELY(i >= size())) throwStackUnderflow("at", i + 1, size());
    return boxed()[i];
  }
  const IValue& at(size_t i) const {
    if (SY_UNLIKELY(i >= size())) throwStackUnderflow("at", i + 1, size());
    return boxed()[i];
  }
  IValue& front() { return at(0); }
  const IValue& front() const { return at(0); }
  IValue& back() {
    checkHolds("back", 1);
    return *(end() - 1);
  }
  const IValue& back() const {
    checkHolds("back", 1);
    return *(end() - 1);
  }
  // Raises unless the Stack holds at least n values (see Note [Stack underflow is checked]).
  void checkHolds(const char* operation, size_t n) const {
    if (SY_UNLIKELY(n > size())) throwStackUnderflow(operation, n, size());
  }

  template <class... Args>
  IValue& emplace_back(Args&&... args) {
    boxDeferredArguments();
    if (SY_UNLIKELY(end_ == capacity_end_)) grow(size() + 1);
    return *new (end_++) IValue(std::forward<Args>(args)...);
  }
  // For callers that know there is room (a fresh Stack holds kInlineStackSize values; a call that
  // popped its arguments has room for as many results).
  template <class... Args>
  IValue& emplaceBackWithinCapacity(Args&&... args) {
    boxDeferredArguments();
    return *new (end_++) IValue(std::forward<Args>(args)...);
  }
  void push_back(const IValue& v) { emplace_back(v); }
  void push_back(IValue&& v) { emplace_back(std::move(v)); }
  void pop_back() {
    checkHolds("pop_back", 1);
    IValue* last = end() - 1;
    last->~IValue();
    end_ = last;
  }
  // Destroys the last n values. Dropping every deferred argument boxes none of them.
  void truncateBy(size_t n) {
    checkHolds("drop", n);
    if (SY_UNLIKELY(deferred_ != nullptr) && dropDeferredArguments(n)) return;
    IValue* old_end = end_;
    end_ -= n;
    for (IValue* v = end_; v != old_end; ++v) v->~IValue();
  }
  // Forget the last n (or all) values without destroying them: for callers that destroyed them
  // already, or relocated them, or know that they hold nothing to release.
  void forgetLast(size_t n) {
    if (SY_UNLIKELY(deferred_ != nullptr) && dropDeferredArguments(n)) return;
    end_ -= n;
  }
  void forgetAll() {
    deferred_ = nullptr;
    end_ = begin_;
  }
  void clear() { truncateBy(size()); }
  void reserve(size_t n) {
    if (n > capacity()) grow(n);
  }
  void resize(size_t n) {
    if (n < size()) return truncateBy(size() - n);
    boxDeferredArguments();
    reserve(n);
    while (size() < n) new (end_++) IValue();
  }

  // See Note [Deferred boxing]. For the unboxed-to-boxed bridge: this empty Stack now stands for
  // `count` arguments, which `arguments->box` boxes when something first looks at them.
  // `arguments` must outlive the Stack's use.
  void deferArguments(const DeferredArguments* arguments, size_t count) {
    SY_CHECK(empty(), "Stack::deferArguments: the Stack already holds ", size(), " value(s)");
    reserve(count);
    deferred_ = arguments;
    end_ = begin_ + count;
  }
  // For a kernel that can take the arguments unboxed: the arguments when the Stack stands for
  // arguments of C++ types `type` and nothing has touched them, else null. The Stack still stands
  // for them: the kernel calls forgetAll() once it has run, so that if it throws they are there.
  const DeferredArguments* deferredArgumentsOfType(const void* type) const {
    const DeferredArguments* arguments = deferred_;
    return arguments != nullptr && arguments->type == type ? arguments : nullptr;
  }
  bool hasDeferredArguments() const { return deferred_ != nullptr; }
  // The values, for callers that know no arguments are deferred (the bridge, when the number of
  // values left differs from the number of arguments it deferred: deferred arguments are always
  // all the values there are).
  IValue* dataWithoutDeferredArguments() { return begin_; }
  iterator erase(iterator first, iterator last);
  iterator erase(iterator pos) { return erase(pos, pos + 1); }
  iterator insert(iterator pos, IValue value);
  // Inserts copies of [first, last) before pos, as std::vector's insert.
  template <class InputIt, class = typename std::iterator_traits<InputIt>::iterator_category>
  iterator insert(iterator pos, InputIt first, InputIt last) {
    const size_t index = static_cast<size_t>(pos - begin());
    Stack values(first, last);  // copied first: the range may be this Stack's own values
    for (size_t i = 0; i < values.size(); ++i) insert(begin() + index + i, std::move(values[i]));
    return begin() + index;
  }

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
  void takeFrom(Stack& other);

  // Boxes deferred arguments, if any, before a value is read or the Stack changes.
  void boxDeferredArguments() const {
    if (SY_UNLIKELY(deferred_ != nullptr)) boxDeferredArgumentsNow();
  }
  // Cleared after boxing, so the compiler knows the accessors that follow have nothing to box.
  // Should boxing throw, the arguments stay deferred (the slots hold Nones meanwhile): the next
  // read fails the same way, and dropping them drops them.
  void boxDeferredArgumentsNow() const {
    deferred_->box(*deferred_, begin_);
    deferred_ = nullptr;
  }
  // Removing the last n values while arguments are deferred: all of them are dropped unboxed
  // (returns true); fewer, and they are boxed first (returns false: the caller removes them).
  bool dropDeferredArguments(size_t n) {
    if (n == size()) {
      forgetAll();
      return true;
    }
    boxDeferredArgumentsNow();
    return false;
  }
  IValue* boxed() const {
    boxDeferredArguments();
    return begin_;
  }

  IValue* begin_;
  IValue* end_;
  IValue* capacity_end_;
  // See Note [Deferred boxing]: while set, the Stack's values are these arguments, not yet boxed.
  // Boxing them on a read through a const Stack changes how they are held, not what they are.
  mutable const DeferredArguments* deferred_;
  alignas(IValue) unsigned char inline_storage_[kInlineStackSize * sizeof(IValue)];
};

// These check the Stack holds what they take (see Note [Stack underflow is checked]).
inline IValue pop(Stack& stack) {
  stack.checkHolds("pop", 1);
  IValue v = std::move(stack.back());
  stack.pop_back();
  return v;
}
inline IValue pop(Stack* stack) { return pop(*stack); }
// The last n values, first pushed first, removed from the Stack.
std::vector<IValue> pop(Stack& stack, size_t n);
inline std::vector<IValue> pop(Stack* stack, size_t n) { return pop(*stack, n); }

inline void drop(Stack& stack, size_t n) { stack.truncateBy(n); }
inline void drop(Stack* stack, size_t n) { drop(*stack, n); }

// The i-th of the last n values.
inline IValue& peek(Stack& stack, size_t i, size_t n) {
  stack.checkHolds("peek", n);
  SY_CHECK(i < n, "peek(stack, ", i, ", ", n, "): the index must be less than the number of values looked at");
  return *(stack.end() - n + i);
}
inline IValue& peek(Stack* stack, size_t i, size_t n) { return peek(*stack, i, n); }

inline absl::Span<IValue> last(Stack& stack, size_t n) {
  stack.checkHolds("last", n);
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
