// rand.out, randn.out and native_dropout.out (+ their functional forms) on the CPU: the operators
// that draw from the process's generator (ivalue/cpu_generator.h).
//
// Semantics (PyTorch 1.13's on the CPU, number for number after the same seed; See Note [The CPU
// generator draws as PyTorch's does]):
// - rand: uniform in [0, 1) per element, in order. Float, Double, Half and BFloat16 (ExecuTorch's
//   FLOATHBF16); the functional form's dtype defaults to Float.
// - randn: standard normal. A contiguous result of 16 elements or more is first filled with
//   uniforms, then turned into normals 16 at a time by Box-Muller (pairs i and i + 8 of each block;
//   the last block, when the count is not a multiple of 16, is the last 16 elements redrawn). Any
//   other result takes one Box-Muller pair of doubles per two elements, keeping the second sample
//   in the generator for the next draw, as PyTorch does. (PyTorch computes the 16-wide Float blocks
//   with AVX2 approximations of log, sin and cos; this file uses the C library's, so Float
//   normals agree with PyTorch's to within a few units in the last place, not bit for bit.)
// - native_dropout(input, p, train): in training (train None or true) each element is kept with
//   probability 1 - p (a uniform double below 1 - p), kept ones scaled by 1 / (1 - p) (by 0 when
//   p is 1); the second result is the Bool mask of kept elements. Not in training, the output is
//   a copy of input and the mask all true. p outside [0, 1] is an error. Floating inputs only.
// A result that is not contiguous is drawn into a contiguous buffer and copied in.
#include <cmath>
#include <cstdint>
#include <limits>
#include <tuple>
#include <type_traits>

#include "switchyard/backends/devices/cpu/elementwise.h"
#include "switchyard/core/element_traits.h"
#include "switchyard/ivalue/checked_size.h"
#include "switchyard/ivalue/cpu_generator.h"
#include "switchyard/ivalue/tensor_factories.h"
#include "switchyard/ops/creation/NativeFunctions.h"
#include "switchyard/ops/nn/NativeFunctions.h"

