#include "switchyard/backends/devices/cpu/elementwise.h"
#include "switchyard/backends/devices/cpu/scratch_tensor.h"

#include "switchyard/ops/creation_ops.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <string>
#include <type_traits>


namespace sy::cpu {

namespace detail {
void throwUnsupportedDtype(const char* op, const char* argument, ScalarType dtype, unsigned supported, unsigned built) {
  const auto names = [](unsigned bits) {
    std::string text;
    for (int t = 0; t < kNumScalarTypes; ++t) {
      if ((bits & (1u << t)) == 0) continue;
      if (!text.empty()) text += ", ";
      text += toString(static_cast<ScalarType>(t));
    }
    return text;
  };
  const int bit = static_cast<int>(dtype);
  if (bit >= 0 && bit < kNumScalarTypes && ((supported >> bit) & 1u) != 0 && ((built >> bit) & 1u) == 0) {
    // See Note [A build compiles its kernels for the dtypes it selects].
    SY_ERROR_KIND(NotImplemented, op, ": argument '", argument, "' has dtype ", dtype,
                  ", which this build leaves out of its kernels (built for: ", names(built),
                  "); rebuild with it in SWITCHYARD_KERNEL_DTYPES");
  }
  SY_ERROR_KIND(NotImplemented, op, ": argument '", argument, "' has dtype ", dtype,
                ", which this kernel does not support (supported: ", names(supported), ")");
}
}  // namespace detail

// ---- Result types ------------------------------------------------------------------------------

namespace {

ScalarType promoteSkippingUndefined(ScalarType a, ScalarType b) {
  if (a == ScalarType::Undefined) return b;
  if (b == ScalarType::Undefined) return a;
  return promoteTypes(a, b);
}

// `higher` is the type of a higher-priority class of operands, `lower` of a lower one; the lower
// one only counts when it belongs to a higher category (bool < integral < floating).
ScalarType combineCategories(ScalarType higher, ScalarType lower) {
  if (isFloatingType(higher)) return higher;
  if (higher == ScalarType::Bool || isFloatingType(lower)) return promoteSkippingUndefined(higher, lower);
  if (higher != ScalarType::Undefined) return higher;
  return lower;
}

}  // namespace

ResultTypeBuilder& ResultTypeBuilder::add(const Tensor& t) {
  ScalarType& slot = t.dim() == 0 ? zero_dim_ : dimensioned_;
  slot = promoteSkippingUndefined(slot, t.scalar_type());
  return *this;
}

ResultTypeBuilder& ResultTypeBuilder::add(const Scalar& s) {
  // A Python float is the default dtype (Float), not Double: 2.5 must not widen a Float tensor,
  // and an Int tensor + 2.5 is Float.
  const ScalarType as_dtype = s.isFloatingPoint() ? ScalarType::Float : s.type();
  scalars_ = promoteSkippingUndefined(scalars_, as_dtype);
  return *this;
}

ScalarType ResultTypeBuilder::result() const {
  return combineCategories(dimensioned_, combineCategories(zero_dim_, scalars_));
}

ScalarType binaryResultType(const Tensor& a, const Tensor& b) { return ResultTypeBuilder().add(a).add(b).result(); }
ScalarType binaryResultType(const Tensor& a, const Scalar& b) { return ResultTypeBuilder().add(a).add(b).result(); }

// ---- Argument checks ---------------------------------------------------------------------------

void throwNotOnCPU(const char* op, const char* argument, const Tensor& t) {
  SY_CHECK(t.defined(), op, ": argument '", argument, "' is an undefined tensor");
  SY_ERROR(op, ": argument '", argument, "' is on ", t.device(),
           ", but this is the CPU kernel; copy the tensor to the CPU first or register a kernel for its backend");
}

void checkDtypeSupported(const char* op, const char* argument, ScalarType dtype, unsigned allowed) {
  const int index = static_cast<int>(dtype);
  const bool supported = index >= 0 && index < kNumScalarTypes && (allowed & kKernelDtypes & (1u << index)) != 0;
  if (!supported) detail::throwUnsupportedDtype(op, argument, dtype, allowed);
}

void throwCannotCastToOutput(const char* op, ScalarType result, const Tensor& out) {
  SY_ERROR(op, ": result type ", result, " can't be cast to the desired output type ", out.scalar_type());
}

void checkNoInternalOverlapOfStrided(const char* op, const Tensor& t, const char* argument) {
  // Only the certain case, as PyTorch: a stride-0 dimension of size > 1. Other self-overlapping
  // layouts cannot be made with the view operations this library has.
  const IntArrayRef sizes = t.sizes();
  const IntArrayRef strides = t.strides();
  for (size_t d = 0; d < sizes.size(); ++d) {
    SY_CHECK(sizes[d] <= 1 || strides[d] != 0, op,
             ": unsupported operation: more than one element of the written-to tensor",
             argument != nullptr ? str(" '", argument, "'") : std::string(),
             " refers to a single memory location (dimension ", d,
             " is expanded). Please clone() the tensor before performing the operation.");
  }
}

// ---- Shapes ------------------------------------------------------------------------------------

SizesVector broadcastShapes(const char* op, IntArrayRef a, IntArrayRef b) {
  const size_t ndim = std::max(a.size(), b.size());
  SizesVector result(ndim);
  for (size_t i = 0; i < ndim; ++i) {
    // Dimension i counted from the right; a missing dimension acts as size 1.
    const int64_t size_a = i < a.size() ? a[a.size() - 1 - i] : 1;
    const int64_t size_b = i < b.size() ? b[b.size() - 1 - i] : 1;
    SY_CHECK(size_a == size_b || size_a == 1 || size_b == 1, op, ": the shapes ", formatSizes(a), " and ",
             formatSizes(b), " cannot be broadcast together: the size of tensor a (", size_a,
             ") must match the size of tensor b (", size_b, ") at non-singleton dimension ", ndim - 1 - i);
    result[ndim - 1 - i] = size_a == 1 ? size_b : size_a;
  }
  return result;
}

namespace {

// "condition of shape (2,), self of shape (3,) and other of shape (1,)"
std::string describeOperands(std::initializer_list<NamedShape> operands) {
  std::string text;
  size_t i = 0;
  for (const NamedShape& operand : operands) {
    if (i > 0) text += i + 1 == operands.size() ? " and " : ", ";
    text += str(operand.name, " of shape ", formatSizes(operand.sizes));
    ++i;
  }
  return text;
}

}  // namespace

SizesVector broadcastShapes(const char* op, std::initializer_list<NamedShape> operands) {
  size_t ndim = 0;
  for (const NamedShape& operand : operands) ndim = std::max(ndim, operand.sizes.size());
  SizesVector result(ndim, 1);
  for (size_t i = 0; i < ndim; ++i) {
    const size_t d = ndim - 1 - i;  // result dimension; operands align on the right
    bool compatible = true;
    for (const NamedShape& operand : operands) {
      const int64_t size = i < operand.sizes.size() ? operand.sizes[operand.sizes.size() - 1 - i] : 1;
      if (size == 1) continue;
      compatible = compatible && (result[d] == 1 || result[d] == size);
      result[d] = size;
    }
    if (compatible) continue;
    std::string sizes;
    size_t k = 0;
    for (const NamedShape& operand : operands) {
      if (k > 0) sizes += k + 1 == operands.size() ? " and " : ", ";
      sizes += std::to_string(i < operand.sizes.size() ? operand.sizes[operand.sizes.size() - 1 - i] : 1);
      ++k;
    }
    SY_ERROR(op, ": cannot broadcast ", describeOperands(operands), " together: at dimension ", d,
             " of the result the sizes are ", sizes);
  }
  return result;
}

void shapeOutput(const char* op, const Tensor& out, IntArrayRef shape, OutputRole role) {
  if (role == OutputRole::Out) {
    resizeOutput(out, shape);
  } else {
    SY_CHECK(sameSizes(out.sizes(), shape), op, ": output with shape ", formatSizes(out.sizes()),
             " doesn't match the broadcast shape ", formatSizes(shape));
  }
  checkNoInternalOverlap(op, out);
}

// ---- Conversions and staging -------------------------------------------------------------------

Tensor convertedTo(const char* op, const char* argument, const Tensor& t, ScalarType dtype) {
  if (t.scalar_type() == dtype) return t;
  Tensor converted = scratchTensor(op, t.sizes(), dtype);
  copyIntoCPU(op, converted, t, "converted", argument);
  return converted;
}

namespace {

// A Scalar operand's value in the computation's dtype. PyTorch keeps the operand as a Long, Double
// or Bool and casts it inside the loop, so an integer wraps into a narrower integral dtype
// (int32 + 2**40) and a double beyond Float's range becomes an infinity; the same casts, done once.
// Anything else (a double into an integral dtype, which type promotion never asks for) goes
// through the checked Scalar::to.
template <class T>
T operandValue(const Scalar& value) {
  if constexpr (is_floating_v<T>) {
    if (value.isFloatingPoint()) return static_cast<T>(value.toDouble());
  } else if constexpr (!std::is_same_v<T, bool>) {
    if (value.isIntegral(/*include_bool=*/false)) return static_cast<T>(value.toLong());
  }
  return value.to<T>();
}

}  // namespace

Tensor scalarTensor(const Scalar& value, ScalarType dtype) {
  Tensor t = sy::empty({}, dtype);
  // dtype set: every dtype a Scalar operand is wrapped in.
  dispatchDtype<kRealHBBF16Dtypes>(dtype, "scalarTensor", "dtype", [&](auto tag) {
    using T = typename decltype(tag)::type;
    *static_cast<T*>(t.data_ptr()) = operandValue<T>(value);
  });
  return t;
}

// Note [A Scalar operand is wrapped without allocating]
// The Scalar forms (add.Scalar, eq.Scalar, ...) compute on their Scalar as on a 0-dim tensor of the
// result's dtype, and allocating one per call (a TensorImpl and a StorageImpl) cost about 750 of a
// one-element eq.Scalar's 2,200 instructions. Each thread keeps one such tensor per dtype and
// writes the value into it; it is reused only while nothing else holds it or its storage (an
// outer call's operand, for a kernel that calls another Scalar form; a view a kernel made of it),
// and otherwise a fresh one is made, so a value is never overwritten under a reader. The operand is
// only read during the kernel's call, never returned or written.
Tensor wrappedScalarOperand(const Scalar& value, ScalarType dtype) {
  const int index = static_cast<int>(dtype);
  if (index < 0 || index >= kNumScalarTypes) return scalarTensor(value, dtype);
  thread_local std::array<Tensor, kNumScalarTypes> wrapped;
  Tensor& t = wrapped[static_cast<size_t>(index)];
  if (!t.defined() || t.use_count() != 1 || t.storage().use_count() != 1) {
    Tensor fresh = scalarTensor(value, dtype);
    if (!t.defined()) t = fresh;
    return fresh;
  }
  // dtype set: every dtype a Scalar operand is wrapped in.
  dispatchDtype<kRealHBBF16Dtypes>(dtype, "scalarTensor", "dtype", [&](auto tag) {
    using T = typename decltype(tag)::type;
    *static_cast<T*>(t.unsafeGetTensorImpl()->data()) = operandValue<T>(value);
  });
  return t;
}

Tensor unaffectedByResizeOf(const Tensor& out, const Tensor& input) {
  if (!input.is_same(out)) return input;
  auto impl = make_intrusive<TensorImpl>(input.storage(), input.scalar_type(), input.device());
  impl->set_sizes_and_strides(input.sizes(), input.strides(), input.storage_offset());
  return Tensor(std::move(impl));
}

bool partiallyOverlaps(const Tensor& out, const Tensor& input) {
  if (!sameMemory(out, input)) return false;
  const bool same_geometry = out.storage_offset() == input.storage_offset() && sameSizes(out.sizes(), input.sizes()) &&
                             sameSizes(out.strides(), input.strides()) && out.scalar_type() == input.scalar_type();
  return !same_geometry;
}

// ---- Loop geometry -----------------------------------------------------------------------------

LoopGeometry makeLoopGeometry(std::initializer_list<const Tensor*> operands) {
  SY_CHECK(operands.size() >= 1 && operands.size() <= kMaxOperands, "makeLoopGeometry: ", operands.size(),
           " operands (1 to ", kMaxOperands, " supported)");
  const Tensor& output = **operands.begin();
  const IntArrayRef shape = output.sizes();
  const int64_t ndim = static_cast<int64_t>(shape.size());

  LoopGeometry g;
  g.num_operands = operands.size();
  g.numel = output.numel();

  // The common case, without the general machinery: every operand dense and of the output's shape.
  bool all_dense_same_shape = true;
  for (const Tensor* operand : operands) {
    all_dense_same_shape = all_dense_same_shape && operand->is_contiguous() && sameSizes(operand->sizes(), shape);
  }
  if (all_dense_same_shape) {  // one row: no dimension at all
    size_t k = 0;
    for (const Tensor* operand : operands) {
      g.data[k] = static_cast<char*>(operand->data_ptr());
      g.row_strides[k++] = static_cast<int64_t>(operand->element_size());
    }
    return g;
  }

  // Byte strides of every operand over the full shape, inputs aligned to the trailing dimensions.
  absl::InlinedVector<std::array<int64_t, kMaxOperands>, 5> full_strides(static_cast<size_t>(ndim));
  size_t k = 0;
  for (const Tensor* operand : operands) {
    g.data[k] = static_cast<char*>(operand->data_ptr());
    const int64_t element_size = static_cast<int64_t>(operand->element_size());
    const IntArrayRef sizes = operand->sizes();
    const IntArrayRef strides = operand->strides();
    const int64_t offset = ndim - static_cast<int64_t>(sizes.size());
    for (int64_t d = 0; d < ndim; ++d) {
      const int64_t od = d - offset;
      const bool broadcast = od < 0 || (sizes[od] == 1 && shape[d] != 1);
      full_strides[d][k] = broadcast ? 0 : strides[od] * element_size;
    }
    ++k;
  }

  // Size-1 dimensions contribute nothing; order the rest by the output's strides, largest outside.
  SizesVector dims;
  for (int64_t d = 0; d < ndim; ++d) {
    if (shape[d] != 1) dims.push_back(d);
  }
  // Insertion sort: stable, allocation-free, and a no-op pass for the usual contiguous output.
  for (size_t i = 1; i < dims.size(); ++i) {
    const int64_t d = dims[i];
    size_t j = i;
    for (; j > 0 && std::abs(full_strides[dims[j - 1]][0]) < std::abs(full_strides[d][0]); --j) dims[j] = dims[j - 1];
    dims[j] = d;
  }

  // Merge a dimension into the one outside it when every operand steps through both as one.
  for (int64_t d : dims) {
    if (!g.sizes.empty()) {
      const size_t outer = g.sizes.size() - 1;
      bool mergeable = true;
      for (size_t op = 0; op < g.num_operands; ++op) {
        mergeable = mergeable && g.strides[outer][op] == full_strides[d][op] * shape[d];
      }
      if (mergeable) {
        g.sizes[outer] *= shape[d];
        g.strides[outer] = full_strides[d];
        continue;
      }
    }
    g.sizes.push_back(shape[d]);
    g.strides.push_back(full_strides[d]);
  }
  return g;
}

// ---- Binary operations -------------------------------------------------------------------------

void checkBinaryInputs(const char* op, const Tensor& self, const Tensor& other) {
  checkOnCPU(op, "self", self);
  checkOnCPU(op, "other", other);
  // dtype set: the binary drivers' element loops; each kernel checks its declared set on the result dtype.
  checkDtypeSupported(op, "self", self.scalar_type(), kRealHBBF16Dtypes);
  // dtype set: likewise.
  checkDtypeSupported(op, "other", other.scalar_type(), kRealHBBF16Dtypes);
}

BinaryOperands binaryOperands(const char* op, const Tensor& self, const Tensor& other) {
  checkBinaryInputs(op, self, other);
  return {other, other.scalar_type(), binaryResultType(self, other)};
}

BinaryOperands binaryOperands(const char* op, const Tensor& self, const Scalar& other) {
  checkOnCPU(op, "self", self);
  // dtype set: the binary drivers' element loops; each kernel checks its declared set on the result dtype.
  checkDtypeSupported(op, "self", self.scalar_type(), kRealHBBF16Dtypes);
  const ScalarType result = binaryResultType(self, other);
  return {wrappedScalarOperand(other, result), other.type(), result};
}

BinaryInputs::BinaryInputs(const char* op, const Tensor& out, IntArrayRef shape, OutputRole role, const Tensor& self,
                           const Tensor& other)
    : resized_(role == OutputRole::Out && !sameSizes(out.sizes(), shape)),
      pinned_self_(resized_ ? unaffectedByResizeOf(out, self) : Tensor()),
      pinned_other_(resized_ ? unaffectedByResizeOf(out, other) : Tensor()),
      self_(resized_ ? pinned_self_ : self),
      other_(resized_ ? pinned_other_ : other) {
  shapeOutput(op, out, shape, role);
}

BinaryInputs prepareBinaryOutput(const char* op, const Tensor& self, const Tensor& other, const Tensor& out,
                                 ScalarType result, OutputRole role, bool check_cast) {
  checkOnCPU(op, "out", out);
  // dtype set: any dtype an out= of a binary kernel may have.
  checkDtypeSupported(op, "out", out.scalar_type(), kRealHBBF16Dtypes);
  if (check_cast) checkCanCastToOutput(op, result, out);
  return BinaryInputs(op, out, broadcastShapes(op, self.sizes(), other.sizes()), role, self, other);
}

DenseBinaryLayout denseBinaryLayout(const Tensor& self, const Tensor& other, const Tensor& out, ScalarType dtype,
                                    ScalarType out_dtype) {
  // See Note [Dense binary calls of one dtype skip the loop geometry].
  if (!out.defined() || !out.is_cpu() || out.scalar_type() != out_dtype || self.scalar_type() != dtype ||
      other.scalar_type() != dtype || !out.is_contiguous() || !self.is_contiguous() || !other.is_contiguous()) {
    return DenseBinaryLayout::None;
  }
  const IntArrayRef shape = out.sizes();
  DenseBinaryLayout layout = DenseBinaryLayout::None;
  if (sameSizes(self.sizes(), shape)) {
    // A single-element other with no more dimensions than self broadcasts to self's shape.
    if (sameSizes(other.sizes(), shape)) {
      layout = DenseBinaryLayout::SameShape;
    } else if (other.numel() == 1 && other.dim() <= self.dim()) {
      layout = DenseBinaryLayout::SingleOther;
    }
  } else if (sameSizes(other.sizes(), shape) && self.numel() == 1 && self.dim() <= other.dim()) {
    layout = DenseBinaryLayout::SingleSelf;
  }
  if (layout == DenseBinaryLayout::None) return layout;
  // partiallyOverlaps for operands known contiguous and of out's dtype: one sharing out's memory
  // overlaps it only partially unless it starts where out starts and has out's element count (a
  // single element read before the loop writes anything counts as not overlapping either).
  for (const Tensor* input : {&self, &other}) {
    if (sameMemory(out, *input) && (input->storage_offset() != out.storage_offset() ||
                                    (input->numel() != out.numel() && input->numel() != 1))) {
      return DenseBinaryLayout::None;
    }
  }
  return layout;
}

Tensor allocateBinaryResult(const char* op, const Tensor& self, const Tensor& other, ScalarType result) {
  const SizesVector shape = broadcastShapes(op, self.sizes(), other.sizes());
  return ops::empty(shape, TensorOptions(result).device(kCPU));
}

}  // namespace sy::cpu
