// Every node kind of ExecuTorch's XNNPACK format, alone, in a hand-made blob written by the
// delegate's writer and read back by its reader: where Debian's XNNPACK runs the kind, its result
// matches the host path (the run-time option placement=host); where it does not, the host path
// runs it, and its result matches the same computation through Switchyard's portable kernels.
#include <cmath>
#include <cstring>
#include <functional>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_quantize.h"
#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_support.h"
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

using KindReference = std::function<std::vector<Tensor>(const std::vector<Tensor>&)>;

KindCase kindBinary(std::string name, NodeKind kind, std::function<Tensor(const Tensor&, const Tensor&)> reference) {
  return {name, [kind](GraphMaker& g) { g.node(kind, {g.input({2, 3, 4}), g.input({3, 1})}, {g.output({2, 3, 4})}); },
          [reference](const std::vector<Tensor>& in) { return std::vector<Tensor>{reference(in[0], in[1])}; }};
}

// NHWC <-> NCHW for the references of the window kinds, which the portable kernels run in NCHW.
Tensor kindToNchw(const Tensor& t) { return ops::contiguous(ops::permute(t, {0, 3, 1, 2})); }
Tensor kindToNhwc(const Tensor& t) { return ops::contiguous(ops::permute(t, {0, 2, 3, 1})); }

// A convolution-like node: an NHWC input, filter and bias constants; the reference is the portable
// convolution in NCHW (transposed convolutions: XNNPACK and the host path compare).
KindCase kindConvolution(std::string name, NodeKind kind, xnn::XnnNode::Window w, xnn::Dims in, xnn::Dims filter,
                         xnn::Dims out, size_t out_channels) {
  KindReference reference;
  if (kind != NodeKind::ConvTranspose2d) {
    reference = [=](const std::vector<Tensor>& x) {
      Tensor f = tensor<float>(kindRandomValues(xnn::numelOf(filter), 11), std::vector<int64_t>(filter.begin(), filter.end()));
      // OHWI -> OIHW; depthwise [1, KH, KW, C * M] -> [C * M, 1, KH, KW].
      f = ops::contiguous(kind == NodeKind::DepthwiseConv2d ? ops::permute(f, {3, 0, 1, 2}) : ops::permute(f, {0, 3, 1, 2}));
      const Tensor b = tensor<float>(kindRandomValues(out_channels, 12), {static_cast<int64_t>(out_channels)});
      const int64_t groups = w.groups;
      return std::vector<Tensor>{kindToNhwc(ops::convolution(kindToNchw(x[0]), f, b, {w.stride_h, w.stride_w},
                                                             {w.pad_top, w.pad_left}, {w.dilation_h, w.dilation_w}, false,
                                                             {0, 0}, groups))};
    };
  }
  return {name,
          [=](GraphMaker& g) {
            const uint32_t x = g.input(in);
            const uint32_t f = g.constant(filter, kindRandomValues(xnn::numelOf(filter), 11));
            const uint32_t b = g.constant({out_channels}, kindRandomValues(out_channels, 12));
            g.node(kind, {x, f, b}, {g.output(out)}).window = w;
          },
          reference};
}

xnn::XnnNode::Window kindWindow(uint32_t kh, uint32_t kw, uint32_t stride, uint32_t pad, uint32_t dilation = 1) {
  xnn::XnnNode::Window w;
  w.kernel_h = kh, w.kernel_w = kw, w.stride_h = w.stride_w = stride, w.dilation_h = w.dilation_w = dilation;
  w.pad_top = w.pad_bottom = w.pad_left = w.pad_right = pad;
  return w;
}

