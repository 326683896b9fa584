// The Accel subset backend: its own memory behind opaque handles, native kernels, and the boxed
// CPU fallback's contract (exact counts, out=/in-place identity, write-back, refusals, errors).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "backends/devices/accel/accel_test_helpers.h"
#include "switchyard/backends/devices/accel/accel_allocator.h"
#include "switchyard/backends/devices/accel/accel_cpu_fallback.h"
#include "test_support.h"

namespace {

using ::testing::HasSubstr;
using sy::Tensor;
using sy::kAccel;
using sy::kCPU;
using sy::testing::errorMessageOf;
using sy::testing::fallbackCount;
using sy::testing::nativeCount;
using sy::testing::onAccel;
using sy::testing::sameAsCpu;
namespace ops = sy::ops;

class AccelBackend : public ::testing::Test {
 protected:
  void SetUp() override { sy::accel::reset_fallback_counts(); }
  void TearDown() override { sy::accel::set_warn_on_fallback(false); }
};

// ---- Memory ------------------------------------------------------------------------------------

TEST_F(AccelBackend, EmptyOnAccelCarriesTheAccelKeyAndAnOpaqueHandle) {
  Tensor t = sy::empty({2, 3}, sy::TensorOptions().device(kAccel));
  EXPECT_TRUE(t.key_set().has(sy::DispatchKey::Accel));
  EXPECT_EQ(t.device(), kAccel);
  EXPECT_TRUE(sy::accel::isAccelHandle(t.data_ptr()));
  Tensor through_dispatcher = ops::empty({4}, sy::TensorOptions(sy::ScalarType::Long).device(kAccel));
  EXPECT_TRUE(sy::accel::isAccelHandle(through_dispatcher.data_ptr()));
  EXPECT_EQ(nativeCount("aten::empty.memory_format"), 1);
}

TEST_F(AccelBackend, BuffersAreFreedWithTheirTensors) {
  const size_t before = sy::accel::liveBufferCount();
  {
    Tensor t = sy::ones({8}).to(kAccel);
    EXPECT_EQ(sy::accel::liveBufferCount(), before + 1);
  }
  EXPECT_EQ(sy::accel::liveBufferCount(), before);
}

TEST_F(AccelBackend, ExplicitCopyRoutinesMoveBytes) {
  Tensor t = sy::empty({3}, sy::TensorOptions().device(kAccel));
  const float in[3] = {1.5f, -2.f, 4.f};
  sy::accel::copyToAccel(t.data_ptr(), in, sizeof(in));
  float out[3] = {};
  sy::accel::copyFromAccel(out, t.data_ptr(), sizeof(out));
  EXPECT_EQ(out[0], 1.5f);
  EXPECT_EQ(out[2], 4.f);
  EXPECT_THAT(errorMessageOf([&] { sy::accel::copyFromAccel(out, t.data_ptr(), 64); }), HasSubstr("overrun"));
}

TEST_F(AccelBackend, CopyRoundTripsAndConvertsDtypes) {
  Tensor x = sy::tensor<int64_t>({1, -2, 3, 7}, {2, 2});
  Tensor a = x.to(kAccel);
  EXPECT_TRUE(sy::allclose(a.to(kCPU), x));
  Tensor f = sy::empty({2, 2}, sy::TensorOptions().device(kAccel));
  f.copy_(a);  // Accel Long -> Accel Float
  EXPECT_TRUE(sameAsCpu(f, sy::tensor<float>({1, -2, 3, 7}, {2, 2})));
  Tensor host = sy::zeros({2, 2}, sy::ScalarType::Double);
  host.copy_(f);  // Accel -> CPU, broadcast-free, converting
  EXPECT_TRUE(sy::allclose(host, sy::tensor<double>({1, -2, 3, 7}, {2, 2})));
  Tensor row = sy::tensor<float>({5, 6});
  f.copy_(row);  // CPU -> Accel, broadcasting a row
  EXPECT_TRUE(sameAsCpu(f, sy::tensor<float>({5, 6, 5, 6}, {2, 2})));
  EXPECT_EQ(fallbackCount("aten::copy_"), 0);
}

// ---- Native kernels and exact counts ----------------------------------------------------------

TEST_F(AccelBackend, NativeAddAndMulDoNotFallBack) {
  Tensor x = sy::tensor<float>({1, 2, 3}), y = sy::tensor<float>({4, 5, 6});
  Tensor ax = onAccel(x), ay = onAccel(y);
  sy::accel::reset_fallback_counts();
  EXPECT_TRUE(sameAsCpu(ops::add(ax, ay, 2), ops::add(x, y, 2)));
  EXPECT_TRUE(sameAsCpu(ops::mul(ax, ay), ops::mul(x, y)));
  EXPECT_TRUE(sy::accel::fallback_counts().empty());
  EXPECT_EQ(nativeCount("aten::add.Tensor"), 1);
  EXPECT_EQ(nativeCount("aten::mul.Tensor"), 1);
}

TEST_F(AccelBackend, SinFallsBackExactlyOnceAndAddStaysNative) {
  Tensor x = sy::tensor<float>({0.1f, 0.5f, -0.7f});
  Tensor ax = onAccel(x);
  sy::accel::reset_fallback_counts();
  Tensor s = ops::sin(ax);
  EXPECT_EQ(fallbackCount("aten::sin"), 1);
  EXPECT_EQ(fallbackCount("aten::add.Tensor"), 0);
  ops::add(s, ax);
  EXPECT_EQ(fallbackCount("aten::add.Tensor"), 0);
  EXPECT_EQ(sy::accel::fallback_counts(), (std::map<std::string, int64_t>{{"aten::sin", 1}}));
  EXPECT_TRUE(sameAsCpu(s, ops::sin(x)));
}

TEST_F(AccelBackend, NativeOutResizesTheCallersTensor) {
  Tensor x = sy::tensor<float>({1, 2, 3, 4}, {2, 2});
  Tensor out = sy::empty({0}, sy::TensorOptions().device(kAccel));
  Tensor& r = ops::add_out(out, onAccel(x), onAccel(x));
  EXPECT_EQ(&r, &out);
  EXPECT_TRUE(sameAsCpu(out, ops::add(x, x)));
  Tensor& m = ops::mul_out(out, onAccel(x), onAccel(x));
  EXPECT_EQ(&m, &out);
  EXPECT_TRUE(sameAsCpu(out, ops::mul(x, x)));
}

// ---- The fallback's out= and in-place contract ------------------------------------------------

TEST_F(AccelBackend, FallbackOutReturnsTheCallersObjectHoldingTheResult) {
  Tensor x = sy::tensor<float>({0.1f, 0.2f, -0.9f});
  Tensor ax = onAccel(x);
  Tensor out = sy::empty({3}, sy::TensorOptions().device(kAccel));
  sy::TensorImpl* impl = out.unsafeGetTensorImpl();
  EXPECT_EQ(&ops::acos_out(out, ax), &out);
  EXPECT_EQ(out.unsafeGetTensorImpl(), impl);
  EXPECT_EQ(out.device(), kAccel);
  EXPECT_TRUE(sameAsCpu(out, ops::acos(x)));
  EXPECT_EQ(fallbackCount("aten::acos.out"), 1);
}

TEST_F(AccelBackend, FallbackOutIsResizedLikeTheCpuKernelResizedItsCopy) {
  Tensor x = sy::tensor<float>({0.1f, 0.2f, 0.3f, 0.4f}, {2, 2});
  Tensor out = sy::empty({0}, sy::TensorOptions().device(kAccel));
  ops::sin_out(out, onAccel(x));
  EXPECT_TRUE(sameAsCpu(out, ops::sin(x)));
}

TEST_F(AccelBackend, FallbackInPlaceWritesBackIntoTheCallersTensor) {
  Tensor x = sy::tensor<float>({0.1f, 0.2f, 0.3f});
  Tensor ax = onAccel(x);
  sy::TensorImpl* impl = ax.unsafeGetTensorImpl();
  EXPECT_EQ(&ops::sin_(ax), &ax);
  EXPECT_EQ(ax.unsafeGetTensorImpl(), impl);
  EXPECT_TRUE(sameAsCpu(ax, ops::sin(x)));
  EXPECT_EQ(fallbackCount("aten::sin_"), 1);
}

TEST_F(AccelBackend, FailingCpuKernelLeavesTheOutArgumentUnchanged) {
  Tensor out = sy::tensor<int64_t>({7, 8, 9}).to(kAccel);
  Tensor x = onAccel(sy::tensor<float>({0.1f, 0.2f, 0.3f}));
  Tensor cpu_out = sy::tensor<int64_t>({7, 8, 9});
  const std::string cpu_error = errorMessageOf([&] { ops::acos_out(cpu_out, sy::tensor<float>({0.1f, 0.2f, 0.3f})); });
  ASSERT_NE(cpu_error, "");  // the CPU call raised an error
  EXPECT_EQ(errorMessageOf([&] { ops::acos_out(out, x); }), cpu_error);
  EXPECT_TRUE(sameAsCpu(out, sy::tensor<int64_t>({7, 8, 9})));
}

// ---- Refusals and errors -------------------------------------------------------------------------

TEST_F(AccelBackend, MixingCpuAndAccelTensorsIsPyTorchsError) {
  Tensor a = onAccel(sy::ones({3}));
  Tensor c = sy::ones({3});
  const std::string expected = "Expected all tensors to be on the same device, but found at least two devices, accel and cpu!";
  EXPECT_THAT(errorMessageOf([&] { ops::add(a, c); }), HasSubstr(expected));       // native kernel
  EXPECT_THAT(errorMessageOf([&] { ops::maximum(a, c); }), HasSubstr(expected));   // fallback
  EXPECT_THAT(errorMessageOf([&] { ops::cat({a, c}); }), HasSubstr(expected));     // inside a list
  EXPECT_EQ(fallbackCount("aten::maximum"), 0);
}

TEST_F(AccelBackend, ZeroDimCpuTensorsMayAccompanyAccelTensors) {
  Tensor x = sy::tensor<float>({1, 2, 3});
  Tensor two = sy::full({}, 2.0);
  EXPECT_TRUE(sameAsCpu(ops::mul(onAccel(x), two), ops::mul(x, two)));
  EXPECT_TRUE(sameAsCpu(ops::maximum(onAccel(x), two), ops::maximum(x, two)));
}

// aten's view operators are CompositeExplicit (they only restride), so on Accel they make Accel
// views of the same buffer, and writes through a view reach the base.
TEST_F(AccelBackend, AtenViewsAreAccelViewsOfTheSameBuffer) {
  Tensor x = sy::tensor<float>({0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f}, {2, 3});
  Tensor a = onAccel(x);
  Tensor t = ops::transpose(a, 0, 1);
  EXPECT_EQ(t.device(), kAccel);
  EXPECT_EQ(t.storage().get(), a.storage().get());
  EXPECT_TRUE(sameAsCpu(t, ops::transpose(x, 0, 1)));
  EXPECT_TRUE(sameAsCpu(ops::sin(t), ops::sin(ops::transpose(x, 0, 1))));  // fallback reads a strided view
  Tensor row = ops::select(a, 0, 1);
  ops::sin_(row);  // fallback writes back through the view into the base
  Tensor expected = x.to(kCPU);
  Tensor expected_row = ops::select(expected, 0, 1);
  ops::sin_(expected_row);
  EXPECT_TRUE(sameAsCpu(a, expected));
  EXPECT_EQ(fallbackCount("aten::transpose.int"), 0);
}

Tensor aliasCpu(const Tensor& self) { return self; }

TEST_F(AccelBackend, ViewOperatorsWithoutAnAccelKernelAreRefused) {
  sy::Library def(sy::Library::Fragment, "accel_views");
  def.def("view(Tensor(a) self, int[] size) -> Tensor(a)");
  def.def("alias(Tensor(a) self) -> Tensor(a)");
  sy::Library impl(sy::Library::Impl, "accel_views", sy::DispatchKey::CPU);
  impl.impl("alias", &aliasCpu);
  sy::Stack stack{onAccel(sy::ones({2, 3})), std::vector<int64_t>{3, 2}};
  const auto& view = sy::Dispatcher::singleton().findSchemaOrThrow("accel_views::view", "");
  EXPECT_THAT(errorMessageOf([&] { view.callBoxed(&stack); }),
              HasSubstr("accel_views::view is a view operator and cannot run through the Accel CPU fallback; "));
  auto alias = sy::Dispatcher::singleton().findSchemaOrThrow("accel_views::alias", "").typed<Tensor(const Tensor&)>();
  EXPECT_THAT(errorMessageOf([&] { alias.call(onAccel(sy::ones({2}))); }),
              HasSubstr("accel_views::alias is a view operator and cannot run through the Accel CPU fallback"));
  EXPECT_EQ(fallbackCount("accel_views::alias"), 0);
}

// ---- A CPU kernel never sees Accel memory --------------------------------------------------------

bool cpu_kernel_saw_handle = false;
int cpu_kernel_calls = 0;
Tensor peekCpu(const Tensor& self) {
  cpu_kernel_calls += 1;
  cpu_kernel_saw_handle = cpu_kernel_saw_handle || sy::accel::isAccelHandle(self.data_ptr()) || !self.is_cpu();
  return ops::add(self, self);
}

TEST_F(AccelBackend, CpuKernelsNeverSeeAccelDataPointers) {
  sy::Library def(sy::Library::Fragment, "accel_peek");
  def.def("peek(Tensor self) -> Tensor");
  sy::Library impl(sy::Library::Impl, "accel_peek", sy::DispatchKey::CPU);
  impl.impl("peek", &peekCpu);
  auto op = sy::Dispatcher::singleton().findSchemaOrThrow("accel_peek::peek", "").typed<Tensor(const Tensor&)>();
  Tensor x = sy::tensor<float>({1, 2});
  Tensor r = op.call(onAccel(x));
  EXPECT_EQ(cpu_kernel_calls, 1);
  EXPECT_FALSE(cpu_kernel_saw_handle);
  EXPECT_TRUE(sameAsCpu(r, sy::tensor<float>({2, 4})));
  EXPECT_EQ(fallbackCount("accel_peek::peek"), 1);
}

// ---- Observability -------------------------------------------------------------------------------

TEST_F(AccelBackend, WarnsOncePerOperatorWhenAsked) {
  Tensor a = onAccel(sy::ones({2}));
  sy::accel::set_warn_on_fallback(true);
  ::testing::internal::CaptureStderr();
  ops::cos(a);
  ops::cos(a);
  ops::exp(a);
  ops::add(a, a);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(err,
            "[switchyard] Accel: aten::cos has no Accel kernel and falls back to the CPU (copies every tensor argument across)\n"
            "[switchyard] Accel: aten::exp has no Accel kernel and falls back to the CPU (copies every tensor argument across)\n");
  sy::accel::set_warn_on_fallback(false);
  ::testing::internal::CaptureStderr();
  ops::tanh(a);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
}

TEST_F(AccelBackend, ReportListsNativeAndFallbackOperatorsWithCounts) {
  Tensor a = onAccel(sy::ones({2}));
  sy::accel::reset_fallback_counts();
  ops::add(a, a);
  ops::add(a, a);
  ops::sin(a);
  const std::string report = sy::accel::report();
  EXPECT_THAT(report, HasSubstr("native (Accel kernels): 1 operators\n"));
  EXPECT_THAT(report, ::testing::ContainsRegex("aten::add.Tensor +2\n"));
  EXPECT_THAT(report, HasSubstr("fallback (ran on the CPU): 1 operators\n"));
  EXPECT_THAT(report, ::testing::ContainsRegex("aten::sin +1\n"));
}

}  // namespace
