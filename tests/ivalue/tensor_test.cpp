// Tensor, TensorImpl geometry and the tensor factories (CPU only).
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/ivalue/tensor.h"
#include "switchyard/ivalue/tensor_factories.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::ElementsAre;
using sy::testing::errorMessageOf;
using sy::testing::raisesError;
using sy::testing::valuesOf;
using sy::testing::viewOf;

constexpr float kTensorNan = std::numeric_limits<float>::quiet_NaN();
constexpr float kTensorInf = std::numeric_limits<float>::infinity();

// ---------------------------------------------------------------------------------------------
// Factories

TEST(TensorFactories, EmptyIsContiguousWithRequestedDtype) {
  Tensor t = empty({2, 3, 4}, ScalarType::Double);
  EXPECT_THAT(t.sizes(), ElementsAre(2, 3, 4));
  EXPECT_THAT(t.strides(), ElementsAre(12, 4, 1));
  EXPECT_EQ(t.numel(), 24);
  EXPECT_EQ(t.scalar_type(), ScalarType::Double);
  EXPECT_TRUE(t.is_cpu());
  EXPECT_TRUE(t.is_contiguous());
  EXPECT_GE(t.storage()->nbytes(), 24 * sizeof(double));
}

TEST(TensorFactories, EmptyRejectsNegativeSizeNamingTheIndex) {
  EXPECT_EQ(errorMessageOf([] { empty({2, -1}); }), "empty: negative dimension -1 at index 1 of size (2, -1)");
}

TEST(TensorFactories, ZerosFillsWithZero) {
  EXPECT_THAT(valuesOf<float>(zeros({3})), ElementsAre(0.f, 0.f, 0.f));
}

TEST(TensorFactories, OnesFillsWithOneInRequestedDtype) {
  Tensor t = ones({2, 2}, ScalarType::Long);
  EXPECT_EQ(t.scalar_type(), ScalarType::Long);
  EXPECT_THAT(valuesOf<int64_t>(t), ElementsAre(1, 1, 1, 1));
}

TEST(TensorFactories, FullConvertsValueToDtype) {
  EXPECT_THAT(valuesOf<double>(full({2}, 2.5, TensorOptions().dtype(ScalarType::Double))), ElementsAre(2.5, 2.5));
  EXPECT_THAT(valuesOf<int32_t>(full({2}, 2.5, ScalarType::Int)), ElementsAre(2, 2));
  EXPECT_THAT(valuesOf<bool>(full({2}, 1, ScalarType::Bool)), ElementsAre(true, true));
}

TEST(TensorFactories, FactoriesWithNoSizesMakeZeroDimTensors) {
  Tensor t = full({}, 7);
  EXPECT_EQ(t.dim(), 0);
  EXPECT_EQ(t.numel(), 1);
  EXPECT_EQ(t.item<float>(), 7.f);
}

TEST(TensorFactories, EmptyStridedAllocatesEnoughForItsStrides) {
  Tensor t = empty_strided({2, 3}, {1, 2}, ScalarType::Int);
  EXPECT_THAT(t.strides(), ElementsAre(1, 2));
  EXPECT_FALSE(t.is_contiguous());
  EXPECT_GE(t.storage()->nbytes(), 6 * sizeof(int32_t));
}

TEST(TensorFactories, ArangeOfIntegersIsLong) {
  Tensor t = arange(5);
  EXPECT_EQ(t.scalar_type(), ScalarType::Long);
  EXPECT_THAT(valuesOf<int64_t>(t), ElementsAre(0, 1, 2, 3, 4));
}

TEST(TensorFactories, ArangeWithFloatingBoundIsFloat) {
  Tensor t = arange(0, 1, 0.25);
  EXPECT_EQ(t.scalar_type(), ScalarType::Float);
  EXPECT_THAT(valuesOf<float>(t), ElementsAre(0.f, 0.25f, 0.5f, 0.75f));
}

TEST(TensorFactories, ArangeSizeIsCeilOfRangeOverStep) {
  EXPECT_THAT(valuesOf<int64_t>(arange(0, 10, 3)), ElementsAre(0, 3, 6, 9));
  EXPECT_EQ(arange(0, 1, 0.3).numel(), 4);
  EXPECT_EQ(arange(3, 3, 1).numel(), 0);
}

