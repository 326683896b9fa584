// The optimized matrix products and convolution (OpenBLAS) against the portable kernels: odd
// shapes, transposed operands, batches, addmm's broadcasting and scalars, linear at several ranks,
// convolution with padding, stride, dilation and groups; which calls the kernels take and which
// they hand on, and that handed-on calls keep the portable kernel's results and errors.
#include <cblas.h>

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/backends/devices/cpu/linalg_kernels.h"
#include "switchyard/backends/kernels/optimized/blas_gemm.h"
#include "switchyard/dispatcher/derived_kernels.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy {
namespace {

// The same call with the partial kernels out of the way: the portable kernel's answer.
template <class Fn>
Tensor blasPortable(Fn&& fn) {
  ExcludeDispatchKeyGuard portable(DispatchKey::PartialKernels);
  return fn();
}

// Float sums of up to a few hundred terms in another order: a few 1e-6 relative.
void expectBlasClose(const Tensor& got, const Tensor& want, const std::string& where) {
  ASSERT_EQ(got.sizes(), want.sizes()) << where;
  const std::vector<double> g = sy::testing::doublesOf(got), w = sy::testing::doublesOf(want);
  for (size_t i = 0; i < w.size(); ++i) {
    if (std::isnan(w[i])) {
      EXPECT_TRUE(std::isnan(g[i])) << where << ", element " << i;
    } else {
      ASSERT_NEAR(g[i], w[i], 2e-5 * std::max(1.0, std::abs(w[i]))) << where << ", element " << i;
    }
  }
}

template <class Fn>
void expectAgrees(Fn&& fn, const std::string& where) {
  expectBlasClose(fn(), blasPortable(fn), where);
}

// Calls reaching the portable mm.out kernel.
int g_portable_mm_out_calls = 0;
Tensor& countingMmOut(const Tensor& self, const Tensor& mat2, Tensor& out, const KernelContext& ctx) {
  ++g_portable_mm_out_calls;
  return cpu::mm_out_cpu(self, mat2, out, ctx);
}
constexpr KernelContext kCountingMmOut{"aten::mm.out", OutputForm::Out};

struct ProductShape {
  int64_t M, K, N;
};
const std::vector<ProductShape> kProductShapes = {{1, 1, 1}, {3, 5, 2}, {17, 33, 9}, {64, 1, 7}, {5, 0, 4}, {0, 3, 2}};

#if defined(__x86_64__)
// See Note [OpenBLAS runs the kernels of the CPU it runs on]: with Switchyard's optimized kernels
// loaded, OpenBLAS on a CPU with AVX2 and FMA runs a core that has AVX2 kernels (0.3.21 fell back to
// Prescott's SSE3 ones on CPUs newer than itself), unless the user chose its core; and products
// computed with it still agree with the portable kernels (the test below).
TEST(OptimizedBlas, OpenBlasRunsACoreWithTheInstructionSetsTheCpuHas) {
  if (std::getenv("OPENBLAS_CORETYPE") != nullptr) GTEST_SKIP() << "OPENBLAS_CORETYPE chooses OpenBLAS's core";
  if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) GTEST_SKIP() << "no AVX2 and FMA here";
  const std::string core = openblas_get_corename();
  for (const char* old : {"Prescott", "Core2", "Penryn", "Dunnington", "Nehalem", "Atom", "Sandybridge"}) {
    EXPECT_NE(core, old) << "OpenBLAS runs " << core << "'s kernels on a CPU with AVX2";
  }
  EXPECT_EQ(std::getenv("OPENBLAS_CORETYPE"), nullptr) << "the environment is left as it was";
}
#endif

