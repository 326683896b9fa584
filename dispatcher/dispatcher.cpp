#include "switchyard/dispatcher/dispatcher.h"

#include <algorithm>

#include "tsl/robin_map.h"

namespace sy {

struct Dispatcher::State {
  // Entries are never destroyed, so OperatorHandles stay valid (see operator_handle.h).
  std::deque<std::unique_ptr<OperatorEntry>> entries;
  tsl::robin_map<std::string, OperatorEntry*> entries_by_name;  // "aten::acos.out"
  // The fallback in effect per key (what the tables are computed from): a backend's own, else
  // the library's default (see Note [A backend's own fallback replaces the library's default]).
  BackendFallbackTable backend_fallbacks;
  BackendFallbackTable own_fallbacks;
  BackendFallbackTable default_fallbacks;
  tsl::robin_map<std::string, std::string> library_sites;  // namespace -> SY_LIBRARY site
  // See Note [Reclaiming retired kernels] (kernel_records.h).
  KernelRecords records;
  tsl::robin_map<std::string, std::shared_ptr<const FunctionSchema>> schemas;  // by their text
};

Dispatcher& Dispatcher::singleton() {
  // Never destroyed: static Library objects deregister during exit and must find it alive.
  static Dispatcher* instance = new Dispatcher();
  return *instance;
}

Dispatcher::Dispatcher() : state_(std::make_unique<State>()) {}
Dispatcher::~Dispatcher() = default;

OperatorEntry& Dispatcher::findOrCreateEntry(const OperatorName& name) {
  std::string key = name.toString();
  auto it = state_->entries_by_name.find(key);
  if (it != state_->entries_by_name.end()) return *it->second;
  state_->entries.push_back(std::make_unique<OperatorEntry>(name));
  OperatorEntry* entry = state_->entries.back().get();
  entry->updateDispatchTable(state_->backend_fallbacks);
  state_->entries_by_name.emplace(std::move(key), entry);
  return *entry;
}

std::optional<OperatorHandle> Dispatcher::findSchema(const OperatorName& name) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = state_->entries_by_name.find(name.toString());
  if (it == state_->entries_by_name.end() || !it->second->hasSchema()) return std::nullopt;
  return OperatorHandle(it->second);
}

std::optional<OperatorHandle> Dispatcher::findOp(const OperatorName& name) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = state_->entries_by_name.find(name.toString());
  if (it == state_->entries_by_name.end()) return std::nullopt;
  if (!it->second->hasSchema() && !it->second->hasAnyKernel()) return std::nullopt;
  return OperatorHandle(it->second);
}

OperatorHandle Dispatcher::findSchemaOrThrow(std::string_view name, std::string_view overload_name) {
  OperatorName op{std::string(name), std::string(overload_name)};
  if (auto handle = findSchema(op)) return *handle;
  std::string overloads;
  for (const OperatorName& n : getAllOpNames()) {
    if (n.name == op.name) overloads += str(overloads.empty() ? "" : ", ", "'", n.overload_name, "'");
  }
  SY_ERROR("Could not find schema for ", op.toString(),
           overloads.empty() ? std::string() : str("; ", op.name, " has the overloads ", overloads));
}

std::vector<OperatorName> Dispatcher::getAllOpNames() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<OperatorName> names;
  for (const auto& entry : state_->entries) {
    if (entry->hasSchema()) names.push_back(entry->name());
  }
  std::sort(names.begin(), names.end(),
            [](const OperatorName& a, const OperatorName& b) { return a.toString() < b.toString(); });
  return names;
}

std::vector<OperatorName> Dispatcher::operatorsWithKernelFor(DispatchKey key) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<OperatorName> names;
  if (!isRuntimeKey(key)) return names;
  for (const auto& entry : state_->entries) {
    const ComputedEntry& computed = entry->computedEntry(key);
    if (computed.source == EntrySource::Kernel && !computed.kernel->isFallthrough()) names.push_back(entry->name());
  }
  std::sort(names.begin(), names.end(),
            [](const OperatorName& a, const OperatorName& b) { return a.toString() < b.toString(); });
  return names;
}

RegistrationHandle Dispatcher::registerLibrary(const std::string& ns, SourceLocation site) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = state_->library_sites.find(ns);
  if (it != state_->library_sites.end()) {
    SY_ERROR("Only one SY_LIBRARY/TORCH_LIBRARY block may be defined for namespace '", ns, "', but a second one is registered at ",
             site.str(), " (the first is at ", it->second,
             "). Use SY_LIBRARY_FRAGMENT/TORCH_LIBRARY_FRAGMENT to add definitions to a namespace from several places.");
  }
  state_->library_sites.emplace(ns, site.str());
  return RegistrationHandle([this, ns] {
    std::lock_guard<std::mutex> lock(mutex_);
    state_->library_sites.erase(ns);
  });
}

