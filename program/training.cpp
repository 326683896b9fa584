// See Note [Training state lives in the method's memory] (training.h).
#include "switchyard/program/training.h"

#include <algorithm>

#include "switchyard/core/error.h"
#include "switchyard/ops/ops.h"

namespace sy {

namespace {

// The outputs of one of the program's constant methods (no inputs, no instructions that read any).
absl::StatusOr<std::vector<IValue>> constantOutputs(const Program& program, const std::string& method) {
  absl::StatusOr<Method> m = program.load_method(method);
  if (!m.ok()) return m.status();
  if (absl::Status s = m->execute(); !s.ok()) return s;
  std::vector<IValue> out;
  for (size_t i = 0; i < m->outputs_size(); ++i) out.push_back(m->get_output(i));
  return out;
}

absl::StatusOr<size_t> outputIndex(const Program& program, const std::string& method, const std::string& what) {
  absl::StatusOr<std::vector<IValue>> out = constantOutputs(program, method);
  if (!out.ok()) return out.status();
  if (out->size() != 1 || !(*out)[0].isInt() || (*out)[0].toInt() < 0) {
    return absl::InvalidArgumentError(sy::str("program '", program.name(), "': method '", method,
                                              "' must return one non-negative int (", what, ")"));
  }
  return static_cast<size_t>((*out)[0].toInt());
}

}  // namespace

absl::StatusOr<TrainingLayout> trainingLayout(const Program& program, std::string_view method) {
  const std::string name(method);
  const std::string gradients = "__et_training_gradients_index_" + name;
  const std::string parameters = "__et_training_parameters_index_" + name;
  const std::string fqns = "__et_training_fqn_" + name;
  const std::vector<std::string> methods = program.method_names();
  auto has = [&](const std::string& m) { return std::find(methods.begin(), methods.end(), m) != methods.end(); };
  if (!has(gradients) || !has(parameters) || !has(fqns)) {
    return absl::NotFoundError(sy::str("program '", program.name(), "' is not a training program for method '", name,
                                       "' (it lacks ", !has(gradients) ? gradients : !has(parameters) ? parameters : fqns,
                                       ")"));
  }
  absl::StatusOr<MethodMeta> meta = program.method_meta(name);
  if (!meta.ok()) return meta.status();
  TrainingLayout layout;
  layout.method = name;
  absl::StatusOr<size_t> g = outputIndex(program, gradients, "the output index of the first gradient");
  if (!g.ok()) return g.status();
  absl::StatusOr<size_t> p = outputIndex(program, parameters, "the output index of the first parameter");
  if (!p.ok()) return p.status();
  layout.gradients_start = *g;
  layout.parameters_start = *p;
  absl::StatusOr<std::vector<IValue>> names = constantOutputs(program, fqns);
  if (!names.ok()) return names.status();
  for (const IValue& n : *names) {
    if (!n.isString()) {
      return absl::InvalidArgumentError(sy::str("program '", program.name(), "': method '", fqns, "' returns a ",
                                                n.typeName(), " where it should return the parameters' names"));
    }
    layout.names.push_back(n.toStringRef());
  }
  const size_t num_outputs = meta->outputs.size();
  const size_t count = layout.names.size();
  const bool fits = layout.gradients_start + count == layout.parameters_start && layout.parameters_start + count == num_outputs;
  if (!fits) {
    return absl::InvalidArgumentError(sy::str("program '", program.name(), "': method '", name, "' has ", num_outputs,
                                              " outputs, gradients from output ", layout.gradients_start,
                                              ", parameters from output ", layout.parameters_start, " and ", count,
                                              " parameter names; they must be user outputs, then one gradient and one "
                                              "parameter per name"));
  }
  for (size_t i = layout.gradients_start; i < num_outputs; ++i) {
    if (meta->outputs[i].kind != "Tensor") {
      return absl::InvalidArgumentError(sy::str("program '", program.name(), "': method '", name, "' output ", i,
                                                " is a ", meta->outputs[i].kind, " where a gradient or parameter belongs"));
    }
  }
  return layout;
}

namespace {

NamedTensors namedOutputs(const Method& method, const TrainingLayout& layout, size_t start) {
  NamedTensors out;
  for (size_t i = 0; i < layout.names.size(); ++i) out.emplace_back(layout.names[i], method.get_output(start + i).toTensor());
  return out;
}

}  // namespace

NamedTensors namedParameters(const Method& method, const TrainingLayout& layout) {
  return namedOutputs(method, layout, layout.parameters_start);
}

NamedTensors namedGradients(const Method& method, const TrainingLayout& layout) {
  return namedOutputs(method, layout, layout.gradients_start);
}

absl::Status SGD::step(const NamedTensors& parameters, const NamedTensors& gradients) {
  std::map<std::string_view, const Tensor*> by_name;
  for (const auto& [name, g] : gradients) by_name[name] = &g;
  try {
    for (const auto& [name, p] : parameters) {
      auto it = by_name.find(name);
      if (it == by_name.end()) return absl::InvalidArgumentError(sy::str("SGD: parameter '", name, "' has no gradient"));
      Tensor g = *it->second;
      if (!sameSizes(g.sizes(), p.sizes())) {
        return absl::InvalidArgumentError(sy::str("SGD: parameter '", name, "' has sizes ", formatSizes(p.sizes()),
                                                  " but its gradient ", formatSizes(g.sizes())));
      }
      if (options_.weight_decay != 0) g = ops::add(g, p, options_.weight_decay);
      if (options_.momentum != 0) {
        auto buffer = momentum_.find(name);
        if (buffer == momentum_.end()) {
          buffer = momentum_.emplace(name, ops::clone(g)).first;
        } else {
          ops::add_(ops::mul_(buffer->second, options_.momentum), g, 1 - options_.dampening);
        }
        g = buffer->second;
      }
      Tensor param = p;  // the method's own tensor: updated in place
      ops::sub_(param, g, options_.learning_rate);
    }
  } catch (const std::exception& e) {
    return absl::InvalidArgumentError(sy::str("SGD: ", e.what()));
  }
  return absl::OkStatus();
}

}  // namespace sy
