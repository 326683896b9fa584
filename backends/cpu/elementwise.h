// The elementwise machinery every CPU kernel of the form out[i] = f(a[i], b[i], ...) is built on:
// broadcasting, PyTorch's result types and output resizing, and a strided loop that is a plain
// pointer loop (vectorisable) whenever the memory layout allows.
//
// A binary out= kernel, start to finish:
//
//   Tensor& mul_out_cpu(const Tensor& self, const Tensor& other, Tensor& out) {
//     const char* op = "aten::mul.out";
//     checkOnCPU(op, "self", self); checkOnCPU(op, "other", other); checkOnCPU(op, "out", out);
//     ScalarType result = binaryResultType(self, other);
//     checkCanCastToOutput(op, result, out);
//     resizeOutput(out, broadcastShapes(op, self.sizes(), other.sizes()));
//     Tensor a = convertedTo(op, "self", self, result), b = convertedTo(op, "other", other, result);
//     computeIntoOutput(op, out, result, {&a, &b}, [&](const Tensor& dst) {
//       LoopGeometry geometry = makeLoopGeometry({&dst, &a, &b});
//       SY_DISPATCH_ALL_TYPES(result, op, "self", [&](auto tag) {
//         using T = typename decltype(tag)::type;
//         runElementwise<T, T, T>(geometry, [](T x, T y) { return x * y; });
//       });
//     });
//     return out;
//   }
//
// Inputs are converted to the computation's dtype up front (a temporary only when they differ)
// and a differently typed `out` receives a converted copy, so the loops themselves only ever see
// one instantiation per dtype, and the element function is inlined into them: no per-element
// indirect calls.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <tuple>
#include <type_traits>
#include <utility>

#include "absl/container/inlined_vector.h"
#include "switchyard/backends/cpu/dtype_dispatch.h"
#include "switchyard/ivalue/tensor.h"
#include "switchyard/ivalue/tensor_factories.h"

