// The recording kernel on the autograd keys. What it records and what it refuses:
// see Note [Only tensors that require grad carry an autograd key] (autograd/autograd.h).
#include "switchyard/autograd/autograd_fallback.h"

#include <optional>
#include <utility>
#include <vector>

#include "switchyard/autograd/autograd.h"
#include "switchyard/autograd/autograd_meta.h"
#include "switchyard/autograd/formula.h"
#include "switchyard/autograd/node.h"
#include "switchyard/dispatcher/library.h"
#include "switchyard/ops/shape_ops.h"

namespace sy::autograd {
namespace {

// Calls `f(tensor, element)` for every defined tensor an argument holds: a Tensor, or the elements
// of a Tensor[] or Tensor?[] (element = position in the list).
template <class F>
void forEachTensorElement(const IValue& v, F&& f) {
  if (v.isTensor()) {
    if (v.toTensor().defined()) f(v.toTensor(), size_t{0});
  } else if (v.isTensorList()) {
    const std::vector<Tensor>& list = v.toTensorVector();
    for (size_t i = 0; i < list.size(); ++i) {
      if (list[i].defined()) f(list[i], i);
    }
  } else if (v.isList()) {
    const std::vector<IValue>& list = v.toList();
    for (size_t i = 0; i < list.size(); ++i) {
      if (list[i].isTensor() && list[i].toTensor().defined()) f(list[i].toTensor(), i);
    }
  }
}

// A tensor whose gradient can flow: floating-point and with history.
bool takesGradient(const Tensor& t) { return isFloatingType(t.scalar_type()) && hasHistory(t); }

// The edge a gradient for `t` follows: its grad_fn's output, or the leaf itself.
Edge edgeOf(const Tensor& t) {
  Edge edge;
  if (!takesGradient(t)) return edge;
  const AutogradMeta* meta = metaOf(t);
  if (meta->grad_fn != nullptr) {
    edge.node = meta->grad_fn;
    edge.output_nr = meta->output_nr;
  } else {
    edge.leaf = t.getIntrusivePtr();
  }
  return edge;
}

// For return `r`, the argument a view result aliases without writing (`Tensor(a) self ->
// Tensor(a)`), or nullopt.
std::optional<size_t> viewedArgument(const FunctionSchema& schema, size_t r) {
  const Argument& ret = schema.returns()[r];
  if (!ret.alias_info.has_value() || ret.alias_info->is_write) return std::nullopt;
  for (size_t i = 0; i < schema.arguments().size(); ++i) {
    const Argument& arg = schema.arguments()[i];
    if (arg.alias_info.has_value() && arg.alias_info->set == ret.alias_info->set) return i;
  }
  return std::nullopt;
}

bool sharesMemory(const Tensor& a, const Tensor& b) {
  return a.defined() && b.defined() && a.storage() && a.storage() == b.storage();
}

// What the arguments of one call are, read before it runs.
struct CallSummary {
  bool any_requires_grad = false;
  std::optional<size_t> first_requiring;  // an argument that requires grad, for messages
  std::vector<size_t> written;            // arguments the call writes (`!`)
};

CallSummary summarize(const FunctionSchema& schema, const IValue* args) {
  CallSummary summary;
  const auto& arguments = schema.arguments();
  for (size_t i = 0; i < arguments.size(); ++i) {
    if (arguments[i].is_write()) summary.written.push_back(i);
    if ((schema.tensorArgumentMask() >> i & 1) == 0) continue;
    forEachTensorElement(args[i], [&](const Tensor& t, size_t) {
      if (takesGradient(t)) {
        summary.any_requires_grad = true;
        if (!summary.first_requiring) summary.first_requiring = i;
      }
    });
  }
  return summary;
}

// Refuses, before the kernel runs, the writes autograd cannot follow (see the Note).
void checkWrites(const OperatorName& name, const FunctionSchema& schema, const IValue* args, const CallSummary& summary) {
  for (size_t i : summary.written) {
    const Argument& arg = schema.arguments()[i];
    if (arg.is_out()) {
      const std::string& culprit = schema.arguments()[*summary.first_requiring].name;
      SY_ERROR(name, ": out= forms do not record gradients, and argument '", culprit, "' requires grad. Call the "
               "functional form (without out=), or make this call under sy::NoGradGuard");
    }
    SY_CHECK(args[i].isTensor(), name, ": argument '", arg.name, "' is written in place and holds ",
             args[i].typeName(), "; autograd follows in-place writes into single tensors only");
    bool returned = false;
    for (size_t r = 0; r < schema.returns().size(); ++r) returned = returned || schema.aliasedArgumentOfReturn(r) == static_cast<int>(i);
    SY_CHECK(returned, name, ": argument '", arg.name, "' is written in place but not returned, so autograd cannot "
             "give it the new history; make this call under sy::NoGradGuard");
    const Tensor& self = args[i].toTensor();
    const AutogradMeta* meta = metaOf(self);
    if (meta != nullptr && meta->requires_grad && meta->grad_fn == nullptr) {
      SY_ERROR(name, ": argument '", arg.name, "' is a leaf tensor that requires grad, and writing into it in place "
               "would lose the value its gradient is taken at. Do the update under sy::NoGradGuard (as an optimizer "
               "step does), or write into a clone");
    }
    if (meta != nullptr && meta->isView()) {
      SY_ERROR(name, ": argument '", arg.name, "' is a view of another tensor that requires grad; autograd does not "
               "support in-place operations on views. Use the out-of-place form, or clone the view first");
    }
    if (meta != nullptr && meta->hasLiveViews()) {
      SY_ERROR(name, ": argument '", arg.name, "' has views that are still alive, and writing into it would change "
               "them behind autograd's back. Use the out-of-place form, or drop the views first");
    }
    if (!hasHistory(self) && self.storage() && self.storage()->use_count() > 1) {
      SY_ERROR(name, ": argument '", arg.name, "' shares its memory with another tensor (it is a view, or has views), "
               "and the call would write a value that requires grad into it; autograd does not follow writes into "
               "shared memory. Write into a tensor of its own (clone it first)");
    }
  }
}

// Keeps what the formula declared it reads, and where each input's gradient goes. `in_place`
// arguments the formula reads are cloned first: the kernel is about to overwrite them.
void recordInputs(Node& node, const FunctionSchema& schema, const IValue* args, const Saved* saved) {
  const auto& arguments = schema.arguments();
  std::vector<bool> keep(arguments.size(), false);
  if (saved != nullptr) {
    for (const std::string& name : saved->arguments) {
      std::optional<size_t> index = schema.argumentIndexWithName(name);
      SY_CHECK(index.has_value(), "the backward formula of ", node.name(), " (registered at ",
               node.formula()->site, ") saves argument '", name, "', which ", node.name(),
               " does not have; schema: ", schema.toString());
      keep[*index] = true;
    }
  }
  NoGradGuard no_grad;  // the clones below are not recorded
  node.arguments().resize(arguments.size());
  for (size_t i = 0; i < arguments.size(); ++i) {
    SavedArgument& out = node.arguments()[i];
    const bool is_tensor_argument = (schema.tensorArgumentMask() >> i & 1) != 0;
    if (!is_tensor_argument) {
      out.value = args[i];
      out.saved = true;
      continue;
    }
    if (args[i].isTensorList()) out.value = IValue(std::vector<Tensor>{});  // marks a list for savedList()
    out.saved = keep[i];
    const bool overwritten = arguments[i].is_write();
    forEachTensorElement(args[i], [&](const Tensor& t, size_t element) {
      node.inputs().push_back(InputSlot{static_cast<uint32_t>(i), static_cast<uint32_t>(element),
                                        TensorGeometry::of(t), edgeOf(t)});
      if (keep[i]) out.tensors.push_back(SavedTensor::of(overwritten ? ops::clone(t) : t));
    });
  }
}

// Gives a result the node as its history (or, for a result autograd cannot differentiate, none).
void attachResult(Node& node, const FunctionSchema& schema, const IValue* args, size_t r, uint32_t output_nr,
                  Tensor& result, bool save_results) {
  node.outputs().push_back(TensorGeometry::of(result));
  if (!isFloatingType(result.scalar_type())) {  // indices, masks: no gradient flows through them
    result.unsafeGetTensorImpl()->set_key_set(result.key_set() - kAutogradKeys);
    if (save_results) node.results().push_back(SavedTensor::of(detachedAlias(result)));
    return;
  }
  const int written = schema.aliasedArgumentOfReturn(r);
  const Tensor* base = nullptr;  // the argument a view result shares memory with
  if (written < 0) {
    if (std::optional<size_t> viewed = viewedArgument(schema, r); viewed && args[*viewed].isTensor()) {
      base = &args[*viewed].toTensor();
    }
    // A functional operator that hands back one of its inputs (a no-op) must not overwrite that
    // input's history: the result becomes an alias of its own.
    for (size_t i = 0; i < schema.arguments().size(); ++i) {
      if (args[i].isTensor() && args[i].toTensor().is_same(result)) {
        result = detachedAlias(result);
        base = &args[i].toTensor();
      }
    }
  }
  AutogradMeta& meta = ensureMeta(result);
  meta.grad_fn = node.shared_from_this();
  meta.output_nr = output_nr;
  if (base != nullptr && sharesMemory(result, *base) && meta.view_of == nullptr) {
    // See Note [Only tensors that require grad carry an autograd key]: in-place writes into a
    // recorded view, or into its base while it is alive, are refused.
    //
    // Note [A view counts against its first base only]
    // Of a chain of views x -> v1 -> v2 -> ..., only x can be written in place (a view cannot), and
    // only while no view of the chain is alive. So every view counts against x's counter alone:
    // recording a view is constant work, however long the chain (counting against every tensor
    // before it made a chain of n views cost n^2).
    std::lock_guard<std::mutex> lock(sharedStateMutex());  // other threads may view the same base
    AutogradMeta& base_meta = ensureMeta(*base);
    if (base_meta.view_of != nullptr) {
      meta.view_of = base_meta.view_of;
    } else {
      if (base_meta.live_views == nullptr) base_meta.live_views = std::make_shared<ViewCount>(0);
      meta.view_of = base_meta.live_views;
    }
    meta.view_of->fetch_add(1, std::memory_order_relaxed);
  }
  syncAutogradKey(result);
  if (save_results) node.results().push_back(SavedTensor::of(detachedAlias(result)));
}

// See Note [Version counters live on the Storage] (ivalue/storage.h).
void bumpVersion(const Tensor& written) {
  if (written.defined() && written.storage()) written.storage()->bumpVersion();
}

void redispatchBelowAutograd(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  NoGradGuard below;  // the kernel's own inner calls are not recorded
  op.redispatchBoxed(ks - kAutogradKeys, stack);
}

}  // namespace

void autogradFallback(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  const FunctionSchema& schema = op.schema();
  const size_t num_args = schema.arguments().size();
  // Reading the arguments boxes them (see Note [Deferred boxing], ivalue/stack.h).
  const IValue* args = stack->data() + stack->size() - num_args;
  const CallSummary summary = summarize(schema, args);
  if (!summary.any_requires_grad) {
    // The key can be here without a tensor that requires grad (a backend's kernel may copy its
    // input's keys onto a tensor it makes, a guard may include the key): nothing to record.
    std::vector<Tensor> written;
    for (size_t i : summary.written) {
      if (args[i].isTensor()) written.push_back(args[i].toTensor());
    }
    redispatchBelowAutograd(op, ks, stack);
    for (const Tensor& t : written) bumpVersion(t);
    return;
  }
  checkWrites(op.operator_name(), schema, args, summary);

  std::shared_ptr<const FormulaEntry> formula = findFormula(op.operator_name());
  auto node = std::make_shared<Node>(op, formula, nextSequenceNr());
  const bool save_results = formula != nullptr && formula->saved.results;
  recordInputs(*node, schema, args, formula != nullptr ? &formula->saved : nullptr);
  // The arguments are consumed by the call; keep what attaching the results needs.
  std::vector<IValue> arguments(args, args + num_args);
  redispatchBelowAutograd(op, ks, stack);

  for (size_t i : summary.written) bumpVersion(arguments[i].toTensor());
  const size_t num_returns = schema.returns().size();
  IValue* results = stack->data() + stack->size() - num_returns;
  uint32_t output_nr = 0;
  for (size_t r = 0; r < num_returns; ++r) {
    IValue& value = results[r];
    if (value.isTensor()) {
      const int written = schema.aliasedArgumentOfReturn(r);
      // An in-place result is the written argument itself: give that tensor the new history.
      Tensor result = written >= 0 ? arguments[written].toTensor() : value.toTensor();
      if (!result.defined()) {  // an output the call did not compute keeps its number
        node->outputs().emplace_back();
        if (save_results) node->results().emplace_back();
        ++output_nr;
        continue;
      }
      attachResult(*node, schema, arguments.data(), r, output_nr++, result, save_results);
      if (written < 0) value = result;
    } else if (value.isTensorList()) {
      std::vector<Tensor> list = value.toTensorVector();
      for (Tensor& t : list) {
        if (t.defined()) attachResult(*node, schema, arguments.data(), r, output_nr++, t, save_results);
      }
      value = IValue(std::move(list));
    }
  }
}

}  // namespace sy::autograd

SY_LIBRARY_IMPL(_, AutogradCPU, m) { m.fallback(sy::CppFunction::makeFromBoxedFunction<&sy::autograd::autogradFallback>()); }
SY_LIBRARY_IMPL(_, AutogradAccel, m) { m.fallback(sy::CppFunction::makeFromBoxedFunction<&sy::autograd::autogradFallback>()); }
// The private-use keys belong to the backend on PrivateUse1..3: the recorder is only their default,
// which the backend's own fallback or fallthrough replaces (as PyTorch leaves them free for it).
// See Note [A backend's own fallback replaces the library's default] (dispatcher/dispatcher.h).
SY_LIBRARY_IMPL(_, AutogradPrivateUse1, m) {
  m.defaultFallback(sy::CppFunction::makeFromBoxedFunction<&sy::autograd::autogradFallback>());
}
SY_LIBRARY_IMPL(_, AutogradPrivateUse2, m) {
  m.defaultFallback(sy::CppFunction::makeFromBoxedFunction<&sy::autograd::autogradFallback>());
}
SY_LIBRARY_IMPL(_, AutogradPrivateUse3, m) {
  m.defaultFallback(sy::CppFunction::makeFromBoxedFunction<&sy::autograd::autogradFallback>());
}
