// gradcheck: compares the gradients backward computes with central finite differences, the way
// to test a backward formula (PyTorch's torch.autograd.gradcheck).
//
//   sy::Tensor x = sy::tensor<double>({0.5, -1.0, 2.0});
//   x.requires_grad_();
//   std::string mismatch = sy::autograd::gradcheck([](const std::vector<sy::Tensor>& in) {
//     return sy::ops::tanh(in[0]);
//   }, {x});
//   // mismatch is empty when every partial derivative agrees
//
// `fn` may return a tensor of any shape: it is reduced to a scalar with fixed, distinct weights, so
// every output element's gradient is checked. Inputs should be contiguous Double CPU tensors;
// those that require grad are checked, the others are constants. Their grad() is reset.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "switchyard/ivalue/tensor.h"

namespace sy::autograd {

struct GradcheckOptions {
  double eps = 1e-6;   // finite-difference step
  double atol = 1e-6;  // |analytic - numeric| <= atol + rtol * |numeric|
  double rtol = 1e-4;
};

// Empty when backward's gradients match finite differences; otherwise a description of the first
// mismatch ("input 0, element 3: backward gives 0.5 but finite differences give 0.25").
std::string gradcheck(const std::function<Tensor(const std::vector<Tensor>&)>& fn, const std::vector<Tensor>& inputs,
                      GradcheckOptions options = {});

}  // namespace sy::autograd
