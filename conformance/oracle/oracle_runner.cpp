#include "switchyard/conformance/oracle/oracle_runner.h"

#include <cstdlib>
#include <map>

#include "switchyard/conformance/conformance_inputs.h"
#include "switchyard/conformance/oracle/cases/references.h"
#include "switchyard/conformance/oracle/oracle_inputs.h"
#include "switchyard/conformance/oracle/oracle_outcome.h"
#include "switchyard/conformance/oracle/torch_bridge.h"
#include "switchyard/dispatcher/declared_dtypes.h"
#include "switchyard/dispatcher/dispatcher.h"
#include "switchyard/core/error.h"
#include "switchyard/ivalue/tensor_factories.h"

namespace sy::oracle {

// Note [Which calls the oracle makes]
// For each dtype of the entry (and, with .promote, each pair of it and a second dtype) and each
// shape set, the oracle calls the operator with every input contiguous, first with random values,
// then with edge values mixed in (NaN, infinities, signed zeros; 0 and ±1 for integers), once per
// value of the other arguments (each further value alone, or every combination with .product());
// then, for a single dtype and the other arguments at their first values, with every input
// transposed and again strided from a storage offset. Promotion pairs of two different dtypes are
// tried contiguous only: layout and promotion are independent in every kernel we have. An operator
// with out= arguments is called twice per case: with empty outs, which it must resize, and with
// outs already of the size the oracle's answer had. Every call's inputs come from its own seed,
// printed with any failure; the same seed gives the same bytes to both sides.

namespace {

constexpr uint64_t kDefaultSeed = 0x5EEDF00D2024ULL;

struct ArgumentPlan {
  enum class Kind : uint8_t { Tensor, TensorList, Out, Value };
  Kind kind = Kind::Value;
  int tensor = -1;             // the entry's tensor (Tensor, TensorList)
  size_t first_shape = 0;      // its first shape's position in a shape set
  OutDtype out_dtype;          // Out
  int out_list_length = 0;     // Out of type Tensor[]: how many tensors the list holds
  std::vector<IValue> values;  // Value: the candidates
};

struct Call {
  ScalarType dtype;
  std::optional<ScalarType> second;
  size_t shape_set;
  InputLayout layout;
  bool edges;
  std::vector<IValue> values;                   // per schema argument (Value kind)
  std::map<size_t, Shape> out_sizes;            // sized outs, by argument
  uint64_t seed;
  std::map<size_t, std::vector<Shape>> out_list_sizes = {};  // sized out lists, by argument
};

class Runner {
 public:
  Runner(const OpCase& entry, const FunctionSchema& schema) : entry_(entry), schema_(schema) {}

