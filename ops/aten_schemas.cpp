// The schemas of the aten:: operators, spelled exactly as in PyTorch's native_functions.yaml so
// that kernels, boxed fallbacks and programs written against PyTorch see the same signatures.
//
// This is the namespace's one SY_LIBRARY block; operators added later may be defined here or in a
// SY_LIBRARY_FRAGMENT(aten, m) next to their kernels. Kernels live in backends/<backend>/, and the
// C++ convenience functions that call these operators in ops/ops.h.
#include "switchyard/dispatcher/library.h"

SY_LIBRARY(aten, m) {
  // Factories.
  m.def(
      "empty.memory_format(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
      "bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor");

  // Unary elementwise.
  m.def("acos(Tensor self) -> Tensor");
  m.def("acos.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("sin(Tensor self) -> Tensor");
  m.def("sin.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)");

  // Binary elementwise.
  m.def("add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
  m.def("add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)");
  m.def("mul.Tensor(Tensor self, Tensor other) -> Tensor");
  m.def("mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)");

  // Copies.
  m.def("copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)");
}
