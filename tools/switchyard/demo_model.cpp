#include "switchyard/tools/switchyard/demo_model.h"

#include <cmath>

#include "switchyard/export/source_scope.h"
#include "switchyard/switchyard.h"

namespace sy::cli {
namespace {

// Deterministic values in [-scale, scale], different for each `seed`: weights of a plausible size
// without a random-number generator whose sequence could change between library versions.
Tensor deterministic(std::vector<int64_t> sizes, int seed, double scale) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  std::vector<float> values(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) values[static_cast<size_t>(i)] = static_cast<float>(scale * std::sin(0.7 * i + 1.3 * seed));
  return sy::tensor<float>(values, sizes);
}

}  // namespace

DemoCnn::DemoCnn()
    : conv1_w(deterministic({8, 3, 3, 3}, 1, 0.3)),
      conv1_b(deterministic({8}, 2, 0.1)),
      conv2_w(deterministic({16, 8, 3, 3}, 3, 0.15)),
      conv2_b(deterministic({16}, 4, 0.1)),
      fc_w(deterministic({10, 16}, 5, 0.4)),
      fc_b(deterministic({10}, 6, 0.1)),
      // Full-size ([1, 10]) factors and bias: the demo delegate does not broadcast.
      inverse_cap(sy::full({1, 10}, 1.0 / 3)),
      cap(sy::full({1, 10}, 3.0)),
      logit_bias(deterministic({1, 10}, 7, 0.2)) {}

Tensor DemoCnn::forward(const Tensor& x) const {
  export_::SourceScope scope;
  Tensor h = SY_SOURCE(ops::relu(ops::conv2d(x, conv1_w, conv1_b, {1, 1}, {1, 1})));
  h = SY_SOURCE(ops::max_pool2d(h, {2, 2}, {2, 2}));
  h = SY_SOURCE(ops::relu(ops::conv2d(h, conv2_w, conv2_b, {1, 1}, {1, 1})));
  h = SY_SOURCE(ops::max_pool2d(h, {2, 2}, {2, 2}));
  h = SY_SOURCE(ops::mean(h, {2, 3}));
  Tensor logits = SY_SOURCE(ops::linear(h, fc_w, fc_b));
  logits = SY_SOURCE(ops::mul(ops::tanh(ops::mul(logits, inverse_cap)), cap));
  logits = SY_SOURCE(ops::add(logits, logit_bias));
  return SY_SOURCE(ops::softmax(logits, 1));
}

DemoCnn DemoCnn::to(Device device) const {
  DemoCnn moved = *this;
  for (Tensor* t : {&moved.conv1_w, &moved.conv1_b, &moved.conv2_w, &moved.conv2_b, &moved.fc_w, &moved.fc_b,
                    &moved.inverse_cap, &moved.cap, &moved.logit_bias}) {
    *t = t->to(device);
  }
  return moved;
}

export_::Model DemoCnn::model() const {
  return [this](const std::vector<Tensor>& in) { return std::vector<Tensor>{forward(in[0])}; };
}

std::vector<export_::NamedTensor> DemoCnn::parameters() const {
  return {{"conv1.weight", conv1_w}, {"conv1.bias", conv1_b}, {"conv2.weight", conv2_w},
          {"conv2.bias", conv2_b},   {"fc.weight", fc_w},       {"fc.bias", fc_b},
          {"inverse_cap", inverse_cap}, {"cap", cap}, {"logit_bias", logit_bias}};
}

Tensor DemoCnn::exampleInput() { return deterministic({1, 3, 32, 32}, 8, 1.0); }

}  // namespace sy::cli
