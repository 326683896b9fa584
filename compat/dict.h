// c10::Dict<K, V>: PyTorch's typed dictionary, an operator argument or result of schema type
// `Dict(K, V)`. Entries keep their insertion order.
//
//   at::Tensor scaled(c10::Dict<std::string, at::Tensor> weights, double factor) {...}
//   TORCH_LIBRARY(my_ops, m) { m.def("scaled", &scaled); }  // "scaled(Dict(str, Tensor) _0, float _1) -> Tensor"
//
//   c10::Dict<std::string, at::Tensor> weights;
//   weights.insert("w", at::ones({2}));
//   for (const auto& entry : weights) std::cout << entry.key() << " " << entry.value() << "\n";
//
// Keys are std::string, int64_t, bool, double or at::Tensor, as PyTorch allows. Included by
// <switchyard/compat/torch.h>.
//
// Note [A Dict is shared by its copies, an IValue's dict is a value]
// As in PyTorch, a c10::Dict is a reference to its entries: a copy shares them, so an insert through
// one copy is seen through every other, and copy() makes an independent dict. Unlike PyTorch,
// boxing a Dict copies its entries into the IValue (as c10::List does), and unboxing copies them
// out: an IValue's dict never changes once made, which is what keeps its nesting depth bounded
// (See Note [Generic lists and tuples are nested at most 1000 deep]) and rules out a dict that
// contains itself. So a kernel that inserts into a Dict it was given changes its own copy, never
// the caller's; return the Dict instead.
#pragma once

#include <cstddef>
#include <iterator>
#include <memory>
#include <optional>
#include <utility>

#include "switchyard/dispatcher/boxing.h"
#include "switchyard/dispatcher/infer_schema.h"
#include "switchyard/ivalue/generic_dict.h"

namespace c10 {

template <class Key, class Value>
class Dict {
 public:
  using key_type = Key;
  using mapped_type = Value;

  // One entry seen through the typed dict: key() and value() convert the stored IValues.
  class EntryRef {
   public:
    Key key() const { return entry().key().template to<Key>(); }
    Value value() const { return entry().value().template to<Value>(); }
    void setValue(Value value) const { dict_->setValue(index_, sy::IValue(std::move(value))); }

   private:
    friend class Dict;
    friend class iterator;
    const sy::GenericDict::Entry& entry() const { return dict_->entry(index_); }
    sy::GenericDict* dict_ = nullptr;
    size_t index_ = 0;
  };

  // Yields EntryRefs in insertion order. Inserting or erasing invalidates iterators, as in PyTorch.
  class iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = EntryRef;
    using difference_type = std::ptrdiff_t;
    using pointer = const EntryRef*;
    using reference = const EntryRef&;

    const EntryRef& operator*() const { return ref_; }
    const EntryRef* operator->() const { return &ref_; }
    iterator& operator++() {
      ++ref_.index_;
      return *this;
    }
    iterator operator++(int) {
      iterator before = *this;
      ++ref_.index_;
      return before;
    }
    friend bool operator==(const iterator& a, const iterator& b) { return a.equals(b); }
    friend bool operator!=(const iterator& a, const iterator& b) { return !a.equals(b); }

   private:
    friend class Dict;
    bool equals(const iterator& other) const { return ref_.dict_ == other.ref_.dict_ && ref_.index_ == other.ref_.index_; }
    iterator(sy::GenericDict* dict, size_t index) {
      ref_.dict_ = dict;
      ref_.index_ = index;
    }
    EntryRef ref_;
  };
  using const_iterator = iterator;

  Dict() : entries_(std::make_shared<sy::GenericDict>()) {}
  // The entries of an unboxed dict; each is checked to hold a Key and a Value.
  explicit Dict(sy::GenericDict entries) : entries_(std::make_shared<sy::GenericDict>(std::move(entries))) {
    for (const auto& entry : *entries_) {
      (void)entry.key().template to<Key>();
      (void)entry.value().template to<Value>();
    }
  }

