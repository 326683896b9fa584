// Unary floating-point elementwise operators on the CPU: acos, sin.
//
// Result dtype (PyTorch's "unary float op" rule): a Float or Double input keeps its dtype; Bool,
// Int and Long inputs are computed in Float (the default floating dtype). An out= tensor of
// another dtype receives the result converted, provided canCast(result, out dtype) allows it.
// NaN and infinities propagate as std:: functions define them (acos(2) is nan).
//
// Adding an operator: a functor with a templated operator(), an out= kernel and a functional
// kernel calling unaryFloatingOut, and two m.impl lines.
#include <cmath>

#include "switchyard/backends/cpu/elementwise.h"
#include "switchyard/backends/cpu/kernels.h"
#include "switchyard/dispatcher/library.h"
#include "switchyard/ops/ops.h"

namespace sy::cpu {
namespace {

struct Acos {
  template <class T>
  T operator()(T x) const { return std::acos(x); }
};
struct Sin {
  template <class T>
  T operator()(T x) const { return std::sin(x); }
};

ScalarType unaryFloatingResultType(ScalarType input) { return isFloatingType(input) ? input : ScalarType::Float; }

// The whole out= operation for one unary floating function; `op` names the operator in errors.
template <class Fn>
Tensor& unaryFloatingOut(const char* op, const Tensor& self, Tensor& out, Fn fn) {
  checkOnCPU(op, "self", self);
  checkOnCPU(op, "out", out);
  const ScalarType result = unaryFloatingResultType(self.scalar_type());
  checkCanCastToOutput(op, result, out);
  resizeOutput(out, self.sizes());
  if (out.numel() == 0) return out;
  const Tensor input = convertedTo(op, "self", self, result);
  computeIntoOutput(op, out, result, {&input}, [&](const Tensor& dst) {
    const LoopGeometry geometry = makeLoopGeometry({&dst, &input});
    SY_DISPATCH_FLOATING_TYPES(result, op, "self", [&](auto tag) {
      using T = typename decltype(tag)::type;
      runElementwise<T, T>(geometry, [fn](T x) { return fn(x); });
    });
  });
  return out;
}

// The functional form: one dispatched allocation, then the out= implementation called directly,
// so the operator costs exactly two dispatches (itself and its aten::empty).
template <class Fn>
Tensor unaryFloating(const char* op, const Tensor& self, Fn fn) {
  checkOnCPU(op, "self", self);
  Tensor out = ops::empty(self.sizes(), TensorOptions(unaryFloatingResultType(self.scalar_type())).device(kCPU));
  unaryFloatingOut(op, self, out, fn);
  return out;
}

}  // namespace

Tensor acos_cpu(const Tensor& self) { return unaryFloating("aten::acos", self, Acos{}); }
Tensor& acos_out_cpu(const Tensor& self, Tensor& out) { return unaryFloatingOut("aten::acos.out", self, out, Acos{}); }

Tensor sin_cpu(const Tensor& self) { return unaryFloating("aten::sin", self, Sin{}); }
Tensor& sin_out_cpu(const Tensor& self, Tensor& out) { return unaryFloatingOut("aten::sin.out", self, out, Sin{}); }

}  // namespace sy::cpu

SY_LIBRARY_IMPL(aten, CPU, m) {
  m.impl("acos", SY_FN(sy::cpu::acos_cpu));
  m.impl("acos.out", SY_FN(sy::cpu::acos_out_cpu));
  m.impl("sin", SY_FN(sy::cpu::sin_cpu));
  m.impl("sin.out", SY_FN(sy::cpu::sin_out_cpu));
}
