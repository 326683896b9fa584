// The elementwise machinery every CPU kernel of the form out[i] = f(a[i], b[i], ...) is built on:
// PyTorch's result types, broadcasting, output checks and resizing, and a strided loop that is a
// plain pointer loop (vectorisable) whenever the memory layout allows.
//
// A binary kernel, start to finish (the out variant's, which also serves the functional and in-place
// forms: See Note [Functional and in-place forms call the out kernel] in dispatcher/derived_kernels.h):
//
//   Tensor& mul_out_cpu(const Tensor& self, const Tensor& other, Tensor& out, const KernelContext& ctx) {
//     const char* op = ctx.op;
//     checkBinaryInputs(op, self, other);
//     const ScalarType result = binaryResultType(self, other);
//     const OutputRole role = binaryOutputFor(ctx, self, other, result, out);
//     const BinaryInputs inputs = prepareBinaryOutput(op, self, other, out, result, role);
//     runBinaryLoop<kAllDtypes>(op, inputs.self(), inputs.other(), out, result, result,
//                               [](const LoopGeometry& geometry, auto tag) {
//       using T = typename decltype(tag)::type;
//       runElementwise<T, T, T>(geometry, [](T x, T y) { return x * y; });
//     });
//     return out;
//   }
//
// The lower-level steps (checkOnCPU, checkCanCastToOutput, resizeOutput, convertedTo,
// computeIntoOutput, makeLoopGeometry, runElementwise) can be used one by one, as unary kernels do.
//
// Inputs are converted to the computation's dtype up front (a temporary only when they differ)
// and a differently typed `out` receives a converted copy, so the loops themselves only ever see
// one instantiation per dtype, and the element function is inlined into them: no per-element
// indirect calls.
#pragma once

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstdint>
#include <initializer_list>
#include <tuple>
#include <type_traits>
#include <utility>

#include "absl/container/inlined_vector.h"
#include "switchyard/backends/devices/cpu/borrowed_view.h"
#include "switchyard/backends/devices/cpu/dtype_dispatch.h"
#include "switchyard/backends/devices/cpu/scratch_tensor.h"
#include "switchyard/ivalue/load_element.h"
#include "switchyard/core/macros.h"
#include "switchyard/dispatcher/kernel_context.h"
#include "switchyard/ivalue/odometer.h"
#include "switchyard/ivalue/scalar.h"
#include "switchyard/ivalue/tensor.h"
#include "switchyard/ivalue/tensor_factories.h"

namespace sy::cpu {

// ---- Result types ------------------------------------------------------------------------------

// PyTorch's result type of an operation over several operands (at::result_type). Operands fall
// into three priority classes: dimensioned tensors, 0-dim tensors, and Scalars (Python numbers,
// which count as Long, the default Float, or Bool). A lower class only takes part when its
// category (bool < integral < floating) is higher than that of the classes above it, so an Int
// tensor + 3 stays Int, a Float tensor * a Double 0-dim stays Float, and an Int tensor + 2.5 is Float.
class ResultTypeBuilder {
 public:
  ResultTypeBuilder& add(const Tensor& t);
  ResultTypeBuilder& add(const Scalar& s);
  ScalarType result() const;

