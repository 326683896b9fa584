// The schemas of the elementwise unary and activation operators (abs ... tanh, sigmoid, relu, gelu,
// hardtanh, clamp), spelled exactly as in PyTorch's native_functions.yaml. relu.out is one of PyTorch's
// generated ("autogen") out variants; its schema is the one PyTorch registers for it.
//
// acos, acos.out, sin and sin.out are defined in ops/aten_schemas.cpp; their in-place forms are
// here. The kernels are in backends/cpu/unary_ops.cpp and backends/cpu/activation_ops.cpp, the
// sy::ops helpers in ops/unary_ops.h.
#include "switchyard/dispatcher/library.h"

SY_LIBRARY_FRAGMENT(aten, m) {
  // Same dtype as the input (integral inputs stay integral).
  m.def("abs(Tensor self) -> Tensor");
  m.def("abs_(Tensor(a!) self) -> Tensor(a!)");
  m.def("abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("neg(Tensor self) -> Tensor");
  m.def("neg_(Tensor(a!) self) -> Tensor(a!)");
  m.def("neg.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)");

  // Floating results (integral and bool inputs give Float).
  m.def("exp(Tensor self) -> Tensor");
  m.def("exp_(Tensor(a!) self) -> Tensor(a!)");
  m.def("exp.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("log(Tensor self) -> Tensor");
  m.def("log_(Tensor(a!) self) -> Tensor(a!)");
  m.def("log.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("sqrt(Tensor self) -> Tensor");
  m.def("sqrt_(Tensor(a!) self) -> Tensor(a!)");
  m.def("sqrt.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("rsqrt(Tensor self) -> Tensor");
  m.def("rsqrt_(Tensor(a!) self) -> Tensor(a!)");
  m.def("rsqrt.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("cos(Tensor self) -> Tensor");
  m.def("cos_(Tensor(a!) self) -> Tensor(a!)");
  m.def("cos.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("tanh(Tensor self) -> Tensor");
  m.def("tanh_(Tensor(a!) self) -> Tensor(a!)");
  m.def("tanh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("sigmoid(Tensor self) -> Tensor");
  m.def("sigmoid_(Tensor(a!) self) -> Tensor(a!)");
  m.def("sigmoid.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("acos_(Tensor(a!) self) -> Tensor(a!)");
  m.def("sin_(Tensor(a!) self) -> Tensor(a!)");

  // Activations.
  m.def("relu(Tensor self) -> Tensor");
  m.def("relu_(Tensor(a!) self) -> Tensor(a!)");
  m.def("relu.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("gelu(Tensor self, *, str approximate='none') -> Tensor");
  m.def("gelu_(Tensor(a!) self, *, str approximate='none') -> Tensor(a!)");
  m.def("gelu.out(Tensor self, *, str approximate='none', Tensor(a!) out) -> Tensor(a!)");
  m.def("hardtanh(Tensor self, Scalar min_val=-1, Scalar max_val=1) -> Tensor");
  m.def("hardtanh_(Tensor(a!) self, Scalar min_val=-1, Scalar max_val=1) -> Tensor(a!)");
  m.def("hardtanh.out(Tensor self, Scalar min_val=-1, Scalar max_val=1, *, Tensor(a!) out) -> Tensor(a!)");

  // clamp with Scalar bounds and with (broadcast) Tensor bounds.
  m.def("clamp(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor");
  m.def("clamp.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor");
  m.def("clamp_(Tensor(a!) self, Scalar? min=None, Scalar? max=None) -> Tensor(a!)");
  m.def("clamp_.Tensor(Tensor(a!) self, Tensor? min=None, Tensor? max=None) -> Tensor(a!)");
  m.def("clamp.out(Tensor self, Scalar? min=None, Scalar? max=None, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("clamp.Tensor_out(Tensor self, Tensor? min=None, Tensor? max=None, *, Tensor(a!) out) -> Tensor(a!)");
}
