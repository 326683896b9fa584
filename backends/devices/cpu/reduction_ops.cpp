// Reductions over a list of dimensions on the CPU: sum, mean and amax. (argmax, which reduces one
// dimension and keeps an index, lives with softmax in softmax_ops.cpp.)
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
//  - amax: every dtype, NaN wins; out must have self's dtype; an empty reduction is an error.
// Floating sums accumulate in double and integral ones in 64 bits, so a Float sum is correctly
// rounded in practice and an Int sum equals the wrapped exact sum.
//
// How the loop runs: see Note [Reductions fold the input in memory order].
#include <algorithm>
#include <limits>
#include <type_traits>

#include "switchyard/backends/devices/cpu/elementwise.h"
#include "switchyard/backends/devices/cpu/reduction_kernels.h"
#include "switchyard/ivalue/wrap_dim.h"
#include "switchyard/ops/creation_ops.h"

namespace sy::cpu {
namespace {

// Note [Reductions fold the input in memory order]
// The accumulators form a contiguous tensor of self's "keepdim" shape (size 1 on reduced dims).
// Broadcast against self, it has stride 0 along the reduced dims, so one LoopGeometry over
// (self, accumulators) ordered by self's strides visits self in memory order: a row along a
// reduced dim folds into one accumulator (a sum in registers), a row along a kept dim folds
// elementwise into a row of accumulators (sum over dim 0 of a matrix adds whole rows). Either way
// self is streamed once, whatever its layout, and the loops are plain pointer loops.

// Which dimensions a reduction folds, and the shapes it produces.
struct ReductionShape {
  uint64_t reduced = 0;       // bit d: dimension d is reduced
  SizesVector keepdim_sizes;  // self's sizes with reduced dims set to 1
  SizesVector result_sizes;   // keepdim_sizes without the reduced dims, unless keepdim
  int64_t reduced_numel = 1;  // how many elements fold into each result element
  bool isReduced(int64_t d) const { return ((reduced >> d) & 1u) != 0; }
};

ReductionShape reductionShape(const char* op, const Tensor& self, std::optional<IntArrayRef> dims, bool keepdim) {
  const int64_t ndim = self.dim();
  SY_CHECK(ndim <= 64, op, ": reductions support tensors of up to 64 dimensions, but 'self' has ", ndim);
  ReductionShape shape;
  if (!dims.has_value() || dims->empty()) {
    shape.reduced = ndim == 64 ? ~uint64_t{0} : (uint64_t{1} << ndim) - 1;
  } else {
    for (int64_t dim : *dims) {
      const int64_t d = wrapDim(dim, ndim, op);
      SY_CHECK(!shape.isReduced(d), op, ": dim ", d, " appears multiple times in the list of dims");
      shape.reduced |= uint64_t{1} << d;
    }
  }
  for (int64_t d = 0; d < ndim; ++d) {
    const bool reduced = shape.isReduced(d);
    if (reduced) shape.reduced_numel *= self.size(d);
    shape.keepdim_sizes.push_back(reduced ? 1 : self.size(d));
    if (!reduced || keepdim) shape.result_sizes.push_back(reduced ? 1 : self.size(d));
  }
  return shape;
}


// Raises the dtype visitors' "has dtype X, which this kernel does not support" for a dtype
// outside Bool, Int, Long, Float and Double, before anything is resized.
void checkKnownDtype(const char* op, const char* argument, ScalarType dtype) {
  SY_DISPATCH_ALL_TYPES(dtype, op, argument, [](auto) {});
}



// A view of the contiguous tensor `t` with other sizes of the same element count (inserting or
// dropping size-1 dims).
Tensor viewWithSizes(const Tensor& t, IntArrayRef sizes) {
  return viewOf(t, sizes, contiguousStrides(sizes), t.storage_offset());
}

// ---- Folds -------------------------------------------------------------------------------------

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

template <class T>
struct MaxFold {
  // Floating maxima can track NaN apart from the comparisons (see foldRow).
  static constexpr bool kTracksNaN = std::is_floating_point_v<T>;
  static T identity() {
    if constexpr (std::is_floating_point_v<T>) return -std::numeric_limits<T>::infinity();
    return std::numeric_limits<T>::lowest();
  }
  // NaN is sticky: once either side is NaN, the result is.
  static T combine(T a, T b) {
    if constexpr (std::is_same_v<T, bool>) {
      return a || b;
    } else if constexpr (std::is_floating_point_v<T>) {
      return (b > a || b != b) ? b : a;
    } else {
      return b > a ? b : a;
    }
  }
  static T combineIgnoringNaN(T a, T b) {
    if constexpr (std::is_same_v<T, bool>) return a || b;
    return b > a ? b : a;
  }
  static T load(T x) { return x; }
};

// Folds `n` elements `stride` bytes apart into one value. A contiguous row is folded into eight
// independent lanes: a lane-wise fold is not a reduction, so the compiler can run the fixed inner
// loops as vector operations without reassociating anything, and long floating sums stay more
// accurate than with one running total. A NaN-sticky fold (floating max) compares without NaN
// checks and records NaNs in integer lanes instead, which keeps those loops branch-free.
template <class Fold, class In, class Acc>
Acc foldRow(const char* data, int64_t stride, int64_t n) {
  Acc acc = Fold::identity();
  if (stride == static_cast<int64_t>(sizeof(In))) {
    constexpr int kLanes = 8;
    const In* in = reinterpret_cast<const In*>(data);
    Acc lanes[kLanes];
    int32_t nan_lanes[kLanes] = {};
    for (int l = 0; l < kLanes; ++l) lanes[l] = Fold::identity();
    int64_t i = 0;
    for (; i + kLanes <= n; i += kLanes) {
      for (int l = 0; l < kLanes; ++l) lanes[l] = Fold::combineIgnoringNaN(lanes[l], Fold::load(loadElement(in + i + l)));
      if constexpr (Fold::kTracksNaN) {
        for (int l = 0; l < kLanes; ++l) nan_lanes[l] |= in[i + l] != in[i + l];
      }
    }
    for (; i < n; ++i) acc = Fold::combine(acc, Fold::load(loadElement(in + i)));
    for (int l = 0; l < kLanes; ++l) acc = Fold::combine(acc, lanes[l]);
    if constexpr (Fold::kTracksNaN) {
      for (int l = 0; l < kLanes; ++l) {
        if (nan_lanes[l] != 0) return std::numeric_limits<Acc>::quiet_NaN();
      }
    }
    return acc;
  }
  for (int64_t i = 0; i < n; ++i) {
    acc = Fold::combine(acc, Fold::load(loadElement(reinterpret_cast<const In*>(data + i * stride))));
  }
  return acc;
}

// Folds every element of `input` (C++ type In) into its accumulator in `acc_keepdim` (type Acc,
// input's keepdim shape). See Note [Reductions fold the input in memory order].
template <class Fold, class In, class Acc>
void foldInto(const Tensor& acc_keepdim, const Tensor& input) {
  const LoopGeometry geometry = makeLoopGeometry({&input, &acc_keepdim});
  forEachRow<2>(geometry, [](const std::array<char*, 2>& data, const std::array<int64_t, 2>& strides, int64_t n) {
    Acc* acc = reinterpret_cast<Acc*>(data[1]);
    if (strides[1] == 0) {
      *acc = Fold::combine(*acc, foldRow<Fold, In, Acc>(data[0], strides[0], n));
    } else if (strides[0] == static_cast<int64_t>(sizeof(In)) && strides[1] == static_cast<int64_t>(sizeof(Acc))) {
      const In* in = reinterpret_cast<const In*>(data[0]);
      for (int64_t i = 0; i < n; ++i) acc[i] = Fold::combine(acc[i], Fold::load(loadElement(in + i)));
    } else {
      for (int64_t i = 0; i < n; ++i) {
        Acc& a = *reinterpret_cast<Acc*>(data[1] + i * strides[1]);
        a = Fold::combine(a, Fold::load(loadElement(reinterpret_cast<const In*>(data[0] + i * strides[0]))));
      }
    }
  });
}

// The accumulator tensor (result shape, contiguous, dtype acc_dtype): `out` itself when it
// already is one and does not share memory with the input, else a fresh buffer.
Tensor accumulatorFor(const Tensor& out, const Tensor& input, ScalarType acc_dtype) {
  if (out.scalar_type() == acc_dtype && out.is_contiguous() && !sameMemory(out, input)) return out;
  return sy::empty(out.sizes(), acc_dtype);
}

template <class Acc>
void fillContiguous(const Tensor& t, Acc value) {
  Acc* data = static_cast<Acc*>(t.data_ptr());
  std::fill(data, data + t.numel(), value);
}

// ---- sum and mean ------------------------------------------------------------------------------

enum class SumKind { kSum, kMean };

ScalarType sumDefaultDtype(ScalarType self) {
  return isIntegralType(self, /*include_bool=*/true) ? ScalarType::Long : self;
}

void checkMeanDtype(const char* op, const Tensor& self, std::optional<ScalarType> dtype) {
  const ScalarType requested = dtype.value_or(self.scalar_type());
  SY_CHECK(isFloatingType(requested), op, ": could not infer output dtype. ", dtype ? "Optional" : "Input",
           " dtype must be either a floating point or complex dtype. Got: ", requested);
}

// The whole out= operation of sum and mean; `op` names the operator in errors.
// sum or mean in the form `ctx` names: the functional form allocates `out` (one dispatched
// aten::empty, of `dtype` or sum's default for self) and then computes into it as into an out=.
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
  SY_CHECK(kind == SumKind::kSum || isFloatingType(result), op,
           ": expected 'out' to have a floating dtype (Float or Double) but got ", result);
  checkKnownDtype(op, "self", self.scalar_type());
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
  const Tensor acc_keepdim = viewWithSizes(acc, shape.keepdim_sizes);
  if (floating) {
    fillContiguous<double>(acc, 0.0);
    SY_DISPATCH_FLOATING_TYPES(input.scalar_type(), op, "self", [&](auto tag) {
      foldInto<SumFold<double>, typename decltype(tag)::type, double>(acc_keepdim, input);
    });
    if (kind == SumKind::kMean) {
      // An empty mean is 0 / 0 = NaN, as in PyTorch.
      const double count = static_cast<double>(shape.reduced_numel);
      double* data = static_cast<double*>(acc.data_ptr());
      for (int64_t i = 0; i < acc.numel(); ++i) data[i] /= count;
    }
  } else {
    fillContiguous<uint64_t>(acc, 0);
    dispatchDtype<kBoolDtype | kIntegralDtypes>(input.scalar_type(), op, "self", [&](auto tag) {
      foldInto<SumFold<uint64_t>, typename decltype(tag)::type, uint64_t>(acc_keepdim, input);
    });
  }
  if (!acc.is_same(out)) copyIntoCPU(op, out, acc, "out", "result");
  return out;
}

// The functional forms: one dispatched allocation, then the out= implementation called directly.
// ---- amax --------------------------------------------------------------------------------------

// PyTorch's rule: a max over nothing has no value.
void checkNonEmptyReduction(const char* op, const Tensor& self, const ReductionShape& shape, bool dims_given) {
  if (self.numel() != 0) return;
  SY_CHECK(dims_given, op, ": Expected reduction dim to be specified for input.numel() == 0. Specify the reduction "
           "dim with the 'dim' argument.");
  for (int64_t d = 0; d < self.dim(); ++d) {
    SY_CHECK(!shape.isReduced(d) || self.size(d) != 0, op, ": Expected reduction dim ", d,
             " to have non-zero size.");
  }
}

// amax in the form `ctx` names: the functional form allocates `out` (self's dtype) once the
// reduction is known to have values.
Tensor& amaxInto(const KernelContext& ctx, const Tensor& self, IntArrayRef dims, bool keepdim, Tensor& out) {
  const char* op = ctx.op;
  if (ctx.form == OutputForm::Functional) {
    checkOnCPU(op, "self", self);
    const ReductionShape shape = reductionShape(op, self, dims, keepdim);
    checkNonEmptyReduction(op, self, shape, !dims.empty());
    out = ops::empty(shape.result_sizes, TensorOptions(self.scalar_type()).device(kCPU));
  }
  checkOnCPU(op, "self", self);
  checkOnCPU(op, "out", out);
  checkKnownDtype(op, "self", self.scalar_type());
  SY_CHECK(out.scalar_type() == self.scalar_type(), op, ": expected 'out' to have the dtype of 'self' (",
           self.scalar_type(), ") but got ", out.scalar_type());
  const ReductionShape shape = reductionShape(op, self, dims, keepdim);
  checkNonEmptyReduction(op, self, shape, !dims.empty());
  const Tensor input = unaffectedByResizeOf(out, self);
  resizeOutput(out, shape.result_sizes);
  checkNoInternalOverlap(op, out, "out");
  if (out.numel() == 0) return out;
  const Tensor acc = accumulatorFor(out, input, input.scalar_type());
  const Tensor acc_keepdim = viewWithSizes(acc, shape.keepdim_sizes);
  SY_DISPATCH_ALL_TYPES(input.scalar_type(), op, "self", [&](auto tag) {
    using T = typename decltype(tag)::type;
    fillContiguous<T>(acc, MaxFold<T>::identity());
    foldInto<MaxFold<T>, T, T>(acc_keepdim, input);
  });
  if (!acc.is_same(out)) copyIntoCPU(op, out, acc, "out", "result");
  return out;
}

}  // namespace