void Dispatcher::checkSignatureAgainstSchema(const OperatorEntry& entry, const FunctionSchema& schema,
                                             const InferredSignature& signature, const std::string& kernel_site,
                                             const std::string& schema_site) {
  if (auto reason = findSignatureMismatch(schema, signature)) {
    SY_ERROR("Inferred operator schema for a C++ kernel function doesn't match the expected function schema.\n",
             "  operator: ", entry.name().toString(), "\n",
             "  expected schema: ", schema.toString(), "\n",
             "    registered at ", schema_site, "\n",
             "  inferred schema: ", signature.str(), "\n",
             "    registered at ", kernel_site, "\n",
             "  reason: ", *reason);
  }
}

RegistrationHandle Dispatcher::registerDef(FunctionSchema schema, SourceLocation site) {
  std::lock_guard<std::mutex> lock(mutex_);
  OperatorEntry& entry = findOrCreateEntry(schema.operator_name());
  if (entry.hasSchema()) {
    SY_ERROR("Tried to register operator ", schema.toString(), " at ", site.str(),
             ", but an operator with that name is already registered at ", entry.schemaSite(),
             "; each operator is defined exactly once");
  }
  // Kernels and static typed handles may arrive before their schema; check them now, before
  // changing anything.
  for (const AnnotatedKernel* kernel : entry.allKernels()) {
    if (kernel->inferred_signature) {
      checkSignatureAgainstSchema(entry, schema, *kernel->inferred_signature, kernel->site, site.str());
    }
  }
  if (const auto& recorded = entry.cppSignature()) {
    checkSignatureAgainstSchema(entry, schema, recorded->signature, recorded->site, site.str());
  }
  // Interned: a call or fallback may still be reading the schema of an operator being undefined.
  std::shared_ptr<const FunctionSchema>& interned = state_->schemas[schema.toString()];
  if (!interned) interned = std::make_shared<const FunctionSchema>(std::move(schema));
  entry.setSchema(interned, site.str());
  OperatorEntry* e = &entry;
  return RegistrationHandle([this, e] {
    std::lock_guard<std::mutex> lock(mutex_);
    e->clearSchema();
    if (!e->hasAnyKernel()) e->forgetKernelSignature();  // See Note [The C++ signature goes with the last registration]
  });
}

RegistrationHandle Dispatcher::registerImpl(const OperatorName& name, DispatchKey key, KernelFunction kernel,
                                            std::optional<InferredSignature> signature, SourceLocation site) {
  SY_CHECK(key != DispatchKey::Undefined && key < DispatchKey::EndOfAliasKeys, "cannot register a kernel for ",
           name.toString(), " at ", site.str(), " on dispatch key ", key,
           "; use a backend, functionality or alias key");
  std::lock_guard<std::mutex> lock(mutex_);
  OperatorEntry& entry = findOrCreateEntry(name);
  if (signature) {
    if (entry.hasSchema()) {
      checkSignatureAgainstSchema(entry, entry.schema(), *signature, site.str(), entry.schemaSite());
    }
    // Note [Unboxed signatures must match exactly]
    // The unboxed call path casts the kernel's function pointer to the caller's signature, so every
    // unboxed kernel of an operator and every typed<> access must agree on the exact C++ types,
    // not just on the schema types they map to (const Tensor& and Tensor both map to Tensor).
    const auto& recorded = entry.cppSignature();
    if (recorded && recorded->signature.cpp_signature != signature->cpp_signature) {
      SY_ERROR("Mismatch in kernel C++ signatures\n", "  operator: ", name.toString(), "\n",
               "  kernel 1: ", recorded->signature.cpp_signature_name, "\n", "    registered at ", recorded->site, "\n",
               "  kernel 2: ", signature->cpp_signature_name, "\n", "    registered at ", site.str());
    }
    if (!recorded) entry.setCppSignature({*signature, site.str()});
  }
  auto annotated = std::make_shared<AnnotatedKernel>();
  annotated->kernel = std::move(kernel);
  annotated->published = state_->records.publish(annotated->kernel, &entry, key);
  annotated->inferred_signature = std::move(signature);
  annotated->site = site.str();
  annotated->key = key;
  auto position = entry.pushKernel(key, std::move(annotated));
  entry.updateDispatchTable(state_->backend_fallbacks);
  OperatorEntry* e = &entry;
  return RegistrationHandle([this, e, key, position] {
    std::vector<std::shared_ptr<OperatorKernel>> reclaimed;  // destroyed after the mutex is released
    std::lock_guard<std::mutex> lock(mutex_);
    AnnotatedKernelPtr removed = e->eraseKernel(key, position);
    e->updateDispatchTable(state_->backend_fallbacks);
    retire(*removed, &reclaimed);
    if (!e->hasSchema() && !e->hasAnyKernel()) e->forgetKernelSignature();
  });
}

