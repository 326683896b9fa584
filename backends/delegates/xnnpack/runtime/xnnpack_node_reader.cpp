// Decoding one XNode of the blob (See Note [An XNNPACK blob is checked before XNNPACK sees it] in
// xnnpack_graph_reader.cpp).
#include "absl/strings/str_cat.h"
#include "switchyard/core/error.h"
#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_reader_internal.h"

namespace sy::xnnpack::reader {
namespace {

// The schema's union numbering is NodeKind's.
static_assert(static_cast<int>(fb::XNodeUnion::XNNAdd) == static_cast<int>(NodeKind::Add));
static_assert(static_cast<int>(fb::XNodeUnion::XNNConv2d) == static_cast<int>(NodeKind::Conv2d));
static_assert(static_cast<int>(fb::XNodeUnion::XNNCos) == static_cast<int>(NodeKind::Cos));
static_assert(static_cast<int>(fb::XNodeUnion::MAX) == kMaxNodeKind);

// Window sizes, strides, dilations and paddings above this are refused: far beyond any image,
// and small enough that every size computed from them fits in 64 bits.
constexpr uint32_t kMaxWindowParameter = uint32_t{1} << 24;

class NodeDecoder {
 public:
  NodeDecoder(size_t index, NodeKind kind, const IdResolver& ids, XnnNode& out)
      : index_(index), kind_(kind), ids_(ids), out_(out) {}

  absl::Status fail(const std::string& what) const { return malformed(sy::str(nodeName(index_, kind_), ": ", what)); }

  absl::Status input(uint32_t id, bool optional = false) {
    if (optional && id == kNoValue) {
      out_.inputs.push_back(kNoValue);
      return absl::OkStatus();
    }
    const uint32_t v = ids_.find(id);
    if (v == kNoValue) return fail(sy::str("reads value id ", id, ", which no value has"));
    out_.inputs.push_back(v);
    return absl::OkStatus();
  }
  absl::Status output(uint32_t id) {
    const uint32_t v = ids_.find(id);
    if (v == kNoValue) return fail(sy::str("writes value id ", id, ", which no value has"));
    out_.outputs.push_back(v);
    return absl::OkStatus();
  }
  absl::Status flags(uint32_t flags, uint32_t allowed) {
    if ((flags & ~allowed) != 0) return fail(sy::str("flags ", absl::StrCat("0x", absl::Hex(flags)), " are not ones this node takes"));
    out_.flags = flags;
    return absl::OkStatus();
  }
  absl::Status list(const flatbuffers::Vector<uint32_t>* v, const char* what, Dims& into) {
    if (v == nullptr) return fail(sy::str("has no ", what));
    if (v->size() > kMaxDims) return fail(sy::str("has ", v->size(), " ", what, "; XNNPACK takes at most ", kMaxDims));
    for (uint32_t x : *v) into.push_back(x);
    return absl::OkStatus();
  }
  absl::Status windowParameters(std::initializer_list<uint32_t> values, std::initializer_list<uint32_t> at_least_one) {
    for (uint32_t x : values) {
      if (x > kMaxWindowParameter) return fail(sy::str("a window parameter of ", x, " is out of range"));
    }
    for (uint32_t x : at_least_one) {
      if (x == 0) return fail("a kernel, stride or dilation of 0");
    }
    return absl::OkStatus();
  }

