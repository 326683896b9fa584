// The optimized softmax and log_softmax against the portable kernels (which accumulate in
// Double): every instruction set the machine has and the dispatched forms, rows of lengths around
// the vector widths, rows with NaN and infinities, and which calls are handed on.
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/backends/devices/cpu/reduction_kernels.h"
#include "switchyard/backends/kernels/optimized/vector_math.h"
#include "switchyard/dispatcher/derived_kernels.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy::optimized {
namespace {

using sy::testing::functionalCall;
using sy::testing::kInf;
using sy::testing::kNaN;

Tensor portable(RowFunction f, const Tensor& x, int64_t dim) {
  return f == RowFunction::Softmax ? functionalCall(cpu::_softmax_out_cpu, "aten::_softmax", x, dim, false)
                                   : functionalCall(cpu::_log_softmax_out_cpu, "aten::_log_softmax", x, dim, false);
}

// Float sums of up to ~1000 terms in vector lanes against Double sums: a few 1e-6 relative.
void expectClose(const float* got, const Tensor& expected, const std::string& where) {
  const float* want = expected.data_ptr<float>();
  int failures = 0;
  for (int64_t i = 0; i < expected.numel() && failures < 5; ++i) {
    const bool ok = std::isnan(want[i]) ? std::isnan(got[i])
                    : std::isinf(want[i]) ? got[i] == want[i]
                                          : std::abs(got[i] - want[i]) <= 2e-5f * std::max(1.0f, std::abs(want[i]));
    if (!ok) {
      ADD_FAILURE() << where << ", element " << i << ": portable " << want[i] << ", optimized " << got[i];
      ++failures;
    }
  }
}

Tensor randomRows(int64_t rows, int64_t length, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0.0f, 5.0f);
  std::vector<float> values(static_cast<size_t>(rows * length));
  for (float& v : values) v = normal(rng);
  if (!values.empty()) values[0] += 90.0f;  // exp(90) overflows Float: only the shift by the max saves it
  return tensor<float>(values, {rows, length});
}

const std::vector<int64_t> kRowLengths = {1, 3, 4, 7, 8, 9, 16, 17, 33, 1031};

TEST(OptimizedSoftmax, EveryInstructionSetAgreesWithThePortableKernels) {
  for (InstructionSet set : kInstructionSets) {
    for (RowFunction f : {RowFunction::Softmax, RowFunction::LogSoftmax}) {
      RowLoop loop = rowLoop(f, set);
      if (loop == nullptr) continue;
      for (int64_t length : kRowLengths) {
        const Tensor x = randomRows(3, length, static_cast<uint32_t>(length));
        std::vector<float> got(static_cast<size_t>(x.numel()));
        loop(x.data_ptr<float>(), got.data(), 3, length);
        expectClose(got.data(), portable(f, x, 1),
                    std::string(instructionSetName(set)) + (f == RowFunction::Softmax ? " softmax" : " log_softmax") +
                        " length " + std::to_string(length));
      }
    }
  }
}

TEST(OptimizedSoftmax, RowsWithNaNOrInfinitiesMatchThePortableKernels) {
  const std::vector<float> rows = {
      1.0f, kNaN, 2.0f, 3.0f, 4.0f,    5.0f,  6.0f, 7.0f, 8.0f,  // NaN: the row is NaN
      1.0f, kInf, 2.0f, 3.0f, 4.0f,    5.0f,  6.0f, 7.0f, 8.0f,  // +inf: NaN too (inf - inf)
      1.0f, -kInf, 2.0f, 3.0f, -kInf, 5.0f, 6.0f, 7.0f, 8.0f,  // -inf: 0 (log: -inf)
      -kInf, -kInf, -kInf, -kInf, -kInf, -kInf, -kInf, -kInf, -kInf,  // all -inf: NaN
  };
  const Tensor x = tensor<float>(rows, {4, 9});
  for (RowFunction f : {RowFunction::Softmax, RowFunction::LogSoftmax}) {
    for (InstructionSet set : kInstructionSets) {
      RowLoop loop = rowLoop(f, set);
      if (loop == nullptr) continue;
      std::vector<float> got(rows.size());
      loop(rows.data(), got.data(), 4, 9);
      expectClose(got.data(), portable(f, x, 1), std::string(instructionSetName(set)) + " special rows");
    }
  }
}

