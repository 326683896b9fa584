// Upsampling (upsample_nearest2d.vec, upsample_bilinear2d.vec, _upsample_bilinear2d_aa) and
// grid_sampler_2d (backends/devices/cpu/nn_ops.yaml, upsample.cpp, grid_sampler.cpp). PyTorch 1.13's
// CPU kernels take floating inputs only; nearest's other dtypes (a byte copy) are checked in
// tests/backends/devices/cpu/upsample_grid_sampler_test.cpp.
#include "switchyard/conformance/oracle/cases/cases.h"

namespace sy::oracle {

namespace {
IValue samplingDoubles(std::vector<double> v) { return IValue(std::move(v)); }
// PyTorch 1.13's bilinear kernels also multiply zero weights into neighbouring pixels (its
// antialiased one over a padded window), so an infinity or NaN there turns into NaN, or stays, where
// Switchyard's single pass reads only the pixels a sample weighs; finite inputs agree.
const Deviation kBilinearEdgeValues = Deviation::skip(
    "PyTorch 1.13 multiplies zero weights into neighbouring infinities and NaNs; finite inputs are compared",
    whenEdgeValues());
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
  cases.push_back(OpCase({"aten::upsample_bilinear2d.vec", "aten::upsample_bilinear2d.vec_out"})
                      .tensor("input")
                      .dtypes(dtypes::kFloating)
                      .shapes(planes)
                      .arg("output_size", output_sizes)
                      .arg("align_corners", {false, true})
                      .arg("scale_factors", scale_factors)
                      .product()
                      .out("out", OutDtype::caseDtype())
                      .deviation(kBilinearEdgeValues));
  // (A scales_h that moves samples past the input makes PyTorch 1.13 read out of bounds: not tried.)
  cases.push_back(OpCase({"aten::_upsample_bilinear2d_aa", "aten::_upsample_bilinear2d_aa.out"})
                      .tensor("self")
                      .dtypes(dtypes::kFloating)
                      .shapes({{{1, 2, 7, 9}}, {{2, 1, 4, 4}}, {{0, 2, 3, 3}}, {{1, 1, 1, 1}}, {{1, 3, 13, 5}}})
                      .arg("output_size", {ints({3, 4}), ints({8, 10}), ints({2, 2}), ints({1, 3})})
                      .arg("align_corners", {false, true})
                      .product()
                      .out("out", OutDtype::caseDtype())
                      .deviation(kBilinearEdgeValues)
                      .deviation(kAntialiasedStrided));
  // Grid locations a little beyond [-1, 1], so that every padding mode has work to do.
  Values grid_values = Values::any();
  grid_values.lo = -1.3;
  grid_values.hi = 1.3;
  grid_values.edges = false;
  cases.push_back(OpCase({"aten::grid_sampler_2d", "aten::grid_sampler_2d.out"})
                      .tensor("input")
                      .tensor("grid", grid_values)
                      .dtypes(dtypes::kFloating)
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
                      .out("out", OutDtype::caseDtype()));
}

}  // namespace sy::oracle
