// The oracle's own references, for calls PyTorch 1.13 cannot answer (an operator it lacks, an
// out= form it does not have, semantics it has since changed). Each computes on Switchyard
// tensors directly (geometry and element copies, never Switchyard's kernels) or through PyTorch's
// operators (torchCall), so the expected outcome never comes from the code under test.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "switchyard/conformance/oracle/oracle_case.h"
#include "switchyard/conformance/oracle/oracle_outcome.h"
#include "switchyard/ivalue/tensor.h"

namespace sy::oracle {

// A view of `base`'s storage with the given geometry (what a view operator returns).
Tensor viewOf(const Tensor& base, const Shape& sizes, const Shape& strides, int64_t storage_offset);

// Resizes `out` to `values`' sizes (contiguous) when they differ, then writes `values` into it,
// converted to out's dtype: an out= kernel's effect.
void writeOut(const Tensor& out, const Tensor& values);

// The reference of an out= form whose functional form PyTorch has: calls `functional`
// ("aten::max_pool2d") on every argument but the trailing out, writes the result into out and
// returns out. Raises as PyTorch does.
Reference outOfFunctional(std::string functional);

// A copy of `t` converted to `dtype` (Bool: nonzero is true).
Tensor convertedTo(const Tensor& t, ScalarType dtype);

// Calls PyTorch's operator of the same name on the call's arguments after `before` rewrote them,
// lets `after` rewrite its results, then acts as the out= or in-place form would: a result that
// aliases an argument (schema.aliasedArgumentOfReturn) is written into the caller's argument and
// returned as it. With `functional` ("aten::max_pool2d"), calls that operator instead, without the
// out= arguments, and writes its results into them in order (each must have the out's dtype).
using ArgumentsEdit = std::function<void(std::vector<IValue>& arguments)>;
using ResultsEdit = std::function<void(const std::vector<IValue>& arguments, std::vector<IValue>& results)>;
// Note [PyTorch 1.13 answers for Half and BFloat16 on Float copies]
// PyTorch 1.13's CPU kernels lack Half (and some BFloat16) for many operators: "acos_vml_cpu" not
// implemented for 'Half'. Switchyard computes those dtypes in float and rounds each result once
// (See Note [Reduced-precision floats compute in float] in core/half.h), which is what PyTorch
// answers on Float copies of the Half and BFloat16 tensors with its Float results rounded back.
// The suite asks that whenever PyTorch refuses a call for lack of such a kernel, and so do the
// references built on throughPyTorch (a patched or edited PyTorch call). A Float result
// is rounded back when no input was Float or Double to begin with (so the Float came from the
// copies); out arguments go back to their own dtypes. ComplexHalf, which PyTorch 1.13's CPU kernels
// mostly lack too ("bmm" not implemented for 'ComplexHalf'), goes the same way through ComplexFloat
// (Switchyard computes it on ComplexFloat copies too, or moves its elements without computing).
bool lacksReducedFloatingKernel(const std::string& torch_error);
Outcome callTorchOnFloatCopies(const FunctionSchema& schema, const std::vector<IValue>& arguments);
// torchCall on Float copies of the Half and BFloat16 tensors, the results rounded back; and torchCall
// asked again so when PyTorch's kernel lacks the reduced dtype.
std::vector<IValue> torchCallOnFloatCopies(const std::string& op, const std::vector<IValue>& arguments);
std::vector<IValue> torchCallWithFloatCopies(const std::string& op, const std::vector<IValue>& arguments);

Reference throughPyTorch(ArgumentsEdit before, ResultsEdit after, std::string functional = "");

// For a dtype PyTorch 1.13's CPU kernel refuses but Switchyard takes: every tensor argument of a
// dtype in `from` is given to PyTorch as `as` and, when `results_back`, each tensor result of dtype
// `as` comes back in the dtype of the first argument converted (clamp of Bools as clamp of 0s and
// 1s, max_pool2d of Ints in Double).
Reference computedVia(Dtypes from, ScalarType as, bool results_back, std::string functional = "");

// PyTorch's result of an elementwise operator with element i replaced by patch(self[i], result[i])
// (gelu at the infinities: the limits where PyTorch's kernel gives NaN).
Reference patchedElementwise(std::function<double(double self, double result)> patch);

// squeeze.dims (PyTorch 2.0): drops each listed dimension (wrapped, so -1 is the last) whose size is
// 1; a 0-dim self accepts 0 and -1. A view of self.
Tensor squeezeDims(const Tensor& self, const std::vector<int64_t>& dims);

}  // namespace sy::oracle
