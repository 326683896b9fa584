// The optimized unary kernels' values against the portable kernels': every function, in every
// instruction set this machine has (see Note [Instruction sets are chosen at run time]) and
// through the dispatcher, over edge values (NaN, infinities, signed zeros, subnormals, the
// overflow and underflow thresholds) and random inputs, at lengths around the vector widths.
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "switchyard/backends/devices/cpu/kernels.h"
#include "switchyard/backends/devices/cpu/unary_kernels.h"
#include "switchyard/backends/kernels/optimized/vector_math.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy::optimized {
namespace {

using sy::testing::functionalCall;
using sy::testing::kInf;
using sy::testing::kNaN;

// What each function is compared with, and how closely. SLEEF's u10 functions and glibc's are each
// within 1 ULP of the exact value, so they may differ by 2. Sigmoid computes 1 / (1 + exp(-x)) in
// Float on both sides, which carries exp's difference through and rounds twice more: 4 (measured
// at 4 near x = -16.7, where exp(-x) is about 1.8e7).
struct FunctionCase {
  UnaryFunction function;
  Tensor (*portable)(const Tensor&);
  Tensor (*dispatched)(const Tensor&);
  int64_t max_ulps;
  float random_low, random_high;  // where the random inputs lie
};

const std::vector<FunctionCase>& functionCases() {
  static const std::vector<FunctionCase> cases = {
      {UnaryFunction::Exp, +[](const Tensor& x) { return functionalCall(cpu::exp_out_cpu, "aten::exp", x); }, &ops::exp,
       2, -110.0f, 95.0f},
      {UnaryFunction::Log, +[](const Tensor& x) { return functionalCall(cpu::log_out_cpu, "aten::log", x); }, &ops::log,
       2, -1.0f, 1e6f},
      {UnaryFunction::Sin, +[](const Tensor& x) { return functionalCall(cpu::sin_out_cpu, "aten::sin", x); }, &ops::sin,
       2, -1e5f, 1e5f},
      {UnaryFunction::Cos, +[](const Tensor& x) { return functionalCall(cpu::cos_out_cpu, "aten::cos", x); }, &ops::cos,
       2, -1e5f, 1e5f},
      {UnaryFunction::Tanh, +[](const Tensor& x) { return functionalCall(cpu::tanh_out_cpu, "aten::tanh", x); },
       &ops::tanh, 2, -12.0f, 12.0f},
      {UnaryFunction::Sigmoid,
       +[](const Tensor& x) { return functionalCall(cpu::sigmoid_out_cpu, "aten::sigmoid", x); }, &ops::sigmoid, 4,
       -120.0f, 120.0f},
      {UnaryFunction::Acos, +[](const Tensor& x) { return functionalCall(cpu::acos_out_cpu, "aten::acos", x); },
       &ops::acos, 2, -1.05f, 1.05f},
  };
  return cases;
}

std::vector<float> edgeValues() {
  const float denorm = std::numeric_limits<float>::denorm_min();
  const float tiny = std::numeric_limits<float>::min();
  const float huge = std::numeric_limits<float>::max();
  return {0.0f,   -0.0f,  kInf,    -kInf,    kNaN,       -kNaN,      1.0f,       -1.0f,      0.5f,       -0.5f,
          denorm, -denorm, tiny,   -tiny,    huge,       -huge,      1e-7f,      -1e-7f,     88.72283f,  88.7229f,
          -87.33654f, -103.97208f, -104.0f, 3.1415927f, -3.1415927f, 1.5707964f, 1e4f, 1e6f, 1e30f, -1e30f,
          std::nextafter(1.0f, 0.0f), std::nextafter(-1.0f, 0.0f), std::nextafter(1.0f, 2.0f), 20.0f, -20.0f, 9.0f};
}

// Edge values first, then uniform random values in the case's range, `n` in all.
std::vector<float> inputsFor(const FunctionCase& c, int64_t n, uint32_t seed) {
  std::vector<float> values = edgeValues();
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(c.random_low, c.random_high);
  while (static_cast<int64_t>(values.size()) < n) values.push_back(uniform(rng));
  values.resize(static_cast<size_t>(n));
  return values;
}

// Floats as integers in the order of their values, so that ULP distance is a difference.
int64_t orderedBits(float f) {
  int32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  const int64_t magnitude = bits & 0x7fffffff;
  return bits < 0 ? -magnitude : magnitude;
}

// Empty when `actual` agrees with `expected`: NaN for NaN, infinities and zeros exactly (sign
// included), anything else within `max_ulps`.
std::string disagreement(float input, float expected, float actual, int64_t max_ulps) {
  bool ok;
  if (std::isnan(expected) || std::isnan(actual)) {
    ok = std::isnan(expected) && std::isnan(actual);
  } else if (std::isinf(expected) || expected == 0.0f) {
    ok = std::memcmp(&expected, &actual, sizeof(float)) == 0;
  } else {
    ok = std::llabs(orderedBits(expected) - orderedBits(actual)) <= max_ulps;
  }
  if (ok) return "";
  char text[160];
  std::snprintf(text, sizeof text, "f(%.9g): portable %.9g, optimized %.9g (%lld ULP apart, %lld allowed)", input,
                expected, actual, static_cast<long long>(std::llabs(orderedBits(expected) - orderedBits(actual))),
                static_cast<long long>(max_ulps));
  return text;
}

void expectAgrees(const FunctionCase& c, const std::vector<float>& inputs, const Tensor& expected, const float* actual,
                  const std::string& where) {
  const float* want = expected.data_ptr<float>();
  int failures = 0;
  for (size_t i = 0; i < inputs.size() && failures < 5; ++i) {
    const std::string message = disagreement(inputs[i], want[i], actual[i], c.max_ulps);
    if (!message.empty()) {
      ADD_FAILURE() << unaryFunctionName(c.function) << " " << where << ", element " << i << " of " << inputs.size()
                    << ": " << message;
      ++failures;
    }
  }
}

const std::vector<int64_t> kLengths = {0, 1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 64, 1000, 1031};

TEST(OptimizedUnary, EveryInstructionSetAgreesWithThePortableKernels) {
  for (InstructionSet set : kInstructionSets) {
    for (const FunctionCase& c : functionCases()) {
      UnaryLoop loop = unaryLoop(c.function, set);
      if (loop == nullptr) continue;  // not in this build or not on this CPU
      for (int64_t n : kLengths) {
        const std::vector<float> inputs = inputsFor(c, n, static_cast<uint32_t>(n));
        const Tensor expected = c.portable(tensor<float>(inputs, {n}));
        std::vector<float> actual(static_cast<size_t>(n), -1.0f);
        loop(inputs.data(), actual.data(), n);
        expectAgrees(c, inputs, expected, actual.data(), std::string(instructionSetName(set)) + " length " + std::to_string(n));
      }
    }
  }
}

// Every float in each [low, high] range, in order.
std::vector<float> everyFloatIn(std::initializer_list<std::pair<float, float>> ranges) {
  std::vector<float> values;
  for (auto [low, high] : ranges) {
    for (float x = low; x <= high; x = std::nextafter(x, high + 1.0f)) values.push_back(x);
  }
  return values;
}

// `f` over `inputs` in every instruction set this machine has, against the portable kernel.
void expectEverySetAgrees(UnaryFunction f, const std::vector<float>& inputs) {
  const FunctionCase& c = functionCases()[static_cast<int>(f)];
  ASSERT_EQ(c.function, f);
  const int64_t n = static_cast<int64_t>(inputs.size());
  const Tensor expected = c.portable(tensor<float>(inputs, {n}));
  for (InstructionSet set : kInstructionSets) {
    UnaryLoop loop = unaryLoop(f, set);
    if (loop == nullptr) continue;
    std::vector<float> actual(static_cast<size_t>(n), -1.0f);
    loop(inputs.data(), actual.data(), n);
    expectAgrees(c, inputs, expected, actual.data(), instructionSetName(set));
  }
}

// Every float where the AVX2 sigmoid's own exp changes regime (see Note [The AVX2 sigmoid computes
// its own exp]): around its clamps at x = 86 and x = -89, where 2^q reaches 2^128 and exp(-x)
// overflows (x from -88.8 to -88.3), and where the two sides are furthest apart (x near -16.64).
TEST(OptimizedUnary, SigmoidAgreesWhereItsExpChangesRegime) {
  expectEverySetAgrees(UnaryFunction::Sigmoid, everyFloatIn({{85.99f, 86.01f}, {-89.01f, -88.3f}, {-16.65f, -16.62f}}));
}

// Every float where the AVX2 acos changes branch or constant (see Note [The AVX2 acos is computed
// in line]): around x = 1/2 and -1/2, and from 0.999 through 1 to just past it on both sides.
TEST(OptimizedUnary, AcosAgreesWhereItChangesBranch) {
  expectEverySetAgrees(UnaryFunction::Acos,
                       everyFloatIn({{0.499f, 0.501f}, {-0.501f, -0.499f}, {0.999f, 1.0001f}, {-1.0001f, -0.999f}}));
}

// The AVX-512 unit computes sigmoid and acos as the AVX2 unit does, lane for lane: the same bits.
TEST(OptimizedUnary, Avx512SigmoidAndAcosAreTheAvx2ComputationsBitForBit) {
  for (UnaryFunction f : {UnaryFunction::Sigmoid, UnaryFunction::Acos}) {
    const UnaryLoop avx2 = unaryLoop(f, InstructionSet::Avx2), avx512 = unaryLoop(f, InstructionSet::Avx512);
    if (avx2 == nullptr || avx512 == nullptr) GTEST_SKIP() << "this machine lacks AVX2 or AVX-512";
    const std::vector<float> inputs = everyFloatIn({{-89.01f, -88.3f}, {-16.65f, -16.62f}, {-1.0001f, -0.999f},
                                                    {-0.501f, -0.499f}, {0.499f, 0.501f}, {0.999f, 1.0001f}, {85.99f, 86.01f}});
    const int64_t n = static_cast<int64_t>(inputs.size());
    std::vector<float> a(inputs.size()), b(inputs.size());
    avx2(inputs.data(), a.data(), n);
    avx512(inputs.data(), b.data(), n);
    for (size_t i = 0; i < inputs.size(); ++i) {
      ASSERT_EQ(std::memcmp(&a[i], &b[i], sizeof(float)), 0)
          << unaryFunctionName(f) << "(" << inputs[i] << "): avx2 " << a[i] << ", avx512 " << b[i];
    }
  }
}

TEST(OptimizedUnary, ComputesInPlaceAndFromUnalignedMemory) {
  for (InstructionSet set : kInstructionSets) {
    for (const FunctionCase& c : functionCases()) {
      UnaryLoop loop = unaryLoop(c.function, set);
      if (loop == nullptr) continue;
      const std::vector<float> inputs = inputsFor(c, 37, 7);
      const Tensor expected = c.portable(tensor<float>(inputs, {37}));
      std::vector<float> buffer(inputs.size() + 1);
      std::copy(inputs.begin(), inputs.end(), buffer.begin() + 1);  // one float past any alignment
      loop(buffer.data() + 1, buffer.data() + 1, 37);
      expectAgrees(c, inputs, expected, buffer.data() + 1, std::string(instructionSetName(set)) + " in place");
    }
  }
}

TEST(OptimizedUnary, TheWidestInstructionSetOfTheCpuIsActive) {
#if defined(__x86_64__)
  const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
  const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  EXPECT_EQ(activeInstructionSet(), avx512 ? InstructionSet::Avx512 : avx2 ? InstructionSet::Avx2 : InstructionSet::Sse2);
  EXPECT_NE(unaryLoop(UnaryFunction::Exp, InstructionSet::Sse2), nullptr);
#else
  EXPECT_EQ(activeInstructionSet(), InstructionSet::Scalar);
#endif
  EXPECT_NE(unaryLoop(UnaryFunction::Exp, InstructionSet::Scalar), nullptr);
}

// What a user runs: sy::ops:: calls on contiguous Float tensors reach the optimized kernels (the
// dispatch tests show that they do) and give the portable values, for every form.
TEST(OptimizedUnary, DispatchedFormsAgreeWithThePortableKernels) {
  for (const FunctionCase& c : functionCases()) {
    for (int64_t n : kLengths) {
      const std::vector<float> inputs = inputsFor(c, n, 100 + static_cast<uint32_t>(n));
      const Tensor x = tensor<float>(inputs, {n});
      const Tensor expected = c.portable(x);
      const std::string length = " length " + std::to_string(n);

      Tensor functional = c.dispatched(x);
      ASSERT_EQ(functional.sizes(), x.sizes());
      expectAgrees(c, inputs, expected, functional.data_ptr<float>(), "functional" + length);

      const auto& schema_name = std::string("aten::") + unaryFunctionName(c.function);
      auto out_op = Dispatcher::singleton().findSchemaOrThrow(schema_name, "out").typed<Tensor&(const Tensor&, Tensor&)>();
      Tensor out = empty({n});
      EXPECT_EQ(&out_op.call(x, out), &out);
      expectAgrees(c, inputs, expected, out.data_ptr<float>(), "out=" + length);

      auto inplace_op = Dispatcher::singleton().findSchemaOrThrow(schema_name + "_", "").typed<Tensor&(Tensor&)>();
      Tensor y = ops::clone(x);
      EXPECT_EQ(&inplace_op.call(y), &y);
      expectAgrees(c, inputs, expected, y.data_ptr<float>(), "in place" + length);
    }
  }
}

TEST(OptimizedUnary, MultiDimensionalTensorsAreComputedAsOneArray) {
  const FunctionCase& c = functionCases()[0];
  const std::vector<float> inputs = inputsFor(c, 2 * 3 * 5, 3);
  const Tensor x = tensor<float>(inputs, {2, 3, 5});
  Tensor out = empty({2, 3, 5});
  ops::exp_out(out, x);
  expectAgrees(c, inputs, c.portable(x), out.data_ptr<float>(), "3-D");
  const Tensor scalar = full(IntArrayRef{}, 1.0);
  EXPECT_FLOAT_EQ(ops::exp(scalar).item<float>(), std::exp(1.0f));
}

}  // namespace
}  // namespace sy::optimized
