// max_pool2d_with_indices_backward (.grad_input and functional), called by name through the
// dispatcher (it has no sy::ops:: helper; see max_pool_backward.cpp): gradients routed by the
// forward's indices, -1 skipped, hostile indices and mismatched shapes refused.
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

// Calls aten::max_pool2d_with_indices_backward (kernel 2, stride 2, no padding) and returns its result.
Tensor maxPoolBackwardOf(const Tensor& grad_output, const Tensor& self, const Tensor& indices) {
  Stack stack{grad_output, self, IValue(std::vector<int64_t>{2, 2}), IValue(std::vector<int64_t>{2, 2}),
              IValue(std::vector<int64_t>{0, 0}), IValue(std::vector<int64_t>{1, 1}), IValue(false), indices};
  Dispatcher::singleton().findSchemaOrThrow("aten::max_pool2d_with_indices_backward", "").callBoxed(stack);
  return stack.back().toTensor();
}

TEST(MaxPoolBackward, AddsEachGradientAtItsIndexAndSkipsMinusOne) {
  // One 2 x 4 plane, two windows: gradients 5 and 7 to positions 5 and 2; then both to position 1.
  const Tensor self = sy::zeros({1, 2, 4});
  EXPECT_THAT(valuesOf<float>(maxPoolBackwardOf(tensor<float>({5, 7}, {1, 1, 2}), self,
                                                tensor<int64_t>({5, 2}, {1, 1, 2}))),
              ElementsAre(0, 0, 7, 0, 0, 5, 0, 0));
  EXPECT_THAT(valuesOf<float>(maxPoolBackwardOf(tensor<float>({5, 7}, {1, 1, 2}), self,
                                                tensor<int64_t>({1, 1}, {1, 1, 2}))),
              ElementsAre(0, 12, 0, 0, 0, 0, 0, 0));
  EXPECT_THAT(valuesOf<float>(maxPoolBackwardOf(tensor<float>({5, 7}, {1, 1, 2}), self,
                                                tensor<int64_t>({-1, 0}, {1, 1, 2}))),
              ElementsAre(7, 0, 0, 0, 0, 0, 0, 0));
}

TEST(MaxPoolBackward, RefusesIndicesOutsideThePlaneAndGradientsOfTheWrongShape) {
  const Tensor self = sy::zeros({1, 2, 4});
  EXPECT_THAT(errorMessageOf([&] {
                maxPoolBackwardOf(tensor<float>({5, 7}, {1, 1, 2}), self, tensor<int64_t>({8, 0}, {1, 1, 2}));
              }),
              HasSubstr("aten::max_pool2d_with_indices_backward: invalid max index 8 at element 0 of 'indices' for an "
                        "input plane of 2 x 4"));
  EXPECT_THAT(errorMessageOf([&] {
                maxPoolBackwardOf(tensor<float>({5, 7}, {1, 1, 2}), self, tensor<int64_t>({0, -2}, {1, 1, 2}));
              }),
              HasSubstr("invalid max index -2"));
  EXPECT_THAT(errorMessageOf([&] { maxPoolBackwardOf(iota({1, 1, 3}), self, tensor<int64_t>({0, 1, 2}, {1, 1, 3})); }),
              HasSubstr("expected 'grad_output' of the pooling's output size (1, 1, 2) but got (1, 1, 3)"));
  EXPECT_THAT(errorMessageOf([&] { maxPoolBackwardOf(iota({1, 1, 2}), self, tensor<int32_t>({0, 1}, {1, 1, 2})); }),
              HasSubstr("expected 'indices' to have dtype Long but got Int"));
}

TEST(MaxPoolBackward, WritesAGradInputOutThatIsTheGradient) {
  // grad_input resized from grad_output's own tensor: the gradients are read before the resize.
  Tensor grad = tensor<float>({5, 7}, {1, 1, 2});
  Stack stack{grad, sy::zeros({1, 2, 4}), IValue(std::vector<int64_t>{2, 2}), IValue(std::vector<int64_t>{2, 2}),
              IValue(std::vector<int64_t>{0, 0}), IValue(std::vector<int64_t>{1, 1}), IValue(false),
              tensor<int64_t>({4, 3}, {1, 1, 2}), grad};
  Dispatcher::singleton().findSchemaOrThrow("aten::max_pool2d_with_indices_backward", "grad_input").callBoxed(stack);
  EXPECT_TRUE(stack.back().toTensor().is_same(grad));
  EXPECT_THAT(valuesOf<float>(grad), ElementsAre(0, 0, 0, 7, 5, 0, 0, 0));
}

}  // namespace
}  // namespace sy
