// Batch normalisation on the CPU, for the floating dtypes: PyTorch 2's _native_batch_norm_legit
// family, which exported programs call (_native_batch_norm_legit_no_training for a model in eval
// mode, _native_batch_norm_legit in training mode, .no_stats without running statistics).
//
// Semantics, as PyTorch's native_batch_norm: `input` is (N, C, ...) with at least two dimensions;
// weight, bias, running_mean and running_var are optional 1-D tensors of C elements of input's
// dtype. Per channel c, with mean m and inverse standard deviation s = 1 / sqrt(var + eps),
// out = (x - m) * s * weight[c] + bias[c]. In evaluation mode m and var are the running
// statistics, and save_mean / save_invstd come back empty (size [0]). In training mode they are
// the batch's: m its mean over every dimension but 1, var its biased variance; save_mean and
// save_invstd (C elements) return m and s, and when running statistics are given they are
// updated in place as running = (1 - momentum) * running + momentum * batch_statistic, the
// variance unbiased (divided by count - 1) there.
//
// The statistics accumulate in double; each channel's planes are read twice for its statistics
// and once for the output. The per-channel tensors are read through their stride, so no copy is
// made of them.
#include <cmath>
#include <optional>
#include <tuple>

#include "switchyard/backends/devices/cpu/nn_kernels.h"
#include "switchyard/dispatcher/library.h"
#include "switchyard/ops/creation_ops.h"
#include "switchyard/ops/nn_ops.h"

