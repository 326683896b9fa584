// Registrations of a kernel that takes a KernelContext (dispatcher/kernel_context.h): the kernel
// with its context bound, and the functional and in-place forms derived from an out kernel. The
// generator writes these for kernel YAML; hand-written registrations may use them too.
//
//   // Tensor& expm1_out(const Tensor& self, Tensor& out, const KernelContext& ctx);
//   static constexpr sy::KernelContext kOut{"aten::expm1.out"};
//   static constexpr sy::KernelContext kFunctional{"aten::expm1", sy::OutputForm::Functional};
//   static constexpr sy::KernelContext kInPlace{"aten::expm1_", sy::OutputForm::InPlace};
//   m.impl("aten::expm1.out", sy::withContext<&expm1_out, &kOut>());              // Tensor&(const Tensor&, Tensor&)
//   m.impl("aten::expm1", sy::functionalKernel<&expm1_out, &kFunctional, 1>());   // Tensor(const Tensor&)
//   m.impl("aten::expm1_", sy::inPlaceKernel<&expm1_out, &kInPlace>());           // Tensor&(Tensor&)
//
// Note [Functional and in-place forms call the out kernel]
// As PyTorch's structured kernels are, an operator's three forms are one implementation: the out
// kernel. The functional form calls it with undefined out tensors (a default-constructed Tensor
// each), which the kernel allocates with the result's dtype and shape; the in-place form calls it
// with `self` as its out tensor. The kernel tells the forms apart by its context's `form` (a
// functional call allocates, an in-place `self` must already have the result's shape and a dtype
// the result casts to) and names the operator the caller called from its context's `op`. The
// generator writes these registrations for an entry that says `functional:` and `inplace:`
// (codegen/derived_forms.h), so a new elementwise operator is one YAML entry and one kernel.
//
// Note [A list of outs is created by its own function]
// An out variant that writes a list and returns nothing (`*, Tensor(a!)[] out) -> ()`: split_copy,
// split_with_sizes_copy, unbind_copy) cannot let its functional form pass undefined outs, because
// only its inputs say how many there are (unbind's count is self's size at dim). Its entry names a
// second function (`functional_outs:`) taking the inputs and the context: it checks what the count
// depends on, as the kernel would, and returns that many fresh tensors of the result's dtype (their
// shape is the kernel's to set). The functional form (sy::functionalListKernel) calls it, then the
// out kernel on the list, and returns the list: still one kernel computing every form.
#pragma once

#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "switchyard/core/macros.h"
#include "switchyard/dispatcher/cpp_function.h"
#include "switchyard/dispatcher/function_traits.h"
#include "switchyard/dispatcher/kernel_context.h"
#include "switchyard/ivalue/tensor.h"

namespace sy {

namespace detail {

// TypeList<Ts...> split at N: Take<N> the first N types, Drop<N> the rest.
template <class List, class Indices>
struct TakeImpl;
template <class... Ts, size_t... I>
struct TakeImpl<TypeList<Ts...>, std::index_sequence<I...>> {
  using type = TypeList<std::tuple_element_t<I, std::tuple<Ts...>>...>;
};
template <size_t N, class List>
using Take = typename TakeImpl<List, std::make_index_sequence<N>>::type;

template <size_t N, class List, class Indices>
struct DropImpl;
template <size_t N, class... Ts, size_t... I>
struct DropImpl<N, TypeList<Ts...>, std::index_sequence<I...>> {
  using type = TypeList<std::tuple_element_t<N + I, std::tuple<Ts...>>...>;
};
template <size_t N, class List>
using Drop = typename DropImpl<N, List, std::make_index_sequence<List::size - N>>::type;

template <class List>
struct LastOf;
template <class... Ts>
struct LastOf<TypeList<Ts...>> {
  using type = std::tuple_element_t<sizeof...(Ts) - 1, std::tuple<Ts...>>;
};

// std::tuple<Tensor, ..., Tensor> of N.
template <class Indices>
struct TensorTupleImpl;
template <size_t... I>
struct TensorTupleImpl<std::index_sequence<I...>> {
  using type = std::tuple<std::enable_if_t<(I >= 0), Tensor>...>;
};
template <size_t N>
using TensorTuple = typename TensorTupleImpl<std::make_index_sequence<N>>::type;

// The parts of an out kernel `R(Inputs..., Tensor& outs..., const KernelContext&)` with `NumOuts` outs.
template <auto* kernel, size_t NumOuts>
struct OutKernelParts {
  using Traits = FunctionTraits<std::remove_pointer_t<decltype(kernel)>>;
  using Params = typename Traits::parameters;
  static_assert(Params::size >= NumOuts + 1 && std::is_same_v<typename LastOf<Params>::type, const KernelContext&>,
                "a kernel bound from kernel YAML takes `const sy::KernelContext&` as its last parameter "
                "(See Note [The kernel context is the last parameter] in dispatcher/kernel_context.h)");
  using WithoutContext = Take<Params::size - 1, Params>;
  using Inputs = Take<WithoutContext::size - NumOuts, WithoutContext>;
  using Return = typename Traits::return_type;
};

template <auto* kernel, const KernelContext* ctx, class Return, class Args>
struct OutForm;
// The forms' functions are inlined into whatever calls them (the dispatcher's trampoline, a boxed
// wrapper), so each costs the kernel call and the context's address, nothing more.
template <auto* kernel, const KernelContext* ctx, class Return, class... Args>
struct OutForm<kernel, ctx, Return, TypeList<Args...>> {
  SY_ALWAYS_INLINE static Return call(Args... args) { return (*kernel)(std::forward<Args>(args)..., *ctx); }
};

template <auto* kernel, const KernelContext* ctx, size_t NumOuts, class Inputs>
struct FunctionalForm;
template <auto* kernel, const KernelContext* ctx, size_t NumOuts, class... Inputs>
struct FunctionalForm<kernel, ctx, NumOuts, TypeList<Inputs...>> {
  using Result = std::conditional_t<NumOuts == 1, Tensor, TensorTuple<NumOuts>>;
  SY_ALWAYS_INLINE static Result call(Inputs... inputs) {
    if constexpr (NumOuts == 1) {
      Tensor out;  // the kernel allocates it; returned without a move
      (*kernel)(std::forward<Inputs>(inputs)..., out, *ctx);
      return out;
    } else {
      std::array<Tensor, NumOuts> outs;
      callWith(std::make_index_sequence<NumOuts>{}, outs, std::forward<Inputs>(inputs)...);
      return std::apply([](auto&... t) { return Result(std::move(t)...); }, outs);
    }
  }

