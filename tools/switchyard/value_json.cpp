#include "switchyard/tools/switchyard/value_json.h"

#include <random>

#include "switchyard/ivalue/error.h"
#include "switchyard/backends/cpu/dtype_dispatch.h"
#include "switchyard/ivalue/tensor_factories.h"
#include "switchyard/ops/shape_ops.h"

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

absl::StatusOr<std::vector<int64_t>> readSizes(const json& sizes, const std::string& where, int64_t* numel) {
  if (!sizes.is_array()) return invalid(where, "\"sizes\" must be a list of non-negative integers");
  std::vector<int64_t> out;
  *numel = 1;
  for (const json& s : sizes) {
    if (!s.is_number_integer() || s.get<int64_t>() < 0) {
      return invalid(where, sy::str("\"sizes\" must be a list of non-negative integers, got ", s.dump()));
    }
    out.push_back(s.get<int64_t>());
    if (__builtin_mul_overflow(*numel, out.back(), numel) || *numel > (int64_t{1} << 40)) {
      return invalid(where, sy::str("\"sizes\" ", sizes.dump(), " describe too many elements"));
    }
  }
  return out;
}

absl::StatusOr<IValue> tensorFromJson(const json& j, const ValueInfo& expected, const std::string& where) {
  for (const char* field : {"dtype", "sizes", "data"}) {
    if (!j.contains(field)) return invalid(where, sy::str("a tensor needs \"", field, "\""));
  }
  absl::StatusOr<ScalarType> dtype = tensorDtype(expected, where);
  if (!dtype.ok()) return dtype.status();
  if (!j["dtype"].is_string() || j["dtype"].get<std::string>() != toString(*expected.dtype)) {
    return invalid(where, sy::str("\"dtype\" is ", j["dtype"].dump(), " but the method takes ",
                                       toString(*expected.dtype)));
  }
  int64_t numel = 0;
  absl::StatusOr<std::vector<int64_t>> sizes = readSizes(j["sizes"], where, &numel);
  if (!sizes.ok()) return sizes.status();
  const json& data = j["data"];
  if (!data.is_array() || static_cast<int64_t>(data.size()) != numel) {
    return invalid(where, sy::str("\"data\" must be a list of ", numel, " numbers for sizes ", j["sizes"].dump()));
  }
  Tensor t = empty(*sizes, TensorOptions(*dtype));
  absl::Status status = absl::OkStatus();
  cpu::dispatchDtype<cpu::kAllDtypes>(*dtype, "switchyard run", "input", [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* out = t.data_ptr<T>();
    for (int64_t i = 0; i < numel && status.ok(); ++i) {
      const json& v = data[i];
      if constexpr (std::is_same_v<T, bool>) {
        if (!v.is_boolean()) status = invalid(where, sy::str("element ", i, " must be true or false, got ", v.dump()));
        else out[i] = v.get<bool>();
      } else if constexpr (std::is_integral_v<T>) {
        if (!v.is_number_integer()) status = invalid(where, sy::str("element ", i, " must be an integer, got ", v.dump()));
        else out[i] = static_cast<T>(v.get<int64_t>());
      } else {
        if (!v.is_number()) status = invalid(where, sy::str("element ", i, " must be a number, got ", v.dump()));
        else out[i] = static_cast<T>(v.get<double>());
      }
    }
  });
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
  if (kind == "Int" && j.is_number_integer()) return IValue(j.get<int64_t>());
  if (kind == "Double" && j.is_number()) return IValue(j.get<double>());
  if (kind == "Bool" && j.is_boolean()) return IValue(j.get<bool>());
  if (kind == "String" && j.is_string()) return IValue(j.get<std::string>());
  if (kind == "None" && j.is_null()) return IValue();
  if (kind == "IntList" && j.is_array()) {
    std::vector<int64_t> values;
    for (const json& v : j) {
      if (!v.is_number_integer()) return invalid(where, sy::str("the method takes a list of integers, got ", j.dump()));
      values.push_back(v.get<int64_t>());
    }
    return IValue(values);
  }
  return invalid(where, sy::str("the method takes a value of kind ", kind, ", got ", j.dump()));
}

json valueToJson(const IValue& value) {
  if (value.isTensor()) {
    const Tensor t = ops::contiguous(value.toTensor().to(kCPU));
    json data = json::array();
    cpu::dispatchDtype<cpu::kAllDtypes>(t.scalar_type(), "switchyard run", "output", [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* p = t.data_ptr<T>();
      for (int64_t i = 0; i < t.numel(); ++i) data.push_back(loadElement(p + i));  // See Note [Bool elements are read as bytes]
    });
    std::optional<ProgramScalarType> dtype = toProgramScalarType(t.scalar_type());
    return json{{"dtype", dtype ? toString(*dtype) : "Undefined"},
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
  cpu::dispatchDtype<cpu::kAllDtypes>(*dtype, "switchyard run", "input", [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* out = t.data_ptr<T>();
    for (int64_t i = 0; i < t.numel(); ++i) {
      if constexpr (std::is_same_v<T, bool>) out[i] = rng() & 1;
      else if constexpr (std::is_integral_v<T>) out[i] = static_cast<T>(rng() % 10);
      else out[i] = static_cast<T>(std::uniform_real_distribution<double>(-1, 1)(rng));
    }
  });
  return IValue(std::move(t));
}

}  // namespace sy::cli
