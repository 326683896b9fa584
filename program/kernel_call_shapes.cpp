// The call shapes of KernelCall instructions (See Note [A shaped kernel call is one typed call
// through the dispatcher], kernel_call_shapes.h).
#include "switchyard/program/kernel_call_shapes.h"

#include <optional>
#include <tuple>
#include <type_traits>
#include <typeindex>
#include <utility>

#include "switchyard/dispatcher/boxing.h"

namespace sy {
namespace program_internal {

// The shapes: C++ signatures of common out variants, with operators ExecuTorch's programs use.
#define SY_PROGRAM_CALL_SHAPES(_)                                                                          \
  _(Tensor&(const Tensor&, Tensor&))                                   /* neg, exp, sigmoid, relu, ... */ \
  _(Tensor&(const Tensor&, const Tensor&, Tensor&))                    /* mul, mm, bmm, eq.Tensor, ... */ \
  _(Tensor&(const Tensor&, const Scalar&, Tensor&))                    /* ne.Scalar, mul.Scalar, ... */   \
  _(Tensor&(const Tensor&, const Tensor&, const Scalar&, Tensor&))     /* add, sub */                     \
  _(Tensor&(const Tensor&, const Scalar&, const Scalar&, Tensor&))     /* add.Scalar, sub.Scalar */       \
  _(Tensor&(const Tensor&, const Tensor&, const Tensor&, Tensor&))     /* where.self */                   \
  _(Tensor&(const Tensor&, const Tensor&, const Tensor&, const Scalar&, const Scalar&, Tensor&)) /* addmm */ \
  _(Tensor&(const Tensor&, IntArrayRef, Tensor&))                      /* permute_copy, view_copy */      \
  _(Tensor&(const Tensor&, int64_t, Tensor&))                          /* unsqueeze_copy */               \
  _(Tensor&(const Tensor&, int64_t, int64_t, Tensor&))                 /* select_copy, transpose_copy */  \
  _(Tensor&(const Tensor&, int64_t, bool, Tensor&))                    /* _softmax, _log_softmax */       \
  _(Tensor&(const Tensor&, IntArrayRef, bool, Tensor&))                /* amax, amin */                   \
  _(Tensor&(const Tensor&, std::optional<IntArrayRef>, bool, std::optional<ScalarType>, Tensor&)) /* mean, sum */ \
  _(Tensor&(const Tensor&, std::optional<MemoryFormat>, Tensor&))      /* clone */                        \
  _(Tensor&(const Tensor&, bool, std::optional<IntArrayRef>, Tensor&)) /* _to_dim_order_copy, _clone_dim_order */ \
  _(Tensor&(const Scalar&, Tensor&))                                   /* scalar_tensor */                \
  _(Tensor&(const Tensor&, std::optional<int64_t>, bool, Tensor&))     /* argmax, argmin */               \
  _(Tensor&(const Tensor&, const Scalar&, std::optional<MemoryFormat>, Tensor&)) /* full_like */          \
  _(Tensor&(const Tensor&, int64_t, const Tensor&, bool, Tensor&))     /* gather */                       \
  _(Tensor&(const Tensor&, int64_t, const Tensor&, const Scalar&, Tensor&)) /* scatter.value */

namespace {

// One argument as a shaped call holds it: what detail::argumentFromIValue gives the kernel, kept
// by address when that is a reference (a tensor of the method) and by value otherwise.
template <class Param>
class HeldArgument {
  using Converted = detail::ConvertedArg<Param>;
  static constexpr bool kByAddress = std::is_reference_v<Converted>;
  using Stored = std::conditional_t<kByAddress, std::remove_reference_t<Converted>*, std::decay_t<Converted>>;

 public:
  explicit HeldArgument(IValue& prepared) {
    if constexpr (kByAddress) {
      stored_ = &detail::argumentFromIValue<Param>(prepared);
    } else {
      stored_ = detail::argumentFromIValue<Param>(prepared);
    }
  }
  Param get() const {
    if constexpr (kByAddress) {
      return *stored_;
    } else {
      return stored_;
    }
  }

 private:
  Stored stored_;
};

template <class FuncType>
class ShapedCall;

template <class Ret, class... Params>
class ShapedCall<Ret(Params...)> final : public ShapedKernelCall {
 public:
  ShapedCall(TypedOperatorHandle<Ret(Params...)> op, std::vector<IValue>& prepared)
      : ShapedCall(op, prepared, std::index_sequence_for<Params...>()) {}

 private:
  template <size_t... I>
  ShapedCall(TypedOperatorHandle<Ret(Params...)> op, std::vector<IValue>& prepared, std::index_sequence<I...>)
      : ShapedKernelCall(&ShapedCall::runShaped), op_(op), arguments_(HeldArgument<Params>(prepared[I])...) {}

  static void runShaped(const ShapedKernelCall& base) {
    const ShapedCall& self = static_cast<const ShapedCall&>(base);
    std::apply([&self](const HeldArgument<Params>&... held) { self.op_.call(held.get()...); }, self.arguments_);
  }

  TypedOperatorHandle<Ret(Params...)> op_;
  std::tuple<HeldArgument<Params>...> arguments_;
};

template <class T>
constexpr bool kIsMutableTensor = std::is_same_v<T, Tensor&>;

// Whether every `Tensor&` parameter is an argument the schema marks as written, so that its
// prepared IValue is the method's own Tensor, mutably borrowed.
template <class Ret, class... Params>
bool writesOnlyWrittenArguments(const FunctionSchema& schema, Ret (*)(Params...)) {
  constexpr bool mutable_tensor[] = {kIsMutableTensor<Params>...};
  for (size_t i = 0; i < sizeof...(Params); ++i) {
    if (mutable_tensor[i] && !schema.arguments()[i].is_write()) return false;
  }
  return true;
}

template <class FuncType>
std::unique_ptr<ShapedKernelCall> makeShapedCall(const OperatorHandle& op, std::vector<IValue>& prepared) {
  if (prepared.size() != op.schema().arguments().size()) return nullptr;
  if (!writesOnlyWrittenArguments(op.schema(), static_cast<FuncType*>(nullptr))) return nullptr;
  return std::make_unique<ShapedCall<FuncType>>(op.typed<FuncType>(), prepared);
}

struct Shape {
  std::type_index signature;
  std::unique_ptr<ShapedKernelCall> (*make)(const OperatorHandle&, std::vector<IValue>&);
};

const std::vector<Shape>& shapes() {
#define SY_SHAPE_ENTRY(...) Shape{typeid(__VA_ARGS__), &makeShapedCall<__VA_ARGS__>},
  static const std::vector<Shape> list{SY_PROGRAM_CALL_SHAPES(SY_SHAPE_ENTRY)};
#undef SY_SHAPE_ENTRY
  return list;
}

}  // namespace

std::unique_ptr<ShapedKernelCall> shapeKernelCall(const OperatorHandle& op, std::vector<IValue>& prepared) {
  const std::optional<std::type_index> signature = op.cppSignature();
  if (!signature) return nullptr;
  for (const Shape& shape : shapes()) {
    if (shape.signature != *signature) continue;
    try {
      return shape.make(op, prepared);
    } catch (const std::exception&) {
      // An argument that does not convert: the boxed path raises the same error when it runs.
      return nullptr;
    }
  }
  return nullptr;
}

std::vector<std::string> callShapeNames() {
  std::vector<std::string> names;
  for (const Shape& shape : shapes()) names.push_back(demangle(shape.signature.name()));
  return names;
}

}  // namespace program_internal
}  // namespace sy
