// Host kernels of the element-wise and data-movement node kinds (See xnnpack_host_kernels.h).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>

#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_host_kernels.h"
#include "switchyard/ivalue/storage.h"
#include "switchyard/ops/binary_ops.h"
#include "switchyard/ops/reduction_ops.h"
#include "switchyard/ops/shape_ops.h"
#include "switchyard/ops/unary_ops.h"

namespace sy::xnnpack {

Tensor tensorOver(void* data, const Dims& dims, ScalarType dtype) {
  const size_t nbytes = numelOf(dims) * elementSize(dtype);
  Storage storage = make_intrusive<StorageImpl>(DataPtr{data, nullptr, nullptr, kCPU}, nbytes);
  auto impl = make_intrusive<TensorImpl>(std::move(storage), dtype, kCPU);
  std::vector<int64_t> sizes(dims.begin(), dims.end());
  impl->set_sizes_and_strides(sizes, contiguousStrides(sizes), 0);
  return Tensor(std::move(impl));
}

namespace host_internal {
namespace {

// out[i] = f(in[i]) over float tensors of one size.
template <class F>
std::unique_ptr<HostKernel> map(const Tensor& in, const Tensor& out, F f) {
  return kernel([in, out, f] {
    const float* x = in.data_ptr<float>();
    float* y = out.data_ptr<float>();
    const int64_t n = in.numel();
    for (int64_t i = 0; i < n; ++i) y[i] = f(x[i]);
  });
}

std::unique_ptr<HostKernel> copy(const Tensor& in, const Tensor& out) {
  return kernel([in, out] {
    if (in.numel() != 0) std::memcpy(out.data_ptr<float>(), in.data_ptr<float>(), in.numel() * sizeof(float));
  });
}

Dims stridesOf(const Dims& dims) {
  Dims s(dims.size(), 1);
  for (size_t d = dims.size(); d-- > 1;) s[d - 1] = s[d] * dims[d];
  return s;
}

// Calls fn(in_offset, out_offset, length) for each row (last dimension) of `region`, a box of the
// same extents inside both tensors (element strides `is` and `os`), starting at `in_start` in the
// input and `out_start` in the output. Allocates nothing (every list is at most six long).
template <class Fn>
void forEachRow(const Dims& region, const Dims& is, const Dims& in_start, const Dims& os, const Dims& out_start, Fn fn) {
  const size_t rank = region.size();
  if (rank == 0) return fn(0, 0, 1);
  if (numelOf(region) == 0) return;
  Dims index(rank, 0);
  for (;;) {
    size_t io = 0, oo = 0;
    for (size_t d = 0; d < rank; ++d) io += (in_start[d] + index[d]) * is[d], oo += (out_start[d] + index[d]) * os[d];
    fn(io, oo, region[rank - 1]);
    size_t d = rank - 1;
    while (d-- > 0) {
      if (++index[d] < region[d]) break;
      index[d] = 0;
    }
    if (d == static_cast<size_t>(-1)) return;
  }
}

// out[i0, ..., ik] = in[i_perm^-1...]: each output element reads the input at the permuted index.
std::unique_ptr<HostKernel> transpose(const Tensor& x, const Tensor& y, const Dims& perm) {
  const Dims in_dims(x.sizes().begin(), x.sizes().end()), in_strides = stridesOf(in_dims);
  Dims out_dims(perm.size()), strides(perm.size());  // the input stride each output dimension steps by
  for (size_t d = 0; d < perm.size(); ++d) out_dims[d] = in_dims[perm[d]], strides[d] = in_strides[perm[d]];
  return kernel([x, y, out_dims, strides] {
    const float* src = x.data_ptr<float>();
    float* dst = y.data_ptr<float>();
    const size_t rank = out_dims.size(), n = numelOf(out_dims);
    if (n == 0) return;
    if (rank == 0) return void(dst[0] = src[0]);
    // Row by row of the output (its last dimension), each row a strided walk of the input.
    const size_t row = out_dims[rank - 1], step = strides[rank - 1];
    Dims index(rank, 0);
    size_t offset = 0;
    for (size_t i = 0; i < n; i += row) {
      const float* from = src + offset;
      float* to = dst + i;
      for (size_t j = 0; j < row; ++j) to[j] = from[j * step];
      for (size_t d = rank - 1; d-- > 0;) {
        if (++index[d] < out_dims[d]) {
          offset += strides[d];
          break;
        }
        offset -= (out_dims[d] - 1) * strides[d];
        index[d] = 0;
      }
    }
  });
}

Dims dimsOf(const Tensor& t) { return Dims(t.sizes().begin(), t.sizes().end()); }

}  // namespace

void clampToOutputRange(const XnnNode& n, const Tensor& t) {
  if (std::isinf(n.output_min) && n.output_min < 0 && std::isinf(n.output_max) && n.output_max > 0) return;
  float* y = t.data_ptr<float>();
  const float lo = n.output_min, hi = n.output_max;
  for (int64_t i = 0; i < t.numel(); ++i) y[i] = std::min(std::max(y[i], lo), hi);
}

std::unique_ptr<HostKernel> makeElementwiseKernel(const XnnNode& n, std::vector<Tensor>& in, std::vector<Tensor>& out) {
  const Tensor x = in[0];
  Tensor y = out[0];
  if (isBinaryElementwise(n.kind)) {
    const Tensor b = in[1];
    using BinaryOut = Tensor& (*)(Tensor&, const Tensor&, const Tensor&);
    BinaryOut op = nullptr;
    switch (n.kind) {
      case NodeKind::Add: return kernel([x, b, y, n]() mutable { ops::add_out(y, x, b), clampToOutputRange(n, y); });
      case NodeKind::Subtract: return kernel([x, b, y, n]() mutable { ops::sub_out(y, x, b), clampToOutputRange(n, y); });
      case NodeKind::Multiply: op = &ops::mul_out; break;
      case NodeKind::Div: op = &ops::div_out; break;
      case NodeKind::Minimum: op = &ops::minimum_out; break;
      default: op = &ops::maximum_out; break;
    }
    return kernel([x, b, y, n, op]() mutable { op(y, x, b), clampToOutputRange(n, y); });
  }
  using UnaryOut = Tensor& (*)(Tensor&, const Tensor&);
  UnaryOut unary = nullptr;
  switch (n.kind) {
    case NodeKind::Sigmoid: unary = &ops::sigmoid_out; break;
    case NodeKind::Abs: unary = &ops::abs_out; break;
    case NodeKind::Negate: unary = &ops::neg_out; break;
    case NodeKind::SquareRoot: unary = &ops::sqrt_out; break;
    case NodeKind::ReciprocalSquareRoot: unary = &ops::rsqrt_out; break;
    case NodeKind::Log: unary = &ops::log_out; break;
    case NodeKind::Exp: unary = &ops::exp_out; break;
    case NodeKind::Sin: unary = &ops::sin_out; break;
    case NodeKind::Cos: unary = &ops::cos_out; break;
    case NodeKind::Tanh: unary = &ops::tanh_out; break;
    case NodeKind::Gelu: return kernel([x, y]() mutable { ops::gelu_out(y, x, "none"); });
    case NodeKind::Softmax: return kernel([x, y]() mutable { ops::_softmax_out(y, x, -1, false); });
    case NodeKind::Floor: return map(x, y, [](float v) { return std::floor(v); });
    case NodeKind::Ceiling: return map(x, y, [](float v) { return std::ceil(v); });
    case NodeKind::Square: return map(x, y, [](float v) { return v * v; });
    case NodeKind::Hardswish: return map(x, y, [](float v) { return v * std::min(std::max(v + 3.0f, 0.0f), 6.0f) / 6.0f; });
    case NodeKind::ELU: {
      const float alpha = n.scalar;
      return map(x, y, [alpha](float v) { return v > 0 ? v : alpha * std::expm1(v); });
    }
    case NodeKind::LeakyReLU: {
      const float slope = n.scalar;
      return map(x, y, [slope](float v) { return v >= 0 ? v : v * slope; });
    }
    case NodeKind::Clamp: {
      const float lo = n.output_min, hi = n.output_max;
      return map(x, y, [lo, hi](float v) { return std::min(std::max(v, lo), hi); });
    }
    case NodeKind::Convert:  // the step converts datatypes; the values themselves are copied
    case NodeKind::Copy:
    case NodeKind::StaticReshape: return copy(x, y);
    case NodeKind::StaticTranspose: return transpose(x, y, n.list_a);
    case NodeKind::StaticSlice: {
      const Dims out_dims = dimsOf(y), is = stridesOf(dimsOf(x)), os = stridesOf(out_dims), offsets = n.list_a;
      const Dims zeros(out_dims.size(), 0);
      return kernel([x, y, out_dims, is, os, offsets, zeros] {
        const float* src = x.data_ptr<float>();
        float* dst = y.data_ptr<float>();
        forEachRow(out_dims, is, offsets, os, zeros, [&](size_t io, size_t oo, size_t len) {
          std::memcpy(dst + oo, src + io, len * sizeof(float));
        });
      });
    }
    case NodeKind::StaticConstantPad: {
      const Dims in_dims = dimsOf(x), is = stridesOf(in_dims), os = stridesOf(dimsOf(y)), pre = n.list_a;
      const Dims zeros(in_dims.size(), 0);
      const float value = n.scalar;
      return kernel([x, y, in_dims, is, os, pre, zeros, value] {
        const float* src = x.data_ptr<float>();
        float* dst = y.data_ptr<float>();
        std::fill(dst, dst + y.numel(), value);
        forEachRow(in_dims, is, zeros, os, pre, [&](size_t io, size_t oo, size_t len) {
          std::memcpy(dst + oo, src + io, len * sizeof(float));
        });
      });
    }
    case NodeKind::Concatenate2:
    case NodeKind::Concatenate3:
    case NodeKind::Concatenate4:
    case NodeKind::Concatenate5: {
      const std::vector<Tensor> parts = in;
      const int64_t axis = n.axis;
      return kernel([parts, y, axis]() mutable { ops::cat_out(y, parts, axis); });
    }
    default: return nullptr;
  }
  return kernel([x, y, unary]() mutable { unary(y, x); });
}

}  // namespace host_internal
}  // namespace sy::xnnpack
