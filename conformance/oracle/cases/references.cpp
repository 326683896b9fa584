#include "switchyard/conformance/oracle/cases/references.h"

#include <algorithm>
#include <cstring>
#include <memory>

#include "switchyard/conformance/oracle/torch_bridge.h"
#include "switchyard/core/error.h"
#include "switchyard/ivalue/odometer.h"
#include "switchyard/ivalue/tensor_factories.h"
#include "switchyard/ivalue/tensor_impl.h"

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
  return torch_error.find("not implemented for 'Half'") != std::string::npos ||
         torch_error.find("not implemented for 'BFloat16'") != std::string::npos;
}

Outcome callTorchOnFloatCopies(const FunctionSchema& schema, const std::vector<IValue>& arguments) {
  std::vector<IValue> widened = arguments;
  ScalarType reduced = ScalarType::Undefined;
  bool had_full_floating = false;
  for (IValue& a : widened) {
    if (!a.isTensor() || !a.toTensor().defined()) continue;
    const ScalarType dtype = a.toTensor().scalar_type();
    had_full_floating = had_full_floating || dtype == ScalarType::Float || dtype == ScalarType::Double;
    if (!isReducedFloatingType(dtype)) continue;
    if (reduced == ScalarType::Undefined) reduced = dtype;
    a = convertedTo(a.toTensor(), ScalarType::Float);
  }
  Outcome outcome = callTorch(schema, widened);
  if (reduced == ScalarType::Undefined) return outcome;
  auto narrowed = [](IValue& v, ScalarType dtype) {
    if (v.isTensor() && v.toTensor().defined() && v.toTensor().scalar_type() == ScalarType::Float) {
      v = convertedTo(v.toTensor(), dtype);
    }
  };
  if (!had_full_floating) {
    for (IValue& r : outcome.results) narrowed(r, reduced);
  }
  for (size_t i = 0; i < outcome.arguments.size() && i < arguments.size(); ++i) {
    if (arguments[i].isTensor() && arguments[i].toTensor().defined()) {
      narrowed(outcome.arguments[i], arguments[i].toTensor().scalar_type());
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
    std::vector<IValue> results = torchCall(functional.empty() ? schema.operator_name().toString() : functional, arguments);
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
