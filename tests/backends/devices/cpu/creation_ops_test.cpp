// The size-based creation operators through the dispatcher: zeros, ones, full, arange, with
// their out= forms. Expected arange values come from a loop here (start + i * step); expected
// fills are the literal values.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::Each;
using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using sy::testing::errorMessageOf;
using sy::testing::raisesError;
using sy::testing::valuesOf;

const ScalarType kAllDtypes[] = {ScalarType::Bool, ScalarType::Int, ScalarType::Long, ScalarType::Float,
                                 ScalarType::Double};

// ---- zeros, ones, full ---------------------------------------------------------------------------

TEST(CreationZeros, DefaultsToContiguousFloatOnTheCpu) {
  Tensor z = ops::zeros({2, 3});
  EXPECT_EQ(z.scalar_type(), ScalarType::Float);
  EXPECT_TRUE(z.is_cpu());
  EXPECT_THAT(z.strides(), ElementsAre(3, 1));
  EXPECT_THAT(valuesOf<float>(z), Each(0.0f));
}

TEST(CreationZeros, ZerosAndOnesInEveryDtype) {
  for (ScalarType dtype : kAllDtypes) {
    // Comparing against a Double tensor of the expected value checks every element, whatever the dtype.
    EXPECT_TRUE(allclose(ops::zeros({4}, dtype), full({4}, 0.0, ScalarType::Double))) << dtype;
    EXPECT_TRUE(allclose(ops::ones({4}, dtype), full({4}, 1.0, ScalarType::Double))) << dtype;
    EXPECT_EQ(ops::ones({4}, dtype).scalar_type(), dtype);
  }
}

TEST(CreationZeros, ZeroDimAndEmptySizes) {
  EXPECT_EQ(ops::ones({}).dim(), 0);
  EXPECT_EQ(valuesOf<float>(ops::ones({})), std::vector<float>{1});
  EXPECT_EQ(ops::zeros({3, 0}).numel(), 0);
}

TEST(CreationZeros, RejectsNegativeSizesNamingTheIndex) {
  EXPECT_EQ(errorMessageOf([] { ops::zeros({2, -1}); }),
            "aten::zeros: negative dimension -1 at index 1 of size (2, -1)");
  Tensor out = empty({1});
  EXPECT_EQ(errorMessageOf([&] { ops::ones_out(out, {-3}); }),
            "aten::ones.out: negative dimension -3 at index 0 of size (-3,)");
}

TEST(CreationEmpty, RejectsASizeWhoseByteCountOverflows) {
  // 2^62 elements fit in int64_t, but 2^62 floats do not fit in the address space.
  EXPECT_EQ(errorMessageOf([] { empty({int64_t{1} << 62}, ScalarType::Float); }),
            "empty: size (4611686018427387904,) of Float needs more bytes than can be addressed");
}

TEST(CreationEmpty, EmptyStridedRejectsStridesThatReachPastTheAddressSpace) {
  EXPECT_EQ(errorMessageOf([] { empty_strided({3, 2}, {std::numeric_limits<int64_t>::max(), 1}); }),
            "empty_strided: size (3, 2) with strides (9223372036854775807, 1) reaches past the largest "
            "addressable element");
}

TEST(CreationZeros, OutFormsResizeAndReturnTheCallersTensor) {
  Tensor out = full({5}, 9, ScalarType::Int);
  Tensor& result = ops::zeros_out(out, {2, 2});
  EXPECT_EQ(&result, &out);
  EXPECT_THAT(out.sizes(), ElementsAre(2, 2));
  EXPECT_THAT(valuesOf<int32_t>(out), Each(0));
  EXPECT_EQ(&ops::ones_out(out, {3}), &out);
  EXPECT_THAT(valuesOf<int32_t>(out), ElementsAre(1, 1, 1));
}

TEST(CreationZeros, OutFormsFillNonContiguousOutsInPlace) {
  Tensor base = full({4, 3}, 5.0f);
  Tensor column = ops::select(base, 1, 1);  // stride 3
  ops::ones_out(column, {4});
  EXPECT_THAT(valuesOf<float>(base), ElementsAre(5, 1, 5, 5, 1, 5, 5, 1, 5, 5, 1, 5));
}

TEST(CreationFull, InfersTheDtypeFromTheFillValue) {
  EXPECT_EQ(ops::full({2}, 7).scalar_type(), ScalarType::Long);
  EXPECT_EQ(ops::full({2}, 2.5).scalar_type(), ScalarType::Float);
  EXPECT_EQ(ops::full({2}, true).scalar_type(), ScalarType::Bool);
  EXPECT_THAT(valuesOf<int64_t>(ops::full({2}, 7)), ElementsAre(7, 7));
  EXPECT_THAT(valuesOf<double>(ops::full({2}, 7, ScalarType::Double)), ElementsAre(7.0, 7.0));
}

