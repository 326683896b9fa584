#include "switchyard/tools/switchyard/value_json.h"

#include <cmath>
#include <limits>
#include <random>

#include "switchyard/core/error.h"
#include "switchyard/ivalue/load_element.h"
#include "switchyard/ivalue/tensor_factories.h"
#include "switchyard/ops/shape_ops.h"
#include "switchyard/tools/switchyard/json_text.h"

namespace sy::cli {
namespace {

using nlohmann::json;

absl::Status invalid(const std::string& where, std::string_view what) {
  return absl::InvalidArgumentError(sy::str(where, ": ", what));
}

// The Switchyard dtype a declared input has, or an error naming the input.
absl::StatusOr<ScalarType> tensorDtype(const ValueInfo& expected, const std::string& where) {
  if (!expected.dtype) return invalid(where, "the program declares no dtype for this tensor");
  std::optional<ScalarType> dtype = toSwitchyardScalarType(*expected.dtype);
  if (!dtype) {
    return invalid(where, sy::str("dtype ", toString(*expected.dtype), " is not one Switchyard tensors can hold"));
  }
  return *dtype;
}

// Reads an integer element into T (any integral type but bool): kNotAnInteger for anything but a
// JSON integer (or a float with an integral value, which is refused as out of range when it is,
// else as not an integer).
enum class IntegerRead { kOk, kNotAnInteger, kOutOfRange };
template <class T>
IntegerRead readInteger(const json& v, T* out) {
  static_assert(std::is_integral_v<T> && !std::is_same_v<T, bool>);
  constexpr T kMin = std::numeric_limits<T>::min();
  constexpr T kMax = std::numeric_limits<T>::max();
  if (v.is_number_unsigned()) {
    const uint64_t u = v.get<uint64_t>();
    if (u > static_cast<uint64_t>(kMax)) return IntegerRead::kOutOfRange;
    *out = static_cast<T>(u);
    return IntegerRead::kOk;
  }
  if (v.is_number_integer()) {
    const int64_t i = v.get<int64_t>();
    if constexpr (std::is_unsigned_v<T>) {
      if (i < 0 || static_cast<uint64_t>(i) > static_cast<uint64_t>(kMax)) return IntegerRead::kOutOfRange;
    } else if constexpr (sizeof(T) < sizeof(int64_t)) {
      if (i < kMin || i > kMax) return IntegerRead::kOutOfRange;
    }
    *out = static_cast<T>(i);
    return IntegerRead::kOk;
  }
  if (v.is_number_float()) {
    const double d = v.get<double>();
    // [min, max + 1): both ends are exact doubles (max + 1 is a power of two).
    const double low = static_cast<double>(kMin);
    const double high = std::ldexp(1.0, std::numeric_limits<T>::digits);
    if (std::isfinite(d) && std::trunc(d) == d && (d < low || d >= high)) return IntegerRead::kOutOfRange;
  }
  return IntegerRead::kNotAnInteger;
}

// `v` as an int64_t value of `what` ("\"sizes\"", "element 3"), or an error naming it.
absl::StatusOr<int64_t> int64Of(const json& v, const std::string& where, const std::string& what) {
  int64_t out = 0;
  switch (readInteger(v, &out)) {
    case IntegerRead::kOk: return out;
    case IntegerRead::kOutOfRange:
      return invalid(where, sy::str(what, " ", jsonExcerpt(v), " does not fit in a 64-bit integer (Long)"));
    case IntegerRead::kNotAnInteger: break;
  }
  return invalid(where, sy::str(what, " must be an integer, got ", jsonExcerpt(v)));
}

absl::StatusOr<std::vector<int64_t>> readSizes(const json& sizes, const std::string& where, int64_t* numel) {
  if (!sizes.is_array()) return invalid(where, "\"sizes\" must be a list of non-negative integers");
  std::vector<int64_t> out;
  *numel = 1;
  for (const json& s : sizes) {
    absl::StatusOr<int64_t> size = int64Of(s, where, "each of \"sizes\"");
    if (!size.ok()) return size.status();
    if (*size < 0) return invalid(where, sy::str("\"sizes\" must be a list of non-negative integers, got ", *size));
    out.push_back(*size);
    if (__builtin_mul_overflow(*numel, out.back(), numel) || *numel > (int64_t{1} << 40)) {
      return invalid(where, sy::str("\"sizes\" ", jsonExcerpt(sizes), " describe too many elements"));
    }
  }
  return out;
}

// Element `i` of a tensor of `dtype` into *out, or an error naming the element and the dtype.
template <class T>
absl::Status readElement(const json& v, int64_t i, ScalarType dtype, const std::string& where, T* out) {
  const std::string element = sy::str("element ", i);
  if constexpr (std::is_same_v<T, bool>) {
    if (!v.is_boolean()) return invalid(where, sy::str(element, " must be true or false, got ", jsonExcerpt(v)));
    *out = v.get<bool>();
  } else if constexpr (std::is_integral_v<T>) {
    switch (readInteger(v, out)) {
      case IntegerRead::kOk: break;
      case IntegerRead::kOutOfRange:
        return invalid(where, sy::str(element, " (", jsonExcerpt(v), ") does not fit in ", toString(dtype), " [",
                                      +std::numeric_limits<T>::min(), ", ", +std::numeric_limits<T>::max(), "]"));
      case IntegerRead::kNotAnInteger:
        return invalid(where, sy::str(element, " must be an integer, got ", jsonExcerpt(v)));
    }
  } else {
    if (!v.is_number()) return invalid(where, sy::str(element, " must be a number, got ", jsonExcerpt(v)));
    const double d = v.get<double>();
    // Infinities and NaN are values of every floating dtype; a finite double past the dtype's range is not.
    // Half, BFloat16 and the Float8 types end at their largest finite value, as PyTorch's check does.
    if (std::isfinite(d) && std::fabs(d) > static_cast<double>(static_cast<float>(largestFinite<T>()))) {
      return invalid(where, sy::str(element, " (", jsonExcerpt(v), ") does not fit in ", toString(dtype)));
    }
    *out = static_cast<T>(d);
  }
  return absl::OkStatus();
}

absl::StatusOr<IValue> tensorFromJson(const json& j, const ValueInfo& expected, const std::string& where) {
  for (const char* field : {"dtype", "sizes", "data"}) {
    if (!j.contains(field)) return invalid(where, sy::str("a tensor needs \"", field, "\""));
  }
  absl::StatusOr<ScalarType> dtype = tensorDtype(expected, where);
  if (!dtype.ok()) return dtype.status();
  if (!j["dtype"].is_string() || j["dtype"].get<std::string>() != toString(*expected.dtype)) {
    return invalid(where, sy::str("\"dtype\" is ", jsonExcerpt(j["dtype"]), " but the method takes ",
                                       toString(*expected.dtype)));
  }
  int64_t numel = 0;
  absl::StatusOr<std::vector<int64_t>> sizes = readSizes(j["sizes"], where, &numel);
  if (!sizes.ok()) return sizes.status();
  const json& data = j["data"];
  if (!data.is_array() || static_cast<int64_t>(data.size()) != numel) {
    return invalid(where, sy::str("\"data\" must be a list of ", numel, " numbers for sizes ", jsonExcerpt(j["sizes"])));
  }
  Tensor t = empty(*sizes, TensorOptions(*dtype));
  absl::Status status = absl::OkStatus();
  const bool real = visitScalarType(*dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* out = t.data_ptr<T>();
    for (int64_t i = 0; i < numel && status.ok(); ++i) status = readElement(data[i], i, *dtype, where, &out[i]);
  });
  if (!real) {
    // Quantized and bits dtypes: their stored integers.
    visitEveryScalarType(*dtype, [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (!isRealType(CppTypeToScalarType<T>::value) && !isComplexType(CppTypeToScalarType<T>::value)) {
        T* out = t.data_ptr<T>();
        for (int64_t i = 0; i < numel && status.ok(); ++i) {
          typename T::underlying value{};
          status = readElement(data[i], i, *dtype, where, &value);
          out[i] = T(value);
        }
      } else {
        status = invalid(where, sy::str("switchyard run cannot read ", *dtype, " tensors from JSON yet"));
      }
    });
  }
  if (!status.ok()) return status;
  return IValue(std::move(t));
}

}  // namespace

