// The operators a program file (.pte) calls, and for each the kernel keys its calls need: what
// selective build registers for a program (`gen_selected_ops(... OPS_FROM_MODEL add.pte)`).
//
//   sy::codegen::OperatorSelection selection;
//   selection.include_all = false;
//   sy::codegen::selectProgramOperators("add.pte", schemas, selection);
//   // selection.operators == {"aten::add.out"},
//   // selection.kernel_keys["aten::add.out"] == {"v1/6;0,1|6;0,1|6;0,1"}
//
// Note [A program selects operators and the kernel keys of its calls]
// Every KernelCall of every method names an operator; its kernel key is made as the loader makes
// it at load time (See Note [Kernel calls resolve their kernel key at load] in program/kernel_call.h):
// one TensorMeta (dtype, dim order) per argument the schema types Tensor or Tensor? whose value is
// a tensor, in argument order. The schema is needed to tell arguments from the results that
// follow them, so an operator no schema defines is an error. The FlatBuffers data is verified
// before it is read and every index in it is checked, so a damaged file is an error naming it.
// Calls into delegates run no operator kernels and select nothing.
#pragma once

#include <string>

#include "switchyard/codegen/kernel_yaml.h"

namespace sy::codegen {

// Adds the operators the program at `path` calls, with their kernel keys, to `selection`, and the
// program to selection.programs. Raises CodegenError for an unreadable or damaged file and for an
// operator `schemas` does not define.
void selectProgramOperators(const std::string& path, const SchemaIndex& schemas, OperatorSelection& selection);

// Note [Selective build keeps the kernels a program's keys resolve to]
// For an operator whose kernel keys a program gave, each key keeps the kernel the loader would
// resolve it to: the kernel of exactly that key, else the operator's default kernel (for the
// library owning its operators, its kernel on the dispatch key). Kernels no key resolves to are
// not generated, so neither their registration nor (with --gc-sections) their code is in the
// program's executable. A key that resolves to nothing in the library that must serve it (the
// library owning its operators, or any library for an operator it defines with `func:`), and an
// operator the program calls in a namespace the owning library defines operators in that none
// of its YAML files has, are build errors naming the program, the operator, the key and the YAML:
// the program would fail to load. A kernel library's `op:` entry for another library's operator
// keeps nothing for such a key: that operator's own kernel (its portable CPU kernel) serves the
// call at load, as without the kernel library. An out variant's entry comes with the forms it
// derives (codegen/derived_forms.h), one kernel serving all three: selecting any of them keeps the
// entry, and a key given for a derived form is matched against the entry's keys less their outs.
//
// The operators `selection` selects from `library`, each with only the kernels the selection keeps.
// Raises CodegenError as the Note says.
KernelLibrary selectedKernels(const KernelLibrary& library, const OperatorSelection& selection);

}  // namespace sy::codegen
