// Autograd from several threads at once (this binary also runs under ThreadSanitizer): each
// thread records and runs backward on its own graph, and the leaves they share accumulate every
// thread's gradient; threads running backward through one graph never read what another frees.
#include <atomic>
#include <string>
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

// A graph whose backward reads saved tensors at every node: loss = sum(exp(x) ^ (2 ^ 100)),
// whose gradient at x = 0 is 2 ^ 100.
Tensor lossSavingAtEveryNode(const Tensor& x) {
  Tensor y = ops::exp(x);
  for (int i = 0; i < 100; ++i) y = ops::mul(y, y);
  return ops::sum(y);
}

// Runs backward(loss, retain_graph[t]) on two threads started together; returns each thread's
// error message ("" for a backward that succeeded).
std::vector<std::string> backwardOnTwoThreads(const Tensor& loss, const bool (&retain_graph)[2]) {
  std::atomic<int> started{0};
  std::vector<std::string> errors(2);
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t) {
    threads.emplace_back([&, t] {
      started.fetch_add(1);
      while (started.load() < 2) std::this_thread::yield();
      try {
        backward(loss, Tensor(), retain_graph[t]);
      } catch (const Error& e) {
        errors[t] = e.what();
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  return errors;
}

bool isSecondBackwardError(const std::string& message) {
  return message.find("trying to backward through aten::") != std::string::npos &&
         message.find("a second time") != std::string::npos;
}

TEST(AutogradConcurrency, OfTwoBackwardsThroughOneGraphThatFreeItExactlyOneRunsAndTheOtherIsRefused) {
  for (int round = 0; round < 20; ++round) {
    const Tensor x = tensor<double>({0});
    x.requires_grad_();
    const Tensor loss = lossSavingAtEveryNode(x);
    const std::vector<std::string> errors = backwardOnTwoThreads(loss, {false, false});
    const int refused = isSecondBackwardError(errors[0]) + isSecondBackwardError(errors[1]);
    EXPECT_EQ(refused, 1) << "round " << round << ": '" << errors[0] << "', '" << errors[1] << "'";
    EXPECT_TRUE(errors[0].empty() || errors[1].empty());
    ASSERT_TRUE(x.grad().defined());
    EXPECT_EQ(x.grad().item<double>(), 0x1p100);  // one gradient, added once
  }
}

TEST(AutogradConcurrency, ABackwardThatRetainsTheGraphEitherFinishesReadingBeforeItIsFreedOrIsRefused) {
  for (int round = 0; round < 20; ++round) {
    const Tensor x = tensor<double>({0});
    x.requires_grad_();
    const Tensor loss = lossSavingAtEveryNode(x);
    const std::vector<std::string> errors = backwardOnTwoThreads(loss, {true, false});
    EXPECT_EQ(errors[1], "") << "round " << round;  // the backward that frees the graph always runs
    EXPECT_TRUE(errors[0].empty() || isSecondBackwardError(errors[0])) << errors[0];
    ASSERT_TRUE(x.grad().defined());
    EXPECT_EQ(x.grad().item<double>(), errors[0].empty() ? 0x1p101 : 0x1p100);
    std::string third;
    try {
      loss.backward();
    } catch (const Error& e) {
      third = e.what();
    }
    EXPECT_TRUE(isSecondBackwardError(third)) << third;  // the graph is freed once both are done
  }
}

}  // namespace
}  // namespace sy