namespace sy::cpu {

// ---- Argument checks and result types ----------------------------------------------------------

// Raises when `t` is not a CPU tensor: "aten::acos.out: argument 'self' is on accel, but ...".
void checkOnCPU(const char* op, const char* argument, const Tensor& t);

// The shape `a` and `b` broadcast to (PyTorch rules: align trailing dimensions; each pair must be
// equal or contain a 1). Raises naming the operator and both shapes.
SizesVector broadcastShapes(const char* op, IntArrayRef a, IntArrayRef b);

// PyTorch's result type of a binary operation: promoteTypes of the operands, except that 0-dim
// operands only take part when their category (bool < integral < floating) is higher than that of
// the dimensioned operands (Float [2, 3] with a Double 0-dim gives Float).
ScalarType binaryResultType(const Tensor& a, const Tensor& b);

// Raises "aten::add.out: result type Float can't be cast to the desired output type Long".
void checkCanCastToOutput(const char* op, ScalarType result, const Tensor& out);

// Gives `out` the shape `sizes` (contiguous strides, storage grown as needed) unless it already
// has it; an out= tensor of the wrong shape is resized, as PyTorch does.
void resizeOutput(const Tensor& out, IntArrayRef sizes);

// `t` (the operator's argument named `argument`) itself when it already has `dtype`, else a
// contiguous converted copy.
Tensor convertedTo(const char* op, const char* argument, const Tensor& t, ScalarType dtype);

// Writes `src` into `dst`: broadcasts src to dst's shape and converts dtypes; any strides on both
// sides. CPU tensors only; no dispatch (implemented in copy.cpp, the kernel behind aten::copy_).
// Errors name `op` and the two tensors as `dst_name` and `src_name`.
void copyIntoCPU(const char* op, const Tensor& dst, const Tensor& src, const char* dst_name = "self",
                 const char* src_name = "src");

// True when `out` and `input` share storage with different geometry, so that writing an element
// of `out` could clobber an element of `input` still to be read.
bool partiallyOverlaps(const Tensor& out, const Tensor& input);

// Runs compute(dst) with a `dst` of dtype `compute_dtype` and out's shape: `out` itself when it
// already has that dtype and does not partially overlap an input, else a temporary whose values
// are then converted into `out`.
template <class Compute>
void computeIntoOutput(const char* op, const Tensor& out, ScalarType compute_dtype, std::initializer_list<const Tensor*> inputs,
                       Compute&& compute) {
  bool direct = out.scalar_type() == compute_dtype;
  for (const Tensor* input : inputs) direct = direct && !partiallyOverlaps(out, *input);
  if (direct) {
    compute(out);
    return;
  }
  Tensor staged = sy::empty(out.sizes(), compute_dtype);
  compute(staged);
  copyIntoCPU(op, out, staged, "out", "result");
}

// ---- Loop geometry -----------------------------------------------------------------------------

inline constexpr size_t kMaxOperands = 4;

// Where the elements of up to kMaxOperands tensors live, over one shared iteration shape.
// Operand 0 is the output; inputs are broadcast to its shape (stride 0 on broadcast dimensions).
// Size-1 dimensions are dropped, dimensions are ordered by the output's strides (so a transposed
// out= is written in memory order), and dimensions that are contiguous with their inner
// neighbour in every operand are merged: operands of one contiguous layout become a single row.
struct LoopGeometry {
  size_t num_operands = 0;
  std::array<char*, kMaxOperands> data{};
  SizesVector sizes;                                                // outermost first
  absl::InlinedVector<std::array<int64_t, kMaxOperands>, 5> strides;  // bytes, per dimension
  int64_t numel = 0;
};

// Builds the geometry for operands[0] (the output, defining the shape) and the inputs, which the
// caller has checked are broadcastable to it.
LoopGeometry makeLoopGeometry(std::initializer_list<const Tensor*> operands);

// Calls row(data, inner_strides, n) once per innermost row, where data[k] points at the row's first
// element of operand k and inner_strides[k] is its byte stride along the row. Rows have n >= 1.
template <size_t N, class RowFn>
void forEachRow(const LoopGeometry& g, RowFn&& row) {
  static_assert(N >= 1 && N <= kMaxOperands, "too many operands for LoopGeometry");
  if (g.numel == 0) return;
  std::array<char*, N> data;
  for (size_t k = 0; k < N; ++k) data[k] = g.data[k];
  const int64_t ndim = static_cast<int64_t>(g.sizes.size());
  if (ndim == 0) {
    row(data, std::array<int64_t, N>{}, int64_t{1});
    return;
  }
  std::array<int64_t, N> inner_strides;
  for (size_t k = 0; k < N; ++k) inner_strides[k] = g.strides[ndim - 1][k];
  const int64_t row_length = g.sizes[ndim - 1];
  const int64_t num_rows = g.numel / row_length;
  // An odometer over the outer dimensions, moving the pointers incrementally.
  SizesVector index(static_cast<size_t>(ndim - 1), 0);
  for (int64_t r = 0; r < num_rows; ++r) {
    row(data, inner_strides, row_length);
    for (int64_t d = ndim - 2; d >= 0; --d) {
      if (++index[d] < g.sizes[d]) {
        for (size_t k = 0; k < N; ++k) data[k] += g.strides[d][k];
        break;
      }
      index[d] = 0;
      for (size_t k = 0; k < N; ++k) data[k] -= g.strides[d][k] * (g.sizes[d] - 1);
    }
  }
}

// ---- Elementwise loops -------------------------------------------------------------------------

namespace detail {

// Calls fn(std::integral_constant<unsigned, mask>) for a run-time mask below `Count`.
template <unsigned Mask, unsigned Count, class Fn>
void withConstantMask(unsigned mask, Fn&& fn) {
  if constexpr (Mask < Count) {
    if (mask == Mask) {
      fn(std::integral_constant<unsigned, Mask>{});
      return;
    }
    withConstantMask<Mask + 1, Count>(mask, std::forward<Fn>(fn));
  }
}

template <class Out, class... Ins, class Op, size_t... K>
void elementwiseRow(std::index_sequence<K...>, const std::array<char*, 1 + sizeof...(Ins)>& data,
                    const std::array<int64_t, 1 + sizeof...(Ins)>& strides, int64_t n, Op& op) {
  Out* out = reinterpret_cast<Out*>(data[0]);
  const std::tuple<const Ins*...> in{reinterpret_cast<const Ins*>(data[K + 1])...};
  const bool out_contiguous = strides[0] == static_cast<int64_t>(sizeof(Out));

  // The common case: everything dense. A plain indexed loop the compiler can vectorise.
  if (out_contiguous && ((strides[K + 1] == static_cast<int64_t>(sizeof(Ins))) && ...)) {
    for (int64_t i = 0; i < n; ++i) out[i] = op(std::get<K>(in)[i]...);
    return;
  }
  // Dense output with some inputs broadcast along the row (a scalar operand, a [3, 1] + [1, 4]
  // row): the broadcast values are read once and the loop stays vectorisable. The mask of
  // broadcast inputs becomes a template argument so each combination gets its own branch-free loop.
  if (out_contiguous &&
      (((strides[K + 1] == static_cast<int64_t>(sizeof(Ins))) || strides[K + 1] == 0) && ...)) {
    const unsigned broadcast_mask = ((strides[K + 1] == 0 ? 1u << K : 0u) | ...);
    withConstantMask<1, (1u << sizeof...(Ins))>(broadcast_mask, [&](auto mask_constant) {
      constexpr unsigned kMask = decltype(mask_constant)::value;
      const std::tuple<Ins...> hoisted{*std::get<K>(in)...};
      for (int64_t i = 0; i < n; ++i) {
        out[i] = op((((kMask >> K) & 1u) != 0 ? std::get<K>(hoisted) : std::get<K>(in)[i])...);
      }
    });
    return;
  }
  // Anything else (transposed, sliced, strided output): byte strides.
  for (int64_t i = 0; i < n; ++i) {
    *reinterpret_cast<Out*>(data[0] + i * strides[0]) =
        op(*reinterpret_cast<const Ins*>(data[K + 1] + i * strides[K + 1])...);
  }
}

}  // namespace detail

// Runs out = op(in...) over `geometry`, whose operands must have the C++ element types Out, Ins...
// (operand 0 the output). `op` takes Ins... by value and returns something convertible to Out.
template <class Out, class... Ins, class Op>
void runElementwise(const LoopGeometry& geometry, Op&& op) {
  constexpr size_t N = 1 + sizeof...(Ins);
  forEachRow<N>(geometry, [&](const std::array<char*, N>& data, const std::array<int64_t, N>& strides, int64_t n) {
    detail::elementwiseRow<Out, Ins...>(std::index_sequence_for<Ins...>{}, data, strides, n, op);
  });
}

}  // namespace sy::cpu
