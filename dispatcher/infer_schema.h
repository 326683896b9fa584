// Schema inference: the schema types a C++ kernel signature implies, and the comparison with a
// declared schema that turns a mismatched `impl` or `typed<>` into an error showing both.
//
// C++ type            schema type        C++ type                 schema type
// Tensor, Tensor&     Tensor             std::optional<T>         T?
// int64_t             int (or SymInt)    IntArrayRef, vector<i64> int[]
// double              float              TensorList, vector<Tensor> Tensor[]
// bool                bool               std::vector<double>      float[]
// OptionalTensorListRef Tensor?[]        Span<const double>       float[]
// std::string(_view)  str                std::vector<bool>        bool[]
// Scalar, ScalarType, Device, Layout, MemoryFormat: themselves. Returns: void -> (), tuples -> several;
// a `Tensor&` return hands back an argument the caller passed as `Tensor&` (See Note [A Tensor&
// return hands back an argument the caller passed as Tensor&] in dispatcher/infer_schema.cpp).
#pragma once

#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <typeindex>
#include <vector>

#include "switchyard/dispatcher/function_schema.h"
#include "switchyard/dispatcher/function_traits.h"
#include "switchyard/ivalue/ivalue.h"
#include "switchyard/ivalue/optional_tensor_list_ref.h"

namespace sy {

// The types a C++ signature implies, plus the signature itself for exact-match checks
// (see Note [Unboxed signatures must match exactly]).
struct InferredSignature {
  std::vector<TypePtr> arguments;
  std::vector<bool> arguments_mutable;  // per argument: a `Tensor&`, which the kernel may write
  std::vector<TypePtr> returns;
  std::vector<bool> returns_reference;  // per return: a `Tensor&` (the argument it wrote), not a new value
  std::type_index cpp_signature = typeid(void);
  std::string cpp_signature_name;  // demangled, for error messages

  // "(Tensor, int) -> Tensor"; a reference return is "Tensor&".
  std::string str() const;
};

// Empty when `inferred` fits `schema`, else the reason: "argument 2 has type float in the C++
// signature but int in the schema".
std::optional<std::string> findSignatureMismatch(const FunctionSchema& schema, const InferredSignature& inferred);

std::string demangle(const char* mangled_name);

// The schema PyTorch infers for `m.def("name", fn)`: arguments named _0, _1, ... with the types
// of `signature`, no defaults, no alias annotations: "ns::name(Tensor _0, int _1) -> Tensor".
FunctionSchema schemaFromSignature(OperatorName name, const InferredSignature& signature);

namespace detail {

template <class T>
struct SchemaTypeOf {
  static_assert(sizeof(T) == 0,
                "this C++ type cannot appear in a kernel signature; see dispatcher/infer_schema.h for the supported ones "
                "(use int64_t rather than int, double rather than float)");
};
#define SY_SCHEMA_TYPE(cpp, kind) \
  template <>                     \
  struct SchemaTypeOf<cpp> {      \
    static TypePtr get() { return Type::get(TypeKind::kind); } \
  };
SY_SCHEMA_TYPE(Tensor, Tensor)
SY_SCHEMA_TYPE(int64_t, Int)
SY_SCHEMA_TYPE(double, Float)
SY_SCHEMA_TYPE(bool, Bool)
SY_SCHEMA_TYPE(std::string, Str)
SY_SCHEMA_TYPE(std::string_view, Str)
SY_SCHEMA_TYPE(Scalar, Scalar)
SY_SCHEMA_TYPE(ScalarType, ScalarType)
SY_SCHEMA_TYPE(Device, Device)
SY_SCHEMA_TYPE(Layout, Layout)
SY_SCHEMA_TYPE(MemoryFormat, MemoryFormat)
#undef SY_SCHEMA_TYPE
template <>
struct SchemaTypeOf<OptionalTensorListRef> {
  static TypePtr get() { return Type::list(Type::optional(Type::get(TypeKind::Tensor))); }
};

template <class T>
struct SchemaTypeOf<std::optional<T>> {
  static TypePtr get() { return Type::optional(SchemaTypeOf<T>::get()); }
};
template <class T>
struct SchemaTypeOf<std::vector<T>> {
  static TypePtr get() { return Type::list(SchemaTypeOf<T>::get()); }
};
template <class T>
struct SchemaTypeOf<absl::Span<const T>> {
  static TypePtr get() { return Type::list(SchemaTypeOf<T>::get()); }
};

template <class T>
TypePtr schemaTypeOf() {
  return SchemaTypeOf<std::decay_t<T>>::get();
}

template <class R>
struct ReturnTypesOf {
  static void append(InferredSignature& sig) {
    sig.returns.push_back(schemaTypeOf<R>());
    sig.returns_reference.push_back(std::is_reference_v<R>);
  }
};
template <>
struct ReturnTypesOf<void> {
  static void append(InferredSignature&) {}
};
template <class... Rs>
struct ReturnTypesOf<std::tuple<Rs...>> {
  static void append(InferredSignature& sig) { (ReturnTypesOf<Rs>::append(sig), ...); }
};

template <class R, class... Args>
InferredSignature inferSignatureImpl(TypeList<Args...>) {
  InferredSignature sig;
  (sig.arguments.push_back(schemaTypeOf<Args>()), ...);
  (sig.arguments_mutable.push_back(std::is_same_v<Args, Tensor&>), ...);
  ReturnTypesOf<R>::append(sig);
  sig.cpp_signature = typeid(R(Args...));
  sig.cpp_signature_name = demangle(typeid(R(Args...)).name());
  return sig;
}

}  // namespace detail

// The inferred signature of a kernel function type (a leading DispatchKeySet is skipped).
template <class FuncType>
InferredSignature inferSignature() {
  using Sig = detail::KernelSignature<FuncType>;
  return detail::inferSignatureImpl<typename Sig::return_type>(typename Sig::parameters{});
}

}  // namespace sy