 private:
  ScalarType dimensioned_ = ScalarType::Undefined;
  ScalarType zero_dim_ = ScalarType::Undefined;
  ScalarType scalars_ = ScalarType::Undefined;
};

// The result type of a binary operation on two tensors, or on a tensor and a Scalar.
ScalarType binaryResultType(const Tensor& a, const Tensor& b);
ScalarType binaryResultType(const Tensor& a, const Scalar& b);

// `dtype` itself when floating, else Float: true division and other floating-only operations
// compute integral and Bool inputs in the default floating dtype.
constexpr ScalarType promotedToFloating(ScalarType dtype) {
  return isFloatingType(dtype) ? dtype : ScalarType::Float;
}

// Note [Accumulating kernels compute reduced floats on Float copies]
// Elementwise kernels take Half and BFloat16 as element types: each element is read as a float,
// computed in float and rounded once when it is stored. A kernel that accumulates (a product, a
// convolution, a sum, a norm, a softmax) would round its partial results at every step if it
// accumulated in the element type, so it runs on Float copies of its reduced-precision inputs into a
// Float result that is rounded once into `out`, as PyTorch's CPU kernels accumulate in float
// (at::opmath_type). Its loops are instantiated for the full-precision types only.

// Float for Half, BFloat16 and the Float8 types, `dtype` itself otherwise.
constexpr ScalarType computeDtypeOf(ScalarType dtype) {
  return isReducedFloatingType(dtype) ? ScalarType::Float : dtype;
}

// ---- Argument checks ---------------------------------------------------------------------------

// Raises when `t` is not a CPU tensor: "aten::acos.out: argument 'self' is on accel, but ...".
// Every kernel checks every argument, so the test is inline and the message is built out of line.
[[noreturn]] void throwNotOnCPU(const char* op, const char* argument, const Tensor& t);
SY_ALWAYS_INLINE inline void checkOnCPU(const char* op, const char* argument, const Tensor& t) {
  if (SY_UNLIKELY(!t.defined() || !t.is_cpu())) throwNotOnCPU(op, argument, t);
}

// Raises "aten::add.out: argument 'self' has dtype Undefined, which this kernel does not support
// (supported: ...)" unless `dtype` is in the DtypeSet `allowed`.
// dtype set: the default of a declaration.
void checkDtypeSupported(const char* op, const char* argument, ScalarType dtype, unsigned allowed = kAllDtypes);

// Raises "aten::add.out: result type Float can't be cast to the desired output type Long". The
// usual case, an output of the result's own dtype, is decided in line.
[[noreturn]] void throwCannotCastToOutput(const char* op, ScalarType result, const Tensor& out);
SY_ALWAYS_INLINE inline void checkCanCastToOutput(const char* op, ScalarType result, const Tensor& out) {
  const ScalarType out_dtype = out.scalar_type();
  if (SY_UNLIKELY(out_dtype != result && !canCast(result, out_dtype))) throwCannotCastToOutput(op, result, out);
}

// Raises when writing `t` would write one memory location twice (a stride-0, expanded dimension):
// each element would receive a different result and the last write would win. PyTorch's message,
// prefixed by the operator and naming `argument` when given. A contiguous tensor, the usual
// output, cannot overlap itself and is decided in line.
void checkNoInternalOverlapOfStrided(const char* op, const Tensor& t, const char* argument);
SY_ALWAYS_INLINE inline void checkNoInternalOverlap(const char* op, const Tensor& t, const char* argument = nullptr) {
  if (SY_LIKELY(t.is_contiguous())) return;
  checkNoInternalOverlapOfStrided(op, t, argument);
}

// ---- Shapes ------------------------------------------------------------------------------------

// The shape `a` and `b` broadcast to (PyTorch rules: align trailing dimensions; each pair must be
// equal or contain a 1). Raises naming the operator and both shapes.
SizesVector broadcastShapes(const char* op, IntArrayRef a, IntArrayRef b);

// One operand's name and shape, for broadcasting several operands with an error naming each.
struct NamedShape {
  const char* name;
  IntArrayRef sizes;
};

// The shape all `operands` broadcast to. Raises "aten::where.self: cannot broadcast condition of
// shape (2,), self of shape (3,) and other of shape (1,) together: at dimension 0 of the result
// the sizes are 2, 3 and 1".
SizesVector broadcastShapes(const char* op, std::initializer_list<NamedShape> operands);

// Gives `out` the shape `sizes` (contiguous strides, storage grown as needed) unless it already
// has it; an out= tensor of the wrong shape is resized, as PyTorch does.
inline void resizeOutput(const Tensor& out, IntArrayRef sizes) {
  if (SY_LIKELY(sameSizes(out.sizes(), sizes))) return;
  out.resize_(sizes);
}

// How a kernel's output relates to its shape: an out= (or freshly allocated) tensor is resized to
// the broadcast shape; the `self` of an in-place form cannot change shape, so it must already
// have it ("output with shape (3,) doesn't match the broadcast shape (2, 3)").
enum class OutputRole { Out, InPlace };

// Resizes (Out) or checks (InPlace) `out` against `shape`, then checks it has no internal overlap.
void shapeOutput(const char* op, const Tensor& out, IntArrayRef shape, OutputRole role);

// Note [An out= that is also an input keeps the input's values]
// add_out(a, a, b) with a of shape (3,) and b of shape (2, 3) resizes `out` to (2, 3) before the
// loop reads `self`, and since both are one TensorImpl, self would be read as (2, 3) too: three
// values and three uninitialised ones. So before an out= kernel resizes out, each input that is
// out itself is replaced by another handle with the input's geometry on the same memory
// (unaffectedByResizeOf). After the resize that handle and out share storage with different
// geometry, so the loop computes into a fresh buffer and moves the values into out
// (computeIntoOutput's partial-overlap staging), and the result is the one of an unaliased out.
// Every kernel that resizes an out= argument which may also be one of its inputs reads its inputs
// through such handles (prepareBinaryOutput does it for the binary operators).

// `input` itself, or, when `out` is that very tensor, another handle with the input's geometry on
// the same memory, so that resizing out does not reshape the input under the kernel.
Tensor unaffectedByResizeOf(const Tensor& out, const Tensor& input);

// ---- Conversions and staging -------------------------------------------------------------------

// `t` (the operator's argument named `argument`) itself when it already has `dtype`, else a
// contiguous converted copy in scratch memory (See Note [Kernel scratch is reused, not allocated]
// in scratch_tensor.h), to be read during the kernel's call only.
Tensor convertedTo(const char* op, const char* argument, const Tensor& t, ScalarType dtype);

// A 0-dim CPU tensor of `dtype` holding `value` converted to it: a Scalar operand, ready to be
// broadcast against a tensor (a stride-0 operand, which the loops read once per row).
Tensor scalarTensor(const Scalar& value, ScalarType dtype);
// The same for an operand a kernel only reads during its call, without allocating: See Note [A
// Scalar operand is wrapped without allocating].
Tensor wrappedScalarOperand(const Scalar& value, ScalarType dtype);

// Writes `src` into `dst`: broadcasts src to dst's shape and converts dtypes; any strides on both
// sides. CPU tensors only; no dispatch (implemented in copy.cpp, the kernel behind aten::copy_).
// Errors name `op` and the two tensors as `dst_name` and `src_name`.
void copyIntoCPU(const char* op, const Tensor& dst, const Tensor& src, const char* dst_name = "self",
                 const char* src_name = "src");

// `t` itself when it is contiguous (and of `dtype`, when given), else a contiguous copy (converted to
// `dtype`) in scratch memory, read during the call only: kernels that index their inputs as dense
// row-major arrays make any view (transposed, sliced, expanded) dense once up front with it.
inline Tensor contiguousCopyIfNeeded(const char* op, const char* argument, const Tensor& t,
                                     ScalarType dtype = ScalarType::Undefined) {
  if (dtype == ScalarType::Undefined) dtype = t.scalar_type();
  if (t.is_contiguous() && t.scalar_type() == dtype) return t;
  Tensor dense = scratchTensor(op, t.sizes(), dtype);
  copyIntoCPU(op, dense, t, "contiguous copy", argument);
  return dense;
}

// True when `a` and `b` live in one allocation. Compared by the memory itself, not by the Storage
// object: a backend's host views (accel::hostView) are separate Storage objects over one device
// buffer, and views of one buffer must be seen to overlap whatever objects hold them.
inline bool sameMemory(const Tensor& a, const Tensor& b) {
  const StorageImpl* sa = a.storage().get();
  const StorageImpl* sb = b.storage().get();
  return sa != nullptr && sb != nullptr && (sa == sb || (sa->data() != nullptr && sa->data() == sb->data()));
}

// True when `out` and `input` share memory (sameMemory) with different geometry, so that writing
// an element of `out` could clobber an element of `input` still to be read.
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
  Tensor staged = scratchTensor(op, out.sizes(), compute_dtype);
  compute(staged);
  copyIntoCPU(op, out, staged, "out", "result");
}

