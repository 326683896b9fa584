// The schemas of the indexing operators gather and scatter (value form), spelled exactly as in
// PyTorch's native_functions.yaml. ExecuTorch programs call the out= forms (gather.out,
// scatter.value_out). Kernels: backends/cpu/gather_scatter.cpp; C++ helpers: ops/index_ops.h.
#include "switchyard/dispatcher/library.h"

SY_LIBRARY_FRAGMENT(aten, m) {
  m.def("gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor");
  m.def("gather.out(Tensor self, int dim, Tensor index, *, bool sparse_grad=False, Tensor(a!) out) -> Tensor(a!)");
  m.def("scatter.value(Tensor self, int dim, Tensor index, Scalar value) -> Tensor");
  m.def("scatter.value_out(Tensor self, int dim, Tensor index, Scalar value, *, Tensor(a!) out) -> Tensor(a!)");
}