TEST(OptimizedSoftmax, DispatchedFormsAgreeWithThePortableKernels) {
  for (int64_t length : kRowLengths) {
    const Tensor x = randomRows(2, length, 50 + static_cast<uint32_t>(length));
    const std::string where = "length " + std::to_string(length);
    expectClose(ops::_softmax(x, -1, false).data_ptr<float>(), portable(RowFunction::Softmax, x, 1), "softmax " + where);
    expectClose(ops::softmax(x, 1).data_ptr<float>(), portable(RowFunction::Softmax, x, 1), "softmax.int " + where);
    expectClose(ops::_log_softmax(x, 1, false).data_ptr<float>(), portable(RowFunction::LogSoftmax, x, 1),
                "log_softmax " + where);
    Tensor out = empty({0});
    Tensor flat = ops::reshape(x, {2 * length});  // one row
    ops::_softmax_out(out, flat, 0, false);
    expectClose(out.data_ptr<float>(), portable(RowFunction::Softmax, flat, 0), "softmax.out " + where);
    Tensor in_place = ops::clone(x);
    ops::_log_softmax_out(in_place, in_place, 1, false);
    expectClose(in_place.data_ptr<float>(), portable(RowFunction::LogSoftmax, x, 1), "log_softmax.out in place " + where);
  }
  EXPECT_FLOAT_EQ(ops::_softmax(full(IntArrayRef{}, 3.0), 0, false).item<float>(), 1.0f);
  EXPECT_EQ(ops::_softmax(empty({2, 0}), 1, false).numel(), 0);
}

// The kernels take the last dimension only; everything else reaches the portable kernel.
int g_portable_calls = 0;
Tensor& countingSoftmaxOut(const Tensor& self, int64_t dim, bool half_to_float, Tensor& out, const KernelContext& ctx) {
  ++g_portable_calls;
  return cpu::_softmax_out_cpu(self, dim, half_to_float, out, ctx);
}
constexpr KernelContext kCountingSoftmaxOut{"aten::_softmax.out", OutputForm::Out};

TEST(OptimizedSoftmax, OtherDimensionsAndDtypesReachThePortableKernel) {
  Library counting(Library::Impl, "aten", DispatchKey::CPU);
  counting.impl("_softmax.out", withContext<&countingSoftmaxOut, &kCountingSoftmaxOut>());
  g_portable_calls = 0;
  const Tensor x = randomRows(3, 5, 9);
  Tensor out = empty({3, 5});
  ops::_softmax_out(out, x, 1, false);
  EXPECT_EQ(g_portable_calls, 0);
  ops::_softmax_out(out, x, 0, false);  // along the rows' dimension
  EXPECT_EQ(g_portable_calls, 1);
  expectClose(out.data_ptr<float>(), portable(RowFunction::Softmax, x, 0), "dim 0");
  Tensor d_out = empty({3, 5}, ScalarType::Double);
  ops::_softmax_out(d_out, ops::_to_copy(x, ScalarType::Double), 1, false);
  EXPECT_EQ(g_portable_calls, 2);
  EXPECT_THAT(sy::testing::errorMessageOf([&] { ops::_softmax_out(out, x, 1, true); }), ::testing::HasSubstr("half_to_float"));
  EXPECT_EQ(g_portable_calls, 3);
  EXPECT_THAT(sy::testing::errorMessageOf([&] { ops::_softmax_out(out, x, 2, false); }), ::testing::HasSubstr("dim"));
  EXPECT_EQ(g_portable_calls, 4);
}

}  // namespace
}  // namespace sy::optimized
