// The schemas of the neural-network aten:: operators, spelled as in PyTorch's native_functions.yaml,
// and the CompositeImplicit kernels of the operators PyTorch defines in terms of others: conv2d
// (calls convolution), adaptive_avg_pool2d (calls _adaptive_avg_pool2d) and layer_norm (calls
// native_layer_norm). Those composites dispatch
// their inner call, so every backend, tracer and fallback sees the primitive operator.
//
// PyTorch has no out= form of max_pool2d (only of max_pool2d_with_indices); max_pool2d.out is ours,
// the functional schema plus the usual `*, Tensor(a!) out` tail.
//
// CPU kernels live in backends/cpu/{convolution,pooling,adaptive_pooling,normalization,embedding}.cpp; the C++
// helpers that call these operators in ops/nn_ops.h.
#include <optional>
#include <tuple>

#include "switchyard/dispatcher/library.h"
#include "switchyard/ops/nn_ops.h"

namespace sy::ops {
namespace {

Tensor conv2dComposite(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, IntArrayRef stride,
                       IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  // output_padding only means something for transposed convolutions; zeros, as PyTorch's conv2d passes.
  return convolution(input, weight, bias, stride, padding, dilation, /*transposed=*/false, /*output_padding=*/{0, 0},
                     groups);
}

// PyTorch's composite takes the mean over H and W for a 1x1 output; calling the primitive for
// every size keeps one operator (the one exported programs name) for adaptive pooling.
Tensor adaptiveAvgPool2dComposite(const Tensor& self, IntArrayRef output_size) {
  return _adaptive_avg_pool2d(self, output_size);
}

Tensor layerNormComposite(const Tensor& input, IntArrayRef normalized_shape, const std::optional<Tensor>& weight,
                          const std::optional<Tensor>& bias, double eps, bool cudnn_enable) {
  // cudnn_enable picks a GPU library in PyTorch; there is nothing to pick here.
  return std::get<0>(native_layer_norm(input, normalized_shape, weight, bias, eps));
}

}  // namespace
}  // namespace sy::ops

SY_LIBRARY_FRAGMENT(aten, m) {
  // Convolution.
  m.def(
      "convolution(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, SymInt[] padding, SymInt[] dilation, "
      "bool transposed, SymInt[] output_padding, SymInt groups) -> Tensor");
  m.def(
      "convolution.out(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, SymInt[] padding, "
      "SymInt[] dilation, bool transposed, SymInt[] output_padding, SymInt groups, *, Tensor(a!) out) -> Tensor(a!)");
  m.def(
      "conv2d(Tensor input, Tensor weight, Tensor? bias=None, SymInt[2] stride=1, SymInt[2] padding=0, "
      "SymInt[2] dilation=1, SymInt groups=1) -> Tensor",
      SY_FN(sy::ops::conv2dComposite));

  // Pooling.
  m.def(
      "max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, "
      "bool ceil_mode=False) -> Tensor");
  m.def(
      "max_pool2d.out(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, "
      "bool ceil_mode=False, *, Tensor(a!) out) -> Tensor(a!)");
  m.def(
      "max_pool2d_with_indices(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, "
      "int[2] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)");
  m.def(
      "max_pool2d_with_indices.out(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, "
      "int[2] dilation=1, bool ceil_mode=False, *, Tensor(a!) out, Tensor(b!) indices) -> (Tensor(a!), Tensor(b!))");
  m.def(
      "avg_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, bool ceil_mode=False, "
      "bool count_include_pad=True, int? divisor_override=None) -> Tensor");
  m.def(
      "avg_pool2d.out(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, bool ceil_mode=False, "
      "bool count_include_pad=True, int? divisor_override=None, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("_adaptive_avg_pool2d(Tensor self, SymInt[2] output_size) -> Tensor");
  m.def("_adaptive_avg_pool2d.out(Tensor self, SymInt[2] output_size, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("adaptive_avg_pool2d(Tensor self, SymInt[2] output_size) -> Tensor",
        SY_FN(sy::ops::adaptiveAvgPool2dComposite));
  m.def("adaptive_avg_pool2d.out(Tensor self, SymInt[2] output_size, *, Tensor(a!) out) -> Tensor(a!)");

  // Normalization.
  m.def(
      "native_layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight, Tensor? bias, float eps) "
      "-> (Tensor, Tensor, Tensor)");
  m.def(
      "native_layer_norm.out(Tensor input, SymInt[] normalized_shape, Tensor? weight, Tensor? bias, float eps, *, "
      "Tensor(a!) out0, Tensor(b!) out1, Tensor(c!) out2) -> (Tensor(a!), Tensor(b!), Tensor(c!))");
  m.def(
      "layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight=None, Tensor? bias=None, float eps=1e-05, "
      "bool cudnn_enable=True) -> Tensor",
      SY_FN(sy::ops::layerNormComposite));

  // Embedding.
  m.def(
      "embedding(Tensor weight, Tensor indices, SymInt padding_idx=-1, bool scale_grad_by_freq=False, "
      "bool sparse=False) -> Tensor");
  m.def(
      "embedding.out(Tensor weight, Tensor indices, SymInt padding_idx=-1, bool scale_grad_by_freq=False, "
      "bool sparse=False, *, Tensor(a!) out) -> Tensor(a!)");
}
