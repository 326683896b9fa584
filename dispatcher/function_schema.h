// FunctionSchema: the typed signature of an operator, parsed from PyTorch's schema language.
//
//   sy::FunctionSchema s = sy::parseSchema("aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)");
//   s.operator_name().toString(); // "aten::add.out"
//   s.arguments()[3].is_out();    // true
//
// Supported: overload names, the kwarg-only marker `*`, defaults, `T?` (optional), `T[]` and
// `T[N]` (lists), `Dict(K, V)` (dicts, without defaults), alias annotations `Tensor(a)`, `Tensor(a!)`, `Tensor!`, named and tuple returns.
// A malformed string raises sy::Error naming the column (see parseSchema below).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "switchyard/ivalue/ivalue.h"

namespace sy {

// "aten::acos" + overload "out".
struct OperatorName {
  std::string name;
  std::string overload_name;

  std::string toString() const { return overload_name.empty() ? name : name + "." + overload_name; }
  // The part before "::" ("aten"), empty when there is none.
  std::string_view getNamespace() const;
  friend bool operator==(const OperatorName& a, const OperatorName& b) {
    return a.name == b.name && a.overload_name == b.overload_name;
  }
  friend bool operator!=(const OperatorName& a, const OperatorName& b) { return !(a == b); }
  friend std::ostream& operator<<(std::ostream& os, const OperatorName& n) { return os << n.toString(); }
  template <class H>
  friend H AbslHashValue(H h, const OperatorName& n) {
    return H::combine(std::move(h), n.name, n.overload_name);
  }
};

enum class TypeKind : uint8_t {
  Tensor,
  Int,
  SymInt,  // spelled SymInt in PyTorch schemas; behaves as int here
  Float,
  Bool,
  Str,
  Scalar,
  ScalarType,
  Device,
  Layout,
  MemoryFormat,
  List,      // element() and optional fixedSize()
  Optional,  // element()
  Dict,      // key() and element() (the value type): `Dict(str, Tensor)`
};

class Type;
using TypePtr = std::shared_ptr<const Type>;

// An argument or return type: a leaf kind, or a list/optional of another type, or a dict.
class Type {
 public:
  static TypePtr get(TypeKind leaf);
  static TypePtr list(TypePtr element, std::optional<int64_t> fixed_size = std::nullopt);
  static TypePtr optional(TypePtr element);
  // Dict(key, value); the key is str, int, bool, float or Tensor (as PyTorch allows).
  static TypePtr dict(TypePtr key, TypePtr value);

  TypeKind kind() const { return kind_; }
  const TypePtr& element() const { return element_; }
  const TypePtr& key() const { return key_; }  // a Dict's key type; null otherwise
  std::optional<int64_t> fixedSize() const { return fixed_size_; }

  // Schema spelling: "Tensor", "int", "SymInt[]", "int[2]", "Tensor?", "Tensor?[]", "float",
  // "Dict(str, Tensor)".
  std::string str() const;
  // Equality ignoring list sizes and treating SymInt as int (what kernel signatures can express).
  bool matches(const Type& other) const;
  bool isTensorLike() const;  // Tensor, Tensor?, Tensor[], Tensor?[], Tensor[]? (one list level at most)

 private:
  Type(TypeKind kind, TypePtr element, std::optional<int64_t> fixed_size, TypePtr key = nullptr)
      : kind_(kind), element_(std::move(element)), key_(std::move(key)), fixed_size_(fixed_size) {}
  TypeKind kind_;
  TypePtr element_;
  TypePtr key_;
  std::optional<int64_t> fixed_size_;
};

// Alias annotation: `(a)` is set "a", `(a!)` also writes, `Tensor!` writes with no named set.
struct AliasInfo {
  std::string set;
  bool is_write = false;
  friend bool operator==(const AliasInfo& a, const AliasInfo& b) {
    return a.set == b.set && a.is_write == b.is_write;
  }
};

struct Argument {
  std::string name;  // may be empty for returns
  TypePtr type;
  std::optional<IValue> default_value;
  bool kwarg_only = false;
  std::optional<AliasInfo> alias_info;

  bool is_write() const { return alias_info.has_value() && alias_info->is_write; }
  // A written, kwarg-only tensor: an out= argument.
  bool is_out() const { return is_write() && kwarg_only; }
};

class FunctionSchema {
 public:
  FunctionSchema(OperatorName name, std::vector<Argument> arguments, std::vector<Argument> returns);

  const OperatorName& operator_name() const { return name_; }
  // As PyTorch's: the qualified name without the overload ("aten::add"), and the overload ("out").
  const std::string& name() const { return name_.name; }
  const std::string& overload_name() const { return name_.overload_name; }
  const std::vector<Argument>& arguments() const { return arguments_; }
  const std::vector<Argument>& returns() const { return returns_; }

  // Bit i set when argument i is Tensor, Tensor?, Tensor[] or Tensor?[] (the arguments the
  // dispatcher reads keys from). Schemas with more than 64 arguments are rejected.
  uint64_t tensorArgumentMask() const { return tensor_argument_mask_; }
  // Bit i set when argument i is Device or Device? (keys for factory ops without tensors).
  uint64_t deviceArgumentMask() const { return device_argument_mask_; }
  // For return i, the index of the argument it aliases and writes (`-> Tensor(a!)` of an out or
  // in-place op), or -1 for a fresh result.
  int aliasedArgumentOfReturn(size_t return_index) const { return returns_aliasing_[return_index]; }
  // True when any argument is written (`!`).
  bool is_mutable() const;
  // Index of the argument called `name`, or nullopt.
  std::optional<size_t> argumentIndexWithName(std::string_view name) const;

  // Round-trips through parseSchema: "aten::acos.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)".
  std::string toString() const;

 private:
  OperatorName name_;
  std::vector<Argument> arguments_;
  std::vector<Argument> returns_;
  uint64_t tensor_argument_mask_ = 0;
  uint64_t device_argument_mask_ = 0;
  std::vector<int> returns_aliasing_;
};

std::ostream& operator<<(std::ostream& os, const FunctionSchema& schema);
std::ostream& operator<<(std::ostream& os, const Argument& arg);

// Parses a full schema ("ns::name.overload(args) -> returns"). Defaults become IValues of the
// declared type: `float x=1` is a Double, `int[] x=[]` an empty IntList, `int[2] p=0` the list
// [0, 0] (as in PyTorch), the MemoryFormat/Layout/reduction names (`contiguous_format`, `strided`,
// `Mean`) Ints, and `ScalarType t=float` a ScalarType. Raises sy::Error:
//   "Schema parse error at column 18: expected ')' but found 'int'\n  aten::f(Tensor a int b) -> Tensor\n                   ^"
FunctionSchema parseSchema(std::string_view text);
// Parses "ns::name" or "ns::name.overload" (an operator name without a signature).
OperatorName parseOperatorName(std::string_view text);

}  // namespace sy
