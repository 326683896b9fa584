// The functional, out= and view forms of an operator, found through the schemas the dispatcher
// holds rather than through a table of names.
//
//   std::optional<sy::OperatorHandle> out = sy::export_::findOutVariant(relu.schema());  // aten::relu.out
//   std::optional<sy::OperatorHandle> f = sy::export_::findFunctionalVariant(add_.schema());  // aten::add.Tensor
//
// Note [Operator variants are matched by schema]
// Two schemas are variants of one another when their leading arguments agree one for one (same
// names and types, ignoring list sizes, defaults, kwarg-only markers and alias annotations) and
// the rest is what the variant adds:
// - the out variant of `ns::f.o` is an operator `ns::f.*` whose arguments are f's followed by
//   one kwarg-only written Tensor per return of f (`add.Tensor` -> `add.out`, `softmax.int` ->
//   `softmax.int_out`, `sum.dim_IntList` -> `sum.IntList_out`); a view operator's out variant is
//   named `ns::f_copy.*` (`view` -> `view_copy.out`, `transpose.int` -> `transpose_copy.int_out`),
//   since a view's result shares memory with its input and an out= form must not;
// - the functional form of an in-place `ns::f_.o` is `ns::f.o` with the same arguments, and that
//   of an out variant `ns::f.o_out` is the `ns::f.*` whose out variant it is.
// Ambiguity (two candidates) is an error naming both, never a silent pick.
#pragma once

#include <optional>

#include "switchyard/dispatcher/function_schema.h"
#include "switchyard/dispatcher/operator_handle.h"

namespace sy::export_ {

// Whether `schema` returns a view of one of its arguments (a return aliased to an argument that
// it does not write: `view(Tensor(a) self, ...) -> Tensor(a)`).
bool isViewOperator(const FunctionSchema& schema);
// Whether `schema` writes any argument (in-place or out=).
bool isMutatingOperator(const FunctionSchema& schema);

// The out= variant of a functional or view operator; nullopt when the dispatcher has none.
std::optional<OperatorHandle> findOutVariant(const FunctionSchema& functional);
// The functional form of an in-place or out= operator; nullopt when the dispatcher has none.
std::optional<OperatorHandle> findFunctionalVariant(const FunctionSchema& mutating);

}  // namespace sy::export_
