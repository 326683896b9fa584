#include "switchyard/ivalue/ivalue.h"

#include <algorithm>
#include <ostream>

#include "absl/strings/str_join.h"
#include "switchyard/ivalue/generic_dict.h"

namespace sy {

IValue::IValue(Scalar s) noexcept : IValue() {
  switch (s.kind()) {
    case Scalar::Kind::Int: *this = IValue(s.toLong()); break;
    case Scalar::Kind::Double: *this = IValue(s.toDouble()); break;
    case Scalar::Kind::Bool: *this = IValue(s.toBool()); break;
  }
}

IValue::IValue(std::vector<IValue> v) : IValue() {
  const uint32_t depth = nestingDepthOf(v);
  *this = IValue(Tag::GenericList, new ListImpl<IValue>(std::move(v), depth));
}

IValue::IValue(GenericDict d) : IValue() {
  uint32_t deepest = 0;
  for (const GenericDict::Entry& e : d) deepest = std::max(deepest, e.value().nestingDepth());
  SY_CHECK(deepest < kMaxIValueNesting, "a dict nested ", deepest + 1, " levels deep is too deep (at most ",
           kMaxIValueNesting, "); comparing, printing and destroying values recurse that deep");
  *this = IValue(Tag::GenericDict, new DictImpl(std::move(d), deepest + 1));
}

uint32_t IValue::nestingDepth() const {
  switch (tag()) {
    case Tag::GenericList: return static_cast<ListImpl<IValue>*>(payload_.as_intrusive)->depth;
    case Tag::Tuple: return static_cast<TupleImpl*>(payload_.as_intrusive)->depth;
    case Tag::GenericDict: return static_cast<DictImpl*>(payload_.as_intrusive)->depth;
    default: return 0;
  }
}

uint32_t IValue::nestingDepthOf(const std::vector<IValue>& elements) {
  uint32_t deepest = 0;
  for (const IValue& e : elements) deepest = std::max(deepest, e.nestingDepth());
  SY_CHECK(deepest < kMaxIValueNesting, "a list or tuple nested ", deepest + 1, " levels deep is too deep (at most ",
           kMaxIValueNesting, "); comparing, printing and destroying values recurse that deep");
  return deepest + 1;
}

void IValue::takeOwnership() {
  // See Note [Borrowed IValues]: a borrowed tensor becomes a reference of the slot's own, a borrowed
  // int list a list object of its own.
  if (tag() == Tag::Tensor) {
    new (&payload_.as_tensor) Tensor(*payload_.as_borrowed_tensor);
  } else {
    SY_CHECK(tag() == Tag::IntList, "internal error: a borrowed IValue of type ", typeName());
    payload_.as_intrusive = new ListImpl<int64_t>(absl::Span<const int64_t>(payload_.as_int_array, borrowed_size_));
    borrowed_size_ = 0;
  }
  setHeader(tag(), Ownership::Owned);
}

IValue IValue::tuple(std::vector<IValue> elements) {
  const uint32_t depth = nestingDepthOf(elements);
  return IValue(Tag::Tuple, new TupleImpl(std::move(elements), depth));
}

const std::vector<IValue>& IValue::toList() const { return heap<ListImpl<IValue>>(Tag::GenericList)->elements; }
absl::Span<const IValue> IValue::toListRef() const {
  if (tag() != Tag::TensorList) return toList();
  auto* list = heap<ListImpl<Tensor>>(Tag::TensorList);
  std::lock_guard<std::mutex> lock(list->boxed_mutex);
  bool current = list->boxed.size() == list->elements.size();
  for (size_t i = 0; current && i < list->elements.size(); ++i) {
    current = list->boxed[i].toTensor().is_same(list->elements[i]);
  }
  if (!current) list->boxed.assign(list->elements.begin(), list->elements.end());
  return list->boxed;
}
const std::vector<IValue>& IValue::toTupleElements() const { return heap<TupleImpl>(Tag::Tuple)->elements; }
const GenericDict& IValue::toGenericDict() const { return heap<DictImpl>(Tag::GenericDict)->dict; }

Scalar IValue::toScalar() const {
  switch (tag()) {
    case Tag::Int: return Scalar(payload_.as_int);
    case Tag::Double: return Scalar(payload_.as_double);
    case Tag::Bool: return Scalar(payload_.as_bool);
    default: break;
  }
  SY_ERROR("expected a Scalar (int, float or bool) but got ", typeName());
}

std::string_view toString(IValue::Tag tag) {
  using Tag = IValue::Tag;
  switch (tag) {
    case Tag::None: return "None";
    case Tag::Tensor: return "Tensor";
    case Tag::Int: return "int";
    case Tag::Double: return "float";
    case Tag::Bool: return "bool";
    case Tag::String: return "str";
    case Tag::Device: return "Device";
    case Tag::ScalarType: return "ScalarType";
    case Tag::IntList: return "int[]";
    case Tag::DoubleList: return "float[]";
    case Tag::BoolList: return "bool[]";
    case Tag::TensorList: return "Tensor[]";
    case Tag::GenericList: return "list";
    case Tag::Tuple: return "tuple";
    case Tag::Object: return "object";
    case Tag::GenericDict: return "Dict";
  }
  return "unknown";
}

std::string_view IValue::typeName() const { return toString(tag()); }

void IValue::throwWrongTag(Tag expected) const {
  SY_ERROR_KIND(Type, "expected a value of type ", toString(expected), " but got ", typeName());
}

void IValue::throwIntListTooLongToBorrow(size_t size) {
  SY_ERROR_KIND(Value, "an int list of ", size, " elements is too long to box (at most ", UINT32_MAX, ")");
}

bool operator==(const IValue& a, const IValue& b) {
  using Tag = IValue::Tag;
  if (a.tag() != b.tag()) return false;
  switch (a.tag()) {
    case Tag::None: return true;
    case Tag::Tensor: return a.toTensor().is_same(b.toTensor());
    case Tag::Int: return a.toInt() == b.toInt();
    case Tag::Double: return a.toDouble() == b.toDouble();
    case Tag::Bool: return a.toBool() == b.toBool();
    case Tag::String: return a.toStringRef() == b.toStringRef();
    case Tag::Device: return a.toDevice() == b.toDevice();
    case Tag::ScalarType: return a.toScalarType() == b.toScalarType();
    case Tag::IntList: return a.toIntList() == b.toIntList();
    case Tag::DoubleList: return a.toDoubleList() == b.toDoubleList();
    case Tag::BoolList: return a.toBoolList() == b.toBoolList();
    case Tag::TensorList: {
      const auto& x = a.toTensorVector();
      const auto& y = b.toTensorVector();
      if (x.size() != y.size()) return false;
      for (size_t i = 0; i < x.size(); ++i) {
        if (!x[i].is_same(y[i])) return false;
      }
      return true;
    }
    case Tag::GenericList: return a.toList() == b.toList();
    case Tag::Tuple: return a.toTupleElements() == b.toTupleElements();
    case Tag::Object: return a.payload_.as_intrusive == b.payload_.as_intrusive;
    case Tag::GenericDict: return a.toGenericDict() == b.toGenericDict();
  }
  return false;
}

std::ostream& operator<<(std::ostream& os, const IValue& v) {
  using Tag = IValue::Tag;
  switch (v.tag()) {
    case Tag::None: return os << "None";
    case Tag::Tensor: return os << v.toTensor();
    case Tag::Int: return os << v.toInt();
    case Tag::Double: return os << v.toDouble();
    case Tag::Bool: return os << (v.toBool() ? "True" : "False");
    case Tag::String: return os << '\'' << v.toStringRef() << '\'';
    case Tag::Device: return os << v.toDevice();
    case Tag::ScalarType: return os << v.toScalarType();
    case Tag::IntList: return os << '[' << absl::StrJoin(v.toIntListRef(), ", ") << ']';
    case Tag::DoubleList: return os << '[' << absl::StrJoin(v.toDoubleList(), ", ") << ']';
    case Tag::BoolList: {
      os << '[';
      const auto& l = v.toBoolList();
      for (size_t i = 0; i < l.size(); ++i) os << (i ? ", " : "") << (l[i] ? "True" : "False");
      return os << ']';
    }
    case Tag::TensorList: {
      os << '[';
      const auto& l = v.toTensorVector();
      for (size_t i = 0; i < l.size(); ++i) os << (i ? ", " : "") << l[i];
      return os << ']';
    }
    case Tag::GenericList:
    case Tag::Tuple: {
      const auto& l = v.isTuple() ? v.toTupleElements() : v.toList();
      os << (v.isTuple() ? '(' : '[');
      for (size_t i = 0; i < l.size(); ++i) os << (i ? ", " : "") << l[i];
      return os << (v.isTuple() ? ')' : ']');
    }
    case Tag::Object: return os << "<object>";
    case Tag::GenericDict: {
      os << '{';
      bool first = true;
      for (const GenericDict::Entry& e : v.toGenericDict()) {
        os << (first ? "" : ", ") << e.key() << ": " << e.value();
        first = false;
      }
      return os << '}';
    }
  }
  return os;
}

std::ostream& operator<<(std::ostream& os, const Scalar& s) {
  switch (s.kind()) {
    case Scalar::Kind::Int: return os << s.toLong();
    case Scalar::Kind::Double: return os << s.toDouble();
    case Scalar::Kind::Bool: return os << (s.toBool() ? "True" : "False");
  }
  return os;
}

}  // namespace sy
