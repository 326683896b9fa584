// The machinery the CPU reductions over a list of dimensions share (sum, mean, prod, amax, amin,
// max, min, any: reduction_ops.cpp and any_ops.cpp): which dims a call reduces and the shapes it
// produces, and the loop that folds self into one accumulator per result element. A reduction is a
// Fold (identity, combine, load; see SumFold in reduction_ops.cpp) run by foldInto.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>

#include "switchyard/backends/devices/cpu/dtype_dispatch.h"
#include "switchyard/backends/devices/cpu/elementwise.h"
#include "switchyard/ivalue/tensor.h"
#include "switchyard/ivalue/tensor_factories.h"
#include "switchyard/ivalue/wrap_dim.h"

namespace sy::cpu {

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

// An omitted dim list reduces every dimension, as does an empty one unless `empty_list_reduces_all`
// is false (any.dims: an empty list reduces nothing).
inline ReductionShape reductionShape(const char* op, const Tensor& self, std::optional<IntArrayRef> dims, bool keepdim,
                                     bool empty_list_reduces_all = true) {
  const int64_t ndim = self.dim();
  SY_CHECK(ndim <= 64, op, ": reductions support tensors of up to 64 dimensions, but 'self' has ", ndim);
  ReductionShape shape;
  if (!dims.has_value() || (dims->empty() && empty_list_reduces_all)) {
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
// outside `Allowed` (the reduction's own set), before anything is resized.
template <unsigned Allowed>
void checkKnownDtype(const char* op, const char* argument, ScalarType dtype) {
  dispatchDtype<Allowed>(dtype, op, argument, [](auto) {});
}



// Note [A reduction folds into its accumulator reshaped, not into a view]
// The folds read the accumulator with the keepdim sizes (the reduced dims kept as 1), while it has
// the result's: a view with those sizes was one TensorImpl allocated per call, in out kernels that
// must allocate nothing (ExecuTorch's rule for a method's execute). The accumulator is contiguous
// (out itself, or the kernel's scratch) and the two size lists have one element count, so for the
// fold it takes the keepdim sizes itself and gets its own back when the guard goes, even when an
// error leaves the fold early.
//
//   { const KeepdimSizes keep(acc, shape.keepdim_sizes); foldInto<...>(acc, input); }
class KeepdimSizes {
 public:
  KeepdimSizes(const Tensor& acc, IntArrayRef keepdim) : acc_(acc), sizes_(acc.sizes().begin(), acc.sizes().end()) {
    set(keepdim);
  }
  ~KeepdimSizes() { set(sizes_); }
  KeepdimSizes(const KeepdimSizes&) = delete;
  KeepdimSizes& operator=(const KeepdimSizes&) = delete;

 private:
  void set(IntArrayRef sizes) const {
    acc_.unsafeGetTensorImpl()->set_sizes_and_strides(sizes, contiguousStrides(sizes), acc_.storage_offset());
  }
  const Tensor& acc_;
  SizesVector sizes_;
};

// ---- Folds -------------------------------------------------------------------------------------

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
// already is one and does not share memory with the input, else a buffer of this thread's (See
// Note [A reduction's accumulator is reused, not allocated] in reduction_ops.cpp) or a fresh one.
// Its values are unspecified: the caller fills it.
Tensor accumulatorFor(const Tensor& out, const Tensor& input, ScalarType acc_dtype);

template <class Acc>
void fillContiguous(const Tensor& t, Acc value) {
  Acc* data = static_cast<Acc*>(t.data_ptr());
  std::fill(data, data + t.numel(), value);
}

// PyTorch's rule: a max over nothing has no value.
inline void checkNonEmptyReduction(const char* op, const Tensor& self, const ReductionShape& shape, bool dims_given) {
  if (self.numel() != 0) return;
  SY_CHECK(dims_given, op, ": Expected reduction dim to be specified for input.numel() == 0. Specify the reduction "
           "dim with the 'dim' argument.");
  for (int64_t d = 0; d < self.dim(); ++d) {
    SY_CHECK(!shape.isReduced(d) || self.size(d) != 0, op, ": Expected reduction dim ", d,
             " to have non-zero size.");
  }
}

}  // namespace sy::cpu