std::vector<KindCase> kindCases() {
  std::vector<KindCase> cases = {
      kindBinary("Add", NodeKind::Add, [](const Tensor& a, const Tensor& b) { return ops::add(a, b); }),
      kindBinary("Subtract", NodeKind::Subtract, [](const Tensor& a, const Tensor& b) { return ops::sub(a, b); }),
      kindBinary("Multiply", NodeKind::Multiply, [](const Tensor& a, const Tensor& b) { return ops::mul(a, b); }),
      kindBinary("Div", NodeKind::Div, [](const Tensor& a, const Tensor& b) { return ops::div(a, b); }),
      kindBinary("Minimum", NodeKind::Minimum, [](const Tensor& a, const Tensor& b) { return ops::minimum(a, b); }),
      kindBinary("Maximum", NodeKind::Maximum, [](const Tensor& a, const Tensor& b) { return ops::maximum(a, b); }),
      kindUnary("Sigmoid", NodeKind::Sigmoid, [](const Tensor& x) { return ops::sigmoid(x); }),
      kindUnary("Floor", NodeKind::Floor),
      kindUnary("Ceiling", NodeKind::Ceiling),
      kindUnary("SquareRoot", NodeKind::SquareRoot, [](const Tensor& x) { return ops::sqrt(x); }),
      kindUnary("Square", NodeKind::Square, [](const Tensor& x) { return ops::mul(x, x); }),
      kindUnary("Abs", NodeKind::Abs, [](const Tensor& x) { return ops::abs(x); }),
      kindUnary("Negate", NodeKind::Negate, [](const Tensor& x) { return ops::neg(x); }),
      kindUnary("Hardswish", NodeKind::Hardswish),
      kindUnary("Softmax", NodeKind::Softmax, [](const Tensor& x) { return ops::softmax(x, -1); }),
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
       }, [](const std::vector<Tensor>& in) { return std::vector<Tensor>{ops::clamp(in[0], -0.25, 0.5)}; }},
      {"ELU", [](GraphMaker& g) { g.node(NodeKind::ELU, {g.input({2, 3, 4})}, {g.output({2, 3, 4})}).scalar = 0.7f; }, nullptr},
      {"LeakyReLU", [](GraphMaker& g) { g.node(NodeKind::LeakyReLU, {g.input({2, 3, 4})}, {g.output({2, 3, 4})}).scalar = 0.1f; }, nullptr},
      {"PReLU", [](GraphMaker& g) {
         g.node(NodeKind::PReLU, {g.input({1, 2, 3, 4}), g.constant({4}, {0.1f, -0.5f, 2.0f, 0.0f})}, {g.output({1, 2, 3, 4})});
       }, nullptr},
      {"FullyConnected", [](GraphMaker& g) {
         const uint32_t x = g.input({3, 5}), w = g.constant({4, 5}, kindRandomValues(20, 3)), b = g.constant({4}, kindRandomValues(4, 4));
         g.node(NodeKind::FullyConnected, {x, w, b}, {g.output({3, 4})});
       }, [](const std::vector<Tensor>& in) {
         return std::vector<Tensor>{ops::linear(in[0], tensor<float>(kindRandomValues(20, 3), {4, 5}),
                                                tensor<float>(kindRandomValues(4, 4), {4}))};
       }},
      {"FullyConnectedWithoutBiasOver3d", [](GraphMaker& g) {
         const uint32_t x = g.input({2, 3, 5}), w = g.constant({4, 5}, kindRandomValues(20, 3));
         g.node(NodeKind::FullyConnected, {x, w, xnn::kNoValue}, {g.output({2, 3, 4})});
       }, [](const std::vector<Tensor>& in) {
         return std::vector<Tensor>{ops::linear(in[0], tensor<float>(kindRandomValues(20, 3), {4, 5}))};
       }},
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
       }, [](const std::vector<Tensor>& in) {  // XNNPACK averages over the pixels inside the image
         return std::vector<Tensor>{kindToNhwc(ops::avg_pool2d(kindToNchw(in[0]), {2, 2}, {2, 2}, {1, 1}, false, false))};
       }},
      {"MaxPooling2d", [](GraphMaker& g) {
         g.node(NodeKind::MaxPooling2d, {g.input({1, 5, 6, 3})}, {g.output({1, 2, 2, 3})}).window = kindWindow(3, 3, 2, 0);
       }, [](const std::vector<Tensor>& in) {
         return std::vector<Tensor>{kindToNhwc(ops::max_pool2d(kindToNchw(in[0]), {3, 3}, {2, 2}))};
       }},
      {"GlobalAvgPooling2d", [](GraphMaker& g) { g.node(NodeKind::GlobalAvgPooling2d, {g.input({2, 3, 4, 5})}, {g.output({2, 1, 1, 5})}); },
       [](const std::vector<Tensor>& in) { return std::vector<Tensor>{ops::mean(in[0], std::vector<int64_t>{1, 2}, true)}; }},
      {"StaticReshape", [](GraphMaker& g) {
         g.node(NodeKind::StaticReshape, {g.input({2, 3, 4})}, {g.output({6, 4})}).list_a = {0, 4};
       }, [](const std::vector<Tensor>& in) { return std::vector<Tensor>{ops::reshape(in[0], {6, 4})}; }},
      {"StaticConstantPad", [](GraphMaker& g) {
         xnn::XnnNode& n = g.node(NodeKind::StaticConstantPad, {g.input({1, 2, 3, 2})}, {g.output({1, 4, 6, 2})});
         n.list_a = {0, 1, 2, 0}, n.list_b = {0, 1, 1, 0}, n.scalar = 0.5f;
       }, nullptr},
      {"StaticResizeBilinear2D", [](GraphMaker& g) {
         xnn::XnnNode& n = g.node(NodeKind::StaticResizeBilinear2D, {g.input({1, 3, 4, 2})}, {g.output({1, 6, 5, 2})});
         n.new_height = 6, n.new_width = 5;
       }, nullptr},
      {"Convert", [](GraphMaker& g) { g.node(NodeKind::Convert, {g.input({2, 3})}, {g.output({2, 3})}); },
       [](const std::vector<Tensor>& in) { return std::vector<Tensor>{ops::clone(in[0])}; }},
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