  template <class T>
  absl::Status unary(const T* n, uint32_t allowed_flags = 0) {
    if (auto s = input(n->input_id()); !s.ok()) return s;
    if (auto s = output(n->output_id()); !s.ok()) return s;
    return flags(n->flags(), allowed_flags);
  }
  absl::Status binary(const fb::_XNNNode2x1* n, uint32_t allowed_flags = 0) {
    if (auto s = input(n->input1_id()); !s.ok()) return s;
    if (auto s = input(n->input2_id()); !s.ok()) return s;
    if (auto s = output(n->output_id()); !s.ok()) return s;
    return flags(n->flags(), allowed_flags);
  }
  absl::Status conv(const fb::_XNNNodeConv* n) {
    XnnNode::Window& w = out_.window;
    w = {n->padding_top(), n->padding_right(), n->padding_bottom(), n->padding_left(), n->kernel_height(),
         n->kernel_width(), n->subsampling_height(), n->subsampling_width(), n->dilation_height(), n->dilation_width(),
         n->groups(), n->group_input_channels(), n->group_output_channels(), n->adjustment_height(),
         n->adjustment_width()};
    if (auto s = windowParameters({w.pad_top, w.pad_right, w.pad_bottom, w.pad_left, w.kernel_h, w.kernel_w, w.stride_h,
                                   w.stride_w, w.dilation_h, w.dilation_w, w.groups, w.group_input_channels,
                                   w.group_output_channels, w.adjustment_h, w.adjustment_w},
                                  {w.kernel_h, w.kernel_w, w.stride_h, w.stride_w, w.dilation_h, w.dilation_w, w.groups,
                                   w.group_input_channels, w.group_output_channels});
        !s.ok()) {
      return s;
    }
    if (auto s = input(n->input1_id()); !s.ok()) return s;
    if (auto s = input(n->filter_id()); !s.ok()) return s;
    if (auto s = input(n->bias_id(), /*optional=*/true); !s.ok()) return s;
    if (auto s = output(n->output_id()); !s.ok()) return s;
    return flags(n->flags(), 0);
  }
  absl::Status pool(const fb::_XNNPooling2D* n, bool dilated) {
    XnnNode::Window& w = out_.window;
    w.pad_top = n->padding_top(), w.pad_right = n->padding_right(), w.pad_bottom = n->padding_bottom();
    w.pad_left = n->padding_left(), w.kernel_h = n->pooling_height(), w.kernel_w = n->pooling_width();
    w.stride_h = n->stride_height(), w.stride_w = n->stride_width();
    w.dilation_h = dilated ? n->dilation_height() : 1, w.dilation_w = dilated ? n->dilation_width() : 1;
    if (auto s = windowParameters({w.pad_top, w.pad_right, w.pad_bottom, w.pad_left, w.kernel_h, w.kernel_w, w.stride_h,
                                   w.stride_w, w.dilation_h, w.dilation_w},
                                  {w.kernel_h, w.kernel_w, w.stride_h, w.stride_w, w.dilation_h, w.dilation_w});
        !s.ok()) {
      return s;
    }
    return unary(n);
  }
  absl::Status cat(const fb::_XNNCat* n, size_t count) {
    out_.axis = n->axis();
    const uint32_t ids[5] = {n->input1_id(), n->input2_id(), n->input3_id(), n->input4_id(), n->input5_id()};
    for (size_t i = 0; i < count; ++i) {
      if (auto s = input(ids[i]); !s.ok()) return s;
    }
    if (auto s = output(n->output_id()); !s.ok()) return s;
    return flags(n->flags(), 0);
  }

