// A CPU 0-dim tensor may accompany Accel tensors as an input (PyTorch's CPU scalars next to CUDA
// tensors) but never receive an Accel computation's result: out= and in-place arguments must be on
// Accel, through native kernels and through the CPU fallback alike.
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
namespace ops = sy::ops;

constexpr const char* kMixed = "Expected all tensors to be on the same device, but found at least two devices, accel and cpu";

TEST(AccelMixedDevices, SumOutIntoACpuScalarOutIsRefused) {
  Tensor x = sy::ones({3}).to(sy::kAccel);
  Tensor out = sy::zeros({});
  EXPECT_THAT(errorMessageOf([&] { ops::sum_out(out, x); }), HasSubstr(kMixed));
  EXPECT_EQ(valuesOf<float>(out), std::vector<float>({0}));
}

TEST(AccelMixedDevices, OtherFallbackOutKernelsRefuseACpuScalarOut) {
  Tensor x = sy::ones({}).to(sy::kAccel);
  Tensor out = sy::zeros({});
  EXPECT_THAT(errorMessageOf([&] { ops::sub_out(out, x, x); }), HasSubstr(kMixed));
  EXPECT_THAT(errorMessageOf([&] { ops::sin_out(out, x); }), HasSubstr(kMixed));
}

TEST(AccelMixedDevices, NativeOutKernelsRefuseACpuScalarOut) {
  Tensor x = sy::ones({}).to(sy::kAccel);
  Tensor out = sy::zeros({});
  EXPECT_THAT(errorMessageOf([&] { ops::add_out(out, x, x); }), HasSubstr("aten::add.out"));
  EXPECT_THAT(errorMessageOf([&] { ops::mul_out(out, x, x); }), HasSubstr(kMixed));
  EXPECT_EQ(valuesOf<float>(out), std::vector<float>({0}));
}

TEST(AccelMixedDevices, InPlaceOnACpuScalarWithAnAccelOperandIsRefused) {
  Tensor self = sy::zeros({});
  Tensor x = sy::ones({}).to(sy::kAccel);
  EXPECT_THAT(errorMessageOf([&] { ops::add_(self, x); }), HasSubstr(kMixed));
  EXPECT_THAT(errorMessageOf([&] { ops::mul_(self, x); }), HasSubstr(kMixed));
  EXPECT_THAT(errorMessageOf([&] { ops::sub_(self, x); }), HasSubstr(kMixed));
}

TEST(AccelMixedDevices, ACpuScalarInputNextToAccelTensorsIsStillFine) {
  Tensor x = sy::ones({3}).to(sy::kAccel);
  Tensor two = sy::full({}, 2.0);
  EXPECT_EQ(valuesOf<float>(ops::add(x, two).to(sy::kCPU)), std::vector<float>({3, 3, 3}));
  EXPECT_EQ(valuesOf<float>(ops::sub(x, two).to(sy::kCPU)), std::vector<float>({-1, -1, -1}));
}

}  // namespace