TEST(OptimizedBlas, MmAndBmmAgreeWithThePortableKernelsInEveryLayout) {
  for (const ProductShape& p : kProductShapes) {
    const int64_t M = p.M, K = p.K, N = p.N;  // plain variables: lambdas below capture them
    const std::string shape = std::to_string(M) + "x" + std::to_string(K) + "x" + std::to_string(N);
    const Tensor a = testing::randomTensor({M, K}, 1), b = testing::randomTensor({K, N}, 2);
    const Tensor at = ops::transpose(testing::randomTensor({K, M}, 3), 0, 1), bt = ops::transpose(testing::randomTensor({N, K}, 4), 0, 1);
    expectAgrees([&] { return ops::mm(a, b); }, "mm " + shape);
    expectAgrees([&] { return ops::mm(at, bt); }, "mm of transposed operands " + shape);
    expectAgrees([&] { return ops::mm(a, bt); }, "mm, mat2 transposed " + shape);
    expectAgrees([&] { Tensor out = empty({1}); return ops::mm_out(out, at, b); }, "mm.out resized " + shape);
    const Tensor ba = testing::randomTensor({3, M, K}, 5), bb = testing::randomTensor({3, K, N}, 6);
    const Tensor bbt = ops::transpose(testing::randomTensor({3, N, K}, 7), 1, 2);
    expectAgrees([&] { return ops::bmm(ba, bb); }, "bmm " + shape);
    expectAgrees([&] { Tensor out = empty({3, M, N}); return ops::bmm_out(out, ba, bbt); }, "bmm.out " + shape);
  }
}

TEST(OptimizedBlas, AddmmBroadcastsSelfAndScalesLikeThePortableKernel) {
  for (const ProductShape& p : kProductShapes) {
    const int64_t M = p.M, K = p.K, N = p.N;  // plain variables: lambdas below capture them
    const std::string shape = std::to_string(M) + "x" + std::to_string(K) + "x" + std::to_string(N);
    const Tensor m1 = testing::randomTensor({M, K}, 8), m2 = ops::transpose(testing::randomTensor({N, K}, 9), 0, 1);
    for (const std::vector<int64_t>& self_sizes : std::vector<std::vector<int64_t>>{{}, {N}, {1, N}, {M, 1}, {M, N}}) {
      const Tensor self = testing::randomTensor(self_sizes, 10);
      const std::string where = shape + ", self of rank " + std::to_string(self_sizes.size());
      expectAgrees([&] { return ops::addmm(self, m1, m2); }, "addmm " + where);
      expectAgrees([&] { return ops::addmm(self, m1, m2, 0.5, -2); }, "addmm beta 0.5 alpha -2 " + where);
      expectAgrees([&] { Tensor out = empty({2}); return ops::addmm_out(out, self, m1, m2, 3, 0.25); }, "addmm.out " + where);
    }
    // beta = 0 ignores self, NaNs included.
    const Tensor nan_self = full({M, N}, std::nan(""));
    expectAgrees([&] { return ops::addmm(nan_self, m1, m2, 0, 1); }, "addmm beta 0 " + shape);
  }
}

TEST(OptimizedBlas, AddmmOutMayBeSelf) {
  const Tensor m1 = testing::randomTensor({4, 6}, 11), m2 = testing::randomTensor({6, 5}, 12);
  Tensor self = testing::randomTensor({4, 5}, 13);
  const Tensor want = blasPortable([&] { return ops::addmm(self, m1, m2, 0.5, 2); });
  EXPECT_EQ(&ops::addmm_out(self, self, m1, m2, 0.5, 2), &self);
  expectBlasClose(self, want, "addmm.out into self");
}

TEST(OptimizedBlas, LinearAgreesWithThePortableKernelAtEveryInputRank) {
  const Tensor weight = testing::randomTensor({9, 13}, 14), bias = testing::randomTensor({9}, 15);
  for (const std::vector<int64_t>& sizes : std::vector<std::vector<int64_t>>{{13}, {5, 13}, {2, 3, 13}, {0, 13}}) {
    const Tensor input = testing::randomTensor(sizes, 16);
    const std::string where = "input of rank " + std::to_string(sizes.size());
    expectAgrees([&] { return ops::linear(input, weight, bias); }, "linear " + where);
    expectAgrees([&] { return ops::linear(input, weight); }, "linear without bias " + where);
    expectAgrees([&] { Tensor out = empty({1}); return ops::linear_out(out, input, weight, bias); }, "linear.out " + where);
  }
  const Tensor transposed_weight = ops::transpose(testing::randomTensor({13, 9}, 17), 0, 1);
  expectAgrees([&] { return ops::linear(testing::randomTensor({4, 13}, 18), transposed_weight, bias); }, "linear, weight a view");
}

