// The "npu" backend (docs/tutorials/privateuse1_backend.md walks through it): PyTorch backend code,
// written against <switchyard/compat/torch.h> in PyTorch's spellings only.
#include "npu_backend.h"

#include <atomic>
#include <map>
#include <mutex>
#include <string>

#include <switchyard/compat/torch.h>

namespace npu {
namespace {

std::atomic<int64_t> g_live_allocations{0};
std::atomic<int64_t> g_native_calls{0};
std::mutex g_fallback_mutex;
std::map<std::string, int64_t> g_fallback_calls;

// ---- 1. Memory: the npu's allocator ---------------------------------------------------------------
// A real device would call its driver here; the npu's memory is host memory that only its own
// kernels and its copy kernel touch.
void npu_free(void* data) {
  if (data == nullptr) return;
  --g_live_allocations;
  c10::free_cpu(data);
}

struct NpuAllocator final : c10::Allocator {
  c10::DataPtr allocate(size_t nbytes) override {
    void* data = c10::alloc_cpu(nbytes);
    ++g_live_allocations;
    // data, context (what the deleter gets), deleter, and the device the memory is on.
    return {data, data, &npu_free, c10::Device(c10::DeviceType::PrivateUse1, 0)};
  }
  c10::DeleterFnPtr raw_deleter() const override { return &npu_free; }
  void copy_data(void* dest, const void* src, std::size_t count) const override {
    default_copy_data(dest, src, count);
  }
};
NpuAllocator g_allocator;

// ---- 2. Device guard: which npu is current (there is one) -----------------------------------------
struct NpuGuardImpl final : c10::impl::DeviceGuardImplInterface {
  static constexpr c10::DeviceType kType = c10::DeviceType::PrivateUse1;
  c10::DeviceType type() const override { return kType; }
  c10::Device exchangeDevice(c10::Device d) const override {
    TORCH_CHECK(d.index() <= 0, "npu: there is one device, npu:0; asked for ", d);
    return c10::Device(kType, 0);
  }
  c10::Device getDevice() const override { return c10::Device(kType, 0); }
  void setDevice(c10::Device d) const override { exchangeDevice(d); }
  void uncheckedSetDevice(c10::Device) const noexcept override {}
  c10::Stream getStream(c10::Device) const noexcept override {
    return c10::Stream(c10::Stream::DEFAULT, c10::Device(kType, 0));
  }
  c10::Stream exchangeStream(c10::Stream) const noexcept override {
    return c10::Stream(c10::Stream::DEFAULT, c10::Device(kType, 0));
  }
  c10::DeviceIndex deviceCount() const noexcept override { return 1; }
};

// ---- 3. The kernels every device backend needs: allocation and copies ----------------------------
at::Tensor npu_empty_memory_format(c10::IntArrayRef size, std::optional<at::ScalarType> dtype,
                                   std::optional<at::Layout> layout, std::optional<at::Device> device,
                                   std::optional<bool> pin_memory, std::optional<at::MemoryFormat> memory_format) {
  constexpr c10::DispatchKeySet npu_keys(c10::DispatchKey::PrivateUse1);
  return at::detail::empty_generic(size, &g_allocator, npu_keys, c10::dtype_or_default(dtype), memory_format);
}

at::Tensor npu_empty_strided(c10::IntArrayRef size, c10::IntArrayRef stride, std::optional<at::ScalarType> dtype,
                             std::optional<at::Layout> layout, std::optional<at::Device> device,
                             std::optional<bool> pin_memory) {
  constexpr c10::DispatchKeySet npu_keys(c10::DispatchKey::PrivateUse1);
  return at::detail::empty_strided_generic(size, stride, &g_allocator, npu_keys, c10::dtype_or_default(dtype));
}

// A CPU tensor over an npu tensor's memory (which is host memory), for the kernels below.
at::Tensor host_view(const at::Tensor& t) {
  if (t.is_cpu()) return t;
  return at::from_blob(t.data_ptr(), t.sizes(), t.strides(), t.options().device(at::kCPU));
}

// npu to CPU, CPU to npu and npu to npu: what copy_ and to() call for a copy involving the npu.
at::Tensor npu_copy_from(const at::Tensor& self, const at::Tensor& dst, bool non_blocking) {
  TORCH_CHECK(self.is_cpu() || self.is_privateuseone(), "npu: cannot copy from ", self.device());
  TORCH_CHECK(dst.is_cpu() || dst.is_privateuseone(), "npu: cannot copy to ", dst.device());
  host_view(dst).copy_(host_view(self));
  return dst;
}

// ---- 4. The npu's own compute kernels ----------------------------------------------------------------
at::Tensor npu_mm(const at::Tensor& self, const at::Tensor& mat2) {
  TORCH_CHECK(self.dim() == 2 && mat2.dim() == 2, "npu mm: expected matrices, got ", self.dim(), "-D and ",
              mat2.dim(), "-D tensors");
  TORCH_CHECK(self.size(1) == mat2.size(0), "npu mm: cannot multiply ", self.size(0), "x", self.size(1), " and ",
              mat2.size(0), "x", mat2.size(1), " matrices");
  TORCH_CHECK(self.scalar_type() == at::kFloat && mat2.scalar_type() == at::kFloat, "npu mm: Float only, got ",
              c10::toString(self.scalar_type()), " and ", c10::toString(mat2.scalar_type()));
  ++g_native_calls;
  const int64_t n = self.size(0), k = self.size(1), m = mat2.size(1);
  at::Tensor result = at::empty({n, m}, self.options());
  const float* a = self.const_data_ptr<float>();
  const float* b = mat2.const_data_ptr<float>();
  float* out = result.data_ptr<float>();
  // Strided reads: autograd passes transposed views.
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < m; ++j) {
      float acc = 0;
      for (int64_t p = 0; p < k; ++p) acc += a[i * self.stride(0) + p * self.stride(1)] * b[p * mat2.stride(0) + j * mat2.stride(1)];
      out[i * m + j] = acc;
    }
  }
  return result;
}