namespace sy::cpu {
namespace {

// The _native_batch_norm_legit forms share one routine, so they declare one set of dtypes.
constexpr unsigned kBatchNormDtypes = native::_native_batch_norm_legit_no_training_out_cpu_dtypes;
static_assert(native::_native_batch_norm_legit_cpu_dtypes == kBatchNormDtypes &&
                  native::_native_batch_norm_legit_out_cpu_dtypes == kBatchNormDtypes &&
                  native::_native_batch_norm_legit_no_stats_out_cpu_dtypes == kBatchNormDtypes,
              "the _native_batch_norm_legit forms declare the same dtypes: in nn_ops.yaml");

using nn_detail::presentTensor;

struct BatchNormShape {
  int64_t batch = 0, channels = 0, inner = 1;  // input is batch x channels x inner, row-major
};

// The optional per-channel tensors of one call.
struct BatchNormParams {
  const Tensor* weight = nullptr;
  const Tensor* bias = nullptr;
  const Tensor* running_mean = nullptr;
  const Tensor* running_var = nullptr;
};

void checkBatchNormChannelTensor(const char* op, const char* argument, const Tensor* t, int64_t channels,
                                 ScalarType dtype) {
  if (t == nullptr) return;
  checkOnCPU(op, argument, *t);
  SY_CHECK(t->dim() == 1 && t->size(0) == channels, op, ": expected '", argument, "' to be a 1-D tensor of ",
           channels, " elements (the channels of 'input') but got size ", formatSizes(t->sizes()));
  SY_CHECK(t->scalar_type() == dtype, op, ": expected '", argument, "' to have the same dtype as 'input' (", dtype,
           ") but got ", t->scalar_type());
}

BatchNormShape checkBatchNorm(const char* op, const Tensor& input, const BatchNormParams& p) {
  checkOnCPU(op, "input", input);
  SY_CHECK(input.dim() >= 2, op, ": expected 'input' to have at least 2 dimensions (N, C, ...) but got a ",
           input.dim(), "-D tensor");
  SY_CHECK(isFloatingType(input.scalar_type()), op,
           ": expected 'input' to have a floating dtype (Half, Float, Double or BFloat16) but got ", input.scalar_type());
  BatchNormShape shape;
  shape.batch = input.size(0);
  shape.channels = input.size(1);
  for (int64_t d = 2; d < input.dim(); ++d) shape.inner *= input.size(d);  // a factor of numel: no overflow
  const ScalarType dtype = input.scalar_type();
  checkBatchNormChannelTensor(op, "weight", p.weight, shape.channels, dtype);
  checkBatchNormChannelTensor(op, "bias", p.bias, shape.channels, dtype);
  checkBatchNormChannelTensor(op, "running_mean", p.running_mean, shape.channels, dtype);
  checkBatchNormChannelTensor(op, "running_var", p.running_var, shape.channels, dtype);
  return shape;
}

// Element c of a 1-D tensor, through its stride (nullptr: absent).
template <class T>
struct BatchNormChannelVector {
  T* data = nullptr;
  int64_t stride = 0;
  explicit BatchNormChannelVector(const Tensor* t)
      : data(t != nullptr ? static_cast<T*>(t->data_ptr()) : nullptr), stride(t != nullptr ? t->stride(0) : 0) {}
  bool present() const { return data != nullptr; }
  T& operator[](int64_t c) const { return data[c * stride]; }
};

template <class T>
void batchNormChannels(const BatchNormShape& s, const T* x, const BatchNormParams& p, bool training, double momentum,
                       double eps, T* y, const Tensor* save_mean, const Tensor* save_invstd) {
  const BatchNormChannelVector<T> weight(p.weight), bias(p.bias), running_mean(p.running_mean), running_var(p.running_var);
  const BatchNormChannelVector<T> saved_mean(save_mean), saved_invstd(save_invstd);
  const int64_t plane_step = s.channels * s.inner;
  const double count = static_cast<double>(s.batch) * static_cast<double>(s.inner);
  for (int64_t c = 0; c < s.channels; ++c) {
    double mean = 0, invstd = 0;
    if (training) {
      double sum = 0;
      for (int64_t n = 0; n < s.batch; ++n) {
        const T* plane = x + n * plane_step + c * s.inner;
        for (int64_t i = 0; i < s.inner; ++i) sum += static_cast<double>(plane[i]);
      }
      mean = sum / count;
      double squares = 0;
      for (int64_t n = 0; n < s.batch; ++n) {
        const T* plane = x + n * plane_step + c * s.inner;
        for (int64_t i = 0; i < s.inner; ++i) {
          const double d = static_cast<double>(plane[i]) - mean;
          squares += d * d;
        }
      }
      invstd = 1.0 / std::sqrt(squares / count + eps);
      saved_mean[c] = static_cast<T>(mean);
      saved_invstd[c] = static_cast<T>(invstd);
      if (running_mean.present()) {
        running_mean[c] = static_cast<T>((1 - momentum) * static_cast<double>(running_mean[c]) + momentum * mean);
      }
      if (running_var.present()) {
        const double unbiased = squares / (count - 1);
        running_var[c] = static_cast<T>((1 - momentum) * static_cast<double>(running_var[c]) + momentum * unbiased);
      }
    } else {
      mean = static_cast<double>(running_mean[c]);
      invstd = 1.0 / std::sqrt(static_cast<double>(running_var[c]) + eps);
    }
    // y = x * alpha + beta, PyTorch's form of (x - mean) * invstd * weight + bias.
    const double alpha = invstd * (weight.present() ? static_cast<double>(weight[c]) : 1.0);
    const double beta = (bias.present() ? static_cast<double>(bias[c]) : 0.0) - mean * alpha;
    for (int64_t n = 0; n < s.batch; ++n) {
      const T* __restrict in = x + n * plane_step + c * s.inner;
      T* __restrict out = y + n * plane_step + c * s.inner;
      for (int64_t i = 0; i < s.inner; ++i) out[i] = static_cast<T>(static_cast<double>(in[i]) * alpha + beta);
    }
  }
}

// Checks, shapes (or allocates, for the functional forms) the three results and computes them.
// `names` are the out arguments' names in the operator's schema.
std::tuple<Tensor&, Tensor&, Tensor&> batchNormInto(const char* op, OutputForm form, const Tensor& input,
                                                    const BatchNormParams& p, bool training, double momentum,
                                                    double eps, Tensor& out, Tensor& save_mean, Tensor& save_invstd,
                                                    const char* const (&names)[3]) {
  const BatchNormShape shape = checkBatchNorm(op, input, p);
  SY_CHECK(training || (p.running_mean != nullptr && p.running_var != nullptr), op,
           ": evaluation mode (training=False) normalises with the running statistics, but 'running_mean' or "
           "'running_var' is None");
  const ScalarType dtype = input.scalar_type();
  const int64_t stats_size = training ? shape.channels : 0;
  Tensor* outs[] = {&out, &save_mean, &save_invstd};
  if (form == OutputForm::Functional) {
    const TensorOptions options = TensorOptions(dtype).device(kCPU);
    out = ops::empty(input.sizes(), options);
    save_mean = ops::empty({stats_size}, options);
    save_invstd = ops::empty({stats_size}, options);
  } else {
    for (int k = 0; k < 3; ++k) {
      checkOnCPU(op, names[k], *outs[k]);
      checkCanCastToOutput(op, dtype, *outs[k]);
    }
    resizeOutput(out, input.sizes());
    resizeOutput(save_mean, {stats_size});
    resizeOutput(save_invstd, {stats_size});
    for (int k = 0; k < 3; ++k) checkNoInternalOverlap(op, *outs[k], names[k]);
  }
  // The statistics are written directly when they have input's dtype (through their stride), else
  // into a temporary converted into them after.
  const Tensor mean_target = save_mean.scalar_type() == dtype ? save_mean : scratchTensor(op, {stats_size}, dtype);
  const Tensor invstd_target = save_invstd.scalar_type() == dtype ? save_invstd : scratchTensor(op, {stats_size}, dtype);
  const Tensor dense_input = nn_detail::contiguousCopyIfNeeded(op, "input", input);
  nn_detail::computeIntoDenseOutput(
      op, out, dtype, {&input, p.weight, p.bias, p.running_mean, p.running_var}, [&](const Tensor& dst) {
        dispatchDtype<kBatchNormDtypes>(dtype, op, "input", [&](auto tag) {
          using T = typename decltype(tag)::type;
          batchNormChannels<T>(shape, static_cast<const T*>(dense_input.data_ptr()), p, training, momentum, eps,
                               static_cast<T*>(dst.data_ptr()), &mean_target, &invstd_target);
        });
      });
  if (!mean_target.is_same(save_mean)) copyIntoCPU(op, save_mean, mean_target, names[1], "mean");
  if (!invstd_target.is_same(save_invstd)) copyIntoCPU(op, save_invstd, invstd_target, names[2], "invstd");
  return {out, save_mean, save_invstd};
}

constexpr const char* kBatchNormOutNames[3] = {"out", "save_mean", "save_invstd"};
constexpr const char* kBatchNormNoTrainingOutNames[3] = {"out0", "out1", "out2"};

}  // namespace

// The kernels backends/devices/cpu/nn_ops.yaml binds (declared by the generated switchyard/ops/nn/NativeFunctions.h).
namespace native {

std::tuple<Tensor&, Tensor&, Tensor&> _native_batch_norm_legit_no_training_out_cpu(
    const Tensor& input, const std::optional<Tensor>& weight, const std::optional<Tensor>& bias,
    const Tensor& running_mean, const Tensor& running_var, double momentum, double eps, Tensor& out0, Tensor& out1,
    Tensor& out2, const KernelContext& ctx) {
  const BatchNormParams p{presentTensor(weight), presentTensor(bias), &running_mean, &running_var};
  return batchNormInto(ctx.op, ctx.form, input, p, /*training=*/false, momentum, eps, out0, out1, out2,
                       kBatchNormNoTrainingOutNames);
}

std::tuple<Tensor&, Tensor&, Tensor&> _native_batch_norm_legit_out_cpu(
    const Tensor& input, const std::optional<Tensor>& weight, const std::optional<Tensor>& bias,
    Tensor& running_mean, Tensor& running_var, bool training, double momentum, double eps, Tensor& out,
    Tensor& save_mean, Tensor& save_invstd, const KernelContext& ctx) {
  const BatchNormParams p{presentTensor(weight), presentTensor(bias), &running_mean, &running_var};
  return batchNormInto(ctx.op, ctx.form, input, p, training, momentum, eps, out, save_mean, save_invstd,
                       kBatchNormOutNames);
}

std::tuple<Tensor, Tensor, Tensor> _native_batch_norm_legit_cpu(const Tensor& input,
                                                                const std::optional<Tensor>& weight,
                                                                const std::optional<Tensor>& bias,
                                                                Tensor& running_mean, Tensor& running_var,
                                                                bool training, double momentum, double eps,
                                                                const KernelContext& ctx) {
  const BatchNormParams p{presentTensor(weight), presentTensor(bias), &running_mean, &running_var};
  Tensor out, save_mean, save_invstd;
  batchNormInto(ctx.op, OutputForm::Functional, input, p, training, momentum, eps, out, save_mean, save_invstd,
                kBatchNormOutNames);
  return {out, save_mean, save_invstd};
}

std::tuple<Tensor&, Tensor&, Tensor&> _native_batch_norm_legit_no_stats_out_cpu(
    const Tensor& input, const std::optional<Tensor>& weight, const std::optional<Tensor>& bias, bool training,
    double momentum, double eps, Tensor& out, Tensor& save_mean, Tensor& save_invstd, const KernelContext& ctx) {
  const BatchNormParams p{presentTensor(weight), presentTensor(bias), nullptr, nullptr};
  return batchNormInto(ctx.op, ctx.form, input, p, training, momentum, eps, out, save_mean, save_invstd,
                       kBatchNormOutNames);
}

}  // namespace native
}  // namespace sy::cpu
