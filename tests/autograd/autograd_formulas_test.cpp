// Every backward formula in autograd/ against central finite differences, in Double.
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "switchyard/autograd/autograd.h"
#include "switchyard/autograd/gradcheck.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy {
namespace {

using autograd::gradcheck;
using Inputs = std::vector<Tensor>;
using testing::randomUniformValues;

// A Double leaf of `sizes` with values uniform in [low, high), requiring grad unless `constant`.
Tensor leaf(std::vector<int64_t> sizes, uint32_t seed, double low = -1, double high = 1, bool constant = false) {
  int64_t numel = 1;
  for (int64_t s : sizes) numel *= s;
  std::vector<double> values = randomUniformValues<double>(numel, seed);
  for (double& v : values) v = low + (v + 1) / 2 * (high - low);
  Tensor t = tensor<double>(values, sizes);
  if (!constant) t.requires_grad_();
  return t;
}

// Values away from 0 and from each other, so piecewise functions (relu, max) are smooth around them.
Tensor spreadLeaf(std::vector<int64_t> sizes, uint32_t seed) {
  int64_t numel = 1;
  for (int64_t s : sizes) numel *= s;
  std::vector<double> values(static_cast<size_t>(numel));
  for (int64_t i = 0; i < numel; ++i) values[i] = (i % 2 == 0 ? 1 : -1) * (0.1 + 0.13 * ((i * 7 + seed) % numel));
  Tensor t = tensor<double>(values, sizes);
  t.requires_grad_();
  return t;
}

void expectGradientsMatch(const std::function<Tensor(const Inputs&)>& fn, const Inputs& inputs) {
  EXPECT_EQ(gradcheck(fn, inputs), "");
}

TEST(AutogradFormulas, ArithmeticMatchesFiniteDifferences) {
  const Tensor a = leaf({2, 3}, 1), b = leaf({2, 3}, 2), row = leaf({3}, 3), positive = leaf({2, 3}, 4, 0.5, 2);
  expectGradientsMatch([](const Inputs& in) { return ops::add(in[0], in[1], 2.5); }, {a, row});
  expectGradientsMatch([](const Inputs& in) { return ops::add(in[0], 3.0); }, {a});
  expectGradientsMatch([](const Inputs& in) { return ops::sub(in[0], in[1], 0.5); }, {row, a});
  expectGradientsMatch([](const Inputs& in) { return ops::sub(in[0], 1.5); }, {a});
  expectGradientsMatch([](const Inputs& in) { return ops::mul(in[0], in[1]); }, {a, b});
  expectGradientsMatch([](const Inputs& in) { return ops::mul(in[0], in[1]); }, {row, a});
  expectGradientsMatch([](const Inputs& in) { return ops::mul(in[0], -3.0); }, {a});
  expectGradientsMatch([](const Inputs& in) { return ops::div(in[0], in[1]); }, {a, positive});
  expectGradientsMatch([](const Inputs& in) { return ops::div(in[0], 4.0); }, {a});
  expectGradientsMatch([](const Inputs& in) { return ops::div(in[0], in[1], std::nullopt); }, {a, positive});
  expectGradientsMatch([](const Inputs& in) { return ops::neg(in[0]); }, {a});
}

TEST(AutogradFormulas, RoundingDivisionHasZeroGradient) {
  const Tensor a = leaf({4}, 5, 1, 3), b = leaf({4}, 6, 1, 2);
  ops::sum(ops::div(a, b, "floor")).backward();
  EXPECT_EQ(testing::doublesOf(a.grad()), std::vector<double>(4, 0.0));
  EXPECT_EQ(testing::doublesOf(b.grad()), std::vector<double>(4, 0.0));
  ops::sum(ops::div(a, 2.0, "trunc")).backward();
  EXPECT_EQ(testing::doublesOf(a.grad()), std::vector<double>(4, 0.0));
}

TEST(AutogradFormulas, UnaryFunctionsMatchFiniteDifferences) {
  const Tensor x = leaf({2, 3}, 7), positive = leaf({2, 3}, 8, 0.2, 3);
  expectGradientsMatch([](const Inputs& in) { return ops::exp(in[0]); }, {x});
  expectGradientsMatch([](const Inputs& in) { return ops::log(in[0]); }, {positive});
  expectGradientsMatch([](const Inputs& in) { return ops::sqrt(in[0]); }, {positive});
  expectGradientsMatch([](const Inputs& in) { return ops::sin(in[0]); }, {x});
  expectGradientsMatch([](const Inputs& in) { return ops::cos(in[0]); }, {x});
}

TEST(AutogradFormulas, ActivationsMatchFiniteDifferences) {
  const Tensor x = spreadLeaf({3, 4}, 3);
  expectGradientsMatch([](const Inputs& in) { return ops::relu(in[0]); }, {x});
  expectGradientsMatch([](const Inputs& in) { return ops::sigmoid(in[0]); }, {x});
  expectGradientsMatch([](const Inputs& in) { return ops::tanh(in[0]); }, {x});
}

TEST(AutogradFormulas, WhereSendsEachElementsGradientToItsSide) {
  const Tensor self = leaf({2, 3}, 9), other = leaf({3}, 10);
  const Tensor condition = tensor<bool>({true, false, true, false, false, true}, {2, 3});
  expectGradientsMatch([&](const Inputs& in) { return ops::where(condition, in[0], in[1]); }, {self, other});
}

TEST(AutogradFormulas, MatrixProductsMatchFiniteDifferences) {
  const Tensor a = leaf({2, 3}, 11), b = leaf({3, 4}, 12), bias = leaf({4}, 13), full_bias = leaf({2, 4}, 14);
  expectGradientsMatch([](const Inputs& in) { return ops::mm(in[0], in[1]); }, {a, b});
  expectGradientsMatch([](const Inputs& in) { return ops::addmm(in[0], in[1], in[2], 0.5, 2.0); }, {bias, a, b});
  expectGradientsMatch([](const Inputs& in) { return ops::addmm(in[0], in[1], in[2]); }, {full_bias, a, b});
  const Tensor batch_a = leaf({2, 2, 3}, 15), batch_b = leaf({2, 3, 2}, 16);
  expectGradientsMatch([](const Inputs& in) { return ops::bmm(in[0], in[1]); }, {batch_a, batch_b});
}

TEST(AutogradFormulas, LinearMatchesFiniteDifferencesWithAndWithoutBias) {
  const Tensor input = leaf({2, 3, 4}, 17), weight = leaf({5, 4}, 18), bias = leaf({5}, 19);
  expectGradientsMatch([](const Inputs& in) { return ops::linear(in[0], in[1], in[2]); }, {input, weight, bias});
  expectGradientsMatch([](const Inputs& in) { return ops::linear(in[0], in[1]); }, {input, weight});
  const Tensor vector = leaf({4}, 20);
  expectGradientsMatch([](const Inputs& in) { return ops::linear(in[0], in[1], in[2]); }, {vector, weight, bias});
}

TEST(AutogradFormulas, ReductionsMatchFiniteDifferences) {
  const Tensor x = leaf({2, 3, 4}, 21);
  expectGradientsMatch([](const Inputs& in) { return ops::sum(in[0]); }, {x});
  expectGradientsMatch([](const Inputs& in) { return ops::sum(in[0], {1}); }, {x});
  expectGradientsMatch([](const Inputs& in) { return ops::sum(in[0], {0, -1}, /*keepdim=*/true); }, {x});
  expectGradientsMatch([](const Inputs& in) { return ops::mean(in[0]); }, {x});
  expectGradientsMatch([](const Inputs& in) { return ops::mean(in[0], {2}); }, {x});
  expectGradientsMatch([](const Inputs& in) { return ops::mean(in[0], {-2, 0}, /*keepdim=*/true); }, {x});
}

TEST(AutogradFormulas, SoftmaxAndLogSoftmaxMatchFiniteDifferences) {
  const Tensor x = leaf({3, 4}, 22, -2, 2);
  expectGradientsMatch([](const Inputs& in) { return ops::softmax(in[0], 1); }, {x});
  expectGradientsMatch([](const Inputs& in) { return ops::softmax(in[0], 0); }, {x});
  expectGradientsMatch([](const Inputs& in) { return ops::log_softmax(in[0], -1); }, {x});
  expectGradientsMatch([](const Inputs& in) { return ops::_log_softmax(in[0], 0, false); }, {x});
}

TEST(AutogradFormulas, ConvolutionMatchesFiniteDifferences) {
  const Tensor input = leaf({2, 2, 5, 5}, 23), weight = leaf({3, 2, 3, 3}, 24), bias = leaf({3}, 25);
  expectGradientsMatch([](const Inputs& in) { return ops::conv2d(in[0], in[1], in[2]); }, {input, weight, bias});
  expectGradientsMatch([](const Inputs& in) { return ops::conv2d(in[0], in[1], in[2], {2, 1}, {1, 2}, {1, 2}); },
                       {input, weight, bias});
}

TEST(AutogradFormulas, GroupedAndUnbatchedConvolutionMatchFiniteDifferences) {
  const Tensor input = leaf({1, 4, 4, 4}, 26), weight = leaf({2, 2, 2, 2}, 27);
  expectGradientsMatch([](const Inputs& in) { return ops::conv2d(in[0], in[1], std::nullopt, {1}, {1}, {1}, 2); },
                       {input, weight});
  const Tensor unbatched = leaf({2, 4, 3}, 28), w = leaf({3, 2, 2, 2}, 29);
  expectGradientsMatch([](const Inputs& in) { return ops::conv2d(in[0], in[1]); }, {unbatched, w});
}

TEST(AutogradFormulas, MaxPoolMatchesFiniteDifferences) {
  const Tensor x = spreadLeaf({2, 2, 5, 6}, 4);
  expectGradientsMatch([](const Inputs& in) { return ops::max_pool2d(in[0], {2, 2}); }, {x});
  expectGradientsMatch([](const Inputs& in) { return ops::max_pool2d(in[0], {3, 2}, {1, 2}, {1, 1}); }, {x});
  expectGradientsMatch([](const Inputs& in) { return ops::max_pool2d(in[0], {2, 2}, {2, 2}, {0, 0}, {1, 1}, true); },
                       {x});
  expectGradientsMatch([](const Inputs& in) { return ops::max_pool2d(in[0], {2, 2}, {1, 1}, {0, 0}, {2, 2}); }, {x});
  expectGradientsMatch([](const Inputs& in) { return std::get<0>(ops::max_pool2d_with_indices(in[0], {3, 3}, {2, 2})); },
                       {x});
  const Tensor unbatched = spreadLeaf({2, 4, 4}, 5);
  expectGradientsMatch([](const Inputs& in) { return ops::max_pool2d(in[0], {2, 2}); }, {unbatched});
}

TEST(AutogradFormulas, ViewsMatchFiniteDifferences) {
  const Tensor x = leaf({2, 3, 4}, 30), column = leaf({3, 1}, 31);
  expectGradientsMatch([](const Inputs& in) { return ops::view(in[0], {6, 4}); }, {x});
  expectGradientsMatch([](const Inputs& in) { return ops::reshape(in[0], {4, -1}); }, {x});
  expectGradientsMatch([](const Inputs& in) { return ops::reshape(ops::transpose(in[0], 0, 2), {-1}); }, {x});
  expectGradientsMatch([](const Inputs& in) { return ops::permute(in[0], {2, 0, 1}); }, {x});
  expectGradientsMatch([](const Inputs& in) { return ops::transpose(in[0], 1, -1); }, {x});
  expectGradientsMatch([](const Inputs& in) { return ops::unsqueeze(in[0], -1); }, {x});
  expectGradientsMatch([](const Inputs& in) { return ops::squeeze(in[0]); }, {column});
  expectGradientsMatch([](const Inputs& in) { return ops::squeeze(in[0], 1); }, {column});
  expectGradientsMatch([](const Inputs& in) { return ops::squeeze(in[0], std::vector<int64_t>{1}); }, {column});
  expectGradientsMatch([](const Inputs& in) { return ops::expand(in[0], {2, 3, 5}); }, {column});
  expectGradientsMatch([](const Inputs& in) { return ops::slice(in[0], 2, 1, std::nullopt, 2); }, {x});
  expectGradientsMatch([](const Inputs& in) { return ops::select(in[0], 1, -1); }, {x});
  expectGradientsMatch([](const Inputs& in) { return ops::contiguous(ops::transpose(in[0], 0, 1)); }, {x});
}

TEST(AutogradFormulas, CopiesAndConcatenationMatchFiniteDifferences) {
  const Tensor a = leaf({2, 3}, 32), b = leaf({2, 2}, 33);
  expectGradientsMatch([](const Inputs& in) { return ops::clone(in[0]); }, {a});
  // Through Float and back: finite differences need a step Float's rounding does not drown.
  EXPECT_EQ(gradcheck([](const Inputs& in) { return ops::_to_copy(ops::_to_copy(in[0], ScalarType::Float), ScalarType::Double); },
                      {a}, {/*eps=*/1e-3, /*atol=*/1e-4, /*rtol=*/1e-3}),
            "");
  expectGradientsMatch([](const Inputs& in) { return ops::cat({in[0], in[1], in[0]}, 1); }, {a, b});
  expectGradientsMatch(
      [](const Inputs& in) {
        Tensor buffer = ops::zeros({2, 3}, ScalarType::Double);
        ops::copy_(buffer, in[0]);
        return ops::mul(buffer, buffer);
      },
      {leaf({3}, 34)});
}

TEST(AutogradFormulas, InPlaceFormsUseTheirFunctionalTwinsFormulas) {
  const Tensor a = leaf({2, 3}, 35), b = leaf({3}, 36);
  expectGradientsMatch(
      [](const Inputs& in) {
        Tensor t = ops::mul(in[0], 1.0);  // a non-leaf of its own to write into
        ops::mul_(t, in[1]);
        ops::add_(t, in[1], 2);
        ops::div_(t, ops::add(in[1], 3));
        ops::sub_(t, 0.25);
        return ops::tanh_(t);  // saves its result: the last write into t
      },
      {a, b});
}

}  // namespace
}  // namespace sy