TEST(CreationFull, ConvertsValuesLikeACast) {
  EXPECT_THAT(valuesOf<int32_t>(ops::full({1}, -2.9, ScalarType::Int)), ElementsAre(-2));
  EXPECT_THAT(valuesOf<bool>(ops::full({1}, 0.25, ScalarType::Bool)), ElementsAre(true));
  EXPECT_THAT(valuesOf<bool>(ops::full({1}, 0, ScalarType::Bool)), ElementsAre(false));
}

TEST(CreationFull, NanAndInfinityFillFloatingTensors) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(std::isnan(valuesOf<float>(ops::full({1}, std::nan("")))[0]));
  EXPECT_THAT(valuesOf<double>(ops::full({2}, -inf, ScalarType::Double)), ElementsAre(-inf, -inf));
}

TEST(CreationFull, RejectsValuesTheDtypeCannotHold) {
  EXPECT_TRUE(raisesError([] { ops::full({1}, int64_t{3000000000}, ScalarType::Int); }, ErrorKind::Value,
                          "aten::full: value 3000000000 cannot be converted to type Int without overflow"));
  EXPECT_EQ(errorMessageOf([] { ops::full({1}, std::nan(""), ScalarType::Long); }),
            "aten::full: value nan cannot be converted to type Long without overflow");
  EXPECT_EQ(errorMessageOf([] { ops::full({1}, 1e300); }),
            "aten::full: value 1e+300 cannot be converted to type Float without overflow");
}

TEST(CreationFull, LongHoldsItsExtremesFromDoubles) {
  const double lowest = -9223372036854775808.0;  // -2^63, exactly a double
  EXPECT_THAT(valuesOf<int64_t>(ops::full({1}, lowest, ScalarType::Long)),
              ElementsAre(std::numeric_limits<int64_t>::min()));
  EXPECT_THAT(errorMessageOf([&] { ops::full({1}, -lowest, ScalarType::Long); }),
              ::testing::HasSubstr("cannot be converted to type Long without overflow"));
}

TEST(CreationFull, OutFormFillsAndRejectsWithoutTouchingOut) {
  Tensor out = empty({2}, ScalarType::Int);
  EXPECT_EQ(&ops::full_out(out, {3}, 4), &out);
  EXPECT_THAT(valuesOf<int32_t>(out), ElementsAre(4, 4, 4));
  EXPECT_EQ(errorMessageOf([&] { ops::full_out(out, {5}, 1e20); }),
            "aten::full.out: value 1e+20 cannot be converted to type Int without overflow");
  EXPECT_THAT(out.sizes(), ElementsAre(3));
}

TEST(CreationFull, RejectsLayoutsOtherThanStrided) {
  auto op = Dispatcher::singleton()
                .findSchemaOrThrow("aten::full", "")
                .typed<Tensor(IntArrayRef, const Scalar&, std::optional<ScalarType>, std::optional<Layout>,
                              std::optional<Device>, std::optional<bool>)>();
  EXPECT_EQ(errorMessageOf([&] {
              op.call({1}, 1, std::nullopt, static_cast<Layout>(3), std::nullopt, std::nullopt);
            }),
            "aten::full: only the Strided layout is supported");
  EXPECT_EQ(op.call({2}, 1, std::nullopt, Layout::Strided, std::nullopt, /*pin_memory=*/true).numel(), 2);
}

// ---- arange --------------------------------------------------------------------------------------

TEST(CreationArange, IntegerBoundsGiveLong) {
  Tensor r = ops::arange(5);
  EXPECT_EQ(r.scalar_type(), ScalarType::Long);
  EXPECT_THAT(valuesOf<int64_t>(r), ElementsAre(0, 1, 2, 3, 4));
  EXPECT_THAT(valuesOf<int64_t>(ops::arange(2, 5)), ElementsAre(2, 3, 4));
  EXPECT_THAT(valuesOf<int64_t>(ops::arange(10, 0, -3)), ElementsAre(10, 7, 4, 1));
}

TEST(CreationArange, AnyFloatingBoundGivesFloat) {
  Tensor r = ops::arange(0, 1, 0.25);
  EXPECT_EQ(r.scalar_type(), ScalarType::Float);
  EXPECT_THAT(valuesOf<float>(r), ElementsAre(0, 0.25f, 0.5f, 0.75f));
  EXPECT_THAT(valuesOf<float>(ops::arange(2.5)), ElementsAre(0, 1, 2));
}

TEST(CreationArange, ValuesAreStartPlusIndexTimesStepInTheRequestedDtype) {
  Tensor r = ops::arange(-1, 1, 0.3, ScalarType::Double);
  std::vector<double> expected;
  for (int i = 0; i < 7; ++i) expected.push_back(-1 + i * 0.3);  // ceil(2 / 0.3) = 7 elements
  EXPECT_THAT(valuesOf<double>(r), ElementsAreArray(expected));
  EXPECT_THAT(valuesOf<int32_t>(ops::arange(0, 3, 1, ScalarType::Int)), ElementsAre(0, 1, 2));
}