// Another handle on t's memory with the given geometry, made without dispatch (kernels use it for
// the reshapes and transposes they make of their own operands). It carries only the backend key
// of t's device.
inline Tensor viewOf(const Tensor& t, IntArrayRef sizes, IntArrayRef strides, int64_t storage_offset) {
  // See Note [A kernel's own views are borrowed].
  if (std::optional<Tensor> borrowed =
          borrowedView(t, sizes, strides, storage_offset, tensorKeySetFor(t.device().type()))) {
    return *std::move(borrowed);
  }
  auto impl = make_intrusive<TensorImpl>(t.storage(), t.scalar_type(), t.device());
  impl->set_sizes_and_strides(sizes, strides, storage_offset);
  return Tensor(std::move(impl));
}

// ---- Loop geometry -----------------------------------------------------------------------------

inline constexpr size_t kMaxOperands = 4;

// Where the elements of up to kMaxOperands tensors live, over one shared iteration shape.
// Operand 0 is the output; inputs are broadcast to its shape (stride 0 on broadcast dimensions).
// Size-1 dimensions are dropped, dimensions are ordered by the output's strides (so a transposed
// out= is written in memory order), and dimensions that are contiguous with their inner
// neighbour in every operand are merged: operands of one contiguous layout become a single row.
//
// A geometry without dimensions (`sizes` empty) is one row of `numel` elements stepped through by
// `row_strides`: every operand dense and of one shape (the common case, made without filling the
// vectors), or a single element (strides 0).
struct LoopGeometry {
  size_t num_operands = 0;
  std::array<char*, kMaxOperands> data{};
  SizesVector sizes;                                                // outermost first
  absl::InlinedVector<std::array<int64_t, kMaxOperands>, 5> strides;  // bytes, per dimension
  int64_t numel = 0;
  std::array<int64_t, kMaxOperands> row_strides{};                 // bytes, when sizes is empty
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
    std::array<int64_t, N> row_strides;
    for (size_t k = 0; k < N; ++k) row_strides[k] = g.row_strides[k];
    row(data, row_strides, g.numel);
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
    advanceOdometer(index.data(), g.sizes.data(), ndim - 2, data, [&](int64_t d, size_t k) { return g.strides[d][k]; });
  }
}

