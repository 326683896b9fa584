#include "switchyard/ivalue/stack.h"

#include <algorithm>

namespace sy {

// IValues are relocated with memcpy (see Note [Stack storage]); these helpers keep the casts in one place.
static void relocate(IValue* destination, IValue* source, size_t count) {
  if (count > 0) std::memcpy(static_cast<void*>(destination), static_cast<void*>(source), count * sizeof(IValue));
}

void throwStackUnderflow(const char* operation, size_t requested, size_t size) {
  SY_ERROR_KIND(Index, "Stack::", operation, " needs ", requested, " value(s) but the stack holds ", size,
           ": a boxed kernel took more values than it was given (check the operator's number of arguments)");
}

std::vector<IValue> pop(Stack& stack, size_t n) {
  stack.checkHolds("pop", n);
  std::vector<IValue> values;
  values.reserve(n);
  IValue* first = stack.data() + stack.size() - n;
  for (size_t i = 0; i < n; ++i) values.push_back(std::move(first[i]));
  stack.truncateBy(n);
  return values;
}

void Stack::grow(size_t min_capacity) {
  boxDeferredArguments();  // relocate values, not the bytes of slots that were never written
  const size_t new_capacity = std::max(min_capacity, 2 * capacity());
  auto* fresh = static_cast<IValue*>(::operator new(new_capacity * sizeof(IValue)));
  const size_t count = size();
  relocate(fresh, begin_, count);
  if (onHeap()) ::operator delete(begin_);
  begin_ = fresh;
  end_ = fresh + count;
  capacity_end_ = fresh + new_capacity;
}

void Stack::takeFrom(Stack& other) {
  other.boxDeferredArguments();  // the moved-to Stack may outlive the call that deferred them
  if (other.onHeap()) {
    begin_ = other.begin_;
    end_ = other.end_;
    capacity_end_ = other.capacity_end_;
  } else {
    relocate(begin_, other.begin_, other.size());
    end_ = begin_ + other.size();
  }
  other.begin_ = other.end_ = other.inlineSlots();
  other.capacity_end_ = other.begin_ + kInlineStackSize;
  // The moved-to Stack may outlive the call its borrowed values came from (see Note [Borrowed IValues]).
  for (IValue& v : *this) v.makeOwned();
}

Stack::iterator Stack::erase(iterator first, iterator last) {
  const size_t count = static_cast<size_t>(last - first);
  for (IValue* v = first; v != last; ++v) v->~IValue();
  // The ranges overlap when fewer values are erased than follow them: memmove, not relocate.
  std::memmove(static_cast<void*>(first), static_cast<void*>(last), (end_ - last) * sizeof(IValue));
  end_ -= count;
  return first;
}

Stack::iterator Stack::insert(iterator pos, IValue value) {
  const size_t index = static_cast<size_t>(pos - begin_);
  if (end_ == capacity_end_) grow(size() + 1);
  pos = begin_ + index;
  std::memmove(static_cast<void*>(pos + 1), static_cast<void*>(pos), (end_ - pos) * sizeof(IValue));
  ++end_;
  new (pos) IValue(std::move(value));
  return pos;
}

}  // namespace sy
