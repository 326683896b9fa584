// ConvNdGeometry: the shape of an N-d convolution (1, 2 or 3 spatial dimensions, transposed or
// not) as aten::convolution's arguments give it, checked once for the forward kernel
// (convolution_nd.cpp) and the backward one (convolution_backward.cpp).
//
//   const ConvNdGeometry g = checkConvolutionNd(op, input, weight, &bias, stride, padding, dilation,
//                                               /*transposed=*/false, output_padding, groups);
//   out = sy::empty(g.outputSizes(), input.scalar_type());
//
// Every extent is checked against 64-bit overflow: the arguments come from a program or a model.
// The spatial extents are padded in front to three (size 1, stride 1, padding 0, dilation 1), so
// loops over three dimensions serve every rank.
#pragma once

#include <array>
#include <cstdint>

#include "switchyard/backends/devices/cpu/elementwise.h"

namespace sy::cpu {

constexpr int kConvNdDims = 3;

struct ConvNdGeometry {
  bool unbatched = false, transposed = false;
  int rank = 0;  // spatial dimensions of the operator (1, 2 or 3)
  int64_t batch = 1, in_channels = 0, out_channels = 0, groups = 1;
  // Spatial extents, padded in front to three with size 1, stride 1, padding 0, dilation 1.
  std::array<int64_t, kConvNdDims> in{1, 1, 1}, kernel{1, 1, 1}, out{1, 1, 1};
  std::array<int64_t, kConvNdDims> stride{1, 1, 1}, pad{0, 0, 0}, dilation{1, 1, 1}, output_padding{0, 0, 0};

  int64_t inVolume() const { return in[0] * in[1] * in[2]; }
  int64_t outVolume() const { return out[0] * out[1] * out[2]; }
  int64_t kernelVolume() const { return kernel[0] * kernel[1] * kernel[2]; }
  SizesVector outputSizes() const {
    SizesVector sizes;
    if (!unbatched) sizes.push_back(batch);
    sizes.push_back(out_channels);
    for (int d = kConvNdDims - rank; d < kConvNdDims; ++d) sizes.push_back(out[d]);
    return sizes;
  }
};

// Checks the arguments of aten::convolution (bias may be null) and gives the geometry, the output's
// extents included; an error names `op`, the argument and the sizes.
ConvNdGeometry checkConvolutionNd(const char* op, const Tensor& input, const Tensor& weight, const Tensor* bias,
                                  IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation, bool transposed,
                                  IntArrayRef output_padding, int64_t groups);

}  // namespace sy::cpu
