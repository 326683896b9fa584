// docs/autograd.md: a 2-4-2 MLP learns XOR through the autograd fallback. The region between
// the markers is the README's code block (tests/lint/check_readme_examples.py checks it; ./test.sh
// builds and runs this, and it exits non-zero unless the MLP learned XOR).
#include <iostream>
#include <vector>

// README: begin
#include <switchyard/switchyard.h>   // includes switchyard/autograd/autograd.h

sy::Tensor parameter(std::vector<float> values, std::vector<int64_t> sizes) {
  sy::Tensor p = sy::tensor<float>(values, sizes);
  p.requires_grad_();                                // a leaf: backward fills p.grad()
  return p;
}

std::vector<int64_t> learn_xor() {
  sy::Tensor x = sy::tensor<float>({0, 0, 0, 1, 1, 0, 1, 1}, {4, 2});
  sy::Tensor one_hot = sy::tensor<float>({1, 0, 0, 1, 0, 1, 1, 0}, {4, 2});   // classes 0, 1, 1, 0
  sy::Tensor w1 = parameter({0.5f, -0.4f, -0.3f, 0.6f, 0.7f, 0.2f, -0.6f, -0.5f}, {4, 2});
  sy::Tensor b1 = parameter({0.1f, -0.1f, 0.05f, 0.0f}, {4});
  sy::Tensor w2 = parameter({0.3f, -0.2f, 0.4f, 0.1f, -0.5f, 0.25f, -0.35f, 0.45f}, {2, 4});
  sy::Tensor b2 = parameter({0.0f, 0.0f}, {2});
  auto logits = [&] { return sy::ops::linear(sy::ops::tanh(sy::ops::linear(x, w1, b1)), w2, b2); };

  for (int step = 0; step < 500; ++step) {
    sy::Tensor log_p = sy::ops::log_softmax(logits(), /*dim=*/1);
    sy::Tensor loss = sy::ops::neg(sy::ops::mean(sy::ops::sum(sy::ops::mul(one_hot, log_p), {1})));
    loss.backward();                                   // fills w1.grad(), b1.grad(), ...
    sy::NoGradGuard no_grad;                           // the update is not recorded
    for (sy::Tensor* p : {&w1, &b1, &w2, &b2}) {
      sy::ops::sub_(*p, p->grad(), /*alpha=*/0.5);     // p -= 0.5 * grad
      p->mutable_grad() = sy::Tensor();                // gradients accumulate until reset
    }
  }
  sy::Tensor predicted = sy::ops::argmax(logits(), 1);
  return {predicted.data_ptr<int64_t>(), predicted.data_ptr<int64_t>() + 4};   // 0, 1, 1, 0
}
// README: end

int main() {
  const std::vector<int64_t> predicted = learn_xor();
  std::cout << "XOR predictions: " << predicted[0] << " " << predicted[1] << " " << predicted[2] << " " << predicted[3]
            << "\n";
  return predicted == std::vector<int64_t>{0, 1, 1, 0} ? 0 : 1;
}
