// Matrix products on the CPU: mm, bmm, addmm (and addmm_), plus the composite linear / linear.out.
//
// Semantics (PyTorch's): the real dtypes but Bool, and for bmm the complex ones too; all operands
// share one dtype and out= must have it; integer products wrap around. addmm computes beta * self + alpha * (mat1 @ mat2) with
// self broadcast to the result; beta = 0 ignores self entirely (its NaNs do not propagate);
// floating beta or alpha with integral tensors is an error. An inner dimension of 0 gives zeros
// (or beta * self). linear(input, weight, bias) = input @ weight.T + bias over any leading batch
// dims of input (a 1-D input is one row); bias must broadcast to the output.
//
// See Note [Matrix product loop orders].
#include <algorithm>
#include <cstring>
#include <string>

#include "switchyard/backends/devices/cpu/elementwise.h"
#include "switchyard/backends/devices/cpu/linalg_kernels.h"
#include "switchyard/dispatcher/derived_kernels.h"
#include "switchyard/dispatcher/library.h"
#include "switchyard/ops/binary_ops.h"
#include "switchyard/ops/creation_ops.h"
#include "switchyard/ops/linalg_ops.h"
#include "switchyard/ops/shape_ops.h"

namespace sy::cpu {
namespace {

// Note [Matrix product loop orders]
// C (contiguous) accumulates alpha * A @ B in one of two loop orders, chosen by B's layout:
//  - B's rows contiguous: i-k-j. Each step adds a scaled row of B to a row of C, a vectorisable
//    pointer loop; k is unrolled by four so each pass over C's row folds in four rows of B.
//    Blocking j (4 KB of C's row stays in L1) and k (a 64-row tile of B stays in L2) keeps B
//    from being re-read from memory for every row of C.
//  - B's columns contiguous (a transposed matrix such as linear's weight.T): i-j-k, a dot product
//    of A's row with B's column, both contiguous, blocked so a tile of B's columns stays in L2.
// Any other B (and, for the second order, an A whose rows are not contiguous) is copied first.
// Integer matrices run in the unsigned type of the same width, where wrap-around is defined.

template <class T> struct WrappingTwin { using type = T; };
template <> struct WrappingTwin<int8_t> { using type = uint8_t; };
template <> struct WrappingTwin<int16_t> { using type = uint16_t; };
template <> struct WrappingTwin<int32_t> { using type = uint32_t; };
template <> struct WrappingTwin<int64_t> { using type = uint64_t; };

template <class T>
void productRowsOfB(int64_t M, int64_t N, int64_t K, T alpha, const T* A, int64_t a_row, int64_t a_col, const T* B,
                    int64_t b_row, T* C) {
  constexpr int64_t kColumnBlock = 4096 / static_cast<int64_t>(sizeof(T));
  constexpr int64_t kDepthBlock = 64;
  for (int64_t j0 = 0; j0 < N; j0 += kColumnBlock) {
    const int64_t nj = std::min(kColumnBlock, N - j0);
    for (int64_t k0 = 0; k0 < K; k0 += kDepthBlock) {
      const int64_t k_end = std::min(K, k0 + kDepthBlock);
      for (int64_t i = 0; i < M; ++i) {
        T* __restrict c = C + i * N + j0;
        const T* a = A + i * a_row;
        int64_t k = k0;
        for (; k + 4 <= k_end; k += 4) {
          const T a0 = alpha * a[k * a_col], a1 = alpha * a[(k + 1) * a_col];
          const T a2 = alpha * a[(k + 2) * a_col], a3 = alpha * a[(k + 3) * a_col];
          const T* __restrict b0 = B + k * b_row + j0;
          const T* __restrict b1 = b0 + b_row;
          const T* __restrict b2 = b1 + b_row;
          const T* __restrict b3 = b2 + b_row;
          for (int64_t j = 0; j < nj; ++j) c[j] += a0 * b0[j] + a1 * b1[j] + a2 * b2[j] + a3 * b3[j];
        }
        for (; k < k_end; ++k) {
          const T ak = alpha * a[k * a_col];
          const T* __restrict b = B + k * b_row + j0;
          for (int64_t j = 0; j < nj; ++j) c[j] += ak * b[j];
        }
      }
    }
  }
}

template <class T>
T dot(const T* __restrict a, const T* __restrict b, int64_t n) {
  T s0{}, s1{}, s2{}, s3{};
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    s0 += a[i] * b[i];
    s1 += a[i + 1] * b[i + 1];
    s2 += a[i + 2] * b[i + 2];
    s3 += a[i + 3] * b[i + 3];
  }
  for (; i < n; ++i) s0 += a[i] * b[i];
  return (s0 + s1) + (s2 + s3);
}

// A's rows and B's columns contiguous: element (k, j) of B is at B[j * b_col + k].
template <class T>
void productColumnsOfB(int64_t M, int64_t N, int64_t K, T alpha, const T* A, int64_t a_row, const T* B, int64_t b_col,
                       T* C) {
  constexpr int64_t kDepthBlock = 1024;
  constexpr int64_t kColumnBlock = 32;
  for (int64_t k0 = 0; k0 < K; k0 += kDepthBlock) {
    const int64_t nk = std::min(kDepthBlock, K - k0);
    for (int64_t j0 = 0; j0 < N; j0 += kColumnBlock) {
      const int64_t j_end = std::min(N, j0 + kColumnBlock);
      for (int64_t i = 0; i < M; ++i) {
        const T* a = A + i * a_row + k0;
        T* c = C + i * N;
        for (int64_t j = j0; j < j_end; ++j) c[j] += alpha * dot(a, B + j * b_col + k0, nk);
      }
    }
  }
}

bool rowsContiguous(const Tensor& t) { return t.size(-1) == 1 || t.stride(-1) == 1; }
bool columnsContiguous(const Tensor& t) { return t.size(-2) == 1 || t.stride(-2) == 1; }
bool isZero(const Scalar& s) { return s.isFloatingPoint() ? s.toDouble() == 0.0 : s.toLong() == 0; }

template <class U>
U scalarAs(const Scalar& s) {
  if constexpr (is_floating_v<U>) return s.to<U>();
  return static_cast<U>(s.toLong());  // wraps, like the products
}

// Note [Complex matrix products are bmm's alone]
// ExecuTorch's portable bmm takes ComplexHalf, ComplexFloat and ComplexDouble (mm and addmm do
// not), so Switchyard's does. Each element is a dot product added in order of k in the dtype's own
// precision, as PyTorch's CPU bmm for small matrices computes it, with c10::complex's product
// (core/complex.h); ComplexHalf computes on ComplexFloat copies and rounds once.
void complexProductInto(const char* op, const Tensor& dst, const Tensor& a, const Tensor& b) {
  if (dst.scalar_type() == ScalarType::ComplexHalf) {
    const Tensor wide = scratchTensor(op, dst.sizes(), ScalarType::ComplexFloat);
    complexProductInto(op, wide, convertedTo(op, "self", a, ScalarType::ComplexFloat),
                       convertedTo(op, "mat2", b, ScalarType::ComplexFloat));
    copyIntoCPU(op, dst, wide, "out", "result");
    return;
  }
  const auto multiply = [&](auto zero) {
    using C = decltype(zero);
    const C* A = static_cast<const C*>(a.data_ptr());
    const C* B = static_cast<const C*>(b.data_ptr());
    C* out = static_cast<C*>(dst.data_ptr());
    const int64_t batches = dst.dim() == 3 ? dst.size(0) : 1, M = a.size(-2), K = a.size(-1), N = b.size(-1);
    const int64_t a_batch = a.dim() == 3 ? a.stride(0) : 0, b_batch = b.dim() == 3 ? b.stride(0) : 0;
    const int64_t a_row = a.stride(-2), a_col = a.stride(-1), b_row = b.stride(-2), b_col = b.stride(-1);
    for (int64_t batch = 0; batch < batches; ++batch) {
      for (int64_t i = 0; i < M; ++i) {
        for (int64_t j = 0; j < N; ++j) {
          C acc = zero;
          for (int64_t k = 0; k < K; ++k) {
            acc += A[batch * a_batch + i * a_row + k * a_col] * B[batch * b_batch + k * b_row + j * b_col];
          }
          *out++ = acc;
        }
      }
    }
  };
  if (dst.scalar_type() == ScalarType::ComplexFloat) {
    multiply(Complex<float>());
  } else {
    SY_CHECK(dst.scalar_type() == ScalarType::ComplexDouble, op, ": no complex product of dtype ", dst.scalar_type());
    multiply(Complex<double>());
  }
}

// dst (contiguous, [M, N] or [batches, M, N]) = beta * self (broadcast; nothing when self is
// null or beta is 0) + alpha * mat1 @ mat2.
void productInto(const char* op, const Tensor& dst, const Tensor* self, const Tensor& mat1, const Tensor& mat2,
                 const Scalar& beta, const Scalar& alpha) {
  if (isComplexType(dst.scalar_type())) {
    // Only bmm gets here (See Note [Complex matrix products are bmm's alone]): no self, alpha 1.
    complexProductInto(op, dst, mat1, mat2);
    return;
  }
  if (isReducedFloatingType(dst.scalar_type())) {
    // See Note [Accumulating kernels compute reduced floats on Float copies] in elementwise.h.
    const Tensor wide = scratchTensor(op, dst.sizes(), ScalarType::Float);
    const Tensor wide_self = self != nullptr ? convertedTo(op, "self", *self, ScalarType::Float) : Tensor();
    productInto(op, wide, self != nullptr ? &wide_self : nullptr, convertedTo(op, "mat1", mat1, ScalarType::Float),
                convertedTo(op, "mat2", mat2, ScalarType::Float), beta, alpha);
    copyIntoCPU(op, dst, wide, "out", "result");
    return;
  }
  Tensor a = mat1, b = mat2;
  if (!rowsContiguous(b) && !columnsContiguous(b)) b = contiguousCopyIfNeeded(op, "mat2", b);
  const bool b_rows = rowsContiguous(b);
  if (!b_rows && !rowsContiguous(a)) a = contiguousCopyIfNeeded(op, "mat1", a);
  const bool batched = dst.dim() == 3;
  const int64_t batches = batched ? dst.size(0) : 1;
  const int64_t M = a.size(-2), K = a.size(-1), N = b.size(-1);
  // dtype set: the compute dtype: Half and BFloat16 products compute on Float copies.
  dispatchDtype<kWideIntegralDtypes | kFullFloatingDtypes>(dst.scalar_type(), op, "self", [&](auto tag) {
    using U = typename WrappingTwin<typename decltype(tag)::type>::type;
    U* C = static_cast<U*>(dst.data_ptr());
    if (self == nullptr || isZero(beta)) {
      std::fill(C, C + dst.numel(), U{});
    } else {
      const U scale = scalarAs<U>(beta);
      runElementwise<U, U>(makeLoopGeometry({&dst, self}), [scale](U x) { return scale * x; });
    }
    if (K == 0) return;
    const U scale = scalarAs<U>(alpha);
    const U* A = static_cast<const U*>(a.data_ptr());
    const U* B = static_cast<const U*>(b.data_ptr());
    for (int64_t batch = 0; batch < batches; ++batch) {
      const U* Ab = A + (batched ? batch * a.stride(0) : 0);
      const U* Bb = B + (batched ? batch * b.stride(0) : 0);
      U* Cb = C + batch * M * N;
      if (b_rows) {
        productRowsOfB<U>(M, N, K, scale, Ab, a.stride(-2), a.stride(-1), Bb, b.stride(-2), Cb);
      } else {
        productColumnsOfB<U>(M, N, K, scale, Ab, a.stride(-2), Bb, b.stride(-1), Cb);
      }
    }
  });
}

// ---- Argument checks -----------------------------------------------------------------------------

// "2x3", as PyTorch's shape-mismatch messages spell sizes.
std::string shapeText(const Tensor& t) {
  std::string text;
  for (int64_t d = 0; d < t.dim(); ++d) text += (d == 0 ? "" : "x") + std::to_string(t.size(d));
  return text;
}

void checkDims(const char* op, const char* name, const Tensor& t, int64_t dims) {
  SY_CHECK(t.dim() == dims, op, ": expected '", name, "' to be a ", dims, "-D tensor but got a ", t.dim(),
           "-D tensor");
}

bool broadcastsTo(IntArrayRef from, IntArrayRef to) {
  if (from.size() > to.size()) return false;
  for (size_t i = 0; i < from.size(); ++i) {
    const int64_t f = from[from.size() - 1 - i];
    if (f != 1 && f != to[to.size() - 1 - i]) return false;
  }
  return true;
}

// Checks two matrix operands (dims 2, or 3 for bmm) of one of the kernel's `declared` dtypes (its
// generated `<kernel>_dtypes`) and returns the result sizes.
SizesVector checkProductOperands(const char* op, unsigned declared, const char* name1, const Tensor& m1,
                                 const char* name2, const Tensor& m2, int64_t dims) {
  checkOnCPU(op, name1, m1);
  checkOnCPU(op, name2, m2);
  checkDims(op, name1, m1, dims);
  checkDims(op, name2, m2, dims);
  // See Note [Complex matrix products are bmm's alone]: bmm's entry declares the complex dtypes.
  checkDtypeSupported(op, name1, m1.scalar_type(), declared);
  SY_CHECK(m1.scalar_type() == m2.scalar_type(), op, ": expected '", name1, "' and '", name2,
           "' to have the same dtype, but got ", m1.scalar_type(), " and ", m2.scalar_type());
  if (dims == 3) {
    SY_CHECK(m1.size(0) == m2.size(0), op, ": ", name1, " and ", name2, " must have the same batch size, but got ",
             m1.size(0), " and ", m2.size(0));
  }
  SY_CHECK(m1.size(-1) == m2.size(-2), op, ": ", name1, " and ", name2, " shapes cannot be multiplied (",
           shapeText(m1), " and ", shapeText(m2), ")");
  SizesVector sizes;
  if (dims == 3) sizes.push_back(m1.size(0));
  sizes.push_back(m1.size(-2));
  sizes.push_back(m2.size(-1));
  return sizes;
}

void checkAddmmSelf(const char* op, const Tensor& self, const Tensor& mat1, const Scalar& beta, const Scalar& alpha,
                    IntArrayRef result_sizes) {
  checkOnCPU(op, "self", self);
  SY_CHECK(self.scalar_type() == mat1.scalar_type(), op, ": expected 'self' to have the dtype of 'mat1' and 'mat2' (",
           mat1.scalar_type(), ") but got ", self.scalar_type());
  SY_CHECK(broadcastsTo(self.sizes(), result_sizes), op, ": 'self' of size ", formatSizes(self.sizes()),
           " cannot be broadcast to the result size ", formatSizes(result_sizes));
  if (!isFloatingType(mat1.scalar_type())) {
    SY_CHECK(!beta.isFloatingPoint(), op, ": For integral input tensors, argument beta must not be a floating point "
             "number.");
    SY_CHECK(!alpha.isFloatingPoint(), op, ": For integral input tensors, argument alpha must not be a floating "
             "point number.");
  }
}


// out= checks and resize, then the product into out (or a staging buffer when out is not
// contiguous or shares memory with an input it would overwrite before reading).
Tensor& productOut(const char* op, const Tensor* self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
                   const Scalar& alpha, IntArrayRef result_sizes, Tensor& out) {
  checkOnCPU(op, "out", out);
  SY_CHECK(out.scalar_type() == mat1.scalar_type(), op, ": expected 'out' to have dtype ", mat1.scalar_type(),
           " (the dtype of the inputs) but got ", out.scalar_type());
  // Handles on the inputs that keep their geometry should out be one of them and be resized.
  const Tensor m1 = unaffectedByResizeOf(out, mat1), m2 = unaffectedByResizeOf(out, mat2);
  const Tensor s = self ? unaffectedByResizeOf(out, *self) : Tensor();
  resizeOutput(out, result_sizes);
  checkNoInternalOverlap(op, out, "out");
  if (out.numel() == 0) return out;
  const bool direct = out.is_contiguous() && !sameMemory(out, m1) && !sameMemory(out, m2) &&
                      (self == nullptr || !partiallyOverlaps(out, s));
  const Tensor dst = direct ? out : scratchTensor(op, result_sizes, out.scalar_type());
  productInto(op, dst, self ? &s : nullptr, m1, m2, beta, alpha);
  if (!direct) copyIntoCPU(op, out, dst, "out", "result");
  return out;
}

// ---- linear ------------------------------------------------------------------------------------

// input as a [rows, in_features] matrix: a view when its leading dims merge into one (each steps
// over the next as a whole; size-1 dims have no say), else a contiguous copy: made through the
// dispatcher for the functional form (so autograd sees it), in scratch memory for linear.out, whose
// call (`out_op`) is the copy's only reader.
Tensor asMatrix(const Tensor& input, const char* out_op = nullptr) {
  const int64_t in_features = input.size(-1);
  int64_t rows = 1, row_stride = -1, merged_extent = -1;
  bool mergeable = true;
  for (int64_t d = input.dim() - 2; d >= 0; --d) {
    rows *= input.size(d);
    if (input.size(d) == 1) continue;
    if (row_stride == -1) {
      row_stride = input.stride(d);
    } else {
      mergeable = mergeable && input.stride(d) == merged_extent;
    }
    merged_extent = input.stride(d) * input.size(d);
  }
  if (!mergeable && out_op != nullptr && input.is_cpu()) {
    return asMatrix(contiguousCopyIfNeeded(out_op, "input", input));
  }
  if (!mergeable) {
    Tensor copy = ops::empty(input.sizes(), TensorOptions(input.scalar_type()).device(input.device()));
    ops::copy_(copy, input);
    return asMatrix(copy);
  }
  if (row_stride == -1) row_stride = std::max<int64_t>(in_features, 1);
  return viewOf(input, {rows, in_features}, {row_stride, input.stride(-1)}, input.storage_offset());
}

Tensor transposedView(const Tensor& weight) {
  return viewOf(weight, {weight.size(1), weight.size(0)}, {weight.stride(1), weight.stride(0)},
                weight.storage_offset());
}

// Checks linear's arguments and returns the output sizes (input's leading dims, out_features).
SizesVector checkLinearArguments(const char* op, const Tensor& input, const Tensor& weight, const Tensor* bias) {
  SY_CHECK(input.defined() && weight.defined(), op, ": argument '", input.defined() ? "weight" : "input",
           "' is an undefined tensor");
  SY_CHECK(input.dim() >= 1, op, ": expected 'input' to have at least 1 dimension but got a 0-D tensor");
  checkDims(op, "weight", weight, 2);
  const ScalarType bias_dtype = bias ? bias->scalar_type() : input.scalar_type();
  SY_CHECK(weight.scalar_type() == input.scalar_type() && bias_dtype == input.scalar_type(), op,
           ": expected 'input', 'weight' and 'bias' to have the same dtype, but got ", input.scalar_type(), ", ",
           weight.scalar_type(), " and ", bias ? toString(bias_dtype) : "None");
  SizesVector out_sizes(input.sizes().begin(), input.sizes().end() - 1);
  int64_t rows = 1;
  for (int64_t size : out_sizes) rows *= size;
  SY_CHECK(input.size(-1) == weight.size(1), op, ": input and weight.T shapes cannot be multiplied (", rows, "x",
           input.size(-1), " and ", weight.size(1), "x", weight.size(0), ")");
  out_sizes.push_back(weight.size(0));
  SY_CHECK(bias == nullptr || broadcastsTo(bias->sizes(), out_sizes), op, ": 'bias' of size ",
           formatSizes(bias->sizes()), " cannot be broadcast to the output size ", formatSizes(out_sizes));
  return out_sizes;
}

const Tensor* definedOrNull(const std::optional<Tensor>& t) { return t.has_value() && t->defined() ? &*t : nullptr; }

// A product kernel's `out` in the form `ctx` names: allocated with `like`'s dtype (functional), or
// self, which must already have the result's size (in place), or the caller's out=.
Tensor& productOutput(const KernelContext& ctx, const Tensor& like, IntArrayRef sizes, Tensor& out) {
  if (ctx.form == OutputForm::Functional) out = ops::empty(sizes, TensorOptions(like.scalar_type()).device(kCPU));
  SY_CHECK(ctx.form != OutputForm::InPlace || sameSizes(out.sizes(), sizes), ctx.op, ": 'self' of size ",
           formatSizes(out.sizes()), " cannot hold the result of size ", formatSizes(sizes), " in place");
  return out;
}

}  // namespace

