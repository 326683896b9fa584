#include "switchyard/conformance/oracle/cases/references.h"

#include <algorithm>
#include <cstring>
#include <memory>

#include "switchyard/conformance/oracle/torch_bridge.h"
#include "switchyard/core/error.h"
#include "switchyard/ivalue/odometer.h"
#include "switchyard/ivalue/tensor_factories.h"
#include "switchyard/ivalue/tensor_impl.h"
#include "switchyard/ops/shape_ops.h"

namespace sy::oracle {

Tensor viewOf(const Tensor& base, const Shape& sizes, const Shape& strides, int64_t storage_offset) {
  auto impl = make_intrusive<TensorImpl>(base.storage(), base.scalar_type(), base.device());
  impl->set_sizes_and_strides(sizes, strides, storage_offset);
  return Tensor(std::move(impl));
}

void writeOut(const Tensor& out, const Tensor& values) {
  if (!sameSizes(out.sizes(), values.sizes())) out.unsafeGetTensorImpl()->resize(values.sizes());
  const int64_t numel = values.numel();
  if (numel == 0) return;
  if (isComplexType(out.scalar_type()) || isComplexType(values.scalar_type())) {
    Tensor target = out;  // a handle on out's elements
    ops::copy_(target, values);  // part by part (See Note [Complex values convert as PyTorch's do])
    return;
  }
  const int64_t ndim = values.dim();
  std::vector<int64_t> index(ndim, 0);
  std::array<int64_t, 2> offsets{0, 0};  // out, values
  visitScalarType(out.scalar_type(), [&](auto out_tag) {
    using O = typename decltype(out_tag)::type;
    visitScalarType(values.scalar_type(), [&](auto value_tag) {
      using V = typename decltype(value_tag)::type;
      O* o = static_cast<O*>(out.data_ptr());
      const V* v = static_cast<const V*>(values.data_ptr());
      for (int64_t n = 0; n < numel; ++n) {
        o[offsets[0]] = static_cast<O>(v[offsets[1]]);
        advanceOdometer(index.data(), values.sizes().data(), ndim - 1, offsets,
                        [&](int64_t d, size_t k) { return k == 0 ? out.stride(d) : values.stride(d); });
      }
    });
  });
}

Reference outOfFunctional(std::string functional) { return throughPyTorch(nullptr, nullptr, std::move(functional)); }

Tensor convertedTo(const Tensor& t, ScalarType dtype) {
  Tensor copy = empty(t.sizes(), dtype);
  writeOut(copy, t);
  return copy;
}

bool lacksReducedFloatingKernel(const std::string& torch_error) {
  // Most kernels quote the dtype ("... not implemented for 'Half'"); grid_sampler_2d does not.
  for (const char* dtype : {"Half", "BFloat16", "ComplexHalf"}) {
    if (torch_error.find(std::string("not implemented for '") + dtype + "'") != std::string::npos ||
        torch_error.find(std::string("not implemented for ") + dtype) != std::string::npos) {
      return true;
    }
  }
  return false;
}

namespace {

// The arguments with every Half and BFloat16 tensor replaced by a Float copy, and what the results
// go back to (See Note [PyTorch 1.13 answers for Half and BFloat16 on Float copies]).
struct FloatCopies {
  std::vector<IValue> widened;
  bool any_reduced = false;
  // PyTorch's result type takes a dimensioned tensor's category over a 0-dim one's (Half [2, 3] with
  // Float [] is Half): the reduced dtypes of the dimensioned and of the 0-dim inputs (out= arguments
  // aside), each promoted within its group (Half with BFloat16 is Float), and whether a Float or
  // Double input was dimensioned or 0-dim.
  ScalarType reduced_dimensioned = ScalarType::Undefined, reduced_zero_dim = ScalarType::Undefined;
  bool full_dimensioned = false, full_zero_dim = false;
  // ComplexHalf goes to ComplexFloat the same way; a ComplexFloat result goes back unless a
  // ComplexFloat or ComplexDouble input took part.
  bool complex_half_input = false, full_complex_input = false;
  bool narrowsComplex() const { return complex_half_input && !full_complex_input; }

