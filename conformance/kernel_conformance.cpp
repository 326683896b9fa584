#include "switchyard/conformance/kernel_conformance.h"

#include <cctype>
#include <cmath>
#include <sstream>

#include "switchyard/conformance/conformance_inputs.h"
#include "switchyard/dispatcher/dispatcher.h"
#include "switchyard/dispatcher/local_dispatch_key_set.h"
#include "switchyard/core/error.h"
#include "switchyard/ivalue/tensor_factories.h"
#include "switchyard/ops/shape_ops.h"

namespace sy::conformance {

namespace {

bool isTensorType(const Type& type) {
  return type.kind() == TypeKind::Tensor ||
         (type.kind() == TypeKind::Optional && type.element()->kind() == TypeKind::Tensor);
}

// The tensor metadata a key (or, for a default kernel, each dtype at ranks 0 to 3) asks for.
std::vector<std::vector<TensorMeta>> keyVariants(const PartialKernel& kernel, size_t tensor_arguments) {
  if (!kernel.key.isDefault()) return {kernel.key.tensorArgs()};
  std::vector<std::vector<TensorMeta>> variants;
  for (ScalarType dtype : {ScalarType::Float, ScalarType::Double, ScalarType::Long, ScalarType::Int, ScalarType::Bool}) {
    static constexpr uint8_t kIdentity[] = {0, 1, 2};
    for (size_t rank = 0; rank <= 3; ++rank) {
      variants.emplace_back(tensor_arguments, TensorMeta{dtype, DimOrder(kIdentity, kIdentity + rank)});
    }
  }
  return variants;
}

// One generated call: how to make each argument, so that the kernel and the portable kernel each
// get their own identical inputs.
struct Case {
  std::vector<std::optional<TensorSpec>> tensors;  // per schema argument; nullopt: not a tensor (or None)
  std::vector<IValue> others;                      // per schema argument, for the rest
  std::string describe(const FunctionSchema& schema) const {
    std::string text;
    for (size_t i = 0; i < schema.arguments().size(); ++i) {
      std::ostringstream value;
      if (tensors[i]) {
        value << tensors[i]->describe();
      } else {
        value << others[i];
      }
      text += str("\n    ", schema.arguments()[i].name, " = ", value.str());
    }
    return text;
  }
};

struct Outcome {
  std::optional<std::string> error;  // what the call raised
  std::vector<IValue> results;
  std::vector<std::pair<size_t, Tensor>> written;  // written arguments, by position
};

Outcome run(const Case& c, const FunctionSchema& schema, const std::function<void(Stack&)>& call) {
  Outcome outcome;
  Stack stack;
  for (size_t i = 0; i < c.tensors.size(); ++i) {
    if (c.tensors[i]) {
      Tensor t = makeTensor(*c.tensors[i], i);
      if (schema.arguments()[i].is_write()) outcome.written.emplace_back(i, t);
      stack.push_back(std::move(t));
    } else {
      stack.push_back(c.others[i]);
    }
  }
  try {
    call(stack);
    outcome.results.assign(stack.begin(), stack.end());
  } catch (const Error& e) {
    outcome.error = e.what_without_backtrace();
  }
  return outcome;
}

// "" when `got` (the kernel's) agrees with `want` (the portable kernel's), else where it does not.
std::string compareTensors(const Tensor& got, const Tensor& want, const Options& options) {
  if (got.scalar_type() != want.scalar_type()) {
    return str("dtype ", toString(got.scalar_type()), ", the portable kernel's ", toString(want.scalar_type()));
  }
  if (got.sizes() != want.sizes()) {
    return str("sizes [", absl::StrJoin(got.sizes(), ", "), "], the portable kernel's [", absl::StrJoin(want.sizes(), ", "),
               "]");
  }
  Tensor a = empty(got.sizes(), ScalarType::Double);
  Tensor b = empty(want.sizes(), ScalarType::Double);
  ops::copy_(a, got);
  ops::copy_(b, want);
  const Tolerance tolerance = got.scalar_type() == ScalarType::Float    ? options.float_tolerance
                              : got.scalar_type() == ScalarType::Double ? options.double_tolerance
                                                                        : Tolerance{};
  const double* x = a.data_ptr<double>();
  const double* y = b.data_ptr<double>();
  for (int64_t i = 0; i < a.numel(); ++i) {
    const bool agree = (std::isnan(x[i]) && std::isnan(y[i])) || x[i] == y[i] ||
                       std::abs(x[i] - y[i]) <= tolerance.atol + tolerance.rtol * std::abs(y[i]);
    if (!agree) {
      return str("element ", i, " (row-major) is ", x[i], ", the portable kernel's ", y[i], " (tolerance: atol ",
                 tolerance.atol, ", rtol ", tolerance.rtol, ")");
    }
  }
  return "";
}

std::string compareValues(const IValue& got, const IValue& want, const Options& options) {
  if (got.isTensor() && want.isTensor()) return compareTensors(got.toTensor(), want.toTensor(), options);
  std::ostringstream a, b;
  a << got;
  b << want;
  return a.str() == b.str() ? "" : str(a.str(), ", the portable kernel's ", b.str());
}

std::string compareOutcomes(const Outcome& got, const Outcome& want, const FunctionSchema& schema,
                            const Options& options) {
  if (got.error) return str("the kernel raised, the portable kernel did not:\n    ", *got.error);
  if (want.error) return str("the portable kernel raised, the kernel did not:\n    ", *want.error);
  if (got.results.size() != want.results.size()) {
    return str("the kernel left ", got.results.size(), " results, the portable kernel ", want.results.size());
  }
  for (size_t i = 0; i < got.results.size(); ++i) {
    if (std::string d = compareValues(got.results[i], want.results[i], options); !d.empty()) {
      return str("result ", i, ": ", d);
    }
  }
  for (size_t i = 0; i < got.written.size(); ++i) {
    if (std::string d = compareTensors(got.written[i].second, want.written[i].second, options); !d.empty()) {
      return str("written argument '", schema.arguments()[got.written[i].first].name, "': ", d);
    }
  }
  return "";
}

// The sizes of the key's tensors in each case: Options::tensor_sizes for the operator (the entries
// whose ranks fit the key), else every tensor in each of shapesForRank's shapes in turn.
std::vector<std::vector<std::vector<int64_t>>> sizesFor(const std::string& op, const std::vector<TensorMeta>& metas,
                                                        const Options& options) {
  std::vector<std::vector<std::vector<int64_t>>> sets;
  if (auto it = options.tensor_sizes.find(op); it != options.tensor_sizes.end()) {
    for (const auto& set : it->second) {
      bool fits = set.size() == metas.size();
      for (size_t t = 0; fits && t < metas.size(); ++t) fits = set[t].size() == metas[t].dim_order.size();
      if (fits) sets.push_back(set);
    }
    return sets;
  }
  for (size_t shape = 0; shape < 3; ++shape) {
    std::vector<std::vector<int64_t>> set;
    for (const TensorMeta& meta : metas) {
      const auto shapes = shapesForRank(meta.dim_order.size());
      if (shape >= shapes.size()) break;
      set.push_back(shapes[shape]);
    }
    if (set.size() == metas.size()) sets.push_back(std::move(set));
  }
  return sets;
}

// Every case of one key variant: each shape, dense and strided, edge and random values, with the
// other arguments chosen as their Note says (see Note [How the harness picks the other arguments]).
absl::StatusOr<std::vector<Case>> casesFor(const PartialKernel& kernel, const FunctionSchema& schema,
                                           const std::vector<TensorMeta>& metas, const Options& options) {
  const auto& arguments = schema.arguments();
  std::vector<std::optional<TensorMeta>> meta_of(arguments.size());
  // A key names the tensors a call passes: every required one, and as many optional ones (the
  // first ones) as it has metadata left for; the others are None.
  size_t required = 0;
  for (const Argument& a : arguments) required += a.type->kind() == TypeKind::Tensor ? 1 : 0;
  size_t optionals_present = metas.size() > required ? metas.size() - required : 0;
  size_t next = 0;
  for (size_t i = 0; i < arguments.size(); ++i) {
    if (!isTensorType(*arguments[i].type)) continue;
    const bool optional = arguments[i].type->kind() == TypeKind::Optional;
    if (optional && optionals_present == 0) continue;
    if (optional) --optionals_present;
    if (next < metas.size()) {
      meta_of[i] = metas[next++];
    } else if (arguments[i].type->kind() != TypeKind::Optional) {
      return absl::InvalidArgumentError(str("the key names ", metas.size(), " tensors, but tensor argument '",
                                            arguments[i].name, "' is not optional"));
    }
  }
  std::vector<std::vector<IValue>> values(arguments.size());
  const ScalarType first_dtype = metas.empty() ? ScalarType::Float : metas.front().dtype;
  for (size_t i = 0; i < arguments.size(); ++i) {
    if (meta_of[i]) continue;
    if (isTensorType(*arguments[i].type)) {
      values[i] = {IValue()};
      continue;
    }
    ArgumentValues candidates = candidateValues(kernel.op.toString(), arguments[i], first_dtype, options.argument_values);
    if (candidates.values.empty()) {
      return absl::InvalidArgumentError(str("the harness cannot make a value for argument '", arguments[i].name, "' (",
                                            arguments[i].type->str(), "): give some in Options::argument_values[\"",
                                            kernel.op.toString(), "/", arguments[i].name, "\"]"));
    }
    values[i] = std::move(candidates.values);
  }
  // The other arguments: all at their first value, then each further value alone.
  std::vector<std::vector<IValue>> others{{}};
  for (const auto& v : values) others.front().push_back(v.empty() ? IValue() : v.front());
  for (size_t i = 0; i < values.size(); ++i) {
    for (size_t j = 1; j < values[i].size(); ++j) {
      others.push_back(others.front());
      others.back()[i] = values[i][j];
    }
  }
  std::vector<Case> cases;
  for (const auto& sizes : sizesFor(kernel.op.toString(), metas, options)) {
    for (bool strided : {false, true}) {
      for (Fill fill : {Fill::EdgeValues, Fill::Random}) {
        for (const auto& other : others) {
          Case c{std::vector<std::optional<TensorSpec>>(arguments.size()), other};
          for (size_t i = 0, t = 0; i < arguments.size(); ++i) {
            if (!meta_of[i]) continue;
            // Written arguments stay dense: the kernel may resize them.
            c.tensors[i] = TensorSpec{*meta_of[i], sizes[t++], strided && !arguments[i].is_out(), fill};
          }
          cases.push_back(std::move(c));
        }
      }
    }
  }
  return cases;
}

std::string nameOf(const PartialKernel& kernel) {
  return str(kernel.kernel_name, " for ", kernel.op.toString(), ", key ", kernel.key.toString(), " (registered at ",
             kernel.site, ")");
}

}  // namespace

Report checkKernel(const PartialKernel& kernel, const Options& options) {
  Report report;
  report.kernel = nameOf(kernel);
  std::optional<OperatorHandle> op = Dispatcher::singleton().findSchema(kernel.op);
  if (!op) {
    report.failure = str(report.kernel, ": the operator has no schema");
    return report;
  }
  const FunctionSchema& schema = op->schema();
  Options effective = options;
  if (auto it = options.float_tolerances.find(kernel.op.toString()); it != options.float_tolerances.end()) {
    effective.float_tolerance = it->second;
  }
  size_t tensor_arguments = 0;
  for (const Argument& a : schema.arguments()) tensor_arguments += isTensorType(*a.type) ? 1 : 0;
  // The inputs are made, and the portable kernel runs, with partial kernels out of the way.
  ExcludeDispatchKeyGuard no_partial_kernels(DispatchKey::PartialKernels);
  std::string first_refusal;
  for (const std::vector<TensorMeta>& metas : keyVariants(kernel, tensor_arguments)) {
    absl::StatusOr<std::vector<Case>> cases = casesFor(kernel, schema, metas, effective);
    if (!cases.ok()) {
      report.failure = str(report.kernel, ": ", cases.status().message());
      return report;
    }
    for (const Case& c : *cases) {
      const Outcome got = run(c, schema, [&](Stack& stack) {
        kernel.kernel.callBoxed(*op, DispatchKeySet(DispatchKey::PartialKernels), &stack);
      });
      const Outcome want = run(c, schema, [&](Stack& stack) { op->callBoxed(&stack); });
      if (got.error && want.error) {
        ++report.refused_by_both;
        if (first_refusal.empty()) first_refusal = str(*want.error, "\n  on the inputs:", c.describe(schema));
        continue;
      }
      if (std::string difference = compareOutcomes(got, want, schema, effective); !difference.empty()) {
        report.failure = str(report.kernel, "\ndisagrees with the portable kernel: ", difference,
                             "\n  on the inputs:", c.describe(schema));
        return report;
      }
      ++report.compared;
    }
  }
  if (report.compared == 0) {
    report.failure = str(report.kernel, ": none of the ", report.refused_by_both,
                         " generated cases ran (both kernels refused each); give argument values in "
                         "Options::argument_values. The portable kernel's first refusal: ",
                         first_refusal);
  }
  return report;
}

std::vector<std::shared_ptr<const PartialKernel>> kernelsOf(std::string_view kernel_name_prefix) {
  std::vector<std::shared_ptr<const PartialKernel>> found;
  for (auto& kernel : PartialKernelRegistry::singleton().kernels()) {
    if (std::string_view(kernel->kernel_name).substr(0, kernel_name_prefix.size()) == kernel_name_prefix) {
      found.push_back(std::move(kernel));
    }
  }
  return found;
}

std::string testNameOf(const PartialKernel& kernel) {
  std::string name;
  for (char ch : kernel.op.toString()) {
    if (std::isalnum(static_cast<unsigned char>(ch))) {
      name += ch;
    } else if (!name.empty() && name.back() != '_') {
      name += '_';  // "aten::sin.out" -> "aten_sin_out"
    }
  }
  if (kernel.key.isDefault()) return name + "_default";
  for (const TensorMeta& meta : kernel.key.tensorArgs()) {
    name += str("_", toString(meta.dtype), "_d");
    for (uint8_t d : meta.dim_order) name += std::to_string(d);
  }
  return name;
}

}  // namespace sy::conformance
