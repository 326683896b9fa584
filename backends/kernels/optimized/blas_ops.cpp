// The optimized matrix products: mm, bmm, addmm and linear (functional and out=) on Float tensors,
// through OpenBLAS's sgemm (blas_gemm.h). optimized.yaml binds them for Float with each matrix
// operand in row-major (dim order 0, 1) or transposed (1, 0) layout, so a transposed view such as
// linear's weight.T is read in place; linear takes its input contiguous at any rank.
//
// Semantics are the portable kernels' (backends/devices/cpu/linalg_ops.cpp) for the calls taken here:
// addmm computes beta * self + alpha * (mat1 @ mat2) with self broadcast, and beta == 0 ignores
// self (its NaNs do not propagate); linear(input, weight, bias) = input @ weight.T + bias; out= of
// another shape is resized. Values agree with the portable kernels' within Float rounding of the
// sums (tests/backends/kernels/optimized/optimized_blas_test.cpp). Everything else is handed on to the portable
// kernel unchanged (see partial_kernel_decline.h), which also raises every error: arguments it
// would reject, an operand BLAS cannot read in place (doubly strided, expanded), an out= that is
// not contiguous or shares memory with an input, alpha == 0 (BLAS may skip the product, and NaNs in
// it would not propagate), and any size too large for BLAS's integers (see Note [BLAS sizes are
// checked, never narrowed]).
#include "NativeFunctions.h"

#include <algorithm>
#include <optional>

#include "switchyard/backends/devices/cpu/nn_kernels.h"
#include "switchyard/backends/kernels/optimized/blas_gemm.h"
#include "switchyard/backends/kernels/optimized/flat_tensors.h"
#include "switchyard/backends/kernels/optimized/partial_kernel_decline.h"
#include "switchyard/dispatcher/dispatcher.h"
#include "switchyard/ops/creation_ops.h"