TEST(OptimizedBlas, ContiguousProductsAreTakenAndOtherOperandsHandedOn) {
  g_portable_mm_out_calls = 0;
  Library counting(Library::Impl, "aten", DispatchKey::CPU);
  counting.impl("mm.out", withContext<&countingMmOut, &kCountingMmOut>());
  const Tensor a = testing::randomTensor({6, 8}, 19), b = testing::randomTensor({8, 4}, 20);
  Tensor out = empty({6, 4});
  ops::mm_out(out, a, b);
  EXPECT_EQ(g_portable_mm_out_calls, 0);
  // Every other column: the dim order of a matrix, but not a layout BLAS reads in place.
  const Tensor every_other = sy::testing::viewOf(testing::randomTensor({6, 16}, 21), {6, 8}, {16, 2});
  expectAgrees([&] { return ops::mm_out(out, every_other, b); }, "mm.out of a doubly strided operand");
  // out= sharing memory with an operand: the portable kernel stages the product.
  Tensor square = testing::randomTensor({8, 8}, 22);
  const Tensor want = blasPortable([&] { return ops::mm(square, square); });
  ops::mm_out(square, square, square);
  expectBlasClose(square, want, "mm.out into its own operand");
  EXPECT_EQ(g_portable_mm_out_calls, 3);
}

TEST(OptimizedBlas, BadArgumentsRaiseThePortableKernelsErrors) {
  EXPECT_THAT(sy::testing::errorMessageOf([] { ops::mm(empty({2, 3}), empty({4, 2})); }),
              ::testing::HasSubstr("shapes cannot be multiplied (2x3 and 4x2)"));
  EXPECT_THAT(sy::testing::errorMessageOf([] { ops::addmm(empty({3, 3}), empty({2, 3}), empty({3, 2})); }),
              ::testing::HasSubstr("cannot be broadcast"));
  EXPECT_THAT(sy::testing::errorMessageOf([] { ops::convolution(empty({1, 3, 5, 5}), empty({2, 2, 3, 3}), std::nullopt, {1}, {0}, {1}, false, {0}, 1); }),
              ::testing::HasSubstr("channels"));
}

// See Note [BLAS sizes are checked, never narrowed].
TEST(OptimizedBlas, SizesBeyondBlasIntegersAreRefusedNotNarrowed) {
  const int64_t too_big = int64_t{1} << 31;
  EXPECT_TRUE(optimized::fitsBlasInt({0, (int64_t{1} << 31) - 1}));
  EXPECT_FALSE(optimized::fitsBlasInt({3, too_big}));
  EXPECT_FALSE(optimized::fitsBlasInt({-1}));
  const optimized::BlasMatrix m{nullptr, false, 1};
  EXPECT_THAT(sy::testing::errorMessageOf([&] { optimized::sgemm(too_big, 1, 1, 1.0f, m, m, 0.0f, nullptr, 1); }),
              ::testing::HasSubstr("does not fit OpenBLAS's 32-bit integers"));
}

std::vector<float> randomFloats(int64_t n, uint32_t seed) {
  const Tensor t = testing::randomTensor({n}, seed);
  return std::vector<float>(t.data_ptr<float>(), t.data_ptr<float>() + n);
}

// See Note [A tiny product is a loop, not a BLAS call]: products on either side of kTinyProduct,
// every operand layout, against a Double reference of this test's own.
TEST(OptimizedBlas, TinyAndBlasProductsAgreeWithADoubleReference) {
  ASSERT_EQ(optimized::kTinyProduct, 8 * 8 * 8);
  for (const ProductShape& p : std::vector<ProductShape>{{8, 8, 8}, {8, 8, 9}, {1, 2, 10}, {10, 1, 2}}) {
    const std::vector<float> a = randomFloats(p.M * p.K, 20);
    const std::vector<float> b = randomFloats(p.K * p.N, 21);
    const std::vector<float> c0 = randomFloats(p.M * p.N, 22);
    for (bool a_t : {false, true}) {
      for (bool b_t : {false, true}) {
        for (float beta : {0.0f, 0.5f}) {
          const optimized::BlasMatrix am{a.data(), a_t, a_t ? p.M : p.K}, bm{b.data(), b_t, b_t ? p.K : p.N};
          std::vector<float> c = c0;
          if (beta == 0.0f) c.assign(c.size(), std::nanf(""));  // beta == 0 does not read c
          optimized::sgemm(p.M, p.N, p.K, -2.0f, am, bm, beta, c.data(), p.N);
          for (int64_t i = 0; i < p.M; ++i) {
            for (int64_t j = 0; j < p.N; ++j) {
              double dot = 0;
              for (int64_t k = 0; k < p.K; ++k) {
                dot += double(a[a_t ? k * p.M + i : i * p.K + k]) * double(b[b_t ? j * p.K + k : k * p.N + j]);
              }
              const double want = -2.0 * dot + (beta == 0.0f ? 0.0 : 0.5 * c0[i * p.N + j]);
              ASSERT_NEAR(c[i * p.N + j], want, 1e-5) << p.M << "x" << p.K << "x" << p.N << " a_t " << a_t << " b_t "
                                                       << b_t << " beta " << beta << " at " << i << ", " << j;
            }
          }
        }
      }
    }
  }
}

