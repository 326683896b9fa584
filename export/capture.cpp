#include "switchyard/export/capture.h"

#include <unordered_set>

#include "switchyard/export/capture_state.h"
#include "switchyard/core/error.h"
#include "switchyard/ivalue/tensor_factories.h"

namespace sy::export_ {

std::optional<InputKind> Capture::State::placeholderKind(ValueId v) const {
  const Node& n = graph.node(graph.producer(v));
  if (n.kind != NodeKind::Placeholder) return std::nullopt;
  return n.input_kind;
}

bool Capture::State::isComputed(ValueId v) const {
  std::optional<InputKind> kind = placeholderKind(v);
  return !kind || *kind != InputKind::Constant;
}

void Capture::State::bind(const Tensor& t, ValueId v) {
  auto [it, inserted] = value_of.insert_or_assign(t.unsafeGetTensorImpl(), v);
  // One reference each: See Note [Capture functionalises what it records] for why the count matters.
  if (inserted) held.push_back(t);
}

namespace {

// The computed value whose memory `t` shares, if any.
std::optional<ValueId> computedValueSharingMemory(const Capture::State& s, const Tensor& t) {
  for (const Tensor& other : s.held) {
    if (other.storage().get() != t.storage().get()) continue;
    const ValueId v = s.value_of.at(other.unsafeGetTensorImpl());
    if (s.isComputed(v)) return v;
  }
  return std::nullopt;
}

}  // namespace

bool Capture::State::sharesMemoryWithComputedValue(const Tensor& t) const {
  return computedValueSharingMemory(*this, t).has_value();
}

ValueId Capture::State::valueFor(const Tensor& t, const std::string& what) {
  SY_CHECK_VALUE(t.defined(), what, " is an undefined tensor");
  if (auto it = value_of.find(t.unsafeGetTensorImpl()); it != value_of.end()) return it->second;
  if (std::optional<ValueId> v = computedValueSharingMemory(*this, t)) {
    SY_ERROR_KIND(NotImplemented, what, " is a tensor that shares memory with ", graph.value(*v).name,
                  " but was not made by an operator call the capture saw (a view built on the TensorImpl "
                  "directly?); its contents depend on the example inputs, so it cannot become a constant. Make "
                  "it with an operator call (sy::ops::view, sy::ops::slice, ...)");
  }
  SY_CHECK_NOT_IMPLEMENTED(t.is_cpu(), what, " is a constant on ", t.device().str(),
                           "; captured constants must be CPU tensors");
  // A copy taken now, contiguous, so later writes to the original do not change the program.
  Tensor copy;
  {
    ExcludeDispatchKeyGuard off(DispatchKey::Tracer);
    copy = sy::empty(t.sizes(), TensorOptions(t.scalar_type()));
    copy.copy_(t);
  }
  const std::string target = sy::str("_tensor_constant", next_constant++);
  const ValueId v = graph.addPlaceholder(target, InputKind::Constant, target, TensorMeta::of(copy));
  state[target] = copy;
  bind(t, v);
  return v;
}

Capture::Capture(std::vector<NamedTensor> parameters, const char* file, uint32_t line, const char* function)
    : state_(std::make_unique<State>()) {
  SY_CHECK(detail::activeCapture() == nullptr, "Capture started at ", file, ":", line,
           " while another capture is running on this thread; finish that one first");
  std::unordered_set<std::string> names;
  for (size_t i = 0; i < parameters.size(); ++i) {
    const NamedTensor& p = parameters[i];
    SY_CHECK_VALUE(!p.name.empty(), "parameter ", i, " has an empty name; every parameter needs a unique name");
    SY_CHECK_VALUE(names.insert(p.name).second, "two parameters are called '", p.name, "'");
    SY_CHECK_VALUE(p.tensor.defined(), "parameter '", p.name, "' is an undefined tensor");
    if (auto it = state_->value_of.find(p.tensor.unsafeGetTensorImpl()); it != state_->value_of.end()) {
      SY_ERROR_KIND(Value, "parameters '", state_->graph.node(state_->graph.producer(it->second)).target, "' and '",
                    p.name, "' are the same tensor; pass it once");
    }
    const ValueId v = state_->graph.addPlaceholder(p.name, InputKind::Parameter, p.name, TensorMeta::of(p.tensor));
    state_->state[p.name] = p.tensor;
    state_->bind(p.tensor, v);
  }
  state_->registration = std::make_unique<TracerRegistration>();
  detail::activeCapture() = state_.get();
  detail::setCaptureActiveOnThisThread(true);
  state_->include_tracer = std::make_unique<IncludeDispatchKeyGuard>(DispatchKey::Tracer);
  state_->outer_scope = std::make_unique<SourceScope>(file, line, function);
}

namespace {

void stop(Capture::State& s) {
  if (s.finished) return;
  s.finished = true;
  s.outer_scope.reset();
  detail::setCaptureActiveOnThisThread(false);
  s.include_tracer.reset();
  if (detail::activeCapture() == &s) detail::activeCapture() = nullptr;
  s.registration.reset();
}

}  // namespace

Capture::~Capture() { stop(*state_); }

const Tensor& Capture::input(std::string name, const Tensor& example) {
  SY_CHECK(!state_->finished, "Capture::input('", name, "') after finish()");
  SY_CHECK_VALUE(example.defined(), "example input '", name, "' is an undefined tensor");
  if (auto it = state_->value_of.find(example.unsafeGetTensorImpl()); it != state_->value_of.end()) {
    const Node& n = state_->graph.node(state_->graph.producer(it->second));
    SY_ERROR_KIND(Value, "example input '", name, "' is the same tensor as ", toString(n.input_kind), " '",
                  n.target.empty() ? n.name : n.target, "'; pass distinct tensors");
  }
  const ValueId v = state_->graph.addPlaceholder(std::move(name), InputKind::User, "", TensorMeta::of(example));
  state_->bind(example, v);
  return example;
}

ExportedProgram Capture::finish(const std::vector<Tensor>& outputs) {
  SY_CHECK(!state_->finished, "Capture::finish() called twice");
  std::vector<ValueId> values;
  try {
    for (size_t i = 0; i < outputs.size(); ++i) values.push_back(state_->valueFor(outputs[i], sy::str("output ", i)));
  } catch (...) {
    stop(*state_);
    throw;
  }
  stop(*state_);
  state_->graph.setOutputs(std::move(values));
  state_->value_of.clear();
  state_->held.clear();
  return ExportedProgram(std::move(state_->graph), std::move(state_->state));
}

ExportedProgram capture(const Model& model, const std::vector<Tensor>& example_inputs, std::vector<NamedTensor> parameters,
                        std::vector<std::string> input_names, const char* file, uint32_t line, const char* function) {
  SY_CHECK_VALUE(input_names.empty() || input_names.size() == example_inputs.size(), "capture: ", input_names.size(),
                 " input names for ", example_inputs.size(), " example inputs");
  Capture c(std::move(parameters), file, line, function);
  std::vector<Tensor> inputs;
  for (size_t i = 0; i < example_inputs.size(); ++i) {
    inputs.push_back(c.input(input_names.empty() ? sy::str("input_", i) : input_names[i], example_inputs[i]));
  }
  return c.finish(model(inputs));
}

}  // namespace sy::export_
