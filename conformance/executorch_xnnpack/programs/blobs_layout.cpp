// blobs_layout.cpp: hand-made XNNPACK graphs of the data-movement and matrix nodes the exporter does
// not emit ("blob_*"): static slice, constant pad, concatenate of 2 to 5 inputs, transpose, bilinear
// resize (with and without align_corners), batched matrix multiply and transposed convolution.
// Resize and the transposed convolution are channels-last in XNNPACK; their eager models permute to
// NCHW and back around the Switchyard operator.
#include "graph_maker.h"

namespace conformance {
namespace {

void addCopies(CaseList& cases) {
  cases.push_back(handMadeCase(
      "blob_slice", {{3, 4, 5}},
      [](Inputs in) { return Outputs{ops::contiguous(ops::slice(ops::slice(ops::slice(in[0], 0, 1, 3), 1, 0, 2), 2, 2, 5))}; },
      "XNNStaticSlice, offsets [1,0,2], sizes [2,2,3]", 0, [](GraphMaker& g) {
        const uint32_t x = g.input({3, 4, 5}), y = g.output({2, 2, 3});
        xnn::XnnNode& n = g.node(K::StaticSlice, {x}, {y});
        n.list_a = {1, 0, 2};  // offsets
        n.list_b = {2, 2, 3};  // sizes
      }));
  cases.push_back(handMadeCase(
      "blob_pad", {{1, 2, 3, 2}},
      // constant_pad_nd lists (before, after) pairs from the last dimension backwards.
      [](Inputs in) { return Outputs{ops::constant_pad_nd(in[0], {0, 0, 2, 1, 1, 1}, 0.5)}; },
      "XNNStaticConstantPad, before [0,1,2,0], after [0,1,1,0], value 0.5", 0, [](GraphMaker& g) {
        const uint32_t x = g.input({1, 2, 3, 2}), y = g.output({1, 4, 6, 2});
        xnn::XnnNode& n = g.node(K::StaticConstantPad, {x}, {y});
        n.list_a = {0, 1, 2, 0};
        n.list_b = {0, 1, 1, 0};
        n.scalar = 0.5f;
      }));
  const K concat_kinds[] = {K::Concatenate2, K::Concatenate3, K::Concatenate4, K::Concatenate5};
  for (int count = 2; count <= 5; ++count) {
    // Inputs [2, i, 3] for i = 1..count, joined along axis 1.
    std::vector<Shape> shapes;
    for (int i = 1; i <= count; ++i) shapes.push_back({2, i, 3});
    const K kind = concat_kinds[count - 2];
    const size_t total = static_cast<size_t>(count * (count + 1) / 2);
    cases.push_back(handMadeCase(
        "blob_cat" + std::to_string(count), shapes, [](Inputs in) { return Outputs{ops::cat(in, 1)}; },
        std::string(xnn::nodeKindName(kind)) + " along axis 1", 0, [count, kind, total](GraphMaker& g) {
          std::vector<uint32_t> parts;
          for (size_t i = 1; i <= static_cast<size_t>(count); ++i) parts.push_back(g.input({2, i, 3}));
          g.node(kind, parts, {g.output({2, total, 3})}).axis = 1;
        }));
  }
  cases.push_back(handMadeCase(
      "blob_transpose", {{2, 3, 4}}, [](Inputs in) { return Outputs{ops::contiguous(ops::permute(in[0], {2, 0, 1}))}; },
      "XNNStaticTranspose, permutation [2,0,1] (a real data move inside the graph)", 0, [](GraphMaker& g) {
        const uint32_t x = g.input({2, 3, 4}), y = g.output({4, 2, 3});
        g.node(K::StaticTranspose, {x}, {y}).list_a = {2, 0, 1};
      }));
}

void addResize(CaseList& cases) {
  for (const bool align : {false, true}) {
    cases.push_back(handMadeCase(
        align ? "blob_resize_bilinear_align" : "blob_resize_bilinear", {{1, 3, 4, 2}},
        [align](Inputs in) {
          return Outputs{toNhwc(ops::upsample_bilinear2d(toNchw(in[0]), std::vector<int64_t>{6, 5}, align, std::nullopt))};
        },
        std::string("XNNStaticResizeBilinear2D, 3x4 to 6x5, channels-last") + (align ? ", align_corners" : ""), 1e-5,
        [align](GraphMaker& g) {
          const uint32_t x = g.input({1, 3, 4, 2}), y = g.output({1, 6, 5, 2});
          xnn::XnnNode& n = g.node(K::StaticResizeBilinear2D, {x}, {y});
          n.new_height = 6;
          n.new_width = 5;
          if (align) n.flags = xnn::kFlagAlignCorners;
        }));
  }
}

void addMatrixProducts(CaseList& cases) {
  cases.push_back(handMadeCase(
      "blob_bmm", {{2, 3, 4}, {2, 4, 5}}, [](Inputs in) { return Outputs{ops::bmm(in[0], in[1])}; },
      "XNNBatchMatrixMultiply [2,3,4] x [2,4,5]", 1e-5, [](GraphMaker& g) {
        const uint32_t a = g.input({2, 3, 4}), b = g.input({2, 4, 5});
        g.node(K::BatchMatrixMultiply, {a, b}, {g.output({2, 3, 5})});
      }));

  // Transposed convolution 3 -> 2 channels, 2x2 kernel, stride 2. PyTorch's weight is
  // [in, out, kh, kw]; XNNPACK's deconvolution filter is [out, kh, kw, in] (one group).
  const std::vector<float> weight = floatsOf(randomTensor({3, 2, 2, 2}, 121));
  const std::vector<float> bias = floatsOf(randomTensor({2}, 122));
  cases.push_back(handMadeCase(
      "blob_conv_transpose", {{1, 3, 4, 3}},
      [weight, bias](Inputs in) {
        const Tensor w = sy::tensor<float>(weight, {3, 2, 2, 2}), b = sy::tensor<float>(bias, {2});
        return Outputs{toNhwc(ops::convolution(toNchw(in[0]), w, b, {2, 2}, {0, 0}, {1, 1}, true, {0, 0}, 1))};
      },
      "XNNConvTranspose2d, 2x2 kernel, stride 2, 3 -> 2 channels, channels-last", 1e-5, [weight, bias](GraphMaker& g) {
        std::vector<float> filter(weight.size());
        for (int o = 0; o < 2; ++o)
          for (int kh = 0; kh < 2; ++kh)
            for (int kw = 0; kw < 2; ++kw)
              for (int i = 0; i < 3; ++i) filter[((o * 2 + kh) * 2 + kw) * 3 + i] = weight[((i * 2 + o) * 2 + kh) * 2 + kw];
        const uint32_t x = g.input({1, 3, 4, 3}), y = g.output({1, 6, 8, 2});
        xnn::XnnNode& n = g.node(K::ConvTranspose2d, {x, g.constant({2, 2, 2, 3}, filter), g.constant({2}, bias)}, {y});
        n.window = squareWindow(2, 2, 0);
        n.window.groups = 1;
        n.window.group_input_channels = 3;
        n.window.group_output_channels = 2;
      }));
}

}  // namespace

void addLayoutBlobs(CaseList& cases) {
  addCopies(cases);
  addResize(cases);
  addMatrixProducts(cases);
}

}  // namespace conformance
