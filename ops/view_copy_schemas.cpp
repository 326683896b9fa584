// The schemas of the copying twins of the view operators that ExecuTorch's edge dialect uses
// (PyTorch's native_functions.yaml spells them; ExecuTorch calls only the out= forms), and of
// ExecuTorch's dim_order_ops namespace (exir/passes/dim_order_ops_registry.py), spelled exactly
// as upstream so that exported programs resolve them by name and overload.
//
// Kernels: backends/cpu/view_copy_ops.cpp and dim_order_ops.cpp; C++ helpers: ops/view_copy_ops.h.
#include "switchyard/dispatcher/library.h"

SY_LIBRARY_FRAGMENT(aten, m) {
  m.def("view_copy.out(Tensor self, SymInt[] size, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("permute_copy.out(Tensor self, int[] dims, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("expand_copy.out(Tensor self, SymInt[] size, *, bool implicit=False, Tensor(a!) out) -> Tensor(a!)");
  m.def("squeeze_copy.dims_out(Tensor self, int[] dim, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("unsqueeze_copy.out(Tensor self, int dim, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("alias_copy.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("select_copy.int_out(Tensor self, int dim, SymInt index, *, Tensor(a!) out) -> Tensor(a!)");
  m.def(
      "slice_copy.Tensor_out(Tensor self, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1, *, "
      "Tensor(a!) out) -> Tensor(a!)");
  m.def("transpose_copy.int_out(Tensor self, int dim0, int dim1, *, Tensor(a!) out) -> Tensor(a!)");
}

SY_LIBRARY(dim_order_ops, m) {
  m.def(
      "_to_dim_order_copy.out(Tensor self, *, bool non_blocking=False, int[]? dim_order=None, Tensor(a!) out) -> "
      "Tensor(a!)");
  m.def(
      "_clone_dim_order.out(Tensor self, *, bool non_blocking=False, int[]? dim_order=None, Tensor(a!) out) -> "
      "Tensor(a!)");
}