// The kernels backends/devices/cpu/reduction_ops.yaml binds.
namespace native {

Tensor& sum_out_cpu(const Tensor& self, std::optional<ScalarType> dtype, Tensor& out, const KernelContext& ctx) {
  return sumInto(ctx, SumKind::kSum, self, std::nullopt, false, dtype, out);
}
Tensor& sum_IntList_out_cpu(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
                            std::optional<ScalarType> dtype, Tensor& out, const KernelContext& ctx) {
  return sumInto(ctx, SumKind::kSum, self, dim, keepdim, dtype, out);
}

Tensor& mean_dtype_out_cpu(const Tensor& self, std::optional<ScalarType> dtype, Tensor& out, const KernelContext& ctx) {
  return sumInto(ctx, SumKind::kMean, self, std::nullopt, false, dtype, out);
}
Tensor& mean_out_cpu(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim, std::optional<ScalarType> dtype,
                     Tensor& out, const KernelContext& ctx) {
  return sumInto(ctx, SumKind::kMean, self, dim, keepdim, dtype, out);
}

Tensor& amax_out_cpu(const Tensor& self, IntArrayRef dim, bool keepdim, Tensor& out, const KernelContext& ctx) {
  return amaxInto(ctx, self, dim, keepdim, out);
}

}  // namespace native
}  // namespace sy::cpu
