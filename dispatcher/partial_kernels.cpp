#include "switchyard/dispatcher/partial_kernels.h"

#include <algorithm>

#include "absl/status/status.h"
#include "switchyard/dispatcher/library.h"

// Operators without partial kernels skip the key for free.
// See Note [Partial kernels decline for one key check].
SY_LIBRARY_IMPL(_, PartialKernels, m) { m.fallback(sy::CppFunction::makeFallthrough()); }

namespace sy {

// ---- PartialKernelTable ------------------------------------------------------------------------

PartialKernelTable::PartialKernelTable(std::vector<std::shared_ptr<const PartialKernel>> kernels)
    : kernels_(std::move(kernels)) {
  // Dim orders the keys mention that are not the identity get ids of their own.
  for (const auto& k : kernels_) {
    if (k->key.isDefault()) {
      default_kernel_ = k.get();
      continue;
    }
    for (const TensorMeta& meta : k->key.tensorArgs()) {
      const bool implicit = isIdentityDimOrder(meta.dim_order) && meta.dim_order.size() < kFirstListedDimOrderId - 1;
      if (!implicit && std::find(listed_dim_orders_.begin(), listed_dim_orders_.end(), meta.dim_order) ==
                           listed_dim_orders_.end()) {
        SY_CHECK(listed_dim_orders_.size() < 255 - kFirstListedDimOrderId, "operator ", k->op.toString(),
                 " has partial kernels for more than ", 255 - kFirstListedDimOrderId, " distinct dim orders");
        listed_dim_orders_.push_back(meta.dim_order);
      }
    }
  }
  std::vector<Slot> keyed;
  for (const auto& k : kernels_) {
    if (k->key.isDefault()) continue;
    Slot slot;
    slot.codes = codesOf(k->key);
    slot.packed = pack(slot.codes.data(), slot.codes.size());
    slot.kernel = k.get();
    keyed.push_back(std::move(slot));
  }
  // The smallest power-of-two table (at least twice the keys) and an odd multiplier under which
  // every key lands in its own slot: lookups then compare one key.
  uint64_t seed = 0x9E3779B97F4A7C15ull;
  for (int bits = 1;; ++bits) {
    const size_t size = size_t{1} << bits;
    if (size < 2 * keyed.size()) continue;
    for (int attempt = 0; attempt < 256; ++attempt) {
      seed = seed * 6364136223846793005ull + 1442695040888963407ull;
      const uint64_t multiplier = seed | 1;
      std::vector<Slot> slots(size);
      bool collision = false;
      for (const Slot& s : keyed) {
        Slot& target = slots[(s.packed * multiplier) >> (64 - bits)];
        if (target.kernel != nullptr) {
          collision = true;
          break;
        }
        target = s;
      }
      if (!collision) {
        multiplier_ = multiplier;
        shift_ = 64 - bits;
        slots_ = std::move(slots);
        return;
      }
    }
  }
}

bool PartialKernelTable::sameCodes(const Slot& slot, const uint16_t* codes, size_t count) {
  return slot.codes.size() == count && std::equal(slot.codes.begin(), slot.codes.end(), codes);
}

uint16_t PartialKernelTable::dimOrderId(absl::Span<const uint8_t> order) const {
  if (isIdentityDimOrder(order) && order.size() < kFirstListedDimOrderId - 1) return static_cast<uint16_t>(order.size() + 1);
  for (size_t i = 0; i < listed_dim_orders_.size(); ++i) {
    if (absl::Span<const uint8_t>(listed_dim_orders_[i]) == order) return static_cast<uint16_t>(kFirstListedDimOrderId + i);
  }
  return 0;  // no key mentions it: the code matches nothing
}

uint16_t PartialKernelTable::slowCodeOf(const TensorImpl& impl, uint16_t dtype) const {
  if (impl.dim() > 255) return 0;
  return static_cast<uint16_t>(dtype | (dimOrderId(dimOrderOf(impl)) << 8));
}

uint16_t PartialKernelTable::codeOf(const TensorMeta& meta) const {
  return static_cast<uint16_t>((static_cast<uint8_t>(meta.dtype) + 1) | (dimOrderId(meta.dim_order) << 8));
}

std::vector<uint16_t> PartialKernelTable::codesOf(const KernelKey& key) const {
  std::vector<uint16_t> codes;
  for (const TensorMeta& meta : key.tensorArgs()) codes.push_back(codeOf(meta));
  return codes;
}

// ---- PartialKernelRegistry ---------------------------------------------------------------------

struct PartialKernelRegistry::OperatorState {
  OperatorName op;
  InferredSignature signature;
  std::string signature_site;
  SelectorFactory factory = nullptr;
  std::vector<std::shared_ptr<const PartialKernel>> kernels;  // registration order
  std::shared_ptr<const PartialKernelTable> table;
  RegistrationHandle selector;  // the kernel on DispatchKey::PartialKernels
};

PartialKernelRegistry& PartialKernelRegistry::singleton() {
  // Never destroyed: generated registrations in other libraries may deregister during exit, after
  // a function-local static would be gone.
  static PartialKernelRegistry* registry = new PartialKernelRegistry();
  return *registry;
}

PartialKernelRegistry::PartialKernelRegistry() = default;

RegistrationHandle PartialKernelRegistry::registerKernelImpl(PartialKernel kernel, InferredSignature signature,
                                                             SelectorFactory factory) {
  std::lock_guard<std::mutex> lock(mutex_);
  OperatorState* state = nullptr;
  for (auto& s : operators_) {
    if (s->op == kernel.op) state = s.get();
  }
  if (state != nullptr && !state->kernels.empty()) {
    SY_CHECK(state->signature.cpp_signature == signature.cpp_signature, "partial kernel ", kernel.kernel_name, " for ",
             kernel.op.toString(), " at ", kernel.site, " has C++ signature ", signature.cpp_signature_name,
             " but the kernels registered before it (first at ", state->signature_site, ") have ",
             state->signature.cpp_signature_name);
    for (const auto& existing : state->kernels) {
      SY_CHECK(existing->key != kernel.key, "duplicate partial kernel for ", kernel.op.toString(), " with key ",
               kernel.key.toString(), ": ", kernel.kernel_name, " at ", kernel.site, ", and ", existing->kernel_name,
               " registered at ", existing->site);
    }
  }
  if (state == nullptr) {
    operators_.push_back(std::make_unique<OperatorState>());
    state = operators_.back().get();
    state->op = kernel.op;
  }
  if (state->kernels.empty()) {
    state->signature = std::move(signature);
    state->signature_site = kernel.site;
    state->factory = factory;
  }
  auto shared = std::make_shared<const PartialKernel>(std::move(kernel));
  state->kernels.push_back(shared);
  try {
    publish(*state);
  } catch (...) {
    state->kernels.pop_back();
    throw;
  }
  OperatorName op = state->op;
  return RegistrationHandle([this, op, raw = shared.get()] { deregister(op, raw); });
}

void PartialKernelRegistry::deregister(const OperatorName& op, const PartialKernel* kernel) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& s : operators_) {
    if (s->op != op) continue;
    auto it = std::find_if(s->kernels.begin(), s->kernels.end(), [&](const auto& k) { return k.get() == kernel; });
    if (it == s->kernels.end()) return;
    s->kernels.erase(it);
    publish(*s);
    return;
  }
}

