// GenericDict: the dictionary an IValue holds, for schema types such as `Dict(str, Tensor)`.
// Entries keep their insertion order and are found by key in constant time, as in PyTorch's
// c10::Dict (whose typed front end, c10::Dict<K, V>, is in compat/dict.h).
//
//   sy::GenericDict d;
//   d.insert("weight", w);
//   d.insert("bias", b);
//   sy::IValue boxed(d);                                   // the IValue keeps its own copy
//   const sy::Tensor& bias = boxed.toGenericDict().at("bias").toTensor();
//   for (const auto& e : boxed.toGenericDict()) std::cout << e.key() << ": " << e.value() << "\n";
//
// Keys are str, int, bool, float or Tensor, as PyTorch allows; a tensor key is matched by identity
// (the same TensorImpl), the other keys by value, and an int key never matches a float one. Any
// other key raises. Two dicts are equal when they map the same keys to equal values, whatever
// their order (as Python's dicts).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "switchyard/ivalue/intrusive_ptr.h"
#include "switchyard/ivalue/ivalue.h"

namespace sy {

class GenericDict {
 public:
  class Entry {
   public:
    Entry(IValue key, IValue value) : key_(std::move(key)), value_(std::move(value)) {}
    const IValue& key() const { return key_; }
    const IValue& value() const { return value_; }

   private:
    friend class GenericDict;
    IValue key_;
    IValue value_;
  };
  using const_iterator = std::vector<Entry>::const_iterator;
  using iterator = const_iterator;

  GenericDict() = default;

  size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }
  const_iterator begin() const { return entries_.begin(); }
  const_iterator end() const { return entries_.end(); }
  // The entry at insertion position `i` (i < size()).
  const Entry& entry(size_t i) const { return entries_.at(i); }

  // The insertion position of `key`'s entry, or nullopt.
  std::optional<size_t> indexOf(const IValue& key) const;
  const_iterator find(const IValue& key) const;
  bool contains(const IValue& key) const { return indexOf(key).has_value(); }
  // The value of `key`; raises an index error naming the key when there is none.
  const IValue& at(const IValue& key) const;

  // Adds the entry unless `key` is present. Returns the position of `key`'s entry and whether it
  // was added. A key of a type a dict cannot hold raises a type error.
  std::pair<size_t, bool> insert(IValue key, IValue value);
  // Adds the entry, or replaces the value of `key`'s entry where it stands.
  std::pair<size_t, bool> insert_or_assign(IValue key, IValue value);
  // Replaces the value of the entry at position `i`.
  void setValue(size_t i, IValue value) { entries_.at(i).value_ = std::move(value); }
  // Removes `key`'s entry (the others keep their order); returns how many were removed (0 or 1).
  size_t erase(const IValue& key);
  void clear();
  void reserve(size_t n);

  // True for the types a key may have: str, int, bool, float and Tensor.
  static bool isValidKey(const IValue& key);

  friend bool operator==(const GenericDict& a, const GenericDict& b);
  friend bool operator!=(const GenericDict& a, const GenericDict& b) { return !(a == b); }

 private:
  struct KeyHash {
    size_t operator()(const IValue& key) const;
  };
  struct KeyEqual {
    bool operator()(const IValue& a, const IValue& b) const { return a == b; }
  };
  std::vector<Entry> entries_;
  std::unordered_map<IValue, size_t, KeyHash, KeyEqual> positions_;
};

// What an IValue of Tag::GenericDict points to. See Note [Generic lists and tuples are nested at
// most 1000 deep] for `depth`.
struct DictImpl final : IntrusiveTarget {
  DictImpl(GenericDict d, uint32_t dep) : dict(std::move(d)), depth(dep) {}
  const GenericDict dict;
  const uint32_t depth;
};

template <>
struct IValueTo<GenericDict> {
  static GenericDict get(const IValue& v) { return v.toGenericDict(); }
};

}  // namespace sy