namespace sy::cpu {
namespace {

// rand, randn and native_dropout share their samplers, so their entries declare one set of dtypes.
constexpr unsigned kRandomDtypes = native::rand_out_cpu_dtypes;
static_assert(native::rand_cpu_dtypes == kRandomDtypes && native::randn_cpu_dtypes == kRandomDtypes &&
                  native::randn_out_cpu_dtypes == kRandomDtypes && native::native_dropout_out_cpu_dtypes == kRandomDtypes,
              "rand, randn and native_dropout declare the same dtypes: in creation_ops.yaml and nn_ops.yaml");
constexpr double kPi = 3.14159265358979323846;

// The significand bits PyTorch's uniform sampler keeps for each dtype.
template <class T>
constexpr int kUniformBits = std::is_same_v<T, double>  ? 53
                             : std::is_same_v<T, float> ? 24
                             : std::is_same_v<T, Half>  ? 11
                                                        : 8;  // BFloat16

// One uniform sample in [0, 1) as PyTorch's uniform_real_distribution<T> draws it.
template <class T>
T uniformSample(CpuGenerator::Draw& draw) {
  if constexpr (std::is_same_v<T, double>) {
    constexpr uint64_t kMask = (uint64_t{1} << 53) - 1;
    return static_cast<double>(draw.random64() & kMask) * (1.0 / static_cast<double>(uint64_t{1} << 53));
  } else {
    constexpr uint32_t kMask = (uint32_t{1} << kUniformBits<T>) - 1;
    const float x = static_cast<float>(draw.random() & kMask) * (1.0f / static_cast<float>(uint32_t{1} << kUniformBits<T>));
    return static_cast<T>(x);
  }
}

// One standard normal sample as PyTorch's normal_distribution<double> draws it (a Box-Muller pair
// whose second sample waits in the generator).
double normalSample(CpuGenerator::Draw& draw) {
  if (const std::optional<double> kept = draw.takeNormalSample()) return *kept;
  const double u1 = uniformSample<double>(draw);
  const double u2 = uniformSample<double>(draw);
  const double radius = std::sqrt(-2.0 * std::log(1.0 - u2));
  const double theta = 2.0 * kPi * u1;
  draw.keepNormalSample(radius * std::sin(theta));
  return radius * std::cos(theta);
}

// Turns 16 uniforms into 16 normals in place, rounding where PyTorch's normal_fill_16 does.
template <class T>
void normalBlockOf16(T* data) {
  using A = compute_type_t<T>;
  for (int j = 0; j < 8; ++j) {
    const T u1 = static_cast<T>(A(1) - static_cast<A>(data[j]));  // (0, 1] for the log
    const T u2 = data[j + 8];
    const T radius = static_cast<T>(std::sqrt(A(-2) * std::log(static_cast<A>(u1))));
    const T theta = static_cast<T>(2.0f * kPi * static_cast<double>(static_cast<A>(u2)));
    data[j] = static_cast<T>(static_cast<A>(radius) * std::cos(static_cast<A>(theta)));
    data[j + 8] = static_cast<T>(static_cast<A>(radius) * std::sin(static_cast<A>(theta)));
  }
}

template <class T>
void fillUniform(T* data, int64_t n, CpuGenerator::Draw& draw) {
  for (int64_t i = 0; i < n; ++i) data[i] = uniformSample<T>(draw);
}

template <class T>
void fillNormal(T* data, int64_t n, CpuGenerator::Draw& draw) {
  if (n < 16) {
    for (int64_t i = 0; i < n; ++i) data[i] = static_cast<T>(normalSample(draw));
    return;
  }
  fillUniform(data, n, draw);
  for (int64_t i = 0; i + 16 <= n; i += 16) normalBlockOf16(data + i);
  if (n % 16 != 0) {
    fillUniform(data + n - 16, 16, draw);
    normalBlockOf16(data + n - 16);
  }
}

enum class Distribution { kUniform, kNormal };

// Shapes `out` to `size` and fills it from the process's generator.
Tensor& drawInto(const char* op, IntArrayRef size, Distribution distribution, Tensor& out) {
  checkOnCPU(op, "out", out);
  checkedNumel(op, size);
  checkDtypeSupported(op, "out", out.scalar_type(), kRandomDtypes);
  resizeOutput(out, size);
  checkNoInternalOverlap(op, out, "out");
  if (out.numel() == 0) return out;
  const bool direct = out.is_contiguous();
  Tensor target = direct ? out : sy::empty(size, out.scalar_type());
  dispatchDtype<kRandomDtypes>(out.scalar_type(), op, "out", [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* data = static_cast<T*>(target.data_ptr());
    CpuGenerator::Draw draw(defaultCpuGenerator());
    // PyTorch's block path needs a contiguous result; a strided one draws element by element.
    if (distribution == Distribution::kUniform) {
      fillUniform(data, target.numel(), draw);
    } else if (direct) {
      fillNormal(data, target.numel(), draw);
    } else {
      for (int64_t i = 0; i < target.numel(); ++i) data[i] = static_cast<T>(normalSample(draw));
    }
  });
  if (!direct) copyIntoCPU(op, out, target, "out", "out");
  return out;
}

Tensor drawn(const char* op, IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
             std::optional<Device> device, Distribution distribution) {
  SY_CHECK(!layout.has_value() || *layout == Layout::Strided, op, ": only the Strided layout is supported");
  SY_CHECK(!device.has_value() || device->is_cpu(), op, ": this kernel draws on the CPU; got device ", *device);
  checkedNumel(op, size);
  Tensor out = sy::empty(size, dtype.value_or(ScalarType::Float));
  drawInto(op, size, distribution, out);
  return out;
}

}  // namespace

namespace native {

Tensor& rand_out_cpu(IntArrayRef size, Tensor& out, const KernelContext& ctx) {
  return drawInto(ctx.op, size, Distribution::kUniform, out);
}
Tensor rand_cpu(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                std::optional<Device> device, std::optional<bool> pin_memory, const KernelContext& ctx) {
  return drawn(ctx.op, size, dtype, layout, device, Distribution::kUniform);
}
Tensor& randn_out_cpu(IntArrayRef size, Tensor& out, const KernelContext& ctx) {
  return drawInto(ctx.op, size, Distribution::kNormal, out);
}
Tensor randn_cpu(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                 std::optional<Device> device, std::optional<bool> pin_memory, const KernelContext& ctx) {
  return drawn(ctx.op, size, dtype, layout, device, Distribution::kNormal);
}

std::tuple<Tensor&, Tensor&> native_dropout_out_cpu(const Tensor& input, double p, std::optional<bool> train,
                                                    Tensor& out0, Tensor& out1, const KernelContext& ctx) {
  const char* op = ctx.op;
  checkOnCPU(op, "input", input);
  checkDtypeSupported(op, "input", input.scalar_type(), kRandomDtypes);
  SY_CHECK_VALUE(p >= 0 && p <= 1, op, ": dropout probability has to be between 0 and 1, but got ", p);
  if (ctx.form == OutputForm::Functional) {
    out0 = sy::empty(input.sizes(), input.scalar_type());
    out1 = sy::empty(input.sizes(), ScalarType::Bool);
  }
  checkOnCPU(op, "out0", out0);
  checkOnCPU(op, "out1", out1);
  SY_CHECK(out0.scalar_type() == input.scalar_type(), op, ": expected 'out0' to have the dtype of 'input' (",
           input.scalar_type(), ") but got ", out0.scalar_type());
  SY_CHECK(out1.scalar_type() == ScalarType::Bool, op, ": expected 'out1' (the mask) to be Bool but got ",
           out1.scalar_type());
  // Read input through a contiguous copy when an out= aliases it, or when it is strided.
  const Tensor source = input.is_contiguous() && !sameMemory(out0, input) && !sameMemory(out1, input)
                            ? input
                            : input.contiguous();
  for (Tensor* out : {&out0, &out1}) {
    resizeOutput(*out, input.sizes());
    checkNoInternalOverlap(op, *out, out == &out0 ? "out0" : "out1");
  }
  const int64_t n = source.numel();
  if (n == 0) return {out0, out1};
  const bool training = !train.has_value() || *train;
  const double keep = 1.0 - p;
  const double scale = keep == 0 ? 0.0 : 1.0 / keep;
  Tensor values = out0.is_contiguous() ? out0 : sy::empty(input.sizes(), input.scalar_type());
  Tensor mask = out1.is_contiguous() ? out1 : sy::empty(input.sizes(), ScalarType::Bool);
  bool* kept = static_cast<bool*>(mask.data_ptr());
  if (training) {
    CpuGenerator::Draw draw(defaultCpuGenerator());
    for (int64_t i = 0; i < n; ++i) kept[i] = uniformSample<double>(draw) < keep;
  } else {
    for (int64_t i = 0; i < n; ++i) kept[i] = true;
  }
  dispatchDtype<kRandomDtypes>(input.scalar_type(), op, "input", [&](auto tag) {
    using T = typename decltype(tag)::type;
    using A = compute_type_t<T>;
    const T* x = static_cast<const T*>(source.data_ptr());
    T* y = static_cast<T*>(values.data_ptr());
    if (!training) {
      for (int64_t i = 0; i < n; ++i) y[i] = x[i];
      return;
    }
    // input * mask, then * scale, each rounded to the dtype, as PyTorch's input.mul(mask).mul_(scale).
    const A factor = static_cast<A>(scale);
    for (int64_t i = 0; i < n; ++i) {
      const T masked = kept[i] ? x[i] : static_cast<T>(A(0) * static_cast<A>(x[i]));
      y[i] = static_cast<T>(static_cast<A>(masked) * factor);
    }
  });
  if (!values.is_same(out0)) copyIntoCPU(op, out0, values, "out0", "out0");
  if (!mask.is_same(out1)) copyIntoCPU(op, out1, mask, "out1", "out1");
  return {out0, out1};
}

}  // namespace native
}  // namespace sy::cpu
