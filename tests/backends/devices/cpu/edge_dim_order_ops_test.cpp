// ExecuTorch's dim-order copies, dim_order_ops::_to_dim_order_copy.out and
// dim_order_ops::_clone_dim_order.out, through the dispatcher: the layout they write (read back
// from raw memory, not only through strides), dtype conversion, and their argument checks.
#include <cstdint>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using sy::testing::errorMessageOf;
using sy::testing::iota;
using sy::testing::valuesOf;
using sy::testing::viewOf;

const std::vector<int64_t> kContiguous = {0, 1, 2, 3};
const std::vector<int64_t> kChannelsLast = {0, 2, 3, 1};

// The elements in memory order, whatever the strides.
std::vector<float> memoryOf(const Tensor& t) {
  const float* p = t.data_ptr<float>();
  return std::vector<float>(p, p + t.numel());
}

TEST(ToDimOrderCopy, ChannelsLastDimOrderInterleavesTheChannelsInMemory) {
  const Tensor x = iota({1, 2, 2, 3});  // x[0][c][h][w] = 6c + 3h + w
  Tensor out = sy::empty({0});
  ops::to_dim_order_copy_out(out, x, false, kChannelsLast);
  EXPECT_THAT(out.sizes(), ElementsAre(1, 2, 2, 3));
  EXPECT_THAT(out.strides(), ElementsAre(12, 1, 6, 2));
  EXPECT_THAT(out.dim_order(), ElementsAre(0, 2, 3, 1));
  // Memory walks h, w, then c innermost.
  EXPECT_THAT(memoryOf(out), ElementsAre(0, 6, 1, 7, 2, 8, 3, 9, 4, 10, 5, 11));
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
}

TEST(ToDimOrderCopy, ContiguousDimOrderTurnsChannelsLastBackIntoRowMajor) {
  const Tensor memory = tensor<float>({0, 6, 1, 7, 2, 8, 3, 9, 4, 10, 5, 11});
  const Tensor nhwc = viewOf(memory, {1, 2, 2, 3}, {12, 1, 6, 2});
  Tensor out = sy::empty({0});
  ops::to_dim_order_copy_out(out, nhwc, false, kContiguous);
  EXPECT_TRUE(out.is_contiguous());
  EXPECT_THAT(memoryOf(out), ElementsAre(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
}

TEST(ToDimOrderCopy, WithoutADimOrderKeepsSelfsLayout) {
  const Tensor memory = tensor<float>({0, 6, 1, 7, 2, 8, 3, 9, 4, 10, 5, 11});
  const Tensor nhwc = viewOf(memory, {1, 2, 2, 3}, {12, 1, 6, 2});
  Tensor out = sy::empty({0});
  ops::to_dim_order_copy_out(out, nhwc);
  EXPECT_THAT(out.dim_order(), ElementsAre(0, 2, 3, 1));
  EXPECT_THAT(memoryOf(out), ElementsAre(0, 6, 1, 7, 2, 8, 3, 9, 4, 10, 5, 11));
}

TEST(ToDimOrderCopy, AnyPermutationIsALayout) {
  Tensor out = sy::empty({0});
  ops::to_dim_order_copy_out(out, iota({2, 3}), false, std::vector<int64_t>{1, 0});
  EXPECT_THAT(out.strides(), ElementsAre(1, 2));
  EXPECT_THAT(memoryOf(out), ElementsAre(0, 3, 1, 4, 2, 5));
}

TEST(ToDimOrderCopy, ConvertsToOutsDtype) {
  Tensor out = sy::empty({0}, ScalarType::Long);
  ops::to_dim_order_copy_out(out, tensor<float>({1.5f, -2.7f, 3}), false, std::vector<int64_t>{0});
  EXPECT_THAT(valuesOf<int64_t>(out), ElementsAre(1, -2, 3));
}

TEST(ToDimOrderCopy, WritesIntoAnOutAlreadyLaidOutInTheAskedOrder) {
  Tensor memory = sy::zeros({12});
  Tensor out = viewOf(memory, {1, 2, 2, 3}, {12, 1, 6, 2});
  ops::to_dim_order_copy_out(out, iota({1, 2, 2, 3}), false, kChannelsLast);
  EXPECT_THAT(valuesOf<float>(memory), ElementsAre(0, 6, 1, 7, 2, 8, 3, 9, 4, 10, 5, 11));
}

TEST(ToDimOrderCopy, RejectsAnOutOfTheRightShapeInAnotherLayout) {
  Tensor out = sy::empty({1, 2, 2, 3});  // contiguous
  EXPECT_THAT(errorMessageOf([&] { ops::to_dim_order_copy_out(out, iota({1, 2, 2, 3}), false, kChannelsLast); }),
              HasSubstr("dim_order_ops::_to_dim_order_copy.out: 'out' has strides (12, 6, 3, 1) (dim order "
                        "(0, 1, 2, 3)) but it must be laid out in dim order (0, 2, 3, 1) (strides (12, 1, 6, 2))"));
}

TEST(ToDimOrderCopy, RejectsADimOrderThatIsNotAPermutationOfSelfsDimensions) {
  Tensor out = sy::empty({0});
  const Tensor x = iota({1, 2, 2, 3});
  EXPECT_THAT(errorMessageOf([&] { ops::to_dim_order_copy_out(out, x, false, std::vector<int64_t>{0, 1, 2}); }),
              HasSubstr("'dim_order' (0, 1, 2) has 3 entries but 'self' has 4 dimensions"));
  EXPECT_THAT(errorMessageOf([&] { ops::to_dim_order_copy_out(out, x, false, std::vector<int64_t>{0, 1, 1, 3}); }),
              HasSubstr("names dimension 1 twice"));
  EXPECT_THAT(errorMessageOf([&] { ops::to_dim_order_copy_out(out, x, false, std::vector<int64_t>{0, 1, 2, 4}); }),
              HasSubstr("names dimension 4, which is out of range for a 4-D tensor"));
}

TEST(CloneDimOrder, CopiesIntoTheAskedLayout) {
  Tensor out = sy::empty({0});
  ops::clone_dim_order_out(out, iota({1, 2, 2, 3}), false, kChannelsLast);
  EXPECT_THAT(memoryOf(out), ElementsAre(0, 6, 1, 7, 2, 8, 3, 9, 4, 10, 5, 11));
}

TEST(CloneDimOrder, RejectsAnOutOfAnotherDtype) {
  Tensor out = sy::empty({0}, ScalarType::Double);
  EXPECT_THAT(errorMessageOf([&] { ops::clone_dim_order_out(out, iota({2})); }),
              HasSubstr("dim_order_ops::_clone_dim_order.out: expected 'out' to have self's dtype Float but got "
                        "Double"));
}

TEST(DimOrderOps, CallThroughTheBoxedPathWithANoneDimOrder) {
  const auto& op = Dispatcher::singleton().findSchemaOrThrow("dim_order_ops::_to_dim_order_copy", "out");
  Tensor out = sy::empty({0});
  Stack stack;
  stack.push_back(iota({2}));
  stack.push_back(false);
  stack.push_back(IValue());
  stack.push_back(out);
  op.callBoxed(stack);
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(0, 1));
}

}  // namespace
}  // namespace sy
