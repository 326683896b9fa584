// IValue: the 16-byte tagged value that boxed kernels and fallbacks see on the Stack.
//
// Holds None, Tensor, Int, Double, Bool, String, Device, ScalarType, lists (of int, double, bool,
// Tensor, or any IValue), Tuple, and opaque objects (`CustomObject`, for backend handles). The
// payload is one word; heap payloads (tensors, strings, lists, tuples, objects) are intrusive
// pointers, so moving an IValue copies two words and never touches a refcount.
//
// Note [Borrowing tensors from IValues]
// The payload union has a real `Tensor` member, so `toTensor() const&` hands out a reference to
// the Tensor inside the IValue without a refcount bump, and `toTensor() &` gives a mutable one: a
// boxed-to-unboxed wrapper passes `Tensor&` out arguments that alias the stack slot itself.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/types/span.h"
#include "switchyard/ivalue/device.h"
#include "switchyard/ivalue/error.h"
#include "switchyard/ivalue/intrusive_ptr.h"
#include "switchyard/ivalue/scalar.h"
#include "switchyard/ivalue/scalar_type.h"
#include "switchyard/ivalue/tensor.h"

namespace sy {

class IValue;

// Base class for opaque objects carried by IValues (delegate handles, user state).
class CustomObject : public IntrusiveTarget {};

struct StringImpl final : IntrusiveTarget {
  explicit StringImpl(std::string s) : str(std::move(s)) {}
  std::string str;
};

template <class T>
struct ListImpl final : IntrusiveTarget {
  ListImpl() = default;
  explicit ListImpl(std::vector<T> v) : elements(std::move(v)) {}
  std::vector<T> elements;
};

// Int lists are what boxed calls carry most (sizes, dims, strides): short ones are stored in the
// list object itself, so boxing one costs a single allocation.
template <>
struct ListImpl<int64_t> final : IntrusiveTarget {
  explicit ListImpl(absl::Span<const int64_t> v) : elements(v.begin(), v.end()) {}
  absl::InlinedVector<int64_t, 6> elements;
};

using TensorList = absl::Span<const Tensor>;

class IValue {
 public:
  enum class Tag : uint32_t {
    None,
    Tensor,
    Int,
    Double,
    Bool,
    String,
    Device,
    ScalarType,
    IntList,
    DoubleList,
    BoolList,
    TensorList,
    GenericList,
    Tuple,
    Object,
  };

  IValue() noexcept : tag_(Tag::None), is_intrusive_(false) { payload_.as_int = 0; }
  IValue(std::nullopt_t) noexcept : IValue() {}  // NOLINT

  IValue(const Tensor& t) : tag_(Tag::Tensor), is_intrusive_(true) { new (&payload_.as_tensor) Tensor(t); }  // NOLINT
  IValue(Tensor&& t) noexcept : tag_(Tag::Tensor), is_intrusive_(true) {  // NOLINT
    new (&payload_.as_tensor) Tensor(std::move(t));
  }
  template <class T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  IValue(T v) noexcept : tag_(Tag::Int), is_intrusive_(false) {  // NOLINT
    payload_.as_int = static_cast<int64_t>(v);
  }
  template <class T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0>
  IValue(T v) noexcept : tag_(Tag::Double), is_intrusive_(false) {  // NOLINT
    payload_.as_double = static_cast<double>(v);
  }
  template <class T, std::enable_if_t<std::is_same_v<T, bool>, int> = 0>
  IValue(T v) noexcept : tag_(Tag::Bool), is_intrusive_(false) {  // NOLINT
    payload_.as_int = 0;
    payload_.as_bool = v;
  }
  IValue(Scalar s) noexcept;  // NOLINT: Int, Double or Bool
  IValue(Device d) noexcept : tag_(Tag::Device), is_intrusive_(false) {  // NOLINT
    payload_.as_int = 0;
    payload_.as_device = d;
  }
  IValue(ScalarType t) noexcept : tag_(Tag::ScalarType), is_intrusive_(false) {  // NOLINT
    payload_.as_int = static_cast<int64_t>(t);
  }
  IValue(Layout l) noexcept : IValue(static_cast<int64_t>(l)) {}             // NOLINT
  IValue(MemoryFormat m) noexcept : IValue(static_cast<int64_t>(m)) {}       // NOLINT
  IValue(std::string s) : IValue(Tag::String, new StringImpl(std::move(s))) {}  // NOLINT
  IValue(std::string_view s) : IValue(std::string(s)) {}                     // NOLINT
  IValue(const char* s) : IValue(std::string(s)) {}                          // NOLINT
  IValue(const std::vector<int64_t>& v) : IValue(absl::Span<const int64_t>(v)) {}                 // NOLINT
  IValue(absl::Span<const int64_t> v) : IValue(Tag::IntList, new ListImpl<int64_t>(v)) {}          // NOLINT
  IValue(std::vector<double> v) : IValue(Tag::DoubleList, new ListImpl<double>(std::move(v))) {}  // NOLINT
  IValue(std::vector<bool> v) : IValue(Tag::BoolList, new ListImpl<bool>(std::move(v))) {}        // NOLINT
  IValue(std::vector<Tensor> v) : IValue(Tag::TensorList, new ListImpl<Tensor>(std::move(v))) {}  // NOLINT
  IValue(TensorList v) : IValue(std::vector<Tensor>(v.begin(), v.end())) {}                        // NOLINT
  IValue(std::vector<IValue> v);  // NOLINT: a generic list
  template <class T>
  IValue(intrusive_ptr<T> obj) : IValue(Tag::Object, obj.release()) {  // NOLINT
    static_assert(std::is_base_of_v<CustomObject, T>, "only CustomObject subclasses can be held");
  }
  template <class T>
  IValue(std::optional<T> v) : IValue(v.has_value() ? IValue(std::move(*v)) : IValue()) {}  // NOLINT
  static IValue tuple(std::vector<IValue> elements);

