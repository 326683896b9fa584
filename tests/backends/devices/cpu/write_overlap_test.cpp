// Writes whose destination overlaps memory: an in-place operator on partially overlapping views
// of one Accel buffer gives the CPU's answer, and copy_ into an expanded (stride-0) destination is
// refused, as every other kernel that writes a tensor refuses it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "backends/devices/accel/accel_test_helpers.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace {

using ::testing::HasSubstr;
using sy::Tensor;
using sy::testing::errorMessageOf;
using sy::testing::valuesOf;
using sy::testing::viewOf;
namespace ops = sy::ops;

constexpr const char* kInternalOverlap =
    "more than one element of the written-to tensor refers to a single memory location";

// x[1:] op= x[:-1] on a fresh [0, 1, 2, 3, 4] on `device`; returns x's values afterwards.
template <class Op>
std::vector<float> shiftedInPlace(sy::Device device, Op&& op) {
  Tensor x = sy::tensor<float>({0, 1, 2, 3, 4}).to(device);
  Tensor head = viewOf(x, {4}, {1}, /*storage_offset=*/1);
  Tensor tail = viewOf(x, {4}, {1}, /*storage_offset=*/0);
  op(head, tail);
  return valuesOf<float>(x.to(sy::kCPU));
}

TEST(WriteOverlap, AccelInPlaceAddOnOverlappingViewsMatchesTheCpu) {
  auto add = [](Tensor& a, const Tensor& b) { ops::add_(a, b); };
  const std::vector<float> cpu = shiftedInPlace(sy::kCPU, add);
  EXPECT_EQ(cpu, std::vector<float>({0, 1, 3, 5, 7}));  // every read sees the original values
  EXPECT_EQ(shiftedInPlace(sy::kAccel, add), cpu);
}

TEST(WriteOverlap, AccelInPlaceMulAndSubOnOverlappingViewsMatchTheCpu) {
  auto mul = [](Tensor& a, const Tensor& b) { ops::mul_(a, b); };
  EXPECT_EQ(shiftedInPlace(sy::kAccel, mul), shiftedInPlace(sy::kCPU, mul));
  auto sub = [](Tensor& a, const Tensor& b) { ops::sub_(a, b); };  // through the CPU fallback
  EXPECT_EQ(shiftedInPlace(sy::kAccel, sub), shiftedInPlace(sy::kCPU, sub));
}

TEST(WriteOverlap, CopyIntoAnExpandedDestinationIsRefused) {
  Tensor base = sy::zeros({1});
  Tensor expanded = ops::expand(base, {3});
  EXPECT_THAT(errorMessageOf([&] { expanded.copy_(sy::tensor<float>({1, 2, 3})); }),
              HasSubstr(std::string("aten::copy_: unsupported operation: ") + kInternalOverlap));
  EXPECT_EQ(valuesOf<float>(base), std::vector<float>({0}));
}

TEST(WriteOverlap, CopyIntoAnExpandedAccelDestinationIsRefused) {
  Tensor base = sy::zeros({1}).to(sy::kAccel);
  Tensor expanded = viewOf(base, {3}, {0});
  EXPECT_THAT(errorMessageOf([&] { expanded.copy_(sy::tensor<float>({1, 2, 3})); }), HasSubstr(kInternalOverlap));
}

TEST(WriteOverlap, CopyIntoASizeOneDimensionWithStrideZeroIsFine) {
  Tensor base = sy::zeros({3});
  Tensor row = viewOf(base, {1, 3}, {0, 1});
  row.copy_(sy::tensor<float>({1, 2, 3}));
  EXPECT_EQ(valuesOf<float>(base), std::vector<float>({1, 2, 3}));
}

}  // namespace
