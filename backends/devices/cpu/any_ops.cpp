// any on the CPU: whether some element is nonzero, over every element (any.all_out), one dim
// (any.out) or a list of dims (any.dims_out).
//
// Semantics (PyTorch's): self of every computed dtype (NaN is nonzero); the result is Bool, except
// for a Byte self, whose result is Byte (1 or 0), as NumPy's and PyTorch's is; an out= tensor must
// be Bool (or Byte, for a Byte self); the empty any is False; dims may be negative, a dim given
// twice is an error, and keepdim keeps reduced dims as size 1. any.dims reduces every dim when
// `dim` is None and none when it is an empty list (PyTorch 2.2's rule, which ExecuTorch follows:
// the result is self != 0).
//
// The loop is the reductions' (See Note [Reductions fold the input in memory order]).
#include <optional>

#include "switchyard/backends/devices/cpu/reduction_fold.h"
#include "switchyard/backends/devices/cpu/reduction_kernels.h"
#include "switchyard/ops/creation_ops.h"

namespace sy::cpu {
namespace {

// Folds "is nonzero" with ||.
struct AnyFold {
  static constexpr bool kTracksNaN = false;
  static bool identity() { return false; }
  static bool combine(bool a, bool b) { return a || b; }
  static bool combineIgnoringNaN(bool a, bool b) { return a || b; }
  template <class In>
  static bool load(In x) {
    return x != In(0);
  }
};

// The three any overloads share their loop, so their entries declare one set of dtypes.
constexpr unsigned kAnyDtypes = native::any_out_cpu_dtypes;
static_assert(native::any_all_out_cpu_dtypes == kAnyDtypes && native::any_dims_out_cpu_dtypes == kAnyDtypes,
              "any.all_out, any.out and any.dims_out declare the same dtypes: in reduction_ops.yaml");

// any in the form `ctx` names: the functional form allocates `out` (Bool) first.
Tensor& anyInto(const KernelContext& ctx, const Tensor& self, std::optional<IntArrayRef> dims, bool keepdim,
                bool empty_list_reduces_all, Tensor& out) {
  const char* op = ctx.op;
  checkOnCPU(op, "self", self);
  checkKnownDtype<kAnyDtypes>(op, "self", self.scalar_type());
  const ReductionShape shape = reductionShape(op, self, dims, keepdim, empty_list_reduces_all);
  const bool byte = self.scalar_type() == ScalarType::Byte;
  if (ctx.form == OutputForm::Functional) {
    out = ops::empty(shape.result_sizes, TensorOptions(byte ? ScalarType::Byte : ScalarType::Bool).device(kCPU));
  }
  checkOnCPU(op, "out", out);
  SY_CHECK(out.scalar_type() == ScalarType::Bool || (byte && out.scalar_type() == ScalarType::Byte), op,
           ": expected 'out' to have dtype Bool", byte ? " or Byte" : "", " but got ", out.scalar_type());
  const Tensor input = unaffectedByResizeOf(out, self);
  resizeOutput(out, shape.result_sizes);
  checkNoInternalOverlap(op, out, "out");
  if (out.numel() == 0) return out;
  const Tensor acc = accumulatorFor(out, input, ScalarType::Bool);
  fillContiguous<bool>(acc, false);
  if (input.numel() != 0) {
    // See Note [A reduction folds into its accumulator reshaped, not into a view].
    const KeepdimSizes keep(acc, shape.keepdim_sizes);
    dispatchDtype<kAnyDtypes>(input.scalar_type(), op, "self", [&](auto tag) {
      foldInto<AnyFold, typename decltype(tag)::type, bool>(acc, input);
    });
  }
  if (!acc.is_same(out)) copyIntoCPU(op, out, acc, "out", "result");
  return out;
}

}  // namespace

// The kernels backends/devices/cpu/reduction_ops.yaml binds.
namespace native {

Tensor& any_all_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return anyInto(ctx, self, std::nullopt, false, true, out);
}
Tensor& any_out_cpu(const Tensor& self, int64_t dim, bool keepdim, Tensor& out, const KernelContext& ctx) {
  return anyInto(ctx, self, IntArrayRef(&dim, 1), keepdim, true, out);
}
Tensor& any_dims_out_cpu(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim, Tensor& out,
                         const KernelContext& ctx) {
  return anyInto(ctx, self, dim, keepdim, /*empty_list_reduces_all=*/false, out);
}

}  // namespace native
}  // namespace sy::cpu