// ---- The kernels (registered from backends/devices/cpu/linalg_ops.yaml) --------------------------------------

namespace native {

Tensor& mm_out_cpu(const Tensor& self, const Tensor& mat2, Tensor& out, const KernelContext& ctx) {
  const SizesVector sizes = checkProductOperands(ctx.op, mm_out_cpu_dtypes, "self", self, "mat2", mat2, 2);
  return productOut(ctx.op, nullptr, self, mat2, 0, 1, sizes, productOutput(ctx, self, sizes, out));
}

Tensor& bmm_out_cpu(const Tensor& self, const Tensor& mat2, Tensor& out, const KernelContext& ctx) {
  const SizesVector sizes = checkProductOperands(ctx.op, bmm_out_cpu_dtypes, "self", self, "mat2", mat2, 3);
  return productOut(ctx.op, nullptr, self, mat2, 0, 1, sizes, productOutput(ctx, self, sizes, out));
}

Tensor& addmm_out_cpu(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
                      const Scalar& alpha, Tensor& out, const KernelContext& ctx) {
  const SizesVector sizes = checkProductOperands(ctx.op, addmm_out_cpu_dtypes, "mat1", mat1, "mat2", mat2, 2);
  checkAddmmSelf(ctx.op, self, mat1, beta, alpha, sizes);
  return productOut(ctx.op, &self, mat1, mat2, beta, alpha, sizes, productOutput(ctx, self, sizes, out));
}

}  // namespace native

