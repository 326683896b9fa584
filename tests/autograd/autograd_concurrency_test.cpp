// Autograd from several threads at once (this binary also runs under ThreadSanitizer): each
// thread records and runs backward on its own graph, and the leaves they share accumulate every
// thread's gradient.
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "switchyard/autograd/autograd.h"
#include "switchyard/switchyard.h"

namespace sy {
namespace {

TEST(AutogradConcurrency, ThreadsSharingALeafEachAddTheirGradient) {
  const Tensor w = tensor<double>({1, 2, 3});
  w.requires_grad_();
  constexpr int kThreads = 2, kSteps = 200;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&w, t] {
      const Tensor x = tensor<double>({1.0 + t, 1.0 + t, 1.0 + t});
      for (int step = 0; step < kSteps; ++step) {
        const Tensor v = ops::view(w, {3, 1});  // a recorded view of the shared leaf, on both threads
        ops::sum(ops::mul(ops::view(v, {3}), x)).backward();  // d/dw = x
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  const Tensor grad = w.grad();
  ASSERT_TRUE(grad.defined());
  // Each element: kSteps * (1 + 2) from the two threads.
  for (int i = 0; i < 3; ++i) EXPECT_EQ(grad.data_ptr<double>()[i], kSteps * 3.0);
}

TEST(AutogradConcurrency, NoGradGuardIsPerThread) {
  const Tensor w = tensor<double>({1});
  w.requires_grad_();
  bool recorded_on_other_thread = false;
  NoGradGuard no_grad;
  std::thread other([&] { recorded_on_other_thread = ops::mul(w, 2.0).requires_grad(); });
  other.join();
  EXPECT_TRUE(recorded_on_other_thread);
  EXPECT_FALSE(ops::mul(w, 2.0).requires_grad());
}

}  // namespace
}  // namespace sy