// Like forEachRow, but when an input runs across the rows in memory (a transposed operand: its
// stride along the rows is smaller than along the columns) the innermost two dimensions are
// walked in tiles, so each cache line of that operand is used for a whole tile instead of one
// element per row. Rows may then be visited in pieces and out of order: only for callers whose
// work per element is independent of the others (elementwise maps, not reductions).
template <size_t N, class RowFn>
void forEachRowInTiles(const LoopGeometry& g, RowFn&& row) {
  constexpr int64_t kTileRows = 16;
  constexpr int64_t kTileColumns = 128;
  const int64_t ndim = static_cast<int64_t>(g.sizes.size());
  bool transposed_input = false;
  if (ndim >= 2 && g.sizes[ndim - 1] > kTileColumns / 4 && g.sizes[ndim - 2] > 1) {
    for (size_t k = 1; k < N; ++k) {
      const int64_t across_rows = g.strides[ndim - 2][k];
      const int64_t along_row = g.strides[ndim - 1][k];
      transposed_input = transposed_input || (across_rows != 0 && std::abs(across_rows) < std::abs(along_row));
    }
  }
  if (!transposed_input) {
    forEachRow<N>(g, std::forward<RowFn>(row));
    return;
  }
  const int64_t rows = g.sizes[ndim - 2];
  const int64_t columns = g.sizes[ndim - 1];
  std::array<int64_t, N> row_step, column_step;
  for (size_t k = 0; k < N; ++k) {
    row_step[k] = g.strides[ndim - 2][k];
    column_step[k] = g.strides[ndim - 1][k];
  }
  // An odometer over the dimensions outside the tiled pair, one 2-D plane at a time.
  std::array<char*, N> plane;
  for (size_t k = 0; k < N; ++k) plane[k] = g.data[k];
  const int64_t num_planes = g.numel / (rows * columns);
  SizesVector index(static_cast<size_t>(ndim - 2), 0);
  for (int64_t p = 0; p < num_planes; ++p) {
    for (int64_t r0 = 0; r0 < rows; r0 += kTileRows) {
      const int64_t r1 = std::min(rows, r0 + kTileRows);
      for (int64_t c0 = 0; c0 < columns; c0 += kTileColumns) {
        const int64_t n = std::min(columns - c0, kTileColumns);
        for (int64_t r = r0; r < r1; ++r) {
          std::array<char*, N> data;
          for (size_t k = 0; k < N; ++k) data[k] = plane[k] + r * row_step[k] + c0 * column_step[k];
          row(data, column_step, n);
        }
      }
    }
    advanceOdometer(index.data(), g.sizes.data(), ndim - 3, plane,
                    [&](int64_t d, size_t k) { return g.strides[d][k]; });
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
    for (int64_t i = 0; i < n; ++i) out[i] = op(loadElement(std::get<K>(in) + i)...);
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
      const std::tuple<Ins...> hoisted{loadElement(std::get<K>(in))...};
      for (int64_t i = 0; i < n; ++i) {
        out[i] = op((((kMask >> K) & 1u) != 0 ? std::get<K>(hoisted) : loadElement(std::get<K>(in) + i))...);
      }
    });
    return;
  }
  // Anything else (transposed, sliced, strided output): byte strides.
  for (int64_t i = 0; i < n; ++i) {
    *reinterpret_cast<Out*>(data[0] + i * strides[0]) =
        op(loadElement(reinterpret_cast<const Ins*>(data[K + 1] + i * strides[K + 1]))...);
  }
}

}  // namespace detail