// ---- linear: composite kernels, registered by hand on CompositeImplicit / CompositeExplicit -------

Tensor linear_composite(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias_opt,
                        const KernelContext& ctx) {
  const Tensor* bias = definedOrNull(bias_opt);
  const SizesVector out_sizes = checkLinearArguments(ctx.op, input, weight, bias);
  const Tensor input2d = asMatrix(input);
  const Tensor weight_t = transposedView(weight);
  // A bias of at most one dim broadcasts over the rows of the 2-D product, so addmm fuses it.
  const bool fused_bias = bias != nullptr && bias->dim() <= 1;
  const Tensor product = fused_bias ? ops::addmm(*bias, input2d, weight_t) : ops::mm(input2d, weight_t);
  Tensor result = viewOf(product, out_sizes, contiguousStrides(out_sizes), product.storage_offset());
  if (bias != nullptr && !fused_bias) result = ops::add(result, *bias);
  return result;
}

Tensor& linear_out_composite(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias_opt,
                             Tensor& out, const KernelContext& ctx) {
  const BorrowedViews borrow;  // See Note [A kernel's own views are borrowed]
  const char* op = ctx.op;
  const Tensor* bias = definedOrNull(bias_opt);
  const SizesVector out_sizes = checkLinearArguments(op, input, weight, bias);
  SY_CHECK(out.defined(), op, ": argument 'out' is an undefined tensor");
  SY_CHECK(out.scalar_type() == input.scalar_type(), op, ": expected 'out' to have dtype ", input.scalar_type(),
           " (the dtype of the inputs) but got ", out.scalar_type());
  if (out.is_same(input) || out.is_same(weight) || (bias != nullptr && out.is_same(*bias))) {
    // out is also an input: compute aside (the arguments are checked), then write.
    const Tensor result = linear_composite(input, weight, bias_opt, ctx);
    if (!sameSizes(out.sizes(), out_sizes)) out.resize_(out_sizes);
    ops::copy_(out, result);
    return out;
  }
  if (!sameSizes(out.sizes(), out_sizes)) out.resize_(out_sizes);
  if (!out.is_contiguous()) {
    ops::copy_(out, linear_composite(input, weight, bias_opt, ctx));
    return out;
  }
  // The product is written straight into out, seen as a [rows, out_features] matrix.
  const int64_t out_features = out_sizes.back();
  int64_t rows = 1;
  for (size_t d = 0; d + 1 < out_sizes.size(); ++d) rows *= out_sizes[d];
  Tensor out2d = viewOf(out, {rows, out_features}, {out_features, 1}, out.storage_offset());
  const Tensor input2d = asMatrix(input, op);
  const Tensor weight_t = transposedView(weight);
  const bool fused_bias = bias != nullptr && bias->dim() <= 1;
  if (fused_bias) {
    ops::addmm_out(out2d, *bias, input2d, weight_t);
  } else {
    ops::mm_out(out2d, input2d, weight_t);
  }
  if (bias != nullptr && !fused_bias) ops::add_out(out, out, *bias);
  return out;
}

}  // namespace sy::cpu

SY_LIBRARY_IMPL(aten, CompositeImplicit, m) {
  static constexpr sy::KernelContext kLinear{"aten::linear", sy::OutputForm::Functional};
  m.impl(kLinear.op, sy::withContext<&sy::cpu::linear_composite, &kLinear>());
}

SY_LIBRARY_IMPL(aten, CompositeExplicit, m) {
  static constexpr sy::KernelContext kLinearOut{"aten::linear.out", sy::OutputForm::Out};
  m.impl(kLinearOut.op, sy::withContext<&sy::cpu::linear_out_composite, &kLinearOut>());
}
