// The functional and in-place forms of an operator, derived from its out variant, as PyTorch's
// `structured_delegate` derives them: one YAML entry and one `.out` kernel make three operators.
//
//   - func: expm1.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
//     functional: true         # derives aten::expm1(Tensor self) -> Tensor
//     inplace: true            # derives aten::expm1_(Tensor(a!) self) -> Tensor(a!)
//     kernels: [{arg_meta: null, kernel_name: sy::cpu::expm1_out}]
//
//   - func: add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)
//     functional: add.Tensor   # an overload name the rule cannot derive is spelled out
//     inplace: add_.Tensor
//
//   - func: unbind_copy.int_out(Tensor self, int dim=0, *, Tensor(a!)[] out) -> ()
//     functional: unbind_copy.int                      # aten::unbind_copy.int(Tensor self, int dim=0) -> Tensor[]
//     functional_outs: sy::cpu::unbind_copy_int_outs   # how many outs, of what dtype: only the inputs tell
//
// The registrations are sy::functionalKernel and sy::inPlaceKernel (See Note [Functional and
// in-place forms call the out kernel] in dispatcher/derived_kernels.h).
#pragma once

#include <optional>
#include <string>

#include "switchyard/codegen/kernel_yaml.h"
#include "switchyard/dispatcher/function_schema.h"
#include "yaml-cpp/yaml.h"

namespace sy::codegen {

// The overload names the rule derives: `.out` gives the functional form no overload (`expm1`),
// `.X_out` gives `.X` (`add.Scalar_out` -> `add.Scalar`); anything else (`topk.values`,
// `max.dim_max`) has no derivable name and nullopt is returned.
std::optional<std::string> derivedOverloadName(const std::string& out_overload);

// Whether `schema` writes one list of outs and returns nothing, as ExecuTorch's splitting operators
// do: `split_copy.Tensor_out(Tensor self, SymInt split_size, int dim=0, *, Tensor(a!)[] out) -> ()`.
bool isListOutVariant(const FunctionSchema& schema);

// Whether `schema` is an out variant forms can be derived from: its written arguments are
// kwarg-only tensors at the end (at least one), and it returns exactly those, in order; or it is a
// list-out variant. Otherwise a sentence saying what is missing.
std::optional<std::string> whyNotAnOutVariant(const FunctionSchema& schema);

// The functional form: the out arguments dropped, one fresh `Tensor` returned per out argument
// (named as the out variant names its returns), or one `Tensor[]` for a list-out variant. `name` is "ns::op.overload" or "ns::op".
FunctionSchema functionalFormOf(const FunctionSchema& out_variant, const OperatorName& name);

// The in-place form: `self` written (`Tensor(a!) self`) and returned, the out argument dropped.
// Needs an out variant with one out argument whose first argument is `Tensor self`; otherwise
// raises sy::Error saying which.
FunctionSchema inplaceFormOf(const FunctionSchema& out_variant, const OperatorName& name);

// The names of the forms `entry` asks for, given its out variant's "ns::name.overload", without
// checking anything (readDerivedForms checks): for listing a file's operators.
std::vector<std::string> derivedFormNames(const YAML::Node& entry, const std::string& out_variant);

// The forms `entry`'s `functional:` and `inplace:` keys ask for (`true`, or the form's name when
// the rule cannot derive it), each checked: the entry must be an out variant, an in-place form
// needs `Tensor self` first and one out argument, a list-out variant's functional form needs
// `functional_outs:`. Raises CodegenError at the key's line.
std::vector<DerivedForm> readDerivedForms(const std::string& file, const YAML::Node& entry, const FunctionSchema& out_variant);

}  // namespace sy::codegen
