// captureDynamic (capture.h): a capture whose inputs have dimensions that change from run to run.
//
// Note [Dynamic dimensions are found by capturing twice]
// Capture records what the model does on real tensors (See Note [Capture functionalises what it
// records]), so it sees sizes, not the expressions behind them. To find which dimensions of which
// values follow a dynamic input dimension, without symbolic shapes, the model is captured twice:
// once on the example inputs, whose dynamic dimensions are at their bound, and once on a probe,
// the examples cut down along each dynamic dimension to a smaller size (2 when the range allows,
// so that no dimension becomes a broadcastable 1; else the minimum). The two graphs must be the
// same calls of the same operators in the same order; then each value's dimension is dynamic
// exactly when its size differs between the two, and its size at the examples is its bound (the
// memory plan holds it). A value that is larger at the probe has no bound the examples show, and
// is refused.
//
// The constants the model passes must not depend on the sizes, or the program would compute with
// the examples' sizes at every run. They are compared too: a lifted constant tensor must have the
// same sizes and contents in both, and a call's non-tensor arguments must be equal, with one
// exception. An int list that is the call's output sizes in both captures (view(x, {n, 4}),
// reshape, expand) is rewritten with -1 for the dynamic dimensions, which view and reshape infer
// from the element count (at most one -1) and expand keeps from the input (where the input's
// dimension is that same dynamic size); this is what lets a model flatten or split a dynamic
// dimension. Any other difference is refused naming the node and the argument: a program
// computes such values with executorch_prim::sym_size at run time, which the emitter does not
// write. The emitter marks every tensor with a dynamic dimension DYNAMIC_BOUND (emit.cpp).
//
// Two captures cannot prove that a size is an expression of the input sizes (a size that happens
// to be equal at both would be taken as static), so the probe is chosen far from the bound and
// the documentation asks for models whose sizes follow their inputs.
#include <cstring>

#include "switchyard/core/error.h"
#include "switchyard/export/capture.h"
#include "switchyard/ops/ops.h"

namespace sy::export_ {
namespace {

bool isSizesArgumentOf(const IValue& list, const std::vector<int64_t>& sizes) {
  if (!list.isIntList()) return false;
  const auto items = list.toIntList();
  return std::vector<int64_t>(items.begin(), items.end()) == sizes;
}

class TwoCaptures {
 public:
  TwoCaptures(const ExportedProgram& at_bound, const ExportedProgram& at_probe)
      : bound_(at_bound), probe_(at_probe), graph_(at_bound.graph()) {}

  ExportedProgram compare() {
    const Graph& b = bound_.graph();
    const Graph& p = probe_.graph();
    SY_CHECK(b.nodes().size() == p.nodes().size() && b.numValues() == p.numValues(),
             "captureDynamic: the model made ", b.nodes().size(), " nodes at the example sizes but ", p.nodes().size(),
             " at the probe sizes; a model whose calls depend on its input sizes cannot be exported with dynamic "
             "dimensions");
    for (ValueId v = 0; v < static_cast<ValueId>(b.numValues()); ++v) markDynamicDims(v);
    for (NodeId id = 0; id < static_cast<NodeId>(b.nodes().size()); ++id) compareNode(id);
    return ExportedProgram(std::move(graph_), bound_.state(), bound_.lowered_modules());
  }

 private:
  void markDynamicDims(ValueId v) {
    const TensorMeta& at_bound = bound_.graph().value(v).meta;
    const TensorMeta& at_probe = probe_.graph().value(v).meta;
    const std::string& name = bound_.graph().value(v).name;
    SY_CHECK(at_bound.dtype == at_probe.dtype && at_bound.sizes.size() == at_probe.sizes.size(), "captureDynamic: %",
             name, " is ", at_bound.str(), " at the example sizes but ", at_probe.str(),
             " at the probe sizes; its dtype and rank must not depend on the input sizes");
    std::vector<bool> dynamic(at_bound.sizes.size(), false);
    bool any = false;
    for (size_t d = 0; d < dynamic.size(); ++d) {
      SY_CHECK(at_probe.sizes[d] <= at_bound.sizes[d], "captureDynamic: %", name, " dimension ", d, " is ",
               at_probe.sizes[d], " at the probe sizes but only ", at_bound.sizes[d],
               " at the example sizes; a value that grows as the inputs shrink has no bound");
      dynamic[d] = at_probe.sizes[d] != at_bound.sizes[d];
      any = any || dynamic[d];
    }
    if (any) graph_.setDynamicDims(v, std::move(dynamic));
  }

  void compareNode(NodeId id) {
    const Node& b = bound_.graph().node(id);
    const Node& p = probe_.graph().node(id);
    const bool same_call = b.kind == p.kind && b.name == p.name && b.args.size() == p.args.size() &&
                           b.outputs == p.outputs && (!b.op || (p.op && b.op->operator_name() == p.op->operator_name()));
    SY_CHECK(same_call, "captureDynamic: node ", id, " is '", b.name, "' at the example sizes but '", p.name,
             "' at the probe sizes; the model must make the same calls whatever its input sizes");
    if (b.kind == NodeKind::Placeholder && b.input_kind == InputKind::Constant) compareConstant(b);
    for (size_t i = 0; i < b.args.size(); ++i) {
      const NodeArgument& a = b.args[i];
      const NodeArgument& c = p.args[i];
      SY_CHECK(a.kind == c.kind && a.value == c.value && a.values == c.values, "captureDynamic: node '", b.name,
               "' reads other values at the probe sizes (argument ", i, ")");
      if (a.kind == NodeArgument::Kind::Constant && a.constant != c.constant) rewriteSizes(id, i);
    }
  }

