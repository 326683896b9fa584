// Zero tensors: a few kernels exploit zeros, everything else goes through one fallback that
// materialises them (see Note [Zero tensors through one fallback]).
#include <gtest/gtest.h>

#include <cmath>

#include "switchyard/backends/devices/zero/zero_tensor.h"
#include "switchyard/switchyard.h"

namespace {

using sy::Tensor;

Tensor sample() { return sy::tensor<float>({1.5f, -2.f, 3.f, 0.25f, 4.f, -1.f}, {2, 3}); }

TEST(ZeroTensor, OwnsNoStorage) {
  Tensor z = sy::zero_tensor({1000, 1000});
  EXPECT_TRUE(sy::is_zero_tensor(z));
  EXPECT_FALSE(z.storage());
  EXPECT_EQ(z.numel(), 1000000);
}

TEST(ZeroTensor, MulWithAZeroTensorAllocatesNoData) {
  Tensor result = sy::ops::mul(sy::zero_tensor({2, 3}), sample());
  EXPECT_TRUE(sy::is_zero_tensor(result));
  EXPECT_FALSE(result.storage());
  EXPECT_TRUE(sy::allclose(sy::materialized(result), sy::ops::mul(sy::zeros({2, 3}), sample())));
}

TEST(ZeroTensor, MulBroadcastsToTheDenseShapeAndType) {
  Tensor result = sy::ops::mul(sy::zero_tensor({3}, sy::ScalarType::Long), sy::ones({2, 3}, sy::ScalarType::Double));
  EXPECT_EQ(std::vector<int64_t>(result.sizes().begin(), result.sizes().end()), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(result.dtype(), sy::ScalarType::Double);
  EXPECT_FALSE(result.storage());
}

TEST(ZeroTensor, AddOfTwoZeroTensorsIsAZeroTensor) {
  Tensor result = sy::ops::add(sy::zero_tensor({2, 3}), sy::zero_tensor({1, 3}));
  EXPECT_TRUE(sy::is_zero_tensor(result));
  EXPECT_FALSE(result.storage());
}

TEST(ZeroTensor, AddOfZeroAndXHasXsValuesInAFreshTensor) {
  Tensor x = sample();
  Tensor result = sy::ops::add(sy::zero_tensor({2, 3}), x);
  EXPECT_FALSE(sy::is_zero_tensor(result));
  EXPECT_FALSE(result.is_same(x));
  EXPECT_TRUE(sy::allclose(result, x));
  EXPECT_TRUE(sy::allclose(sy::ops::add(x, sy::zero_tensor({2, 3}), 5), x));
}

TEST(ZeroTensor, AddWithAlphaEqualsTheDenseComputation) {
  Tensor x = sample();
  EXPECT_TRUE(sy::allclose(sy::ops::add(sy::zero_tensor({2, 3}), x, 3), sy::ops::add(sy::zeros({2, 3}), x, 3)));
}

TEST(ZeroTensor, AddThatBroadcastsTheZeroOperandEqualsTheDenseComputation) {
  Tensor x = sy::tensor<float>({1.f, 2.f, 3.f}, {3});
  EXPECT_TRUE(sy::allclose(sy::ops::add(sy::zero_tensor({2, 3}), x), sy::ops::add(sy::zeros({2, 3}), x)));
}

TEST(ZeroTensor, MmWithAZeroTensorIsAZeroTensorOfTheProductsShape) {
  Tensor result = sy::ops::mm(sy::zero_tensor({4, 2}), sample());  // [4, 2] x [2, 3]
  EXPECT_TRUE(sy::is_zero_tensor(result));
  EXPECT_EQ(result.size(0), 4);
  EXPECT_EQ(result.size(1), 3);
  EXPECT_FALSE(result.storage());
}

TEST(ZeroTensor, OtherOperatorsGoThroughTheFallbackAndEqualTheDenseComputation) {
  Tensor z = sy::zero_tensor({2, 2});
  EXPECT_TRUE(sy::allclose(sy::ops::sin(z), sy::zeros({2, 2})));
  EXPECT_TRUE(sy::allclose(sy::ops::acos(z), sy::full({2, 2}, std::acos(0.0))));
  EXPECT_FALSE(sy::is_zero_tensor(sy::ops::acos(z)));
}

TEST(ZeroTensor, AWrittenZeroTensorIsMaterialisedInPlace) {
  Tensor out = sy::zero_tensor({3});
  Tensor x = sy::tensor<float>({0.f, 0.5f, 1.f}, {3});
  Tensor& result = sy::ops::acos_out(out, x);
  EXPECT_EQ(&result, &out);
  EXPECT_FALSE(sy::is_zero_tensor(out));
  EXPECT_TRUE(out.storage());
  EXPECT_TRUE(sy::allclose(out, sy::ops::acos(x)));
}

TEST(ZeroTensor, CopyIntoAZeroTensorMaterialisesIt) {
  Tensor z = sy::zero_tensor({2, 3});
  z.copy_(sample());
  EXPECT_FALSE(sy::is_zero_tensor(z));
  EXPECT_TRUE(sy::allclose(z, sample()));
}

TEST(ZeroTensor, FallbackMaterialisesZeroTensorsInsideTensorLists) {
  Tensor x = sample();
  Tensor result = sy::ops::cat({sy::zero_tensor({1, 3}), x}, 0);
  EXPECT_TRUE(sy::allclose(result, sy::ops::cat({sy::zeros({1, 3}), x}, 0)));
}

TEST(ZeroTensor, FallbackLeavesOptionalAndScalarArgumentsAlone) {
  Tensor weight = sy::full({2, 1, 1, 1}, 0.5);
  Tensor input = sy::zero_tensor({1, 1, 2, 2});
  Tensor result = sy::ops::conv2d(input, weight, std::nullopt);
  EXPECT_TRUE(sy::allclose(result, sy::ops::conv2d(sy::zeros({1, 1, 2, 2}), weight, std::nullopt)));
  EXPECT_TRUE(sy::allclose(sy::ops::clamp(sy::zero_tensor({3}), sy::Scalar(1.0), std::nullopt), sy::ones({3})));
}

TEST(ZeroTensor, KernelErrorsPropagateUnchangedThroughTheFallback) {
  Tensor out = sy::empty({2}, sy::ScalarType::Long);
  try {
    sy::ops::acos_out(out, sy::zero_tensor({2}));
    FAIL();
  } catch (const sy::Error& e) {
    EXPECT_STREQ(e.what(), "aten::acos.out: result type Float can't be cast to the desired output type Long");
  }
}

TEST(ZeroTensor, NegativeSizeIsAnError) {
  try {
    sy::zero_tensor({2, -1});
    FAIL();
  } catch (const sy::Error& e) {
    EXPECT_STREQ(e.what(), "zero_tensor: negative dimension -1 at index 1 of size (2, -1)");
  }
}

}  // namespace
