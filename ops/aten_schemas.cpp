// The schemas of the aten:: operators, spelled exactly as in PyTorch's native_functions.yaml so
// that kernels, boxed fallbacks and programs written against PyTorch see the same signatures.
//
// This is the namespace's one SY_LIBRARY block; most operators are defined from ops/*.yaml (see
// Note [The aten:: operators are generated from ops/*.yaml] in ops/CMakeLists.txt), the rest in
// SY_LIBRARY_FRAGMENT(aten, m) blocks of the *_schemas.cpp files. Kernels live in backends/<backend>/, and the
// C++ convenience functions that call these operators in ops/ops.h.
#include "switchyard/dispatcher/library.h"

SY_LIBRARY(aten, m) {
  // Factories.
  m.def(
      "empty.memory_format(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
      "bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor");

  // Copies.
  m.def("copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)");
}
