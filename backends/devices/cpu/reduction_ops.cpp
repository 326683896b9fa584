// Reductions over a list of dimensions on the CPU: sum, mean, prod, amax and amin, and max() and
// min() of a whole tensor. (any is in any_ops.cpp; argmax, argmin and max/min along a dim, which
// keep an index, in arg_reduction_ops.cpp.)
//
// Semantics (PyTorch's):
//  - dims may be negative; a dim given twice is an error; an omitted or empty dim list reduces
//    every dimension; a 0-dim tensor accepts dim 0 or -1. keepdim keeps reduced dims as size 1.
//  - sum: the result dtype is `dtype` when given, else (out= forms) out's dtype, else self's dtype
//    with Bool and integral inputs widened to Long. The input is converted to the result dtype
//    first (sum(float, dtype=Long) truncates each element), integer sums wrap around, Bool
//    results are "any nonzero". The empty sum is 0.
//  - mean: sum / count in a floating dtype; integral inputs without a floating `dtype` are an
//    error. The empty mean is NaN.
//  - prod: as sum, with products (the empty product is 1); prod.int_out reduces one dim.
//  - var, var_mean: Float and Double only, outs of self's dtype; the squared deviations from the
//    mean divided by max(0, N - correction) (unbiased=True is correction 1); empty gives NaN.
//  - amax, amin, max(), min(): every dtype, NaN wins; out must have self's dtype; an empty
//    reduction is an error.
// Floating sums accumulate in double and integral ones in 64 bits, so a Float sum is correctly
// rounded in practice and an Int sum equals the wrapped exact sum.
//
// How the loop runs: see Note [Reductions fold the input in memory order].
#include <algorithm>
#include <array>
#include <limits>
#include <tuple>
#include <type_traits>

#include "switchyard/backends/devices/cpu/elementwise.h"
#include "switchyard/backends/devices/cpu/reduction_fold.h"
#include "switchyard/backends/devices/cpu/reduction_kernels.h"
#include "switchyard/ivalue/wrap_dim.h"
#include "switchyard/ops/creation_ops.h"