// A chain as a CNN's delegate holds it: a host transpose in, a convolution with a fused ReLU, max
// pooling and global average pooling in XNNPACK, a reshape, a fully connected layer and softmax,
// against the same model on the portable kernels.
TEST(XnnpackNodeKinds, AChainOfHostStepsAndXnnpackRuntimesMatchesThePortableKernels) {
  GraphMaker g;
  const uint32_t x = g.input({2, 3, 8, 8});
  const uint32_t nhwc = g.internal({2, 8, 8, 3}), conv = g.internal({2, 8, 8, 4}), pooled = g.internal({2, 4, 4, 4});
  const uint32_t mean = g.internal({2, 1, 1, 4}), flat = g.internal({2, 4}), logits = g.internal({2, 5}), y = g.output({2, 5});
  const std::vector<float> w = kindRandomValues(4 * 3 * 3 * 3, 31), b = kindRandomValues(4, 32);
  const std::vector<float> fw = kindRandomValues(5 * 4, 33), fb = kindRandomValues(5, 34);
  g.node(NodeKind::StaticTranspose, {x}, {nhwc}).list_a = {0, 2, 3, 1};
  xnn::XnnNode& c = g.node(NodeKind::Conv2d, {nhwc, g.constant({4, 3, 3, 3}, w), g.constant({4}, b)}, {conv});
  c.window = kindWindow(3, 3, 1, 1), c.window.group_input_channels = 3, c.window.group_output_channels = 4;
  c.output_min = 0;
  g.node(NodeKind::MaxPooling2d, {conv}, {pooled}).window = kindWindow(2, 2, 2, 0);
  g.node(NodeKind::GlobalAvgPooling2d, {pooled}, {mean});
  g.node(NodeKind::StaticReshape, {mean}, {flat}).list_a = {2, 4};
  g.node(NodeKind::FullyConnected, {flat, g.constant({5, 4}, fw), g.constant({5}, fb)}, {logits});
  g.node(NodeKind::Softmax, {logits}, {y});
  absl::StatusOr<std::unique_ptr<BlobDelegate>> d = BlobDelegate::init(g.write());
  ASSERT_TRUE(d.ok()) << d.status();
  const Tensor in = randomTensor({2, 3, 8, 8}, 35);
  const std::vector<Tensor> out = (*d)->run(g.graph(), {in});
  const Tensor oihw = ops::contiguous(ops::permute(tensor<float>(w, {4, 3, 3, 3}), {0, 3, 1, 2}));
  Tensor h = ops::relu(ops::conv2d(in, oihw, tensor<float>(b, {4}), {1, 1}, {1, 1}));
  h = ops::mean(ops::max_pool2d(h, {2, 2}, {2, 2}), std::vector<int64_t>{2, 3});
  const Tensor expected = ops::softmax(ops::linear(h, tensor<float>(fw, {5, 4}), tensor<float>(fb, {5})), -1);
  ASSERT_EQ(out.size(), 1u);
  expectCloseTo(out[0], expected, 1e-5);
}

