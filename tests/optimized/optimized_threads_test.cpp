// sy::set_num_threads for the optimized kernels: the setting itself, and that large operators give
// the same results at one thread and two: identical for the elementwise and softmax kernels (the
// pool splits where it likes; see Note [Only large operators use the thread pool]), within Float
// rounding for the matrix products and the convolution, since OpenBLAS's threaded sgemm blocks the
// work differently from its one-thread sgemm.
#include <algorithm>
#include <cmath>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/backends/optimized/threads.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy {
namespace {

// Restores the thread count a test changed.
class OptimizedThreads : public ::testing::Test {
 protected:
  void TearDown() override { set_num_threads(saved_); }
  const int saved_ = get_num_threads();
};

// The same values: bit for bit when `tolerance` is 0, else within it relative to max(1, |value|).
void expectSameValues(const Tensor& a, const Tensor& b, float tolerance, const char* what) {
  ASSERT_EQ(a.sizes(), b.sizes()) << what;
  const float* x = a.data_ptr<float>();
  const float* y = b.data_ptr<float>();
  for (int64_t i = 0; i < a.numel(); ++i) {
    const bool same = x[i] == y[i] || (x[i] != x[i] && y[i] != y[i]) ||
                      std::abs(x[i] - y[i]) <= tolerance * std::max(1.0f, std::abs(y[i]));
    if (!same) FAIL() << what << " differs at element " << i << ": " << x[i] << " and " << y[i];
  }
}

Tensor threadsInput(std::vector<int64_t> sizes) {
  Tensor t = sy::empty(sizes);
  float* p = t.data_ptr<float>();
  for (int64_t i = 0; i < t.numel(); ++i) p[i] = static_cast<float>((i * 7919) % 2001) / 500.0f - 2.0f;
  return t;
}

TEST_F(OptimizedThreads, TheCountDefaultsToThePositiveCoreCountAndKeepsWhatIsSet) {
  EXPECT_GE(get_num_threads(), 1);
  set_num_threads(3);
  EXPECT_EQ(get_num_threads(), 3);
  EXPECT_THAT(sy::testing::errorMessageOf([] { set_num_threads(0); }),
              ::testing::HasSubstr("sy::set_num_threads: expected a positive number of threads but got 0"));
  EXPECT_EQ(get_num_threads(), 3);
}

TEST_F(OptimizedThreads, LargeOperatorsGiveIdenticalResultsAtOneAndTwoThreads) {
  const Tensor x = threadsInput({1 << 20});                 // well above the grain: split in two
  const Tensor rows = threadsInput({1024, 300});            // rows split in two
  const Tensor a = threadsInput({200, 300}), b = threadsInput({300, 150});
  const Tensor image = threadsInput({1, 8, 40, 40}), filters = threadsInput({16, 8, 3, 3});
  std::vector<Tensor> results[2];
  for (int threads : {1, 2}) {
    set_num_threads(threads);
    results[threads - 1] = {ops::exp(x), ops::tanh(x), ops::_softmax(rows, 1, false), ops::mm(a, b),
                            ops::conv2d(image, filters, std::nullopt, {1}, {1})};
  }
  const char* names[] = {"exp", "tanh", "softmax", "mm", "conv2d"};
  for (size_t i = 0; i < results[0].size(); ++i) {
    expectSameValues(results[0][i], results[1][i], i < 3 ? 0.0f : 1e-4f, names[i]);
  }
}

}  // namespace
}  // namespace sy
