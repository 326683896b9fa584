// _pdist_forward.out and _cdist_forward.out (+ their functional forms) on the CPU: the p-norm
// distances between rows, of one matrix among themselves (pdist) or of two batches of matrices
// against each other (cdist).
//
// Semantics (PyTorch's):
// - The distance of rows a and b is (sum |a_i - b_i|^p)^(1/p); p = 0 counts the differing
//   elements, p = inf takes the largest difference (NaN when any difference is NaN); p >= 0.
// - _pdist_forward: self is a 2-D (N, M) floating matrix; the result holds the N * (N - 1) / 2
//   distances of row pairs (i, j), i < j, in row-major order of the pairs (empty for N <= 1).
// - _cdist_forward: x1 (B..., P, M) and x2 (B..., R, M), floating and of one dtype, batch
//   dimensions broadcast; the result is (B..., P, R). compute_mode (None, 0, 1 or 2) chooses in
//   PyTorch whether p = 2 goes through a matrix product; here every distance is computed from the
//   differences, which mode 2 asks for and which modes None, 0 and 1 approximate.
// The result has the inputs' dtype, and an out= tensor must have it too. Sums are taken in double.
// The dtypes are the YAML's (linalg_ops.yaml: FLOATHBF16, ExecuTorch's): Half and BFloat16 rows are
// read as double too, and each distance is rounded once to the result's dtype.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "switchyard/backends/devices/cpu/dtype_dispatch.h"
#include "switchyard/backends/devices/cpu/elementwise.h"
#include "switchyard/backends/devices/cpu/rearrange.h"
#include "switchyard/ivalue/checked_size.h"
#include "switchyard/ops/creation_ops.h"
#include "switchyard/ops/linalg/NativeFunctions.h"

namespace sy::cpu {
namespace {

constexpr unsigned kPdistDtypes = native::_pdist_forward_out_cpu_dtypes;
constexpr unsigned kCdistDtypes = native::_cdist_forward_out_cpu_dtypes;

// The p-norm of the difference of rows a and b, m elements each, `a_step` and `b_step` apart.
template <class T>
double pairwiseRowDistance(const T* a, int64_t a_step, const T* b, int64_t b_step, int64_t m, double p) {
  double acc = 0;
  if (std::isinf(p)) {
    for (int64_t i = 0; i < m; ++i) {
      const double d = std::abs(static_cast<double>(a[i * a_step]) - static_cast<double>(b[i * b_step]));
      if (std::isnan(d) || d > acc) acc = d;
    }
    return acc;
  }
  for (int64_t i = 0; i < m; ++i) {
    const double d = std::abs(static_cast<double>(a[i * a_step]) - static_cast<double>(b[i * b_step]));
    if (p == 0) {
      acc += d != 0 ? 1 : 0;  // NaN != 0: a NaN difference counts
    } else if (p == 1) {
      acc += d;
    } else if (p == 2) {
      acc += d * d;
    } else {
      acc += std::pow(d, p);
    }
  }
  if (p == 0 || p == 1) return acc;
  return p == 2 ? std::sqrt(acc) : std::pow(acc, 1 / p);
}

// Allocates (functional) or checks and resizes (out=) the result of a distance kernel.
void preparePairwiseOut(const KernelContext& ctx, ScalarType dtype, IntArrayRef sizes, Tensor& out) {
  if (ctx.form == OutputForm::Functional) {
    out = ops::empty(sizes, TensorOptions(dtype).device(kCPU));
    return;
  }
  checkOnCPU(ctx.op, "out", out);
  SY_CHECK(out.scalar_type() == dtype, ctx.op, ": expected 'out' to have dtype ", dtype, " but got ",
           out.scalar_type());
  resizeOutput(out, sizes);
  checkNoInternalOverlap(ctx.op, out, "out");
}

void checkPairwiseP(const char* op, const char* which, double p) {
  SY_CHECK_VALUE(p >= 0, op, ": ", which, " only supports non-negative p values (got ", p, ")");
}

}  // namespace

namespace native {

Tensor& _pdist_forward_out_cpu(const Tensor& self, double p, Tensor& out, const KernelContext& ctx) {
  const char* op = ctx.op;
  checkOnCPU(op, "self", self);
  SY_CHECK(self.dim() == 2, op, ": pdist only supports 2D tensors, got: ", self.dim(), "D");
  checkDtypeSupported(op, "self", self.scalar_type(), kPdistDtypes);
  checkPairwiseP(op, "pdist", p);
  const int64_t n = self.size(0);
  const int64_t m = self.size(1);
  int64_t pairs = 0;
  if (n > 1) SY_CHECK_VALUE(checkedMul(n, n - 1, &pairs), op, ": ", n, " rows have more pairs than 64 bits hold");
  pairs /= 2;
  const int64_t sizes[1] = {pairs};
  const Tensor source = readableInputOf(op, self, out);
  preparePairwiseOut(ctx, self.scalar_type(), sizes, out);
  if (pairs == 0) return out;
  dispatchDtype<kPdistDtypes>(source.scalar_type(), op, "self", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* x = static_cast<const T*>(source.data_ptr());
    T* o = static_cast<T*>(out.data_ptr());
    const int64_t row = source.stride(0), col = source.stride(1), step = out.stride(0);
    int64_t k = 0;
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = i + 1; j < n; ++j, ++k) {
        o[k * step] = static_cast<T>(pairwiseRowDistance(x + i * row, col, x + j * row, col, m, p));
      }
    }
  });
  return out;
}

