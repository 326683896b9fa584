// The optimized unary kernels: exp, log, sin, cos, tanh, sigmoid and acos on Float tensors in
// contiguous layout, in their out=, functional and in-place forms, over the vectorised loops of
// vector_math.h. optimized.yaml binds them to the operators for Float and the contiguous dim
// orders of rank 0 to 8; calls with other dtypes, dim orders or ranks never reach them (the
// dispatcher's PartialKernels key continues those to the portable CPU kernels).
//
// Semantics are the portable kernels' (backends/devices/cpu/unary_ops.cpp, activation_ops.cpp) for the
// calls taken here: out= of another shape is resized, out may be self. Values are SLEEF's 1.0-ULP
// ones (AVX2's sigmoid and acos are computed in line, as accurately: see Note [The AVX2 sigmoid
// computes its own exp] and see Note [The AVX2 acos is computed in line]), so they agree with the
// portable kernels' (glibc's) within 2 ULP, sigmoid within 4, and
// exactly for NaN, infinities and signed zeros (tests/backends/kernels/optimized/optimized_unary_test.cpp). What a
// kernel cannot do with flat loops it hands on unchanged (see partial_kernel_decline.h): a strided
// tensor whose dim order still reads 0..r-1, an out= partially overlapping self, a tensor on
// another device.
#include "NativeFunctions.h"

#include <string>
#include <vector>

#include "switchyard/backends/kernels/optimized/flat_tensors.h"
#include "switchyard/backends/kernels/optimized/partial_kernel_decline.h"
#include "switchyard/backends/kernels/optimized/vector_math.h"
#include "switchyard/dispatcher/dispatcher.h"
#include "switchyard/ops/creation_ops.h"

namespace sy::optimized {
namespace {

using OutSignature = Tensor&(const Tensor&, Tensor&);
using FunctionalSignature = Tensor(const Tensor&);
using InplaceSignature = Tensor&(Tensor&);

// The operator of each form of each function, looked up once and never destroyed (a kernel may
// still run while static destructors do).
struct UnaryOperators {
  TypedOperatorHandle<OutSignature> out;
  TypedOperatorHandle<FunctionalSignature> functional;
  TypedOperatorHandle<InplaceSignature> inplace;
};

const UnaryOperators& operatorsOf(UnaryFunction f) {
  static const auto* const table = [] {
    static constexpr const char* kNames[kNumUnaryFunctions] = {"aten::exp",  "aten::log",     "aten::sin", "aten::cos",
                                                               "aten::tanh", "aten::sigmoid", "aten::acos"};
    auto* ops = new std::vector<UnaryOperators>();
    Dispatcher& d = Dispatcher::singleton();
    for (const char* name : kNames) {
      ops->push_back(UnaryOperators{d.staticTypedHandle<OutSignature>(name, "out"),
                                    d.staticTypedHandle<FunctionalSignature>(name, ""),
                                    d.staticTypedHandle<InplaceSignature>(std::string(name) + "_", "")});
    }
    return ops;
  }();
  return (*table)[static_cast<int>(f)];
}

template <UnaryFunction F>
Tensor& unaryOut(const Tensor& self, Tensor& out) {
  if (!isFlatCpuFloat(self) || !prepareFlatOut(self, out)) return continueAfterPartialKernels(operatorsOf(F).out, self, out);
  if (self.numel() > 0) applyUnary(F, self.data_ptr<float>(), out.data_ptr<float>(), self.numel());
  return out;
}

template <UnaryFunction F>
Tensor unaryFunctional(const Tensor& self) {
  if (!isFlatCpuFloat(self)) return continueAfterPartialKernels(operatorsOf(F).functional, self);
  Tensor out = ops::empty(self.sizes(), TensorOptions(ScalarType::Float).device(kCPU));
  if (self.numel() > 0) applyUnary(F, self.data_ptr<float>(), out.data_ptr<float>(), self.numel());
  return out;
}

template <UnaryFunction F>
Tensor& unaryInplace(Tensor& self) {
  if (!isFlatCpuFloat(self)) return continueAfterPartialKernels(operatorsOf(F).inplace, self);
  if (self.numel() > 0) applyUnary(F, self.data_ptr<float>(), self.data_ptr<float>(), self.numel());
  return self;
}

}  // namespace

namespace native {

Tensor& exp_out(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return unaryOut<UnaryFunction::Exp>(self, out);
}
Tensor exp(const Tensor& self, const KernelContext& ctx) { return unaryFunctional<UnaryFunction::Exp>(self); }
Tensor& exp_(Tensor& self, const KernelContext& ctx) { return unaryInplace<UnaryFunction::Exp>(self); }

Tensor& log_out(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return unaryOut<UnaryFunction::Log>(self, out);
}
Tensor log(const Tensor& self, const KernelContext& ctx) { return unaryFunctional<UnaryFunction::Log>(self); }
Tensor& log_(Tensor& self, const KernelContext& ctx) { return unaryInplace<UnaryFunction::Log>(self); }

Tensor& sin_out(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return unaryOut<UnaryFunction::Sin>(self, out);
}
Tensor sin(const Tensor& self, const KernelContext& ctx) { return unaryFunctional<UnaryFunction::Sin>(self); }
Tensor& sin_(Tensor& self, const KernelContext& ctx) { return unaryInplace<UnaryFunction::Sin>(self); }

Tensor& cos_out(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return unaryOut<UnaryFunction::Cos>(self, out);
}
Tensor cos(const Tensor& self, const KernelContext& ctx) { return unaryFunctional<UnaryFunction::Cos>(self); }
Tensor& cos_(Tensor& self, const KernelContext& ctx) { return unaryInplace<UnaryFunction::Cos>(self); }

Tensor& tanh_out(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return unaryOut<UnaryFunction::Tanh>(self, out);
}
Tensor tanh(const Tensor& self, const KernelContext& ctx) { return unaryFunctional<UnaryFunction::Tanh>(self); }
Tensor& tanh_(Tensor& self, const KernelContext& ctx) { return unaryInplace<UnaryFunction::Tanh>(self); }

Tensor& sigmoid_out(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return unaryOut<UnaryFunction::Sigmoid>(self, out);
}
Tensor sigmoid(const Tensor& self, const KernelContext& ctx) { return unaryFunctional<UnaryFunction::Sigmoid>(self); }
Tensor& sigmoid_(Tensor& self, const KernelContext& ctx) { return unaryInplace<UnaryFunction::Sigmoid>(self); }

Tensor& acos_out(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return unaryOut<UnaryFunction::Acos>(self, out);
}
Tensor acos(const Tensor& self, const KernelContext& ctx) { return unaryFunctional<UnaryFunction::Acos>(self); }
Tensor& acos_(Tensor& self, const KernelContext& ctx) { return unaryInplace<UnaryFunction::Acos>(self); }

}  // namespace native
}  // namespace sy::optimized
