#include "switchyard/ivalue/generic_dict.h"

#include <functional>
#include <sstream>
#include <string>

namespace sy {
namespace {

template <class T>
size_t hashOf(const T& value, IValue::Tag tag) {
  return std::hash<T>{}(value) * 31 + static_cast<size_t>(tag);
}

std::string describeKey(const IValue& key) {
  if (key.isTensor()) return "a tensor";
  std::ostringstream os;
  os << key;
  return os.str();
}

}  // namespace

bool GenericDict::isValidKey(const IValue& key) {
  return key.isString() || key.isInt() || key.isBool() || key.isDouble() || key.isTensor();
}

size_t GenericDict::KeyHash::operator()(const IValue& key) const {
  switch (key.tag()) {
    case IValue::Tag::String: return hashOf(key.toStringRef(), key.tag());
    case IValue::Tag::Int: return hashOf(key.toInt(), key.tag());
    case IValue::Tag::Bool: return hashOf(key.toBool(), key.tag());
    // 0.0 and -0.0 compare equal, so they must hash alike.
    case IValue::Tag::Double: return hashOf(key.toDouble() == 0.0 ? 0.0 : key.toDouble(), key.tag());
    case IValue::Tag::Tensor: return hashOf(static_cast<const void*>(key.toTensor().unsafeGetTensorImpl()), key.tag());
    default: return 0;  // never stored: insert refuses other keys
  }
}

std::optional<size_t> GenericDict::indexOf(const IValue& key) const {
  auto it = positions_.find(key);
  if (it == positions_.end()) return std::nullopt;
  return it->second;
}

GenericDict::const_iterator GenericDict::find(const IValue& key) const {
  std::optional<size_t> i = indexOf(key);
  return i ? entries_.begin() + static_cast<std::ptrdiff_t>(*i) : entries_.end();
}

const IValue& GenericDict::at(const IValue& key) const {
  std::optional<size_t> i = indexOf(key);
  SY_CHECK_INDEX(i.has_value(), "the dict has no key ", describeKey(key), " (it has ", entries_.size(), " entries)");
  return entries_[*i].value_;
}

std::pair<size_t, bool> GenericDict::insert(IValue key, IValue value) {
  SY_CHECK_TYPE(isValidKey(key), "a dict key must be a str, int, bool, float or Tensor, not ", key.typeName());
  if (std::optional<size_t> i = indexOf(key)) return {*i, false};
  entries_.emplace_back(key, std::move(value));
  try {
    positions_.emplace(std::move(key), entries_.size() - 1);
  } catch (...) {
    entries_.pop_back();
    throw;
  }
  return {entries_.size() - 1, true};
}

std::pair<size_t, bool> GenericDict::insert_or_assign(IValue key, IValue value) {
  SY_CHECK_TYPE(isValidKey(key), "a dict key must be a str, int, bool, float or Tensor, not ", key.typeName());
  if (std::optional<size_t> i = indexOf(key)) {
    entries_[*i].value_ = std::move(value);
    return {*i, false};
  }
  return insert(std::move(key), std::move(value));
}

size_t GenericDict::erase(const IValue& key) {
  auto it = positions_.find(key);
  if (it == positions_.end()) return 0;
  const size_t erased = it->second;
  positions_.erase(it);
  entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(erased));
  // The entries after it moved down one place.
  for (auto& [unused, position] : positions_) {
    if (position > erased) --position;
  }
  return 1;
}

void GenericDict::clear() {
  positions_.clear();
  entries_.clear();
}

void GenericDict::reserve(size_t n) {
  entries_.reserve(n);
  positions_.reserve(n);
}

bool operator==(const GenericDict& a, const GenericDict& b) {
  if (a.size() != b.size()) return false;
  for (const GenericDict::Entry& e : a) {
    std::optional<size_t> i = b.indexOf(e.key());
    if (!i || !(b.entries_[*i].value() == e.value())) return false;
  }
  return true;
}

}  // namespace sy