Tensor& _cdist_forward_out_cpu(const Tensor& x1, const Tensor& x2, double p, std::optional<int64_t> compute_mode,
                               Tensor& out, const KernelContext& ctx) {
  const char* op = ctx.op;
  checkOnCPU(op, "x1", x1);
  checkOnCPU(op, "x2", x2);
  checkDtypeSupported(op, "x1", x1.scalar_type(), kCdistDtypes);
  checkDtypeSupported(op, "x2", x2.scalar_type(), kCdistDtypes);
  SY_CHECK(x1.scalar_type() == x2.scalar_type(), op, ": X1 and X2 must have the same dtype, but got ",
           x1.scalar_type(), " and ", x2.scalar_type());
  SY_CHECK(x1.dim() >= 2, op, ": cdist only supports at least 2D tensors, X1 got: ", x1.dim(), "D");
  SY_CHECK(x2.dim() >= 2, op, ": cdist only supports at least 2D tensors, X2 got: ", x2.dim(), "D");
  const int64_t m = x1.size(-1);
  SY_CHECK(x2.size(-1) == m, op, ": X1 and X2 must have the same number of columns. X1: ", m, " X2: ", x2.size(-1));
  checkPairwiseP(op, "cdist", p);
  SY_CHECK_VALUE(!compute_mode.has_value() || (*compute_mode >= 0 && *compute_mode <= 2), op,
                 ": possible modes: None, 0, 1, 2, but was: ", compute_mode.value_or(0));
  const int64_t rows1 = x1.size(-2), rows2 = x2.size(-2);
  const SizesVector batch = broadcastShapes(op, {{"x1's batch", IntArrayRef(x1.sizes().data(), x1.dim() - 2)},
                                                 {"x2's batch", IntArrayRef(x2.sizes().data(), x2.dim() - 2)}});
  SizesVector sizes(batch.begin(), batch.end());
  sizes.push_back(rows1);
  sizes.push_back(rows2);
  checkedNumel(op, sizes);
  Tensor a = readableInputOf(op, x1, out);
  Tensor b = readableInputOf(op, x2, out);
  preparePairwiseOut(ctx, x1.scalar_type(), sizes, out);
  if (out.numel() == 0) return out;
  // Batch strides of x1, x2 and out over the broadcast batch (0 where an input has size 1 or lacks
  // the dimension).
  const int64_t nb = static_cast<int64_t>(batch.size());
  SizesVector a_batch(static_cast<size_t>(nb), 0), b_batch(static_cast<size_t>(nb), 0);
  for (int64_t d = 0; d < nb; ++d) {
    const int64_t da = d - (nb - (a.dim() - 2)), db = d - (nb - (b.dim() - 2));
    if (da >= 0 && a.size(da) != 1) a_batch[d] = a.stride(da);
    if (db >= 0 && b.size(db) != 1) b_batch[d] = b.stride(db);
  }
  dispatchDtype<kCdistDtypes>(a.scalar_type(), op, "x1", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* pa = static_cast<const T*>(a.data_ptr());
    const T* pb = static_cast<const T*>(b.data_ptr());
    T* po = static_cast<T*>(out.data_ptr());
    const int64_t a_row = a.stride(-2), a_col = a.stride(-1), b_row = b.stride(-2), b_col = b.stride(-1);
    const int64_t o_row = out.stride(-2), o_col = out.stride(-1);
    SizesVector index(static_cast<size_t>(nb), 0);
    int64_t a_base = 0, b_base = 0, o_base = 0;
    const int64_t batches = out.numel() / (rows1 * rows2);
    for (int64_t n = 0; n < batches; ++n) {
      for (int64_t i = 0; i < rows1; ++i) {
        for (int64_t j = 0; j < rows2; ++j) {
          po[o_base + i * o_row + j * o_col] =
              static_cast<T>(pairwiseRowDistance(pa + a_base + i * a_row, a_col, pb + b_base + j * b_row, b_col, m, p));
        }
      }
      for (int64_t d = nb - 1; d >= 0; --d) {
        a_base += a_batch[d];
        b_base += b_batch[d];
        o_base += out.stride(d);
        if (++index[d] < batch[d]) break;
        a_base -= index[d] * a_batch[d];
        b_base -= index[d] * b_batch[d];
        o_base -= index[d] * out.stride(d);
        index[d] = 0;
      }
    }
  });
  return out;
}

}  // namespace native
}  // namespace sy::cpu