// Quantize, a qint8 fully connected layer, dequantize: XNNPACK's requantization, and the host
// path's, against the float layer on the portable kernels, within a step of the output's scale.
TEST(XnnpackNodeKinds, AQuantizedChainIsWithinOneStepOfTheFloatLayer) {
  GraphMaker g;
  const uint32_t x = g.input({3, 8}), q = g.internal({3, 8}, Datatype::QInt8), r = g.internal({3, 4}, Datatype::QInt8);
  const uint32_t y = g.output({3, 4});
  const float in_scale = 1.0f / 127, w_scale = 0.5f / 127, out_scale = 0.02f;
  g.quantize(q, in_scale, 0).quantize(r, out_scale, 3);
  std::vector<uint8_t> wq(32);
  std::vector<float> wf(32);
  for (size_t i = 0; i < 32; ++i) {
    const int8_t v = static_cast<int8_t>(static_cast<int>(i * 37 % 255) - 127);
    wq[i] = static_cast<uint8_t>(v), wf[i] = v * w_scale;
  }
  xnn::QuantParams wp, bp;
  wp.kind = bp.kind = xnn::QuantParams::Kind::PerTensor, wp.scale = w_scale, bp.scale = in_scale * w_scale;
  const std::vector<int32_t> bias = {100, -200, 0, 50};
  std::vector<uint8_t> bias_bytes(16);
  std::memcpy(bias_bytes.data(), bias.data(), 16);
  const uint32_t w = g.constantBytes({4, 8}, Datatype::QInt8, wq, wp), b = g.constantBytes({4}, Datatype::QInt32, bias_bytes, bp);
  g.node(NodeKind::Convert, {x}, {q});
  g.node(NodeKind::FullyConnected, {q, w, b}, {r});
  g.node(NodeKind::Convert, {r}, {y});
  const Tensor in = randomTensor({3, 8}, 41);
  // The float layer on the input as the quantized layer sees it (rounded to its scale).
  std::vector<float> xq(in.data_ptr<float>(), in.data_ptr<float>() + in.numel());
  for (float& v : xq) v = std::nearbyint(v / in_scale) * in_scale;
  std::vector<float> bf;
  for (int32_t v : bias) bf.push_back(v * in_scale * w_scale);
  const Tensor expected = ops::linear(tensor<float>(xq, {3, 8}), tensor<float>(wf, {4, 8}), tensor<float>(bf, {4}));
  for (const char* placement : {"auto", "host"}) {
    absl::StatusOr<std::unique_ptr<BlobDelegate>> d = BlobDelegate::init(g.write(), {{"placement", placement}});
    ASSERT_TRUE(d.ok()) << d.status();
    const std::vector<Tensor> out = (*d)->run(g.graph(), {in});
    ASSERT_EQ(out.size(), 1u);
    expectCloseTo(out[0], expected, out_scale);
  }
}

