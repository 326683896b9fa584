// KernelContext: what a kernel learns from its registration. A kernel bound from kernel YAML takes
// it as its last parameter, and its generated registration passes it:
//
//   Tensor& expm1_out(const Tensor& self, Tensor& out, const sy::KernelContext& ctx) {
//     return floatingUnary<expm1_out_dtypes>(ctx, self, out, [](auto x) { return std::expm1(x); });
//   }
//
// `ctx.op` is the name of the operator the caller called ("aten::expm1_" when the in-place form runs
// the out kernel), so a kernel's errors name it and no kernel spells an operator's name; `ctx.form`
// says which form runs (See Note [Functional and in-place forms call the out kernel] in
// dispatcher/derived_kernels.h): for Functional, `out` arrives undefined and the kernel allocates it
// with the result's dtype and shape; for InPlace, `out` is `self`, whose shape the result must have.
//
// Note [The kernel context is the last parameter]
// The dispatcher calls an unboxed kernel with the operator's arguments first, in the registers the
// kernel takes them in (See Note [Unboxed calling convention] in dispatcher/kernel_function.h), so
// a kernel registered as a plain function is reached by one jump. A trailing context keeps that:
// the registration's trampoline loads the context's address into the next register and jumps,
// one instruction more than a plain function and one fewer than the register shuffle a leading
// context (ExecuTorch's place for it) would take. A direct call pays the same instruction, so the
// dispatcher's own cost over a direct call is unchanged.
#pragma once

#include <cstdint>

namespace sy {

enum class OutputForm : uint8_t {
  Out,         // name.out(..., *, Tensor(a!) out): out is the caller's tensor, resized to the result
  InPlace,     // name_(Tensor(a!) self, ...): out is self, which keeps its shape and dtype
  Functional,  // name(...) -> Tensor: out is undefined; the kernel allocates the result
};

struct KernelContext {
  const char* op;                      // "aten::add.out", "aten::add.Tensor", "aten::add_.Tensor"
  OutputForm form = OutputForm::Out;
};

}  // namespace sy