TEST(OptimizedBlas, BlasReadsRowMajorAndTransposedMatricesButNotDoublyStridedOnes) {
  const float data[1] = {0};
  const auto row_major = optimized::blasMatrix(data, 3, 4, 6, 1);  // every other row's start
  ASSERT_TRUE(row_major.has_value());
  EXPECT_FALSE(row_major->transposed);
  EXPECT_EQ(row_major->ld, 6);
  const auto transposed = optimized::blasMatrix(data, 3, 4, 1, 3);
  ASSERT_TRUE(transposed.has_value());
  EXPECT_TRUE(transposed->transposed);
  EXPECT_EQ(transposed->ld, 3);
  EXPECT_TRUE(optimized::blasMatrix(data, 1, 4, 0, 5).has_value());  // one row: its stride says nothing
  EXPECT_FALSE(optimized::blasMatrix(data, 3, 4, 8, 2).has_value());   // every other column
  EXPECT_FALSE(optimized::blasMatrix(data, 3, 4, 0, 1).has_value());   // an expanded row
}

struct ConvCase {
  std::vector<int64_t> input, weight;
  std::vector<int64_t> stride, padding, dilation;
  int64_t groups;
  bool bias;
};

TEST(OptimizedBlas, ConvolutionAgreesWithThePortableKernel) {
  const std::vector<ConvCase> cases = {
      {{2, 4, 7, 9}, {6, 4, 3, 3}, {1}, {1}, {1}, 1, true},            // batch 2, same padding
      {{1, 3, 11, 10}, {5, 3, 3, 3}, {2}, {0}, {1}, 1, true},          // stride 2
      {{1, 3, 11, 10}, {5, 3, 2, 5}, {2, 1}, {1, 2}, {1}, 1, false},   // rectangular kernel, (h, w) pairs
      {{2, 4, 9, 9}, {4, 2, 3, 3}, {1}, {2}, {2}, 2, true},            // dilation and groups
      {{1, 6, 5, 5}, {6, 1, 3, 3}, {1}, {1}, {1}, 6, false},           // depthwise
      {{2, 8, 6, 7}, {3, 8, 1, 1}, {1}, {0}, {1}, 1, true},            // 1x1: the input read directly
      {{4, 6, 6}, {2, 4, 3, 3}, {1}, {1}, {1}, 1, true},               // unbatched
      {{1, 2, 3, 3}, {2, 2, 3, 3}, {3}, {4}, {1}, 1, true},            // padding larger than the kernel
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    const ConvCase& c = cases[i];
    const Tensor input = testing::randomTensor(c.input, 30 + i), weight = testing::randomTensor(c.weight, 40 + i);
    const std::optional<Tensor> bias = c.bias ? std::optional<Tensor>(testing::randomTensor({c.weight[0]}, 50 + i)) : std::nullopt;
    const std::string where = "convolution case " + std::to_string(i);
    expectAgrees([&] { return ops::convolution(input, weight, bias, c.stride, c.padding, c.dilation, false, {0}, c.groups); },
                 where);
    expectAgrees([&] {
      Tensor out = empty({1});
      return ops::convolution_out(out, input, weight, bias, c.stride, c.padding, c.dilation, false, {0}, c.groups);
    }, where + " (out=)");
  }
  // conv2d reaches the same kernel through its composite.
  const Tensor input = testing::randomTensor({1, 3, 8, 8}, 60), weight = testing::randomTensor({4, 3, 3, 3}, 61);
  expectAgrees([&] { return ops::conv2d(input, weight, std::nullopt, {1}, {1}); }, "conv2d");
}

}  // namespace
}  // namespace sy