RegistrationHandle Dispatcher::registerFallback(DispatchKey key, KernelFunction kernel, SourceLocation site) {
  return addFallback(key, std::move(kernel), site, /*is_default=*/false);
}

RegistrationHandle Dispatcher::registerDefaultFallback(DispatchKey key, KernelFunction kernel, SourceLocation site) {
  return addFallback(key, std::move(kernel), site, /*is_default=*/true);
}

RegistrationHandle Dispatcher::addFallback(DispatchKey key, KernelFunction kernel, SourceLocation site, bool is_default) {
  SY_CHECK(key != DispatchKey::Undefined && isRuntimeKey(key), "cannot register a backend fallback at ",
           site.str(), " for dispatch key ", key, "; a fallback needs a backend or functionality key",
           isAliasKey(key) ? " (alias keys only take per-operator kernels)" : "");
  std::lock_guard<std::mutex> lock(mutex_);
  const auto index = static_cast<uint8_t>(key);
  AnnotatedKernelPtr& slot = (is_default ? state_->default_fallbacks : state_->own_fallbacks)[index];
  if (slot) {
    SY_ERROR("Tried to register a ", is_default ? "default " : "", "backend fallback for dispatch key ", key, " at ",
             site.str(), ", but one is already registered at ", slot->site, "; a key has at most one ",
             is_default ? "default backend fallback" : "backend fallback");
  }
  auto annotated = std::make_shared<AnnotatedKernel>();
  annotated->kernel = std::move(kernel);
  annotated->published = state_->records.publish(annotated->kernel, nullptr, key);
  annotated->site = site.str();
  annotated->key = key;
  annotated->is_default = is_default;
  slot = std::move(annotated);
  updateFallbackInEffect(key);
  return RegistrationHandle([this, key, index, is_default] {
    std::vector<std::shared_ptr<OperatorKernel>> reclaimed;  // destroyed after the mutex is released
    std::lock_guard<std::mutex> lock(mutex_);
    AnnotatedKernelPtr removed = std::move((is_default ? state_->default_fallbacks : state_->own_fallbacks)[index]);
    updateFallbackInEffect(key);
    retire(*removed, &reclaimed);
  });
}

void Dispatcher::updateFallbackInEffect(DispatchKey key) {
  const auto index = static_cast<uint8_t>(key);
  const AnnotatedKernelPtr& in_effect =
      state_->own_fallbacks[index] ? state_->own_fallbacks[index] : state_->default_fallbacks[index];
  if (state_->backend_fallbacks[index] == in_effect) return;  // a default behind a backend's own
  state_->backend_fallbacks[index] = in_effect;
  for (auto& entry : state_->entries) entry->updateDispatchTable(state_->backend_fallbacks);
}

void Dispatcher::retire(const AnnotatedKernel& kernel, std::vector<std::shared_ptr<OperatorKernel>>* reclaimed) {
  state_->records.retire(kernel.published, kernel.kernel.functor());
  state_->records.collect(reclaimed);
}

void Dispatcher::reclaimRetiredKernels() {
  std::vector<std::shared_ptr<OperatorKernel>> reclaimed;  // destroyed after the mutex is released
  std::lock_guard<std::mutex> lock(mutex_);
  state_->records.collect(&reclaimed);
}

Dispatcher::RetainedKernels Dispatcher::retainedKernels() {
  std::lock_guard<std::mutex> lock(mutex_);
  return {state_->records.awaitingReclamation(), state_->records.recordCount(), state_->schemas.size()};
}

std::optional<std::string> Dispatcher::backendFallbackSite(DispatchKey key) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!isRuntimeKey(key)) return std::nullopt;
  const AnnotatedKernelPtr& slot = state_->backend_fallbacks[static_cast<uint8_t>(key)];
  if (!slot) return std::nullopt;
  return slot->site;
}

