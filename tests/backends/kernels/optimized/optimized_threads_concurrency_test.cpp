// sy::set_num_threads for the optimized kernels: the setting itself, and that large operators give
// the same results at one thread and two: identical for the elementwise and softmax kernels (the
// pool splits where it likes; see Note [Only large operators use the thread pool]), within Float
// rounding for the matrix products and the convolution split across threads, identical for the
// ones too small to split, which also keep OpenBLAS on one thread (see Note [OpenBLAS runs on one
// thread; sgemm splits large products itself]).
#include <cblas.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/backends/kernels/optimized/threads.h"
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
  const Tensor image = threadsInput({1, 16, 32, 32}), filters = threadsInput({32, 16, 3, 3});  // split
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

// The issue-16 CNN's smaller products: its first convolution, its pointwise one and its classifier
// (16 x 4096 x 27, 32 x 256 x 32 and 1 x 10 x 32 multiply-adds), below the grain of a split and so
// one sgemm call at any thread count. OpenBLAS's own threads took the first at two threads before,
// and rounded it differently.
TEST_F(OptimizedThreads, SmallProductsAreIdenticalAtOneAndTwoThreadsAndOpenBlasStaysOnOne) {
  const Tensor image = threadsInput({1, 3, 64, 64}), filters = threadsInput({16, 3, 3, 3});
  const Tensor planes = threadsInput({1, 32, 16, 16}), pointwise = threadsInput({32, 32, 1, 1});
  const Tensor features = threadsInput({1, 32}), weight = threadsInput({10, 32}), bias = threadsInput({10});
  std::vector<Tensor> results[2];
  for (int threads : {1, 2}) {
    set_num_threads(threads);
    results[threads - 1] = {ops::conv2d(image, filters, std::nullopt, {1}, {1}), ops::conv2d(planes, pointwise),
                            ops::linear(features, weight, bias)};
    EXPECT_EQ(openblas_get_num_threads(), 1) << "at " << threads << " threads";
  }
  const char* names[] = {"conv2d 3x3", "conv2d 1x1", "linear"};
  for (size_t i = 0; i < results[0].size(); ++i) expectSameValues(results[0][i], results[1][i], 0.0f, names[i]);
}

// Products split across the pool from several caller threads at once: pthreadpool runs one
// caller's chunks at a time, OpenBLAS (on one thread) takes concurrent calls, and each caller gets
// the value the same product has alone at the same thread count.
TEST_F(OptimizedThreads, ConcurrentSplitProductsMatchTheSameProductAlone) {
  set_num_threads(2);
  const Tensor a = threadsInput({96, 300}), b = threadsInput({300, 640});  // 18M multiply-adds: split
  const Tensor tall = threadsInput({700, 200}), narrow = threadsInput({200, 40});  // split by rows
  const Tensor wide = ops::mm(a, b), rows = ops::mm(tall, narrow);
  std::vector<Tensor> wides(4), tails(4);
  std::vector<std::thread> callers;
  for (size_t i = 0; i < wides.size(); ++i) {
    callers.emplace_back([&, i] {
      for (int round = 0; round < 5; ++round) {
        wides[i] = ops::mm(a, b);
        tails[i] = ops::mm(tall, narrow);
      }
    });
  }
  for (std::thread& t : callers) t.join();
  for (size_t i = 0; i < wides.size(); ++i) {
    expectSameValues(wides[i], wide, 0.0f, "mm split by columns");
    expectSameValues(tails[i], rows, 0.0f, "mm split by rows");
  }
}

TEST_F(OptimizedThreads, ParallelForRunsEachElementOnceInChunksOfWholeGrains) {
  set_num_threads(2);
  for (int64_t n : {int64_t{199}, int64_t{200}, int64_t{1005}, int64_t{100000}}) {
    std::mutex mutex;
    std::vector<std::pair<int64_t, int64_t>> chunks;
    optimized::parallelFor(n, 100, [&](int64_t begin, int64_t end) {
      std::lock_guard<std::mutex> lock(mutex);
      chunks.emplace_back(begin, end);
    });
    std::sort(chunks.begin(), chunks.end());
    ASSERT_FALSE(chunks.empty()) << n;
    EXPECT_EQ(chunks.front().first, 0) << n;
    EXPECT_EQ(chunks.back().second, n) << n;
    for (size_t i = 0; i < chunks.size(); ++i) {
      if (i + 1 < chunks.size()) {
        EXPECT_EQ(chunks[i].second, chunks[i + 1].first) << n;
        EXPECT_EQ((chunks[i].second - chunks[i].first) % 100, 0) << n;
      }
    }
    EXPECT_EQ(chunks.size() > 1, n >= 200) << n;
  }
}

// More concurrent callers than the pool has job slots, each running many short sections back to
// back: slots are reused as soon as their last visitor leaves, a caller finding none free runs its
// chunks itself, and every element still runs exactly once. See Note [A parallel section borrows
// one of the pool's job slots].
TEST_F(OptimizedThreads, ConcurrentCallersShareTheJobSlotsAndRunEachElementOnce) {
  set_num_threads(2);
  constexpr int kCallers = 6, kSections = 300;
  constexpr int64_t kElements = 4096;
  std::vector<std::vector<int>> counts(kCallers, std::vector<int>(kElements, 0));
  std::vector<std::thread> callers;
  for (int c = 0; c < kCallers; ++c) {
    callers.emplace_back([&counts, c] {
      for (int s = 0; s < kSections; ++s) {
        optimized::parallelFor(kElements, 64, [&](int64_t begin, int64_t end) {
          for (int64_t i = begin; i < end; ++i) ++counts[c][i];  // chunks are disjoint: no race
        });
      }
    });
  }
  for (std::thread& t : callers) t.join();
  for (int c = 0; c < kCallers; ++c) {
    for (int64_t i = 0; i < kElements; ++i) ASSERT_EQ(counts[c][i], kSections) << "caller " << c << ", element " << i;
  }
}

// A chunk that calls parallelFor (as a kernel calling sgemm could) finds the pool taken by its own
// caller and runs the inner chunks itself, rather than waiting for the pool.
TEST_F(OptimizedThreads, AParallelForInsideAChunkRunsOnItsOwnThread) {
  set_num_threads(2);
  std::atomic<int64_t> elements{0};
  optimized::parallelFor(8, 1, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      optimized::parallelFor(1000, 10, [&](int64_t b, int64_t e) { elements += e - b; });
    }
  });
  EXPECT_EQ(elements.load(), 8000);
}

}  // namespace
}  // namespace sy