  void compareConstant(const Node& n) {
    const Tensor& a = bound_.state().at(n.target);
    const Tensor& c = probe_.state().at(n.target);
    const bool same = TensorMeta::of(a) == TensorMeta::of(c) &&
                      std::memcmp(a.data_ptr(), c.data_ptr(), static_cast<size_t>(a.numel()) * a.element_size()) == 0;
    SY_CHECK(same, "captureDynamic: constant '", n.target, "' (", TensorMeta::of(a).str(), ") is ",
             TensorMeta::of(c).str(), " with other contents at the probe sizes; a tensor the model makes from its "
             "input sizes cannot be a constant of a program with dynamic dimensions");
  }

  // See Note [Dynamic dimensions are found by capturing twice]: the sizes of a view or expand.
  void rewriteSizes(NodeId id, size_t arg) {
    const Node& b = bound_.graph().node(id);
    const Node& p = probe_.graph().node(id);
    const std::string& argument = b.op->schema().arguments()[arg].name;
    const std::string op = b.op->schema().name();
    auto refuse = [&](const std::string& why) {
      SY_ERROR_KIND(NotImplemented, "captureDynamic: node '", b.name, "' (", b.op->operator_name(), ") takes ", argument,
                    " = ", b.args[arg].constant, " at the example sizes and ", p.args[arg].constant,
                    " at the probe sizes: ", why,
                    "; programs compute such values at run time with executorch_prim::sym_size, which the emitter "
                    "does not write yet");
    };
    if (b.outputs.size() != 1) refuse("it depends on a dynamic size");
    const TensorMeta& out = graph_.value(b.outputs[0]).meta;
    const bool sizes_argument = isSizesArgumentOf(b.args[arg].constant, out.sizes) &&
                                isSizesArgumentOf(p.args[arg].constant, probe_.graph().value(p.outputs[0]).meta.sizes);
    const bool view_like = op == "aten::view" || op == "aten::view_copy" || op == "aten::reshape" || op == "aten::_unsafe_view";
    const bool expand_like = op == "aten::expand" || op == "aten::expand_copy";
    if (!sizes_argument || !(view_like || expand_like)) refuse("it depends on a dynamic size");
    std::vector<int64_t> sizes = out.sizes;
    size_t inferred = 0;
    for (size_t d = 0; d < sizes.size(); ++d) {
      if (!out.isDynamic(d)) continue;
      if (expand_like) {
        // -1 keeps the input's size: right for a dimension the input has, dynamic in the same way.
        const NodeArgument& self = b.args[0];
        const TensorMeta& in = graph_.value(self.value).meta;
        const size_t lead = sizes.size() - in.sizes.size();
        const bool kept = d >= lead && in.isDynamic(d - lead) && in.sizes[d - lead] == out.sizes[d] &&
                          probe_.graph().value(self.value).meta.sizes[d - lead] ==
                              probe_.graph().value(p.outputs[0]).meta.sizes[d];
        if (!kept) refuse(sy::str("dimension ", d, " is expanded to a dynamic size its input does not have"));
      }
      sizes[d] = -1;
      ++inferred;
    }
    if (view_like && inferred > 1) refuse(sy::str(inferred, " of its dimensions are dynamic, and a view infers at most one"));
    graph_.mutableNode(id).args[arg] = NodeArgument::ofConstant(IValue(sizes));
  }

  const ExportedProgram& bound_;
  const ExportedProgram& probe_;
  Graph graph_;
};

}  // namespace

ExportedProgram captureDynamic(const Model& model, const std::vector<Tensor>& example_inputs,
                               const std::vector<DynamicDim>& dynamic_dims, std::vector<NamedTensor> parameters,
                               std::vector<std::string> input_names, const char* file, uint32_t line,
                               const char* function) {
  std::vector<Tensor> probe_inputs = example_inputs;
  bool any = false;
  for (const DynamicDim& d : dynamic_dims) {
    SY_CHECK_INDEX(d.input < example_inputs.size(), "captureDynamic: dynamic dimension of input ", d.input, ", but there are ",
                   example_inputs.size(), " example inputs");
    const Tensor& example = example_inputs[d.input];
    SY_CHECK_VALUE(example.defined(), "captureDynamic: example input ", d.input, " is undefined");
    SY_CHECK_INDEX(d.dim >= 0 && d.dim < example.dim(), "captureDynamic: input ", d.input, " has ", example.dim(),
                   " dimensions; there is no dimension ", d.dim);
    const int64_t bound = example.size(d.dim);
    SY_CHECK_VALUE(d.min >= 0 && d.min <= bound, "captureDynamic: input ", d.input, " dimension ", d.dim, " takes sizes from ",
                   d.min, " to its example's ", bound, "; the example must be the largest size (the bound)");
    if (d.min == bound) continue;
    const int64_t probe = std::max<int64_t>(d.min, 2) < bound ? std::max<int64_t>(d.min, 2) : d.min;
    Tensor& t = probe_inputs[d.input];
    SY_CHECK_VALUE(t.size(d.dim) == bound, "captureDynamic: input ", d.input, " dimension ", d.dim, " is listed twice");
    t = ops::clone(ops::slice(t, d.dim, 0, probe));
    any = true;
  }
  ExportedProgram at_bound = capture(model, example_inputs, parameters, input_names, file, line, function);
  if (!any) return at_bound;
  ExportedProgram at_probe = capture(model, probe_inputs, std::move(parameters), std::move(input_names), file, line, function);
  return TwoCaptures(at_bound, at_probe).compare();
}

}  // namespace sy::export_