TEST(TensorFactories, ArangeWithNegativeStepCountsDown) {
  EXPECT_THAT(valuesOf<int64_t>(arange(5, 0, -2)), ElementsAre(5, 3, 1));
}

TEST(TensorFactories, ArangeDtypeFromOptionsOverridesInference) {
  Tensor t = arange(0, 3, 1, ScalarType::Double);
  EXPECT_EQ(t.scalar_type(), ScalarType::Double);
  EXPECT_THAT(valuesOf<double>(t), ElementsAre(0.0, 1.0, 2.0));
}

TEST(TensorFactories, ArangeOptionsWithoutDtypeStillInferLong) {
  EXPECT_EQ(arange(0, 3, 1, TensorOptions(kCPU)).scalar_type(), ScalarType::Long);
}

TEST(TensorFactories, ArangeRejectsZeroStep) {
  EXPECT_EQ(errorMessageOf([] { arange(0, 3, 0); }), "arange: step must be nonzero");
}

TEST(TensorFactories, ArangeRejectsStepAwayFromEnd) {
  EXPECT_EQ(errorMessageOf([] { arange(0, 3, -1); }), "arange: step -1 moves away from end 3 (start 0)");
}

TEST(TensorFactories, TensorFromVectorDefaultsToOneDimension) {
  Tensor t = tensor<int32_t>({4, 5, 6});
  EXPECT_EQ(t.scalar_type(), ScalarType::Int);
  EXPECT_THAT(t.sizes(), ElementsAre(3));
  EXPECT_THAT(valuesOf<int32_t>(t), ElementsAre(4, 5, 6));
}

TEST(TensorFactories, TensorFromVectorTakesSizes) {
  Tensor t = tensor<int64_t>({1, 2, 3, 4}, {2, 2});
  EXPECT_THAT(t.sizes(), ElementsAre(2, 2));
  EXPECT_THAT(valuesOf<int64_t>(t), ElementsAre(1, 2, 3, 4));
}

TEST(TensorFactories, TensorFromBoolVectorCopiesEachBit) {
  EXPECT_THAT(valuesOf<bool>(tensor<bool>({true, false, true})), ElementsAre(true, false, true));
}

TEST(TensorFactories, TensorFromInitializerListIsFloat) {
  Tensor t = tensor({1.5f, 2.5f});
  EXPECT_EQ(t.scalar_type(), ScalarType::Float);
  EXPECT_THAT(valuesOf<float>(t), ElementsAre(1.5f, 2.5f));
}

TEST(TensorFactories, TensorFromVectorRejectsSizeMismatch) {
  EXPECT_EQ(errorMessageOf([] { tensor<double>({1, 2, 3}, {2, 2}); }),
            "tensor: 3 values do not fill size (2, 2) (4 elements)");
}

TEST(TensorFactories, FillWritesThroughNonContiguousView) {
  Tensor base = zeros({2, 3});
  fillCPU(viewOf(base, {3}, {2}), 9);  // every other element, crossing rows
  EXPECT_THAT(valuesOf<float>(base), ElementsAre(9.f, 0.f, 9.f, 0.f, 9.f, 0.f));
}

TEST(TensorFactories, FillWritesThroughStrideZeroView) {
  Tensor base = zeros({2});
  fillCPU(viewOf(base, {4, 2}, {0, 1}), 3);
  EXPECT_THAT(valuesOf<float>(base), ElementsAre(3.f, 3.f));
}

TEST(TensorFactories, ComplexTensorsAreMadeWithARealValueAndZeroImaginaryParts) {
  const Tensor z = full({2}, 2.5, ScalarType::ComplexFloat);
  const auto* values = static_cast<const Complex<float>*>(z.data_ptr());
  EXPECT_EQ(values[0], Complex<float>(2.5f, 0.0f));
  EXPECT_EQ(values[1], Complex<float>(2.5f, 0.0f));
  const Tensor zero = zeros({1}, ScalarType::ComplexDouble);
  EXPECT_EQ(static_cast<const Complex<double>*>(zero.data_ptr())[0], Complex<double>(0.0, 0.0));
  const Tensor half = ones({1}, ScalarType::ComplexHalf);
  EXPECT_EQ(float(static_cast<const Complex<Half>*>(half.data_ptr())[0].real()), 1.0f);
  EXPECT_EQ(float(static_cast<const Complex<Half>*>(half.data_ptr())[0].imag()), 0.0f);
}

// ---------------------------------------------------------------------------------------------
// Geometry of views

