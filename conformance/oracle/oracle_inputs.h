// The oracle's input tensors: a dtype, logical sizes, a memory layout (contiguous, transposed,
// strided with a storage offset) and values drawn from a seed. The same plan and seed always give
// the same bytes, padding included, which is how Switchyard and PyTorch get identical inputs.
//
//   TensorPlan plan{ScalarType::Float, {2, 3}, InputLayout::Transposed, Values::any(), /*edges=*/true};
//   sy::Tensor t = makeInput(plan, seed);   // strides {1, 2}: the memory holds the transpose
#pragma once

#include <cstdint>
#include <string>

#include "switchyard/conformance/oracle/oracle_case.h"
#include "switchyard/ivalue/tensor.h"

namespace sy::oracle {

enum class InputLayout : uint8_t {
  Contiguous,
  Transposed,  // the last two dimensions swapped in memory (a 1-D or 0-dim tensor stays contiguous)
  Strided,     // every other element of the innermost dimension, from storage offset 1
};
std::string toString(InputLayout layout);

struct TensorPlan {
  ScalarType dtype = ScalarType::Float;
  Shape sizes;
  InputLayout layout = InputLayout::Contiguous;
  Values values;
  bool edges = false;  // sprinkle the edge values (when values.edges allows)
};

// A tensor as `plan` says; every storage element, the ones the view skips included, is drawn.
Tensor makeInput(const TensorPlan& plan, uint64_t seed);

// A seed for one tensor of one call: mixes the call's seed with the tensor's position.
uint64_t mixSeed(uint64_t seed, uint64_t salt);

}  // namespace sy::oracle