absl::StatusOr<IValue> valueFromJson(const json& j, const ValueInfo& expected, const std::string& where) {
  const std::string& kind = expected.kind;
  if (kind == "Tensor") {
    if (!j.is_object()) return invalid(where, "the method takes a tensor: {\"dtype\": ..., \"sizes\": [...], \"data\": [...]}");
    return tensorFromJson(j, expected, where);
  }
  if (kind == "Int" && j.is_number()) {
    absl::StatusOr<int64_t> v = int64Of(j, where, "the value");
    if (!v.ok()) return v.status();
    return IValue(*v);
  }
  if (kind == "Double" && j.is_number()) return IValue(j.get<double>());
  if (kind == "Bool" && j.is_boolean()) return IValue(j.get<bool>());
  if (kind == "String" && j.is_string()) return IValue(j.get<std::string>());
  if (kind == "None" && j.is_null()) return IValue();
  if (kind == "IntList" && j.is_array()) {
    std::vector<int64_t> values;
    for (size_t i = 0; i < j.size(); ++i) {
      absl::StatusOr<int64_t> v = int64Of(j[i], where, sy::str("item ", i, " of the list"));
      if (!v.ok()) return v.status();
      values.push_back(*v);
    }
    return IValue(values);
  }
  return invalid(where, sy::str("the method takes a value of kind ", kind, ", got ", jsonExcerpt(j)));
}

