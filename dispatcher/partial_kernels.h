// Partial kernels: kernels written for some dtypes and dim orders of an operator's tensor
// arguments only (ExecuTorch's "kernel keys"), as kernel YAML declares them, and the registry that
// chooses among them.
//
// Libraries usually register through generated code (codegen/, cmake/SwitchyardCodegen.cmake); by hand:
//
//   auto& registry = sy::PartialKernelRegistry::singleton();
//   sy::KernelKey float_2d({{sy::ScalarType::Float, {0, 1}}, {sy::ScalarType::Float, {0, 1}}});
//   sy::RegistrationHandle h1 = registry.registerKernel(sy::parseOperatorName("custom::scale.out"), float_2d,
//                                                       &scale_out_float, "custom::native::scale_out_float");
//   sy::RegistrationHandle h2 = registry.registerKernel(sy::parseOperatorName("custom::scale.out"),
//                                                       sy::KernelKey::makeDefault(), &scale_out, "custom::native::scale_out");
//
// Two ways in:
//  - Program loading resolves each kernel call once: `registry.resolve(op, metas)` gives the exact
//    key's kernel, else the operator's default kernel, else an error listing the arguments'
//    metadata and the keys that exist.
//  - Eager calls: every operator with partial kernels has a kernel on DispatchKey::PartialKernels,
//    which CPU tensors carry. It calls the matching kernel, else the default, else moves on to the
//    next key as a fallthrough would (see Note [Partial kernels decline for one key check]).
//
// All kernels of one operator share one C++ signature, the operator's (as every kernel of an
// operator must); a second kernel for a key already registered is an error naming both sites.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <typeindex>
#include <vector>

#include "absl/status/statusor.h"
#include "switchyard/dispatcher/dispatcher.h"
#include "switchyard/dispatcher/kernel_key.h"

namespace sy {

// One registered kernel.
struct PartialKernel {
  OperatorName op;
  KernelKey key;
  KernelFunction kernel;    // boxed and unboxed entry points, for program runtimes
  const void* function;     // the unboxed C++ function, called directly by the eager selector
  std::string kernel_name;  // "custom::native::scale_out_float", for messages
  std::string site;         // "file:line" of the registration (the YAML line for generated code)
};

// Note [Partial kernels decline for one key check]
// The eager path must cost almost nothing when a library does not cover a call. Operators without
// partial kernels never see the key: PartialKernels has a fallthrough backend fallback, so their
// dispatch mask clears its bit (see Note [Fallthrough is free]). Operators with partial kernels get a
// selector kernel on the key, which reads each tensor argument's dtype and dim order into a 16-bit
// code (dtype in the low byte; the dim order as an id in the high byte: a contiguous rank-r tensor
// is id r+1 without computing anything, other orders are computed from the strides and looked up
// among the few this operator's keys mention), packs the codes into one 64-bit word (exactly, for
// up to four tensor arguments; hashed and then compared in full beyond that), and finds the kernel
// in a table with a multiplicative perfect hash chosen when the table was built: one multiply, one
// shift, one load and ONE comparison decide between the exact kernel and the miss. A miss calls the
// default kernel, or, when there is none, redispatches with PartialKernels removed: the next key
// (CPU's portable kernel) runs as it would have with a fallthrough. The table is immutable; a
// registration builds a new one and a new selector, and the dispatcher retires the old selector
// (see Note [Reclaiming retired kernels]).
class PartialKernelTable {
 public:
  static constexpr size_t kMaxTensorArgs = 16;

  PartialKernelTable(std::vector<std::shared_ptr<const PartialKernel>> kernels);

  // The code of one tensor argument (see the Note); 0 is never a key's code.
  uint16_t codeOf(const TensorImpl& impl) const {
    const uint16_t dtype = static_cast<uint16_t>(static_cast<uint8_t>(impl.dtype()) + 1);
    const int64_t rank = impl.dim();
    if (__builtin_expect(impl.is_contiguous() && rank < kFirstListedDimOrderId - 1, 1)) {
      return static_cast<uint16_t>(dtype | ((rank + 1) << 8));
    }
    return slowCodeOf(impl, dtype);
  }
  uint16_t codeOf(const TensorMeta& meta) const;

  // The exact kernel for `codes`, else the default kernel, else null.
  const PartialKernel* find(const uint16_t* codes, size_t count) const {
    const uint64_t packed = pack(codes, count);
    const Slot& slot = slots_[(packed * multiplier_) >> shift_];
    if (slot.packed == packed && (count <= 4 || sameCodes(slot, codes, count))) return slot.kernel;
    return default_kernel_;
  }

  const PartialKernel* defaultKernel() const { return default_kernel_; }
  const std::vector<std::shared_ptr<const PartialKernel>>& kernels() const { return kernels_; }

 private:
  static constexpr int kFirstListedDimOrderId = 64;
  struct Slot {
    uint64_t packed = ~uint64_t{0};
    const PartialKernel* kernel = nullptr;
    std::vector<uint16_t> codes;  // compared in full when there are more than four
  };