  IValue(const IValue& other) : tag_(other.tag_), is_intrusive_(other.is_intrusive_) {
    std::memcpy(static_cast<void*>(&payload_), &other.payload_, sizeof(payload_));
    if (is_intrusive_) retainPayload();
  }
  IValue(IValue&& other) noexcept : tag_(other.tag_), is_intrusive_(other.is_intrusive_) {
    std::memcpy(static_cast<void*>(&payload_), &other.payload_, sizeof(payload_));
    other.tag_ = Tag::None;
    other.is_intrusive_ = false;
  }
  IValue& operator=(const IValue& other) {
    IValue(other).swap(*this);
    return *this;
  }
  IValue& operator=(IValue&& other) noexcept {
    IValue(std::move(other)).swap(*this);
    return *this;
  }
  ~IValue() {
    if (is_intrusive_) releasePayload();
  }
  void swap(IValue& other) noexcept {
    std::swap(tag_, other.tag_);
    std::swap(is_intrusive_, other.is_intrusive_);
    alignas(8) char tmp[sizeof(payload_)];
    std::memcpy(tmp, &payload_, sizeof(payload_));
    std::memcpy(static_cast<void*>(&payload_), &other.payload_, sizeof(payload_));
    std::memcpy(static_cast<void*>(&other.payload_), tmp, sizeof(payload_));
  }

  Tag tag() const { return tag_; }
  // "Tensor", "int", "float", "str", "int[]" ...: the schema spelling of the held type.
  std::string_view typeName() const;

  bool isNone() const { return tag_ == Tag::None; }
  bool isTensor() const { return tag_ == Tag::Tensor; }
  bool isInt() const { return tag_ == Tag::Int; }
  bool isDouble() const { return tag_ == Tag::Double; }
  bool isBool() const { return tag_ == Tag::Bool; }
  bool isScalar() const { return isInt() || isDouble() || isBool(); }
  bool isString() const { return tag_ == Tag::String; }
  bool isDevice() const { return tag_ == Tag::Device; }
  bool isScalarType() const { return tag_ == Tag::ScalarType; }
  bool isIntList() const { return tag_ == Tag::IntList; }
  bool isDoubleList() const { return tag_ == Tag::DoubleList; }
  bool isBoolList() const { return tag_ == Tag::BoolList; }
  bool isTensorList() const { return tag_ == Tag::TensorList; }
  bool isList() const { return tag_ == Tag::GenericList; }
  bool isTuple() const { return tag_ == Tag::Tuple; }
  bool isObject() const { return tag_ == Tag::Object; }

