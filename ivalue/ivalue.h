// IValue: the 16-byte tagged value that boxed kernels and fallbacks see on the Stack.
//
// Holds None, Tensor, Int, Double, Bool, String, Device, ScalarType, lists (of int, double, bool,
// Tensor, or any IValue), Tuple, dicts (GenericDict, ivalue/generic_dict.h) and opaque objects
// (`CustomObject`, for backend handles). The payload is one word; heap payloads (tensors, strings,
// lists, tuples, dicts, objects) are intrusive pointers, so moving an IValue copies two words and
// never touches a refcount.
//
// Note [Borrowing tensors from IValues]
// The payload union has a real `Tensor` member, so `toTensor() const&` hands out a reference to
// the Tensor inside the IValue without a refcount bump, and `toTensor() &` gives a mutable one: a
// boxed-to-unboxed wrapper passes `Tensor&` out arguments that alias the stack slot itself.
//
// Note [Borrowed IValues]
// When an unboxed call reaches a boxed kernel (a backend fallback), its arguments are boxed for
// the duration of that one call, and the caller's objects outlive it. So the bridge boxes them as
// *borrowed* IValues: a tensor as the address of the caller's Tensor object, an int list as the
// caller's array and length. Creating and destroying one touches no refcount and allocates
// nothing, which is what makes a boxed fallback cheap (bench/README.md); reading one costs one
// select more than reading an owned value.
//
// A `Tensor&` (out or in-place) argument is borrowed mutably: mutable access to the slot
// (`toTensor() &`, and so the `Tensor&` parameter of an unboxed kernel run from the stack) is the
// caller's own object, exactly as in an unboxed call. A `const Tensor&` argument is borrowed
// read-only: mutable access first makes the slot own a reference, so a kernel that rebinds it
// rebinds the slot and never the caller's object.
//
// A borrowed value can never outlive the call, because everything that could carry it away makes
// it owned first: copying it, moving it out (`pop(stack)`, `std::move(stack[i])`), `swap`,
// moving the Stack that holds it, and `std::move(v).toTensor()`. Owning a tensor is one refcount
// increment; owning an int list allocates it. Relocations inside one Stack (growing it, erase,
// insert) keep the borrow, and overwriting a borrowed slot simply forgets it.
//
// The borrowing constructors are public so that other bridges can use them; the rule for their
// callers is the bridge's: the borrowed-from object must stay alive, and a read-only one
// unchanged, until the IValue and every slot it was relocated to is destroyed or overwritten.

#pragma once

#include <cstdint>
#include <cstring>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/types/span.h"
#include "switchyard/core/device.h"
#include "switchyard/core/error.h"
#include "switchyard/ivalue/intrusive_ptr.h"
#include "switchyard/core/macros.h"
#include "switchyard/ivalue/scalar.h"
#include "switchyard/core/scalar_type.h"
#include "switchyard/ivalue/tensor.h"

namespace sy {

class IValue;
class GenericDict;

// How IValue::to<T>() converts, per T; specialize it to make to<T>() work for a type of your own.
template <class T, class Enable = void>
struct IValueTo {
  static_assert(sizeof(T) == 0, "IValue::to<T>(): no conversion to this type (see IValueTo in ivalue/ivalue.h)");
};

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

// Note [Generic lists and tuples are nested at most 1000 deep]
// Comparing, printing and destroying an IValue recurse into the lists, tuples and dicts it holds,
// so the depth of that nesting is bounded where a list, tuple or dict IValue is built: each records
// its depth (one more than its deepest element's or value's), and building one deeper than
// kMaxIValueNesting raises. Their elements cannot be replaced afterwards (an IValue's dict is a
// copy of the GenericDict it was made from), so the recorded depth stays true and no value can
// contain itself.
inline constexpr uint32_t kMaxIValueNesting = 1000;

template <>
struct ListImpl<IValue> final : IntrusiveTarget {
  ListImpl(std::vector<IValue> v, uint32_t d) : elements(std::move(v)), depth(d) {}
  std::vector<IValue> elements;
  uint32_t depth;
};

// Int lists are what boxed calls carry most (sizes, dims, strides): short ones are stored in the
// list object itself, so boxing one costs a single allocation.
template <>
struct ListImpl<int64_t> final : IntrusiveTarget {
  explicit ListImpl(absl::Span<const int64_t> v) : elements(v.begin(), v.end()) {}
  absl::InlinedVector<int64_t, 6> elements;
};

// Note [toListRef boxes a tensor list once]
// A Tensor[] IValue stores its tensors unboxed (what kernels read), but PyTorch's toListRef gives
// every list's elements as IValues. For a tensor list the boxed elements are built on the first
// toListRef and kept beside the tensors, under the list's mutex; a later call rebuilds them only
// when the tensors changed (toTensorVectorMut), so concurrent readers of a list nobody modifies
// share one copy and the view stays valid until the list is modified or destroyed.
template <>
struct ListImpl<Tensor> final : IntrusiveTarget {
  ListImpl() = default;
  explicit ListImpl(std::vector<Tensor> v) : elements(std::move(v)) {}
  std::vector<Tensor> elements;
  std::mutex boxed_mutex;
  std::vector<IValue> boxed;
};

using TensorList = absl::Span<const Tensor>;

// Select IValue's borrowing constructors (see Note [Borrowed IValues]).
struct BorrowedValue {
  explicit constexpr BorrowedValue() = default;
};
inline constexpr BorrowedValue kBorrowed{};
struct MutablyBorrowedValue {
  explicit constexpr MutablyBorrowedValue() = default;
};
inline constexpr MutablyBorrowedValue kMutablyBorrowed{};

// Types whose IValue is a tag and one payload word with nothing to release.
template <class T>
inline constexpr bool kBoxesAsWord = std::is_arithmetic_v<T> || std::is_same_v<T, ScalarType> ||
                                     std::is_same_v<T, Layout> || std::is_same_v<T, MemoryFormat> ||
                                     std::is_same_v<T, Device>;

class IValue {
 public:
  enum class Tag : uint8_t {
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
    GenericDict,
  };

