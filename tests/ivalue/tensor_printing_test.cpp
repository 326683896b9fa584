// Tensor printing: PyTorch's layout for every dtype, shape and stride pattern.
#include <cmath>
#include <limits>
#include <sstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/ivalue/tensor.h"
#include "switchyard/ivalue/tensor_factories.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using sy::testing::viewOf;

constexpr float kPrintingNan = std::numeric_limits<float>::quiet_NaN();
constexpr float kPrintingInf = std::numeric_limits<float>::infinity();

TEST(TensorPrinting, FloatMatrixOfIntegralValues) {
  EXPECT_EQ(tensor<float>({1, 2, 3, 4}, {2, 2}).toString(), "tensor([[1., 2.],\n        [3., 4.]])");
}

TEST(TensorPrinting, FractionalFloatsUseFourDecimalsAlignedToOneWidth) {
  EXPECT_EQ(tensor({1.5f, -2.25f, 10.f}).toString(), "tensor([ 1.5000, -2.2500, 10.0000])");
}

TEST(TensorPrinting, NonFloatDtypesAreNamed) {
  EXPECT_EQ(tensor<int64_t>({1, 2, 3}).toString(), "tensor([1, 2, 3], dtype=Long)");
  EXPECT_EQ(tensor<int32_t>({-5, 100}).toString(), "tensor([ -5, 100], dtype=Int)");
  EXPECT_EQ(tensor<double>({0.5, 2}).toString(), "tensor([0.5000, 2.0000], dtype=Double)");
}

TEST(TensorPrinting, BoolsPrintAsTrueFalse) {
  EXPECT_EQ(tensor<bool>({true, false}).toString(), "tensor([True, False], dtype=Bool)");
}

TEST(TensorPrinting, ZeroDimPrintsTheBareValue) {
  EXPECT_EQ(full({}, 3.5).toString(), "tensor(3.5000)");
  EXPECT_EQ(full({}, 7, ScalarType::Long).toString(), "tensor(7, dtype=Long)");
}

TEST(TensorPrinting, EmptyShowsItsSize) {
  EXPECT_EQ(zeros({0, 3}).toString(), "tensor([], size=(0, 3))");
  EXPECT_EQ(zeros({0}, ScalarType::Long).toString(), "tensor([], dtype=Long)");
}

TEST(TensorPrinting, NanAndInfinitiesAreSpelledOut) {
  EXPECT_EQ(tensor({1.f, kPrintingNan, kPrintingInf, -kPrintingInf}).toString(), "tensor([1., nan, inf, -inf])");
  EXPECT_EQ(tensor({1.5f, kPrintingNan}).toString(), "tensor([1.5000,    nan])");
}

TEST(TensorPrinting, NonContiguousViewPrintsInLogicalOrder) {
  Tensor base = tensor<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  EXPECT_EQ(viewOf(base, {3, 2}, {1, 3}).toString(), "tensor([[1., 4.],\n        [2., 5.],\n        [3., 6.]])");
}

TEST(TensorPrinting, StrideZeroViewRepeatsValues) {
  Tensor row = tensor<int64_t>({7, 8});
  EXPECT_EQ(viewOf(row, {2, 2}, {0, 1}).toString(), "tensor([[7, 8],\n        [7, 8]], dtype=Long)");
}

TEST(TensorPrinting, ThreeDimensionsSeparateBlocksWithABlankLine) {
  Tensor t = arange(8);
  t.resize_({2, 2, 2});
  EXPECT_EQ(t.toString(),
            "tensor([[[0, 1],\n"
            "         [2, 3]],\n"
            "\n"
            "        [[4, 5],\n"
            "         [6, 7]]], dtype=Long)");
}

TEST(TensorPrinting, LargeVectorIsSummarised) {
  EXPECT_EQ(arange(2000).toString(), "tensor([   0,    1,    2,  ..., 1997, 1998, 1999], dtype=Long)");
}

TEST(TensorPrinting, LargeMatrixSummarisesRowsAndColumns) {
  std::string row = "[0., 0., 0.,  ..., 0., 0., 0.]";
  std::string separator = ",\n        ";
  std::string expected = "tensor([" + row + separator + row + separator + row + separator + "..." + separator + row +
                         separator + row + separator + row + "])";
  EXPECT_EQ(zeros({100, 20}).toString(), expected);
}

TEST(TensorPrinting, SmallTensorIsNotSummarised) {
  EXPECT_THAT(arange(1000).toString(), Not(HasSubstr("...")));
}

TEST(TensorPrinting, UndefinedTensor) { EXPECT_EQ(Tensor().toString(), "tensor(undefined)"); }

TEST(TensorPrinting, NonCPUTensorDoesNotReadItsMemory) {
  // The data pointer is an opaque handle; reading it would crash.
  DataPtr handle{reinterpret_cast<void*>(0x10), nullptr, nullptr, kAccel};
  auto impl = make_intrusive<TensorImpl>(make_intrusive<StorageImpl>(std::move(handle), 24), ScalarType::Float, kAccel);
  impl->set_sizes_and_strides({2, 3}, {3, 1}, 0);
  EXPECT_EQ(Tensor(std::move(impl)).toString(), "tensor(<on accel>, size=(2, 3), dtype=Float)");
}

TEST(TensorPrinting, StreamOperatorWritesToString) {
  Tensor t = tensor<int64_t>({1, 2});
  std::ostringstream os;
  os << t;
  EXPECT_EQ(os.str(), t.toString());
}

TEST(TensorPrinting, FormatSizesSpellsPythonTuples) {
  EXPECT_EQ(formatSizes({2, 3}), "(2, 3)");
  EXPECT_EQ(formatSizes({3}), "(3,)");
  EXPECT_EQ(formatSizes({}), "()");
}

}  // namespace
}  // namespace sy
