// The pieces a device backend is built from, in Switchyard's names: Device (parsing, printing),
// DataPtr and Allocator, DeviceGuard, warnings, and the operators a device backend implements
// (empty_strided, resize_, _copy_from through copy_). The PyTorch-spelled kit, with a backend on
// PrivateUse1, is tested in tests/torch_idioms/ (its own process: it registers process-wide).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "switchyard/switchyard.h"
#include "test_support.h"

namespace {

using sy::DataPtr;
using sy::Device;
using sy::DeviceType;
using sy::DispatchKey;
using sy::ErrorKind;
using sy::Tensor;
using sy::testing::errorMessageOf;
using sy::testing::iota;
using sy::testing::raisesError;
using sy::testing::valuesOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// ---- Device ----------------------------------------------------------------------------------------

TEST(DeviceParsing, ReadsATypesNameAndAnOptionalIndex) {
  EXPECT_EQ(Device("cpu"), sy::kCPU);
  EXPECT_EQ(Device("accel:0"), Device(DeviceType::Accel, 0));
  EXPECT_EQ(Device("privateuse2:12"), Device(DeviceType::PrivateUse2, 12));
  EXPECT_EQ(Device("privateuseone"), Device(DeviceType::PrivateUse1));  // PyTorch's generic name
  EXPECT_EQ(Device("cuda:1").type(), DeviceType::CUDA);                  // parses; has no backend here
  EXPECT_EQ(Device(DeviceType::PrivateUse3, 2).str(), "privateuse3:2");
  EXPECT_EQ(sy::str(Device(DeviceType::Accel)), "accel");
  EXPECT_FALSE(Device("cpu").has_index());
  EXPECT_TRUE(Device("accel:0").has_index());
}

TEST(DeviceParsing, RefusesMalformedStringsAsPyTorchDoes) {
  for (const char* bad : {"", ":0", "cpu:", "cpu:01", "cpu:x", "cpu:-1", "cpu0", "npu 0", "cpu:0:1"}) {
    EXPECT_EQ(errorMessageOf([&] { Device d{std::string(bad)}; }), std::string("Invalid device string: '") + bad + "'")
        << bad;
  }
  EXPECT_EQ(errorMessageOf([] { Device d{std::string("accel:300")}; }),
            "Device index 300 in 'accel:300' is out of range: an index is at most 127");
  EXPECT_THAT(errorMessageOf([] { Device d{std::string("tpu:0")}; }),
              HasSubstr("Expected one of cpu, accel, privateuse1, privateuse2, privateuse3, cuda, hip, xla, mps, xpu, "
                        "meta, lazy device type at start of device string: tpu"));
}

TEST(DeviceNames, APrivateUseNameMustBeParseableAndFree) {
  EXPECT_EQ(errorMessageOf([] { sy::registerPrivateUseBackendName(DeviceType::PrivateUse2, "My-Device"); }),
            "cannot name the backend on privateuse2 'My-Device': a device name is lower-case letters and underscores, "
            "as device strings (\"My-Device:0\") are parsed");
  EXPECT_EQ(errorMessageOf([] { sy::registerPrivateUseBackendName(DeviceType::PrivateUse2, "cuda"); }),
            "cannot name the backend on privateuse2 'cuda': that name already means device type cuda");
  EXPECT_THAT(errorMessageOf([] { sy::registerPrivateUseBackendName(DeviceType::Accel, "mine"); }),
              HasSubstr("accel is not a private-use device type"));
  EXPECT_FALSE(sy::isPrivateUseBackendNameRegistered(DeviceType::PrivateUse2));
}

// ---- DataPtr and Allocator -------------------------------------------------------------------------

int device_kit_frees = 0;
void countFree(void* context) {
  ++device_kit_frees;
  sy::cpuFree(context);
}

TEST(DataPtr, OwnsItsAllocationAndFreesItOnce) {
  device_kit_frees = 0;
  {
    void* p = sy::cpuAlloc(64);
    DataPtr a(p, p, &countFree, sy::kCPU);
    DataPtr b = std::move(a);
    EXPECT_FALSE(a);
    EXPECT_EQ(b.get(), p);
    EXPECT_EQ(b.get_context(), p);
    EXPECT_EQ(b.device(), sy::kCPU);
  }
  EXPECT_EQ(device_kit_frees, 1);
  void* q = sy::cpuAlloc(8);
  DataPtr c(q, q, &countFree, sy::kCPU);
  sy::cpuFree(c.release_context());  // the caller frees it now
  EXPECT_EQ(device_kit_frees, 1);
  int on_stack = 0;
  { DataPtr borrowed(&on_stack, sy::kCPU); }  // not owned: nothing to free
  EXPECT_EQ(device_kit_frees, 1);
}

TEST(Allocator, TheCpuAllocatorHandsOutRawPointersAndCopies) {
  sy::Allocator* cpu = sy::cpuAllocator();
  EXPECT_EQ(sy::getAllocator(DeviceType::CPU), cpu);
  auto* p = static_cast<float*>(cpu->raw_allocate(4 * sizeof(float)));
  for (int i = 0; i < 4; ++i) p[i] = static_cast<float>(i);
  DataPtr copy = cpu->clone(p, 4 * sizeof(float));
  cpu->raw_deallocate(p);
  EXPECT_EQ(static_cast<float*>(copy.get())[3], 3.0f);
}

struct HostOnlyAllocator final : sy::Allocator {
  DataPtr allocate(size_t nbytes) override {
    void* p = sy::cpuAlloc(nbytes);
    return DataPtr(p, p, &sy::cpuFree, Device(DeviceType::PrivateUse3, 0));
  }
};

TEST(Allocator, CopyingWithoutCopyDataIsAnErrorNotAMemcpy) {
  HostOnlyAllocator allocator;
  DataPtr data = allocator.allocate(16);
  EXPECT_THAT(errorMessageOf([&] { allocator.clone(data.get(), 16); }),
              HasSubstr("this allocator does not implement copy_data"));
}

TEST(Allocator, EmptyGenericAllocatesOnTheDeviceTheAllocationNames) {
  HostOnlyAllocator allocator;
  Tensor t = sy::emptyGeneric({2, 3}, &allocator, sy::DispatchKeySet(DispatchKey::PrivateUse3), sy::ScalarType::Double);
  EXPECT_EQ(t.device(), Device(DeviceType::PrivateUse3, 0));
  EXPECT_EQ(t.key_set(), sy::DispatchKeySet(DispatchKey::PrivateUse3));
  EXPECT_THAT(t.strides(), ElementsAre(3, 1));
  EXPECT_EQ(t.storage()->nbytes(), 6 * sizeof(double));
  Tensor nhwc = sy::emptyGeneric({1, 2, 3, 4}, &allocator, sy::DispatchKeySet(DispatchKey::PrivateUse3),
                                 sy::ScalarType::Float, sy::MemoryFormat::ChannelsLast);
  EXPECT_THAT(nhwc.strides(), ElementsAre(24, 1, 8, 2));
  Tensor strided = sy::emptyStridedGeneric({2, 2}, {1, 2}, &allocator, sy::DispatchKeySet(DispatchKey::PrivateUse3),
                                           sy::ScalarType::Float);
  EXPECT_THAT(strided.strides(), ElementsAre(1, 2));
  EXPECT_TRUE(raisesError([&] { sy::emptyGeneric({-1}, &allocator, {}, sy::ScalarType::Float); }, ErrorKind::Value,
                          "empty_generic"));
}

// ---- DeviceGuard -----------------------------------------------------------------------------------

// A guard implementation over two devices, which records the current one.
struct TwoDeviceGuard final : sy::DeviceGuardImplInterface {
  mutable int current = 0;
  DeviceType type() const override { return DeviceType::PrivateUse3; }
  Device exchangeDevice(Device d) const override {
    Device old = getDevice();
    setDevice(d);
    return old;
  }
  Device getDevice() const override { return Device(DeviceType::PrivateUse3, static_cast<sy::DeviceIndex>(current)); }
  void setDevice(Device d) const override { current = d.index(); }
  void uncheckedSetDevice(Device d) const noexcept override { current = d.index(); }
  sy::Stream getStream(Device d) const noexcept override { return sy::Stream(sy::Stream::DEFAULT, d); }
  sy::Stream exchangeStream(sy::Stream s) const noexcept override { return s; }
  sy::DeviceIndex deviceCount() const noexcept override { return 2; }
};

TEST(DeviceGuard, MakesADeviceCurrentForItsScopeAndRestoresTheOriginal) {
  TwoDeviceGuard impl;
  {
    sy::DeviceGuard guard(Device(DeviceType::PrivateUse3, 1), &impl);
    EXPECT_EQ(impl.current, 1);
    EXPECT_EQ(guard.original_device(), Device(DeviceType::PrivateUse3, 0));
    guard.set_index(0);
    EXPECT_EQ(impl.current, 0);
    guard.set_device(Device(DeviceType::PrivateUse3, 1));
    EXPECT_EQ(guard.current_device(), Device(DeviceType::PrivateUse3, 1));
  }
  EXPECT_EQ(impl.current, 0);
  {
    sy::DeviceGuard no_index(Device(DeviceType::PrivateUse3), &impl);  // leaves the current device alone
    EXPECT_EQ(no_index.current_device(), Device(DeviceType::PrivateUse3, 0));
  }
  EXPECT_THAT(errorMessageOf([&] { impl.getDefaultStream(Device(DeviceType::PrivateUse3, 0)); }),
              HasSubstr("does not support default streams"));
}

TEST(DeviceGuard, TheCpuHasANoOpGuardAndAPrivateUseTypeNeedsOneRegistered) {
  sy::DeviceGuard cpu(sy::kCPU);
  EXPECT_EQ(cpu.current_device(), sy::kCPU);
  EXPECT_EQ(sy::getDeviceGuardImpl(DeviceType::CPU)->deviceCount(), 1);
  EXPECT_FALSE(sy::hasDeviceGuardImpl(DeviceType::PrivateUse2));
  EXPECT_EQ(errorMessageOf([] { sy::DeviceGuard guard(Device(DeviceType::PrivateUse2, 0)); }),
            "no device guard implementation is registered for device type 'privateuse2'; its backend registers one, "
            "C10_REGISTER_GUARD_IMPL(PrivateUse2, MyGuardImpl) (SY_REGISTER_DEVICE_GUARD_IMPL), before DeviceGuard is "
            "used on its devices");
  EXPECT_THAT(errorMessageOf([] { sy::DeviceGuard guard(Device(DeviceType::CUDA, 0)); }),
              HasSubstr("Switchyard has no backend for device type 'cuda'"));
}

// ---- Warnings --------------------------------------------------------------------------------------

struct CollectWarnings : sy::WarningHandler {
  std::vector<std::string> seen;
  void process(const sy::Warning& w) override { seen.push_back(w.msg()); }
};

void warnOnceHere() { SY_WARN_ONCE("once ", 1); }

TEST(Warnings, GoToTheThreadsHandlerAndOnceMeansOnce) {
  CollectWarnings collect;
  {
    sy::WarningHandlerGuard guard(&collect);
    SY_WARN("answer ", 42, " from ", Device(DeviceType::Accel, 1));
    warnOnceHere();
    warnOnceHere();
  }
  EXPECT_THAT(collect.seen, ElementsAre("answer 42 from accel:1", "once 1"));
  EXPECT_NE(sy::warningHandler(), &collect);
}

// ---- The operators a device backend implements -----------------------------------------------------

TEST(DeviceOperators, EmptyStridedOnTheCpuTakesTheStridesAsGiven) {
  Tensor t = sy::ops::empty_strided({2, 3}, {1, 2}, sy::ScalarType::Long);
  EXPECT_THAT(t.strides(), ElementsAre(1, 2));
  EXPECT_EQ(t.scalar_type(), sy::ScalarType::Long);
  EXPECT_EQ(t.storage()->nbytes(), 6 * sizeof(int64_t));
  EXPECT_EQ(errorMessageOf([] { sy::ops::empty_strided({2, 3}, {1}); }),
            "aten::empty_strided: size (2, 3) has 2 dimensions but stride (1,) has 1");
  EXPECT_TRUE(raisesError([] { sy::ops::empty_strided({2}, {-1}); }, ErrorKind::Value,
                          "aten::empty_strided: stride (-1,) has the negative stride -1 at dimension 0"));
}

TEST(DeviceOperators, ResizeKeepsTheElementsAndTakesAMemoryFormat) {
  Tensor t = iota({2, 2});
  sy::ops::resize_(t, {6});
  EXPECT_THAT(t.sizes(), ElementsAre(6));
  const std::vector<float> grown = valuesOf<float>(t);
  EXPECT_THAT(std::vector<float>(grown.begin(), grown.begin() + 4), ElementsAre(0, 1, 2, 3));
  t.resize_({1, 2, 2, 3}, sy::MemoryFormat::ChannelsLast);  // through the dispatcher: a memory format
  EXPECT_THAT(t.strides(), ElementsAre(12, 1, 6, 2));
  EXPECT_EQ(errorMessageOf([&] { t.resize_({2}, sy::MemoryFormat::Preserve); }),
            "aten::resize_: memory_format Preserve is not supported (use Contiguous or ChannelsLast)");
  EXPECT_THAT(t.sizes(), ElementsAre(1, 2, 2, 3));  // a refused resize changes nothing
}

TEST(DeviceOperators, CopyBetweenCpuTensorsUnderAPrivateUseKeyIsTheCpusCopy) {
  Tensor src = iota({3});
  Tensor dst = sy::zeros({3});
  sy::IncludeDispatchKeyGuard on_privateuse3(DispatchKey::PrivateUse3);
  sy::ops::copy_(dst, src);
  EXPECT_THAT(valuesOf<float>(dst), ElementsAre(0, 1, 2));
}

TEST(DeviceOperators, CopyFromHasNoCpuKernel) {
  EXPECT_THAT(errorMessageOf([] { sy::ops::_copy_from(sy::zeros({1}), sy::zeros({1})); }),
              HasSubstr("Could not run 'aten::_copy_from' with arguments from the 'CPU' backend"));
}

}  // namespace
