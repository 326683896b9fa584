// The host implementation of every XNNPACK node kind, for the nodes Debian's XNNPACK does not run
// (See Note [What Debian's XNNPACK runs] in xnnpack_support.h). Each works on float tensors in
// XNNPACK's layouts (NHWC for convolution and pooling); the host step around it converts other
// datatypes (xnnpack_quantize.h). Kernels that Switchyard's operators compute allocation-free call
// them through the dispatcher (sy::ops: the element-wise functions, softmax, cat, bmm); the rest are
// loops here: the NHWC window kernels, the operators Switchyard lacks (hardswish, ELU, leaky ReLU,
// PReLU, floor, ceiling, padding, bilinear resizing, attention), and transpose, slice and fully
// connected, whose portable kernels make a view (and so allocate) on every call.
//
//   absl::StatusOr<std::unique_ptr<HostKernel>> k = makeHostKernel(node, {x_view}, {y_view});
//   (*k)->run();   // reads the input views, writes the output views
//
// A kernel keeps the views it was made with and allocates nothing when it runs: whatever it needs
// besides (a reshaped view, a list of tensors, scratch rows) it makes when it is made.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_graph.h"
#include "switchyard/ivalue/tensor.h"

namespace sy::xnnpack {

class HostKernel {
 public:
  virtual ~HostKernel() = default;
  // Computes the node; raises sy::Error only for a bug (the shapes were checked when it was made).
  virtual void run() = 0;
};

// `in`: the node's inputs as contiguous Float tensors of the values' current dims (an undefined
// Tensor for an absent bias); `out`: its results likewise, except the index result of
// ArgMaxPooling2d, an Int tensor (XNNPACK's uint32 indices within the window).
absl::StatusOr<std::unique_ptr<HostKernel>> makeHostKernel(const XnnNode& node, std::vector<Tensor> in,
                                                           std::vector<Tensor> out);

// A tensor of `dims` and `dtype` over memory the caller owns (at least its bytes long).
Tensor tensorOver(void* data, const Dims& dims, ScalarType dtype = ScalarType::Float);

namespace host_internal {
// A kernel that runs one function (its state captured by value when it is made).
class FnKernel final : public HostKernel {
 public:
  explicit FnKernel(std::function<void()> fn) : fn_(std::move(fn)) {}
  void run() override { fn_(); }

 private:
  std::function<void()> fn_;
};
inline std::unique_ptr<HostKernel> kernel(std::function<void()> fn) { return std::make_unique<FnKernel>(std::move(fn)); }

// The kernels, by family (xnnpack_host_elementwise.cpp, xnnpack_host_nn.cpp); null when the kind
// is not in the family.
std::unique_ptr<HostKernel> makeElementwiseKernel(const XnnNode& n, std::vector<Tensor>& in, std::vector<Tensor>& out);
std::unique_ptr<HostKernel> makeNnKernel(const XnnNode& n, std::vector<Tensor>& in, std::vector<Tensor>& out);
// Clamps `t` in place to the node's output_min_max (a no-op for infinite bounds).
void clampToOutputRange(const XnnNode& n, const Tensor& t);
}  // namespace host_internal

}  // namespace sy::xnnpack
