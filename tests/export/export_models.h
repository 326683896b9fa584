// The model zoo the export tests capture, emit and run: small models written as plain C++ calls
// through sy::ops, each holding its weights and naming them as parameters.
//
//   sy::testing::Mlp mlp(/*seed=*/1);
//   sy::export_::ExportedProgram ep = sy::export_::capture(mlp.model(), {mlp.exampleInput()}, mlp.parameters());
//   std::vector<sy::Tensor> eager = mlp.model()({x});   // the same model, run eagerly
#pragma once

#include <string>
#include <vector>

#include "switchyard/export/capture.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy::testing {

// `actual` has `expected`'s dtype and shape and its values within `tolerance`.
inline void expectCloseTo(const Tensor& actual, const Tensor& expected, double tolerance = 1e-5) {
  EXPECT_EQ(export_::TensorMeta::of(actual), export_::TensorMeta::of(expected));
  const std::vector<double> a = doublesOf(actual), e = doublesOf(expected);
  ASSERT_EQ(a.size(), e.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], e[i], tolerance) << "element " << i;
}

// linear(4 -> 8), relu, linear(8 -> 3), softmax over the last dimension.
struct Mlp {
  Tensor w1, b1, w2, b2;
  explicit Mlp(uint32_t seed = 1)
      : w1(randomTensor({8, 4}, seed)), b1(randomTensor({8}, seed + 1)), w2(randomTensor({3, 8}, seed + 2)),
        b2(randomTensor({3}, seed + 3)) {}

  Tensor forward(const Tensor& x) const {
    export_::SourceScope scope;
    Tensor h = SY_SOURCE(ops::relu(ops::linear(x, w1, b1)));
    return SY_SOURCE(ops::softmax(ops::linear(h, w2, b2), -1));
  }
  export_::Model model() const {
    return [this](const std::vector<Tensor>& in) { return std::vector<Tensor>{forward(in[0])}; };
  }
  std::vector<export_::NamedTensor> parameters() const {
    return {{"fc1.weight", w1}, {"fc1.bias", b1}, {"fc2.weight", w2}, {"fc2.bias", b2}};
  }
  static Tensor exampleInput(uint32_t seed = 100) { return randomTensor({2, 4}, seed); }
};

// conv2d(1 -> 4, 3x3, padding 1), relu, max_pool2d(2), view to [N, 4*4*4], linear(64 -> 5), softmax.
struct SmallCnn {
  Tensor conv_w, conv_b, fc_w, fc_b;
  explicit SmallCnn(uint32_t seed = 11)
      : conv_w(randomTensor({4, 1, 3, 3}, seed)), conv_b(randomTensor({4}, seed + 1)),
        fc_w(randomTensor({5, 64}, seed + 2)), fc_b(randomTensor({5}, seed + 3)) {}

  Tensor forward(const Tensor& x) const {
    export_::SourceScope scope;
    Tensor h = SY_SOURCE(ops::conv2d(x, conv_w, conv_b, {1, 1}, {1, 1}));
    h = SY_SOURCE(ops::relu(h));
    h = SY_SOURCE(ops::max_pool2d(h, {2, 2}, {2, 2}));
    h = SY_SOURCE(ops::view(h, {x.size(0), 64}));
    return SY_SOURCE(ops::softmax(ops::linear(h, fc_w, fc_b), 1));
  }
  export_::Model model() const {
    return [this](const std::vector<Tensor>& in) { return std::vector<Tensor>{forward(in[0])}; };
  }
  std::vector<export_::NamedTensor> parameters() const {
    return {{"conv.weight", conv_w}, {"conv.bias", conv_b}, {"fc.weight", fc_w}, {"fc.bias", fc_b}};
  }
  static Tensor exampleInput(uint32_t seed = 200) { return randomTensor({2, 1, 8, 8}, seed); }
};

// y = relu(x + conv(relu(conv(x)))), two 3x3 convolutions keeping 2 channels and the 6x6 size.
struct ResidualBlock {
  Tensor w1, b1, w2, b2;
  explicit ResidualBlock(uint32_t seed = 21)
      : w1(randomTensor({2, 2, 3, 3}, seed)), b1(randomTensor({2}, seed + 1)), w2(randomTensor({2, 2, 3, 3}, seed + 2)),
        b2(randomTensor({2}, seed + 3)) {}

  Tensor forward(const Tensor& x) const {
    export_::SourceScope scope;
    Tensor h = SY_SOURCE(ops::relu(ops::conv2d(x, w1, b1, {1, 1}, {1, 1})));
    h = SY_SOURCE(ops::conv2d(h, w2, b2, {1, 1}, {1, 1}));
    return SY_SOURCE(ops::relu(ops::add(x, h)));
  }
  export_::Model model() const {
    return [this](const std::vector<Tensor>& in) { return std::vector<Tensor>{forward(in[0])}; };
  }
  std::vector<export_::NamedTensor> parameters() const {
    return {{"conv1.weight", w1}, {"conv1.bias", b1}, {"conv2.weight", w2}, {"conv2.bias", b2}};
  }
  static Tensor exampleInput(uint32_t seed = 300) { return randomTensor({1, 2, 6, 6}, seed); }
};

}  // namespace sy::testing
