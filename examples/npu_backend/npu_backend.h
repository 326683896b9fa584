// The "npu" device backend of docs/tutorials/privateuse1_backend.md: a PrivateUse1 backend with
// memory of its own, native mm and relu kernels, every other operator through
// at::native::cpu_fallback, and autograd through a fallthrough on AutogradPrivateUse1. Linking
// the library registers it; these counters let a program see what ran where.
#pragma once

#include <cstdint>
#include <string>

namespace npu {

// Allocations of the npu's memory not yet freed.
int64_t live_allocations();
// Calls of the npu's own compute kernels (mm, relu).
int64_t native_kernel_calls();
// Calls that went through the CPU fallback, in total and for one operator ("aten::add.Tensor").
int64_t fallback_calls();
int64_t fallback_calls(const std::string& op);

}  // namespace npu
