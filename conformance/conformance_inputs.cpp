#include "switchyard/conformance/conformance_inputs.h"

#include <cmath>
#include <limits>

#include "absl/strings/str_join.h"
#include "switchyard/core/error.h"
#include "switchyard/ivalue/tensor_factories.h"
#include "switchyard/ops/shape_ops.h"

namespace sy::conformance {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

bool isFloating(ScalarType t) { return t == ScalarType::Float || t == ScalarType::Double; }

// The value of element `i` (in logical row-major order) of a tensor filled as `fill` asks.
double valueAt(Fill fill, ScalarType dtype, int64_t i, uint64_t& state) {
  static constexpr double kFloatEdges[] = {0.0, -0.0, 1.0,  -1.0,  0.5,  -2.5, 3.0, 1e-3,
                                           -100, std::numeric_limits<double>::quiet_NaN(), kInf, -kInf};
  static constexpr double kIntEdges[] = {0, 1, -1, 2, -7, 100, -1000, 12345};
  if (dtype == ScalarType::Bool) return static_cast<double>(i % 3 == 1);
  if (fill == Fill::EdgeValues) {
    return isFloating(dtype) ? kFloatEdges[i % std::size(kFloatEdges)] : kIntEdges[i % std::size(kIntEdges)];
  }
  state = state * 6364136223846793005ULL + 1442695040888963407ULL;  // Knuth's MMIX generator
  const double unit = static_cast<double>(state >> 11) / static_cast<double>(1ULL << 53);  // [0, 1)
  return isFloating(dtype) ? unit * 8.0 - 4.0 : std::floor(unit * 101.0) - 50.0;
}

}  // namespace

std::string TensorSpec::describe() const {
  std::string order = absl::StrJoin(meta.dim_order, ",", [](std::string* out, uint8_t d) { out->append(std::to_string(d)); });
  return str(toString(meta.dtype), " [", absl::StrJoin(sizes, ", "), "], dim order ", order.empty() ? "()" : order,
             strided ? ", strided" : ", dense", fill == Fill::EdgeValues ? ", edge values" : ", random values");
}

Tensor makeTensor(const TensorSpec& spec, uint64_t seed) {
  const size_t rank = spec.sizes.size();
  SY_CHECK(spec.meta.dim_order.size() == rank, "conformance: dim order of rank ", spec.meta.dim_order.size(),
           " for sizes of rank ", rank);
  // Memory holds the dimensions in dim order (outermost first); the innermost one twice as long
  // when strided, so that every other element of it is the tensor's.
  std::vector<int64_t> physical(rank);
  std::vector<int64_t> to_logical(rank);  // permute() argument: logical dim d is physical dim to_logical[d]
  for (size_t i = 0; i < rank; ++i) {
    physical[i] = spec.sizes[spec.meta.dim_order[i]];
    to_logical[spec.meta.dim_order[i]] = static_cast<int64_t>(i);
  }
  const bool strided = spec.strided && rank > 0;
  if (strided) physical[rank - 1] *= 2;
  Tensor memory = empty(physical, spec.meta.dtype);
  if (strided) memory = ops::slice(memory, static_cast<int64_t>(rank) - 1, 0, std::nullopt, 2);
  Tensor t = ops::permute(memory, to_logical);

  Tensor values = empty(spec.sizes, ScalarType::Double);
  double* v = values.data_ptr<double>();
  uint64_t state = seed * 0x9E3779B97F4A7C15ULL + 1;
  for (int64_t i = 0; i < values.numel(); ++i) v[i] = valueAt(spec.fill, spec.meta.dtype, i, state);
  ops::copy_(t, values);
  return t;
}

std::vector<std::vector<int64_t>> shapesForRank(size_t rank) {
  if (rank == 0) return {{}};
  static constexpr int64_t kSmall[] = {3, 4, 2, 2, 2, 2, 2, 2};
  std::vector<int64_t> small(kSmall, kSmall + std::min<size_t>(rank, std::size(kSmall)));
  small.resize(rank, 1);
  std::vector<int64_t> odd(rank, 1);
  odd[rank - 1] = 37;  // more than four AVX2 Float vectors and a remainder
  if (rank > 1) odd[0] = 2;
  std::vector<int64_t> empty_shape = small;
  empty_shape[0] = 0;
  return {small, odd, empty_shape};
}

ArgumentValues candidateValues(const std::string& op, const Argument& argument, ScalarType first_dtype,
                               const std::map<std::string, std::vector<IValue>>& overrides) {
  for (const std::string& name : {op + "/" + argument.name, argument.name}) {
    if (auto it = overrides.find(name); it != overrides.end()) return {it->second, "options"};
  }
  if (argument.default_value) return {{*argument.default_value}, "default"};
  const Type& type = *argument.type;
  if (type.kind() == TypeKind::Optional) return {{IValue()}, "harness"};
  const bool is_dim = argument.name == "dim" || argument.name == "dims";
  switch (type.kind()) {
    case TypeKind::Int:
    case TypeKind::SymInt:
      return {is_dim ? std::vector<IValue>{int64_t{0}, int64_t{-1}} : std::vector<IValue>{int64_t{1}}, "harness"};
    case TypeKind::Bool:
      return {{false, true}, "harness"};
    case TypeKind::Float:
      return {{0.5}, "harness"};
    case TypeKind::Scalar:
      return {{Scalar(2.0)}, "harness"};
    case TypeKind::ScalarType:
      return {{first_dtype}, "harness"};
    case TypeKind::List:
      if (type.element()->kind() == TypeKind::Int || type.element()->kind() == TypeKind::SymInt) {
        return {{std::vector<int64_t>{is_dim ? 0 : 1}}, "harness"};
      }
      return {{}, "harness"};
    default:
      return {{}, "harness"};
  }
}

}  // namespace sy::conformance
