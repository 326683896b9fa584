// Training with autograd end to end: a 2-4-2 MLP learns XOR with plain gradient descent, every
// gradient coming from the recording fallback and the registered formulas.
#include <vector>

#include "gtest/gtest.h"
#include "switchyard/autograd/autograd.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy {
namespace {

using testing::valuesOf;

struct Mlp {
  Tensor w1, b1, w2, b2;

  Tensor logits(const Tensor& x) const { return ops::linear(ops::tanh(ops::linear(x, w1, b1)), w2, b2); }
  std::vector<Tensor*> parameters() { return {&w1, &b1, &w2, &b2}; }
};

Tensor parameter(std::vector<float> values, std::vector<int64_t> sizes) {
  Tensor t = tensor<float>(values, sizes);
  t.requires_grad_();
  return t;
}

TEST(AutogradTraining, AnMlpLearnsXorToZeroError) {
  const Tensor x = tensor<float>({0, 0, 0, 1, 1, 0, 1, 1}, {4, 2});
  const std::vector<int64_t> labels = {0, 1, 1, 0};
  const Tensor one_hot = tensor<float>({1, 0, 0, 1, 0, 1, 1, 0}, {4, 2});
  // A fixed, asymmetric start (no two hidden units alike), so the test is deterministic.
  Mlp mlp{parameter({0.5f, -0.4f, -0.3f, 0.6f, 0.7f, 0.2f, -0.6f, -0.5f}, {4, 2}),
          parameter({0.1f, -0.1f, 0.05f, 0.0f}, {4}),
          parameter({0.3f, -0.2f, 0.4f, 0.1f, -0.5f, 0.25f, -0.35f, 0.45f}, {2, 4}),
          parameter({0.0f, 0.0f}, {2})};

  float first_loss = 0, loss_value = 0;
  for (int step = 0; step < 500; ++step) {
    // Cross-entropy: -mean over samples of sum(one_hot * log_softmax(logits)).
    const Tensor log_p = ops::log_softmax(mlp.logits(x), 1);
    const Tensor loss = ops::neg(ops::mean(ops::sum(ops::mul(one_hot, log_p), {1})));
    loss.backward();
    loss_value = loss.item<float>();
    if (step == 0) first_loss = loss_value;
    NoGradGuard no_grad;
    for (Tensor* p : mlp.parameters()) {
      ops::sub_(*p, p->grad(), /*alpha=*/0.5);
      p->mutable_grad() = Tensor();
    }
  }
  EXPECT_LT(loss_value, 0.05f * first_loss);
  const Tensor predictions = ops::argmax(mlp.logits(x), 1);
  EXPECT_EQ(valuesOf<int64_t>(predictions), labels);
  // The parameters are still leaves that require grad: the updates were not recorded.
  for (Tensor* p : mlp.parameters()) {
    EXPECT_TRUE(p->is_leaf());
    EXPECT_TRUE(p->requires_grad());
  }
}

}  // namespace
}  // namespace sy
