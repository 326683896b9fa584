// blobs_quantized.cpp: hand-made quantized XNNPACK graphs ("blob_q*"), the layouts ExecuTorch's
// XNNPACK quantizer produces:
//   blob_qint8_linear          static int8: Convert fp32->qint8, FullyConnected qint8 x qint8 with a
//                              qint32 bias (per-tensor scales), Convert back to fp32
//   blob_qd8_qc8w_linear       dynamic int8 activations (qdint8, per token) x per-channel int8 weights
//   blob_qd8_qc4w_linear       ... x per-channel 4-bit weights
//   blob_qd8_qb4w_linear       ... x 4-bit weights in blocks of 32 with a scale per block (qbint4);
//                              ExecuTorch keeps block scales as bfloat16, so these scales are not
//                              exactly representable and get rounded on the way
//   blob_qd8_qb4w_linear_bf16exact   the same with scales that are exact in bfloat16
// The eager reference computes in float on the dequantized weights, so `tolerance` is about the
// quantization of the activations; the two runtimes must still agree to float rounding.
#include "graph_maker.h"

namespace conformance {
namespace {

void addStaticInt8(CaseList& cases) {
  const float in_scale = 1.0f / 127, w_scale = 0.5f / 127, out_scale = 0.02f;
  const int32_t out_zero_point = 3;
  std::vector<uint8_t> w_bytes(4 * 8);
  std::vector<float> w_real(4 * 8);
  for (size_t i = 0; i < w_bytes.size(); ++i) {
    const int8_t q = static_cast<int8_t>(static_cast<int>(i * 37 % 255) - 127);
    w_bytes[i] = static_cast<uint8_t>(q);
    w_real[i] = q * w_scale;
  }
  const std::vector<int32_t> bias_q = {100, -200, 0, 50};
  std::vector<float> bias_real;
  for (int32_t b : bias_q) bias_real.push_back(b * in_scale * w_scale);
  cases.push_back(handMadeCase(
      "blob_qint8_linear", {{3, 8}},
      [=](Inputs in) {
        // The input rounded to its int8 grid, then the float layer.
        const Tensor xq = ops::mul(ops::clamp(ops::round(ops::div(in[0], in_scale)), -128.0, 127.0), in_scale);
        return Outputs{ops::linear(xq, sy::tensor<float>(w_real, {4, 8}), sy::tensor<float>(bias_real, {4}))};
      },
      "XNNConvert fp32->qint8, XNNFullyConnected qint8 x qint8 (per tensor) + qint32 bias, XNNConvert qint8->fp32",
      out_scale, [=](GraphMaker& g) {
        const uint32_t x = g.input({3, 8}), y = g.output({3, 4});
        const uint32_t xq = g.internal({3, 8}, xnn::Datatype::QInt8), yq = g.internal({3, 4}, xnn::Datatype::QInt8);
        g.quantizePerTensor(xq, in_scale, 0);
        g.quantizePerTensor(yq, out_scale, out_zero_point);
        xnn::QuantParams wq, bq;
        wq.kind = bq.kind = xnn::QuantParams::Kind::PerTensor;
        wq.scale = w_scale;
        bq.scale = in_scale * w_scale;
        std::vector<uint8_t> bias_bytes(bias_q.size() * 4);
        std::memcpy(bias_bytes.data(), bias_q.data(), bias_bytes.size());
        const uint32_t w = g.constantBytes({4, 8}, xnn::Datatype::QInt8, w_bytes, wq);
        const uint32_t b = g.constantBytes({4}, xnn::Datatype::QInt32, bias_bytes, bq);
        g.node(K::Convert, {x}, {xq});
        g.node(K::FullyConnected, {xq, w, b}, {yq});
        g.node(K::Convert, {yq}, {y});
      }));
}

// Dynamic quantization of a [3, K] input, FullyConnected against [4, K] quantized weights, fp32 out.
ProgramCase dynamicLinear(std::string name, int k, xnn::Datatype w_type, std::vector<uint8_t> w_bytes,
                          xnn::QuantParams wq, std::vector<float> w_real, std::string notes, double tolerance) {
  const std::vector<float> bias = {0.1f, -0.2f, 0.3f, 0.0f};
  const size_t kk = static_cast<size_t>(k);
  return handMadeCase(
      std::move(name), {{3, k}},
      [=](Inputs in) { return Outputs{ops::linear(in[0], sy::tensor<float>(w_real, {4, k}), sy::tensor<float>(bias, {4}))}; },
      std::move(notes), tolerance, [=](GraphMaker& g) {
        const uint32_t x = g.input({3, kk}), y = g.output({3, 4});
        const uint32_t xq = g.internal({3, kk}, xnn::Datatype::QDInt8);
        g.quantizePerToken(xq);
        const uint32_t w = g.constantBytes({4, kk}, w_type, w_bytes, wq), b = g.constant({4}, bias);
        g.node(K::Convert, {x}, {xq});
        g.node(K::FullyConnected, {xq, w, b}, {y});
      });
}

void addDynamicInt8Weights(CaseList& cases) {
  const int k = 16;
  xnn::QuantParams wq;
  wq.kind = xnn::QuantParams::Kind::PerChannel;
  wq.channel_dim = 0;
  for (int n = 0; n < 4; ++n) wq.scales.push_back(0.01f + 0.003f * n);
  std::vector<uint8_t> bytes(4 * k);
  std::vector<float> real(4 * k);
  for (int n = 0; n < 4; ++n)
    for (int i = 0; i < k; ++i) {
      const int q = ((n * k + i) * 29) % 255 - 127;
      bytes[n * k + i] = static_cast<uint8_t>(static_cast<int8_t>(q));
      real[n * k + i] = q * wq.scales[n];
    }
  cases.push_back(dynamicLinear("blob_qd8_qc8w_linear", k, xnn::Datatype::QCInt8, bytes, wq, real,
                                "XNNConvert fp32->qdint8 (per token), XNNFullyConnected with per-channel qcint8 weights, fp32 bias",
                                0.1));
}

// 4-bit weights, [4, 64], two values a byte (low nibble first), zero point 8.
enum class FourBit { PerChannel, Blocks, BlocksBf16Exact };

void addFourBitWeights(CaseList& cases, FourBit layout) {
  const int k = 64;
  const bool blocks = layout != FourBit::PerChannel;
  xnn::QuantParams wq;
  wq.zero_point = 8;
  if (blocks) {
    wq.kind = xnn::QuantParams::Kind::PerChannelGroup;
    wq.group_size = 32;  // two blocks per output channel
    for (int i = 0; i < 8; ++i)
      wq.scales.push_back(layout == FourBit::BlocksBf16Exact ? 0.0078125f * (1.0f + i / 8.0f) : 0.01f + 0.002f * i);
  } else {
    wq.kind = xnn::QuantParams::Kind::PerChannel;
    wq.channel_dim = 0;
    for (int n = 0; n < 4; ++n) wq.scales.push_back(0.015f + 0.003f * n);
  }
  std::vector<uint8_t> packed(4 * k / 2);
  std::vector<float> real(4 * k);
  for (int n = 0; n < 4; ++n)
    for (int i = 0; i < k; ++i) {
      const int q = (n * k + i) * 7 % 16 - 8;
      packed[(n * k + i) / 2] |= static_cast<uint8_t>((q + 8) << (i % 2 == 0 ? 0 : 4));
      real[n * k + i] = static_cast<float>(q) * (blocks ? wq.scales[n * 2 + i / 32] : wq.scales[n]);
    }
  const char* name = layout == FourBit::PerChannel ? "blob_qd8_qc4w_linear"
                     : layout == FourBit::Blocks   ? "blob_qd8_qb4w_linear"
                                                   : "blob_qd8_qb4w_linear_bf16exact";
  const char* notes = layout == FourBit::PerChannel ? "qdint8 activations x per-channel qcint4 weights"
                      : layout == FourBit::Blocks
                          ? "qdint8 activations x qbint4 weights, blocks of 32, scales not exact in bfloat16"
                          : "qdint8 activations x qbint4 weights, blocks of 32, every scale exact in bfloat16";
  const xnn::Datatype type = blocks ? xnn::Datatype::QBInt4 : xnn::Datatype::QCInt4;
  cases.push_back(dynamicLinear(name, k, type, packed, wq, real, notes, 0.03));
}

}  // namespace

void addQuantizedBlobs(CaseList& cases) {
  addStaticInt8(cases);
  addDynamicInt8Weights(cases);
  addFourBitWeights(cases, FourBit::Blocks);
  addFourBitWeights(cases, FourBit::PerChannel);
  addFourBitWeights(cases, FourBit::BlocksBf16Exact);
}

}  // namespace conformance
