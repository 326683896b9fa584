#include "switchyard/backends/devices/accel/accel_tensor.h"

#include "switchyard/backends/devices/accel/accel_allocator.h"
#include "switchyard/backends/devices/cpu/kernels.h"
#include "switchyard/ivalue/checked_size.h"
#include "switchyard/ivalue/tensor_factories.h"

namespace sy::accel {
namespace {

// `src` written into the CPU tensor `dst` by aten::copy_'s CPU kernel, called directly: the host
// views are the backend's own plumbing, not operator calls a profiler or a mode should see.
void hostCopy(Tensor dst, const Tensor& src) {
  static constexpr KernelContext kCopy{"aten::copy_", OutputForm::InPlace};
  cpu::copy_cpu(dst, src, /*non_blocking=*/false, kCopy);
}

}  // namespace

bool isAccel(const Tensor& t) { return t.defined() && t.device().type() == DeviceType::Accel; }

Tensor hostView(const Tensor& accel) {
  SY_CHECK(isAccel(accel), "Accel hostView: expected an Accel tensor but got one on ",
           accel.defined() ? accel.device().str() : std::string("(undefined)"));
  const Storage& storage = accel.storage();
  SY_CHECK(storage && storage->data() != nullptr, "Accel hostView: the tensor has no storage");
  // No deleter: the Accel storage owns the buffer; the view only borrows it for one kernel call.
  DataPtr borrowed{mapHandle(storage->data()), nullptr, nullptr, kCPU};
  auto impl = make_intrusive<TensorImpl>(make_intrusive<StorageImpl>(std::move(borrowed), storage->nbytes()),
                                         accel.scalar_type(), kCPU);
  impl->set_sizes_and_strides(accel.sizes(), accel.strides(), accel.storage_offset());
  return Tensor(std::move(impl));
}

Tensor hostOperand(const Tensor& t) { return isAccel(t) ? hostView(t) : t; }

Tensor toCpu(const Tensor& accel) {
  Tensor out = sy::empty(accel.sizes(), TensorOptions(accel.scalar_type()));
  hostCopy(out, hostView(accel));
  return out;
}

Tensor toAccel(const Tensor& cpu) {
  SY_CHECK(cpu.defined() && cpu.is_cpu(), "Accel toAccel: expected a CPU tensor");
  Tensor out = sy::empty(cpu.sizes(), TensorOptions(cpu.scalar_type()).device(kAccel));
  hostCopy(hostView(out), cpu);
  return out;
}

void resizeAccel(const Tensor& accel, IntArrayRef sizes) {
  SY_CHECK(isAccel(accel), "Accel resize: expected an Accel tensor");
  TensorImpl* impl = accel.unsafeGetTensorImpl();
  const int64_t numel = checkedNumel("Accel resize", sizes);
  const size_t needed = checkedStorageBytes("Accel resize", impl->storage_offset(), numel, impl->dtype(), sizes);
  const Storage& old = impl->storage();
  // StorageImpl::reserve cannot grow device memory (it would memcpy a handle), so the backend
  // moves the impl to a fresh buffer itself; other views of the old buffer keep the old one.
  if (!old || needed > old->nbytes()) {
    Storage fresh = make_intrusive<StorageImpl>(needed, getAllocator(DeviceType::Accel), accel.device());
    if (old && old->data() != nullptr) copyWithinAccel(fresh->data(), old->data(), old->nbytes());
    impl->set_storage(std::move(fresh));
  }
  impl->resize(sizes);
}

void copyInto(const Tensor& dst, const Tensor& cpu_value) {
  if (!sameSizes(dst.sizes(), cpu_value.sizes())) resizeAccel(dst, cpu_value.sizes());
  hostCopy(hostView(dst), cpu_value);
}

bool isCpuScalar(const Tensor& t) { return t.defined() && t.is_cpu() && t.dim() == 0; }

void throwMixedDevices(std::string_view op, Device other) {
  SY_ERROR("Expected all tensors to be on the same device, but found at least two devices, accel and ", other.str(),
           "! (", op, ": move the tensors to one device first, e.g. with .to(sy::kAccel))");
}

void checkSameDevice(std::string_view op, std::initializer_list<const Tensor*> tensors,
                     std::initializer_list<const Tensor*> written) {
  for (const Tensor* t : tensors) {
    if (t->defined() && !isAccel(*t) && !isCpuScalar(*t)) throwMixedDevices(op, t->device());
  }
  for (const Tensor* t : written) {
    if (t->defined() && !isAccel(*t)) throwMixedDevices(op, t->device());
  }
}

}  // namespace sy::accel