// fp16 values, which Debian's XNNPACK does not run: convert, abs and convert back on the host.
TEST(XnnpackNodeKinds, HalfPrecisionValuesRunOnTheHostWithinHalfPrecision) {
  GraphMaker g;
  const uint32_t x = g.input({2, 5}), h = g.internal({2, 5}, Datatype::Fp16), a = g.internal({2, 5}, Datatype::Fp16);
  const uint32_t y = g.output({2, 5});
  g.node(NodeKind::Convert, {x}, {h});
  g.node(NodeKind::Abs, {h}, {a});
  g.node(NodeKind::Convert, {a}, {y});
  absl::StatusOr<std::unique_ptr<BlobDelegate>> d = BlobDelegate::init(g.write());
  ASSERT_TRUE(d.ok()) << d.status();
  const Tensor in = ops::mul(randomTensor({2, 5}, 51), 100.0);
  const std::vector<Tensor> out = (*d)->run(g.graph(), {in});
  ASSERT_EQ(out.size(), 1u);
  const std::vector<double> got = doublesOf(out[0]), want = doublesOf(ops::abs(in));
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], std::abs(want[i]) / 1024 + 1e-6) << i;
  // fp16 values convert as sy::Half's (core/half.h, exhaustively tested there): a value that rounds
  // into Half's subnormals comes back out of the delegate as that subnormal.
  const Tensor tiny = ops::full({2, 5}, 0x1p-24);
  const std::vector<Tensor> small = (*d)->run(g.graph(), {tiny});
  EXPECT_EQ(doublesOf(small[0]), std::vector<double>(10, 0x1p-24));
}

// Dynamically quantized activations (qdint8, one scale per row) into a fully connected layer with
// 4-bit weights in groups of 32 (qbint4) and with 4-bit per-channel weights (qcint4): the host
// path, against the float layer on the dequantized weights, within the activations' rounding.
TEST(XnnpackNodeKinds, DynamicInt8AndFourBitWeightsRunOnTheHost) {
  for (const Datatype weights : {Datatype::QBInt4, Datatype::QCInt4}) {
    GraphMaker g;
    const uint32_t x = g.input({3, 64}), q = g.internal({3, 64}, Datatype::QDInt8), y = g.output({3, 4});
    g.graph().values[q].quant.kind = xnn::QuantParams::Kind::PerToken;
    g.graph().values[q].quant.num_nonbatch_dims = 1;
    // Nibbles (value + 8) two per byte, low first; the dequantized weights for the reference.
    std::vector<uint8_t> packed(4 * 32);
    std::vector<float> dequantized(4 * 64);
    xnn::QuantParams wq;
    wq.zero_point = 8;
    if (weights == Datatype::QBInt4) {
      wq.kind = xnn::QuantParams::Kind::PerChannelGroup, wq.group_size = 32;
      for (int i = 0; i < 8; ++i) wq.scales.push_back(0.01f + 0.002f * i);
    } else {
      wq.kind = xnn::QuantParams::Kind::PerChannel, wq.channel_dim = 0;
      for (int i = 0; i < 4; ++i) wq.scales.push_back(0.015f + 0.003f * i);
    }
    for (int n = 0; n < 4; ++n) {
      for (int k = 0; k < 64; ++k) {
        const int v = (n * 64 + k) * 7 % 16 - 8;
        packed[n * 32 + k / 2] |= static_cast<uint8_t>((v + 8) << (k % 2 == 0 ? 0 : 4));
        const float scale = weights == Datatype::QBInt4 ? wq.scales[n * 2 + k / 32] : wq.scales[n];
        dequantized[n * 64 + k] = static_cast<float>(v) * scale;
      }
    }
    const std::vector<float> bias = {0.1f, -0.2f, 0.3f, 0.0f};
    const uint32_t w = g.constantBytes({4, 64}, weights, packed, wq), b = g.constant({4}, bias);
    g.node(NodeKind::Convert, {x}, {q});
    g.node(NodeKind::FullyConnected, {q, w, b}, {y});
    absl::StatusOr<std::unique_ptr<BlobDelegate>> d = BlobDelegate::init(g.write());
    ASSERT_TRUE(d.ok()) << d.status();
    const Tensor in = randomTensor({3, 64}, 61);
    const std::vector<Tensor> out = (*d)->run(g.graph(), {in});
    ASSERT_EQ(out.size(), 1u);
    expectCloseTo(out[0], ops::linear(in, tensor<float>(dequantized, {4, 64}), tensor<float>(bias, {4})), 0.02);
  }
}

}  // namespace
}  // namespace sy::testing
