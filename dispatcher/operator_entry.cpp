#include "switchyard/dispatcher/operator_entry.h"

#include "switchyard/dispatcher/dispatcher.h"
#include "switchyard/ivalue/ivalue_tensors.h"

namespace sy {

namespace {
// Bit 0 (Undefined) is never set in a key set, so it need not be in the mask either.
constexpr uint64_t kAllRuntimeKeys = ((uint64_t{1} << kNumRuntimeKeys) - 1) & ~uint64_t{1};
}  // namespace

std::string_view toString(EntrySource source) {
  switch (source) {
    case EntrySource::Kernel: return "kernel";
    case EntrySource::AliasKernel: return "alias kernel";
    case EntrySource::BackendFallback: return "backend fallback";
    case EntrySource::Missing: return "missing";
  }
  return "unknown";
}

OperatorEntry::OperatorEntry(OperatorName name) : non_fallthrough_keys_(kAllRuntimeKeys), name_(std::move(name)) {
  for (int k = 0; k < kNumRuntimeKeys; ++k) {
    dispatch_table_[k].store(&missingKernel(), std::memory_order_relaxed);
    computed_[k] = ComputedEntry{&missingKernel(), EntrySource::Missing, nullptr};
  }
}

const FunctionSchema& OperatorEntry::schema() const {
  const FunctionSchema* s = schema_.load(std::memory_order_acquire);
  SY_CHECK(s != nullptr, "operator ", name_.toString(),
           " has kernels registered but no schema; define it with m.def(\"", name_.toString(), "(...) -> ...\")");
  return *s;
}

DispatchKeySet OperatorEntry::keySetFromStack(const Stack& stack) const {
  const FunctionSchema& s = schema();
  const size_t num_args = s.arguments().size();
  SY_CHECK(stack.size() >= num_args, name_.toString(), " expects ", num_args, " arguments on the stack but the stack holds ",
           stack.size(), " value(s); schema: ", s.toString());
  const IValue* args = stack.data() + stack.size() - num_args;
  uint64_t bits = 0;
  for (uint64_t mask = s.tensorArgumentMask(); mask != 0; mask &= mask - 1) {
    forEachTensor(args[__builtin_ctzll(mask)], [&bits](const Tensor& t) { bits |= t.key_set().raw_repr(); });
  }
  if (s.tensorArgumentMask() == 0) {
    // Factory operators: the device argument names the backend; an omitted device means CPU.
    for (uint64_t mask = s.deviceArgumentMask(); mask != 0; mask &= mask - 1) {
      const IValue& v = args[__builtin_ctzll(mask)];
      Device d = v.isDevice() ? v.toDevice() : kCPU;
      bits |= DispatchKeySet(backendKeyFor(d.type())).raw_repr();
    }
  }
  return DispatchKeySet(DispatchKeySet::Raw{}, bits);
}

void OperatorEntry::setSchema(std::shared_ptr<const FunctionSchema> schema, std::string site) {
  schema_owner_ = std::move(schema);
  schema_site_ = std::move(site);
  schema_.store(schema_owner_.get(), std::memory_order_release);
}

std::shared_ptr<const FunctionSchema> OperatorEntry::clearSchema() {
  schema_.store(nullptr, std::memory_order_release);
  schema_site_.clear();
  return std::move(schema_owner_);
}

OperatorEntry::KernelStack::iterator OperatorEntry::pushKernel(DispatchKey key, AnnotatedKernelPtr kernel) {
  auto& stack = kernels_[static_cast<uint8_t>(key)];
  stack.push_front(std::move(kernel));
  return stack.begin();
}

AnnotatedKernelPtr OperatorEntry::eraseKernel(DispatchKey key, KernelStack::iterator it) {
  AnnotatedKernelPtr kernel = std::move(*it);
  kernels_[static_cast<uint8_t>(key)].erase(it);
  return kernel;
}

bool OperatorEntry::hasAnyKernel() const {
  for (const auto& stack : kernels_) {
    if (!stack.empty()) return true;
  }
  return false;
}

std::vector<const AnnotatedKernel*> OperatorEntry::allKernels() const {
  std::vector<const AnnotatedKernel*> out;
  for (const auto& stack : kernels_) {
    for (const auto& k : stack) out.push_back(k.get());
  }
  return out;
}

ComputedEntry OperatorEntry::computeEntry(DispatchKey key, const BackendFallbackTable& fallbacks) const {
  const KernelStack& direct = kernels_[static_cast<uint8_t>(key)];
  if (!direct.empty()) return {direct.front()->published.record, EntrySource::Kernel, direct.front().get()};
  if (key == DispatchKey::Undefined || isBackendKey(key)) {
    for (DispatchKey alias : {DispatchKey::CompositeExplicit, DispatchKey::CompositeImplicit}) {
      const KernelStack& aliased = kernels_[static_cast<uint8_t>(alias)];
      if (!aliased.empty()) return {aliased.front()->published.record, EntrySource::AliasKernel, aliased.front().get()};
    }
  }
  if (isAutogradKey(key)) {
    // A composite kernel differentiates through the operators it calls, unless the backend has a
    // kernel of its own, whose gradient the composite one would not describe.
    const DispatchKey backend = backendKeyOfAutograd(key);
    const bool backend_has_kernel = !kernels_[static_cast<uint8_t>(backend)].empty() ||
                                    !kernels_[static_cast<uint8_t>(DispatchKey::CompositeExplicit)].empty();
    const KernelStack& implicit = kernels_[static_cast<uint8_t>(DispatchKey::CompositeImplicit)];
    if (!implicit.empty() && !backend_has_kernel) {
      return {implicit.front()->published.record, EntrySource::AliasKernel, implicit.front().get()};
    }
    const KernelStack& autograd = kernels_[static_cast<uint8_t>(DispatchKey::Autograd)];
    if (!autograd.empty()) return {autograd.front()->published.record, EntrySource::AliasKernel, autograd.front().get()};
  }
  const AnnotatedKernelPtr& fallback = fallbacks[static_cast<uint8_t>(key)];
  if (key != DispatchKey::Undefined && fallback) {
    return {fallback->published.record, EntrySource::BackendFallback, fallback.get()};
  }
  return {&missingKernel(), EntrySource::Missing, nullptr};
}

void OperatorEntry::updateDispatchTable(const BackendFallbackTable& fallbacks) {
  uint64_t mask = kAllRuntimeKeys;
  for (int k = 0; k < kNumRuntimeKeys; ++k) {
    ComputedEntry entry = computeEntry(static_cast<DispatchKey>(k), fallbacks);
    computed_[k] = entry;
    // Slot before mask: see Note [Fallthrough is free].
    dispatch_table_[k].store(entry.kernel, std::memory_order_release);
    if (entry.kernel->isFallthrough()) mask &= ~(uint64_t{1} << k);
  }
  non_fallthrough_keys_.store(mask, std::memory_order_release);
}

std::string OperatorEntry::dumpComputedTable(const BackendFallbackTable& defaults) const {
  std::string out = str(name_.toString(), " (nonFallthroughKeys: ", nonFallthroughKeys(), ")\n");
  for (int k = 0; k < kNumRuntimeKeys; ++k) {
    const ComputedEntry& e = computed_[k];
    const DispatchKey key = static_cast<DispatchKey>(k);
    out += str("  ", key, ": ", toString(e.source));
    if (e.origin != nullptr) {
      if (e.source == EntrySource::AliasKernel) out += str(" (", e.origin->key, ")");
      if (e.kernel->isFallthrough()) out += " (fallthrough)";
      out += str(" [registered at ", e.origin->site, "]");
    }
    // See Note [A backend's own fallback replaces the library's default] (dispatcher.h).
    const AnnotatedKernelPtr& default_fallback = defaults[k];
    if (e.source == EntrySource::BackendFallback && e.origin->is_default) {
      out += str(" (the library's default for ", key, "; a backend's own fallback there replaces it)");
    } else if (e.source == EntrySource::BackendFallback && default_fallback) {
      out += str(" (a backend's own, replacing the library's default registered at ", default_fallback->site, ")");
    }
    out += "\n";
  }
  return out;
}

std::string OperatorEntry::describeRegistrations() const {
  std::string out;
  for (int k = 0; k < static_cast<int>(DispatchKey::EndOfAliasKeys); ++k) {
    for (const auto& kernel : kernels_[k]) {
      out += str("  ", static_cast<DispatchKey>(k), ": ", kernel->kernel.isFallthrough() ? "fallthrough kernel" : "kernel",
                 " registered at ", kernel->site, "\n");
    }
  }
  for (int k = 0; k < kNumRuntimeKeys; ++k) {
    const ComputedEntry& e = computed_[k];
    if (e.source == EntrySource::BackendFallback) {
      out += str("  ", static_cast<DispatchKey>(k), ": ", e.kernel->isFallthrough() ? "fallthrough " : "",
                 "backend fallback registered at ", e.origin->site, "\n");
    }
  }
  return out.empty() ? "  (none)\n" : out;
}

}  // namespace sy
