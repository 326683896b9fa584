// A PrivateUse1 device backend written as PyTorch's out-of-tree backends are (its allocator, its
// name, a device guard, the allocation and copy kernels, and every other operator through
// at::native::cpu_fallback), and what using it does: factories and to() reach its kernels, every
// other operator runs on the CPU and comes back. Compiled against <switchyard/compat/torch.h> alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include <switchyard/compat/torch.h>

namespace {

// ---- The backend ---------------------------------------------------------------------------------

std::atomic<int> kit_live_allocations{0};
std::map<std::string, int> kit_calls;  // kernel or fallback operator -> calls

// Its memory is host memory, which only its own kernels touch.
struct KitAllocator final : c10::Allocator {
  c10::DataPtr allocate(size_t nbytes) override {
    void* data = c10::alloc_cpu(nbytes);
    ++kit_live_allocations;
    return {data, data, &ReportAndDelete, c10::Device(c10::DeviceType::PrivateUse1, 0)};
  }
  static void ReportAndDelete(void* ptr) {
    if (!ptr) return;
    --kit_live_allocations;
    c10::free_cpu(ptr);
  }
  c10::DeleterFnPtr raw_deleter() const override { return &ReportAndDelete; }
  void copy_data(void* dest, const void* src, std::size_t count) const final { default_copy_data(dest, src, count); }
};
KitAllocator kit_allocator;

// A CPU tensor over the same memory, for the kernels.
at::Tensor kitHostView(const at::Tensor& t) {
  if (t.is_cpu()) return t;
  return at::from_blob(t.data_ptr(), t.sizes(), t.strides(), at::TensorOptions(t.scalar_type()));
}

at::Tensor kit_empty_memory_format(c10::IntArrayRef size, std::optional<at::ScalarType> dtype,
                                   std::optional<at::Layout> layout, std::optional<at::Device> device,
                                   std::optional<bool> pin_memory, std::optional<at::MemoryFormat> memory_format) {
  ++kit_calls["empty.memory_format"];
  constexpr c10::DispatchKeySet private_use_ks(c10::DispatchKey::PrivateUse1);
  return at::detail::empty_generic(size, &kit_allocator, private_use_ks, c10::dtype_or_default(dtype), memory_format);
}

at::Tensor kit_empty_strided(c10::IntArrayRef size, c10::IntArrayRef stride, std::optional<at::ScalarType> dtype,
                             std::optional<at::Layout> layout, std::optional<at::Device> device,
                             std::optional<bool> pin_memory) {
  ++kit_calls["empty_strided"];
  constexpr c10::DispatchKeySet private_use_ks(c10::DispatchKey::PrivateUse1);
  return at::detail::empty_strided_generic(size, stride, &kit_allocator, private_use_ks, c10::dtype_or_default(dtype));
}

// Device to CPU, CPU to device, device to device; converting dtypes as copy_ does.
at::Tensor kit_copy_from(const at::Tensor& self, const at::Tensor& dst, bool non_blocking) {
  ++kit_calls["_copy_from"];
  TORCH_CHECK(self.is_cpu() || self.device().type() == c10::DeviceType::PrivateUse1, "kit: cannot copy from ", self.device());
  TORCH_CHECK(dst.is_cpu() || dst.device().type() == c10::DeviceType::PrivateUse1, "kit: cannot copy to ", dst.device());
  at::Tensor host_dst = kitHostView(dst);
  host_dst.copy_(kitHostView(self));
  return dst;
}

// Contiguous strides of `size`, keeping the elements; new memory from the allocator when it grows.
const at::Tensor& kit_resize_(const at::Tensor& self, at::IntArrayRef size, std::optional<at::MemoryFormat> memory_format) {
  ++kit_calls["resize_"];
  TORCH_CHECK(!memory_format.has_value() || *memory_format == at::MemoryFormat::Contiguous, "kit: contiguous resizes only");
  at::TensorImpl* impl = self.unsafeGetTensorImpl();
  int64_t numel = 1;
  for (int64_t s : size) numel *= s;
  const size_t needed = static_cast<size_t>(numel + self.storage_offset()) * self.element_size();
  if (needed > impl->storage()->nbytes()) {
    auto grown = c10::make_intrusive<c10::StorageImpl>(needed, &kit_allocator);
    std::memcpy(grown->data(), impl->storage()->data(), impl->storage()->nbytes());
    impl->set_storage(std::move(grown));
  }
  std::vector<int64_t> strides(size.size(), 1);
  for (size_t i = size.size(); i-- > 1;) strides[i - 1] = strides[i] * std::max<int64_t>(size[i], 1);
  impl->set_sizes_and_strides(size, strides, self.storage_offset());
  return self;
}

void kit_fallback(const c10::OperatorHandle& op, torch::jit::Stack* stack) {
  ++kit_calls[op.schema().name() + (op.schema().overload_name().empty() ? "" : "." + op.schema().overload_name())];
  at::native::cpu_fallback(op, stack);
}

}  // namespace

