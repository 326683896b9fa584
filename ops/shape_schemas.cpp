// The schemas of the shape, view and copy operators, spelled exactly as in PyTorch's
// native_functions.yaml (views return their input's alias set `Tensor(a)`). Kernels:
// backends/cpu/view_ops.cpp and cat_ops.cpp; C++ helpers: ops/shape_ops.h.
//
// clone.out is one of PyTorch's generated ("autogen") out= forms; the cat.names overloads are
// left out because they take a Dimname, which Switchyard's schemas do not have.
#include "switchyard/dispatcher/library.h"

SY_LIBRARY_FRAGMENT(aten, m) {
  // Views.
  m.def("view(Tensor(a) self, SymInt[] size) -> Tensor(a)");
  m.def("reshape(Tensor(a) self, SymInt[] shape) -> Tensor(a)");
  m.def("permute(Tensor(a) self, int[] dims) -> Tensor(a)");
  m.def("transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)");
  m.def("unsqueeze(Tensor(a) self, int dim) -> Tensor(a)");
  m.def("squeeze(Tensor(a) self) -> Tensor(a)");
  m.def("squeeze.dim(Tensor(a) self, int dim) -> Tensor(a)");
  m.def("squeeze.dims(Tensor(a) self, int[] dim) -> Tensor(a)");
  m.def("expand(Tensor(a) self, SymInt[] size, *, bool implicit=False) -> Tensor(a)");
  m.def("slice.Tensor(Tensor(a) self, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) -> Tensor(a)");
  m.def("select.int(Tensor(a) self, int dim, SymInt index) -> Tensor(a)");

  // Copies.
  m.def("contiguous(Tensor(a) self, *, MemoryFormat memory_format=contiguous_format) -> Tensor(a)");
  m.def("clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor");
  m.def("clone.out(Tensor self, *, MemoryFormat? memory_format=None, Tensor(a!) out) -> Tensor(a!)");
  m.def("cat(Tensor[] tensors, int dim=0) -> Tensor");
  m.def("cat.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!)");
}