TEST(TensorGeometry, TransposedViewSwapsSizesAndStrides) {
  Tensor base = arange(0, 6, 1, ScalarType::Float);
  Tensor transposed = viewOf(base, {3, 2}, {1, 3});
  EXPECT_THAT(transposed.sizes(), ElementsAre(3, 2));
  EXPECT_THAT(transposed.strides(), ElementsAre(1, 3));
  EXPECT_EQ(transposed.numel(), 6);
  EXPECT_FALSE(transposed.is_contiguous());
}

TEST(TensorGeometry, ExpandedViewWithStrideZeroIsNotContiguous) {
  Tensor row = arange(0, 4, 1, ScalarType::Float);
  Tensor expanded = viewOf(row, {3, 4}, {0, 1});
  EXPECT_EQ(expanded.numel(), 12);
  EXPECT_FALSE(expanded.is_contiguous());
  EXPECT_TRUE(expanded.storage().get() == row.storage().get());
}

TEST(TensorGeometry, SizeOneDimensionsIgnoreTheirStride) {
  Tensor base = zeros({4});
  EXPECT_TRUE(viewOf(base, {1, 4}, {99, 1}).is_contiguous());
}

TEST(TensorGeometry, StorageOffsetMovesTheDataPointer) {
  Tensor base = arange(0, 6, 1, ScalarType::Float);
  Tensor second_row = viewOf(base, {3}, {1}, 3);
  EXPECT_EQ(second_row.storage_offset(), 3);
  EXPECT_THAT(valuesOf<float>(second_row), ElementsAre(3.f, 4.f, 5.f));
}

TEST(TensorGeometry, NegativeDimCountsFromTheEnd) {
  Tensor t = empty({2, 3, 4});
  EXPECT_EQ(t.size(-1), 4);
  EXPECT_EQ(t.stride(-3), 12);
}

TEST(TensorGeometry, DimOutOfRangeThrows) {
  Tensor t = empty({2, 3});
  EXPECT_TRUE(raisesError([&] { t.size(2); }, ErrorKind::Index,
                          "dimension out of range (expected to be in range of [-2, 1], but got 2)"));
  EXPECT_TRUE(raisesError([] { full({}, 1.0f).stride(0); }, ErrorKind::Index,
                          "dimension specified as 0 but the tensor has no dimensions"));
}

TEST(TensorGeometry, UndefinedTensorGeometryThrows) {
  Tensor undefined;
  EXPECT_FALSE(undefined.defined());
  EXPECT_EQ(errorMessageOf([&] { undefined.sizes(); }), "operation on an undefined tensor");
}

// ---------------------------------------------------------------------------------------------
// dim_order

TEST(TensorDimOrder, ContiguousIsIdentity) {
  EXPECT_THAT(empty({2, 3, 4, 5}).dim_order(), ElementsAre(0, 1, 2, 3));
}

TEST(TensorDimOrder, ChannelsLastIs0231) {
  Tensor base = empty({120});
  EXPECT_THAT(viewOf(base, {2, 3, 4, 5}, {60, 1, 15, 3}).dim_order(), ElementsAre(0, 2, 3, 1));
}

TEST(TensorDimOrder, TransposedMatrixIs10) {
  Tensor base = empty({6});
  EXPECT_THAT(viewOf(base, {3, 2}, {1, 3}).dim_order(), ElementsAre(1, 0));
}

TEST(TensorDimOrder, EqualStridesKeepIndexOrder) {
  Tensor base = empty({12});
  EXPECT_THAT(viewOf(base, {3, 1, 4}, {4, 4, 1}).dim_order(), ElementsAre(0, 1, 2));
  EXPECT_THAT(viewOf(base, {4, 3}, {0, 0}).dim_order(), ElementsAre(0, 1));
}

// ---------------------------------------------------------------------------------------------
// resize_, item, data_ptr

TEST(TensorResize, GrowingKeepsDataAndGrowsStorage) {
  Tensor t = tensor<float>({1, 2, 3});
  t.resize_({2, 3});
  EXPECT_THAT(t.sizes(), ElementsAre(2, 3));
  EXPECT_THAT(t.strides(), ElementsAre(3, 1));
  EXPECT_GE(t.storage()->nbytes(), 6 * sizeof(float));
  const float* data = t.data_ptr<float>();
  EXPECT_EQ(data[0], 1.f);
  EXPECT_EQ(data[1], 2.f);
  EXPECT_EQ(data[2], 3.f);
}

