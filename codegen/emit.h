// The generated C++ for a kernel library, written into one output directory of the build tree:
//
//   RegisterSchema.cpp   SY_LIBRARY_FRAGMENT blocks defining the `func:` operators
//   NativeFunctions.h    the kernels the library must implement, e.g.
//                          namespace custom::native { ::sy::Tensor& scale_out(const ::sy::Tensor& self, double factor, ::sy::Tensor& out); }
//   RegisterKernels.cpp  one PartialKernelRegistry registration per kernel key
//   RegisterOperators.cpp  instead of the two above, for the library that owns its operators
//                        (--dispatch-key): schemas, default kernels on the key, partial kernels
//   Functions.h/.cpp     helpers for the `func:` operators in `<ns>::ops` (aten: sy::ops), out first
//                        as in sy::ops:  custom::ops::scale_out(out, self, 2.0); named as at::
//                        names them (overloads share a name; out variants end in _out)
//                        (none for an entry with `manual_cpp_binding: True`: its helper is hand-written)
//   TensorMethods.h      with `aten_api`: the sy::Tensor methods for the aten:: operators whose first
//                        argument is `Tensor self` (t.add(u), t.add_(u)), declarations included inside
//                        class Tensor (ivalue/tensor.h) and defined in Functions.cpp
//   Operators.h          with `aten_api`: one sy::_ops struct per aten:: operator (PyTorch's at::_ops:
//                        sy::_ops::add_Tensor::call(a, b, 1), ::redispatch(keys, ...))
//
// Every registration names its YAML file and line, so dispatcher errors and table dumps point at
// the YAML rather than at generated code. Kernel C++ types follow the CPU kernels' conventions
// (backends/devices/cpu/kernels.h): `const Tensor&`, `Tensor&` for written tensors, `int64_t`, `double`,
// `IntArrayRef`, `const std::optional<Tensor>&`, `std::string_view`, ...
#pragma once

#include <string>

#include "switchyard/codegen/kernel_yaml.h"

namespace sy::codegen {

// The C++ parameter type of a kernel argument, fully qualified.
std::string cppArgumentType(const Argument& argument);
// The C++ return type of an operator: void, ::sy::Tensor& (returns a written argument) or ::sy::Tensor.
std::string cppReturnType(const FunctionSchema& schema);
// "::sy::Tensor&(const ::sy::Tensor&, double, ::sy::Tensor&)"
std::string cppFunctionType(const FunctionSchema& schema);

struct GeneratedFiles {
  // The owning library (KernelLibrary::dispatch_key set) writes RegisterOperators.cpp instead of
  // RegisterSchema.cpp and RegisterKernels.cpp: one translation unit for the schemas and every
  // registration. See Note [A library's own operators register their default kernels on its dispatch key].
  bool owns_operators = false;
  std::string register_operators_cpp;
  std::string register_schema_cpp;
  std::string native_functions_h;
  std::string register_kernels_cpp;
  std::string functions_h;
  std::string functions_cpp;
  // Written only for the library's own operators (See Note [Tensor methods are generated with the
  // library], codegen/emit_functions.cpp): empty otherwise.
  std::string tensor_methods_h;
  std::string operators_h;
};
// `aten_api`: also the Tensor methods and _ops structs of the aten:: operators (`gen --aten-api`).
GeneratedFiles generate(const KernelLibrary& library, const OperatorSelection& selection, bool aten_api = false);

// Writes the files into `dir`, leaving files whose content is unchanged untouched (so the build
// does not recompile them).
void writeGeneratedFiles(const GeneratedFiles& files, const std::string& dir);

}  // namespace sy::codegen