namespace sy::optimized {
namespace {

bool isCpuFloat(const Tensor& t) { return t.defined() && t.is_cpu() && t.scalar_type() == ScalarType::Float; }

// The matrices of a product the kernel takes: batches of a (M x K) @ b (K x N).
struct ProductPlan {
  int64_t batches = 1, M = 0, N = 0, K = 0;
  BlasMatrix a, b;
  int64_t a_batch_stride = 0, b_batch_stride = 0;
  SizesVector result_sizes;
};

// The plan for mat1 @ mat2 over `rank`-D operands (2: mm, 3: bmm), or nullopt when the kernel does
// not take them.
std::optional<ProductPlan> planProduct(const Tensor& mat1, const Tensor& mat2, int64_t rank) {
  if (!isCpuFloat(mat1) || !isCpuFloat(mat2) || mat1.dim() != rank || mat2.dim() != rank) return std::nullopt;
  if (mat1.size(-1) != mat2.size(-2) || (rank == 3 && mat1.size(0) != mat2.size(0))) return std::nullopt;
  ProductPlan p;
  p.M = mat1.size(-2);
  p.K = mat1.size(-1);
  p.N = mat2.size(-1);
  if (rank == 3) {
    p.batches = mat1.size(0);
    p.a_batch_stride = mat1.stride(0);
    p.b_batch_stride = mat2.stride(0);
    p.result_sizes.push_back(p.batches);
  }
  p.result_sizes.push_back(p.M);
  p.result_sizes.push_back(p.N);
  std::optional<BlasMatrix> a = blasMatrixOf(mat1), b = blasMatrixOf(mat2);
  if (!a || !b || !fitsBlasInt({p.M, p.N, p.K, a->ld, b->ld})) return std::nullopt;
  p.a = *a;
  p.b = *b;
  return p;
}

// What is added to the product: beta * addend, broadcast to M x N (addmm's self, linear's bias).
struct Addend {
  const Tensor* tensor = nullptr;
  double beta = 1.0;  // exactly zero: the addend is ignored
};

// Whether `t` (rank <= 2) broadcasts to M x N.
bool broadcastsToMatrix(const Tensor& t, int64_t M, int64_t N) {
  if (t.dim() > 2) return false;
  if (t.dim() >= 1 && t.size(-1) != 1 && t.size(-1) != N) return false;
  return t.dim() < 2 || t.size(0) == 1 || t.size(0) == M;
}

// c (batches of M x N, contiguous) = beta * addend, or zeros without one.
void fillWithAddend(const ProductPlan& p, const Addend& addend, float* c) {
  const int64_t total = p.batches * p.M * p.N;
  if (addend.tensor == nullptr || addend.beta == 0.0) {
    std::fill(c, c + total, 0.0f);
    return;
  }
  const Tensor& t = *addend.tensor;
  const float beta = static_cast<float>(addend.beta);
  const float* src = t.data_ptr<float>();
  const int64_t row_step = t.dim() == 2 && t.size(0) != 1 ? t.stride(0) : 0;
  const int64_t col_step = t.dim() >= 1 && t.size(-1) != 1 ? t.stride(-1) : 0;
  for (int64_t i = 0; i < p.batches * p.M; ++i) {
    const float* row = src + (i % p.M) * row_step;
    float* dst = c + i * p.N;
    for (int64_t j = 0; j < p.N; ++j) dst[j] = beta * row[j * col_step];
  }
}

// c = beta * addend + alpha * a @ b, batch by batch. An empty operand's data may be null, so no
// pointer into one is formed.
void runProduct(const ProductPlan& p, const Addend& addend, float alpha, float* c) {
  if (p.batches == 0 || p.M == 0 || p.N == 0) return;
  const bool accumulate = addend.tensor != nullptr && addend.beta != 0.0;
  if (accumulate || p.K == 0) fillWithAddend(p, addend, c);
  if (p.K == 0) return;
  for (int64_t batch = 0; batch < p.batches; ++batch) {
    BlasMatrix a = p.a, b = p.b;
    a.data += batch * p.a_batch_stride;
    b.data += batch * p.b_batch_stride;
    sgemm(p.M, p.N, p.K, alpha, a, b, accumulate ? 1.0f : 0.0f, c + batch * p.M * p.N, p.N);
  }
}

// Gives `out` the result sizes when the product may be written straight into it: a contiguous
// Float out= sharing no memory with the operands (sgemm reads them while it writes), except an
// addend that is out itself, read element by element before anything else is written.
bool prepareProductOut(const Tensor& out, const ProductPlan& p, const Tensor& mat1, const Tensor& mat2,
                       const Addend& addend) {
  if (!isFlatCpuFloat(out) || cpu::sameMemory(out, mat1) || cpu::sameMemory(out, mat2)) return false;
  if (addend.tensor != nullptr && cpu::sameMemory(out, *addend.tensor)) {
    const Tensor& t = *addend.tensor;
    const bool same_geometry = sameSizes(t.sizes(), p.result_sizes) && t.is_contiguous() &&
                               t.data_ptr() == out.data_ptr() && sameSizes(out.sizes(), p.result_sizes);
    return same_geometry;
  }
  if (!sameSizes(out.sizes(), p.result_sizes)) cpu::resizeOutput(out, p.result_sizes);
  return true;
}

Tensor newResult(const ProductPlan& p) {
  return ops::empty(p.result_sizes, TensorOptions(ScalarType::Float).device(kCPU));
}

// The operator a declined call continues with, looked up on first use.
#define SY_BLAS_OPERATOR(signature, name, overload) \
  [] { static const auto op = Dispatcher::singleton().staticTypedHandle<signature>(name, overload); return op; }()

using MmOut = Tensor&(const Tensor&, const Tensor&, Tensor&);
using Mm = Tensor(const Tensor&, const Tensor&);
using AddmmOut = Tensor&(const Tensor&, const Tensor&, const Tensor&, const Scalar&, const Scalar&, Tensor&);
using Addmm = Tensor(const Tensor&, const Tensor&, const Tensor&, const Scalar&, const Scalar&);
using LinearOut = Tensor&(const Tensor&, const Tensor&, const std::optional<Tensor>&, Tensor&);
using Linear = Tensor(const Tensor&, const Tensor&, const std::optional<Tensor>&);

// mm (Rank 2) and bmm (Rank 3).
template <int64_t Rank>
Tensor& productOut(const Tensor& self, const Tensor& mat2, Tensor& out) {
  const std::optional<ProductPlan> p = planProduct(self, mat2, Rank);
  if (!p || !prepareProductOut(out, *p, self, mat2, Addend{})) {
    return continueAfterPartialKernels(SY_BLAS_OPERATOR(MmOut, Rank == 2 ? "aten::mm" : "aten::bmm", "out"), self,
                                       mat2, out);
  }
  runProduct(*p, Addend{}, 1.0f, out.data_ptr<float>());
  return out;
}

template <int64_t Rank>
Tensor product(const Tensor& self, const Tensor& mat2) {
  const std::optional<ProductPlan> p = planProduct(self, mat2, Rank);
  if (!p) return continueAfterPartialKernels(SY_BLAS_OPERATOR(Mm, Rank == 2 ? "aten::mm" : "aten::bmm", ""), self, mat2);
  Tensor out = newResult(*p);
  runProduct(*p, Addend{}, 1.0f, out.data_ptr<float>());
  return out;
}

// addmm's self, when the kernel takes it and the scalars: nullopt otherwise.
std::optional<Addend> addmmAddend(const Tensor& self, const ProductPlan& p, const Scalar& beta, const Scalar& alpha) {
  if (!isCpuFloat(self) || !broadcastsToMatrix(self, p.M, p.N)) return std::nullopt;
  if (beta.isBoolean() || alpha.isBoolean() || alpha.toDouble() == 0.0) return std::nullopt;
  return Addend{&self, beta.toDouble()};
}

// linear's input as the rows of a matrix (a contiguous input of any rank >= 1) times weight.T.
std::optional<ProductPlan> planLinear(const Tensor& input, const Tensor& weight, const Tensor* bias) {
  if (!isCpuFloat(input) || !isCpuFloat(weight) || !input.is_contiguous() || input.dim() < 1 || weight.dim() != 2) {
    return std::nullopt;
  }
  ProductPlan p;
  p.K = input.size(-1);
  p.N = weight.size(0);
  if (weight.size(1) != p.K) return std::nullopt;
  p.M = 1;
  for (int64_t d = 0; d + 1 < input.dim(); ++d) {
    p.M *= input.size(d);  // cannot overflow: the input's elements exist
    p.result_sizes.push_back(input.size(d));
  }
  p.result_sizes.push_back(p.N);
  std::optional<BlasMatrix> b = blasMatrix(weight.data_ptr<float>(), p.K, p.N, weight.stride(1), weight.stride(0));
  const BlasMatrix a{input.data_ptr<float>(), false, std::max<int64_t>(p.K, 1)};
  if (!b || !fitsBlasInt({p.M, p.N, p.K, a.ld, b->ld})) return std::nullopt;
  if (bias != nullptr && (!isCpuFloat(*bias) || bias->dim() > 1 || !broadcastsToMatrix(*bias, p.M, p.N))) {
    return std::nullopt;
  }
  p.a = a;
  p.b = *b;
  return p;
}

}  // namespace

namespace native {

Tensor& mm_out(const Tensor& self, const Tensor& mat2, Tensor& out, const KernelContext& ctx) {
  return productOut<2>(self, mat2, out);
}
Tensor mm(const Tensor& self, const Tensor& mat2, const KernelContext& ctx) { return product<2>(self, mat2); }
Tensor& bmm_out(const Tensor& self, const Tensor& mat2, Tensor& out, const KernelContext& ctx) {
  return productOut<3>(self, mat2, out);
}
Tensor bmm(const Tensor& self, const Tensor& mat2, const KernelContext& ctx) { return product<3>(self, mat2); }

Tensor& addmm_out(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta, const Scalar& alpha,
                  Tensor& out, const KernelContext& ctx) {
  const std::optional<ProductPlan> p = planProduct(mat1, mat2, 2);
  const std::optional<Addend> addend = p ? addmmAddend(self, *p, beta, alpha) : std::nullopt;
  if (!addend || !prepareProductOut(out, *p, mat1, mat2, *addend)) {
    return continueAfterPartialKernels(SY_BLAS_OPERATOR(AddmmOut, "aten::addmm", "out"), self, mat1, mat2, beta, alpha, out);
  }
  runProduct(*p, *addend, alpha.to<float>(), out.data_ptr<float>());
  return out;
}

Tensor addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta, const Scalar& alpha,
             const KernelContext& ctx) {
  const std::optional<ProductPlan> p = planProduct(mat1, mat2, 2);
  const std::optional<Addend> addend = p ? addmmAddend(self, *p, beta, alpha) : std::nullopt;
  if (!addend) return continueAfterPartialKernels(SY_BLAS_OPERATOR(Addmm, "aten::addmm", ""), self, mat1, mat2, beta, alpha);
  Tensor out = newResult(*p);
  runProduct(*p, *addend, alpha.to<float>(), out.data_ptr<float>());
  return out;
}

Tensor& linear_out(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, Tensor& out,
                   const KernelContext& ctx) {
  const Tensor* b = cpu::nn_detail::presentTensor(bias);
  const std::optional<ProductPlan> p = planLinear(input, weight, b);
  const Addend addend{b, 1.0};
  if (!p || !prepareProductOut(out, *p, input, weight, addend) || (b != nullptr && cpu::sameMemory(out, *b))) {
    return continueAfterPartialKernels(SY_BLAS_OPERATOR(LinearOut, "aten::linear", "out"), input, weight, bias, out);
  }
  runProduct(*p, addend, 1.0f, out.data_ptr<float>());
  return out;
}

Tensor linear(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, const KernelContext& ctx) {
  const Tensor* b = cpu::nn_detail::presentTensor(bias);
  const std::optional<ProductPlan> p = planLinear(input, weight, b);
  if (!p) return continueAfterPartialKernels(SY_BLAS_OPERATOR(Linear, "aten::linear", ""), input, weight, bias);
  Tensor out = newResult(*p);
  runProduct(*p, Addend{b, 1.0}, 1.0f, out.data_ptr<float>());
  return out;
}

}  // namespace native
}  // namespace sy::optimized

#undef SY_BLAS_OPERATOR