  IValue() noexcept {
    setHeader(Tag::None, Ownership::Trivial);
    payload_.as_int = 0;
  }
  IValue(std::nullopt_t) noexcept : IValue() {}  // NOLINT

  IValue(const Tensor& t) {  // NOLINT
    setHeader(Tag::Tensor, Ownership::Owned);
    new (&payload_.as_tensor) Tensor(t);
  }
  IValue(Tensor&& t) noexcept {  // NOLINT
    setHeader(Tag::Tensor, Ownership::Owned);
    new (&payload_.as_tensor) Tensor(std::move(t));
  }
  template <class T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  IValue(T v) noexcept {  // NOLINT
    setHeader(Tag::Int, Ownership::Trivial);
    payload_.as_int = static_cast<int64_t>(v);
  }
  template <class T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0>
  IValue(T v) noexcept {  // NOLINT
    setHeader(Tag::Double, Ownership::Trivial);
    payload_.as_double = static_cast<double>(v);
  }
  template <class T, std::enable_if_t<std::is_same_v<T, bool>, int> = 0>
  IValue(T v) noexcept {  // NOLINT
    setHeader(Tag::Bool, Ownership::Trivial);
    payload_.as_int = 0;
    payload_.as_bool = v;
  }
  IValue(Scalar s) noexcept;  // NOLINT: Int, Double or Bool
  IValue(Device d) noexcept {  // NOLINT
    setHeader(Tag::Device, Ownership::Trivial);
    payload_.as_int = 0;
    payload_.as_device = d;
  }
  IValue(ScalarType t) noexcept {  // NOLINT
    setHeader(Tag::ScalarType, Ownership::Trivial);
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
  IValue(GenericDict d);          // NOLINT: a dict (the IValue keeps its own copy; ivalue/generic_dict.h)
  template <class T>
  IValue(intrusive_ptr<T> obj) : IValue(Tag::Object, obj.release()) {  // NOLINT
    static_assert(std::is_base_of_v<CustomObject, T>, "only CustomObject subclasses can be held");
  }
  template <class T, std::enable_if_t<!kBoxesAsWord<T>, int> = 0>
  IValue(std::optional<T> v) : IValue(v.has_value() ? IValue(std::move(*v)) : IValue()) {}  // NOLINT
  // Numbers, dtypes, layouts, memory formats and devices: the tag and payload are selected, not
  // branched on, so boxing a run of optional arguments has no unpredictable branches.
  template <class T, std::enable_if_t<kBoxesAsWord<T>, int> = 0>
  IValue(const std::optional<T>& v) noexcept  // NOLINT
      : IValue(v.has_value() ? wordTag<T>() : Tag::None, v.has_value() ? wordPayload(*v) : 0, WordBits{}) {}
  static IValue tuple(std::vector<IValue> elements);

  // Borrowing constructors (see Note [Borrowed IValues]): `IValue(kBorrowed, t)` reads the caller's
  // tensor or int list, `IValue(kMutablyBorrowed, t)` also hands out the caller's Tensor object for
  // mutation. Construct them in place (`stack.emplace_back(kBorrowed, t)`): moving a borrowed
  // IValue makes it owned.
  IValue(BorrowedValue, const Tensor& t) noexcept {
    setHeader(Tag::Tensor, Ownership::Borrowed);
    payload_.as_borrowed_tensor = &t;
  }
  IValue(MutablyBorrowedValue, Tensor& t) noexcept {
    setHeader(Tag::Tensor, Ownership::MutablyBorrowed);
    payload_.as_borrowed_tensor = &t;
  }
  IValue(BorrowedValue, absl::Span<const int64_t> list) {
    setHeader(Tag::IntList, Ownership::Borrowed);
    payload_.as_int_array = list.data();
    borrowed_size_ = static_cast<uint32_t>(list.size());
    // Refusing (rather than owning a copy) keeps the bridge's registers free across this check:
    // the cold path never returns. No int list a kernel takes comes near 2^32 elements.
    if (SY_UNLIKELY(list.size() > UINT32_MAX)) throwIntListTooLongToBorrow(list.size());
  }
  bool isBorrowed() const { return ownership() >= Ownership::Borrowed; }
  // A tensor this IValue holds a reference to (one header comparison).
  bool isOwnedTensor() const { return header() == headerOf(Tag::Tensor, Ownership::Owned); }
  // Moves the tensor out of an IValue that isOwnedTensor(), leaving an undefined tensor behind.
  Tensor moveOwnedTensor() { return std::move(payload_.as_tensor); }
  // `t` itself, mutably borrowed: an out argument that came back as the caller's own object.
  bool isMutableBorrowOf(const Tensor& t) const {
    return header() == headerOf(Tag::Tensor, Ownership::MutablyBorrowed) && payload_.as_borrowed_tensor == &t;
  }

  IValue(const IValue& other) : IValue(other, BitwiseCopy{}) {
    if (ownership() == Ownership::Owned) {
      retainPayload();
    } else if (SY_UNLIKELY(isBorrowed())) {
      takeOwnership();
    }
  }
  IValue(IValue&& other) noexcept : IValue(other, BitwiseCopy{}) {
    other.setHeader(Tag::None, Ownership::Trivial);
    if (SY_UNLIKELY(isBorrowed())) takeOwnership();
  }
  IValue& operator=(const IValue& other) {
    IValue(other).swapBits(*this);
    return *this;
  }
  IValue& operator=(IValue&& other) noexcept {
    IValue(std::move(other)).swapBits(*this);
    return *this;
  }
  ~IValue() {
    if (ownership() == Ownership::Owned) releasePayload();
  }
  void swap(IValue& other) noexcept {
    makeOwned();
    other.makeOwned();
    swapBits(other);
  }
  // Turns a borrowed value into an owned one in place (see Note [Borrowed IValues]); no-op otherwise.
  void makeOwned() {
    if (SY_UNLIKELY(isBorrowed())) takeOwnership();
  }

  Tag tag() const { return static_cast<Tag>(header_[0]); }
  // "Tensor", "int", "float", "str", "int[]" ...: the schema spelling of the held type.
  std::string_view typeName() const;

  bool isNone() const { return tag() == Tag::None; }
  bool isTensor() const { return tag() == Tag::Tensor; }
  bool isInt() const { return tag() == Tag::Int; }
  bool isDouble() const { return tag() == Tag::Double; }
  bool isBool() const { return tag() == Tag::Bool; }
  bool isScalar() const { return isInt() || isDouble() || isBool(); }
  bool isString() const { return tag() == Tag::String; }
  bool isDevice() const { return tag() == Tag::Device; }
  bool isScalarType() const { return tag() == Tag::ScalarType; }
  bool isIntList() const { return tag() == Tag::IntList; }
  bool isDoubleList() const { return tag() == Tag::DoubleList; }
  bool isBoolList() const { return tag() == Tag::BoolList; }
  bool isTensorList() const { return tag() == Tag::TensorList; }
  bool isList() const { return tag() == Tag::GenericList; }
  bool isTuple() const { return tag() == Tag::Tuple; }
  bool isObject() const { return tag() == Tag::Object; }
  bool isGenericDict() const { return tag() == Tag::GenericDict; }

  // See Note [Borrowing tensors from IValues] and see Note [Borrowed IValues].
  const Tensor& toTensor() const& {
    expect(Tag::Tensor);
    return isBorrowed() ? *payload_.as_borrowed_tensor : payload_.as_tensor;
  }
  // A read-only borrowed tensor becomes owned first: the caller may rebind what it gets.
  Tensor& toTensor() & {
    expect(Tag::Tensor);
    if (ownership() == Ownership::MutablyBorrowed) return const_cast<Tensor&>(*payload_.as_borrowed_tensor);
    makeOwned();
    return payload_.as_tensor;
  }
  Tensor toTensor() && {
    expect(Tag::Tensor);
    if (isBorrowed()) return *payload_.as_borrowed_tensor;  // a new reference; the slot forgets the borrow
    Tensor t = std::move(payload_.as_tensor);
    payload_.as_tensor.~Tensor();
    setHeader(Tag::None, Ownership::Trivial);
    return t;
  }
  int64_t toInt() const {
    expect(Tag::Int);
    return payload_.as_int;
  }
  // Accepts Int too: a Python-style `float` argument may be given an integer literal.
  double toDouble() const {
    if (tag() == Tag::Int) return static_cast<double>(payload_.as_int);
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
  absl::Span<const int64_t> toIntList() const {
    expect(Tag::IntList);
    if (isBorrowed()) return absl::Span<const int64_t>(payload_.as_int_array, borrowed_size_);
    return static_cast<ListImpl<int64_t>*>(payload_.as_intrusive)->elements;
  }
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
  // A generic list's elements, as PyTorch's toListRef.
  // For a Tensor[] list too (See Note [toListRef boxes a tensor list once]).
  absl::Span<const IValue> toListRef() const;
  const std::vector<IValue>& toTupleElements() const;
  // A dict's entries in insertion order (ivalue/generic_dict.h).
  const GenericDict& toGenericDict() const;
  // The value as C++ type T (Tensor, int64_t, double, bool, std::string, Scalar, ScalarType,
  // Device, std::vector<...> of those, std::optional<...>, IValue), as PyTorch's to<T>().
  template <class T>
  T to() const {
    return IValueTo<T>::get(*this);
  }
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
  enum class Ownership : uint8_t {
    Trivial,   // nothing to release: None, numbers, devices, dtypes
    Owned,     // the payload holds a reference (tensor, string, list, tuple, object)
    Borrowed,         // see Note [Borrowed IValues]: the payload points at the caller's value
    MutablyBorrowed,  // ... which the callee may also mutate (a `Tensor&` argument)
  };
  struct BitwiseCopy {};
  struct WordBits {};

  Ownership ownership() const { return static_cast<Ownership>(header_[1]); }
  // One two-byte store (or load) rather than two one-byte ones (the header is in little-endian order).
  static constexpr uint16_t headerOf(Tag tag, Ownership ownership) {
    return static_cast<uint16_t>(static_cast<uint16_t>(tag) | static_cast<uint16_t>(ownership) << 8);
  }
  void setHeader(Tag tag, Ownership ownership) {
    const uint16_t header = headerOf(tag, ownership);
    std::memcpy(header_, &header, sizeof(header_));
  }
  uint16_t header() const {
    uint16_t header;
    std::memcpy(&header, header_, sizeof(header));
    return header;
  }

  IValue(Tag tag, int64_t payload, WordBits) noexcept {
    setHeader(tag, Ownership::Trivial);
    payload_.as_int = payload;
  }
  // The tag and payload word of a value that boxes as one word (kBoxesAsWord), as its
  // constructor above sets them.
  template <class T>
  static constexpr Tag wordTag() {
    if constexpr (std::is_same_v<T, bool>) return Tag::Bool;
    else if constexpr (std::is_floating_point_v<T>) return Tag::Double;
    else if constexpr (std::is_same_v<T, ScalarType>) return Tag::ScalarType;
    else if constexpr (std::is_same_v<T, Device>) return Tag::Device;
    else return Tag::Int;  // integers, Layout, MemoryFormat
  }
  template <class T>
  static int64_t wordPayload(T v) {
    if constexpr (std::is_floating_point_v<T>) {
      double d = static_cast<double>(v);
      int64_t bits;
      std::memcpy(&bits, &d, sizeof(bits));
      return bits;
    } else if constexpr (std::is_same_v<T, Device>) {
      // As IValue(Device) lays it out: the type, then the index, in a zeroed little-endian word.
      static_assert(sizeof(Device) == 2, "a Device is its type and its index");
      return static_cast<int64_t>(static_cast<uint8_t>(v.type()) | static_cast<uint8_t>(v.index()) << 8);
    } else {
      return static_cast<int64_t>(v);
    }
  }

  IValue(Tag tag, IntrusiveTarget* heap_payload) noexcept {
    setHeader(tag, Ownership::Owned);
    payload_.as_intrusive = heap_payload;
  }
  // Copies all 16 bytes, including `borrowed_size_`, which only a borrowed int list initialises.
  IValue(const IValue& other, BitwiseCopy) noexcept {
    std::memcpy(static_cast<void*>(this), static_cast<const void*>(&other), sizeof(IValue));
  }
  void swapBits(IValue& other) noexcept {
    alignas(IValue) unsigned char tmp[sizeof(IValue)];
    std::memcpy(tmp, static_cast<void*>(this), sizeof(IValue));
    std::memcpy(static_cast<void*>(this), static_cast<void*>(&other), sizeof(IValue));
    std::memcpy(static_cast<void*>(&other), tmp, sizeof(IValue));
  }
  // Out of line: the cold half of makeOwned() and of copying or moving a borrowed value.
  void takeOwnership();
  void expect(Tag t) const {
    if (SY_UNLIKELY(tag() != t)) throwWrongTag(t);
  }
  [[noreturn]] void throwWrongTag(Tag expected) const;
  [[noreturn]] static void throwIntListTooLongToBorrow(size_t size);
  // See Note [Generic lists and tuples are nested at most 1000 deep]: the depth of a list or tuple of
  // `elements`, checked against the bound.
  static uint32_t nestingDepthOf(const std::vector<IValue>& elements);
  // The recorded depth of a list, tuple or dict; 0 for any other value.
  uint32_t nestingDepth() const;
  template <class T>
  T* heap(Tag t) const {
    expect(t);
    return static_cast<T*>(payload_.as_intrusive);
  }
  // Called on a bitwise copy of another IValue's payload.
  void retainPayload() {
    if (tag() == Tag::Tensor) {
      TensorImpl* impl = payload_.as_tensor.unsafeGetTensorImpl();
      if (impl != UndefinedTensorImpl::singleton()) IntrusiveAccess::retain(impl);
    } else {
      IntrusiveAccess::retain(payload_.as_intrusive);
    }
  }
  void releasePayload() {
    if (tag() == Tag::Tensor) {
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
    const int64_t* as_int_array;         // a borrowed int list
    const Tensor* as_borrowed_tensor;    // a borrowed tensor: the caller's Tensor object
    Tensor as_tensor;
  } payload_;
  // A borrowed int list's length; left uninitialised otherwise, so boxing a value stores two
  // words rather than three.
  uint32_t borrowed_size_;
  // The Tag, then the Ownership; written together (setHeader) so that boxing a value stores its
  // header with one instruction.
  uint8_t header_[2];
};

static_assert(sizeof(IValue) == 16, "IValue must stay two words");
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "IValue::setHeader writes the tag as the low byte");

std::string_view toString(IValue::Tag tag);
std::ostream& operator<<(std::ostream& os, const IValue& v);

#define SY_IVALUE_TO(T, expr)                              \
  template <>                                              \
  struct IValueTo<T> {                                     \
    static T get(const IValue& v) { return expr; }         \
  };
SY_IVALUE_TO(IValue, v)
SY_IVALUE_TO(Tensor, v.toTensor())
SY_IVALUE_TO(bool, v.toBool())
SY_IVALUE_TO(std::string, v.toStringRef())
SY_IVALUE_TO(Scalar, v.toScalar())
SY_IVALUE_TO(ScalarType, v.toScalarType())
SY_IVALUE_TO(Device, v.toDevice())
SY_IVALUE_TO(std::vector<int64_t>, v.toIntVector())
SY_IVALUE_TO(std::vector<double>, v.toDoubleList())
SY_IVALUE_TO(std::vector<bool>, v.toBoolList())
SY_IVALUE_TO(std::vector<Tensor>, v.toTensorVector())
SY_IVALUE_TO(std::vector<IValue>, v.toList())
#undef SY_IVALUE_TO
template <class T>
struct IValueTo<T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>>> {
  static T get(const IValue& v) { return static_cast<T>(v.toInt()); }
};
template <class T>
struct IValueTo<T, std::enable_if_t<std::is_floating_point_v<T>>> {
  static T get(const IValue& v) { return static_cast<T>(v.toDouble()); }
};
template <class T>
struct IValueTo<std::optional<T>> {
  static std::optional<T> get(const IValue& v) {
    if (v.isNone()) return std::nullopt;
    return v.to<T>();
  }
};

struct TupleImpl final : IntrusiveTarget {
  TupleImpl(std::vector<IValue> v, uint32_t d) : elements(std::move(v)), depth(d) {}
  std::vector<IValue> elements;
  uint32_t depth;  // see Note [Generic lists and tuples are nested at most 1000 deep]
};

}  // namespace sy
