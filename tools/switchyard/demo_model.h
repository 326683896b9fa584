// The model `switchyard demo` follows through every layer: a small convolutional classifier written
// as plain C++ calls to sy::ops, with deterministic weights.
//
//   sy::cli::DemoCnn model;
//   sy::Tensor probabilities = model.forward(sy::cli::DemoCnn::exampleInput());   // [1, 10]
//
//   conv2d 3->8 3x3 pad 1, relu, max_pool2d 2          [1, 8, 16, 16]
//   conv2d 8->16 3x3 pad 1, relu, max_pool2d 2         [1, 16, 8, 8]
//   mean over H and W (global average pool)            [1, 16]
//   linear 16->10                                      [1, 10]
//   soft-capped logits: cap * tanh(logits / cap)       [1, 10]
//   plus a bias, softmax
#pragma once

#include <vector>

#include "switchyard/export/capture.h"
#include "switchyard/ivalue/tensor.h"

namespace sy::cli {

struct DemoCnn {
  Tensor conv1_w, conv1_b, conv2_w, conv2_b, fc_w, fc_b, inverse_cap, cap, logit_bias;

  DemoCnn();
  Tensor forward(const Tensor& x) const;
  // The same weights on `device` (the model then runs wherever its tensors are).
  DemoCnn to(Device device) const;

  export_::Model model() const;
  std::vector<export_::NamedTensor> parameters() const;
  // [1, 3, 32, 32], deterministic.
  static Tensor exampleInput();
};

}  // namespace sy::cli