  static uint64_t pack(const uint16_t* codes, size_t count) {
    uint64_t packed = 0;
    if (count <= 4) {
      for (size_t i = 0; i < count; ++i) packed = (packed << 16) | codes[i];
      return packed;
    }
    packed = count;
    for (size_t i = 0; i < count; ++i) packed = (packed ^ codes[i]) * 0x9E3779B97F4A7C15ull;
    return packed;
  }
  static bool sameCodes(const Slot& slot, const uint16_t* codes, size_t count);
  uint16_t slowCodeOf(const TensorImpl& impl, uint16_t dtype) const;
  uint16_t dimOrderId(absl::Span<const uint8_t> order) const;
  std::vector<uint16_t> codesOf(const KernelKey& key) const;

  uint64_t multiplier_ = 1;
  int shift_ = 63;
  std::vector<Slot> slots_;
  const PartialKernel* default_kernel_ = nullptr;
  std::vector<DimOrder> listed_dim_orders_;  // id kFirstListedDimOrderId + i
  std::vector<std::shared_ptr<const PartialKernel>> kernels_;
};

namespace detail {

template <class T>
inline void appendPartialKernelCode(const PartialKernelTable& table, uint16_t* codes, size_t& count, const T& arg) {
  using D = std::decay_t<T>;
  if constexpr (std::is_same_v<D, Tensor>) {
    if (count < PartialKernelTable::kMaxTensorArgs) codes[count] = table.codeOf(*arg.unsafeGetTensorImpl());
    ++count;
  } else if constexpr (std::is_same_v<D, std::optional<Tensor>>) {
    if (arg.has_value()) appendPartialKernelCode(table, codes, count, *arg);
  }
}

// The kernel on DispatchKey::PartialKernels for an operator with signature Ret(Args...).
template <class FuncType>
class PartialKernelSelector;
template <class Ret, class... Args>
class PartialKernelSelector<Ret(Args...)> final : public OperatorKernel {
 public:
  PartialKernelSelector(std::shared_ptr<const PartialKernelTable> table, TypedOperatorHandle<Ret(Args...)> op)
      : table_(std::move(table)), op_(op) {}

  Ret operator()(DispatchKeySet ks, Args... args) {
    uint16_t codes[PartialKernelTable::kMaxTensorArgs];
    size_t count = 0;
    (appendPartialKernelCode(*table_, codes, count, args), ...);
    const PartialKernel* kernel = count <= PartialKernelTable::kMaxTensorArgs ? table_->find(codes, count)
                                                                              : table_->defaultKernel();
    if (kernel != nullptr) {
      return (*reinterpret_cast<Ret (*)(Args...)>(const_cast<void*>(kernel->function)))(std::forward<Args>(args)...);
    }
    return op_.redispatch(ks.remove(DispatchKey::PartialKernels), std::forward<Args>(args)...);
  }

 private:
  std::shared_ptr<const PartialKernelTable> table_;
  TypedOperatorHandle<Ret(Args...)> op_;
};

}  // namespace detail

class PartialKernelRegistry {
 public:
  static PartialKernelRegistry& singleton();

  // Registers `function` for `op` and `key`; the handle deregisters it. Raises when the key is
  // already registered for `op`, or when `function`'s signature differs from other kernels' of `op`.
  template <class FuncType>
  RegistrationHandle registerKernel(const OperatorName& op, KernelKey key, FuncType* function, std::string kernel_name,
                                    SourceLocation site = SourceLocation::current()) {
    static_assert(std::is_function_v<FuncType>, "registerKernel takes a pointer to a kernel function");
    PartialKernel kernel{op,
                         std::move(key),
                         KernelFunction::makeFromUnboxedRuntimeFunction(function),
                         reinterpret_cast<const void*>(function),
                         std::move(kernel_name),
                         site.str()};
    SelectorFactory factory = [](const OperatorName& name, std::shared_ptr<const PartialKernelTable> table) {
      auto handle = Dispatcher::singleton().staticTypedHandle<FuncType>(name.name, name.overload_name);
      return KernelFunction::makeFromUnboxedFunctor(
          std::make_shared<detail::PartialKernelSelector<FuncType>>(std::move(table), handle));
    };
    return registerKernelImpl(std::move(kernel), inferSignature<FuncType>(), factory);
  }

  // For program loading: the kernel for a call whose tensor arguments have `args` metadata, in
  // argument order (see Note [Kernel keys follow ExecuTorch]): the exact key's kernel, else the
  // default kernel. NotFound when `op` has no partial kernels; InvalidArgument, listing the
  // metadata and the registered keys, when it has some but none applies.
  absl::StatusOr<std::shared_ptr<const PartialKernel>> resolve(const OperatorName& op,
                                                               absl::Span<const TensorMeta> args) const;
  // The keys registered for `op` ("default" for the default kernel), in registration order.
  std::vector<KernelKey> keysFor(const OperatorName& op) const;
  // Every registered kernel, operator by operator, each operator's in registration order (for the
  // conformance harness, conformance/kernel_conformance.h).
  std::vector<std::shared_ptr<const PartialKernel>> kernels() const;

 private:
  using SelectorFactory = KernelFunction (*)(const OperatorName&, std::shared_ptr<const PartialKernelTable>);
  struct OperatorState;

  PartialKernelRegistry();
  RegistrationHandle registerKernelImpl(PartialKernel kernel, InferredSignature signature, SelectorFactory factory);
  void deregister(const OperatorName& op, const PartialKernel* kernel);
  // Rebuilds the operator's table and swaps in a new selector (mutex held).
  void publish(OperatorState& state);

  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<OperatorState>> operators_;
};

}  // namespace sy