// PyTorch 1.13 and 2.x alike (found by the PyTorch oracle, conformance/oracle/): an integral range
// truncates start, end and step to integers first, and measures an Int range on the bounds as given.
TEST(CreationArange, IntegralResultsStepThroughTheTruncatedBoundsAsPyTorchDoes) {
  EXPECT_THAT(valuesOf<int32_t>(ops::arange(-2.5, 5, 1, ScalarType::Int)), ElementsAre(-2, -1, 0, 1, 2, 3, 4, 5));
  EXPECT_THAT(valuesOf<int64_t>(ops::arange(-2.5, 5, 1, ScalarType::Long)), ElementsAre(-2, -1, 0, 1, 2, 3, 4));
  EXPECT_THAT(valuesOf<int32_t>(ops::arange(0, 2.5, 1, ScalarType::Int)), ElementsAre(0, 1, 2));
  EXPECT_THAT(valuesOf<int64_t>(ops::arange(0, 2.5, 1, ScalarType::Long)), ElementsAre(0, 1));
  EXPECT_THAT(valuesOf<int32_t>(ops::arange(1, -2.5, -1, ScalarType::Int)), ElementsAre(1, 0, -1, -2));
  Tensor out = empty({0}, ScalarType::Long);
  ops::arange_out(out, 2.5);
  EXPECT_THAT(valuesOf<int64_t>(out), ElementsAre(0, 1));
  EXPECT_EQ(errorMessageOf([] { ops::arange(0, 2, 0.5, ScalarType::Int); }), "aten::arange.start_step: step must be nonzero");
}

TEST(CreationArange, LongRangesNearTheLimitsAreExact) {
  const int64_t top = std::numeric_limits<int64_t>::max();
  EXPECT_THAT(valuesOf<int64_t>(ops::arange(top - 2, top)), ElementsAre(top - 2, top - 1));
  EXPECT_EQ(ops::arange(3, 3).numel(), 0);
}

TEST(CreationArange, RejectsZeroStepsInconsistentSignsAndInfiniteBounds) {
  EXPECT_EQ(errorMessageOf([] { ops::arange(0, 5, 0); }), "aten::arange.start_step: step must be nonzero");
  EXPECT_EQ(errorMessageOf([] { ops::arange(0, 5, -1); }),
            "aten::arange.start_step: upper bound and larger bound inconsistent with step sign (start 0, end 5, "
            "step -1)");
  EXPECT_EQ(errorMessageOf([] { ops::arange(std::numeric_limits<double>::infinity()); }),
            "aten::arange: unsupported range: 0 -> inf");
}

TEST(CreationArange, RejectsRangesTooLongToAllocate) {
  EXPECT_EQ(errorMessageOf([] { ops::arange(0, int64_t{2000000000000000000}, 1); }),
            "aten::arange.start_step: invalid size, possible overflow? (2000000000000000000 elements)");
}

TEST(CreationArange, RejectsBoolAndValuesOutsideTheDtype) {
  EXPECT_EQ(errorMessageOf([] { ops::arange(3, ScalarType::Bool); }),
            "aten::arange: argument 'dtype' has dtype Bool, which this kernel does not support (supported: Byte, "
            "Char, Short, Int, Long, Half, Float, Double, BFloat16)");
  EXPECT_EQ(errorMessageOf([] { ops::arange(int64_t{3000000000}, int64_t{3000000002}, 1, ScalarType::Int); }),
            "aten::arange.start_step: value 3000000000 cannot be converted to type Int without overflow");
}

TEST(CreationArange, OutResizesToOneDimAndReturnsTheCallersTensor) {
  Tensor out = empty({2, 2}, ScalarType::Double);
  Tensor& result = ops::arange_out(out, 1, 4, 1);
  EXPECT_EQ(&result, &out);
  EXPECT_THAT(out.sizes(), ElementsAre(3));
  EXPECT_THAT(valuesOf<double>(out), ElementsAre(1, 2, 3));
  EXPECT_EQ(&ops::arange_out(out, 2), &out);
  EXPECT_THAT(valuesOf<double>(out), ElementsAre(0, 1));
}

TEST(CreationArange, OutWithTheRightElementCountKeepsItsShapeAndStrides) {
  Tensor base = empty({3, 2}, ScalarType::Long);
  Tensor out = ops::transpose(base, 0, 1);  // [2, 3], strides (1, 2)
  ops::arange_out(out, 6);
  EXPECT_THAT(out.sizes(), ElementsAre(2, 3));
  EXPECT_THAT(valuesOf<int64_t>(out), ElementsAre(0, 1, 2, 3, 4, 5));  // row-major over out's own indices
  EXPECT_THAT(valuesOf<int64_t>(base), ElementsAre(0, 3, 1, 4, 2, 5));
}

TEST(CreationArange, OutRejectsBool) {
  Tensor out = empty({2}, ScalarType::Bool);
  EXPECT_EQ(errorMessageOf([&] { ops::arange_out(out, 2); }),
            "aten::arange.out: argument 'out' has dtype Bool, which this kernel does not support (supported: Byte, "
            "Char, Short, Int, Long, Half, Float, Double, BFloat16)");
}

}  // namespace
}  // namespace sy