 private:
  template <size_t... I>
  static void callWith(std::index_sequence<I...>, std::array<Tensor, NumOuts>& outs, Inputs... inputs) {
    (*kernel)(std::forward<Inputs>(inputs)..., std::get<I>(outs)..., *ctx);
  }
};

template <auto* kernel, const KernelContext* ctx, auto* outs_of, class Inputs>
struct FunctionalListForm;
template <auto* kernel, const KernelContext* ctx, auto* outs_of, class... Inputs>
struct FunctionalListForm<kernel, ctx, outs_of, TypeList<Inputs...>> {
  static std::vector<Tensor> call(Inputs... inputs) {
    std::vector<Tensor> outs = (*outs_of)(inputs..., *ctx);
    (*kernel)(inputs..., outs, *ctx);
    return outs;
  }
};

template <auto* kernel, const KernelContext* ctx, class Rest>
struct InPlaceForm;
template <auto* kernel, const KernelContext* ctx, class... Rest>
struct InPlaceForm<kernel, ctx, TypeList<Rest...>> {
  SY_ALWAYS_INLINE static Tensor& call(Tensor& self, Rest... rest) {
    return (*kernel)(self, std::forward<Rest>(rest)..., self, *ctx);
  }
};

template <class F, F* func>
CppFunction compileTimeFunction() {
  return CppFunction(CompileTimeFunctionPointer<F, func>());
}

}  // namespace detail

// The kernel itself, with `ctx` bound: a function of the operator's own signature (the kernel's
// without its trailing context), as a pointer (for sy::PartialKernelRegistry) or a registration.
template <auto* kernel, const KernelContext* ctx>
constexpr auto withContextPointer() {
  using Parts = detail::OutKernelParts<kernel, 0>;
  return &detail::OutForm<kernel, ctx, typename Parts::Return, typename Parts::WithoutContext>::call;
}
template <auto* kernel, const KernelContext* ctx>
CppFunction withContext() {
  constexpr auto fn = withContextPointer<kernel, ctx>();
  return detail::compileTimeFunction<std::remove_pointer_t<decltype(fn)>, fn>();
}

// The functional form: the out kernel's inputs, returning its `NumOuts` results (a Tensor, or a
// tuple of them), allocated by the kernel. See Note [Functional and in-place forms call the out kernel].
template <auto* kernel, const KernelContext* ctx, size_t NumOuts = 1>
constexpr auto functionalKernelPointer() {
  using Parts = detail::OutKernelParts<kernel, NumOuts>;
  return &detail::FunctionalForm<kernel, ctx, NumOuts, typename Parts::Inputs>::call;
}
template <auto* kernel, const KernelContext* ctx, size_t NumOuts = 1>
CppFunction functionalKernel() {
  constexpr auto fn = functionalKernelPointer<kernel, ctx, NumOuts>();
  return detail::compileTimeFunction<std::remove_pointer_t<decltype(fn)>, fn>();
}

// The functional form of an out kernel writing a list of outs: the kernel's inputs, returning the
// list `outs_of` (a function of the inputs and the context) creates and the kernel writes. See Note
// [A list of outs is created by its own function].
template <auto* kernel, const KernelContext* ctx, auto* outs_of>
constexpr auto functionalListKernelPointer() {
  using Parts = detail::OutKernelParts<kernel, 1>;
  return &detail::FunctionalListForm<kernel, ctx, outs_of, typename Parts::Inputs>::call;
}
template <auto* kernel, const KernelContext* ctx, auto* outs_of>
CppFunction functionalListKernel() {
  constexpr auto fn = functionalListKernelPointer<kernel, ctx, outs_of>();
  return detail::compileTimeFunction<std::remove_pointer_t<decltype(fn)>, fn>();
}

// The in-place form: `self` (the out kernel's first input) written and returned.
template <auto* kernel, const KernelContext* ctx>
constexpr auto inPlaceKernelPointer() {
  using Parts = detail::OutKernelParts<kernel, 1>;
  return &detail::InPlaceForm<kernel, ctx, detail::Drop<1, typename Parts::Inputs>>::call;
}
template <auto* kernel, const KernelContext* ctx>
CppFunction inPlaceKernel() {
  constexpr auto fn = inPlaceKernelPointer<kernel, ctx>();
  return detail::compileTimeFunction<std::remove_pointer_t<decltype(fn)>, fn>();
}

}  // namespace sy
