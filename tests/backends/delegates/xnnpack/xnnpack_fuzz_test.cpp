// A bounded mutation fuzz of the XNNPACK blob reader and runtime: random bit flips and byte
// overwrites of real blobs (the wild programs' delegates, with their named data) and of our own
// (float, quantized and host-step graphs). Each variant is initialised and, when it initialises,
// executed; it must come back as a result or an error, never a crash, and quickly: reading is
// linear in the blob's size, so no variant may take long (one random bit flip once took 42 s to
// be refused). Fixed seed, bounded iterations and time.
#include <cstring>
#include <random>

#include <gtest/gtest.h>

#include "program/program_test_support.h"
#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_graph.h"
#include "xnnpack_blob_support.h"

namespace sy::testing {
namespace {

using xnn::NodeKind;

using FuzzSeed = ProgramDelegate;

std::vector<FuzzSeed> fuzzSeeds() {
  std::vector<FuzzSeed> seeds;
  {  // transpose, convolution, max pooling, transpose: host steps around an XNNPACK runtime
    GraphMaker g;
    const uint32_t x = g.input({1, 3, 6, 6}), nhwc = g.internal({1, 6, 6, 3}), conv = g.internal({1, 6, 6, 4});
    const uint32_t pooled = g.internal({1, 3, 3, 4}), y = g.output({1, 4, 3, 3});
    g.node(NodeKind::StaticTranspose, {x}, {nhwc}).list_a = {0, 2, 3, 1};
    xnn::XnnNode& c = g.node(NodeKind::Conv2d, {nhwc, g.constant({4, 3, 3, 3}, randomUniformValues<float>(108, 1)),
                                                g.constant({4}, {0, 1, 2, 3})},
                             {conv});
    c.window.kernel_h = c.window.kernel_w = 3, c.window.pad_top = c.window.pad_bottom = c.window.pad_left = c.window.pad_right = 1;
    c.window.group_input_channels = 3, c.window.group_output_channels = 4;
    xnn::XnnNode& p = g.node(NodeKind::MaxPooling2d, {conv}, {pooled});
    p.window.kernel_h = p.window.kernel_w = p.window.stride_h = p.window.stride_w = 2;
    g.node(NodeKind::StaticTranspose, {pooled}, {y}).list_a = {0, 3, 1, 2};
    for (auto placement : {xnn::ConstantPlacement::NamedData, xnn::ConstantPlacement::BlobRegion}) {
      const xnn::WrittenBlob w = g.write(placement);
      seeds.push_back({w.bytes, w.named_data});
    }
  }
  {  // quantize, a qint8 fully connected layer with per-tensor weights, dequantize; a concatenation
    GraphMaker g;
    const uint32_t x = g.input({2, 4}), q = g.internal({2, 4}, xnn::Datatype::QInt8), fc = g.internal({2, 3}, xnn::Datatype::QInt8);
    g.quantize(q, 0.02f, -3).quantize(fc, 0.05f, 1);
    xnn::QuantParams wq, bq;
    wq.kind = bq.kind = xnn::QuantParams::Kind::PerTensor, wq.scale = 0.01f, bq.scale = 0.0002f;
    const uint32_t w = g.constantBytes({3, 4}, xnn::Datatype::QInt8, std::vector<uint8_t>{1, 2, 3, 250, 5, 6, 7, 8, 9, 10, 200, 12}, wq);
    const uint32_t b = g.constantBytes({3}, xnn::Datatype::QInt32, std::vector<uint8_t>(12, 1), bq);
    const uint32_t f = g.internal({2, 3}), y = g.output({2, 6});
    g.node(NodeKind::Convert, {x}, {q});
    g.node(NodeKind::FullyConnected, {q, w, b}, {fc});
    g.node(NodeKind::Convert, {fc}, {f});
    g.node(NodeKind::Concatenate2, {f, f}, {y}).axis = 1;
    const xnn::WrittenBlob written = g.write();
    seeds.push_back({written.bytes, written.named_data});
  }
  for (const char* file : {"djl-executorch-engine__conv.pte", "executorch-numpy-runtime__quantized.pte",
                           "djl-executorch-engine__lin129.pte", "executorch-numpy-runtime__dynamic.pte",
                           "djl-executorch-engine__clamp5.pte"}) {
    const std::string path = referenceProgram(std::string("wild/") + file);
    if (!std::filesystem::exists(path)) continue;
    if (std::optional<FuzzSeed> s = xnnpackDelegateOf(readFile(path))) seeds.push_back(*std::move(s));
  }
  return seeds;
}

// Initialises `blob` and, when that works, executes it on zeros; the result does not matter.
void initAndRun(const FuzzSeed& seed, const std::vector<uint8_t>& blob) {
  InMemoryNamedData named(seed.named);
  absl::StatusOr<xnn::XnnGraph> graph = xnn::readXnnGraph(blob, &named);
  xnn::WrittenBlob w;
  w.bytes = blob;
  w.named_data = seed.named;
  absl::StatusOr<std::unique_ptr<BlobDelegate>> d = BlobDelegate::init(w);
  if (!d.ok() || !graph.ok()) return;
  std::vector<Tensor> args(graph->num_externs, sy::empty({0}));
  for (const xnn::XnnValue& v : graph->values) {
    if (v.isExternal()) args[v.external_id] = sy::zeros(std::vector<int64_t>(v.dims.begin(), v.dims.end()));
  }
  (void)(*d)->execute(args);
}

TEST(XnnpackFuzz, CorruptedBlobsAreErrorsOrRunNeverCrash) {
  const std::vector<FuzzSeed> seeds = fuzzSeeds();
  ASSERT_GE(seeds.size(), 3u);
  std::mt19937 rng(20240531);
  // A fixed number of variants, not a time budget: the suite asserts nothing about time (a loaded
  // machine, or a sanitizer build, is slower), and the same variants run everywhere.
  constexpr int kVariants = 300;
  for (int variants = 0; variants < kVariants; ++variants) {
    const FuzzSeed& seed = seeds[static_cast<size_t>(variants) % seeds.size()];
    std::vector<uint8_t> blob = seed.blob;
    const int edits = 1 + static_cast<int>(rng() % 3);
    for (int e = 0; e < edits; ++e) {
      const size_t at = rng() % blob.size();
      if (rng() % 2 == 0) {
        blob[at] ^= static_cast<uint8_t>(1u << (rng() % 8));
      } else {
        blob[at] = static_cast<uint8_t>(rng());
      }
    }
    initAndRun(seed, blob);
  }
}

TEST(XnnpackFuzz, TheSeedsThemselvesInitialiseAndRun) {
  for (const FuzzSeed& seed : fuzzSeeds()) {
    xnn::WrittenBlob w;
    w.bytes = seed.blob;
    w.named_data = seed.named;
    absl::StatusOr<std::unique_ptr<BlobDelegate>> d = BlobDelegate::init(w);
    EXPECT_TRUE(d.ok()) << d.status();
  }
}

}  // namespace
}  // namespace sy::testing