void PartialKernelRegistry::publish(OperatorState& state) {
  if (state.kernels.empty()) {
    state.table.reset();
    state.selector.reset();
    return;
  }
  auto table = std::make_shared<const PartialKernelTable>(state.kernels);
  KernelFunction selector = state.factory(state.op, table);
  // The new selector goes on top of the old one before the old one leaves, so calls always find one.
  RegistrationHandle handle = Dispatcher::singleton().registerImpl(
      state.op, DispatchKey::PartialKernels, std::move(selector), state.signature, SourceLocation::current());
  state.selector = std::move(handle);
  state.table = std::move(table);
}

absl::StatusOr<std::shared_ptr<const PartialKernel>> PartialKernelRegistry::resolve(
    const OperatorName& op, absl::Span<const TensorMeta> args) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const OperatorState* state = nullptr;
  for (const auto& s : operators_) {
    if (s->op == op && s->table) state = s.get();
  }
  if (state == nullptr) return absl::NotFoundError(str("no partial kernels are registered for ", op.toString()));
  std::vector<uint16_t> codes;
  for (const TensorMeta& meta : args) codes.push_back(state->table->codeOf(meta));
  const PartialKernel* found = codes.size() <= PartialKernelTable::kMaxTensorArgs
                                   ? state->table->find(codes.data(), codes.size())
                                   : state->table->defaultKernel();
  if (found != nullptr) {
    for (const auto& k : state->kernels) {
      if (k.get() == found) return k;
    }
  }
  std::string message = str("no kernel of ", op.toString(), " applies to its tensor arguments (",
                            KernelKey(std::vector<TensorMeta>(args.begin(), args.end())).toString(), "):");
  for (size_t i = 0; i < args.size(); ++i) message += str("\n  tensor argument ", i, ": ", args[i].describe());
  message += "\nthe registered keys, none of them default:";
  for (const auto& k : state->kernels) {
    message += str("\n  ", k->key.toString(), " -> ", k->kernel_name, " (registered at ", k->site, ")");
  }
  message += "\nregister a kernel with `arg_meta: null` to cover every other case";
  return absl::InvalidArgumentError(message);
}

std::vector<KernelKey> PartialKernelRegistry::keysFor(const OperatorName& op) const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<KernelKey> keys;
  for (const auto& s : operators_) {
    if (s->op != op) continue;
    for (const auto& k : s->kernels) keys.push_back(k->key);
  }
  return keys;
}

std::vector<std::shared_ptr<const PartialKernel>> PartialKernelRegistry::kernels() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::shared_ptr<const PartialKernel>> all;
  for (const auto& s : operators_) all.insert(all.end(), s->kernels.begin(), s->kernels.end());
  return all;
}

}  // namespace sy