at::Tensor npu_relu(const at::Tensor& self) {
  TORCH_CHECK(self.scalar_type() == at::kFloat, "npu relu: Float only, got ", c10::toString(self.scalar_type()));
  ++g_native_calls;
  at::Tensor input = self.contiguous();
  at::Tensor result = at::empty_like(input);
  const float* in = input.const_data_ptr<float>();
  float* out = result.data_ptr<float>();
  for (int64_t i = 0; i < input.numel(); ++i) out[i] = in[i] > 0 ? in[i] : 0;
  return result;
}

// ---- 5. Everything else: on the CPU, through at::native::cpu_fallback ---------------------------------
void npu_cpu_fallback(const c10::OperatorHandle& op, torch::jit::Stack* stack) {
  {
    std::lock_guard<std::mutex> lock(g_fallback_mutex);
    const std::string& overload = op.schema().overload_name();
    ++g_fallback_calls[op.schema().name() + (overload.empty() ? "" : "." + overload)];
  }
  at::native::cpu_fallback(op, stack);
}

}  // namespace

int64_t live_allocations() { return g_live_allocations; }
int64_t native_kernel_calls() { return g_native_calls; }
int64_t fallback_calls() {
  std::lock_guard<std::mutex> lock(g_fallback_mutex);
  int64_t total = 0;
  for (const auto& entry : g_fallback_calls) total += entry.second;
  return total;
}
int64_t fallback_calls(const std::string& op) {
  std::lock_guard<std::mutex> lock(g_fallback_mutex);
  auto it = g_fallback_calls.find(op);
  return it == g_fallback_calls.end() ? 0 : it->second;
}

}  // namespace npu

// ---- 6. Registration, when the library loads ------------------------------------------------------------
using npu::NpuGuardImpl;
REGISTER_ALLOCATOR(c10::DeviceType::PrivateUse1, &npu::g_allocator);
C10_REGISTER_GUARD_IMPL(PrivateUse1, NpuGuardImpl);

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("empty.memory_format", TORCH_FN(npu::npu_empty_memory_format));
  m.impl("empty_strided", TORCH_FN(npu::npu_empty_strided));
  m.impl("_copy_from", TORCH_FN(npu::npu_copy_from));
  m.impl("mm", TORCH_FN(npu::npu_mm));
  m.impl("relu", TORCH_FN(npu::npu_relu));
}
TORCH_LIBRARY_IMPL(_, PrivateUse1, m) { m.fallback(torch::CppFunction::makeFromBoxedFunction<&npu::npu_cpu_fallback>()); }
// Autograd: operators with a backward formula record themselves; nothing else to do on the npu.
TORCH_LIBRARY_IMPL(_, AutogradPrivateUse1, m) { m.fallback(torch::CppFunction::makeFallthrough()); }

// Tensors on the npu print as npu:0, and "npu:0" parses.
[[maybe_unused]] static const bool npu_named = [] {
  c10::register_privateuse1_backend("npu");
  return true;
}();
