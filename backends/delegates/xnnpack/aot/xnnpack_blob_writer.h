// Writes an XnnGraph (runtime/xnnpack_graph.h) as ExecuTorch's XNNPACK delegate blob: the XH00
// header, the XN01 FlatBuffers buffer, and the constants either in the program's named data
// under the SHA-256 of their bytes (what ExecuTorch's exporter does for weights, and for
// per-channel scales as "scale_" + digest) or in the blob's own constant region (what older
// exporters did). The one writer of the format: preprocess (xnnpack_preprocess.h) builds an
// XnnGraph and writes it with this; tests write hand-made graphs with it.
//
//   sy::xnnpack::XnnGraph g = ...;                       // values (constants point at their bytes) and nodes
//   absl::StatusOr<sy::xnnpack::WrittenBlob> w = sy::xnnpack::writeXnnBlob(g);
//   w->bytes;        // the processed blob
//   w->named_data;   // {key, bytes} entries the program must carry
//
// Values keep their order (a value's id is its index), external values their external ids, nodes
// their order and debug handles; an XnnGraph read back from the result equals the one written
// (the reader's checks apply: the writer refuses nothing the reader would, so write only graphs
// that are valid).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_graph.h"

namespace sy::xnnpack {

enum class ConstantPlacement : uint8_t { NamedData, BlobRegion };

struct WrittenBlob {
  std::vector<uint8_t> bytes;
  // Unique keys, in the order the constants first appear.
  std::vector<std::pair<std::string, std::vector<uint8_t>>> named_data;
};

absl::StatusOr<WrittenBlob> writeXnnBlob(const XnnGraph& graph, ConstantPlacement placement = ConstantPlacement::NamedData);

}  // namespace sy::xnnpack
