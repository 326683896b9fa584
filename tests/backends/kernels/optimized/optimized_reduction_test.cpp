// The optimized sum and mean against the portable kernels (which add in Double): every instruction
// set's block sum, row and whole-tensor reductions of odd and empty sizes, keepdim and negative
// dims, NaN and infinities, the same sums at one thread and two, and which calls are handed on.
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/backends/devices/cpu/reduction_kernels.h"
#include "switchyard/backends/kernels/optimized/reduction_loop.h"
#include "switchyard/backends/kernels/optimized/reduction_math.h"
#include "switchyard/backends/kernels/optimized/threads.h"
#include "switchyard/dispatcher/derived_kernels.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy::optimized {
namespace {

using sy::testing::functionalCall;

const std::optional<ScalarType> kNoDtype;
constexpr float kInfinity = std::numeric_limits<float>::infinity();
constexpr float kNotANumber = std::numeric_limits<float>::quiet_NaN();

// The portable kernels' results, called without the dispatcher.
Tensor portableSumOfAll(const Tensor& x) { return functionalCall(cpu::sum_out_cpu, "aten::sum", x, kNoDtype); }
Tensor portableMeanOfAll(const Tensor& x) { return functionalCall(cpu::mean_dtype_out_cpu, "aten::mean", x, kNoDtype); }
Tensor portableSumOverDims(const Tensor& x, IntArrayRef dims, bool keepdim) {
  return functionalCall(cpu::sum_IntList_out_cpu, "aten::sum.dim_IntList", x, std::optional<IntArrayRef>(dims), keepdim,
                        kNoDtype);
}
Tensor portableMeanOverDims(const Tensor& x, IntArrayRef dims, bool keepdim) {
  return functionalCall(cpu::mean_out_cpu, "aten::mean.dim", x, std::optional<IntArrayRef>(dims), keepdim, kNoDtype);
}

Tensor normalValues(std::vector<int64_t> sizes, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(1.0f, 10.0f);
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  std::vector<float> values(static_cast<size_t>(n));
  for (float& v : values) v = normal(rng);
  return tensor<float>(values, sizes);
}

// |got - want| within the bound (see Note [Float sums add blocks pairwise]) for sums of up to a few
// thousand terms of magnitude ~10 (scaled by the row's count for a mean), or both NaN / the same
// infinity.
void expectSumsClose(const Tensor& got, const Tensor& want, int64_t terms, bool mean, const std::string& where) {
  ASSERT_EQ(got.scalar_type(), ScalarType::Float) << where;
  ASSERT_EQ(got.sizes(), want.sizes()) << where;
  const float* g = got.data_ptr<float>();
  const float* w = want.data_ptr<float>();
  const double bound = 1e-5 * 20.0 * static_cast<double>(terms) / (mean && terms > 0 ? terms : 1) + 1e-6;
  for (int64_t i = 0; i < got.numel(); ++i) {
    if (std::isnan(w[i]) || std::isinf(w[i])) {
      EXPECT_TRUE(std::isnan(w[i]) ? std::isnan(g[i]) : g[i] == w[i]) << where << ", element " << i << ": " << g[i];
    } else {
      EXPECT_LE(std::abs(static_cast<double>(g[i]) - w[i]), bound) << where << ", element " << i << ": portable "
                                                                      << w[i] << ", optimized " << g[i];
    }
  }
}

TEST(OptimizedReduction, EveryInstructionSetsBlockSumIsCloseToTheDoubleSum) {
  const Tensor x = normalValues({10000}, 3);
  const float* data = x.data_ptr<float>();
  for (InstructionSet set : kInstructionSets) {
    const BlockSumLoop loop = blockSumLoop(set);
    if (loop == nullptr) continue;
    // The Note's bound: kSumBlock / lanes adds in a lane, log2(lanes) + log2(blocks) < 12 more.
    const int64_t lanes = 8 * (set == InstructionSet::Avx512 ? 16 : set == InstructionSet::Avx2 ? 8 : set == InstructionSet::Sse2 ? 4 : 1);
    const double unit = std::ldexp(1.0, -24) * static_cast<double>(detail::kSumBlock / lanes + 12);
    for (int64_t n : {0, 1, 3, 7, 8, 9, 31, 63, 65, 100, 1023, 4095, 4096, 4097, 9999}) {
      double exact = 0, magnitude = 0;
      for (int64_t i = 0; i < n; ++i) exact += data[i], magnitude += std::abs(data[i]);
      EXPECT_LE(std::abs(sumFloatsWith(loop, data, n) - exact), unit * magnitude)
          << instructionSetName(set) << ", n " << n;
    }
  }
}

TEST(OptimizedReduction, RowAndWholeReductionsAgreeWithThePortableKernels) {
  const std::vector<std::vector<int64_t>> shapes = {{}, {1}, {7}, {4097}, {3, 33}, {4, 1, 9}, {2, 3, 5, 7}, {0}, {3, 0}, {0, 4}};
  uint32_t seed = 10;
  for (const auto& shape : shapes) {
    const Tensor x = normalValues(shape, ++seed);
    const int64_t rank = static_cast<int64_t>(shape.size());
    std::vector<std::vector<int64_t>> dim_lists = {{}, {-1}};
    if (rank >= 2) dim_lists.push_back({rank - 2, -1});
    if (rank >= 2) dim_lists.push_back({0});  // not rows: the portable kernel's
    if (rank >= 3) dim_lists.push_back({-1, 1});
    for (const auto& dims : dim_lists) {
      for (bool keepdim : {false, true}) {
        const std::string where = "shape " + ::testing::PrintToString(shape) + " dims " + ::testing::PrintToString(dims) +
                                  (keepdim ? " keepdim" : "");
        int64_t terms = x.numel();
        if (!dims.empty() && rank > 0) {
          terms = 1;
          std::vector<bool> seen(static_cast<size_t>(rank), false);
          for (int64_t d : dims) seen[static_cast<size_t>(d < 0 ? d + rank : d)] = true;
          for (int64_t d = 0; d < rank; ++d) terms *= seen[static_cast<size_t>(d)] ? shape[static_cast<size_t>(d)] : 1;
        }
        expectSumsClose(ops::sum(x, dims, keepdim), portableSumOverDims(x, dims, keepdim), terms, false,
                        "sum " + where);
        expectSumsClose(ops::mean(x, dims, keepdim), portableMeanOverDims(x, dims, keepdim), terms, true,
                        "mean " + where);
        Tensor out = empty({2, 2});  // resized
        ops::sum_out(out, x, dims, keepdim, ScalarType::Float);
        expectSumsClose(out, portableSumOverDims(x, dims, keepdim), terms, false, "sum.out " + where);
      }
    }
    expectSumsClose(ops::sum(x), portableSumOfAll(x), x.numel(), false, "sum all " + ::testing::PrintToString(shape));
    Tensor out = empty({3});
    ops::mean_out(out, x);
    expectSumsClose(out, portableMeanOfAll(x), x.numel(), true, "mean.dtype_out " + ::testing::PrintToString(shape));
  }
  EXPECT_EQ(ops::sum(empty({0})).item<float>(), 0.0f);
  EXPECT_TRUE(std::isnan(ops::mean(empty({0})).item<float>()));
}

TEST(OptimizedReduction, NaNAndInfinitiesPropagateAsInThePortableKernels) {
  // Rows of 37: a NaN, +inf, -inf, both infinities (NaN), finite; in the vector body and the tail.
  std::vector<float> values(5 * 37, 1.5f);
  values[3] = kNotANumber;
  values[37 + 36] = kInfinity;
  values[2 * 37 + 10] = -kInfinity;
  values[3 * 37 + 1] = kInfinity;
  values[3 * 37 + 35] = -kInfinity;
  const Tensor x = tensor<float>(values, {5, 37});
  expectSumsClose(ops::sum(x, {-1}), portableSumOverDims(x, {-1}, false), 37, false, "sum");
  expectSumsClose(ops::mean(x, {1}, true), portableMeanOverDims(x, {1}, true), 37, true, "mean");
  EXPECT_TRUE(std::isnan(ops::sum(x).item<float>()));
}

TEST(OptimizedReduction, LargeSumsAreIdenticalAtOneAndTwoThreads) {
  const int saved = get_num_threads();
  const Tensor x = normalValues({(1 << 20) + 3}, 77);
  const Tensor rows = ops::reshape(ops::slice(x, 0, 0, int64_t{1} << 20), {4, 1 << 18});
  set_num_threads(1);
  const float one = ops::sum(x).item<float>();
  const Tensor rows_one = ops::mean(rows, {1});
  set_num_threads(2);
  const float two = ops::sum(x).item<float>();
  const Tensor rows_two = ops::mean(rows, {1});
  set_num_threads(saved);
  EXPECT_EQ(one, two);
  for (int64_t r = 0; r < 4; ++r) EXPECT_EQ(rows_one.data_ptr<float>()[r], rows_two.data_ptr<float>()[r]) << r;
  expectSumsClose(ops::sum(x), portableSumOfAll(x), 1 << 20, false, "1M sum");
}

// Dim lists that are not rows, another dtype and an out= sharing self's memory reach the portable
// kernel; whatever the portable kernel rejects, it rejects with its own error.
int g_portable_sums = 0;
Tensor& countingSumOut(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
                       std::optional<ScalarType> dtype, Tensor& out, const KernelContext& ctx) {
  ++g_portable_sums;
  return cpu::sum_IntList_out_cpu(self, dim, keepdim, dtype, out, ctx);
}
constexpr KernelContext kCountingSumOut{"aten::sum.IntList_out", OutputForm::Out};

TEST(OptimizedReduction, OtherDimListsDtypesAndOutsReachThePortableKernel) {
  Library counting(Library::Impl, "aten", DispatchKey::CPU);
  counting.impl("sum.IntList_out", withContext<&countingSumOut, &kCountingSumOut>());
  g_portable_sums = 0;
  const Tensor x = normalValues({3, 1, 5}, 5);
  Tensor out = empty({0});
  ops::sum_out(out, x, {2, 1});  // rows (the size-1 dim does not count)
  EXPECT_EQ(g_portable_sums, 0);
  ops::sum_out(out, x, {0});  // a reduced dim before a kept one
  EXPECT_EQ(g_portable_sums, 1);
  expectSumsClose(out, portableSumOverDims(x, {0}, false), 3, false, "dim 0");
  Tensor d_out = empty({0}, ScalarType::Double);
  ops::sum_out(d_out, x, {-1}, false, ScalarType::Double);
  EXPECT_EQ(g_portable_sums, 2);
  EXPECT_EQ(d_out.scalar_type(), ScalarType::Double);
  Tensor same = ops::clone(x);
  Tensor view = ops::reshape(ops::slice(ops::reshape(same, {15}), 0, 0, 3), {3, 1});
  ops::sum_out(view, same, {-1});
  EXPECT_EQ(g_portable_sums, 3);
  EXPECT_THAT(sy::testing::errorMessageOf([&] { ops::sum_out(out, x, {3}); }), ::testing::HasSubstr("out of range"));
  EXPECT_THAT(sy::testing::errorMessageOf([&] { ops::sum_out(out, x, {1, -2}); }), ::testing::HasSubstr("multiple times"));
  EXPECT_EQ(g_portable_sums, 5);
}

}  // namespace
}  // namespace sy::optimized
