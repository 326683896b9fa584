// aten::native_group_norm and aten::native_group_norm.out on the CPU, for the floating dtypes.
//
// Semantics, as PyTorch's: `input` holds N x C x HxW elements (its own shape is kept: (N, C, ...)
// or anything of that many elements, as PyTorch only checks the count); its C channels form
// `group` groups of C / group consecutive channels. Each (sample, group) block of
// C / group * HxW consecutive elements is normalised as (x - mean) * rstd, with
// rstd = 1 / sqrt(biased variance + eps), then scaled by weight[c] and shifted by bias[c] (each
// optional, C elements, input's dtype). Results: the normalised tensor (input's shape), and the
// means and rstds, each (N, group). The statistics accumulate in double.
#include <cmath>
#include <optional>
#include <tuple>

#include "switchyard/backends/devices/cpu/nn_kernels.h"
#include "switchyard/dispatcher/library.h"
#include "switchyard/ivalue/checked_size.h"
#include "switchyard/ops/creation_ops.h"
#include "switchyard/ops/nn_ops.h"

namespace sy::cpu {
namespace {

using nn_detail::presentTensor;

struct GroupNormShape {
  int64_t batch = 0, channels = 0, inner = 0, groups = 1;
  int64_t channelsPerGroup() const { return channels / groups; }
};

void checkGroupNormAffine(const char* op, const char* argument, const Tensor* t, int64_t channels, ScalarType dtype) {
  if (t == nullptr) return;
  checkOnCPU(op, argument, *t);
  SY_CHECK(t->dim() == 1 && t->size(0) == channels, op, ": expected '", argument, "' to be a 1-D tensor of C = ",
           channels, " elements but got size ", formatSizes(t->sizes()));
  SY_CHECK(t->scalar_type() == dtype, op, ": expected '", argument, "' to have the same dtype as 'input' (", dtype,
           ") but got ", t->scalar_type());
}

GroupNormShape checkGroupNorm(const char* op, const Tensor& input, const Tensor* weight, const Tensor* bias,
                              int64_t n, int64_t c, int64_t hxw, int64_t group) {
  checkOnCPU(op, "input", input);
  SY_CHECK(isFloatingType(input.scalar_type()), op,
           ": expected 'input' to have a floating dtype (Half, Float, Double or BFloat16) but got ", input.scalar_type());
  SY_CHECK(n >= 0 && c >= 0 && hxw >= 0, op, ": expected N, C and HxW to be non-negative but got ", n, ", ", c,
           " and ", hxw);
  SY_CHECK(group > 0, op, ": expected 'group' to be positive but got ", group);
  SY_CHECK(c % group == 0, op, ": expected the channels C (", c, ") to be divisible by 'group' (", group, ")");
  int64_t count = 0;
  SY_CHECK(checkedMul(n, c, &count) && checkedMul(count, hxw, &count) && count == input.numel(), op,
           ": expected 'input' to have N * C * HxW = ", n, " * ", c, " * ", hxw, " elements but it has ",
           input.numel(), " (size ", formatSizes(input.sizes()), ")");
  checkGroupNormAffine(op, "weight", weight, c, input.scalar_type());
  checkGroupNormAffine(op, "bias", bias, c, input.scalar_type());
  return {n, c, hxw, group};
}

template <class T>
void groupNormBlocks(const GroupNormShape& s, const T* x, const T* weight, const T* bias, double eps, T* y,
                     T* means, T* rstds) {
  const int64_t per_group = s.channelsPerGroup();
  const int64_t block = per_group * s.inner;
  for (int64_t n = 0; n < s.batch; ++n) {
    for (int64_t g = 0; g < s.groups; ++g) {
      const int64_t index = n * s.groups + g;
      const T* __restrict in = x + index * block;
      double sum = 0;
      for (int64_t i = 0; i < block; ++i) sum += static_cast<double>(in[i]);
      const double mean = sum / static_cast<double>(block);
      double squares = 0;
      for (int64_t i = 0; i < block; ++i) {
        const double d = static_cast<double>(in[i]) - mean;
        squares += d * d;
      }
      const double rstd = 1.0 / std::sqrt(squares / static_cast<double>(block) + eps);
      means[index] = static_cast<T>(mean);
      rstds[index] = static_cast<T>(rstd);
      T* __restrict out = y + index * block;
      for (int64_t k = 0; k < per_group; ++k) {
        const int64_t channel = g * per_group + k;
        const double alpha = rstd * (weight != nullptr ? static_cast<double>(weight[channel]) : 1.0);
        const double beta = (bias != nullptr ? static_cast<double>(bias[channel]) : 0.0) - mean * alpha;
        for (int64_t i = k * s.inner; i < (k + 1) * s.inner; ++i) {
          out[i] = static_cast<T>(static_cast<double>(in[i]) * alpha + beta);
        }
      }
    }
  }
}

void runGroupNorm(const char* op, const GroupNormShape& shape, const Tensor& input, const Tensor* weight,
                  const Tensor* bias, double eps, const Tensor& out0, const Tensor& out1, const Tensor& out2) {
  const ScalarType dtype = input.scalar_type();
  const Tensor dense_input = nn_detail::contiguousCopyIfNeeded(op, "input", input);
  const Tensor dense_weight = weight != nullptr ? nn_detail::contiguousCopyIfNeeded(op, "weight", *weight) : Tensor();
  const Tensor dense_bias = bias != nullptr ? nn_detail::contiguousCopyIfNeeded(op, "bias", *bias) : Tensor();
  auto writable = [&](const Tensor& out) {
    bool direct = out.scalar_type() == dtype && out.is_contiguous();
    for (const Tensor* in : {&input, weight, bias}) direct = direct && (in == nullptr || !sameMemory(out, *in));
    return direct ? out : scratchTensor(op, out.sizes(), dtype);
  };
  const Tensor y = writable(out0), means = writable(out1), rstds = writable(out2);
  dispatchDtype<native::native_group_norm_out_cpu_dtypes>(dtype, op, "input", [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto data = [](const Tensor& t) { return t.defined() ? static_cast<T*>(t.data_ptr()) : nullptr; };
    groupNormBlocks<T>(shape, data(dense_input), data(dense_weight), data(dense_bias), eps, data(y), data(means),
                       data(rstds));
  });
  if (!y.is_same(out0)) copyIntoCPU(op, out0, y, "out0", "result");
  if (!means.is_same(out1)) copyIntoCPU(op, out1, means, "out1", "mean");
  if (!rstds.is_same(out2)) copyIntoCPU(op, out2, rstds, "out2", "rstd");
}

}  // namespace

// The kernels backends/devices/cpu/nn_ops.yaml binds (declared by the generated switchyard/ops/nn/NativeFunctions.h).
namespace native {

std::tuple<Tensor&, Tensor&, Tensor&> native_group_norm_out_cpu(const Tensor& input,
                                                                const std::optional<Tensor>& weight,
                                                                const std::optional<Tensor>& bias, int64_t N,
                                                                int64_t C, int64_t HxW, int64_t group, double eps,
                                                                Tensor& out0, Tensor& out1, Tensor& out2,
                                                                const KernelContext& ctx) {
  const char* op = ctx.op;
  const Tensor* weight_tensor = presentTensor(weight);
  const Tensor* bias_tensor = presentTensor(bias);
  const GroupNormShape shape = checkGroupNorm(op, input, weight_tensor, bias_tensor, N, C, HxW, group);
  const int64_t stats_sizes[] = {N, group};
  if (ctx.form == OutputForm::Functional) {
    const TensorOptions options = TensorOptions(input.scalar_type()).device(kCPU);
    out0 = ops::empty(input.sizes(), options);
    out1 = ops::empty(stats_sizes, options);
    out2 = ops::empty(stats_sizes, options);
  } else {
    const char* names[] = {"out0", "out1", "out2"};
    const Tensor* outs[] = {&out0, &out1, &out2};
    for (int k = 0; k < 3; ++k) {
      checkOnCPU(op, names[k], *outs[k]);
      checkCanCastToOutput(op, input.scalar_type(), *outs[k]);
    }
    resizeOutput(out0, input.sizes());
    resizeOutput(out1, stats_sizes);
    resizeOutput(out2, stats_sizes);
    for (int k = 0; k < 3; ++k) checkNoInternalOverlap(op, *outs[k], names[k]);
  }
  runGroupNorm(op, shape, input, weight_tensor, bias_tensor, eps, out0, out1, out2);
  return {out0, out1, out2};
}

}  // namespace native
}  // namespace sy::cpu
