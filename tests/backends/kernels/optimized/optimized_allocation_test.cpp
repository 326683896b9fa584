// The optimized kernels allocate nothing once warm, on one thread and on the pool: the large
// operators that split their work (products, convolution, sums, elementwise math, softmax) called
// again with the shapes they have seen. See Note [A warm optimized kernel allocates nothing].
#include <cstdlib>
#include <functional>
#include <vector>

#include "gtest/gtest.h"
#include "allocation_counter.h"
#include "switchyard/backends/kernels/optimized/threads.h"
#include "switchyard/switchyard.h"

namespace sy {
namespace {

using sy::testing::allocationsDuring;

// Restores the thread count a test changed.
class OptimizedAllocations : public ::testing::TestWithParam<int> {
 protected:
  void TearDown() override { set_num_threads(saved_); }
  const int saved_ = get_num_threads();
};

// Each call is large enough to use the pool at two threads, and writes into an output that already
// has its shape. See Note [Only large operators use the thread pool], and for the products
// see Note [OpenBLAS runs on one thread; sgemm splits large products itself].
struct LargeCalls {
  Tensor a = full({256, 256}, 0.01), product = empty({256, 256});
  Tensor image = full({1, 32, 56, 56}, 0.01), filters = full({64, 32, 3, 3}, 0.01), bias = full({64}, 0.5);
  Tensor convolved = empty({1, 64, 56, 56});
  Tensor million = full({1 << 20}, 0.25), exps = empty({1 << 20}), total = empty({});
  Tensor rows = full({256, 1024}, 0.5), row_sums = empty({256}), softmax = empty({256, 1024});

  std::vector<std::pair<const char*, std::function<void()>>> calls() {
    return {
        {"mm.out", [this] { ops::mm_out(product, a, a); }},
        {"convolution.out", [this] {
           ops::convolution_out(convolved, image, filters, bias, {1, 1}, {1, 1}, {1, 1}, false, {0, 0}, 1);
         }},
        {"exp.out", [this] { ops::exp_out(exps, million); }},
        {"sum.IntList_out, all", [this] { ops::sum_out(total, million, {0}); }},
        {"sum.IntList_out, rows", [this] { ops::sum_out(row_sums, rows, {1}); }},
        {"_softmax.out", [this] { ops::_softmax_out(softmax, rows, 1, false); }},
    };
  }
};

TEST_P(OptimizedAllocations, LargeOperatorsAllocateNothingOnceWarm) {
  set_num_threads(GetParam());
  LargeCalls large;
  for (auto& [name, call] : large.calls()) {
    call();  // warm: the pool's threads start, scratch buffers grow to this size
    EXPECT_EQ(allocationsDuring([&call = call] {  // a structured binding is captured by name
                for (int i = 0; i < 5; ++i) call();
              }),
              0)
        << name << " at " << GetParam() << " threads";
  }
}

TEST_P(OptimizedAllocations, ParallelForAllocatesNothingOnceThePoolRuns) {
  set_num_threads(GetParam());
  std::vector<int64_t> seen(1 << 17, 0);
  auto mark = [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) ++seen[i];
  };
  optimized::parallelFor(static_cast<int64_t>(seen.size()), 1024, mark);
  EXPECT_EQ(allocationsDuring([&] {
              for (int i = 0; i < 100; ++i) optimized::parallelFor(static_cast<int64_t>(seen.size()), 1024, mark);
            }),
            0);
  for (int64_t count : seen) ASSERT_EQ(count, 101);
}

INSTANTIATE_TEST_SUITE_P(Threads, OptimizedAllocations, ::testing::Values(1, 2),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return std::to_string(info.param) + "Threads";
                         });

}  // namespace
}  // namespace sy