std::string Dispatcher::describeMissingKernel(const OperatorHandle& op, DispatchKeySet ks) {
  std::lock_guard<std::mutex> lock(mutex_);
  const OperatorEntry& entry = op.entry();
  const std::string name = entry.name().toString();
  DispatchKey key = ks.highestPriorityTypeId();
  std::string headline;
  if (key == DispatchKey::Undefined && entry.hasSchema() && entry.schema().deviceArgumentMask() != 0) {
    // A Device argument always names a backend key, unless its device type has none.
    headline = str("Could not run '", name, "': its Device argument names a device type that has no backend here (",
                   "Switchyard has no CUDA, HIP, XLA, MPS, XPU, Meta or Lazy backend; map your backend to one of the "
                   "free keys PrivateUse1, PrivateUse2, PrivateUse3), or the thread-local excluded set removed the "
                   "device's backend key.");
  } else if (key == DispatchKey::Undefined) {
    headline = str("Could not run '", name,
                   "': the call has no tensor arguments to take a dispatch key from (nor a Device argument), "
                   "no key in the thread-local included set, and the operator has no CompositeExplicit or "
                   "CompositeImplicit kernel to run without one.");
  } else {
    headline = str("Could not run '", name, "' with arguments from the '", key, "' backend: it has no kernel and no ",
                   "backend fallback registered for ", key, ". The call's dispatch key set was ", ks, ".");
  }
  return str(headline, "\n'", name, "' has these kernels and fallbacks:\n", entry.describeRegistrations());
}

void Dispatcher::checkTypedSignature(OperatorEntry& entry, const InferredSignature& signature) {
  std::lock_guard<std::mutex> lock(mutex_);
  const std::string name = entry.name().toString();
  if (auto reason = findSignatureMismatch(entry.schema(), signature)) {
    SY_ERROR("typed<", signature.cpp_signature_name, ">() does not fit the schema of ", name, ": ", *reason,
             ".\n  schema: ", entry.schema().toString(), "\n  signature: ", signature.str());
  }
  recordCppSignature(entry, signature, "a typed<>() call");
}

void Dispatcher::recordCppSignature(OperatorEntry& entry, const InferredSignature& signature, const std::string& site) {
  const auto& recorded = entry.cppSignature();
  if (recorded && recorded->signature.cpp_signature != signature.cpp_signature) {
    SY_ERROR("Tried to access or call ", entry.name().toString(), " with a wrong C++ signature.\n",
             "  correct signature: ", recorded->signature.cpp_signature_name, "\n", "    registered at ",
             recorded->site, "\n", "  accessed/called as: ", signature.cpp_signature_name);
  }
  if (!recorded) entry.setCppSignature({signature, site});
  entry.pinTypedSignature({signature, site});
}

OperatorHandle Dispatcher::operatorHandleFor(const OperatorName& name) {
  std::lock_guard<std::mutex> lock(mutex_);
  return OperatorHandle(&findOrCreateEntry(name));
}

void Dispatcher::recordStaticSignature(OperatorEntry& entry, const InferredSignature& signature) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (entry.hasSchema()) {
    if (auto reason = findSignatureMismatch(entry.schema(), signature)) {
      SY_ERROR("staticTypedHandle<", signature.cpp_signature_name, "> does not fit the schema of ",
               entry.name().toString(), ": ", *reason);
    }
  }
  recordCppSignature(entry, signature, "a staticTypedHandle");
}

std::string Dispatcher::dumpComputedTable(const OperatorEntry& entry) {
  std::lock_guard<std::mutex> lock(mutex_);
  return entry.dumpComputedTable(state_->default_fallbacks);
}

std::string OperatorHandle::dumpComputedTable() const { return Dispatcher::singleton().dumpComputedTable(*entry_); }

bool OperatorHandle::hasKernelForDispatchKey(DispatchKey key) const {
  return isRuntimeKey(key) && entry_->computedEntry(key).source != EntrySource::Missing;
}

std::optional<std::type_index> OperatorHandle::cppSignature() const {
  return Dispatcher::singleton().cppSignature(*entry_);
}

std::optional<std::type_index> Dispatcher::cppSignature(const OperatorEntry& entry) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!entry.cppSignature()) return std::nullopt;
  return entry.cppSignature()->signature.cpp_signature;
}

void OperatorHandle::checkTypedSignature(const InferredSignature& signature) const {
  Dispatcher::singleton().checkTypedSignature(*entry_, signature);
}

}  // namespace sy
