// The checks and extents of an N-d convolution's arguments (See conv_geometry.h).
#include "switchyard/backends/devices/cpu/conv_geometry.h"

#include "switchyard/ivalue/checked_size.h"

namespace sy::cpu {
namespace {

// One value per spatial dimension from a list of one value or `rank` values, into the last `rank`
// slots of `into`. An empty list leaves the defaults when `empty_ok` (output_padding, unused
// when not transposed).
void convNdParameter(const char* op, const char* argument, IntArrayRef values, int rank, bool empty_ok,
                     std::array<int64_t, kConvNdDims>& into) {
  if (values.empty() && empty_ok) return;
  SY_CHECK(values.size() == 1 || values.size() == static_cast<size_t>(rank), op, ": expected '", argument,
           "' to have 1 or ", rank, " values for a ", rank, "-D convolution but got ", values.size());
  for (int d = 0; d < rank; ++d) into[kConvNdDims - rank + d] = values[values.size() == 1 ? 0 : d];
}

void checkConvNdDtype(const char* op, const char* argument, const Tensor& t, ScalarType expected) {
  SY_CHECK(t.scalar_type() == expected, op, ": expected '", argument, "' to have the same dtype as 'input' (",
           expected, ") but got ", t.scalar_type());
}

}  // namespace

ConvNdGeometry checkConvolutionNd(const char* op, const Tensor& input, const Tensor& weight, const Tensor* bias,
                                  IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation, bool transposed,
                                  IntArrayRef output_padding, int64_t groups) {
  checkOnCPU(op, "input", input);
  checkOnCPU(op, "weight", weight);
  if (bias != nullptr) checkOnCPU(op, "bias", *bias);
  SY_CHECK(weight.dim() >= 3 && weight.dim() <= 5, op,
           ": expected 'weight' to be a 3-D, 4-D or 5-D tensor (a 1-, 2- or 3-D convolution) but got a ", weight.dim(),
           "-D tensor");
  ConvNdGeometry g;
  g.rank = static_cast<int>(weight.dim()) - 2;
  g.transposed = transposed;
  SY_CHECK(input.dim() == g.rank + 2 || input.dim() == g.rank + 1, op, ": expected 'input' to be a ", g.rank + 2,
           "-D (batched) or ", g.rank + 1, "-D (unbatched) tensor for a ", g.rank, "-D convolution but got a ",
           input.dim(), "-D tensor");
  SY_CHECK(isFloatingType(input.scalar_type()), op,
           ": expected 'input' to have a floating dtype (Half, Float, Double or BFloat16) but got ", input.scalar_type());
  checkConvNdDtype(op, "weight", weight, input.scalar_type());
  if (bias != nullptr) checkConvNdDtype(op, "bias", *bias, input.scalar_type());

  g.unbatched = input.dim() == g.rank + 1;
  const int64_t channel_dim = g.unbatched ? 0 : 1;
  g.batch = g.unbatched ? 1 : input.size(0);
  g.in_channels = input.size(channel_dim);
  for (int d = 0; d < g.rank; ++d) {
    g.in[kConvNdDims - g.rank + d] = input.size(channel_dim + 1 + d);
    g.kernel[kConvNdDims - g.rank + d] = weight.size(2 + d);
  }
  convNdParameter(op, "stride", stride, g.rank, false, g.stride);
  convNdParameter(op, "padding", padding, g.rank, false, g.pad);
  convNdParameter(op, "dilation", dilation, g.rank, false, g.dilation);
  if (transposed) convNdParameter(op, "output_padding", output_padding, g.rank, true, g.output_padding);
  g.groups = groups;
  SY_CHECK(groups > 0, op, ": expected 'groups' to be positive but got ", groups);
  for (int d = 0; d < kConvNdDims; ++d) {
    SY_CHECK(g.stride[d] > 0, op, ": expected 'stride' to be positive but got ", formatSizes(stride));
    SY_CHECK(g.pad[d] >= 0, op, ": expected 'padding' to be non-negative but got ", formatSizes(padding));
    SY_CHECK(g.dilation[d] > 0, op, ": expected 'dilation' to be positive but got ", formatSizes(dilation));
    SY_CHECK(g.output_padding[d] >= 0, op, ": expected 'output_padding' to be non-negative but got ",
             formatSizes(output_padding));
    SY_CHECK(g.output_padding[d] < g.stride[d] || g.output_padding[d] < g.dilation[d], op,
             ": expected 'output_padding' ", formatSizes(output_padding),
             " to be smaller than either the stride or the dilation");
    SY_CHECK(g.kernel[d] > 0, op, ": expected 'weight' to have a non-empty kernel but got size ",
             formatSizes(weight.sizes()));
  }

  if (!transposed) {
    g.out_channels = weight.size(0);
    SY_CHECK(g.out_channels % groups == 0, op, ": expected the out_channels of 'weight' (", g.out_channels,
             ") to be divisible by groups (", groups, ")");
    int64_t expected_channels = 0;
    SY_CHECK_VALUE(checkedMul(weight.size(1), groups, &expected_channels), op, ": 'groups' (", groups,
                   ") times the in_channels / groups of 'weight' (", weight.size(1), ") overflows 64-bit sizes");
    SY_CHECK(expected_channels == g.in_channels, op, ": expected 'input' to have ", expected_channels,
             " channels (weight.size(1) = ", weight.size(1), " times groups = ", groups, ") but got ",
             g.in_channels, " channels; input size ", formatSizes(input.sizes()), ", weight size ",
             formatSizes(weight.sizes()));
  } else {
    SY_CHECK(weight.size(0) == g.in_channels, op, ": expected 'input' to have ", weight.size(0),
             " channels (weight.size(0) of a transposed convolution) but got ", g.in_channels, " channels; input size ",
             formatSizes(input.sizes()), ", weight size ", formatSizes(weight.sizes()));
    SY_CHECK(g.in_channels % groups == 0, op, ": expected the input channels (", g.in_channels,
             ") to be divisible by groups (", groups, ")");
    SY_CHECK_VALUE(checkedMul(weight.size(1), groups, &g.out_channels), op, ": 'groups' (", groups,
                   ") times the out_channels / groups of 'weight' (", weight.size(1), ") overflows 64-bit sizes");
  }
  if (bias != nullptr) {
    SY_CHECK(bias->dim() == 1 && bias->size(0) == g.out_channels, op, ": expected 'bias' to be a 1-D tensor with ",
             g.out_channels, " elements (out_channels) but got size ", formatSizes(bias->sizes()));
  }

  // Every extent is checked: the arguments come from a program or a model.
  for (int d = 0; d < kConvNdDims; ++d) {
    int64_t dilated = 0, padded = 0, size = 0;
    SY_CHECK_VALUE(checkedMul(g.dilation[d], g.kernel[d] - 1, &dilated) && checkedAdd(dilated, 1, &dilated) &&
                       checkedMul(g.pad[d], 2, &padded),
                   op, ": 'dilation' ", formatSizes(dilation), " or 'padding' ", formatSizes(padding),
                   " overflows 64-bit sizes for weight size ", formatSizes(weight.sizes()));
    if (!transposed) {
      SY_CHECK_VALUE(checkedAdd(padded, g.in[d], &size), op, ": 'padding' ", formatSizes(padding),
                     " overflows 64-bit sizes");
      SY_CHECK(size >= dilated, op, ": the padded input is smaller than the dilated kernel; input size ",
               formatSizes(input.sizes()), ", weight size ", formatSizes(weight.sizes()), ", padding ",
               formatSizes(padding), ", dilation ", formatSizes(dilation));
      g.out[d] = (size - dilated) / g.stride[d] + 1;
    } else {
      SY_CHECK(g.in[d] > 0, op, ": expected 'input' to have non-empty spatial dimensions but got size ",
               formatSizes(input.sizes()));
      SY_CHECK_VALUE(checkedMul(g.in[d] - 1, g.stride[d], &size) && checkedAdd(size, dilated, &size) &&
                         checkedAdd(size, g.output_padding[d], &size),
                     op, ": the output size overflows 64-bit sizes; input size ", formatSizes(input.sizes()));
      size -= padded;
      SY_CHECK(size > 0, op, ": the transposed convolution's output would have size ", size,
               " (padding too large); input size ", formatSizes(input.sizes()), ", weight size ",
               formatSizes(weight.sizes()), ", padding ", formatSizes(padding));
      g.out[d] = size;
    }
  }
  return g;
}

}  // namespace sy::cpu
