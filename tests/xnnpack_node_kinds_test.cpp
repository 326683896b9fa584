// Every node kind of ExecuTorch's XNNPACK format, alone, in a hand-made blob written by the
// delegate's writer and read back by its reader: where Debian's XNNPACK runs the kind, its result
// matches the host path (the run-time option placement=host); where it does not, the host path
// runs it, and its result matches the same computation through Switchyard's portable kernels.
#include <cmath>
#include <functional>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "switchyard/backends/xnnpack/runtime/xnnpack_support.h"
#include "allocation_counter.h"
#include "xnnpack_blob_support.h"

namespace sy::testing {
namespace {

using xnn::Datatype;
using xnn::NodeKind;

struct KindCase {
  std::string name;
  std::function<void(GraphMaker&)> build;
  // The expected outputs from the inputs, through the portable kernels (empty: XNNPACK is the
  // reference for the host path).
  std::function<std::vector<Tensor>(const std::vector<Tensor>&)> expected;
};

std::vector<float> kindRandomValues(size_t n, uint32_t seed) { return randomUniformValues<float>(static_cast<int64_t>(n), seed); }

KindCase kindUnary(std::string name, NodeKind kind, std::function<Tensor(const Tensor&)> reference = nullptr) {
  return {name, [kind](GraphMaker& g) { g.node(kind, {g.input({2, 3, 4})}, {g.output({2, 3, 4})}); },
          reference ? std::function<std::vector<Tensor>(const std::vector<Tensor>&)>(
                          [reference](const std::vector<Tensor>& in) { return std::vector<Tensor>{reference(in[0])}; })
                    : nullptr};
}

KindCase kindBinary(std::string name, NodeKind kind) {
  return {name, [kind](GraphMaker& g) { g.node(kind, {g.input({2, 3, 4}), g.input({3, 1})}, {g.output({2, 3, 4})}); }, nullptr};
}

// A convolution-like node: input [1, 5, 6, channels], filter and bias constants.
KindCase kindConvolution(std::string name, NodeKind kind, xnn::XnnNode::Window w, xnn::Dims in, xnn::Dims filter,
                     xnn::Dims out, size_t out_channels) {
  return {name,
          [=](GraphMaker& g) {
            const uint32_t x = g.input(in);
            const uint32_t f = g.constant(filter, kindRandomValues(xnn::numelOf(filter), 11));
            const uint32_t b = g.constant({out_channels}, kindRandomValues(out_channels, 12));
            g.node(kind, {x, f, b}, {g.output(out)}).window = w;
          },
          nullptr};
}

xnn::XnnNode::Window kindWindow(uint32_t kh, uint32_t kw, uint32_t stride, uint32_t pad, uint32_t dilation = 1) {
  xnn::XnnNode::Window w;
  w.kernel_h = kh, w.kernel_w = kw, w.stride_h = w.stride_w = stride, w.dilation_h = w.dilation_w = dilation;
  w.pad_top = w.pad_bottom = w.pad_left = w.pad_right = pad;
  return w;
}

std::vector<KindCase> kindCases() {
  std::vector<KindCase> cases = {
      kindBinary("Add", NodeKind::Add),
      kindBinary("Subtract", NodeKind::Subtract),
      kindBinary("Multiply", NodeKind::Multiply),
      kindBinary("Div", NodeKind::Div),
      kindBinary("Minimum", NodeKind::Minimum),
      kindBinary("Maximum", NodeKind::Maximum),
      kindUnary("Sigmoid", NodeKind::Sigmoid),
      kindUnary("Floor", NodeKind::Floor),
      kindUnary("Ceiling", NodeKind::Ceiling),
      kindUnary("SquareRoot", NodeKind::SquareRoot),
      kindUnary("Square", NodeKind::Square),
      kindUnary("Abs", NodeKind::Abs),
      kindUnary("Negate", NodeKind::Negate),
      kindUnary("Hardswish", NodeKind::Hardswish),
      kindUnary("Softmax", NodeKind::Softmax),
      kindUnary("Tanh", NodeKind::Tanh, [](const Tensor& x) { return ops::tanh(x); }),
      kindUnary("Exp", NodeKind::Exp, [](const Tensor& x) { return ops::exp(x); }),
      kindUnary("Log", NodeKind::Log, [](const Tensor& x) { return ops::log(x); }),
      kindUnary("Sin", NodeKind::Sin, [](const Tensor& x) { return ops::sin(x); }),
      kindUnary("Cos", NodeKind::Cos, [](const Tensor& x) { return ops::cos(x); }),
      kindUnary("Gelu", NodeKind::Gelu, [](const Tensor& x) { return ops::gelu(x); }),
      kindUnary("ReciprocalSquareRoot", NodeKind::ReciprocalSquareRoot, [](const Tensor& x) { return ops::rsqrt(x); }),
      kindUnary("Copy", NodeKind::Copy, [](const Tensor& x) { return ops::clone(x); }),
      {"Clamp", [](GraphMaker& g) {
         xnn::XnnNode& n = g.node(NodeKind::Clamp, {g.input({2, 3, 4})}, {g.output({2, 3, 4})});
         n.output_min = -0.25f, n.output_max = 0.5f;
       }, nullptr},
      {"ELU", [](GraphMaker& g) { g.node(NodeKind::ELU, {g.input({2, 3, 4})}, {g.output({2, 3, 4})}).scalar = 0.7f; }, nullptr},
      {"LeakyReLU", [](GraphMaker& g) { g.node(NodeKind::LeakyReLU, {g.input({2, 3, 4})}, {g.output({2, 3, 4})}).scalar = 0.1f; }, nullptr},
      {"PReLU", [](GraphMaker& g) {
         g.node(NodeKind::PReLU, {g.input({1, 2, 3, 4}), g.constant({4}, {0.1f, -0.5f, 2.0f, 0.0f})}, {g.output({1, 2, 3, 4})});
       }, nullptr},
      {"FullyConnected", [](GraphMaker& g) {
         const uint32_t x = g.input({3, 5}), w = g.constant({4, 5}, kindRandomValues(20, 3)), b = g.constant({4}, kindRandomValues(4, 4));
         g.node(NodeKind::FullyConnected, {x, w, b}, {g.output({3, 4})});
       }, nullptr},
      {"FullyConnectedWithoutBiasOver3d", [](GraphMaker& g) {
         const uint32_t x = g.input({2, 3, 5}), w = g.constant({4, 5}, kindRandomValues(20, 3));
         g.node(NodeKind::FullyConnected, {x, w, xnn::kNoValue}, {g.output({2, 3, 4})});
       }, nullptr},
      kindConvolution("Conv2d", NodeKind::Conv2d, [] { auto w = kindWindow(3, 3, 1, 1); w.groups = 1, w.group_input_channels = 3, w.group_output_channels = 4; return w; }(),
                  {1, 5, 6, 3}, {4, 3, 3, 3}, {1, 5, 6, 4}, 4),
      kindConvolution("GroupedStridedConv2d", NodeKind::Conv2d, [] { auto w = kindWindow(2, 2, 2, 0); w.groups = 2, w.group_input_channels = 2, w.group_output_channels = 3; return w; }(),
                  {1, 5, 6, 4}, {6, 2, 2, 2}, {1, 2, 3, 6}, 6),
      kindConvolution("DepthwiseConv2d", NodeKind::DepthwiseConv2d, [] { auto w = kindWindow(3, 3, 1, 1); w.groups = 3, w.group_input_channels = 1, w.group_output_channels = 2; return w; }(),
                  {1, 5, 6, 3}, {1, 3, 3, 6}, {1, 5, 6, 6}, 6),
      kindConvolution("ConvTranspose2d", NodeKind::ConvTranspose2d, [] { auto w = kindWindow(2, 2, 2, 0); w.groups = 1, w.group_input_channels = 3, w.group_output_channels = 2; return w; }(),
                  {1, 3, 4, 3}, {2, 2, 2, 3}, {1, 6, 8, 2}, 2),
      {"AvgPooling2d", [](GraphMaker& g) {
         g.node(NodeKind::AvgPooling2d, {g.input({1, 5, 6, 3})}, {g.output({1, 3, 4, 3})}).window = kindWindow(2, 2, 2, 1);
       }, nullptr},
      {"MaxPooling2d", [](GraphMaker& g) {
         g.node(NodeKind::MaxPooling2d, {g.input({1, 5, 6, 3})}, {g.output({1, 2, 2, 3})}).window = kindWindow(3, 3, 2, 0);
       }, nullptr},
      {"GlobalAvgPooling2d", [](GraphMaker& g) { g.node(NodeKind::GlobalAvgPooling2d, {g.input({2, 3, 4, 5})}, {g.output({2, 1, 1, 5})}); }, nullptr},
      {"StaticReshape", [](GraphMaker& g) {
         g.node(NodeKind::StaticReshape, {g.input({2, 3, 4})}, {g.output({6, 4})}).list_a = {0, 4};
       }, nullptr},
      {"StaticConstantPad", [](GraphMaker& g) {
         xnn::XnnNode& n = g.node(NodeKind::StaticConstantPad, {g.input({1, 2, 3, 2})}, {g.output({1, 4, 6, 2})});
         n.list_a = {0, 1, 2, 0}, n.list_b = {0, 1, 1, 0}, n.scalar = 0.5f;
       }, nullptr},
      {"StaticResizeBilinear2D", [](GraphMaker& g) {
         xnn::XnnNode& n = g.node(NodeKind::StaticResizeBilinear2D, {g.input({1, 3, 4, 2})}, {g.output({1, 6, 5, 2})});
         n.new_height = 6, n.new_width = 5;
       }, nullptr},
      {"Convert", [](GraphMaker& g) { g.node(NodeKind::Convert, {g.input({2, 3})}, {g.output({2, 3})}); }, nullptr},
      {"StaticTranspose", [](GraphMaker& g) {
         g.node(NodeKind::StaticTranspose, {g.input({2, 3, 4})}, {g.output({4, 2, 3})}).list_a = {2, 0, 1};
       }, [](const std::vector<Tensor>& in) { return std::vector<Tensor>{ops::contiguous(ops::permute(in[0], {2, 0, 1}))}; }},
      {"StaticSlice", [](GraphMaker& g) {
         xnn::XnnNode& n = g.node(NodeKind::StaticSlice, {g.input({3, 4, 5})}, {g.output({2, 2, 3})});
         n.list_a = {1, 0, 2}, n.list_b = {2, 2, 3};
       }, [](const std::vector<Tensor>& in) {
         return std::vector<Tensor>{ops::contiguous(ops::slice(ops::slice(ops::slice(in[0], 0, 1, 3), 1, 0, 2), 2, 2, 5))};
       }},
      {"Concatenate3", [](GraphMaker& g) {
         g.node(NodeKind::Concatenate3, {g.input({2, 1, 3}), g.input({2, 2, 3}), g.input({2, 3, 3})}, {g.output({2, 6, 3})}).axis = 1;
       }, [](const std::vector<Tensor>& in) { return std::vector<Tensor>{ops::cat(std::vector<Tensor>{in[0], in[1], in[2]}, 1)}; }},
      {"BatchMatrixMultiply", [](GraphMaker& g) {
         g.node(NodeKind::BatchMatrixMultiply, {g.input({2, 3, 4}), g.input({2, 4, 5})}, {g.output({2, 3, 5})});
       }, [](const std::vector<Tensor>& in) { return std::vector<Tensor>{ops::bmm(in[0], in[1])}; }},
  };
  return cases;
}

class XnnpackNodeKind : public ::testing::TestWithParam<KindCase> {};

std::vector<Tensor> kindRandomInputs(const xnn::XnnGraph& g) {
  std::vector<Tensor> inputs;
  uint32_t seed = 21;
  for (const xnn::XnnValue& v : g.values) {
    if (!v.is_input) continue;
    Tensor t = randomTensor(std::vector<int64_t>(v.dims.begin(), v.dims.end()), seed++);
    inputs.push_back(ops::add(ops::abs(t), 0.25));  // positive: log, sqrt and rsqrt are defined
  }
  return inputs;
}

TEST_P(XnnpackNodeKind, MatchesTheReferenceAloneInABlob) {
  GraphMaker g;
  GetParam().build(g);
  const xnn::WrittenBlob blob = g.write();
  const std::vector<Tensor> inputs = kindRandomInputs(g.graph());
  absl::StatusOr<std::unique_ptr<BlobDelegate>> host = BlobDelegate::init(blob, {{"placement", "host"}});
  ASSERT_TRUE(host.ok()) << host.status();
  const std::vector<Tensor> on_host = (*host)->run(g.graph(), inputs);
  // Once made, a host step allocates nothing when it runs again.
  std::vector<Tensor> args(g.graph().num_externs);
  size_t next = 0;
  for (const xnn::XnnValue& v : g.graph().values) {
    if (v.is_input) args[v.external_id] = inputs[next++];
    if (v.is_output) args[v.external_id] = sy::empty(std::vector<int64_t>(v.dims.begin(), v.dims.end()));
  }
  std::vector<IValue> boxed(args.begin(), args.end());
  std::vector<IValue*> pointers;
  for (IValue& v : boxed) pointers.push_back(&v);
  EXPECT_EQ(allocationsDuring([&] { EXPECT_TRUE((*host)->execute(absl::MakeSpan(pointers)).ok()); }), 0);
  if (GetParam().expected) {
    const std::vector<Tensor> expected = GetParam().expected(inputs);
    ASSERT_EQ(on_host.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i) expectCloseTo(on_host[i], expected[i], 1e-5);
  }
  absl::StatusOr<std::unique_ptr<BlobDelegate>> automatic = BlobDelegate::init(blob);
  ASSERT_TRUE(automatic.ok()) << automatic.status();
  const std::vector<Tensor> placed = (*automatic)->run(g.graph(), inputs);
  ASSERT_EQ(placed.size(), on_host.size());
  for (size_t i = 0; i < placed.size(); ++i) expectCloseTo(placed[i], on_host[i], 1e-4);
}

INSTANTIATE_TEST_SUITE_P(Kinds, XnnpackNodeKind, ::testing::ValuesIn(kindCases()),
                         [](const ::testing::TestParamInfo<KindCase>& info) { return info.param.name; });

}  // namespace
}  // namespace sy::testing