namespace sy::cpu {
namespace {

// Integral sums accumulate in uint64_t: wrap-around is defined there, and conversion from any
// signed value is the two's-complement one, so the low bits equal the exact sum's.
template <class Acc>
struct SumFold {
  static constexpr bool kTracksNaN = false;
  static Acc identity() { return Acc(0); }
  static Acc combine(Acc a, Acc b) { return a + b; }
  static Acc combineIgnoringNaN(Acc a, Acc b) { return a + b; }
  template <class In>
  static Acc load(In x) {
    if constexpr (std::is_same_v<Acc, uint64_t> && std::is_signed_v<In>) {
      return static_cast<uint64_t>(static_cast<int64_t>(x));
    } else {
      return static_cast<Acc>(x);
    }
  }
};

// Products wrap as sums do (uint64_t multiplication keeps the low bits of the exact product).
template <class Acc>
struct ProdFold {
  static constexpr bool kTracksNaN = false;
  static Acc identity() { return Acc(1); }
  static Acc combine(Acc a, Acc b) { return a * b; }
  static Acc combineIgnoringNaN(Acc a, Acc b) { return a * b; }
  template <class In>
  static Acc load(In x) {
    return SumFold<Acc>::load(x);
  }
};

// max (kMax) or min of T; Bool's max is "any", its min "all".
template <class T, bool kMax>
struct ExtremumFold {
  // Floating extrema can track NaN apart from the comparisons (see foldRow).
  static constexpr bool kTracksNaN = is_floating_v<T>;
  static T identity() {
    if constexpr (is_floating_v<T>) {
      return static_cast<T>(kMax ? -static_cast<float>(std::numeric_limits<T>::infinity())
                                 : static_cast<float>(std::numeric_limits<T>::infinity()));
    }
    return kMax ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
  }
  static T combineIgnoringNaN(T a, T b) {
    if constexpr (std::is_same_v<T, bool>) {
      return kMax ? (a || b) : (a && b);
    } else {
      return (kMax ? b > a : b < a) ? b : a;
    }
  }
  // NaN is sticky: once either side is NaN, the result is.
  static T combine(T a, T b) {
    if constexpr (is_floating_v<T>) {
      if (b != b) return b;
    }
    return combineIgnoringNaN(a, b);
  }
  static T load(T x) { return x; }
};

// ---- sum and mean ------------------------------------------------------------------------------

enum class SumKind { kSum, kMean, kProd };

ScalarType sumDefaultDtype(ScalarType self) {
  return isIntegralType(self, /*include_bool=*/true) ? ScalarType::Long : self;
}

void checkMeanDtype(const char* op, const Tensor& self, std::optional<ScalarType> dtype) {
  const ScalarType requested = dtype.value_or(self.scalar_type());
  SY_CHECK(isFloatingType(requested), op, ": could not infer output dtype. ", dtype ? "Optional" : "Input",
           " dtype must be either a floating point or complex dtype. Got: ", requested);
}

// Note [A reduction's accumulator is reused, not allocated]
// sum and mean of Float add in a Double accumulator the size of the result, and any of a Byte self
// in a Bool one: a fresh tensor each call was three allocations (the tensor, its storage, its
// bytes) in every execute of a program that takes a mean (mean_eq_where), where ExecuTorch's rule
// is that a method allocates nothing while it executes. The accumulator is out itself when out
// has the accumulator's dtype, else this thread's scratch (see Note [Kernel scratch is reused,
// not allocated] in scratch_tensor.h), given the result's sizes.

}  // namespace

Tensor accumulatorFor(const Tensor& out, const Tensor& input, ScalarType acc_dtype) {
  if (out.scalar_type() == acc_dtype && out.is_contiguous() && !sameMemory(out, input)) return out;
  return scratchTensor("accumulator", out.sizes(), acc_dtype);
}

namespace {

// Note [Complex sums add in ComplexDouble]
// ExecuTorch's portable sum.IntList_out takes ComplexHalf, ComplexFloat and ComplexDouble, with out
// of self's dtype. PyTorch's sum converts self to the result's dtype first, so a real self sums into
// a complex dtype= with zero imaginary parts, and a complex self into a real dtype= as its real
// parts (the real path, after that conversion). Both parts add in double, as the real sums do
// (see Note [Reductions fold the input in memory order]), and are rounded once into out.
Tensor& complexSumInto(const char* op, const Tensor& self, std::optional<IntArrayRef> dims, bool keepdim, Tensor& out) {
  const ScalarType result = out.scalar_type();
  const ReductionShape shape = reductionShape(op, self, dims, keepdim);
  const Tensor source = unaffectedByResizeOf(out, self);
  resizeOutput(out, shape.result_sizes);
  checkNoInternalOverlap(op, out, "out");
  if (out.numel() == 0) return out;
  const Tensor input = convertedTo(op, "self", source, result);
  const Tensor acc = accumulatorFor(out, input, ScalarType::ComplexDouble);
  using Acc = Complex<double>;
  fillContiguous<Acc>(acc, Acc());
  {
    // See Note [A reduction folds into its accumulator reshaped, not into a view].
    const KeepdimSizes keep(acc, shape.keepdim_sizes);
    switch (input.scalar_type()) {
      case ScalarType::ComplexHalf: foldInto<SumFold<Acc>, Complex<Half>, Acc>(acc, input); break;
      case ScalarType::ComplexFloat: foldInto<SumFold<Acc>, Complex<float>, Acc>(acc, input); break;
      default: foldInto<SumFold<Acc>, Acc, Acc>(acc, input); break;
    }
  }
  if (!acc.is_same(out)) copyIntoCPU(op, out, acc, "out", "result");
  return out;
}

// The whole out= operation of sum and mean; `op` names the operator in errors.
// sum or mean in the form `ctx` names: the functional form allocates `out` (one dispatched
// aten::empty, of `dtype` or sum's default for self) and then computes into it as into an out=.
// A real `self` must have one of `Dtypes`, the kernel's generated `<kernel>_dtypes`.
template <unsigned Dtypes>
Tensor& sumInto(const KernelContext& ctx, SumKind kind, const Tensor& self, std::optional<IntArrayRef> dims,
                bool keepdim, std::optional<ScalarType> dtype, Tensor& out) {
  const char* op = ctx.op;
  if (ctx.form == OutputForm::Functional) {
    checkOnCPU(op, "self", self);
    if (kind == SumKind::kMean) checkMeanDtype(op, self, dtype);
    const ReductionShape shape = reductionShape(op, self, dims, keepdim);
    const ScalarType result = dtype.value_or(sumDefaultDtype(self.scalar_type()));
    out = ops::empty(shape.result_sizes, TensorOptions(result).device(kCPU));
  }
  checkOnCPU(op, "self", self);
  checkOnCPU(op, "out", out);
  if (kind == SumKind::kMean) checkMeanDtype(op, self, dtype);
  SY_CHECK(!dtype.has_value() || out.scalar_type() == *dtype, op, ": expected 'out' to have dtype ", *dtype,
           " (the requested dtype) but got ", out.scalar_type());
  const ScalarType result = out.scalar_type();
  SY_CHECK(kind != SumKind::kMean || isFloatingType(result), op,
           ": expected 'out' to have a floating dtype (Float or Double) but got ", result);
  if (kind == SumKind::kSum && isComplexType(result)) return complexSumInto(op, self, dims, keepdim, out);
  // A complex self summed into a real dtype is its real parts' sum, as PyTorch converts it first.
  if (kind != SumKind::kSum || !isComplexType(self.scalar_type())) {
    checkKnownDtype<Dtypes>(op, "self", self.scalar_type());
  }
  const ReductionShape shape = reductionShape(op, self, dims, keepdim);
  const Tensor source = unaffectedByResizeOf(out, self);
  resizeOutput(out, shape.result_sizes);
  checkNoInternalOverlap(op, out, "out");
  if (out.numel() == 0) return out;

  // Floating results accumulate in Double; integral and Bool results in Long (read as uint64_t).
  // Integral inputs are read as they are for integral results (the wrapped sum is the same);
  // anything else is converted to the result dtype first, as PyTorch does.
  const bool floating = isFloatingType(result);
  const ScalarType acc_dtype = floating ? ScalarType::Double : ScalarType::Long;
  const bool read_directly = !floating && result != ScalarType::Bool && isIntegralType(self.scalar_type(), true);
  const Tensor input = convertedTo(op, "self", source, read_directly ? source.scalar_type() : result);

  const Tensor acc = accumulatorFor(out, input, acc_dtype);
  // See Note [A reduction folds into its accumulator reshaped, not into a view].
  std::optional<KeepdimSizes> keep;
  keep.emplace(acc, shape.keepdim_sizes);
  if (floating) {
    // dtype set: the dtype the input was converted to (the result's).
    dispatchDtype<kWideFloatingDtypes>(input.scalar_type(), op, "self", [&](auto tag) {
      using In = typename decltype(tag)::type;
      if (kind == SumKind::kProd) {
        fillContiguous<double>(acc, 1.0);
        foldInto<ProdFold<double>, In, double>(acc, input);
      } else {
        fillContiguous<double>(acc, 0.0);
        foldInto<SumFold<double>, In, double>(acc, input);
      }
    });
    if (kind == SumKind::kMean) {
      // An empty mean is 0 / 0 = NaN, as in PyTorch.
      const double count = static_cast<double>(shape.reduced_numel);
      double* data = static_cast<double*>(acc.data_ptr());
      for (int64_t i = 0; i < acc.numel(); ++i) data[i] /= count;
    }
  } else {
    // dtype set: the dtype the input was converted to (the result's).
    dispatchDtype<kBoolDtype | kWideIntegralDtypes>(input.scalar_type(), op, "self", [&](auto tag) {
      using In = typename decltype(tag)::type;
      if (kind == SumKind::kProd) {
        fillContiguous<uint64_t>(acc, 1);
        foldInto<ProdFold<uint64_t>, In, uint64_t>(acc, input);
      } else {
        fillContiguous<uint64_t>(acc, 0);
        foldInto<SumFold<uint64_t>, In, uint64_t>(acc, input);
      }
    });
  }
  keep.reset();
  if (!acc.is_same(out)) copyIntoCPU(op, out, acc, "out", "result");
  return out;
}

// The functional forms: one dispatched allocation, then the out= implementation called directly.
// ---- amax and amin ------------------------------------------------------------------------------


// amax (kMax) or amin in the form `ctx` names, over `dims` (every dim when empty): the functional
// form allocates `out` (self's dtype) once the reduction is known to have values.
template <bool kMax, unsigned Dtypes>
Tensor& extremumInto(const KernelContext& ctx, const Tensor& self, IntArrayRef dims, bool keepdim, Tensor& out) {
  const char* op = ctx.op;
  if (ctx.form == OutputForm::Functional) {
    checkOnCPU(op, "self", self);
    const ReductionShape shape = reductionShape(op, self, dims, keepdim);
    checkNonEmptyReduction(op, self, shape, !dims.empty());
    out = ops::empty(shape.result_sizes, TensorOptions(self.scalar_type()).device(kCPU));
  }
  checkOnCPU(op, "self", self);
  checkOnCPU(op, "out", out);
  checkKnownDtype<Dtypes>(op, "self", self.scalar_type());
  SY_CHECK(out.scalar_type() == self.scalar_type(), op, ": expected 'out' to have the dtype of 'self' (",
           self.scalar_type(), ") but got ", out.scalar_type());
  const ReductionShape shape = reductionShape(op, self, dims, keepdim);
  checkNonEmptyReduction(op, self, shape, !dims.empty());
  const Tensor input = unaffectedByResizeOf(out, self);
  resizeOutput(out, shape.result_sizes);
  checkNoInternalOverlap(op, out, "out");
  if (out.numel() == 0) return out;
  const Tensor acc = accumulatorFor(out, input, input.scalar_type());
  {
    // See Note [A reduction folds into its accumulator reshaped, not into a view].
    const KeepdimSizes keep(acc, shape.keepdim_sizes);
    dispatchDtype<Dtypes>(input.scalar_type(), op, "self", [&](auto tag) {
      using T = typename decltype(tag)::type;
      fillContiguous<T>(acc, ExtremumFold<T, kMax>::identity());
      foldInto<ExtremumFold<T, kMax>, T, T>(acc, input);
    });
  }
  if (!acc.is_same(out)) copyIntoCPU(op, out, acc, "out", "result");
  return out;
}


// ---- var and var_mean --------------------------------------------------------------------------

// var and var_mean share their loop, so their entries declare one set of dtypes.
constexpr unsigned kVarianceDtypes = native::var_out_cpu_dtypes;
static_assert(native::var_correction_out_cpu_dtypes == kVarianceDtypes &&
                  native::var_mean_correction_out_cpu_dtypes == kVarianceDtypes,
              "var.out, var.correction_out and var_mean.correction_out declare the same dtypes: in reduction_ops.yaml");

// The variance (and mean) of self over `dims` into `var_out` (and `mean_out`), both of self's
// floating dtype: the mean folds first, then the squared deviations from it (two passes, both in
// double), divided by max(0, N - correction).
void varianceInto(const KernelContext& ctx, const Tensor& self, std::optional<IntArrayRef> dims, double correction,
                  bool keepdim, Tensor& var_out, Tensor* mean_out) {
  const char* op = ctx.op;
  checkOnCPU(op, "self", self);
  SY_CHECK(isFloatingType(self.scalar_type()), op, ": std and var only support floating point dtypes, but 'self' has ",
           self.scalar_type());
  const ReductionShape shape = reductionShape(op, self, dims, keepdim);
  if (ctx.form == OutputForm::Functional) {
    var_out = ops::empty(shape.result_sizes, TensorOptions(self.scalar_type()).device(kCPU));
    if (mean_out != nullptr) *mean_out = ops::empty(shape.result_sizes, TensorOptions(self.scalar_type()).device(kCPU));
  }
  Tensor source = unaffectedByResizeOf(var_out, self);
  if (mean_out != nullptr) source = unaffectedByResizeOf(*mean_out, source);
  for (Tensor* out : {&var_out, mean_out}) {
    if (out == nullptr) continue;
    checkOnCPU(op, "out", *out);
    SY_CHECK(out->scalar_type() == self.scalar_type(), op, ": expected 'out' to have the dtype of 'self' (",
             self.scalar_type(), ") but got ", out->scalar_type());
    resizeOutput(*out, shape.result_sizes);
    checkNoInternalOverlap(op, *out, "out");
  }
  if (var_out.numel() == 0) return;
  const Tensor mean = scratchTensor(op, shape.result_sizes, ScalarType::Double);
  const Tensor squares = scratchTensor(op, shape.result_sizes, ScalarType::Double);
  // See Note [A reduction folds into its accumulator reshaped, not into a view].
  std::optional<KeepdimSizes> keep_mean, keep_squares;
  keep_mean.emplace(mean, shape.keepdim_sizes);
  keep_squares.emplace(squares, shape.keepdim_sizes);
  fillContiguous<double>(mean, 0.0);
  fillContiguous<double>(squares, 0.0);
  const double count = static_cast<double>(shape.reduced_numel);
  dispatchDtype<kVarianceDtypes>(source.scalar_type(), op, "self", [&](auto tag) {
    using T = typename decltype(tag)::type;
    foldInto<SumFold<double>, T, double>(mean, source);
    double* m = static_cast<double*>(mean.data_ptr());
    for (int64_t i = 0; i < mean.numel(); ++i) m[i] /= count;
    const LoopGeometry geometry = makeLoopGeometry({&source, &mean, &squares});
    forEachRow<3>(geometry, [](const std::array<char*, 3>& data, const std::array<int64_t, 3>& strides, int64_t n) {
      for (int64_t i = 0; i < n; ++i) {
        const double x = static_cast<double>(loadElement(reinterpret_cast<const T*>(data[0] + i * strides[0])));
        const double deviation = x - *reinterpret_cast<const double*>(data[1] + i * strides[1]);
        *reinterpret_cast<double*>(data[2] + i * strides[2]) += deviation * deviation;
      }
    });
  });
  keep_mean.reset();
  keep_squares.reset();
  const double divisor = std::max(0.0, count - correction);
  double* sq = static_cast<double*>(squares.data_ptr());
  for (int64_t i = 0; i < squares.numel(); ++i) sq[i] /= divisor;
  copyIntoCPU(op, var_out, squares, "out", "result");
  if (mean_out != nullptr) copyIntoCPU(op, *mean_out, mean, "out", "result");
}

// var's `correction` (an int or a float; None is 1, Bessel's correction).
double varianceCorrection(const std::optional<Scalar>& correction) {
  return correction.has_value() ? correction->toDouble() : 1.0;
}

}  // namespace

// The kernels backends/devices/cpu/reduction_ops.yaml binds.
namespace native {

Tensor& sum_out_cpu(const Tensor& self, std::optional<ScalarType> dtype, Tensor& out, const KernelContext& ctx) {
  return sumInto<sum_out_cpu_dtypes>(ctx, SumKind::kSum, self, std::nullopt, false, dtype, out);
}
Tensor& sum_IntList_out_cpu(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
                            std::optional<ScalarType> dtype, Tensor& out, const KernelContext& ctx) {
  return sumInto<sum_IntList_out_cpu_dtypes>(ctx, SumKind::kSum, self, dim, keepdim, dtype, out);
}

Tensor& mean_dtype_out_cpu(const Tensor& self, std::optional<ScalarType> dtype, Tensor& out, const KernelContext& ctx) {
  return sumInto<mean_dtype_out_cpu_dtypes>(ctx, SumKind::kMean, self, std::nullopt, false, dtype, out);
}
Tensor& mean_out_cpu(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim, std::optional<ScalarType> dtype,
                     Tensor& out, const KernelContext& ctx) {
  return sumInto<mean_out_cpu_dtypes>(ctx, SumKind::kMean, self, dim, keepdim, dtype, out);
}

Tensor& prod_out_cpu(const Tensor& self, std::optional<ScalarType> dtype, Tensor& out, const KernelContext& ctx) {
  return sumInto<prod_out_cpu_dtypes>(ctx, SumKind::kProd, self, std::nullopt, false, dtype, out);
}
Tensor& prod_int_out_cpu(const Tensor& self, int64_t dim, bool keepdim, std::optional<ScalarType> dtype, Tensor& out,
                         const KernelContext& ctx) {
  return sumInto<prod_int_out_cpu_dtypes>(ctx, SumKind::kProd, self, IntArrayRef(&dim, 1), keepdim, dtype, out);
}

Tensor& amax_out_cpu(const Tensor& self, IntArrayRef dim, bool keepdim, Tensor& out, const KernelContext& ctx) {
  return extremumInto<true, amax_out_cpu_dtypes>(ctx, self, dim, keepdim, out);
}
Tensor& amin_out_cpu(const Tensor& self, IntArrayRef dim, bool keepdim, Tensor& out, const KernelContext& ctx) {
  return extremumInto<false, amin_out_cpu_dtypes>(ctx, self, dim, keepdim, out);
}
// max() and min() of every element: amax and amin over every dim.
Tensor& max_unary_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return extremumInto<true, max_unary_out_cpu_dtypes>(ctx, self, {}, false, out);
}
Tensor& min_unary_out_cpu(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  return extremumInto<false, min_unary_out_cpu_dtypes>(ctx, self, {}, false, out);
}


Tensor& var_out_cpu(const Tensor& self, std::optional<IntArrayRef> dim, bool unbiased, bool keepdim, Tensor& out,
                    const KernelContext& ctx) {
  varianceInto(ctx, self, dim, unbiased ? 1.0 : 0.0, keepdim, out, nullptr);
  return out;
}
Tensor& var_correction_out_cpu(const Tensor& self, std::optional<IntArrayRef> dim,
                               const std::optional<Scalar>& correction, bool keepdim, Tensor& out,
                               const KernelContext& ctx) {
  varianceInto(ctx, self, dim, varianceCorrection(correction), keepdim, out, nullptr);
  return out;
}
std::tuple<Tensor&, Tensor&> var_mean_correction_out_cpu(const Tensor& self, std::optional<IntArrayRef> dim,
                                                         const std::optional<Scalar>& correction, bool keepdim,
                                                         Tensor& out0, Tensor& out1, const KernelContext& ctx) {
  varianceInto(ctx, self, dim, varianceCorrection(correction), keepdim, out0, &out1);
  return {out0, out1};
}

}  // namespace native
}  // namespace sy::cpu
