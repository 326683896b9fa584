// exported_models.cpp: models lowered by Switchyard's exporter itself ("sy_*" programs).
//
// Each model is captured from eager Switchyard code and lowered either by XnnpackPartitioner (which
// leaves what XNNPACK cannot take to the portable kernels, so some programs mix delegates and
// portable operators) or whole by to_backend("XnnpackBackend"). Together they exercise the node
// kinds the exporter emits: convolutions of every shape it handles, pooling, FullyConnected,
// element-wise arithmetic and activations, reshapes, the channels-last transposes at the edges of
// a delegate, dynamic batch sizes, weights shared between delegates and program-level constants.
#include "program_case.h"

namespace conformance {
namespace {

namespace ex = sy::export_;

ProgramCase model(std::string name, Lowering lowering, std::vector<Shape> inputs, ex::Model fn,
                  std::vector<ex::NamedTensor> params, std::string notes, double tolerance = 1e-5) {
  ProgramCase c;
  c.name = std::move(name);
  c.lowering = lowering;
  c.inputs = std::move(inputs);
  c.model = std::move(fn);
  c.params = std::move(params);
  c.notes = std::move(notes);
  c.tolerance = tolerance;
  return c;
}

ex::NamedTensor param(const std::string& name, const Tensor& t) { return ex::NamedTensor{name, t}; }

void addNetworks(CaseList& cases) {
  {
    const Tensor w1 = randomTensor({8, 4}, 1), b1 = randomTensor({8}, 2), w2 = randomTensor({3, 8}, 3), b2 = randomTensor({3}, 4);
    auto mlp = [=](Inputs in) { return Outputs{ops::softmax(ops::linear(ops::relu(ops::linear(in[0], w1, b1)), w2, b2), -1)}; };
    const std::vector<ex::NamedTensor> params = {param("fc1.weight", w1), param("fc1.bias", b1), param("fc2.weight", w2), param("fc2.bias", b2)};
    cases.push_back(model("sy_mlp", Lowering::Whole, {{2, 4}}, mlp, params, "linear(+bias) relu linear softmax"));
    ProgramCase dyn = model("sy_mlp_dynamic", Lowering::Partitioner, {{8, 4}}, mlp, params,
                            "the same MLP captured with a dynamic batch 1..8 (DYNAMIC_BOUND), run at 8, 3 and 1");
    dyn.dynamic = {{0, 0, 1}};
    dyn.run_shapes = {{{8, 4}}, {{3, 4}}, {{1, 4}}};
    cases.push_back(dyn);
  }
  {
    const Tensor cw = randomTensor({4, 1, 3, 3}, 11), cb = randomTensor({4}, 12), fw = randomTensor({5, 64}, 13), fb = randomTensor({5}, 14);
    cases.push_back(model(
        "sy_small_cnn", Lowering::Partitioner, {{2, 1, 8, 8}},
        [=](Inputs in) {
          Tensor h = ops::max_pool2d(ops::relu(ops::conv2d(in[0], cw, cb, {1, 1}, {1, 1})), {2, 2}, {2, 2});
          h = ops::view(h, {in[0].size(0), 64});
          return Outputs{ops::softmax(ops::linear(h, fw, fb), 1)};
        },
        {param("conv.weight", cw), param("conv.bias", cb), param("fc.weight", fw), param("fc.bias", fb)},
        "conv2d 1->4 pad 1 (depthwise form), relu, max_pool2d | portable view | linear, softmax"));
  }
  {
    const Tensor w = randomTensor({8, 3, 3, 3}, 91), b = randomTensor({8}, 92), fw = randomTensor({4, 8}, 93), fb = randomTensor({4}, 94);
    cases.push_back(model(
        "sy_classifier", Lowering::Partitioner, {{2, 3, 10, 10}},
        [=](Inputs in) {
          Tensor h = ops::adaptive_avg_pool2d(ops::relu(ops::conv2d(in[0], w, b, {2, 2}, {1, 1})), {1, 1});
          h = ops::view(h, {in[0].size(0), 8});
          return Outputs{ops::softmax(ops::linear(h, fw, fb), -1)};
        },
        {param("w", w), param("b", b), param("fw", fw), param("fb", fb)},
        "conv stride 2, relu, adaptive_avg_pool2d, view of [N,C,1,1], linear, softmax"));
  }
  {
    const Tensor w1 = randomTensor({16, 3, 3, 3}, 161, -0.5f, 0.5f), b1 = randomTensor({16}, 162);
    const Tensor w2 = randomTensor({32, 16, 3, 3}, 163, -0.2f, 0.2f), b2 = randomTensor({32}, 164);
    const Tensor fw = randomTensor({10, 32}, 165), fb = randomTensor({10}, 166);
    cases.push_back(model(
        "sy_bigger_cnn", Lowering::Whole, {{2, 3, 32, 32}},
        [=](Inputs in) {
          Tensor h = ops::max_pool2d(ops::relu(ops::conv2d(in[0], w1, b1, {1, 1}, {1, 1})), {2, 2}, {2, 2});
          h = ops::avg_pool2d(ops::hardtanh(ops::conv2d(h, w2, b2, {1, 1}, {1, 1}), 0.0, 6.0), {2, 2}, {2, 2});
          return Outputs{ops::softmax(ops::linear(ops::mean(h, std::vector<int64_t>{2, 3}, false), fw, fb), -1)};
        },
        {param("w1", w1), param("b1", b1), param("w2", w2), param("b2", b2), param("fw", fw), param("fb", fb)},
        "conv 3->16 relu maxpool, conv 16->32 relu6, avgpool, mean(H,W), linear 32->10, softmax on 2x3x32x32"));
  }
  {
    const Tensor w = randomTensor({4, 3, 3, 3}, 141), b = randomTensor({4}, 142);
    ProgramCase c = model(
        "sy_cnn_dynamic", Lowering::Whole, {{4, 3, 6, 6}},
        [=](Inputs in) { return Outputs{ops::max_pool2d(ops::relu(ops::conv2d(in[0], w, b, {1, 1}, {1, 1})), {2, 2}, {2, 2})}; },
        {param("w", w), param("b", b)}, "conv relu max_pool2d with a dynamic batch 1..4, run at 4, 2 and 1");
    c.dynamic = {{0, 0, 1}};
    c.run_shapes = {{{4, 3, 6, 6}}, {{2, 3, 6, 6}}, {{1, 3, 6, 6}}};
    cases.push_back(c);
  }
}

void addConvolutionsAndPools(CaseList& cases) {
  {
    const Tensor w1 = randomTensor({8, 4, 3, 3}, 21), b1 = randomTensor({8}, 22), wd = randomTensor({8, 1, 3, 3}, 23);
    const Tensor wg = randomTensor({6, 4, 1, 1}, 24), bg = randomTensor({6}, 25);
    const Tensor wdil = randomTensor({4, 6, 3, 3}, 26), bdil = randomTensor({4}, 27);
    cases.push_back(model(
        "sy_conv_zoo", Lowering::Whole, {{1, 4, 9, 9}},
        [=](Inputs in) {
          Tensor h = ops::hardtanh(ops::conv2d(in[0], w1, b1, {2, 2}, {1, 1}), -0.5, 0.5);
          h = ops::relu(ops::conv2d(h, wd, std::nullopt, {1, 1}, {1, 1}, {1, 1}, 8));
          h = ops::clamp(ops::conv2d(h, wg, bg, {1, 1}, {0, 0}, {1, 1}, 2), -0.2, std::nullopt);
          const Tensor s = ops::sigmoid(ops::conv2d(h, wdil, bdil, {1, 1}, {2, 2}, {2, 2}));
          return Outputs{s, ops::adaptive_avg_pool2d(s, {1, 1})};
        },
        {param("w1", w1), param("b1", b1), param("wd", wd), param("wg", wg), param("bg", bg), param("wdil", wdil), param("bdil", bdil)},
        "conv stride 2 pad 1, hardtanh, depthwise conv without bias, relu, grouped 1x1 conv, clamp(min), "
        "dilated conv, sigmoid, adaptive_avg_pool2d 1x1; two outputs",
        1e-4));
  }
  {
    const Tensor wm = randomTensor({8, 1, 3, 3}, 31), bm = randomTensor({8}, 32), wr = randomTensor({3, 8, 2, 3}, 33), br = randomTensor({3}, 34);
    cases.push_back(model(
        "sy_conv_odd", Lowering::Whole, {{2, 4, 7, 6}},
        [=](Inputs in) {
          const Tensor h = ops::conv2d(in[0], wm, bm, {1, 1}, {1, 1}, {1, 1}, 4);
          return Outputs{ops::conv2d(h, wr, br, {2, 1}, {1, 0})};
        },
        {param("wm", wm), param("bm", bm), param("wr", wr), param("br", br)},
        "depthwise conv with channel multiplier 2, conv with a 2x3 kernel, stride (2,1), padding (1,0), batch 2", 1e-4));
  }
  cases.push_back(model(
      "sy_pools", Lowering::Whole, {{2, 3, 8, 8}},
      [](Inputs in) {
        return Outputs{ops::max_pool2d(in[0], {3, 3}, {2, 2}, {1, 1}), ops::avg_pool2d(in[0], {2, 2}, {2, 2}),
                       ops::avg_pool2d(in[0], {3, 3}, {1, 1}, {1, 1}, false, /*count_include_pad=*/false),
                       ops::mean(in[0], std::vector<int64_t>{2, 3}, true), ops::mean(in[0], std::vector<int64_t>{-1, -2}, false)};
      },
      {}, "max_pool2d 3x3 s2 p1, avg_pool2d 2x2 s2, avg_pool2d 3x3 s1 p1 without the padding in the count, "
          "mean over H,W kept and not kept (global average pooling); five outputs"));
  {
    const Tensor w1 = randomTensor({2, 2, 3, 3}, 41), b1 = randomTensor({2}, 42), w2 = randomTensor({2, 2, 3, 3}, 43), b2 = randomTensor({2}, 44);
    cases.push_back(model(
        "sy_residual", Lowering::Whole, {{1, 2, 6, 6}},
        [=](Inputs in) {
          const Tensor h = ops::conv2d(ops::relu(ops::conv2d(in[0], w1, b1, {1, 1}, {1, 1})), w2, b2, {1, 1}, {1, 1});
          return Outputs{ops::relu(ops::add(in[0], h))};
        },
        {param("w1", w1), param("b1", b1), param("w2", w2), param("b2", b2)},
        "conv relu conv, plus the block's input (read twice: transposed once at the edge), relu"));
  }
  {
    const Tensor w = randomTensor({6, 3, 3, 3}, 81), b = randomTensor({6}, 82), fw = randomTensor({5, 6}, 83), fb = randomTensor({5}, 84);
    cases.push_back(model(
        "sy_nhwc_permute", Lowering::Whole, {{1, 6, 6, 3}},
        [=](Inputs in) {
          const Tensor h = ops::relu(ops::conv2d(ops::permute(in[0], {0, 3, 1, 2}), w, b, {1, 1}, {1, 1}));
          return Outputs{ops::linear(ops::permute(h, {0, 2, 3, 1}), fw, fb)};
        },
        {param("w", w), param("b", b), param("fw", fw), param("fb", fb)},
        "an NHWC input permuted to NCHW, conv, relu, permuted back, linear over the channels of a 4-D tensor"));
  }
}

void addElementwiseAndShapes(CaseList& cases) {
  cases.push_back(model(
      "sy_elementwise", Lowering::Whole, {{2, 3, 4, 5}, {2, 3, 4, 5}, {5}},
      [](Inputs in) {
        const Tensor &a = in[0], &b = in[1], &c = in[2];
        return Outputs{ops::add(a, b), ops::sub(a, c), ops::mul(ops::add(a, 1.5), 2.5), ops::div(ops::sub(b, 0.25), 3.0),
                       ops::div(a, ops::add(ops::sigmoid(b), 0.5)), ops::clamp(ops::mul(a, c), -0.3, 0.4),
                       ops::hardtanh(ops::relu(ops::sub(b, a)), 0.0, 0.6)};
      },
      {}, "add/sub/mul/div in their Tensor and Scalar forms, a [5] broadcast, sigmoid, clamp, relu, hardtanh; 3 inputs, 7 outputs"));
  {
    const Tensor w = randomTensor({4, 3, 3, 3}, 51), b = randomTensor({4}, 52), scale = randomTensor({4, 1, 1}, 53);
    cases.push_back(model(
        "sy_elementwise_nhwc", Lowering::Whole, {{1, 3, 6, 6}, {1, 4, 6, 6}},
        [=](Inputs in) {
          Tensor h = ops::add(ops::mul(ops::conv2d(in[0], w, b, {1, 1}, {1, 1}), scale), in[1]);
          return Outputs{ops::relu(ops::sub(h, ops::sigmoid(in[1])))};
        },
        {param("w", w), param("b", b), param("scale", scale)},
        "conv, times a [4,1,1] constant (broadcast in channels-last), plus and minus a second 4-D input, sigmoid, relu"));
  }
  {
    const Tensor wt = randomTensor({6, 3}, 61), bias = randomTensor({3}, 62);
    cases.push_back(model(
        "sy_addmm", Lowering::Whole, {{4, 6}}, [=](Inputs in) { return Outputs{ops::sub(ops::addmm(bias, in[0], wt), 0.125)}; },
        {param("wt", wt), param("bias", bias)}, "addmm(bias, x, W[in,out]): FullyConnected with a transposed weight; sub.Scalar"));
  }
  {
    const Tensor w = randomTensor({5, 4}, 71);
    cases.push_back(model(
        "sy_reshapes", Lowering::Whole, {{2, 3, 4}},
        [=](Inputs in) {
          Tensor h = ops::squeeze(ops::unsqueeze(ops::linear(ops::view(in[0], {6, 4}), w), 0), 0);
          h = ops::permute(ops::unsqueeze(ops::reshape(h, {2, 3, 5}), 2), {0, 2, 1, 3});  // moves a size-1 dim only
          return Outputs{ops::softmax(ops::squeeze(h), -1)};
        },
        {param("w", w)}, "view, linear without bias, unsqueeze, squeeze.dim, reshape, permute of a size-1 dim, squeeze, softmax"));
  }
}

void addMixedPrograms(CaseList& cases) {
  {
    const Tensor w1 = randomTensor({2, 2, 3, 3}, 101), b1 = randomTensor({2}, 102);
    cases.push_back(model(
        "sy_mixed", Lowering::Partitioner, {{1, 2, 6, 6}},
        [=](Inputs in) {
          const Tensor h = ops::relu(ops::conv2d(in[0], w1, b1, {1, 1}, {1, 1}));
          return Outputs{ops::sigmoid(ops::mul(ops::neg(h), h)), ops::neg(in[0])};
        },
        {param("w1", w1), param("b1", b1)}, "two delegates around a portable neg, and an output computed by portable kernels only"));
  }
  {
    const Tensor w = randomTensor({4, 4}, 131), b = randomTensor({4}, 132);
    cases.push_back(model(
        "sy_shared_weight", Lowering::Partitioner, {{3, 4}},
        [=](Inputs in) { return Outputs{ops::linear(ops::neg(ops::linear(in[0], w, b)), w, b)}; },
        {param("w", w), param("b", b)}, "one weight read by two delegates on either side of a portable neg: one named-data entry"));
  }
  {
    const Tensor w = randomTensor({3, 4}, 151), b = randomTensor({3}, 152), c = randomTensor({3}, 153);
    cases.push_back(model(
        "sy_program_constant", Lowering::Partitioner, {{2, 4}},
        [=](Inputs in) { return Outputs{ops::sub(ops::linear(in[0], w, b), c, 2.0)}; },
        {param("w", w), param("b", b), param("c", c)},
        "linear in XNNPACK, then a portable sub with alpha 2 that reads a constant of the program itself"));
  }
}

}  // namespace

void addExportedModels(CaseList& cases) {
  addNetworks(cases);
  addConvolutionsAndPools(cases);
  addElementwiseAndShapes(cases);
  addMixedPrograms(cases);
}

}  // namespace conformance
