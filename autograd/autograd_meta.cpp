#include "switchyard/autograd/autograd_meta.h"

#include "switchyard/autograd/node.h"

namespace sy::autograd {

AutogradMeta::~AutogradMeta() {
  if (view_of != nullptr) view_of->fetch_sub(1, std::memory_order_relaxed);
}

std::mutex& sharedStateMutex() {
  static std::mutex* mutex = new std::mutex();  // never destroyed: tensors may die during exit
  return *mutex;
}

AutogradMeta& ensureMeta(const Tensor& t) {
  TensorImpl* impl = t.unsafeGetTensorImpl();
  if (impl->autograd_meta() == nullptr) impl->set_autograd_meta(std::make_unique<AutogradMeta>());
  return *static_cast<AutogradMeta*>(impl->autograd_meta());
}

void syncAutogradKey(const Tensor& t) {
  TensorImpl* impl = t.unsafeGetTensorImpl();
  const DispatchKeySet without = impl->key_set() - kAutogradKeys;
  if (!hasHistory(t)) {
    impl->set_key_set(without);
    return;
  }
  const DispatchKey autograd_key = autogradKeyFor(without.backends().highestPriorityTypeId());
  SY_CHECK(autograd_key != DispatchKey::Undefined, "autograd: a tensor with key set ", impl->key_set(),
           " has no backend key, so it cannot take part in autograd");
  impl->set_key_set(without.add(autograd_key));
}

Tensor detachedAlias(const Tensor& t) {
  auto impl = make_intrusive<TensorImpl>(t.storage(), t.scalar_type(), t.device());
  impl->set_key_set(t.key_set() - kAutogradKeys);
  impl->set_sizes_and_strides(t.sizes(), t.strides(), t.storage_offset());
  return Tensor(std::move(impl));
}

std::string describeTensor(const Tensor& t) {
  if (!t.defined()) return "an undefined tensor";
  return str(t.scalar_type(), " tensor of shape ", formatSizes(t.sizes()));
}

}  // namespace sy::autograd