  // "" when the entry fits the schema; else what is wrong with it.
  std::string plan() {
    const auto& arguments = schema_.arguments();
    plans_.resize(arguments.size());
    std::vector<bool> named(entry_.tensorArguments().size(), false);
    size_t shape_position = 0;
    std::vector<size_t> first_shape;
    for (const TensorArgument& t : entry_.tensorArguments()) {
      first_shape.push_back(shape_position);
      shape_position += t.list_length > 0 ? t.list_length : 1;
    }
    shapes_per_set_ = shape_position;
    for (size_t i = 0; i < arguments.size(); ++i) {
      const Argument& a = arguments[i];
      ArgumentPlan& p = plans_[i];
      const bool tensor_type = (schema_.tensorArgumentMask() >> i) & 1;
      if (a.is_out()) {
        p.kind = ArgumentPlan::Kind::Out;
        auto it = entry_.outs().find(a.name);
        p.out_dtype = it != entry_.outs().end() ? it->second : OutDtype::resultType();
        has_outs_ = true;
        if (a.type->kind() == TypeKind::List) {
          auto length = entry_.outListLengths().find(a.name);
          if (length == entry_.outListLengths().end()) {
            return str("the out list '", a.name, "' needs a length: .outList(\"", a.name, "\", n)");
          }
          p.out_list_length = length->second;
        }
        continue;
      }
      int k = -1;
      for (size_t t = 0; t < entry_.tensorArguments().size(); ++t) {
        if (entry_.tensorArguments()[t].name == a.name) k = static_cast<int>(t);
      }
      if (k >= 0) {
        if (!tensor_type) return str("the entry makes a tensor for '", a.name, "', which is a ", a.type->str());
        named[k] = true;
        p.kind = entry_.tensorArguments()[k].list_length > 0 ? ArgumentPlan::Kind::TensorList : ArgumentPlan::Kind::Tensor;
        p.tensor = k;
        p.first_shape = first_shape[k];
        continue;
      }
      if (tensor_type && a.type->kind() != TypeKind::Optional) {
        return str("the entry names no tensor for argument '", a.name, "' (", a.type->str(), ")");
      }
      if (tensor_type) {
        p.values = {IValue()};
        continue;
      }
      const ScalarType first = entry_.caseDtypes().empty() ? ScalarType::Float : entry_.caseDtypes().front();
      conformance::ArgumentValues candidates =
          conformance::candidateValues(schema_.operator_name().toString(), a, first, entry_.argumentValues());
      if (candidates.values.empty()) {
        return str("no value for argument '", a.name, "' (", a.type->str(), "): give some with .arg(\"", a.name, "\", {...})");
      }
      p.values = std::move(candidates.values);
    }
    for (size_t t = 0; t < named.size(); ++t) {
      if (!named[t]) return str("the entry names tensor '", entry_.tensorArguments()[t].name, "', which the schema lacks");
    }
    for (size_t s = 0; s < entry_.shapeSets().size(); ++s) {
      if (entry_.shapeSets()[s].size() != shapes_per_set_) {
        return str("shape set ", s, " gives ", entry_.shapeSets()[s].size(), " shapes for ", shapes_per_set_, " tensors");
      }
    }
    if (entry_.shapeSets().empty() && shapes_per_set_ > 0) return "the entry gives no shapes";
    return "";
  }

  // Every combination of the other arguments the entry asks for (See Note [Which calls the oracle makes]).
  std::vector<std::vector<IValue>> valueCombinations() const {
    std::vector<std::vector<IValue>> combos{std::vector<IValue>(plans_.size())};
    for (size_t i = 0; i < plans_.size(); ++i) {
      if (plans_[i].kind == ArgumentPlan::Kind::Value) combos.front()[i] = plans_[i].values.front();
    }
    if (entry_.isProduct()) {
      for (size_t i = 0; i < plans_.size(); ++i) {
        if (plans_[i].kind != ArgumentPlan::Kind::Value) continue;
        std::vector<std::vector<IValue>> next;
        for (const auto& combo : combos) {
          for (const IValue& v : plans_[i].values) {
            next.push_back(combo);
            next.back()[i] = v;
          }
        }
        combos = std::move(next);
      }
      return combos;
    }
    for (size_t i = 0; i < plans_.size(); ++i) {
      if (plans_[i].kind != ArgumentPlan::Kind::Value) continue;
      for (size_t j = 1; j < plans_[i].values.size(); ++j) {
        combos.push_back(combos.front());
        combos.back()[i] = plans_[i].values[j];
      }
    }
    return combos;
  }

  // The calls the oracle makes, without their out sizes (See Note [Which calls the oracle makes]).
  std::vector<Call> calls(uint64_t seed) const {
    std::vector<Call> calls;
    const auto combos = valueCombinations();
    const size_t sets = std::max<size_t>(entry_.shapeSets().size(), 1);
    std::vector<std::optional<ScalarType>> seconds{std::nullopt};
    if (!entry_.secondDtypes().empty()) seconds.assign(entry_.secondDtypes().begin(), entry_.secondDtypes().end());
    auto add = [&](ScalarType d, std::optional<ScalarType> s, size_t set, InputLayout layout, bool edges, size_t combo) {
      calls.push_back(Call{d, s, set, layout, edges, combos[combo], {}, mixSeed(seed, calls.size())});
    };
    for (ScalarType d : entry_.caseDtypes()) {
      for (const auto& s : seconds) {
        for (size_t set = 0; set < sets; ++set) {
          for (size_t c = 0; c < combos.size(); ++c) {
            add(d, s, set, InputLayout::Contiguous, false, c);
            if (entry_.edgeFill()) add(d, s, set, InputLayout::Contiguous, true, c);
          }
          if (!entry_.nonContiguous() || (s && *s != d)) continue;
          if (hasRankAtLeast(set, 2)) add(d, s, set, InputLayout::Transposed, false, 0);
          if (shapes_per_set_ > 0) add(d, s, set, InputLayout::Strided, false, 0);
        }
      }
    }
    return calls;
  }