json valueToJson(const IValue& value) {
  if (value.isTensor()) {
    const Tensor t = ops::contiguous(value.toTensor().to(kCPU));
    json data = json::array();
    // Every value as a JSON number: a floating element as the double it is exactly, so reading the
    // JSON back gives the same bits; a quantized or bits element as its stored integer; a complex
    // element as [real, imaginary].
    visitEveryScalarType(t.scalar_type(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* p = t.data_ptr<T>();
      for (int64_t i = 0; i < t.numel(); ++i) {
        const T x = loadElement(p + i);  // See Note [Bool elements are read as bytes]
        if constexpr (std::is_arithmetic_v<T>) {
          data.push_back(x);
        } else if constexpr (isFloatingType(CppTypeToScalarType<T>::value)) {
          data.push_back(static_cast<double>(static_cast<float>(x)));
        } else if constexpr (isComplexType(CppTypeToScalarType<T>::value)) {
          data.push_back(json::array({static_cast<double>(x.real()), static_cast<double>(x.imag())}));
        } else {
          data.push_back(+x.val_);
        }
      }
    });
    return json{{"dtype", std::string(toString(t.scalar_type()))},
                {"sizes", std::vector<int64_t>(t.sizes().begin(), t.sizes().end())},
                {"data", std::move(data)}};
  }
  if (value.isNone()) return nullptr;
  if (value.isInt()) return value.toInt();
  if (value.isDouble()) return value.toDouble();
  if (value.isBool()) return value.toBool();
  if (value.isString()) return value.toStringRef();
  if (value.isIntList()) return value.toIntVector();
  if (value.isDoubleList()) return value.toDoubleList();
  if (value.isTensorList()) {
    json list = json::array();
    for (const Tensor& t : value.toTensorVector()) list.push_back(valueToJson(IValue(t)));
    return list;
  }
  return sy::str("<", value.typeName(), ">");
}

absl::StatusOr<IValue> randomValue(const ValueInfo& expected, uint64_t seed, const std::string& where) {
  std::mt19937_64 rng(seed);
  if (expected.kind == "Int") return IValue(static_cast<int64_t>(rng() % 10));
  if (expected.kind == "Double") return IValue(std::uniform_real_distribution<double>(-1, 1)(rng));
  if (expected.kind == "Bool") return IValue(static_cast<bool>(rng() & 1));
  if (expected.kind != "Tensor") {
    return invalid(where, sy::str("--random cannot make a value of kind ", expected.kind, "; use --inputs"));
  }
  absl::StatusOr<ScalarType> dtype = tensorDtype(expected, where);
  if (!dtype.ok()) return dtype.status();
  Tensor t = empty(expected.sizes, TensorOptions(*dtype));
  const bool real = visitScalarType(*dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* out = t.data_ptr<T>();
    for (int64_t i = 0; i < t.numel(); ++i) {
      if constexpr (std::is_same_v<T, bool>) out[i] = rng() & 1;
      else if constexpr (std::is_integral_v<T>) out[i] = static_cast<T>(rng() % 10);
      else out[i] = static_cast<T>(std::uniform_real_distribution<double>(-1, 1)(rng));
    }
  });
  if (!real) return invalid(where, sy::str("--random cannot make a ", *dtype, " tensor; use --inputs"));
  return IValue(std::move(t));
}

}  // namespace sy::cli
