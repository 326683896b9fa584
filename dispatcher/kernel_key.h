// KernelKey: which tensor arguments a partial kernel was written for, in ExecuTorch's terms: the
// dtype and dim order of each tensor argument, in argument order.
//
//   sy::KernelKey key({{sy::ScalarType::Float, {0, 1}}, {sy::ScalarType::Float, {0, 1}}});
//   key.toString();                                  // "v1/6;0,1|6;0,1" (ExecuTorch's spelling)
//   sy::KernelKey::makeDefault().toString();         // "default"
//   sy::TensorMeta::of(t);                           // {Float, {0, 1}} for a contiguous 2-D Float t
//
// Note [Kernel keys follow ExecuTorch]
// ExecuTorch's program loader makes one TensorMeta per argument that is a Tensor (present optional
// tensors included; tensor lists and None are skipped), in argument order, and looks the kernel up
// with them; its codegen writes keys as "v1/" + "<dtype>;<dim order>" per tensor joined by "|", with
// PyTorch's ScalarType numbers (Float 6, Double 7, Bool 11, ...). We do the same, so a key in a
// kernel YAML, a key printed in an error and a key ExecuTorch's tools print read alike. A dim order
// lists dimensions from outermost to innermost: [0, 1, 2, 3] is a contiguous 4-D tensor,
// [0, 2, 3, 1] channels-last. It includes the rank, so a key for [0, 1] never matches a 3-D tensor.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/types/span.h"
#include "switchyard/core/scalar_type.h"

namespace sy {

class Tensor;
class TensorImpl;

using DimOrder = absl::InlinedVector<uint8_t, 6>;

// The dtype and dim order of one tensor argument.
struct TensorMeta {
  ScalarType dtype = ScalarType::Undefined;
  DimOrder dim_order;

  // The dim order is computed from the strides, outermost (largest stride) first; dimensions with
  // equal strides keep their order, so a contiguous tensor gets 0, 1, ..., dim-1 (as ExecuTorch's
  // stride-to-dim-order conversion does).
  static TensorMeta of(const Tensor& t);
  // "6;0,1,2,3"
  std::string toString() const;
  // "Float, dim order 0,1,2,3"
  std::string describe() const;
  friend bool operator==(const TensorMeta& a, const TensorMeta& b) {
    return a.dtype == b.dtype && a.dim_order == b.dim_order;
  }
};

DimOrder dimOrderOf(const TensorImpl& impl);
bool isIdentityDimOrder(absl::Span<const uint8_t> order);

// PyTorch's (and ExecuTorch's) number for a dtype: Float 6, Double 7, Bool 11, Int 3, Long 4; the
// program format's table (core/program_scalar_type.h) is the one source of these numbers.
int executorchScalarTypeCode(ScalarType t);
std::optional<ScalarType> scalarTypeFromExecutorchCode(int code);
// The dtype named as in a kernel YAML's type_alias ("Float", "Double", "Int", "Long", "Bool").
std::optional<ScalarType> scalarTypeFromName(std::string_view name);

class KernelKey {
 public:
  // The key of a default kernel (`arg_meta: null`): used for any arguments no exact key matches.
  static KernelKey makeDefault() { return KernelKey(); }
  explicit KernelKey(std::vector<TensorMeta> tensor_args) : is_default_(false), tensor_args_(std::move(tensor_args)) {}

  // Parses "default" or "v1/6;0,1|6;0,1"; nullopt (with the reason in `error`) when malformed.
  static std::optional<KernelKey> parse(std::string_view text, std::string* error = nullptr);

  bool isDefault() const { return is_default_; }
  const std::vector<TensorMeta>& tensorArgs() const { return tensor_args_; }
  std::string toString() const;
  friend bool operator==(const KernelKey& a, const KernelKey& b) {
    return a.is_default_ == b.is_default_ && a.tensor_args_ == b.tensor_args_;
  }
  friend bool operator!=(const KernelKey& a, const KernelKey& b) { return !(a == b); }

 private:
  KernelKey() = default;
  bool is_default_ = true;
  std::vector<TensorMeta> tensor_args_;
};

}  // namespace sy
