// The Tracer key's boxed fallback: one function that records every operator call of a capture.
// See Note [Capture functionalises what it records]; how it is registered is below.
#include <mutex>
#include <optional>

#include "switchyard/dispatcher/library.h"
#include "switchyard/export/capture_state.h"
#include "switchyard/export/operator_variants.h"
#include "switchyard/core/error.h"

namespace sy::export_ {

// Note [The tracer fallback is registered only while a capture runs]
// A key has at most one backend fallback, and the Tracer key is also where users and tests put
// fallthroughs and tracers of their own. So the capture's fallback is not a static registration:
// the first capture in the process registers it and the last one to finish removes it (a count
// under a mutex), and a capture that finds another Tracer fallback in place refuses to start,
// naming where that one was registered. While no capture runs, nothing is registered and no call
// pays anything; while one runs, only its own thread includes the Tracer key (a thread-local
// guard), and a call from another thread that reaches the fallback passes straight through.

namespace detail {
Capture::State*& activeCapture() {
  thread_local Capture::State* active = nullptr;
  return active;
}
}  // namespace detail

namespace {

void tracerFallback(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  Capture::State* state = detail::activeCapture();
  if (state == nullptr || state->finished) {
    op.redispatchBoxed(ks.remove(DispatchKey::Tracer), stack);
    return;
  }
  state->record(op, ks, stack);
}

std::mutex registration_mutex;
int registration_users = 0;
std::optional<Library> registration;


std::string describeValue(const Graph& g, ValueId v) {
  const Node& n = g.node(g.producer(v));
  if (n.kind == NodeKind::Placeholder) return sy::str(toString(n.input_kind), " '", n.target.empty() ? n.name : n.target, "'");
  return sy::str("%", g.value(v).name, " (made by ", n.op->operator_name(), ")");
}

}  // namespace

// An operator with nothing but a CompositeImplicit kernel, which a program could not call (it has
// no out variant: conv2d, layer_norm), is recorded as the operators its kernel calls. One that
// has an out variant (linear) is recorded as itself: its kernel may build views on the TensorImpl
// that capture could not follow, and a program runs its out variant directly. So is a view
// (reshape, contiguous), whose kernel makes its result on the TensorImpl; the emitter knows how to
// write those (See Note [Views that keep element order are emitted as view_copy]).
bool Capture::State::decomposes(const OperatorHandle& op) {
  const OperatorEntry& entry = op.entry();
  if (entry.kernelsFor(DispatchKey::CompositeImplicit).empty() || !entry.kernelsFor(DispatchKey::CPU).empty() ||
      !entry.kernelsFor(DispatchKey::CompositeExplicit).empty() || isViewOperator(op.schema())) {
    return false;
  }
  auto [it, inserted] = decomposes_cache.try_emplace(&entry, false);
  if (inserted) it->second = !findOutVariant(op.schema()).has_value();
  return it->second;
}

TracerRegistration::TracerRegistration() {
  std::lock_guard<std::mutex> lock(registration_mutex);
  if (registration_users == 0) {
    if (std::optional<std::string> site = Dispatcher::singleton().backendFallbackSite(DispatchKey::Tracer)) {
      SY_ERROR("export capture records operator calls with a backend fallback on the Tracer key, but another "
               "Tracer fallback is registered (at ", *site, "); remove it before capturing");
    }
    registration.emplace(Library::IMPL, "_", DispatchKey::Tracer, __FILE__, __LINE__);
    registration->fallback(CppFunction::makeFromBoxedFunction<&tracerFallback>());
  }
  ++registration_users;
}

TracerRegistration::~TracerRegistration() {
  std::lock_guard<std::mutex> lock(registration_mutex);
  if (--registration_users == 0) registration.reset();
}

void Capture::State::record(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  const DispatchKeySet rest = ks.remove(DispatchKey::Tracer);
  const FunctionSchema& schema = op.schema();
  if (decomposes(op)) {
    op.redispatchBoxed(rest, stack);  // the Tracer key stays included: the operators it calls are recorded
    // Each result must be a value one of those calls made, as it is.
    const size_t num_returns = schema.returns().size();
    for (size_t r = 0; r < num_returns && r < stack->size(); ++r) {
      const IValue& v = (*stack)[stack->size() - num_returns + r];
      if (!v.isTensor()) continue;
      auto it = value_of.find(v.toTensor().unsafeGetTensorImpl());
      const bool made_by_a_recorded_call = it != value_of.end() && isComputed(it->second) &&
                                           graph.value(it->second).meta == TensorMeta::of(v.toTensor());
      SY_CHECK_NOT_IMPLEMENTED(made_by_a_recorded_call || (it == value_of.end() && !sharesMemoryWithComputedValue(v.toTensor())),
                               schema.operator_name(), " is recorded as the operators its CompositeImplicit kernel "
                               "calls, but its result ", r, " is not what one of those calls returned (the kernel "
                               "changed it behind the dispatcher); give the operator an out variant so that capture "
                               "records it as itself");
    }
    return;
  }
  const std::string name = schema.operator_name().toString();
  const size_t num_arguments = schema.arguments().size();
  SY_CHECK(stack->size() >= num_arguments, name, ": the stack holds ", stack->size(), " values, fewer than its ",
           num_arguments, " arguments");
  IValue* args = stack->data() + (stack->size() - num_arguments);

  // Does the call read anything the graph computes? If not, it is not recorded.
  bool reads_graph = false;
  auto visitTensors = [&](auto&& fn) {
    for (size_t i = 0; i < num_arguments; ++i) {
      const IValue& a = args[i];
      if (a.isTensor()) {
        fn(i, a.toTensor());
      } else if (a.isTensorList()) {
        for (const Tensor& t : a.toTensorVector()) fn(i, t);
      } else if (a.isList()) {
        for (const IValue& e : a.toList()) {
          if (e.isTensor()) fn(i, e.toTensor());
        }
      }
    }
  };
  visitTensors([&](size_t, const Tensor& t) {
    if (!t.defined()) return;
    auto it = value_of.find(t.unsafeGetTensorImpl());
    if (it != value_of.end() ? isComputed(it->second) : sharesMemoryWithComputedValue(t)) reads_graph = true;
  });
  if (!reads_graph) {
    ExcludeDispatchKeyGuard off(DispatchKey::Tracer);
    op.redispatchBoxed(rest, stack);
    return;
  }

  for (const Argument& r : schema.returns()) {
    SY_CHECK_NOT_IMPLEMENTED(r.type->kind() == TypeKind::Tensor, name, " returns ", r.type->str(),
                             ", which a captured graph cannot hold (capture records operators whose results are "
                             "tensors); compute it outside the captured model");
  }

  // In-place and out= calls are recorded as their functional forms.
  OperatorHandle recorded = op;
  std::vector<Tensor> written;  // the tensors the call writes, which stand for its results after it
  if (isMutatingOperator(schema)) {
    std::optional<OperatorHandle> functional = findFunctionalVariant(schema);
    SY_CHECK_NOT_IMPLEMENTED(functional.has_value(), name,
                             " writes its arguments and has no functional form for capture to record; call a "
                             "functional operator instead");
    SY_CHECK_NOT_IMPLEMENTED(functional->schema().returns().size() == schema.returns().size(), name,
                             " and its functional form ", functional->operator_name(), " return different numbers of values");
    for (size_t r = 0; r < schema.returns().size(); ++r) {
      const int position = schema.aliasedArgumentOfReturn(r);
      SY_CHECK_NOT_IMPLEMENTED(position >= 0 && args[position].isTensor(), name, " returns result ", r,
                               " without writing it into an argument; capture cannot record it");
      const Argument& arg = schema.arguments()[static_cast<size_t>(position)];
      const Tensor& t = args[position].toTensor();
      auto it = value_of.find(t.unsafeGetTensorImpl());
      if (it != value_of.end()) {
        std::optional<InputKind> kind = placeholderKind(it->second);
        SY_CHECK_VALUE(!kind || *kind == InputKind::Constant, name, " writes its argument '", arg.name, "', which is ",
                       describeValue(graph, it->second), "; a captured program cannot change its inputs or parameters. "
                       "Use the functional form (", functional->operator_name(), ") and return its result instead");
      }
      for (const Tensor& other : held) {
        if (other.is_same(t) || other.use_count() <= 1 || !other.storage().get() ||
            other.storage().get() != t.storage().get()) {
          continue;
        }
        SY_ERROR_KIND(NotImplemented, name, " writes its argument '", arg.name, "', which shares memory with ",
                      describeValue(graph, value_of.at(other.unsafeGetTensorImpl())),
                      ", a tensor the model still holds; capture cannot record writes through views. Use the "
                      "functional form (", functional->operator_name(), ") instead");
      }
      written.push_back(t);
    }
    recorded = *functional;
  }

  // The node's arguments: the recorded operator's, in schema order (lifting constants).
  const FunctionSchema& recorded_schema = recorded.schema();
  std::vector<NodeArgument> node_args;
  for (size_t i = 0; i < recorded_schema.arguments().size(); ++i) {
    const IValue& a = args[i];
    const std::string what = sy::str("argument '", recorded_schema.arguments()[i].name, "' of ", name);
    if (a.isTensor()) {
      node_args.push_back(NodeArgument::ofValue(valueFor(a.toTensor(), what)));
    } else if (a.isTensorList()) {
      std::vector<ValueId> vs;
      for (const Tensor& t : a.toTensorVector()) vs.push_back(valueFor(t, what));
      node_args.push_back(NodeArgument::ofValues(std::move(vs)));
    } else if (a.isList() && recorded_schema.arguments()[i].type->isTensorLike()) {
      std::vector<ValueId> vs;
      for (const IValue& e : a.toList()) vs.push_back(e.isTensor() ? valueFor(e.toTensor(), what) : NodeArgument::kNone);
      node_args.push_back(NodeArgument::ofValues(std::move(vs), /*optional_elements=*/true));
    } else {
      node_args.push_back(NodeArgument::ofConstant(a));
    }
  }

  NodeMeta meta;
  meta.stack = detail::currentSourceStack();
  {
    ExcludeDispatchKeyGuard off(DispatchKey::Tracer);
    op.redispatchBoxed(rest, stack);
  }
  const size_t num_returns = schema.returns().size();
  SY_CHECK(stack->size() >= num_returns, name, " left ", stack->size(), " values where its schema returns ", num_returns);
  std::vector<Tensor> results = written;
  if (results.empty()) {
    for (size_t r = 0; r < num_returns; ++r) {
      IValue& v = (*stack)[stack->size() - num_returns + r];
      SY_CHECK_TYPE(v.isTensor(), name, " returned a ", v.typeName(), " for its result ", r, ", where its schema says Tensor");
      results.push_back(std::as_const(v).toTensor());
    }
  }
  std::vector<TensorMeta> metas;
  for (const Tensor& t : results) metas.push_back(TensorMeta::of(t));
  const NodeId id = graph.addCall(recorded, std::move(node_args), std::move(metas), std::move(meta));
  for (size_t r = 0; r < results.size(); ++r) bind(results[r], graph.node(id).outputs[r]);
}

}  // namespace sy::export_
