// One MLP forward and backward on the npu (npu_backend.cpp), checked against the same on the CPU:
// the loss and every gradient agree, the npu's own mm and relu kernels ran, the rest went through
// the CPU fallback, and the npu's memory is all freed at the end. Exits 1 on any difference.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <switchyard/compat/torch.h>

#include "npu_backend.h"

namespace {

int g_failures = 0;

void check(bool ok, const std::string& what) {
  if (!ok) {
    ++g_failures;
    std::fprintf(stderr, "FAILED: %s\n", what.c_str());
  }
}

// A CPU Float tensor of `sizes` with deterministic values in [-0.5, 0.5].
at::Tensor values(std::vector<int64_t> sizes, int seed) {
  at::Tensor t = at::empty(sizes, at::device(at::kCPU).dtype(at::kFloat));
  float* data = t.data_ptr<float>();
  for (int64_t i = 0; i < t.numel(); ++i) data[i] = static_cast<float>((i * 7 + seed * 3) % 11 - 5) / 10.0f;
  return t;
}

// Whether an npu tensor holds the CPU tensor's values (to float rounding).
bool same_values(const at::Tensor& on_npu, const at::Tensor& on_cpu) {
  at::Tensor back = on_npu.to(at::kCPU);
  if (back.sizes() != on_cpu.sizes()) return false;
  const float* a = back.const_data_ptr<float>();
  const float* b = on_cpu.const_data_ptr<float>();
  for (int64_t i = 0; i < back.numel(); ++i) {
    if (std::fabs(a[i] - b[i]) > 1e-5f + 1e-5f * std::fabs(b[i])) return false;
  }
  return true;
}

struct Mlp {
  at::Tensor w1, b1, w2, b2;
};

// A copy of the parameters on `device`, each a leaf that requires grad.
Mlp parameters_on(const Mlp& p, c10::Device device) {
  Mlp copy{p.w1.detach().to(device), p.b1.detach().to(device), p.w2.detach().to(device), p.b2.detach().to(device)};
  for (at::Tensor* t : {&copy.w1, &copy.b1, &copy.w2, &copy.b2}) t->requires_grad_();
  return copy;
}

// mean((relu(x @ w1 + b1) @ w2 + b2 - target)^2)
at::Tensor loss_of(const Mlp& p, const at::Tensor& x, const at::Tensor& target) {
  at::Tensor hidden = x.mm(p.w1).add(p.b1).relu();
  at::Tensor y = hidden.mm(p.w2).add(p.b2);
  at::Tensor diff = y.sub(target);
  return diff.mul(diff).mean();
}

}  // namespace

int main() {
  const c10::Device npu("npu:0");
  check(npu.is_privateuseone(), "\"npu:0\" parses as the PrivateUse1 device");
  const int64_t allocations_before = npu::live_allocations();
  {
    const at::Tensor x = values({6, 3}, 1);
    const at::Tensor target = values({6, 2}, 2);
    const Mlp initial{values({3, 4}, 3), values({4}, 4), values({4, 2}, 5), values({2}, 6)};

    // The reference, on the CPU.
    Mlp cpu = parameters_on(initial, c10::Device(at::kCPU));
    at::Tensor cpu_loss = loss_of(cpu, x, target);
    cpu_loss.backward();

    // The same on the npu.
    Mlp dev = parameters_on(initial, npu);
    check(dev.w1.device() == npu && dev.w1.is_privateuseone(), "the parameters are on the npu");
    check(npu::live_allocations() > allocations_before, "npu tensors live in the npu's memory");
    at::Tensor npu_loss = loss_of(dev, x.to(npu), target.to(npu));
    check(npu_loss.device().str() == "npu:0", "the loss is on npu:0, got " + npu_loss.device().str());
    const int64_t forward_native = npu::native_kernel_calls();
    check(forward_native >= 3, "the forward ran the npu's mm twice and relu once");
    npu_loss.backward();
    check(npu::native_kernel_calls() > forward_native, "the backward ran the npu's mm");

    check(same_values(npu_loss, cpu_loss), "the npu's loss is the CPU's");
    check(same_values(dev.w1.grad(), cpu.w1.grad()), "w1's gradient is the CPU's");
    check(same_values(dev.b1.grad(), cpu.b1.grad()), "b1's gradient is the CPU's");
    check(same_values(dev.w2.grad(), cpu.w2.grad()), "w2's gradient is the CPU's");
    check(same_values(dev.b2.grad(), cpu.b2.grad()), "b2's gradient is the CPU's");
    check(dev.w1.grad().device() == npu, "gradients stay on the npu");
    check(npu::fallback_calls("aten::add.Tensor") >= 2, "add ran on the CPU through the fallback");
    std::printf("npu MLP: loss %.6f (CPU %.6f); %lld npu kernel calls, %lld CPU fallback calls\n",
                npu_loss.to(at::kCPU).item<float>(), cpu_loss.item<float>(),
                static_cast<long long>(npu::native_kernel_calls()), static_cast<long long>(npu::fallback_calls()));
  }
  check(npu::live_allocations() == allocations_before, "every npu allocation is freed with its tensors");
  if (g_failures != 0) return 1;
  std::printf("npu MLP: forward and backward match the CPU\n");
  return 0;
}
