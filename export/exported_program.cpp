#include "switchyard/export/exported_program.h"

#include <map>

#include "switchyard/delegate/backend_registry.h"
#include "switchyard/delegate/delegate_call.h"
#include "switchyard/export/lowered_module.h"
#include "switchyard/core/error.h"
#include "switchyard/ivalue/stack.h"
#include "switchyard/ivalue/tensor_factories.h"

namespace sy::export_ {

namespace {

// Raises sy::Error when delegate call `n` does not fit the module it names.
void checkDelegateCall(const Graph& g, const Node& n, const std::vector<std::shared_ptr<const LoweredModule>>& modules) {
  const int64_t index = n.args[1].constant.toInt();
  SY_CHECK(index >= 0 && static_cast<size_t>(index) < modules.size() && modules[static_cast<size_t>(index)] != nullptr,
           "delegate call '", n.name, "' runs lowered module ", index, ", but the program has ", modules.size());
  const LoweredModule& m = *modules[static_cast<size_t>(index)];
  SY_CHECK(m.original_program != nullptr, "lowered module ", index, " has no original program");
  SY_CHECK(n.args[0].constant.toStringRef() == m.backend_id, "delegate call '", n.name, "' names backend '",
           n.args[0].constant.toStringRef(), "', but lowered module ", index, " is for '", m.backend_id, "'");
  const Graph& sub = m.original_program->graph();
  const std::vector<ValueId> inputs = sub.placeholders(InputKind::User), outputs = sub.outputs();
  SY_CHECK(n.args[2].values.size() == inputs.size() && n.outputs.size() == outputs.size(), "delegate call '", n.name,
           "' reads ", n.args[2].values.size(), " values and defines ", n.outputs.size(), ", but lowered module ", index,
           " takes ", inputs.size(), " and returns ", outputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    SY_CHECK(g.value(n.args[2].values[i]).meta == sub.value(inputs[i]).meta, "delegate call '", n.name, "' input ", i,
             " is ", g.value(n.args[2].values[i]).meta.str(), ", but lowered module ", index, " takes ",
             sub.value(inputs[i]).meta.str());
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    SY_CHECK(g.value(n.outputs[i]).meta == sub.value(outputs[i]).meta, "delegate call '", n.name, "' output ", i,
             " is ", g.value(n.outputs[i]).meta.str(), ", but lowered module ", index, " returns ",
             sub.value(outputs[i]).meta.str());
  }
}

// Note [Lowered modules run directly from C++]
// ExportedProgram::run runs a delegate call the way a loaded method does, only for one call: the
// backend registered under the module's id (sy::get_backend_class) inits on the processed bytes
// and compile specs, executes once through higher_order::executorch_call_delegate (so profilers
// and tracers see it, See Note [Delegate calls go through the dispatcher]) with the inputs and
// freshly allocated outputs, and is destroyed right after with the handle init returned, also
// when execute fails. Errors name the node, the backend and, for a debug handle the backend
// reports, the original operators behind it.
// A lowered module's named data as its init's named data map (valid while the module lives,
// which is longer than the delegate run from it).
class ModuleNamedData final : public NamedDataMap {
 public:
  explicit ModuleNamedData(const LoweredModule& m) : m_(m) {
    for (const auto& [key, bytes] : m.named_data) by_key_.emplace(key, &bytes);
  }
  absl::StatusOr<FreeableBuffer> get_data(std::string_view key) const override {
    if (auto it = by_key_.find(key); it != by_key_.end()) return FreeableBuffer(it->second->data(), it->second->size(), nullptr);
    return absl::NotFoundError(sy::str("no named data '", key, "' in the lowered module for backend '", m_.backend_id, "'"));
  }
  size_t num_keys() const override { return m_.named_data.size(); }
  absl::StatusOr<std::string_view> get_key(size_t index) const override {
    if (index >= m_.named_data.size()) return absl::InvalidArgumentError(sy::str("named data key ", index));
    return std::string_view(m_.named_data[index].first);
  }