 private:
  size_t index_;
  NodeKind kind_;
  const IdResolver& ids_;
  XnnNode& out_;
};

}  // namespace

std::string nodeName(size_t index, NodeKind kind) { return sy::str("node ", index, " (", nodeKindName(kind), ")"); }

absl::Status decodeNode(const fb::XNode& node, size_t index, const IdResolver& ids, XnnNode& out) {
  const auto type = static_cast<uint8_t>(node.xnode_union_type());
  if (type < kMinNodeKind || type > kMaxNodeKind || node.xnode_union() == nullptr) {
    return malformed(sy::str("node ", index, " has node type ", static_cast<int>(type),
                             ", which is none of the ", static_cast<int>(kMaxNodeKind), " kinds the format defines"));
  }
  out.kind = static_cast<NodeKind>(type);
  out.debug_handle = node.debug_handle();
  if (const fb::OutputMinMax* mm = node.output_min_max()) {
    out.output_min = mm->output_min();
    out.output_max = mm->output_max();
    if (!(out.output_min <= out.output_max)) {
      return malformed(sy::str(nodeName(index, out.kind), ": output_min ", out.output_min, " is not at most output_max ",
                               out.output_max));
    }
  }
  NodeDecoder d(index, out.kind, ids, out);
  const fb::XNode* n = &node;
  switch (out.kind) {
    case NodeKind::Add: return d.binary(n->xnode_union_as_XNNAdd());
    case NodeKind::Subtract: return d.binary(n->xnode_union_as_XNNSubtract());
    case NodeKind::Multiply: return d.binary(n->xnode_union_as_XNNMultiply());
    case NodeKind::Div: return d.binary(n->xnode_union_as_XNNDiv());
    case NodeKind::Minimum: return d.binary(n->xnode_union_as_XNNMinimum());
    case NodeKind::Maximum: return d.binary(n->xnode_union_as_XNNMaximum());
    case NodeKind::PReLU: return d.binary(n->xnode_union_as_XNNPReLU());
    case NodeKind::BatchMatrixMultiply: return d.binary(n->xnode_union_as_XNNBatchMatrixMultiply(), kFlagTransposeWeights);
    case NodeKind::FullyConnected: {
      const fb::XNNFullyConnected* fc = n->xnode_union_as_XNNFullyConnected();
      if (auto s = d.input(fc->input1_id()); !s.ok()) return s;
      if (auto s = d.input(fc->filter_id()); !s.ok()) return s;
      if (auto s = d.input(fc->bias_id(), /*optional=*/true); !s.ok()) return s;
      if (auto s = d.output(fc->output_id()); !s.ok()) return s;
      return d.flags(fc->flags(), kFlagTransposeWeights);
    }
    case NodeKind::Conv2d: return d.conv(n->xnode_union_as_XNNConv2d());
    case NodeKind::DepthwiseConv2d: return d.conv(n->xnode_union_as_XNNDepthwiseConv2d());
    case NodeKind::ConvTranspose2d: return d.conv(n->xnode_union_as_XNNConvTranspose2d());
    case NodeKind::AvgPooling2d: return d.pool(n->xnode_union_as_XNNAvgPooling2d(), false);
    case NodeKind::MaxPooling2d: return d.pool(n->xnode_union_as_XNNMaxPooling2d(), true);
    case NodeKind::ArgMaxPooling2d: {
      const fb::XNNArgMaxPooling2d* a = n->xnode_union_as_XNNArgMaxPooling2d();
      XnnNode::Window& w = out.window;
      w.pad_top = a->padding_top(), w.pad_right = a->padding_right(), w.pad_bottom = a->padding_bottom();
      w.pad_left = a->padding_left(), w.kernel_h = a->pooling_height(), w.kernel_w = a->pooling_width();
      w.stride_h = w.kernel_h, w.stride_w = w.kernel_w;
      if (auto s = d.windowParameters({w.pad_top, w.pad_right, w.pad_bottom, w.pad_left, w.kernel_h, w.kernel_w},
                                      {w.kernel_h, w.kernel_w});
          !s.ok()) {
        return s;
      }
      if (auto s = d.input(a->input_id()); !s.ok()) return s;
      if (auto s = d.output(a->output_value_id()); !s.ok()) return s;
      if (auto s = d.output(a->output_index_id()); !s.ok()) return s;
      return d.flags(a->flags(), 0);
    }
    case NodeKind::StaticTranspose: {
      const fb::XNNStaticTranspose* t = n->xnode_union_as_XNNStaticTranspose();
      if (auto s = d.list(t->perm(), "perm", out.list_a); !s.ok()) return s;
      return d.unary(t);
    }
    case NodeKind::StaticReshape: {
      const fb::XNNStaticReshape* r = n->xnode_union_as_XNNStaticReshape();
      if (auto s = d.list(r->new_shape(), "new_shape", out.list_a); !s.ok()) return s;
      return d.unary(r);
    }
    case NodeKind::StaticSlice: {
      const fb::XNNStaticSlice* sl = n->xnode_union_as_XNNStaticSlice();
      if (auto s = d.list(sl->offsets(), "offsets", out.list_a); !s.ok()) return s;
      if (auto s = d.list(sl->sizes(), "sizes", out.list_b); !s.ok()) return s;
      return d.unary(sl);
    }
    case NodeKind::StaticConstantPad: {
      const fb::XNNStaticConstantPad* p = n->xnode_union_as_XNNStaticConstantPad();
      if (auto s = d.list(p->pre_paddings(), "pre_paddings", out.list_a); !s.ok()) return s;
      if (auto s = d.list(p->post_paddings(), "post_paddings", out.list_b); !s.ok()) return s;
      for (const Dims* l : {&out.list_a, &out.list_b}) {
        for (size_t x : *l) {
          if (x > kMaxWindowParameter) return d.fail(sy::str("a padding of ", x, " is out of range"));
        }
      }
      out.scalar = p->padding_value();
      return d.unary(p);
    }
    case NodeKind::StaticResizeBilinear2D: {
      const fb::XNNStaticResizeBilinear2D* r = n->xnode_union_as_XNNStaticResizeBilinear2D();
      out.new_height = r->new_height(), out.new_width = r->new_width();
      if (out.new_height == 0 || out.new_width == 0 || out.new_height > kMaxWindowParameter ||
          out.new_width > kMaxWindowParameter) {
        return d.fail(sy::str("resizes to ", out.new_height, "x", out.new_width));
      }
      if ((r->flags() & kFlagAlignCorners) && (r->flags() & kFlagTensorflowLegacy)) {
        return d.fail("asks for both align_corners and the TensorFlow legacy mode");
      }
      return d.unary(r, kFlagAlignCorners | kFlagTensorflowLegacy);
    }
    case NodeKind::ELU: {
      const fb::XNNELU* e = n->xnode_union_as_XNNELU();
      out.scalar = e->alpha();
      return d.unary(e);
    }
    case NodeKind::LeakyReLU: {
      const fb::XNNLeakyReLU* l = n->xnode_union_as_XNNLeakyReLU();
      out.scalar = l->negative_slope();
      return d.unary(l);
    }
    case NodeKind::Concatenate2: return d.cat(n->xnode_union_as_XNNConcatenate2(), 2);
    case NodeKind::Concatenate3: return d.cat(n->xnode_union_as_XNNConcatenate3(), 3);
    case NodeKind::Concatenate4: return d.cat(n->xnode_union_as_XNNConcatenate4(), 4);
    case NodeKind::Concatenate5: return d.cat(n->xnode_union_as_XNNConcatenate5(), 5);
    case NodeKind::ScaledDotProductAttention: {
      const fb::XNNScaledDotProductAttention* a = n->xnode_union_as_XNNScaledDotProductAttention();
      for (uint32_t id : {a->query_id(), a->key_id(), a->value_id(), a->scale_id(), a->mask_id()}) {
        if (auto s = d.input(id); !s.ok()) return s;
      }
      if (auto s = d.output(a->output_id()); !s.ok()) return s;
      return d.flags(a->flags(), 0);
    }
    case NodeKind::Softmax: return d.unary(n->xnode_union_as_XNNSoftmax());
    case NodeKind::Sigmoid: return d.unary(n->xnode_union_as_XNNSigmoid());
    case NodeKind::Clamp: return d.unary(n->xnode_union_as_XNNClamp());
    case NodeKind::Floor: return d.unary(n->xnode_union_as_XNNFloor());
    case NodeKind::Convert: return d.unary(n->xnode_union_as_XNNConvert());
    case NodeKind::GlobalAvgPooling2d: return d.unary(n->xnode_union_as_XNNGlobalAvgPooling2d());
    case NodeKind::SquareRoot: return d.unary(n->xnode_union_as_XNNSquareRoot());
    case NodeKind::Ceiling: return d.unary(n->xnode_union_as_XNNCeiling());
    case NodeKind::Hardswish: return d.unary(n->xnode_union_as_XNNHardswish());
    case NodeKind::Negate: return d.unary(n->xnode_union_as_XNNNegate());
    case NodeKind::Square: return d.unary(n->xnode_union_as_XNNSquare());
    case NodeKind::Abs: return d.unary(n->xnode_union_as_XNNAbs());
    case NodeKind::ReciprocalSquareRoot: return d.unary(n->xnode_union_as_XNNReciprocalSquareRoot());
    case NodeKind::Log: return d.unary(n->xnode_union_as_XNNLog());
    case NodeKind::Gelu: return d.unary(n->xnode_union_as_XNNGelu());
    case NodeKind::Tanh: return d.unary(n->xnode_union_as_XNNTanh());
    case NodeKind::Exp: return d.unary(n->xnode_union_as_XNNExp());
    case NodeKind::Sin: return d.unary(n->xnode_union_as_XNNSin());
    case NodeKind::Copy: return d.unary(n->xnode_union_as_XNNCopy());
    case NodeKind::Cos: return d.unary(n->xnode_union_as_XNNCos());
  }
  return d.fail("unknown node kind");
}

}  // namespace sy::xnnpack::reader