// Runs out = op(in...) over `geometry`, whose operands must have the C++ element types Out, Ins...
// (operand 0 the output). `op` takes Ins... by value and returns something convertible to Out.
// Inputs are read through loadElement (See Note [Bool elements are read as bytes]).
template <class Out, class... Ins, class Op>
void runElementwise(const LoopGeometry& geometry, Op&& op) {
  constexpr size_t N = 1 + sizeof...(Ins);
  forEachRowInTiles<N>(geometry, [&](const std::array<char*, N>& data, const std::array<int64_t, N>& strides, int64_t n) {
    detail::elementwiseRow<Out, Ins...>(std::index_sequence_for<Ins...>{}, data, strides, n, op);
  });
}

// ---- Binary operations -------------------------------------------------------------------------

// The checks on a binary operator's inputs, made before their result type is computed: both
// defined, on the CPU, and of a dtype the kernels know.
void checkBinaryInputs(const char* op, const Tensor& self, const Tensor& other);

// A binary operator's operands after checkBinaryInputs: `other` (a Scalar operand becomes a 0-dim
// tensor of the result type, as PyTorch wraps numbers), the dtype `other` had before that
// (Bool, Long or Double for a Scalar), and PyTorch's result type of the pair.
struct BinaryOperands {
  Tensor other;
  ScalarType other_dtype;
  ScalarType result;
};
BinaryOperands binaryOperands(const char* op, const Tensor& self, const Tensor& other);
BinaryOperands binaryOperands(const char* op, const Tensor& self, const Scalar& other);

// The operands a binary loop reads once prepareBinaryOutput has shaped `out`: the arguments
// themselves, except one that is `out` itself when out changed shape, which is then read through
// the handle unaffectedByResizeOf made (see Note [An out= that is also an input keeps the input's
// values]). Not copyable: it may point into itself.
class BinaryInputs {
 public:
  // Pins self and other when `out` is about to change shape (only an out= does), then shapes out
  // (shapeOutput).
  BinaryInputs(const char* op, const Tensor& out, IntArrayRef shape, OutputRole role, const Tensor& self,
               const Tensor& other);
  BinaryInputs(const BinaryInputs&) = delete;
  BinaryInputs& operator=(const BinaryInputs&) = delete;
  const Tensor& self() const { return self_; }
  const Tensor& other() const { return other_; }

 private:
  bool resized_;
  Tensor pinned_self_, pinned_other_;
  const Tensor& self_;
  const Tensor& other_;
};

// Everything a binary out= or in-place kernel checks about `out` before computing `result` =
// f(self, other) into it: on the CPU with a known dtype, `result` castable to its dtype (skipped
// with check_cast = false for operators whose output dtype is free, such as comparisons), and
// resized to (or, in place, checked against) the broadcast shape. Read the inputs through the
// returned BinaryInputs, never through self and other again.
BinaryInputs prepareBinaryOutput(const char* op, const Tensor& self, const Tensor& other, const Tensor& out,
                                 ScalarType result, OutputRole role, bool check_cast = true);

// Runs a binary loop into `out` (already prepared): self and other converted to `compute_dtype`,
// then body(geometry, TypeTag<T>{}) with T the C++ type of `compute_dtype`, over a geometry whose
// output operand has dtype `loop_output_dtype` (usually compute_dtype; Bool for comparisons).
// `Allowed` is the DtypeSet of compute dtypes the operator implements.
//
// Note [Element loops do not depend on the form of other]
// An operator with a Tensor and a Scalar `other` shares one element loop: after binaryOperands the
// Scalar is a 0-dim tensor. A loop written inside a function template of the form (a lambda in
// `template <class Other> ...`) is a new closure type per form, so every dtype's loop compiled
// twice; the kernels call a loop function that does not know the form.
template <unsigned Allowed, class Body>
void runBinaryLoop(const char* op, const Tensor& self, const Tensor& other, const Tensor& out,
                   ScalarType compute_dtype, ScalarType loop_output_dtype, Body&& body) {
  if (out.numel() == 0) return;
  const Tensor a = convertedTo(op, "self", self, compute_dtype);
  const Tensor b = convertedTo(op, "other", other, compute_dtype);
  computeIntoOutput(op, out, loop_output_dtype, {&a, &b}, [&](const Tensor& dst) {
    const LoopGeometry geometry = makeLoopGeometry({&dst, &a, &b});
    dispatchDtype<Allowed>(compute_dtype, op, "self", [&](auto tag) { body(geometry, tag); });
  });
}

