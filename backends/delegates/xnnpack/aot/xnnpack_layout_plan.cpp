#include "switchyard/backends/delegates/xnnpack/aot/xnnpack_layout_plan.h"

#include <algorithm>
#include <numeric>
#include <optional>
#include <utility>
#include <set>

#include "absl/strings/str_cat.h"

namespace sy::xnnpack {
namespace {

bool isElementwise(XnnOp op) {
  return op == XnnOp::Add || op == XnnOp::Sub || op == XnnOp::Mul || op == XnnOp::Div || op == XnnOp::Clamp ||
         op == XnnOp::Sigmoid;
}

// The layouts an operator reads its input and makes its result in, for those that have one fixed
// pair: convolution and pooling are NHWC, fully connected, softmax and reshape read the logical
// order, and the relabelling permutes change one into the other.
std::optional<std::pair<Layout, Layout>> fixedLayouts(XnnOp op) {
  switch (op) {
    case XnnOp::Convolution:
    case XnnOp::MaxPool2d:
    case XnnOp::AvgPool2d:
    case XnnOp::GlobalAvgPool: return std::pair{Layout::ChannelsLast, Layout::ChannelsLast};
    case XnnOp::Linear:
    case XnnOp::Addmm:
    case XnnOp::Softmax:
    case XnnOp::Reshape: return std::pair{Layout::Logical, Layout::Logical};
    case XnnOp::ChannelsLastToNhwc: return std::pair{Layout::ChannelsLast, Layout::Logical};
    case XnnOp::NhwcToChannelsLast: return std::pair{Layout::Logical, Layout::ChannelsLast};
    default: return std::nullopt;
  }
}

}  // namespace

LayoutPlan::LayoutPlan(const export_::ExportedProgram& program, const std::vector<PlannedNode>& group)
    : program_(program), parent_(program.graph().numValues()), made_inside_(parent_.size(), false) {
  const export_::Graph& g = program.graph();
  const auto rank = [&](export_::ValueId v) { return g.value(v).meta.sizes.size(); };
  std::iota(parent_.begin(), parent_.end(), export_::ValueId{0});
  for (const PlannedNode& n : group) {
    for (export_::ValueId out : g.node(n.id).outputs) made_inside_[out] = true;
  }
  // Element-wise nodes read and write their 4-D operands in one layout: one class.
  for (const PlannedNode& n : group) {
    const export_::ValueId out = g.node(n.id).outputs[0];
    if (!isElementwise(n.plan.op) || rank(out) != 4) continue;
    for (export_::ValueId v : n.plan.operands) {
      if (rank(v) == 4 && made_inside_[v]) parent_[find(v)] = find(out);
    }
  }
  for (const PlannedNode& n : group) {
    const export_::ValueId in = n.plan.operands.empty() ? export_::NodeArgument::kNone : n.plan.operands[0];
    const export_::ValueId out = g.node(n.id).outputs[0];
    if (const std::optional<std::pair<Layout, Layout>> fixed = fixedLayouts(n.plan.op)) {
      need(n, in, fixed->first, false);
      need(n, out, fixed->second, true);
      continue;
    }
    // An operand of lower rank broadcasts from the right, which is NCHW order unless its padded
    // 4-D shape reads the same either way (element-wise unary nodes have no such operand).
    if (rank(out) != 4) continue;
    for (export_::ValueId v : n.plan.operands) {
      if (rank(v) < 4 && !sameMemoryInBothLayouts(paddedTo4(g.value(v).meta.sizes))) {
        logical_needs_.push_back({n.id, out, absl::StrCat("broadcasts %", g.value(v).name, " ", g.value(v).meta.str(),
                                                          " from the right against %", g.value(out).name,
                                                          " in NCHW order")});
      }
    }
  }
  channels_last_root_.assign(parent_.size(), false);
  for (const Need& n : channels_last_needs_) channels_last_root_[find(n.value)] = true;
  std::set<export_::NodeId> taken;
  for (const Need& n : logical_needs_) {
    const export_::ValueId root = find(n.value);
    if (!channels_last_root_[root] || !taken.insert(n.node).second) continue;
    const Need* cause = nullptr;
    for (const Need& c : channels_last_needs_) {
      if (find(c.value) == root) {
        cause = &c;
        break;
      }
    }
    const export_::Node& node = g.node(n.node);
    const export_::Node& by = g.node(cause->node);
    conflicts_.push_back({n.node, absl::StrCat(node.op->operator_name().toString(), ": ", n.how, " but %",
                                               g.value(n.value).name, " is channels-last next to ",
                                               by.op->operator_name().toString(), " %", by.name,
                                               "; XNNPACK 2022-02 has no transpose")});
  }
  std::sort(conflicts_.begin(), conflicts_.end(), [](const Conflict& a, const Conflict& b) { return a.node < b.node; });
}

export_::ValueId LayoutPlan::find(export_::ValueId v) const {
  while (parent_[v] != v) v = parent_[v] = parent_[parent_[v]];
  return v;
}

// Values of another rank, values the group does not make, and (for NCHW needs) values whose
// bytes are the same in both layouts need nothing.
void LayoutPlan::need(const PlannedNode& n, export_::ValueId v, Layout layout, bool makes) {
  if (v == export_::NodeArgument::kNone) return;
  const export_::Value& value = program_.graph().value(v);
  if (value.meta.sizes.size() != 4 || !made_inside_[v]) return;
  if (layout == Layout::ChannelsLast) {
    channels_last_needs_.push_back({n.id, v, {}});
  } else if (!sameMemoryInBothLayouts(value.meta.sizes)) {
    logical_needs_.push_back({n.id, v, absl::StrCat(makes ? "makes %" : "reads %", value.name, " ", value.meta.str(),
                                                    " in NCHW order")});
  }
}

Layout LayoutPlan::layoutOf(export_::ValueId v) const {
  const bool four_d = program_.graph().value(v).meta.sizes.size() == 4;
  return four_d && made_inside_[v] && channels_last_root_[find(v)] ? Layout::ChannelsLast : Layout::Logical;
}

}  // namespace sy::xnnpack
