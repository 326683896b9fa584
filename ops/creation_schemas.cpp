// The schemas of the creation operators, spelled exactly as in PyTorch's native_functions.yaml.
// Kernels: backends/cpu/creation_ops.cpp; C++ helpers: ops/creation_ops.h.
//
// The *_like.out and _to_copy.out forms are PyTorch's generated ("autogen") out= variants. The
// zeros/ones/full `.names` overloads are left out: they take Dimname[], which Switchyard's
// schemas do not have.
#include "switchyard/dispatcher/library.h"

SY_LIBRARY_FRAGMENT(aten, m) {
  m.def("zeros(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
        "bool? pin_memory=None) -> Tensor");
  m.def("zeros.out(SymInt[] size, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("ones(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
        "bool? pin_memory=None) -> Tensor");
  m.def("ones.out(SymInt[] size, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("full(SymInt[] size, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None, "
        "Device? device=None, bool? pin_memory=None) -> Tensor");
  m.def("full.out(SymInt[] size, Scalar fill_value, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("scalar_tensor(Scalar s, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
        "bool? pin_memory=None) -> Tensor");
  m.def("scalar_tensor.out(Scalar s, *, Tensor(a!) out) -> Tensor(a!)");

  m.def("arange(Scalar end, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
        "bool? pin_memory=None) -> Tensor");
  m.def("arange.start(Scalar start, Scalar end, *, ScalarType? dtype=None, Layout? layout=None, "
        "Device? device=None, bool? pin_memory=None) -> Tensor");
  m.def("arange.start_step(Scalar start, Scalar end, Scalar step=1, *, ScalarType? dtype=None, "
        "Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor");
  m.def("arange.out(Scalar end, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("arange.start_out(Scalar start, Scalar end, Scalar step=1, *, Tensor(a!) out) -> Tensor(a!)");

  m.def("empty_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
        "bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor");
  m.def("empty_like.out(Tensor self, *, MemoryFormat? memory_format=None, Tensor(a!) out) -> Tensor(a!)");
  m.def("zeros_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
        "bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor");
  m.def("zeros_like.out(Tensor self, *, MemoryFormat? memory_format=None, Tensor(a!) out) -> Tensor(a!)");
  m.def("ones_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
        "bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor");
  m.def("ones_like.out(Tensor self, *, MemoryFormat? memory_format=None, Tensor(a!) out) -> Tensor(a!)");
  m.def("full_like(Tensor self, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None, "
        "Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor");
  m.def("full_like.out(Tensor self, Scalar fill_value, *, MemoryFormat? memory_format=None, Tensor(a!) out) "
        "-> Tensor(a!)");

  m.def("_to_copy(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
        "bool? pin_memory=None, bool non_blocking=False, MemoryFormat? memory_format=None) -> Tensor");
  m.def("_to_copy.out(Tensor self, *, bool non_blocking=False, MemoryFormat? memory_format=None, Tensor(a!) out) "
        "-> Tensor(a!)");
}
