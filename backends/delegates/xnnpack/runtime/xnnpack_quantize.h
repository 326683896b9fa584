// Conversion between a value's stored elements (any datatype the blob reader accepts) and float,
// for the host steps: a node that runs on the host reads its inputs as float and writes its
// result as float, converted here, the way XNNPACK's own Convert node converts.
//
//   sy::xnnpack::toFloat(value, dims, stored_bytes, row_params, floats);     // dequantize
//   sy::xnnpack::fromFloat(value, dims, floats, stored_bytes, row_params);   // quantize (round to nearest even, saturate)
//
// A qdint8 value (quantized at run time, one scale and zero point per row, as XNNPACK's dynamic
// quantization does) keeps its per-row parameters in `rows` next to its bytes: fromFloat computes
// them from each row's range, toFloat reads them back.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_graph.h"

namespace sy::xnnpack {

struct RowQuantization {
  float scale = 1.0f;
  int32_t zero_point = 0;
};

// How many rows (and so RowQuantization entries) a qdint8 value of `dims` has: the product of its
// batch dims (all but the last num_nonbatch_dims).
size_t dynamicRows(const XnnValue& value, const Dims& dims);

// Float copies of the numelOf(dims) elements of `value` stored at `src`.
void toFloat(const XnnValue& value, const Dims& dims, const void* src, const std::vector<RowQuantization>& rows, float* dst);
// `src` (numelOf(dims) floats) stored as `value`'s datatype at `dst`; for qdint8 also fills `rows`.
void fromFloat(const XnnValue& value, const Dims& dims, const float* src, void* dst, std::vector<RowQuantization>& rows);

}  // namespace sy::xnnpack
