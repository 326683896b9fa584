#include "switchyard/backends/devices/zero/zero_tensor.h"

#include "switchyard/ivalue/checked_size.h"

namespace sy {

Tensor zero_tensor(IntArrayRef sizes, TensorOptions options) {
  checkedNumel("zero_tensor", sizes);
  auto impl = make_intrusive<TensorImpl>(Storage(), options.dtype_, options.device_);
  impl->set_sizes_and_strides(sizes, checkedContiguousStrides("zero_tensor", sizes), 0);
  impl->set_key_set(impl->key_set().add(DispatchKey::ZeroTensor));
  return Tensor(std::move(impl));
}

bool is_zero_tensor(const Tensor& t) { return t.defined() && t.key_set().has(DispatchKey::ZeroTensor); }

Tensor materialized(const Tensor& t) {
  if (!is_zero_tensor(t)) return t;
  return zeros(t.sizes(), TensorOptions().dtype(t.dtype()).device(t.device()));
}

}  // namespace sy