// Registered as a backend registers them, at load time.
REGISTER_ALLOCATOR(c10::DeviceType::PrivateUse1, &kit_allocator);
namespace at {
namespace detail {
C10_REGISTER_GUARD_IMPL(PrivateUse1, c10::impl::NoOpDeviceGuardImpl<DeviceType::PrivateUse1>);
}  // namespace detail
}  // namespace at
TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("empty.memory_format", &kit_empty_memory_format);
  m.impl("empty_strided", &kit_empty_strided);
  m.impl("_copy_from", &kit_copy_from);
  m.impl("resize_", &kit_resize_);
}
TORCH_LIBRARY_IMPL(_, PrivateUse1, m) { m.fallback(torch::CppFunction::makeFromBoxedFunction<&kit_fallback>()); }
TORCH_LIBRARY(kit, m) { m.def("alias(Tensor(a) self) -> Tensor(a)"); }
TORCH_LIBRARY_IMPL(kit, CPU, m) {
  m.impl("alias", [](const at::Tensor& self) { return self; });
}
static const bool kit_named = [] {
  c10::register_privateuse1_backend("kit");
  return true;
}();

namespace {

const c10::Device kKit(c10::DeviceType::PrivateUse1, 0);

at::Tensor floats(std::vector<float> values) { return sy::tensor<float>(values); }
std::vector<float> valuesOnCpu(const at::Tensor& t) {
  at::Tensor cpu = t.to(at::kCPU);
  return std::vector<float>(cpu.data_ptr<float>(), cpu.data_ptr<float>() + cpu.numel());
}
template <class Sig>
c10::TypedOperatorHandle<Sig> aten(const char* name, const char* overload) {
  return c10::Dispatcher::singleton().findSchemaOrThrow(name, overload).typed<Sig>();
}
using Binary = at::Tensor(const at::Tensor&, const at::Tensor&);

TEST(DeviceBackend, TheAllocatorIsRegisteredAndTensorsLiveInItsMemory) {
  EXPECT_EQ(c10::GetAllocator(c10::DeviceType::PrivateUse1), &kit_allocator);
  EXPECT_EQ(c10::GetAllocator(c10::DeviceType::CPU), c10::GetCPUAllocator());
  const int before = kit_live_allocations;
  {
    at::Tensor t = at::empty({2, 3}, at::TensorOptions(at::kFloat).device(kKit));
    EXPECT_EQ(t.device(), kKit);
    EXPECT_TRUE(t.key_set().has(c10::DispatchKey::PrivateUse1));
    EXPECT_EQ(kit_live_allocations, before + 1);
    at::Tensor s = at::empty_strided({2, 2}, {1, 2}, at::TensorOptions().device(kKit));
    EXPECT_EQ(s.stride(1), 2);
    EXPECT_EQ(kit_calls["empty_strided"], 1);
  }
  EXPECT_EQ(kit_live_allocations, before);  // freed with the tensors
}

TEST(DeviceBackend, TheBackendsNamePrintsAndParses) {
  EXPECT_TRUE(c10::is_privateuse1_backend_registered());
  EXPECT_EQ(c10::get_privateuse1_backend(), "kit");
  EXPECT_EQ(c10::Device("kit:0"), kKit);
  EXPECT_EQ(c10::Device("privateuseone:0"), kKit);
  EXPECT_EQ(kKit.str(), "kit:0");
  EXPECT_EQ(at::empty({1}, at::TensorOptions().device(kKit)).device().str(), "kit:0");
  EXPECT_EQ(sy::str(at::ones({2}).to(kKit)), "tensor(<on kit:0>, size=(2,), dtype=Float)");
  c10::register_privateuse1_backend("kit");  // the same name again is fine
  try {
    c10::register_privateuse1_backend("other");
    ADD_FAILURE() << "a second name was accepted";
  } catch (const c10::Error& e) {
    EXPECT_EQ(std::string(e.what()), "the backend on privateuse1 is already named 'kit'; it cannot be renamed 'other'");
  }
}

TEST(DeviceBackend, ADeviceGuardWorksOnItsDevices) {
  c10::DeviceGuard guard(kKit);
  EXPECT_EQ(guard.current_device(), kKit);                                           // what the guard set
  EXPECT_EQ(guard.original_device(), c10::Device(c10::DeviceType::PrivateUse1, -1));  // a no-op guard's
  EXPECT_EQ(c10::impl::getDeviceGuardImpl(c10::DeviceType::PrivateUse1)->deviceCount(), 1);
  EXPECT_TRUE(c10::impl::hasDeviceGuardImpl(c10::DeviceType::PrivateUse1));
}

TEST(DeviceBackend, ToMovesThroughItsCopyFromBothWays) {
  kit_calls.clear();
  at::Tensor on_kit = floats({1, 2, 3}).to(kKit);
  EXPECT_EQ(on_kit.device(), kKit);
  EXPECT_EQ(kit_calls["empty.memory_format"], 1);
  EXPECT_EQ(kit_calls["_copy_from"], 1);
  at::Tensor back = on_kit.to(at::kCPU);
  EXPECT_TRUE(back.is_cpu());
  EXPECT_EQ(kit_calls["_copy_from"], 2);
  EXPECT_EQ(std::vector<float>(back.data_ptr<float>(), back.data_ptr<float>() + 3), (std::vector<float>{1, 2, 3}));
  EXPECT_TRUE(on_kit.to(kKit).is_same(on_kit));  // already there
}

TEST(DeviceBackend, OperatorsWithoutKernelsRunOnTheCpuAndComeBack) {
  kit_calls.clear();
  at::Tensor a = floats({1, 2, 3}).to(kKit);
  at::Tensor b = floats({10, 20, 30}).to(kKit);
  at::Tensor sum = aten<at::Tensor(const at::Tensor&, const at::Tensor&, const at::Scalar&)>("aten::add", "Tensor")
                       .call(a, b, 1);
  EXPECT_EQ(sum.device(), kKit);
  EXPECT_EQ(valuesOnCpu(sum), (std::vector<float>{11, 22, 33}));
  EXPECT_EQ(kit_calls["aten::add.Tensor"], 1);
  // In place: the caller's own tensor changes, and is what comes back.
  at::Tensor& same = aten<at::Tensor&(at::Tensor&, const at::Tensor&)>("aten::mul_", "Tensor").call(a, b);
  EXPECT_TRUE(same.is_same(a));
  EXPECT_EQ(valuesOnCpu(a), (std::vector<float>{10, 40, 90}));
}

TEST(DeviceBackend, FactoriesOnTheDeviceBuildOnTheCpuAndMoveThere) {
  kit_calls.clear();
  at::Tensor z = at::zeros({2, 2}, at::TensorOptions().device(kKit));
  EXPECT_EQ(z.device(), kKit);
  EXPECT_EQ(valuesOnCpu(z), (std::vector<float>(4, 0)));
  EXPECT_EQ(kit_calls["aten::zeros"], 1);
  EXPECT_GE(kit_calls["empty.memory_format"], 1);
}

TEST(DeviceBackend, AnOutArgumentOfTheWrongSizeIsResizedByTheBackend) {
  kit_calls.clear();
  at::Tensor out = at::empty({1}, at::TensorOptions().device(kKit));
  at::Tensor a = floats({1, 2, 3, 4}).to(kKit);
  aten<at::Tensor&(const at::Tensor&, const at::Tensor&, const at::Scalar&, at::Tensor&)>("aten::add", "out")
      .call(a, a, 1, out);
  EXPECT_EQ(kit_calls["resize_"], 1);
  EXPECT_EQ(out.numel(), 4);
  EXPECT_EQ(valuesOnCpu(out), (std::vector<float>{2, 4, 6, 8}));
}

struct KitWarnings : sy::WarningHandler {
  std::vector<std::string> seen;
  void process(const sy::Warning& w) override { seen.push_back(w.msg()); }
};

TEST(DeviceBackend, AViewOperatorRunsOnCopiesWithAWarningOrIsRefused) {
  auto alias = c10::Dispatcher::singleton().findSchemaOrThrow("kit::alias", "");
  at::Tensor x = floats({5}).to(kKit);
  KitWarnings warnings;
  {
    sy::WarningHandlerGuard guard(&warnings);
    at::Tensor copy = alias.typed<at::Tensor(const at::Tensor&)>().call(x);
    EXPECT_EQ(copy.device(), kKit);
    EXPECT_FALSE(copy.is_same(x));
  }
  ASSERT_EQ(warnings.seen.size(), 1u);
  EXPECT_NE(warnings.seen[0].find("The operator kit::alias is a view operator"), std::string::npos);
  torch::jit::Stack stack;
  torch::jit::push(stack, x);
  try {
    at::native::cpu_fallback(alias, &stack, /*error_on_views=*/true);
    ADD_FAILURE() << "a view operator ran";
  } catch (const c10::Error& e) {
    EXPECT_NE(std::string(e.what()).find("view operators cannot fall back to the CPU"), std::string::npos);
  }
}

}  // namespace
