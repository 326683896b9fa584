// blobs_unsupported.cpp: hand-made graphs of node kinds that ExecuTorch's XNNPACK schema can express
// but that ExecuTorch's runtime cannot build into an XNNPACK subgraph. They are kept so that the day
// ExecuTorch learns them, the expected failure turns into an unexpected pass and is noticed; each
// has its line in ../expected_failures.tsv with the reason.
//
//   blob_sdpa   XNNScaledDotProductAttention: in the schema (runtime_schema.fbs) but with no
//               define function in ExecuTorch v1.4.1's XNNCompiler.cpp, whose getDefineNodeFunc
//               falls through to defineNotImplementedNode ("Unhandled node type").
#include "graph_maker.h"

namespace conformance {

void addUnsupportedBlobs(CaseList& cases) {
  cases.push_back(handMadeCase(
      "blob_sdpa", {{1, 2, 3, 4}, {1, 2, 5, 4}, {1, 2, 5, 4}},
      [](const std::vector<Tensor>& in) {
        const Tensor q = ops::reshape(in[0], {2, 3, 4}), k = ops::reshape(in[1], {2, 5, 4}), v = ops::reshape(in[2], {2, 5, 4});
        const Tensor scores = ops::mul(ops::bmm(q, ops::contiguous(ops::transpose(k, 1, 2))), 0.5);
        return std::vector<Tensor>{ops::reshape(ops::bmm(ops::softmax(scores, -1), v), {1, 2, 3, 4})};
      },
      "XNNScaledDotProductAttention, scale 0.5, an all-zero mask", 1e-5, [](GraphMaker& g) {
        const uint32_t q = g.input({1, 2, 3, 4}), k = g.input({1, 2, 5, 4}), v = g.input({1, 2, 5, 4});
        const uint32_t y = g.output({1, 2, 3, 4});
        const uint32_t scale = g.constant({4}, std::vector<float>(4, 0.5f));
        const uint32_t mask = g.constant({3, 5}, std::vector<float>(15, 0.0f));
        g.node(xnn::NodeKind::ScaledDotProductAttention, {q, k, v, scale, mask}, {y});
      }));
}

}  // namespace conformance