  // See Note [Borrowing tensors from IValues].
  const Tensor& toTensor() const& {
    expect(Tag::Tensor);
    return payload_.as_tensor;
  }
  Tensor& toTensor() & {
    expect(Tag::Tensor);
    return payload_.as_tensor;
  }
  Tensor toTensor() && {
    expect(Tag::Tensor);
    Tensor t = std::move(payload_.as_tensor);
    payload_.as_tensor.~Tensor();
    tag_ = Tag::None;
    is_intrusive_ = false;
    return t;
  }
  int64_t toInt() const {
    expect(Tag::Int);
    return payload_.as_int;
  }
  // Accepts Int too: a Python-style `float` argument may be given an integer literal.
  double toDouble() const {
    if (tag_ == Tag::Int) return static_cast<double>(payload_.as_int);
    expect(Tag::Double);
    return payload_.as_double;
  }
  bool toBool() const {
    expect(Tag::Bool);
    return payload_.as_bool;
  }
  Scalar toScalar() const;
  Device toDevice() const {
    expect(Tag::Device);
    return payload_.as_device;
  }
  ScalarType toScalarType() const {
    expect(Tag::ScalarType);
    return static_cast<ScalarType>(payload_.as_int);
  }
  const std::string& toStringRef() const { return heap<StringImpl>(Tag::String)->str; }
  std::string_view toStringView() const { return toStringRef(); }
  absl::Span<const int64_t> toIntList() const { return heap<ListImpl<int64_t>>(Tag::IntList)->elements; }
  std::vector<int64_t> toIntVector() const {
    absl::Span<const int64_t> l = toIntList();
    return std::vector<int64_t>(l.begin(), l.end());
  }
  absl::Span<const int64_t> toIntListRef() const { return toIntList(); }
  const std::vector<double>& toDoubleList() const { return heap<ListImpl<double>>(Tag::DoubleList)->elements; }
  const std::vector<bool>& toBoolList() const { return heap<ListImpl<bool>>(Tag::BoolList)->elements; }
  const std::vector<Tensor>& toTensorVector() const { return heap<ListImpl<Tensor>>(Tag::TensorList)->elements; }
  TensorList toTensorList() const { return toTensorVector(); }
  // Mutable access for fallbacks that rewrite list elements in place (the list must not be shared).
  std::vector<Tensor>& toTensorVectorMut() { return heap<ListImpl<Tensor>>(Tag::TensorList)->elements; }
  const std::vector<IValue>& toList() const;
  const std::vector<IValue>& toTupleElements() const;
  template <class T>
  intrusive_ptr<T> toObject() const {
    T* p = dynamic_cast<T*>(heap<CustomObject>(Tag::Object));
    SY_CHECK(p != nullptr, "IValue holds an object of another class than the one requested");
    return intrusive_ptr<T>::reclaim_copy(p);
  }

  // Identity for heap payloads, value equality for the rest, element-wise for lists and tuples.
  friend bool operator==(const IValue& a, const IValue& b);
  friend bool operator!=(const IValue& a, const IValue& b) { return !(a == b); }

 private:
  IValue(Tag tag, IntrusiveTarget* heap_payload) noexcept : tag_(tag), is_intrusive_(true) {
    payload_.as_intrusive = heap_payload;
  }
  void expect(Tag t) const {
    if (__builtin_expect(tag_ != t, 0)) throwWrongTag(t);
  }
  [[noreturn]] void throwWrongTag(Tag expected) const;
  template <class T>
  T* heap(Tag t) const {
    expect(t);
    return static_cast<T*>(payload_.as_intrusive);
  }
  // Called on a bitwise copy of another IValue's payload.
  void retainPayload() {
    if (tag_ == Tag::Tensor) {
      TensorImpl* impl = payload_.as_tensor.unsafeGetTensorImpl();
      if (impl != UndefinedTensorImpl::singleton()) IntrusiveAccess::retain(impl);
    } else {
      IntrusiveAccess::retain(payload_.as_intrusive);
    }
  }
  void releasePayload() {
    if (tag_ == Tag::Tensor) {
      payload_.as_tensor.~Tensor();
    } else {
      IntrusiveAccess::release(payload_.as_intrusive);
    }
  }

  union Payload {
    Payload() : as_int(0) {}
    ~Payload() {}
    int64_t as_int;
    double as_double;
    bool as_bool;
    Device as_device;
    IntrusiveTarget* as_intrusive;
    Tensor as_tensor;
  } payload_;
  Tag tag_;
  bool is_intrusive_;
};

static_assert(sizeof(IValue) == 16, "IValue must stay two words");

std::string_view toString(IValue::Tag tag);
std::ostream& operator<<(std::ostream& os, const IValue& v);

struct TupleImpl final : IntrusiveTarget {
  explicit TupleImpl(std::vector<IValue> v) : elements(std::move(v)) {}
  std::vector<IValue> elements;
};

}  // namespace sy