// Note [Dense binary calls of one dtype skip the loop geometry]
// As for the unary kernels (See Note [Dense calls of one dtype skip the loop geometry] in
// unary_kernels.h), most binary calls on small tensors are the plainest kind: self, other and out
// contiguous and of the computation's dtype, self and other of one shape or one of them a single
// element that broadcasting repeats (a 0-dim tensor, a wrapped Scalar, a [1] against a [3]), out
// already of the broadcast shape, and out the same memory as an input or none in common. For those
// a kernel runs a pointer loop over numel elements directly (runDenseBinary), skipping what the
// general path costs before its first element: the broadcast shape built, out shaped, the inputs
// pinned and converted, the LoopGeometry made (about 500 instructions of a 4-element add.out's
// 967). Everything else takes the general path, which gives the same results and raises the same
// errors: the dense loops are the general path's innermost row with nothing around it, and a call
// only takes them when none of the general path's checks could fail (out defined, on the CPU, of
// the dtype computed, of the right shape, contiguous, not partially overlapping an input).
enum class DenseBinaryLayout {
  None,         // take the general path
  SameShape,    // self, other and out of one shape
  SingleOther,  // other a single element repeated over self's shape (out has self's)
  SingleSelf,   // self a single element repeated over other's shape (out has other's)
};

// How a binary call on `self` and `other` computing `dtype` into `out` (of `out_dtype`: a comparison
// writes Bool) can run densely.
DenseBinaryLayout denseBinaryLayout(const Tensor& self, const Tensor& other, const Tensor& out, ScalarType dtype,
                                    ScalarType out_dtype);
inline DenseBinaryLayout denseBinaryLayout(const Tensor& self, const Tensor& other, const Tensor& out, ScalarType dtype) {
  return denseBinaryLayout(self, other, out, dtype, dtype);
}

// out[i] = fn(self[i], other[i]) over n elements laid out as `layout` says (not None); a single
// element operand is read once. `out` may be `self` or `other` (the same memory and geometry).
template <class T, class Out, class Fn>
void runDenseBinary(DenseBinaryLayout layout, Out* out, const T* self, const T* other, int64_t n, Fn&& fn) {
  if (layout == DenseBinaryLayout::SameShape) {
    for (int64_t i = 0; i < n; ++i) out[i] = fn(loadElement(self + i), loadElement(other + i));
  } else if (layout == DenseBinaryLayout::SingleOther) {
    const T y = loadElement(other);
    for (int64_t i = 0; i < n; ++i) out[i] = fn(loadElement(self + i), y);
  } else {
    const T x = loadElement(self);
    for (int64_t i = 0; i < n; ++i) out[i] = fn(x, loadElement(other + i));
  }
}

// The functional form's result, for inputs that passed checkBinaryInputs: one dispatched
// allocation (aten::empty) of the broadcast shape and dtype `result`. The kernel then computes into
// it as into an out=, so the operator costs exactly two dispatches.
Tensor allocateBinaryResult(const char* op, const Tensor& self, const Tensor& other, ScalarType result);

// What a binary kernel does first with its `out` in the form `ctx` names (See Note [Functional and
// in-place forms call the out kernel] in dispatcher/derived_kernels.h): the functional form's `out`
// arrives undefined and is allocated here (allocateBinaryResult), the in-place form's is `self`,
// which keeps its shape. Returns the role `out` then has for prepareBinaryOutput.
inline OutputRole binaryOutputFor(const KernelContext& ctx, const Tensor& self, const Tensor& other, ScalarType result,
                                  Tensor& out) {
  if (ctx.form == OutputForm::Functional) out = allocateBinaryResult(ctx.op, self, other, result);
  return ctx.form == OutputForm::InPlace ? OutputRole::InPlace : OutputRole::Out;
}

}  // namespace sy::cpu