  size_t size() const { return entries_->size(); }
  bool empty() const { return entries_->empty(); }
  iterator begin() const { return iterator(entries_.get(), 0); }
  iterator end() const { return iterator(entries_.get(), entries_->size()); }

  iterator find(const Key& key) const {
    const std::optional<size_t> i = entries_->indexOf(sy::IValue(key));
    return iterator(entries_.get(), i ? *i : entries_->size());
  }
  bool contains(const Key& key) const { return entries_->contains(sy::IValue(key)); }
  // Raises c10::Error (an index error naming the key) when `key` is absent.
  Value at(const Key& key) const { return entries_->at(sy::IValue(key)).template to<Value>(); }

  // Adds the entry unless the key is present; returns where the key's entry is and whether it
  // was added.
  template <class K, class V>
  std::pair<iterator, bool> insert(K&& key, V&& value) const {
    auto [index, added] = entries_->insert(sy::IValue(Key(std::forward<K>(key))), sy::IValue(Value(std::forward<V>(value))));
    return {iterator(entries_.get(), index), added};
  }
  template <class K, class V>
  std::pair<iterator, bool> insert_or_assign(K&& key, V&& value) const {
    auto [index, added] =
        entries_->insert_or_assign(sy::IValue(Key(std::forward<K>(key))), sy::IValue(Value(std::forward<V>(value))));
    return {iterator(entries_.get(), index), added};
  }
  // Removes the key's entry; returns how many were removed (0 or 1).
  size_t erase(const Key& key) const { return entries_->erase(sy::IValue(key)); }
  void erase(iterator it) const {
    SY_CHECK(it.ref_.dict_ == entries_.get() && it.ref_.index_ < entries_->size(),
             "c10::Dict::erase: the iterator is not one of this dict's entries");
    entries_->erase(sy::IValue(entries_->entry(it.ref_.index_).key()));
  }
  void clear() const { entries_->clear(); }
  void reserve(size_t n) const { entries_->reserve(n); }

  // An independent dict with the same entries (a plain copy shares them).
  Dict copy() const {
    Dict independent;
    *independent.entries_ = *entries_;
    return independent;
  }
  // Whether both share the same entries, and how many Dicts do.
  bool is(const Dict& other) const { return entries_ == other.entries_; }
  size_t use_count() const { return static_cast<size_t>(entries_.use_count()); }

  // Boxes a copy of the entries (See Note [A Dict is shared by its copies, an IValue's dict is a value]).
  operator sy::IValue() const { return sy::IValue(*entries_); }  // NOLINT: boxes implicitly, as in PyTorch

  friend bool operator==(const Dict& a, const Dict& b) { return *a.entries_ == *b.entries_; }
  friend bool operator!=(const Dict& a, const Dict& b) { return !(a == b); }

 private:
  std::shared_ptr<sy::GenericDict> entries_;
};

namespace impl {
// The untyped dict, as an IValue holds it (toGenericDict()): IValue keys and values.
using GenericDict = sy::GenericDict;
}  // namespace impl

}  // namespace c10

namespace sy {
// IValue::to<c10::Dict<K, V>>(): a new Dict with a copy of the entries.
template <class Key, class Value>
struct IValueTo<c10::Dict<Key, Value>> {
  static c10::Dict<Key, Value> get(const IValue& v) { return c10::Dict<Key, Value>(v.toGenericDict()); }
};

namespace detail {
// c10::Dict<K, V> as a kernel parameter or result, of schema type Dict(K, V).
template <class Key, class Value>
struct SchemaTypeOf<c10::Dict<Key, Value>> {
  static TypePtr get() { return Type::dict(SchemaTypeOf<Key>::get(), SchemaTypeOf<Value>::get()); }
};
template <class Key, class Value>
struct IValueToArg<c10::Dict<Key, Value>> {
  static c10::Dict<Key, Value> get(IValue& v) { return IValueTo<c10::Dict<Key, Value>>::get(v); }
};
}  // namespace detail
}  // namespace sy
