// The kernels of the test library declared in custom_ops.yaml and functions.yaml. Each writes a
// value that tells which kernel ran.
#include "NativeFunctions.h"

#include "switchyard/ivalue/tensor_factories.h"

namespace sytest_yaml::native {

namespace {
template <class T>
void fill(sy::Tensor& out, const sy::Tensor& like, T value) {
  out.resize_(like.sizes());
  for (int64_t i = 0; i < out.numel(); ++i) out.data_ptr<T>()[i] = value;
}
}  // namespace

int every_type_calls = 0;

// Writes what it was given, as doubles: per index, -1 for None or the index tensor's numel; then
// the sum of the scales, or -1 without them.
sy::Tensor& optional_lists_out(const sy::Tensor&, sy::OptionalTensorListRef indices,
                               std::optional<absl::Span<const double>> scales, sy::Tensor& out,
                               const sy::KernelContext&) {
  out.resize_({static_cast<int64_t>(indices.size()) + 1});
  double* seen = out.data_ptr<double>();
  for (size_t i = 0; i < indices.size(); ++i) {
    const sy::Tensor* index = indices.get(i);
    seen[i] = index == nullptr ? -1.0 : static_cast<double>(index->numel());
  }
  double sum = 0;
  if (scales.has_value()) {
    for (double s : *scales) sum += s;
  }
  seen[indices.size()] = scales.has_value() ? sum : -1.0;
  return out;
}

sy::Tensor& scale_out_float(const sy::Tensor& self, double factor, sy::Tensor& out, const sy::KernelContext&) {
  fill<float>(out, self, static_cast<float>(100 + factor));
  return out;
}

sy::Tensor& scale_out(const sy::Tensor& self, double factor, sy::Tensor& out, const sy::KernelContext&) {
  if (out.dtype() == sy::ScalarType::Double) {
    fill<double>(out, self, 200 + factor);
  } else {
    fill<float>(out, self, static_cast<float>(200 + factor));
  }
  return out;
}

sy::Tensor& mul_out_1d(const sy::Tensor& self, const sy::Tensor& other, sy::Tensor& out, const sy::KernelContext&) {
  if (out.dtype() == sy::ScalarType::Double) {
    fill<double>(out, self, -1);
  } else {
    fill<float>(out, self, -1);
  }
  return out;
}

void every_type_out(const sy::Tensor&, const std::optional<sy::Tensor>&, sy::TensorList, int64_t,
                    std::optional<int64_t>, sy::IntArrayRef, std::optional<sy::IntArrayRef>, double, std::optional<double>,
                    const std::vector<double>&, bool, std::optional<bool>, const std::vector<bool>&, std::string_view,
                    std::optional<std::string_view>, const sy::Scalar&, const std::optional<sy::Scalar>&, sy::ScalarType,
                    std::optional<sy::ScalarType>, sy::MemoryFormat, std::optional<sy::MemoryFormat>, sy::Device,
                    std::optional<sy::Device>, sy::Tensor&, const sy::KernelContext&) {
  ++every_type_calls;
}

}  // namespace sytest_yaml::native