 private:
  const LoweredModule& m_;
  std::map<std::string_view, const std::vector<uint8_t>*> by_key_;
};

std::vector<Tensor> runLoweredModule(const Node& n, const LoweredModule& m, const std::vector<Tensor>& inputs,
                                     const Graph& g) {
  BackendInterface* backend = get_backend_class(m.backend_id);
  SY_CHECK(backend != nullptr, "delegate call '", n.name, "' needs backend '", m.backend_id,
           "', whose run-time half is not registered (sy::register_backend)");
  SY_CHECK(backend->is_available(), "delegate call '", n.name, "' needs backend '", m.backend_id,
           "', which is registered but not available here");
  const size_t index = static_cast<size_t>(n.args[1].constant.toInt());
  std::vector<CompileSpec> specs_storage = m.compile_specs;
  std::vector<sy::CompileSpec> specs;
  for (const CompileSpec& spec : specs_storage) specs.push_back(sy::CompileSpec{spec.key, spec.value});
  FreeableBuffer processed(m.processed_bytes.data(), m.processed_bytes.size(), nullptr);
  const ModuleNamedData named_data(m);
  BackendInitContext init_context{"ExportedProgram::run", index, &named_data};
  absl::StatusOr<DelegateHandle*> handle = backend->init(init_context, &processed, specs);
  SY_CHECK(handle.ok(), "delegate call '", n.name, "' (backend '", m.backend_id, "') failed to initialise: ",
           handle.status().message());
  struct Destroy {
    const BackendInterface* backend;
    DelegateHandle* handle;
    ~Destroy() { backend->destroy(handle); }
  } destroy{backend, *handle};

  std::vector<IValue> values;
  std::vector<Tensor> outputs;
  for (const Tensor& t : inputs) values.emplace_back(t);
  for (ValueId v : n.outputs) {
    const TensorMeta& meta = g.value(v).meta;
    outputs.push_back(sy::empty(meta.sizes, TensorOptions(meta.dtype)));
    values.emplace_back(outputs.back());
  }
  std::vector<IValue*> args;
  for (IValue& v : values) args.push_back(&v);
  const std::map<int64_t, std::string> sources = m.debugHandleSources();
  DelegateCallFrame frame;
  frame.backend = backend;
  frame.handle = *handle;
  frame.context = BackendExecutionContext{"ExportedProgram::run", index};
  frame.args = absl::MakeSpan(args);
  frame.debug_handle_sources = &sources;
  std::vector<Tensor> tensors(inputs);
  tensors.insert(tensors.end(), outputs.begin(), outputs.end());
  Stack stack{IValue(m.backend_id), IValue(static_cast<int64_t>(index)), IValue(std::move(tensors))};
  try {
    callDelegateThroughDispatcher(frame, stack);
  } catch (const Error& e) {
    SY_ERROR("delegate call '", n.name, "': ", e.what());
  }
  return outputs;
}

}  // namespace

ExportedProgram::ExportedProgram(Graph graph, std::map<std::string, Tensor> state,
                                 std::vector<std::shared_ptr<const LoweredModule>> lowered_modules)
    : graph_(std::move(graph)), state_(std::move(state)), lowered_modules_(std::move(lowered_modules)) {
  graph_.validate();
  for (const Node& n : graph_.nodes()) {
    if (isDelegateCall(n)) checkDelegateCall(graph_, n, lowered_modules_);
    if (n.kind != NodeKind::Placeholder || n.input_kind == InputKind::User) continue;
    auto it = state_.find(n.target);
    SY_CHECK(it != state_.end() && it->second.defined(), toString(n.input_kind), " placeholder '", n.name,
             "' stands for '", n.target, "', which the program's state does not hold");
    const TensorMeta& expected = graph_.value(n.outputs[0]).meta;
    SY_CHECK(TensorMeta::of(it->second) == expected, toString(n.input_kind), " '", n.target, "' is a ",
             TensorMeta::of(it->second).str(), " tensor, but its placeholder '", n.name, "' is ", expected.str());
  }
}

const Tensor& ExportedProgram::stateOf(ValueId placeholder) const {
  const Node& n = graph_.node(graph_.producer(placeholder));
  SY_CHECK(n.kind == NodeKind::Placeholder && n.input_kind != InputKind::User, "%", graph_.value(placeholder).name,
           " is not a parameter or constant placeholder");
  return state_.at(n.target);
}

void ExportedProgram::setDelegationTag(NodeId node, std::string tag) {
  Node& n = graph_.mutableNode(node);
  SY_CHECK(n.kind == NodeKind::CallFunction, "only call_function nodes can be delegated, but '", n.name, "' is a ",
           toString(n.kind), " node");
  n.meta.delegation_tag = std::move(tag);
}

std::vector<Tensor> ExportedProgram::run(const std::vector<Tensor>& inputs) const {
  const std::vector<ValueId> user = graph_.placeholders(InputKind::User);
  SY_CHECK(inputs.size() == user.size(), "ExportedProgram::run: the program takes ", user.size(), " inputs, but ",
           inputs.size(), " were given");
  std::vector<Tensor> values(graph_.numValues());
  for (size_t i = 0; i < user.size(); ++i) {
    const TensorMeta& expected = graph_.value(user[i]).meta;
    SY_CHECK(inputs[i].defined() && expected.admits(TensorMeta::of(inputs[i])), "ExportedProgram::run: input ", i, " ('",
             graph_.value(user[i]).name, "') must be ", expected.str(), ", but is ",
             inputs[i].defined() ? TensorMeta::of(inputs[i]).str() : std::string("undefined"));
    values[static_cast<size_t>(user[i])] = inputs[i];
  }
  Stack stack;
  for (const Node& n : graph_.nodes()) {
    if (n.kind == NodeKind::Placeholder) {
      if (n.input_kind != InputKind::User) values[static_cast<size_t>(n.outputs[0])] = state_.at(n.target);
      continue;
    }
    if (n.kind == NodeKind::Output) break;
    if (isDelegateCall(n)) {
      std::vector<Tensor> in;
      for (ValueId v : n.args[2].values) in.push_back(values[static_cast<size_t>(v)]);
      std::vector<Tensor> out =
          runLoweredModule(n, *lowered_modules_[static_cast<size_t>(n.args[1].constant.toInt())], in, graph_);
      for (size_t r = 0; r < out.size(); ++r) values[static_cast<size_t>(n.outputs[r])] = std::move(out[r]);
      continue;
    }
    stack.clear();
    for (const NodeArgument& a : n.args) {
      switch (a.kind) {
        case NodeArgument::Kind::Value: stack.push_back(values[static_cast<size_t>(a.value)]); break;
        case NodeArgument::Kind::ValueList: {
          std::vector<Tensor> list;
          for (ValueId v : a.values) list.push_back(values[static_cast<size_t>(v)]);
          stack.push_back(IValue(std::move(list)));
          break;
        }
        case NodeArgument::Kind::OptionalValueList: {
          std::vector<IValue> list;
          for (ValueId v : a.values) list.push_back(v == NodeArgument::kNone ? IValue() : IValue(values[static_cast<size_t>(v)]));
          stack.push_back(IValue(std::move(list)));
          break;
        }
        case NodeArgument::Kind::Constant: stack.push_back(a.constant); break;
      }
    }
    n.op->callBoxed(&stack);
    SY_CHECK(stack.size() == n.outputs.size(), "ExportedProgram::run: node '", n.name, "' (", n.op->operator_name(),
             ") left ", stack.size(), " values where its schema returns ", n.outputs.size());
    for (size_t r = 0; r < n.outputs.size(); ++r) {
      SY_CHECK(stack[r].isTensor(), "ExportedProgram::run: node '", n.name, "' returned a ", stack[r].typeName(),
               " where the graph expects a tensor");
      values[static_cast<size_t>(n.outputs[r])] = std::move(stack[r]).toTensor();
    }
  }
  std::vector<Tensor> out;
  for (ValueId v : graph_.outputs()) out.push_back(values[static_cast<size_t>(v)]);
  return out;
}

}  // namespace sy::export_
