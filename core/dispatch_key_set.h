// DispatchKeySet: a set of runtime dispatch keys in one 64-bit mask (bit i = DispatchKey i).
//
// The highest set bit is the key a call goes to (see Note [Dispatch key order]). Bit 0 stands for
// Undefined and is never stored: `highestPriorityTypeId` ORs it in, so an empty set resolves to
// Undefined without a branch, and the dispatch table's slot 0 holds the "nothing to dispatch on"
// entry.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <initializer_list>
#include <string>

#include "switchyard/core/dispatch_key.h"

namespace sy {

class DispatchKeySet {
 public:
  enum Raw : uint64_t {};
  enum Full : uint8_t { FULL };
  enum FullAfter : uint8_t { FULL_AFTER };

  constexpr DispatchKeySet() = default;
  constexpr DispatchKeySet(Raw, uint64_t bits) : bits_(bits) {}
  // Every runtime key.
  constexpr explicit DispatchKeySet(Full)
      : bits_(((uint64_t{1} << kNumRuntimeKeys) - 1) & ~uint64_t{1}) {}
  // Every runtime key dispatched after `k` (of lower priority), `k` itself excluded: what a kernel
  // for `k` may redispatch to, `ks & DispatchKeySet(DispatchKeySet::FULL_AFTER, k)`.
  constexpr DispatchKeySet(FullAfter, DispatchKey k)
      : bits_(((uint64_t{1} << (isRuntimeKey(k) ? static_cast<int>(k) : kNumRuntimeKeys)) - 1) & ~uint64_t{1}) {}
  constexpr DispatchKeySet(DispatchKey k)  // NOLINT: implicit, as in PyTorch
      : bits_(k == DispatchKey::Undefined ? 0 : uint64_t{1} << static_cast<uint8_t>(k)) {}
  constexpr DispatchKeySet(std::initializer_list<DispatchKey> keys) {
    for (DispatchKey k : keys) bits_ |= DispatchKeySet(k).bits_;
  }

  constexpr bool has(DispatchKey k) const { return (bits_ & DispatchKeySet(k).bits_) != 0; }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr uint64_t raw_repr() const { return bits_; }

  constexpr DispatchKeySet add(DispatchKey k) const { return DispatchKeySet(RAW, bits_ | DispatchKeySet(k).bits_); }
  constexpr DispatchKeySet remove(DispatchKey k) const { return DispatchKeySet(RAW, bits_ & ~DispatchKeySet(k).bits_); }

  constexpr DispatchKeySet operator|(DispatchKeySet o) const { return DispatchKeySet(RAW, bits_ | o.bits_); }
  constexpr DispatchKeySet operator&(DispatchKeySet o) const { return DispatchKeySet(RAW, bits_ & o.bits_); }
  constexpr DispatchKeySet operator-(DispatchKeySet o) const { return DispatchKeySet(RAW, bits_ & ~o.bits_); }
  constexpr DispatchKeySet operator^(DispatchKeySet o) const { return DispatchKeySet(RAW, bits_ ^ o.bits_); }
  constexpr bool operator==(DispatchKeySet o) const { return bits_ == o.bits_; }
  constexpr bool operator!=(DispatchKeySet o) const { return bits_ != o.bits_; }

  // The key a call on this set goes to; Undefined for the empty set.
  DispatchKey highestPriorityTypeId() const { return static_cast<DispatchKey>(63 ^ __builtin_clzll(bits_ | 1)); }
  // The same, as a table index: the position of the highest set bit, one BSR instruction. (Written
  // with the builtin, GCC adds a sign or zero extension after the BSR that the index does not need.)
  uint64_t highestPriorityIndex() const {
#if defined(__x86_64__)
    uint64_t index;
    __asm__("bsrq %1, %0" : "=r"(index) : "r"(bits_ | 1));
    return index;
#else
    return static_cast<uint64_t>(63 ^ __builtin_clzll(bits_ | 1));
#endif
  }
  // The backend keys in this set only.
  constexpr DispatchKeySet backends() const { return *this & backendMask(); }

  static constexpr DispatchKeySet backendMask() {
    return DispatchKeySet(RAW, ((uint64_t{1} << (static_cast<int>(kLastBackendKey) + 1)) - 1) & ~uint64_t{1});
  }

  // "DispatchKeySet(CPU, Tracer)"
  std::string toString() const;

  // Iterates keys from lowest to highest priority: `for (DispatchKey k : ks)`.
  class iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = DispatchKey;
    using difference_type = std::ptrdiff_t;
    using pointer = const DispatchKey*;
    using reference = DispatchKey;

    constexpr explicit iterator(uint64_t remaining = 0) : remaining_(remaining) {}
    DispatchKey operator*() const { return static_cast<DispatchKey>(__builtin_ctzll(remaining_)); }
    iterator& operator++() {
      remaining_ &= remaining_ - 1;
      return *this;
    }
    iterator operator++(int) {
      iterator before = *this;
      ++*this;
      return before;
    }
    friend constexpr bool operator==(iterator a, iterator b) { return a.remaining_ == b.remaining_; }
    friend constexpr bool operator!=(iterator a, iterator b) { return a.remaining_ != b.remaining_; }

   private:
    uint64_t remaining_;  // the keys not yet visited
  };
  iterator begin() const { return iterator(bits_); }
  iterator end() const { return iterator(0); }

  // Calls fn on each key from lowest to highest.
  template <class F>
  void forEach(F&& fn) const {
    for (uint64_t b = bits_; b != 0; b &= b - 1) fn(static_cast<DispatchKey>(__builtin_ctzll(b)));
  }

 private:
  static constexpr Raw RAW{};
  uint64_t bits_ = 0;
};

std::ostream& operator<<(std::ostream& os, DispatchKeySet ks);

// Every autograd key (see Note [Autograd keys sit between backends and functionality]).
inline constexpr DispatchKeySet kAutogradKeys{DispatchKey::AutogradCPU, DispatchKey::AutogradAccel,
                                              DispatchKey::AutogradPrivateUse1, DispatchKey::AutogradPrivateUse2,
                                              DispatchKey::AutogradPrivateUse3};

// The keys a new tensor on `type` carries: its backend key and, on CPU, PartialKernels, so that
// libraries of partial kernels see CPU calls first (see Note [Partial kernels decline for one key check]).
constexpr DispatchKeySet tensorKeySetFor(DeviceType type) {
  DispatchKeySet ks(backendKeyFor(type));
  return type == DeviceType::CPU ? ks.add(DispatchKey::PartialKernels) : ks;
}

}  // namespace sy