  bool hasRankAtLeast(size_t set, size_t rank) const {
    if (entry_.shapeSets().empty()) return false;
    for (const Shape& s : entry_.shapeSets()[set]) {
      if (s.size() >= rank) return true;
    }
    return false;
  }

  ScalarType dtypeOf(const OutDtype& rule, const Call& call) {
    if (!rule.argument.empty()) {
      const std::optional<size_t> index = schema_.argumentIndexWithName(rule.argument);
      SY_CHECK(index.has_value(), "oracle: the dtype rule names argument '", rule.argument, "', which ",
               schema_.operator_name().toString(), " lacks");
      if (call.values[*index].isScalarType()) return call.values[*index].toScalarType();
    }
    switch (rule.kind) {
      case OutDtype::Kind::Case: return call.dtype;
      case OutDtype::Kind::Second: return call.second.value_or(call.dtype);
      case OutDtype::Kind::Fixed: return rule.fixed;
      case OutDtype::Kind::ResultType: return resultType(call, rule.scalar);
      case OutDtype::Kind::Floating: return isFloatingType(call.dtype) ? call.dtype : ScalarType::Float;
      case OutDtype::Kind::IntegralToLong: return isIntegralType(call.dtype, true) ? ScalarType::Long : call.dtype;
      case OutDtype::Kind::RealPart:
        switch (call.dtype) {
          case ScalarType::ComplexHalf: return ScalarType::Half;
          case ScalarType::ComplexFloat: return ScalarType::Float;
          case ScalarType::ComplexDouble: return ScalarType::Double;
          default: return call.dtype;
        }
    }
    return call.dtype;
  }

  // PyTorch's result type of the entry's tensors that follow the call's dtypes, and of the Scalar
  // argument `scalar` when named (aten::result_type: a 0-dim tensor counts for less than a
  // dimensioned one of the same category, a Scalar for less still), asked of PyTorch.
  ScalarType resultType(const Call& call, const std::string& scalar) {
    std::vector<std::pair<ScalarType, bool>> operands;  // dtype, 0-dim
    std::string key;
    for (size_t t = 0; t < entry_.tensorArguments().size(); ++t) {
      const TensorArgument& ta = entry_.tensorArguments()[t];
      if (ta.dtype.kind != OutDtype::Kind::Case && ta.dtype.kind != OutDtype::Kind::Second) continue;
      const ScalarType d = dtypeOf(ta.dtype, call);
      for (int j = 0; j < std::max(ta.list_length, 1); ++j) {
        const bool zero_dim = !entry_.shapeSets().empty() && entry_.shapeSets()[call.shape_set][firstShape(t) + j].empty();
        operands.emplace_back(d, zero_dim);
        key += str(toString(d), zero_dim ? "0 " : "n ");
      }
    }
    std::optional<IValue> scalar_value;
    if (!scalar.empty()) {
      const std::optional<size_t> index = schema_.argumentIndexWithName(scalar);
      SY_CHECK(index.has_value(), "oracle: the out dtype rule names argument '", scalar, "', which ",
               schema_.operator_name().toString(), " lacks");
      if (call.values[*index].isScalar()) {  // None takes no part
        scalar_value = call.values[*index];
        key += scalar_value->typeName();
      }
    }
    if (operands.empty()) return call.dtype;
    if (auto it = result_types_.find(key); it != result_types_.end()) return it->second;
    const auto probe = [](ScalarType d, bool zero) { return zeros(zero ? Shape{} : Shape{1}, d); };
    auto [dtype, zero_dim] = operands.front();
    for (size_t i = 1; i < operands.size(); ++i) {
      dtype = dtypeFromTorch(torchCall("aten::result_type.Tensor", {probe(dtype, zero_dim), probe(operands[i].first, operands[i].second)}));
      zero_dim = zero_dim && operands[i].second;
    }
    if (scalar_value) {
      dtype = dtypeFromTorch(torchCall("aten::result_type.Scalar", {probe(dtype, zero_dim), *scalar_value}));
    }
    result_types_[key] = dtype;
    return dtype;
  }

