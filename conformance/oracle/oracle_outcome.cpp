#include "switchyard/conformance/oracle/oracle_outcome.h"

#include <cmath>
#include <cstring>
#include <sstream>

#include "absl/strings/str_join.h"
#include "switchyard/core/error.h"
#include "switchyard/ivalue/odometer.h"

namespace sy::oracle {

namespace {

// Calls fn(element) for each element of a CPU tensor of any strides, in row-major order, with the
// element's C++ type C (one of the real types, or a complex type when kComplex).
template <bool kComplex, class Fn>
void forEachElementOf(const Tensor& t, Fn&& fn) {
  if (t.numel() == 0) return;
  const int64_t ndim = t.dim();
  std::vector<int64_t> index(ndim, 0);
  std::array<int64_t, 1> offset{0};
  const auto walk = [&](auto tag) {
    using C = typename decltype(tag)::type;
    const C* data = static_cast<const C*>(t.data_ptr());
    for (int64_t n = 0; n < t.numel(); ++n) {
      fn(data[offset[0]]);
      advanceOdometer(index.data(), t.sizes().data(), ndim - 1, offset, [&](int64_t d, size_t) { return t.stride(d); });
    }
  };
  if constexpr (kComplex) {
    switch (t.scalar_type()) {
      case ScalarType::ComplexHalf: return walk(TypeTag<Complex<Half>>{});
      case ScalarType::ComplexFloat: return walk(TypeTag<Complex<float>>{});
      default: return walk(TypeTag<Complex<double>>{});
    }
  } else {
    visitScalarType(t.scalar_type(), walk);
  }
}

// The elements as doubles (for the floating comparison) or as int64 (exact, for integers and Bool).
template <class Out>
std::vector<Out> elementsOf(const Tensor& t) {
  std::vector<Out> out;
  out.reserve(static_cast<size_t>(t.numel()));
  forEachElementOf<false>(t, [&](auto v) { out.push_back(static_cast<Out>(v)); });
  return out;
}

// The real and imaginary parts of a complex tensor's elements, interleaved.
std::vector<double> complexPartsOf(const Tensor& t) {
  std::vector<double> out;
  out.reserve(2 * static_cast<size_t>(t.numel()));
  forEachElementOf<true>(t, [&](auto z) {
    out.push_back(static_cast<double>(z.real()));
    out.push_back(static_cast<double>(z.imag()));
  });
  return out;
}

// The entry's tolerance for `dtype` (none: exact).
Tolerance toleranceOf(const Comparison& comparison, ScalarType dtype) {
  const auto found = comparison.tolerances.find(dtype);
  return found != comparison.tolerances.end() ? found->second : Tolerance{};
}

// |x - y| <= atol + rtol * |y|, or both NaN.
bool closeEnough(double x, double y, const Tolerance& tol) {
  return (std::isnan(x) && std::isnan(y)) || x == y || std::abs(x - y) <= tol.atol + tol.rtol * std::abs(y);
}

std::string indexOf(int64_t flat, IntArrayRef sizes) {
  std::vector<int64_t> index(sizes.size());
  for (size_t d = sizes.size(); d-- > 0;) {
    index[d] = sizes[d] == 0 ? 0 : flat % sizes[d];
    flat = sizes[d] == 0 ? 0 : flat / sizes[d];
  }
  return str("[", absl::StrJoin(index, ", "), "]");
}

std::string printed(const IValue& v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

std::string compareValues(const IValue& got, const IValue& want, const Comparison& comparison) {
  if (got.isTensor() && want.isTensor()) {
    if (got.toTensor().defined() != want.toTensor().defined()) {
      return got.toTensor().defined() ? "a tensor, expected undefined" : "undefined, expected a tensor";
    }
    if (!got.toTensor().defined()) return "";
    return compareTensors(got.toTensor(), want.toTensor(), comparison);
  }
  if (got.isTensorList() && want.isTensorList()) {
    const auto& a = got.toTensorVector();
    const auto& b = want.toTensorVector();
    if (a.size() != b.size()) return str("a list of ", a.size(), " tensors, expected ", b.size());
    for (size_t i = 0; i < a.size(); ++i) {
      if (std::string d = compareTensors(a[i], b[i], comparison); !d.empty()) return str("tensor ", i, ": ", d);
    }
    return "";
  }
  if (got.isTuple() && want.isTuple()) {
    const auto& a = got.toTupleElements();
    const auto& b = want.toTupleElements();
    if (a.size() != b.size()) return str("a tuple of ", a.size(), ", expected of ", b.size());
    for (size_t i = 0; i < a.size(); ++i) {
      if (std::string d = compareValues(a[i], b[i], comparison); !d.empty()) return str("element ", i, ": ", d);
    }
    return "";
  }
  if (got.isList() && want.isList()) {
    const auto& a = got.toList();
    const auto& b = want.toList();
    if (a.size() != b.size()) return str("a list of ", a.size(), ", expected ", b.size());
    for (size_t i = 0; i < a.size(); ++i) {
      if (std::string d = compareValues(a[i], b[i], comparison); !d.empty()) return str("element ", i, ": ", d);
    }
    return "";
  }
  if (got.isDouble() && want.isDouble()) {
    const double x = got.toDouble(), y = want.toDouble();
    return closeEnough(x, y, toleranceOf(comparison, ScalarType::Double)) ? "" : str(x, ", expected ", y);
  }
  const std::string a = printed(got), b = printed(want);
  if (got.tag() != want.tag()) return str(got.typeName(), " ", a, ", expected ", want.typeName(), " ", b);
  return a == b ? "" : str(a, ", expected ", b);
}

}  // namespace

std::string ResultAlias::describe(const FunctionSchema& schema) const {
  const std::string name = argument >= 0 && static_cast<size_t>(argument) < schema.arguments().size()
                               ? "'" + schema.arguments()[argument].name + "'"
                               : "?";
  switch (kind) {
    case Kind::None: return "a new tensor";
    case Kind::SameTensor: return "argument " + name + " itself";
    case Kind::SharesStorage: return "a view of argument " + name;
  }
  return "?";
}

Outcome runBoxed(const std::vector<IValue>& arguments, const std::function<void(Stack&)>& call) {
  Outcome outcome;
  Stack stack(arguments.begin(), arguments.end());
  try {
    call(stack);
  } catch (const Error& e) {  // anything else is the harness's own failure, reported as such
    outcome.error = e.what_without_backtrace();
    return outcome;
  }
  for (const IValue& result : stack) {
    outcome.results.push_back(result);
    ResultAlias alias;
    if (result.isTensor() && result.toTensor().defined()) {
      const Tensor& t = result.toTensor();
      for (size_t i = 0; i < arguments.size() && alias.kind != ResultAlias::Kind::SameTensor; ++i) {
        if (!arguments[i].isTensor() || !arguments[i].toTensor().defined()) continue;
        const Tensor& argument = arguments[i].toTensor();
        if (t.is_same(argument)) {
          alias = {ResultAlias::Kind::SameTensor, static_cast<int>(i)};
        } else if (alias.kind == ResultAlias::Kind::None && t.storage() && t.storage().get() == argument.storage().get()) {
          alias = {ResultAlias::Kind::SharesStorage, static_cast<int>(i)};
        }
      }
    }
    outcome.aliases.push_back(alias);
  }
  outcome.arguments = arguments;
  return outcome;
}

std::string compareTensors(const Tensor& got, const Tensor& want, const Comparison& comparison) {
  if (got.scalar_type() != want.scalar_type()) {
    return str("dtype ", toString(got.scalar_type()), ", expected ", toString(want.scalar_type()));
  }
  if (!sameSizes(got.sizes(), want.sizes())) {
    return str("sizes [", absl::StrJoin(got.sizes(), ", "), "], expected [", absl::StrJoin(want.sizes(), ", "), "]");
  }
  const ScalarType dtype = got.scalar_type();
  if (!comparison.values) return "";
  if (isComplexType(dtype)) {
    // Part by part, each with the tolerance the entry gives the complex dtype (its default otherwise).
    const Tolerance tol = toleranceOf(comparison, dtype);
    const std::vector<double> a = complexPartsOf(got), b = complexPartsOf(want);
    for (size_t i = 0; i < a.size(); ++i) {
      const double x = a[i], y = b[i];
      if (!closeEnough(x, y, tol)) {
        const int64_t element = static_cast<int64_t>(i / 2);
        return str("element ", element, " ", indexOf(element, got.sizes()), i % 2 == 0 ? " real" : " imaginary",
                   " part is ", x, ", expected ", y, " (", toString(dtype), " tolerance: rtol ", tol.rtol, ", atol ",
                   tol.atol, ")");
      }
    }
    return "";
  }
  if (!isFloatingType(dtype)) {
    // Exact, unless the entry allows an integral dtype a difference (.tolerance(Byte, 0, 1)).
    const auto allowed = comparison.tolerances.find(dtype);
    const uint64_t slack = allowed == comparison.tolerances.end() ? 0 : static_cast<uint64_t>(allowed->second.atol);
    const std::vector<int64_t> a = elementsOf<int64_t>(got), b = elementsOf<int64_t>(want);
    for (size_t i = 0; i < a.size(); ++i) {
      const uint64_t distance = a[i] >= b[i] ? static_cast<uint64_t>(a[i]) - static_cast<uint64_t>(b[i])
                                             : static_cast<uint64_t>(b[i]) - static_cast<uint64_t>(a[i]);
      if (distance > slack) {
        return str("element ", i, " ", indexOf(static_cast<int64_t>(i), got.sizes()), " is ", a[i], ", expected ", b[i],
                   " (", toString(dtype), slack == 0 ? ": exact)" : str(": within ", slack, ")"));
      }
    }
    return "";
  }
  const Tolerance tol = toleranceOf(comparison, dtype);
  const std::vector<double> a = elementsOf<double>(got), b = elementsOf<double>(want);
  for (size_t i = 0; i < a.size(); ++i) {
    const double x = a[i], y = b[i];
    if (!closeEnough(x, y, tol)) {
      return str("element ", i, " ", indexOf(static_cast<int64_t>(i), got.sizes()), " is ", x, ", expected ", y, " (",
                 toString(dtype), " tolerance: rtol ", tol.rtol, ", atol ", tol.atol, ")");
    }
  }
  return "";
}

std::string compareOutcomes(const Outcome& got, const Outcome& want, const FunctionSchema& schema,
                            const Comparison& comparison) {
  if (got.error && want.error) return "";
  if (got.error) return str("Switchyard raised, the oracle did not:\n    ", *got.error);
  if (want.error) return str("the oracle raised, Switchyard did not:\n    ", *want.error);
  if (got.results.size() != want.results.size()) {
    return str("Switchyard returned ", got.results.size(), " values, the oracle ", want.results.size());
  }
  for (size_t r = 0; r < got.results.size(); ++r) {
    if (std::string d = compareValues(got.results[r], want.results[r], comparison); !d.empty()) {
      return str("result ", r, ": ", d);
    }
    if (!(got.aliases[r] == want.aliases[r])) {
      return str("result ", r, " is ", got.aliases[r].describe(schema), ", expected ", want.aliases[r].describe(schema));
    }
  }
  for (size_t i = 0; i < got.arguments.size() && i < want.arguments.size(); ++i) {
    const IValue& a = got.arguments[i];
    if (!a.isTensor() && !a.isTensorList() && !a.isList()) continue;
    if (std::string d = compareValues(a, want.arguments[i], comparison); !d.empty()) {
      return str("argument '", schema.arguments()[i].name, "' after the call: ", d);
    }
  }
  return "";
}

}  // namespace sy::oracle
