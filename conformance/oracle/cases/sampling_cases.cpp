// Upsampling (upsample_nearest2d.vec, upsample_bilinear2d.vec, _upsample_bilinear2d_aa) and
// grid_sampler_2d (backends/devices/cpu/nn_ops.yaml, upsample.cpp, grid_sampler.cpp). PyTorch 1.13's
// CPU kernels take floating inputs only; nearest's other dtypes (a byte copy) are checked in
// tests/backends/devices/cpu/upsample_grid_sampler_test.cpp. The interpolating kernels take
// ExecuTorch's integral dtypes too, which the suite checks against its own reference: PyTorch's
// answer on Double copies, rounded to nearest (See Note [Interpolated integers are rounded to
// nearest] in backends/devices/cpu/nn_kernels.h).
#include <cmath>
#include <memory>

#include "switchyard/conformance/oracle/cases/cases.h"
#include "switchyard/conformance/oracle/cases/references.h"

namespace sy::oracle {

namespace {
const Dtypes kRealHBF16{ScalarType::Byte,  ScalarType::Char,   ScalarType::Short,    ScalarType::Int,
                        ScalarType::Long,  ScalarType::Half,   ScalarType::Float,    ScalarType::Double,
                        ScalarType::BFloat16};

// The range of an integral dtype, as doubles (Long's ends are the nearest doubles, which is all a
// reference computed in double can reach).
std::pair<double, double> integralRange(ScalarType dtype) {
  switch (dtype) {
    case ScalarType::Byte: return {0, 255};
    case ScalarType::Char: return {-128, 127};
    case ScalarType::Short: return {-32768, 32767};
    case ScalarType::Int: return {-2147483648.0, 2147483647.0};
    default: return {-9223372036854775808.0, 9223372036854774784.0};
  }
}

// PyTorch on Double copies of the integral tensors, its Double results rounded to nearest (ties to
// even), clamped to the dtype's range (bicubic sampling overshoots) and converted back to the first
// integral argument's dtype: the oracle's own reference. A sample that lands exactly halfway
// between two integers may round either way by an ulp of the two computations, hence
// withHalfwaySamples on the entries.
Deviation interpolatesIntegers(const char* tensor) {
  auto original = std::make_shared<ScalarType>(ScalarType::Undefined);
  return Deviation::computes(
      "PyTorch 1.13 interpolates floating tensors only; Switchyard takes ExecuTorch's integral dtypes, "
      "rounding each sample to nearest",
      whenDtype(tensor, dtypes::kEveryIntegral),
      throughPyTorch(
          [original](std::vector<IValue>& arguments) {
            *original = ScalarType::Undefined;
            for (IValue& a : arguments) {
              if (!a.isTensor() || !a.toTensor().defined() || !isIntegralType(a.toTensor().scalar_type(), false)) continue;
              if (*original == ScalarType::Undefined) *original = a.toTensor().scalar_type();
              a = convertedTo(a.toTensor(), ScalarType::Double);
            }
          },
          [original](const std::vector<IValue>&, std::vector<IValue>& results) {
            for (IValue& r : results) {
              if (!r.isTensor() || r.toTensor().scalar_type() != ScalarType::Double) continue;
              Tensor rounded = convertedTo(r.toTensor(), ScalarType::Double);
              double* v = rounded.data_ptr<double>();
              const auto [low, high] = integralRange(*original);
              for (int64_t i = 0; i < rounded.numel(); ++i) v[i] = std::min(std::max(std::nearbyint(v[i]), low), high);
              r = convertedTo(rounded, *original);
            }
          }));
}

// An integral result may be off by one where the sample is (within an ulp) halfway; the unit tests
// check the rounding itself (tests/backends/devices/cpu/narrow_dtype_kernels_test.cpp).
OpCase& withHalfwaySamples(OpCase& entry) {
  for (ScalarType dtype : dtypes::kEveryIntegral) entry.tolerance(dtype, 0, 1);
  return entry;
}

IValue samplingDoubles(std::vector<double> v) { return IValue(std::move(v)); }
// PyTorch 1.13's bilinear kernels also multiply zero weights into neighbouring pixels (its
// antialiased one over a padded window), so an infinity or NaN there turns into NaN, or stays, where
// Switchyard's single pass reads only the pixels a sample weighs; finite inputs agree.
const Deviation kBilinearEdgeValues = Deviation::skip(
    "PyTorch 1.13 multiplies zero weights into neighbouring infinities and NaNs; finite inputs are compared",
    whenEdgeValues());
// PyTorch 1.13 interpolates BFloat16 with BFloat16 weights and sums; Switchyard computes in float and
// rounds once, which is PyTorch's answer on Float copies.
const Deviation kBFloat16InFloat = Deviation::referenced(
    "PyTorch 1.13 interpolates BFloat16 in BFloat16; Switchyard computes in float and rounds once",
    whenDtype("input", {ScalarType::BFloat16}), computedVia({ScalarType::BFloat16}, ScalarType::Float, true));
// Its antialiased kernel also reads a window padded past the pixels a sample weighs (with weight 0),
// so for a strided input it multiplies the unused elements between rows too, NaN there included.
const Deviation kAntialiasedStrided = Deviation::skip(
    "PyTorch 1.13's antialiased kernel multiplies zero weights into memory past a strided row",
    [](const CallDescription& call) { return call.layout != "contiguous"; });
}  // namespace

void addSamplingCases(std::vector<OpCase>& cases) {
  const std::vector<ShapeSet> planes{{{1, 2, 3, 4}}, {{2, 1, 4, 4}}, {{0, 2, 3, 3}}, {{1, 1, 1, 1}}, {{1, 3, 5, 2}}};
  // Exactly one of output_size and scale_factors; the other combinations are refused on both sides.
  const std::vector<IValue> output_sizes{ints({6, 8}), ints({2, 3}), ints({5, 7}), kNone};
  const std::vector<IValue> scale_factors{kNone, samplingDoubles({2.0, 1.5}), samplingDoubles({0.5, 1.7})};
  cases.push_back(OpCase({"aten::upsample_nearest2d.vec", "aten::upsample_nearest2d.vec_out"})
                      .tensor("input")
                      .dtypes(dtypes::kEveryFloating)
                      .shapes(planes)
                      .arg("output_size", output_sizes)
                      .arg("scale_factors", scale_factors)
                      .product()
                      .out("out", OutDtype::caseDtype()));
  cases.push_back(withHalfwaySamples(OpCase({"aten::upsample_bilinear2d.vec", "aten::upsample_bilinear2d.vec_out"})
                      .tensor("input")
                      .dtypes(kRealHBF16)
                      .shapes(planes)
                      .arg("output_size", output_sizes)
                      .arg("align_corners", {false, true})
                      .arg("scale_factors", scale_factors)
                      .product()
                      .out("out", OutDtype::caseDtype())
                      .deviation(kBilinearEdgeValues)
                      .deviation(kBFloat16InFloat)
                      .deviation(interpolatesIntegers("input"))));
  // (A scales_h that moves samples past the input makes PyTorch 1.13 read out of bounds: not tried.)
  cases.push_back(withHalfwaySamples(OpCase({"aten::_upsample_bilinear2d_aa", "aten::_upsample_bilinear2d_aa.out"})
                      .tensor("self")
                      .dtypes(kRealHBF16)
                      .shapes({{{1, 2, 7, 9}}, {{2, 1, 4, 4}}, {{0, 2, 3, 3}}, {{1, 1, 1, 1}}, {{1, 3, 13, 5}}})
                      .arg("output_size", {ints({3, 4}), ints({8, 10}), ints({2, 2}), ints({1, 3})})
                      .arg("align_corners", {false, true})
                      .product()
                      .out("out", OutDtype::caseDtype())
                      .deviation(kBilinearEdgeValues)
                      .deviation(kAntialiasedStrided)
                      .deviation(interpolatesIntegers("self"))));
  // Grid locations a little beyond [-1, 1], so that every padding mode has work to do.
  Values grid_values = Values::any();
  grid_values.lo = -1.3;
  grid_values.hi = 1.3;
  grid_values.edges = false;
  cases.push_back(withHalfwaySamples(OpCase({"aten::grid_sampler_2d", "aten::grid_sampler_2d.out"})
                      .tensor("input")
                      .tensor("grid", grid_values)
                      .dtypes(kRealHBF16)
                      .shapes({{{1, 2, 3, 4}, {1, 5, 6, 2}},
                               {{2, 1, 4, 4}, {2, 3, 3, 2}},
                               {{0, 2, 3, 3}, {0, 2, 2, 2}},
                               {{1, 1, 1, 1}, {1, 2, 2, 2}},
                               {{1, 2, 3, 4}, {2, 2, 2, 2}}})
                      .arg("interpolation_mode", {0, 1, 2})
                      .arg("padding_mode", {0, 1, 2})
                      .arg("align_corners", {false, true})
                      .product()
                      .tolerance(ScalarType::Float, 1e-4, 1e-5)
                      .out("out", OutDtype::caseDtype())
                      .deviation(interpolatesIntegers("input"))));
}

}  // namespace sy::oracle
