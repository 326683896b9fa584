// XnnGraph: an XNNPACK delegate blob decoded and checked (runtime/xnnpack_graph_reader.cpp), in
// plain C++ types that no longer depend on the FlatBuffers schema. What init plans and runs, and
// what `switchyard inspect` prints.
//
//   absl::StatusOr<sy::xnnpack::XnnGraph> g = sy::xnnpack::readXnnGraph(blob, named_data_map);
//   for (const sy::xnnpack::XnnNode& n : g->nodes) std::cout << nodeKindName(n.kind) << "\n";
//
// Values are numbered by their position in the blob's xvalues; nodes refer to them by that index
// (the blob's own ids, id_out, are resolved once by the reader). Every index, count and size in
// an XnnGraph has been checked: indices are in range, dims fit XNNPACK's six dimensions and the
// size limits below, constant data covers its value, and each node's shapes fit (See Note [An
// XNNPACK blob is checked before XNNPACK sees it] in xnnpack_graph_reader.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_node_kind.h"
#include "switchyard/delegate/backend_interface.h"

namespace sy::xnnpack {

// XNNPACK's xnn_datatype numbering, as the blob stores it.
enum class Datatype : int16_t {
  Invalid = 0,
  Fp32 = 1,
  Fp16 = 2,
  QInt8 = 3,
  QUInt8 = 4,
  QInt32 = 5,
  QCInt8 = 6,
  QCInt32 = 7,
  QCInt4 = 8,
  QDInt8 = 9,
  QBInt4 = 10,
  QPInt8 = 11,
  Int32 = 12,
  PFp32 = 13,
  BF16 = 14,
};
std::string_view datatypeName(Datatype d);  // "fp32", "qint8", ...

inline constexpr uint32_t kNoValue = std::numeric_limits<uint32_t>::max();
inline constexpr size_t kMaxDims = 6;  // XNN_MAX_TENSOR_DIMS

using Dims = absl::InlinedVector<size_t, kMaxDims>;

struct QuantParams {
  enum class Kind : uint8_t { None, PerTensor, PerChannel, PerChannelGroup, PerToken };
  Kind kind = Kind::None;
  float scale = 1.0f;      // PerTensor
  int32_t zero_point = 0;  // PerTensor; 8 for 4-bit weights, 0 for the other per-channel types
  std::vector<float> scales;  // PerChannel: one per channel; PerChannelGroup: [channels, groups]
  uint32_t channel_dim = 0;
  uint32_t group_size = 0;        // PerChannelGroup
  int32_t num_nonbatch_dims = 0;  // PerToken
};

struct XnnValue {
  uint32_t id = 0;  // the blob's id_out
  Datatype datatype = Datatype::Fp32;
  Dims dims;
  // Constant data (null for a value without): kept alive by the XnnGraph.
  const uint8_t* data = nullptr;
  size_t data_size = 0;
  uint32_t external_id = kNoValue;  // the delegate argument of an external input or output
  bool is_input = false, is_output = false;
  // Older blobs' run-time quantization of a float input (Datatype::QInt8 or Invalid).
  Datatype dq_datatype = Datatype::Invalid;
  QuantParams quant;

  bool isConstant() const { return data != nullptr; }
  bool isExternal() const { return is_input || is_output; }
};

struct XnnNode {
  NodeKind kind = NodeKind::Add;
  uint32_t debug_handle = 0;
  uint32_t flags = 0;
  float output_min = -std::numeric_limits<float>::infinity();
  float output_max = std::numeric_limits<float>::infinity();
  // Value indices in the kind's operand order (nodeOperands, xnnpack_node_kind.h); an absent
  // optional operand (a bias) is kNoValue.
  absl::InlinedVector<uint32_t, 5> inputs;
  absl::InlinedVector<uint32_t, 2> outputs;
  // Convolution and pooling windows (pooling uses stride for subsampling, no groups).
  struct Window {
    uint32_t pad_top = 0, pad_right = 0, pad_bottom = 0, pad_left = 0;
    uint32_t kernel_h = 1, kernel_w = 1, stride_h = 1, stride_w = 1, dilation_h = 1, dilation_w = 1;
    uint32_t groups = 1, group_input_channels = 0, group_output_channels = 0;
    uint32_t adjustment_h = 0, adjustment_w = 0;
  } window;
  // perm (transpose), new_shape (reshape), offsets and sizes (slice), pre and post paddings (pad).
  Dims list_a, list_b;
  float scalar = 0;  // ELU alpha, leaky ReLU slope, constant pad value
  uint32_t axis = 0;                   // concatenation
  uint32_t new_height = 0, new_width = 0;  // bilinear resize
};

// Node flags the reader accepts (others are refused, naming the node).
inline constexpr uint32_t kFlagTransposeWeights = 1;  // FullyConnected: filter [K, N]; BatchMatrixMultiply: B transposed
inline constexpr uint32_t kFlagAlignCorners = 8;      // StaticResizeBilinear2D
inline constexpr uint32_t kFlagTensorflowLegacy = 4;  // StaticResizeBilinear2D (half-pixel centres off)

struct XnnGraph {
  std::string version;
  uint32_t num_externs = 0;
  std::vector<XnnValue> values;
  std::vector<XnnNode> nodes;
  // Value indices of the external inputs and outputs, each in the order of their external ids.
  std::vector<uint32_t> inputs, outputs;
  // What keeps constant data alive: the blob itself and the named data the values point into.
  std::vector<FreeableBuffer> keep_alive;
  std::vector<std::unique_ptr<uint8_t[]>> owned;  // constants copied for alignment
};

// The blob `bytes` decoded and checked; constants found by key in `named_data` (may be null when
// no constant names one). `bytes` must stay valid as long as the graph, unless `blob` is given:
// the graph then takes it over. Errors say what is wrong and where ("node 3 (XNNConv2d): ...").
absl::StatusOr<XnnGraph> readXnnGraph(absl::Span<const uint8_t> bytes, const NamedDataMap* named_data,
                                      FreeableBuffer blob = {});

// The number of elements of `dims` (1 for none); the reader has bounded every product.
size_t numelOf(const Dims& dims);
// Bytes of `numel` elements of `d` laid out in `dims` (4-bit types pack two per byte along the
// last dimension); 0 for a datatype with no storage size.
size_t storageBytes(Datatype d, const Dims& dims);
std::string dimsString(const Dims& dims);  // "[1, 3, 16, 16]"

}  // namespace sy::xnnpack
