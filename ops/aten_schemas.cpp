// The schemas of the aten:: operators, spelled exactly as in PyTorch's native_functions.yaml so
// that kernels, boxed fallbacks and programs written against PyTorch see the same signatures, and
// the SY_LIBRARY blocks of the namespaces whose operators Switchyard defines (aten, and
// ExecuTorch's dim_order_ops).
//
// This is the namespace's one SY_LIBRARY block; every other operator is defined from backends/devices/cpu/*.yaml
// (see Note [The aten:: operators are generated from their kernel YAML] in ops/CMakeLists.txt).
// empty.memory_format stays here, with its CPU kernel registered by hand in backends/devices/cpu/empty.cpp:
// every functional operator allocates through it, and a kernel registered in its own translation
// unit is inlined into the dispatcher's trampoline (a generated registration would add the jump
// measured in codegen/emit.cpp: see Note [Owned kernels bind directly inside their library]). Its
// helper, sy::ops::empty, takes TensorOptions (ops/creation_ops.cpp). resize_ is here too: its C++
// signature is PyTorch's, `const Tensor&(const Tensor& self, ...)` (only self's TensorImpl changes;
// PyTorch's use_const_ref_for_mutable_tensors), which a device backend's kernel is written with,
// where generated kernels take a written tensor as `Tensor&`. Its CPU kernel is in
// backends/devices/cpu/empty.cpp, its helper sy::ops::resize_ in ops/tensor_methods.cpp.
#include "switchyard/dispatcher/library.h"

SY_LIBRARY(aten, m) {
  // Factories.
  m.def(
      "empty.memory_format(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
      "bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor");
  m.def("resize_(Tensor(a!) self, SymInt[] size, *, MemoryFormat? memory_format=None) -> Tensor(a!)");
}

// ExecuTorch's dim-order copies are defined as fragments from view_copy_ops.yaml; this empty block
// owns their namespace, so another SY_LIBRARY(dim_order_ops) is the duplicate-library error (with
// both sites), as a second TORCH_LIBRARY(aten) is in PyTorch.
SY_LIBRARY(dim_order_ops, m) { static_cast<void>(m); }