  // A dtype PyTorch returned (a boxed ScalarType is an int there).
  static ScalarType dtypeFromTorch(const std::vector<IValue>& results) {
    SY_CHECK(results.size() == 1, "oracle: aten::result_type returned ", results.size(), " values");
    return results[0].isScalarType() ? results[0].toScalarType() : fromTorchScalarType(results[0].toInt());
  }

  size_t firstShape(size_t tensor) const {
    size_t position = 0;
    for (size_t t = 0; t < tensor; ++t) position += std::max(entry_.tensorArguments()[t].list_length, 1);
    return position;
  }

  // The call's arguments, made afresh (each side gets its own, from the same seed), and what the
  // call is, for deviations and messages.
  std::vector<IValue> materialize(const Call& call, CallDescription* description) {
    const auto& arguments = schema_.arguments();
    std::vector<IValue> values(arguments.size());
    if (description != nullptr) {
      *description = CallDescription{};
      description->op = schema_.operator_name().toString();
      description->layout = toString(call.layout);
      description->fill = call.edges ? "edge values" : "random";
      description->seed = call.seed;
      if (has_outs_) {
        description->out_variant = call.out_sizes.empty() && call.out_list_sizes.empty() ? "empty out" : "sized out";
      }
    }
    auto shapeAt = [&](size_t position) {
      return entry_.shapeSets().empty() ? Shape{} : entry_.shapeSets()[call.shape_set][position];
    };
    for (size_t i = 0; i < arguments.size(); ++i) {
      const ArgumentPlan& p = plans_[i];
      const uint64_t seed = mixSeed(call.seed, i + 1);
      if (p.kind == ArgumentPlan::Kind::Value) {
        values[i] = call.values[i];
        if (description != nullptr) description->arguments.emplace_back(arguments[i].name, values[i]);
        continue;
      }
      if (p.kind == ArgumentPlan::Kind::Out && p.out_list_length > 0) {
        const auto sized = call.out_list_sizes.find(i);
        std::vector<Tensor> list;
        for (int j = 0; j < p.out_list_length; ++j) {
          TensorPlan plan{dtypeOf(p.out_dtype, call), Shape{0}, InputLayout::Contiguous, Values::any(), false};
          if (sized != call.out_list_sizes.end() && static_cast<size_t>(j) < sized->second.size()) {
            plan.sizes = sized->second[j];
          }
          list.push_back(makeInput(plan, mixSeed(seed, j)));
          if (description != nullptr) {
            description->dtypes[str(arguments[i].name, "[", j, "]")] = plan.dtype;
            description->shapes[str(arguments[i].name, "[", j, "]")] = plan.sizes;
            description->outs.insert(str(arguments[i].name, "[", j, "]"));
          }
        }
        values[i] = std::move(list);
        if (description != nullptr) description->outs.insert(arguments[i].name);
        continue;
      }
      if (p.kind == ArgumentPlan::Kind::Out) {
        TensorPlan plan{dtypeOf(p.out_dtype, call), Shape{0}, InputLayout::Contiguous, Values::any(), false};
        if (auto it = call.out_sizes.find(i); it != call.out_sizes.end()) plan.sizes = it->second;
        values[i] = makeInput(plan, seed);
        if (description != nullptr) {
          description->dtypes[arguments[i].name] = plan.dtype;
          description->shapes[arguments[i].name] = plan.sizes;
          description->outs.insert(arguments[i].name);
        }
        continue;
      }
      const TensorArgument& ta = entry_.tensorArguments()[p.tensor];
      const ScalarType dtype = dtypeOf(ta.dtype, call);
      auto make = [&](size_t position, uint64_t s, const std::string& name) {
        TensorPlan plan{dtype, shapeAt(position), call.layout, ta.values, call.edges};
        if (description != nullptr) {
          description->dtypes[name] = dtype;
          description->shapes[name] = plan.sizes;
        }
        return makeInput(plan, s);
      };
      if (p.kind == ArgumentPlan::Kind::Tensor) {
        values[i] = make(p.first_shape, seed, ta.name);
      } else if (arguments[i].type->kind() == TypeKind::List && arguments[i].type->element()->kind() == TypeKind::Optional) {
        // A Tensor?[]: a generic list, None where the shape is shapes::kNoneTensor.
        std::vector<IValue> list;
        for (int j = 0; j < ta.list_length; ++j) {
          const size_t position = p.first_shape + static_cast<size_t>(j);
          if (shapeAt(position) == shapes::kNoneTensor) {
            list.emplace_back();
            if (description != nullptr) description->shapes[str(ta.name, "[", j, "]")] = shapes::kNoneTensor;
          } else {
            list.emplace_back(make(position, mixSeed(seed, j), str(ta.name, "[", j, "]")));
          }
        }
        values[i] = std::move(list);
      } else {
        std::vector<Tensor> list;
        for (int j = 0; j < ta.list_length; ++j) {
          list.push_back(make(p.first_shape + j, mixSeed(seed, j), str(ta.name, "[", j, "]")));
        }
        values[i] = std::move(list);
      }
    }
    return values;
  }