TEST(TensorResize, ShrinkingKeepsStorage) {
  Tensor t = zeros({4, 4});
  const void* before = t.data_ptr();
  t.resize_({2});
  EXPECT_EQ(t.numel(), 2);
  EXPECT_EQ(t.data_ptr(), before);
}

TEST(TensorResize, ReturnsTheSameTensor) {
  Tensor t = zeros({1});
  EXPECT_EQ(&t.resize_({3}), &t);
}

TEST(TensorResize, RejectsNegativeSize) {
  Tensor t = zeros({1});
  EXPECT_EQ(errorMessageOf([&] { t.resize_({-2}); }), "resize_: negative dimension -2 at index 0 of size (-2,)");
}

TEST(TensorItem, ConvertsToTheRequestedType) {
  Tensor t = full({1}, 3.75, ScalarType::Double);
  EXPECT_EQ(t.item<double>(), 3.75);
  EXPECT_EQ(t.item<int64_t>(), 3);
  EXPECT_EQ(tensor<bool>({true}).item<int>(), 1);
}

TEST(TensorItem, RejectsMoreThanOneElement) {
  EXPECT_EQ(errorMessageOf([] { zeros({2}).item<float>(); }),
            "item(): a Tensor with 2 elements cannot be converted to a scalar");
}

TEST(TensorDataPtr, WrongElementTypeNamesBothDtypes) {
  Tensor t = zeros({2}, ScalarType::Long);
  EXPECT_EQ(errorMessageOf([&] { t.data_ptr<float>(); }), "expected a tensor of dtype Float but got Long");
  EXPECT_NE(t.data_ptr<int64_t>(), nullptr);
}

// ---------------------------------------------------------------------------------------------
// allclose

TEST(TensorAllclose, EqualTensorsAreClose) {
  EXPECT_TRUE(allclose(tensor({1.f, 2.f}), tensor({1.f, 2.f})));
}

TEST(TensorAllclose, DifferenceWithinToleranceIsClose) {
  EXPECT_TRUE(allclose(tensor({1.f}), tensor({1.000001f})));
  EXPECT_FALSE(allclose(tensor({1.f}), tensor({1.001f})));
  EXPECT_TRUE(allclose(tensor({1.f}), tensor({1.001f}), /*rtol=*/0, /*atol=*/0.01));
}

TEST(TensorAllclose, NanIsCloseOnlyWithEqualNan) {
  EXPECT_FALSE(allclose(tensor({kTensorNan}), tensor({kTensorNan})));
  EXPECT_TRUE(allclose(tensor({kTensorNan}), tensor({kTensorNan}), 1e-5, 1e-8, /*equal_nan=*/true));
  EXPECT_FALSE(allclose(tensor({kTensorNan}), tensor({1.f}), 1e-5, 1e-8, /*equal_nan=*/true));
}

TEST(TensorAllclose, InfinitiesAreCloseOnlyWithTheSameSign) {
  EXPECT_TRUE(allclose(tensor({kTensorInf, -kTensorInf}), tensor({kTensorInf, -kTensorInf})));
  EXPECT_FALSE(allclose(tensor({kTensorInf}), tensor({-kTensorInf})));
  EXPECT_FALSE(allclose(tensor({kTensorInf}), tensor({3e38f})));
}

TEST(TensorAllclose, ComparesAcrossDtypes) {
  EXPECT_TRUE(allclose(tensor<int64_t>({1, 2}), tensor({1.f, 2.f})));
  EXPECT_TRUE(allclose(tensor<bool>({true, false}), tensor<int32_t>({1, 0})));
}

TEST(TensorAllclose, FollowsTheStridesOfBothTensors) {
  Tensor base = tensor<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor transposed = tensor<double>({1, 4, 2, 5, 3, 6}, {3, 2});
  EXPECT_TRUE(allclose(viewOf(base, {3, 2}, {1, 3}), transposed));
  EXPECT_FALSE(allclose(viewOf(base, {3, 2}, {2, 1}), transposed));
}

TEST(TensorAllclose, DifferentShapesErrorNamesBoth) {
  EXPECT_EQ(errorMessageOf([] { allclose(zeros({2, 3}), zeros({3, 2})); }),
            "allclose: tensors have different shapes (2, 3) and (3, 2)");
}

}  // namespace
}  // namespace sy