  // PyTorch's result type when it is a reduced one, else Undefined: a Float result goes back to it.
  ScalarType target() const {
    if (full_dimensioned) return ScalarType::Undefined;
    const ScalarType group = reduced_dimensioned != ScalarType::Undefined ? reduced_dimensioned
                             : full_zero_dim                              ? ScalarType::Undefined
                                                                          : reduced_zero_dim;
    return isReducedFloatingType(group) ? group : ScalarType::Undefined;  // Half with BFloat16 is Float
  }
};

FloatCopies floatCopiesOf(const std::vector<IValue>& arguments, const FunctionSchema* schema = nullptr) {
  FloatCopies copies{arguments};
  for (size_t i = 0; i < copies.widened.size(); ++i) {
    IValue& a = copies.widened[i];
    if (!a.isTensor() || !a.toTensor().defined()) continue;
    const ScalarType dtype = a.toTensor().scalar_type();
    const bool input = schema == nullptr || i >= schema->arguments().size() || !schema->arguments()[i].is_out();
    const bool dimensioned = a.toTensor().dim() > 0;
    if (input && (dtype == ScalarType::Float || dtype == ScalarType::Double)) {
      (dimensioned ? copies.full_dimensioned : copies.full_zero_dim) = true;
    }
    if (input && (dtype == ScalarType::ComplexFloat || dtype == ScalarType::ComplexDouble)) copies.full_complex_input = true;
    if (dtype == ScalarType::ComplexHalf) {
      copies.any_reduced = true;
      copies.complex_half_input = copies.complex_half_input || input;
      a = convertedTo(a.toTensor(), ScalarType::ComplexFloat);
      continue;
    }
    if (!isReducedFloatingType(dtype)) continue;
    copies.any_reduced = true;
    if (input) {
      ScalarType& group = dimensioned ? copies.reduced_dimensioned : copies.reduced_zero_dim;
      group = group == ScalarType::Undefined ? dtype : promoteTypes(group, dtype);
    }
    a = convertedTo(a.toTensor(), ScalarType::Float);
  }
  // A Float or Double input that does not decide the result type (0-dim beside a dimensioned Half)
  // is converted to the result type first, as PyTorch's own kernel would have it.
  if (copies.target() != ScalarType::Undefined) {
    for (size_t i = 0; i < copies.widened.size(); ++i) {
      IValue& a = copies.widened[i];
      const bool input = schema == nullptr || i >= schema->arguments().size() || !schema->arguments()[i].is_out();
      if (!input || !a.isTensor() || !a.toTensor().defined()) continue;
      const ScalarType dtype = a.toTensor().scalar_type();
      if (dtype == ScalarType::Float || dtype == ScalarType::Double) {
        a = convertedTo(convertedTo(a.toTensor(), copies.target()), dtype);
      }
    }
  }
  return copies;
}

void narrowFloatTo(IValue& v, ScalarType dtype) {
  const ScalarType wide = dtype == ScalarType::ComplexHalf ? ScalarType::ComplexFloat : ScalarType::Float;
  if (v.isTensor() && v.toTensor().defined() && v.toTensor().scalar_type() == wide) {
    v = convertedTo(v.toTensor(), dtype);
  }
}

// Results rounded back to the reduced dtype, unless PyTorch's result type was Float or Double.
void narrowResults(const FloatCopies& copies, std::vector<IValue>& results) {
  for (IValue& r : results) {
    if (copies.target() != ScalarType::Undefined) narrowFloatTo(r, copies.target());
    if (copies.narrowsComplex()) narrowFloatTo(r, ScalarType::ComplexHalf);
  }
}

}  // namespace

std::vector<IValue> torchCallOnFloatCopies(const std::string& op, const std::vector<IValue>& arguments) {
  const FloatCopies copies = floatCopiesOf(arguments);
  std::vector<IValue> results = torchCall(op, copies.widened);
  narrowResults(copies, results);
  return results;
}

std::vector<IValue> torchCallWithFloatCopies(const std::string& op, const std::vector<IValue>& arguments) {
  try {
    return torchCall(op, arguments);
  } catch (const Error& e) {
    if (!lacksReducedFloatingKernel(e.what())) throw;
  }
  return torchCallOnFloatCopies(op, arguments);
}

Outcome callTorchOnFloatCopies(const FunctionSchema& schema, const std::vector<IValue>& arguments) {
  const FloatCopies copies = floatCopiesOf(arguments, &schema);
  Outcome outcome = callTorch(schema, copies.widened);
  if (!copies.any_reduced) return outcome;
  for (size_t i = 0; i < outcome.arguments.size() && i < arguments.size(); ++i) {
    if (!arguments[i].isTensor() || !arguments[i].toTensor().defined()) continue;
    const ScalarType dtype = arguments[i].toTensor().scalar_type();
    const bool written = i < schema.arguments().size() && schema.arguments()[i].is_write();
    if (isReducedFloatingType(dtype) || dtype == ScalarType::ComplexHalf) {
      narrowFloatTo(outcome.arguments[i], dtype);
    } else if (!written) {
      outcome.arguments[i] = arguments[i];  // an input PyTorch was given converted (floatCopiesOf) is unchanged
    } else if (copies.target() != ScalarType::Undefined && i < schema.arguments().size() && schema.arguments()[i].is_out() &&
               outcome.arguments[i].isTensor() && outcome.arguments[i].toTensor().defined() &&
               (dtype == ScalarType::Float || dtype == ScalarType::Double)) {
      // A wider out= receives the reduced result PyTorch would have computed, converted.
      outcome.arguments[i] = convertedTo(convertedTo(outcome.arguments[i].toTensor(), copies.target()), dtype);
    }
  }
  // A written return is its argument, as converted above; the others narrow as torchCall's do.
  for (size_t r = 0; r < outcome.results.size(); ++r) {
    const int written = r < schema.returns().size() ? schema.aliasedArgumentOfReturn(r) : -1;
    if (written >= 0 && static_cast<size_t>(written) < outcome.arguments.size()) {
      outcome.results[r] = outcome.arguments[written];
    } else {
      if (copies.target() != ScalarType::Undefined) narrowFloatTo(outcome.results[r], copies.target());
      if (copies.narrowsComplex()) narrowFloatTo(outcome.results[r], ScalarType::ComplexHalf);
    }
  }
  return outcome;
}

Reference throughPyTorch(ArgumentsEdit before, ResultsEdit after, std::string functional) {
  return [before, after, functional](const FunctionSchema& schema, Stack& stack) {
    const std::vector<IValue> original(stack.begin(), stack.end());
    std::vector<IValue> arguments = original;
    if (before) before(arguments);
    std::vector<size_t> outs;  // with `functional`: the out= arguments, which it does not take
    if (!functional.empty()) {
      std::vector<IValue> inputs;
      for (size_t i = 0; i < arguments.size(); ++i) {
        if (schema.arguments()[i].is_out()) {
          outs.push_back(i);
        } else {
          inputs.push_back(arguments[i]);
        }
      }
      arguments = std::move(inputs);
    }
    std::vector<IValue> results =
        torchCallWithFloatCopies(functional.empty() ? schema.operator_name().toString() : functional, arguments);
    if (after) after(original, results);
    stack.clear();
    for (size_t r = 0; r < results.size(); ++r) {
      int target = -1;
      if (!functional.empty()) {
        target = r < outs.size() ? static_cast<int>(outs[r]) : -1;
      } else if (r < schema.returns().size()) {
        target = schema.aliasedArgumentOfReturn(r);
      }
      if (target >= 0 && results[r].isTensor() && original[target].isTensor()) {
        const Tensor& into = original[target].toTensor();
        SY_CHECK(functional.empty() || into.scalar_type() == results[r].toTensor().scalar_type(),
                 schema.operator_name().toString(), ": '", schema.arguments()[target].name, "' has dtype ",
                 into.scalar_type(), " but the result is ", results[r].toTensor().scalar_type());
        writeOut(into, results[r].toTensor());
        stack.push_back(into);
      } else {
        stack.push_back(results[r]);
      }
    }
  };
}

Reference computedVia(Dtypes from, ScalarType as, bool results_back, std::string functional) {
  auto original_dtype = std::make_shared<ScalarType>(ScalarType::Undefined);
  return throughPyTorch(
      [from, as, original_dtype](std::vector<IValue>& arguments) {
        *original_dtype = ScalarType::Undefined;
        for (IValue& a : arguments) {
          if (!a.isTensor() || !a.toTensor().defined()) continue;
          const ScalarType dtype = a.toTensor().scalar_type();
          if (std::find(from.begin(), from.end(), dtype) == from.end()) continue;
          if (*original_dtype == ScalarType::Undefined) *original_dtype = dtype;
          a = convertedTo(a.toTensor(), as);
        }
      },
      [as, results_back, original_dtype](const std::vector<IValue>&, std::vector<IValue>& results) {
        if (!results_back || *original_dtype == ScalarType::Undefined) return;
        for (IValue& r : results) {
          if (r.isTensor() && r.toTensor().scalar_type() == as) r = convertedTo(r.toTensor(), *original_dtype);
        }
      },
      std::move(functional));
}

Reference patchedElementwise(std::function<double(double self, double result)> patch) {
  return throughPyTorch(nullptr, [patch](const std::vector<IValue>& arguments, std::vector<IValue>& results) {
    const Tensor self = convertedTo(arguments[0].toTensor(), ScalarType::Double);
    Tensor result = convertedTo(results[0].toTensor(), ScalarType::Double);
    SY_CHECK(self.numel() == result.numel(), "oracle: patchedElementwise needs a result of self's shape");
    const double* x = self.data_ptr<double>();
    double* y = result.data_ptr<double>();
    for (int64_t i = 0; i < result.numel(); ++i) y[i] = patch(x[i], y[i]);
    results[0] = convertedTo(result, results[0].toTensor().scalar_type());
  });
}

Tensor squeezeDims(const Tensor& self, const std::vector<int64_t>& dims) {
  const int64_t ndim = self.dim();
  std::vector<bool> listed(std::max<int64_t>(ndim, 1), false);
  for (int64_t d : dims) {
    const int64_t bound = std::max<int64_t>(ndim, 1);
    SY_CHECK_INDEX(d >= -bound && d < bound, "Dimension out of range (expected to be in range of [", -bound, ", ",
                   bound - 1, "], but got ", d, ")");
    const int64_t wrapped = d < 0 ? d + bound : d;
    SY_CHECK(!listed[wrapped], "dim ", wrapped, " appears multiple times in the list of dims");
    listed[wrapped] = true;
  }
  Shape sizes, strides;
  for (int64_t d = 0; d < ndim; ++d) {
    if (listed[d] && self.size(d) == 1) continue;
    sizes.push_back(self.size(d));
    strides.push_back(self.stride(d));
  }
  return viewOf(self, sizes, strides, self.storage_offset());
}

}  // namespace sy::oracle
