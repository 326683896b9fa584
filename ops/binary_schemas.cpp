// The schemas of the binary elementwise operators (add, sub, mul, div, maximum, minimum), the
// comparisons (eq, ne, lt, gt) and where, spelled exactly as in PyTorch's native_functions.yaml.
// The `.Scalar_out` and `.Scalar_mode_out` forms are PyTorch's generated ("autogen") out variants
// of the Scalar overloads; their schemas are the ones PyTorch registers for them.
//
// add.Tensor, add.out, mul.Tensor and mul.out are defined in ops/aten_schemas.cpp. The kernels are
// in backends/cpu/{binary_ops,division_ops,comparison_ops,where_op}.cpp, the sy::ops helpers in
// ops/binary_ops.h.
#include "switchyard/dispatcher/library.h"

SY_LIBRARY_FRAGMENT(aten, m) {
  // add: self + alpha * other.
  m.def("add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor");
  m.def("add.Scalar_out(Tensor self, Scalar other, Scalar alpha=1, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)");
  m.def("add_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!)");

  // sub: self - alpha * other.
  m.def("sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
  m.def("sub.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)");
  m.def("sub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor");
  m.def("sub.Scalar_out(Tensor self, Scalar other, Scalar alpha=1, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("sub_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)");
  m.def("sub_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!)");

  // mul.
  m.def("mul.Scalar(Tensor self, Scalar other) -> Tensor");
  m.def("mul.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("mul_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)");
  m.def("mul_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)");

  // div: true division, or rounded with rounding_mode 'trunc' or 'floor'.
  m.def("div.Tensor(Tensor self, Tensor other) -> Tensor");
  m.def("div.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor");
  m.def("div.out_mode(Tensor self, Tensor other, *, str? rounding_mode, Tensor(a!) out) -> Tensor(a!)");
  m.def("div.Scalar(Tensor self, Scalar other) -> Tensor");
  m.def("div.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("div.Scalar_mode(Tensor self, Scalar other, *, str? rounding_mode) -> Tensor");
  m.def("div.Scalar_mode_out(Tensor self, Scalar other, *, str? rounding_mode, Tensor(a!) out) -> Tensor(a!)");
  m.def("div_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)");
  m.def("div_.Tensor_mode(Tensor(a!) self, Tensor other, *, str? rounding_mode) -> Tensor(a!)");
  m.def("div_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)");
  m.def("div_.Scalar_mode(Tensor(a!) self, Scalar other, *, str? rounding_mode) -> Tensor(a!)");

  // Elementwise maximum and minimum (NaN propagates).
  m.def("maximum(Tensor self, Tensor other) -> Tensor");
  m.def("maximum.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("minimum(Tensor self, Tensor other) -> Tensor");
  m.def("minimum.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)");

  // Comparisons: Bool results.
  m.def("eq.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("eq.Scalar(Tensor self, Scalar other) -> Tensor");
  m.def("eq.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("eq.Tensor(Tensor self, Tensor other) -> Tensor");
  m.def("eq_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)");
  m.def("eq_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)");
  m.def("ne.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("ne.Scalar(Tensor self, Scalar other) -> Tensor");
  m.def("ne.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("ne.Tensor(Tensor self, Tensor other) -> Tensor");
  m.def("ne_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)");
  m.def("ne_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)");
  m.def("lt.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("lt.Scalar(Tensor self, Scalar other) -> Tensor");
  m.def("lt.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("lt.Tensor(Tensor self, Tensor other) -> Tensor");
  m.def("lt_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)");
  m.def("lt_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)");
  m.def("gt.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("gt.Scalar(Tensor self, Scalar other) -> Tensor");
  m.def("gt.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("gt.Tensor(Tensor self, Tensor other) -> Tensor");
  m.def("gt_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)");
  m.def("gt_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)");

  // Selection.
  m.def("where.self(Tensor condition, Tensor self, Tensor other) -> Tensor");
  m.def("where.self_out(Tensor condition, Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("where.ScalarSelf(Tensor condition, Scalar self, Tensor other) -> Tensor");
  m.def("where.ScalarOther(Tensor condition, Tensor self, Scalar other) -> Tensor");
  m.def("where.Scalar(Tensor condition, Scalar self, Scalar other) -> Tensor");
}
