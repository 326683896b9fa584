#include "switchyard/backends/zero/zero_tensor.h"

namespace sy {

Tensor zero_tensor(IntArrayRef sizes, TensorOptions options) {
  for (size_t i = 0; i < sizes.size(); ++i) {
    SY_CHECK(sizes[i] >= 0, "zero_tensor: negative dimension ", sizes[i], " at index ", i);
  }
  auto impl = make_intrusive<TensorImpl>(Storage(), options.dtype_, options.device_);
  impl->set_sizes_and_strides(sizes, contiguousStrides(sizes), 0);
  impl->set_key_set(impl->key_set().add(DispatchKey::ZeroTensor));
  return Tensor(std::move(impl));
}

bool is_zero_tensor(const Tensor& t) { return t.defined() && t.key_set().has(DispatchKey::ZeroTensor); }

Tensor materialized(const Tensor& t) {
  if (!is_zero_tensor(t)) return t;
  return zeros(t.sizes(), TensorOptions().dtype(t.dtype()).device(t.device()));
}

}  // namespace sy
