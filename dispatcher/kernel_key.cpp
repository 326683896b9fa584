#include "switchyard/dispatcher/kernel_key.h"

#include <algorithm>
#include <charconv>
#include <numeric>

#include "switchyard/ivalue/tensor.h"
#include "switchyard/core/program_scalar_type.h"

namespace sy {

namespace {

std::optional<int> parseInt(std::string_view text) {
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    size_t pos = text.find(sep, start);
    parts.push_back(text.substr(start, pos == std::string_view::npos ? std::string_view::npos : pos - start));
    if (pos == std::string_view::npos) return parts;
    start = pos + 1;
  }
}

}  // namespace

int executorchScalarTypeCode(ScalarType t) {
  std::optional<ProgramScalarType> code = toProgramScalarType(t);
  return code ? static_cast<int>(*code) : -1;
}

std::optional<ScalarType> scalarTypeFromExecutorchCode(int code) {
  std::optional<ProgramScalarType> t = programScalarTypeFromCode(code);
  return t ? toSwitchyardScalarType(*t) : std::nullopt;
}

std::optional<ScalarType> scalarTypeFromName(std::string_view name) {
  for (int i = 0; i < kNumScalarTypes; ++i) {
    if (toString(static_cast<ScalarType>(i)) == name) return static_cast<ScalarType>(i);
  }
  return std::nullopt;
}

bool isIdentityDimOrder(absl::Span<const uint8_t> order) {
  for (size_t i = 0; i < order.size(); ++i) {
    if (order[i] != i) return false;
  }
  return true;
}

DimOrder dimOrderOf(const TensorImpl& impl) {
  const size_t rank = static_cast<size_t>(impl.dim());
  DimOrder order(rank);
  std::iota(order.begin(), order.end(), uint8_t{0});
  if (impl.is_contiguous()) return order;
  IntArrayRef strides = impl.strides();
  std::stable_sort(order.begin(), order.end(), [&](uint8_t a, uint8_t b) { return strides[a] > strides[b]; });
  return order;
}

TensorMeta TensorMeta::of(const Tensor& t) { return TensorMeta{t.dtype(), dimOrderOf(*t.unsafeGetTensorImpl())}; }

std::string TensorMeta::toString() const {
  std::string out = std::to_string(executorchScalarTypeCode(dtype)) + ";";
  for (size_t i = 0; i < dim_order.size(); ++i) {
    if (i > 0) out += ",";
    out += std::to_string(dim_order[i]);
  }
  return out;
}

std::string TensorMeta::describe() const {
  std::string out = std::string(sy::toString(dtype)) + ", dim order ";
  if (dim_order.empty()) return out + "() (0-D)";
  for (size_t i = 0; i < dim_order.size(); ++i) {
    if (i > 0) out += ",";
    out += std::to_string(dim_order[i]);
  }
  return out;
}

std::string KernelKey::toString() const {
  if (is_default_) return "default";
  std::string out = "v1/";
  for (size_t i = 0; i < tensor_args_.size(); ++i) {
    if (i > 0) out += "|";
    out += tensor_args_[i].toString();
  }
  return out;
}

std::optional<KernelKey> KernelKey::parse(std::string_view text, std::string* error) {
  auto fail = [&](std::string why) -> std::optional<KernelKey> {
    if (error != nullptr) *error = "malformed kernel key '" + std::string(text) + "': " + why;
    return std::nullopt;
  };
  if (text == "default") return makeDefault();
  if (text.substr(0, 3) != "v1/") return fail("expected 'default' or 'v1/<dtype>;<dim order>|...'");
  std::vector<TensorMeta> args;
  for (std::string_view part : split(text.substr(3), '|')) {
    size_t semi = part.find(';');
    if (semi == std::string_view::npos) return fail("'" + std::string(part) + "' has no ';' between dtype and dim order");
    std::optional<int> code = parseInt(part.substr(0, semi));
    std::optional<ScalarType> dtype = code ? scalarTypeFromExecutorchCode(*code) : std::nullopt;
    if (!dtype) return fail("'" + std::string(part.substr(0, semi)) + "' is not a supported dtype number");
    TensorMeta meta{*dtype, {}};
    std::string_view dims = part.substr(semi + 1);
    if (!dims.empty()) {
      for (std::string_view d : split(dims, ',')) {
        std::optional<int> dim = parseInt(d);
        if (!dim || *dim < 0 || *dim > 63) return fail("'" + std::string(d) + "' is not a dimension index");
        meta.dim_order.push_back(static_cast<uint8_t>(*dim));
      }
    }
    DimOrder sorted = meta.dim_order;
    std::sort(sorted.begin(), sorted.end());
    if (!isIdentityDimOrder(sorted)) return fail("'" + std::string(dims) + "' is not a permutation of 0..rank-1");
    args.push_back(std::move(meta));
  }
  return KernelKey(std::move(args));
}

}  // namespace sy