  bool hasOuts() const { return has_outs_; }

 private:
  const OpCase& entry_;
  const FunctionSchema& schema_;
  std::vector<ArgumentPlan> plans_;
  size_t shapes_per_set_ = 0;
  bool has_outs_ = false;
  std::map<std::string, ScalarType> result_types_;
};

const Deviation* deviationFor(const OpCase& entry, const CallDescription& call) {
  for (const Deviation& d : entry.deviations()) {
    if (d.applies(call)) return &d;
  }
  return nullptr;
}

// Note [A kernel computes only the dtypes its YAML declares]
// Every portable kernel's YAML entry declares the dtypes it computes (See Note [A kernel's dtypes
// are declared in its YAML] in codegen/dtype_sets.cpp): those of its main input, or, where its
// inputs promote to a computation type (division, pow, atan2), those of that type. Either way a
// call Switchyard computes has a tensor input or result of a declared dtype; one that has none
// means the declaration leaves out what the kernel does, and fails the suite (a declared dtype the
// kernel refuses while PyTorch computes fails as any disagreement does). The tools report the
// declarations, so they must be what the kernels do.
std::string undeclaredDtype(const FunctionSchema& schema, const std::vector<IValue>& arguments, const Outcome& got) {
  if (got.error) return "";
  const std::optional<unsigned> declared = declaredDtypes(schema.operator_name());
  if (!declared) return "";
  std::vector<ScalarType> seen;
  auto look = [&](const IValue& v) {
    if (v.isTensor() && v.toTensor().defined()) seen.push_back(v.toTensor().scalar_type());
    if (v.isTensorList()) {
      for (const Tensor& t : v.toTensorVector()) seen.push_back(t.scalar_type());
    }
  };
  for (size_t i = 0; i < arguments.size() && i < schema.arguments().size(); ++i) {
    if (!schema.arguments()[i].is_out()) look(arguments[i]);
  }
  for (const IValue& r : got.results) look(r);
  if (seen.empty()) return "";
  for (ScalarType dtype : seen) {
    if ((*declared & (1u << static_cast<int>(dtype))) != 0) return "";
  }
  std::string dtypes;
  for (ScalarType dtype : seen) dtypes += (dtypes.empty() ? "" : ", ") + std::string(toString(dtype));
  return str("Switchyard computes a call of tensors and results of ", dtypes, ", none of which its kernel YAML's dtypes (",
             dtypeSetText(*declared), ") name");
}

}  // namespace

std::string Report::summary() const {
  return str(op, ": ", compared, " calls agree, ", refused_by_both, " refused by both", switchyard_refuses > 0 ? str(", ", switchyard_refuses, " refused by Switchyard as documented") : "",
             by_reference > 0 ? str(", ", by_reference, " against the reference") : "",
             skipped > 0 ? str(", ", skipped, " skipped as documented") : "",
             allocation_free > 0 ? str("; ", allocation_free, " repeated out calls allocate nothing") : "");
}

uint64_t oracleSeed() {
  const char* env = std::getenv("SWITCHYARD_ORACLE_SEED");
  return env != nullptr ? std::strtoull(env, nullptr, 0) : kDefaultSeed;
}

OperatorName parseOperatorName(const std::string& op) {
  const size_t ns = op.find("::");
  const size_t dot = op.find('.', ns == std::string::npos ? 0 : ns);
  if (dot == std::string::npos) return {op, ""};
  return {op.substr(0, dot), op.substr(dot + 1)};
}

// Note [An out kernel allocates nothing]
// ExecuTorch's rule: while a method executes nothing is allocated, so an out kernel writes into
// the memory it is given and keeps its scratch on the stack or in a per-thread buffer it reuses.
// The oracle checks it for every out variant on every call it compares (dtypes converted, inputs
// transposed or strided, outs aliasing inputs): once the outs have the sizes PyTorch gave them, the
// same call made again, after one call that warms the per-thread buffers, must allocate nothing.
// The count is of operator new, which every tensor's storage, every TensorImpl and every container
// goes through (storage bytes come with their StorageImpl).
namespace {
long allocationsOfARepeatedCall(const OperatorHandle& handle, const std::vector<IValue>& arguments,
                                const AllocationCounter& count_allocations) {
  Stack warm(arguments.begin(), arguments.end());
  handle.callBoxed(&warm);
  Stack stack(arguments.begin(), arguments.end());
  return count_allocations([&] { handle.callBoxed(&stack); });
}
}  // namespace

Report runCase(const OpCase& entry, const std::string& op, uint64_t seed, const AllocationCounter& count_allocations) {
  Report report;
  report.op = op;
  const std::string title = entry.label().empty() ? op : str(op, " (case \"", entry.label(), "\")");
  std::optional<OperatorHandle> handle = Dispatcher::singleton().findSchema(parseOperatorName(op));
  if (!handle) {
    report.failure = str(title, ": Switchyard registers no such operator");
    return report;
  }
  const FunctionSchema& schema = handle->schema();
  Runner runner(entry, schema);
  if (std::string problem = runner.plan(); !problem.empty()) {
    report.failure = str(title, ": ", problem);
    return report;
  }
  const bool torch_has_it = torchSchema(schema.operator_name()).has_value();
  if (!torch_has_it && !entry.referenceFn()) {
    report.failure = str(title, ": PyTorch 1.13 has no such operator; give the entry a .reference");
    return report;
  }
  Comparison comparison;
  comparison.values = !entry.valuesAreUnspecified();
  for (const auto& [dtype, tol] : defaultTolerances()) comparison.tolerances[dtype] = entry.toleranceFor(dtype);
  for (const ScalarType dtype : {ScalarType::Byte, ScalarType::Char, ScalarType::Short, ScalarType::Int, ScalarType::Long}) {
    if (entry.toleranceFor(dtype).atol > 0) comparison.tolerances[dtype] = entry.toleranceFor(dtype);
  }
  const uint64_t op_seed = seed ^ std::hash<std::string>{}(op);
  for (const Call& base : runner.calls(op_seed)) {
    Call call = base;
    for (int variant = 0; variant < (runner.hasOuts() ? 2 : 1); ++variant) {
      CallDescription description;
      const std::vector<IValue> ours = runner.materialize(call, &description);
      const Deviation* deviation = deviationFor(entry, description);
      if (deviation != nullptr && deviation->kind == Deviation::Kind::Skip) {
        ++report.skipped;
        break;
      }
      const Outcome got = runBoxed(ours, [&](Stack& stack) { handle->callBoxed(&stack); });
      if (std::string undeclared = undeclaredDtype(schema, ours, got); !undeclared.empty()) {
        report.failure = str(title, ": ", undeclared, description.describe());
        return report;
      }
      const Deviation::Kind kind = deviation != nullptr ? deviation->kind : Deviation::Kind::Skip;
      if (deviation != nullptr && kind == Deviation::Kind::SwitchyardRefuses) {
        if (!got.error) {
          report.failure = str(title, ": a documented deviation no longer holds: Switchyard computes a call it was documented to refuse (",
                               deviation->why, ")", description.describe());
          return report;
        }
        ++report.switchyard_refuses;
        break;
      }
      const std::vector<IValue> theirs = runner.materialize(call, nullptr);
      if (deviation != nullptr && kind == Deviation::Kind::SwitchyardComputes && torch_has_it) {
        const Outcome torch = callTorch(schema, theirs);
        if (!torch.error) {
          report.failure = str(title, ": a documented deviation no longer holds: PyTorch 1.13 computes a call it was documented to refuse (",
                               deviation->why, ")", description.describe());
          return report;
        }
      }
      const bool by_reference = !torch_has_it || (deviation != nullptr && (kind == Deviation::Kind::UseReference ||
                                                                           kind == Deviation::Kind::SwitchyardComputes));
      const Reference& reference = deviation != nullptr && deviation->reference ? deviation->reference : entry.referenceFn();
      if (by_reference && !reference) {
        report.failure = str(title, ": the deviation \"", deviation != nullptr ? deviation->why : "", "\" needs a reference");
        return report;
      }
      Outcome want = by_reference ? runBoxed(theirs, [&](Stack& stack) { reference(schema, stack); })
                                  : callTorch(schema, theirs);
      std::string oracle =
          by_reference ? str("the reference (", deviation != nullptr ? deviation->why : entry.referenceWhy(), ")") : "PyTorch 1.13";
      // See Note [PyTorch 1.13 answers for Half and BFloat16 on Float copies] in cases/references.h.
      if (!by_reference && want.error && lacksReducedFloatingKernel(*want.error)) {
        want = callTorchOnFloatCopies(schema, theirs);
        oracle = "PyTorch 1.13 on Float copies, rounded back (its CPU kernel lacks the dtype)";
      }
      if (want.unusable) {
        report.failure = str(title, ": cannot ask ", oracle, ": ", *want.unusable, description.describe());
        return report;
      }
      if (std::string difference = compareOutcomes(got, want, schema, comparison); !difference.empty()) {
        report.failure = str(title, " disagrees with ", oracle, ": ", difference, "\n  on the call:", description.describe());
        return report;
      }
      if (got.error) {
        ++report.refused_by_both;
        break;  // no sizes to take the outs from
      }
      ++(by_reference ? report.by_reference : report.compared);
      if (variant == 1 && count_allocations) {
        const long allocations = allocationsOfARepeatedCall(*handle, runner.materialize(call, nullptr), count_allocations);
        if (allocations != 0) {
          report.failure = str(title, ": allocates ", allocations, " time(s) on a call whose outs already have their sizes (See Note [An out kernel allocates nothing])",
                               description.describe());
          return report;
        }
        ++report.allocation_free;
      }
      for (size_t i = 0; i < schema.arguments().size(); ++i) {
        if (schema.arguments()[i].is_out() && want.arguments[i].isTensor()) {
          const auto sizes = want.arguments[i].toTensor().sizes();
          call.out_sizes[i] = Shape(sizes.begin(), sizes.end());
        }
        if (schema.arguments()[i].is_out() && want.arguments[i].isTensorList()) {
          std::vector<Shape>& sizes = call.out_list_sizes[i];
          sizes.clear();
          for (const Tensor& t : want.arguments[i].toTensorVector()) sizes.emplace_back(t.sizes().begin(), t.sizes().end());
        }
      }
    }
  }
  if (report.compared + report.by_reference == 0 && !entry.onlyErrors()) {
    report.failure = str(title, ": no call ran on both sides (", report.refused_by_both, " refused by both, ",
                         report.switchyard_refuses, " refused by Switchyard, ", report.skipped, " skipped)");
  }
  return report;
}

}  // namespace sy::oracle
