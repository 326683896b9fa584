// Reading ExecuTorch's XNNPACK blob into an XnnGraph.
//
// Note [An XNNPACK blob is checked before XNNPACK sees it]
// The blob comes from a file, and Debian's XNNPACK trusts what it is given: dims that do not fit a
// node make it read or write outside its buffers, and some inconsistencies end in an assertion
// that aborts the process. So the reader checks everything before any xnn_* call, in time linear
// in the blob's size (plus a log factor for sorting ids and keys):
// - the XH00 header's regions lie inside the blob (xnnpack_header.h); the FlatBuffers identifier is
//   XN00 or XN01; the buffer passes the FlatBuffers verifier with a table budget proportional to
//   its size, so that tables shared many times (a DAG a hostile writer can make) cannot multiply
//   the work;
// - every value: a datatype this build knows, quantization parameters of the kind that datatype
//   has (positive finite scales, zero points in range, one scale per channel or group), at most
//   six dims, at most 2^32 bytes, and all values together at most 2^34 bytes, so that no size a
//   blob declares can make init allocate without bound; constant data inside the blob's constant
//   region or found by key (at most 1 KiB long) in the named data, and at least as long as the
//   value; external ids unique and below num_externs (at most 4096);
// - every node: a kind the format defines, flags it takes, operands that name existing values
//   (only a bias may be absent), window parameters at most 2^24, a result written once and not a
//   constant or an input, operands that are constants, inputs or results of earlier nodes, and
//   declared output dims equal to what the node's shape rule gives (xnnpack_shapes.h);
// - every external output is written by some node.
// Each error names the value or node and what is wrong. The blob is also bounded in what it makes
// init do: the work after reading is linear in the values and nodes, and XNNPACK packs only
// constant data the file actually holds.
#include <cmath>
#include <cstring>
#include <map>

#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_header.h"
#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_reader_internal.h"
#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_shapes.h"
#include "switchyard/core/error.h"

namespace sy::xnnpack {

namespace reader {

absl::Status malformed(std::string what) {
  return absl::InvalidArgumentError(sy::str("malformed XNNPACK blob: ", what));
}

absl::Status IdResolver::finish() {
  std::sort(ids_.begin(), ids_.end());
  for (size_t i = 1; i < ids_.size(); ++i) {
    if (ids_[i].first == ids_[i - 1].first) {
      return malformed(sy::str("values ", ids_[i - 1].second, " and ", ids_[i].second, " both have id ", ids_[i].first));
    }
  }
  return absl::OkStatus();
}

uint32_t IdResolver::find(uint32_t id) const {
  const auto it = std::lower_bound(ids_.begin(), ids_.end(), std::make_pair(id, uint32_t{0}));
  return it != ids_.end() && it->first == id ? it->second : kNoValue;
}

}  // namespace reader

namespace {

using reader::malformed;

constexpr uint64_t kMaxValueBytes = uint64_t{1} << 32;
constexpr uint64_t kMaxTotalBytes = uint64_t{1} << 34;
constexpr uint32_t kMaxExterns = 4096;
constexpr size_t kMaxKeyLength = 1024;

bool knownDatatype(Datatype d) {
  switch (d) {
    case Datatype::Fp32:
    case Datatype::Fp16:
    case Datatype::QInt8:
    case Datatype::QUInt8:
    case Datatype::QInt32:
    case Datatype::QCInt8:
    case Datatype::QCInt32:
    case Datatype::QCInt4:
    case Datatype::QDInt8:
    case Datatype::QBInt4:
    case Datatype::Int32: return true;
    default: return false;
  }
}


class GraphReader {
 public:
  GraphReader(const fb::XNNGraph& g, const BlobRegions& regions, const NamedDataMap* named, XnnGraph& out)
      : g_(g), regions_(regions), named_(named), out_(out) {}

  absl::Status read() {
    if (g_.xvalues() == nullptr) return malformed("the graph has no xvalues");
    if (g_.xnodes() == nullptr) return malformed("the graph has no xnodes");
    out_.version = g_.version() == nullptr ? "" : g_.version()->str();
    out_.num_externs = g_.num_externs();
    if (out_.num_externs > kMaxExterns) {
      return malformed(sy::str("num_externs is ", out_.num_externs, "; at most ", kMaxExterns, " are supported"));
    }
    external_taken_.assign(out_.num_externs, false);
    const auto& values = *g_.xvalues();
    out_.values.reserve(values.size());
    for (uint32_t i = 0; i < values.size(); ++i) {
      if (auto s = readValue(*values.Get(i), i); !s.ok()) return s;
    }
    if (auto s = ids_.finish(); !s.ok()) return s;
    for (uint32_t i = 0; i < out_.values.size(); ++i) {
      const XnnValue& v = out_.values[i];
      if (v.is_input) out_.inputs.push_back(i);
      if (v.is_output) out_.outputs.push_back(i);
    }
    auto by_external_id = [&](uint32_t a, uint32_t b) { return out_.values[a].external_id < out_.values[b].external_id; };
    std::sort(out_.inputs.begin(), out_.inputs.end(), by_external_id);
    std::sort(out_.outputs.begin(), out_.outputs.end(), by_external_id);
    out_.nodes.resize(legacy_converts_.size() + g_.xnodes()->size());
    for (size_t i = 0; i < legacy_converts_.size(); ++i) out_.nodes[i] = legacy_converts_[i];
    for (uint32_t i = 0; i < g_.xnodes()->size(); ++i) {
      const fb::XNode* node = g_.xnodes()->Get(i);
      if (auto s = reader::decodeNode(*node, i, ids_, out_.nodes[legacy_converts_.size() + i]); !s.ok()) return s;
    }
    return checkNodes();
  }

 private:
  absl::Status valueError(uint32_t i, const std::string& what) const { return malformed(sy::str("value ", i, ": ", what)); }

  // constant_data[index] (or constant_buffer[index] in a blob without a header): its bytes, kept
  // alive by out_, aligned to 16 bytes (copied when the file placed them otherwise).
  absl::StatusOr<absl::Span<const uint8_t>> constant(uint32_t index, uint32_t value) {
    absl::Span<const uint8_t> bytes;
    if (!regions_.has_header) {
      const auto* buffers = g_.constant_buffer();
      if (buffers == nullptr || index >= buffers->size()) {
        return valueError(value, sy::str("constant_buffer_idx ", index, " is past the ",
                                         buffers == nullptr ? 0 : buffers->size(), " entries of constant_buffer"));
      }
      const fb::Buffer* b = buffers->Get(index);
      if (b->storage() != nullptr) bytes = absl::Span<const uint8_t>(b->storage()->data(), b->storage()->size());
    } else {
      const auto* entries = g_.constant_data();
      if (entries == nullptr || index >= entries->size()) {
        return valueError(value, sy::str("constant_buffer_idx ", index, " is past the ",
                                         entries == nullptr ? 0 : entries->size(), " entries of constant_data"));
      }
      const fb::ConstantDataOffset* c = entries->Get(index);
      if (c->named_key() == nullptr) {
        if (c->offset() > regions_.constant_data.size() || c->size() > regions_.constant_data.size() - c->offset()) {
          return valueError(value, sy::str("constant data [", c->offset(), ", +", c->size(), ") runs past the blob's ",
                                           regions_.constant_data.size(), " bytes of constant data"));
        }
        bytes = regions_.constant_data.subspan(c->offset(), c->size());
      } else {
        const std::string_view key(c->named_key()->c_str(), c->named_key()->size());
        if (key.size() > kMaxKeyLength) return valueError(value, sy::str("a named key of ", key.size(), " bytes"));
        if (named_ == nullptr) {
          return valueError(value, sy::str("its data is named data '", key, "', but no named data was given"));
        }
        absl::StatusOr<FreeableBuffer> data = named_->get_data(key);
        if (!data.ok()) return absl::Status(data.status().code(), sy::str("value ", value, ": ", data.status().message()));
        bytes = absl::Span<const uint8_t>(static_cast<const uint8_t*>(data->data()), data->size());
        if (c->size() > bytes.size()) {
          return valueError(value, sy::str("constant_data says named data '", key, "' has ", c->size(), " bytes, but it has ",
                                           bytes.size()));
        }
        out_.keep_alive.push_back(*std::move(data));
      }
    }
    return aligned(bytes);
  }

  absl::Span<const uint8_t> aligned(absl::Span<const uint8_t> bytes) {
    if (bytes.empty() || reinterpret_cast<uintptr_t>(bytes.data()) % 16 == 0) return bytes;
    if (auto it = realigned_.find({bytes.data(), bytes.size()}); it != realigned_.end()) {
      return absl::Span<const uint8_t>(it->second, bytes.size());
    }
    auto copy = std::make_unique<uint8_t[]>(bytes.size());
    std::memcpy(copy.get(), bytes.data(), bytes.size());
    realigned_[{bytes.data(), bytes.size()}] = copy.get();
    out_.owned.push_back(std::move(copy));
    return absl::Span<const uint8_t>(out_.owned.back().get(), bytes.size());
  }

  absl::Status readValue(const fb::XValue& x, uint32_t i) {
    const fb::XNNTensorValue* t = nullptr;
    const fb::XNNQuantizedTensorValue* q = nullptr;
    if (x.xvalue_union_type() == fb::XValueUnion::XNNTensorValue) {
      t = x.xvalue_union_as_XNNTensorValue();
    } else if (x.xvalue_union_type() == fb::XValueUnion::XNNQuantizedTensorValue) {
      q = x.xvalue_union_as_XNNQuantizedTensorValue();
      if (q != nullptr) t = q->tensor_value();
    }
    if (t == nullptr) return valueError(i, "neither a tensor value nor a quantized tensor value");
    XnnValue v;
    v.id = t->id_out();
    v.datatype = static_cast<Datatype>(t->datatype());
    v.dq_datatype = static_cast<Datatype>(t->dq_datatype());
    if (!knownDatatype(v.datatype)) {
      return valueError(i, sy::str("datatype ", static_cast<int>(t->datatype()), " (", datatypeName(v.datatype),
                                   ") is not one this build of the XNNPACK delegate runs"));
    }
    const bool quantized = v.datatype != Datatype::Fp32 && v.datatype != Datatype::Fp16 && v.datatype != Datatype::Int32;
    if (quantized != (q != nullptr)) {
      return valueError(i, sy::str(datatypeName(v.datatype), q == nullptr ? " without" : " with", " quantization parameters"));
    }
    if (v.id == kNoValue) return valueError(i, "id 0xFFFFFFFF, which means \"no value\"");
    if (t->dims() != nullptr) {
      if (t->dims()->size() > kMaxDims) return valueError(i, sy::str(t->dims()->size(), " dims; XNNPACK takes at most 6"));
      for (uint32_t d : *t->dims()) v.dims.push_back(d);
    }
    const uint64_t bytes = storageBytes(v.datatype, v.dims);
    if (bytes > kMaxValueBytes) {
      return valueError(i, sy::str(datatypeName(v.datatype), dimsString(v.dims), " is larger than 2^32 bytes"));
    }
    total_bytes_ += bytes;
    if (total_bytes_ > kMaxTotalBytes) return valueError(i, "the values together are larger than 2^34 bytes");
    constexpr uint32_t kKnownFlags = 3;
    if ((t->flags() & ~kKnownFlags) != 0 || t->flags() == kKnownFlags) {
      return valueError(i, sy::str("flags ", t->flags(), "; a value is an external input (1), an external output (2) or neither"));
    }
    v.is_input = t->flags() == 1, v.is_output = t->flags() == 2;
    if (v.isExternal()) {
      v.external_id = t->external_id();
      if (v.external_id >= out_.num_externs || external_taken_[v.external_id]) {
        return valueError(i, sy::str("external id ", v.external_id, " is ",
                                     v.external_id >= out_.num_externs ? "not below num_externs" : "another value's too"));
      }
      external_taken_[v.external_id] = true;
      if (v.datatype == Datatype::QDInt8 || v.datatype == Datatype::QCInt4 || v.datatype == Datatype::QBInt4) {
        return valueError(i, sy::str("a ", datatypeName(v.datatype), " value cannot be a delegate argument"));
      }
    }
    if (q != nullptr) {
      auto constants = [&](uint32_t index) { return constant(index, i); };
      if (auto s = reader::readQuantization(*q, i, v, constants, scales_read_); !s.ok()) return s;
    }
    if (t->constant_buffer_idx() != 0) {
      if (v.isExternal()) return valueError(i, "an external value with constant data");
      if (v.datatype == Datatype::QDInt8) return valueError(i, "constant data for a value quantized at run time");
      absl::StatusOr<absl::Span<const uint8_t>> data = constant(t->constant_buffer_idx(), i);
      if (!data.ok()) return data.status();
      if (data->size() < bytes || data->empty()) {
        return valueError(i, sy::str("its constant data has ", data->size(), " bytes; ", datatypeName(v.datatype),
                                     dimsString(v.dims), " needs ", bytes));
      }
      v.data = data->data(), v.data_size = data->size();
    } else if (v.datatype == Datatype::QCInt4 || v.datatype == Datatype::QBInt4) {
      return valueError(i, sy::str("a ", datatypeName(v.datatype), " value without constant data"));
    }
    if (v.dq_datatype != Datatype::Invalid) return legacyDynamicQuantization(std::move(v), i);
    ids_.add(v.id, i);
    out_.values.push_back(std::move(v));
    return absl::OkStatus();
  }

  // Older blobs mark a float input with dq_datatype instead of writing the Convert node that
  // quantizes it: the value becomes an internal qdint8 value (nodes name it by its id) written by
  // a Convert node from a new float external input.
  absl::Status legacyDynamicQuantization(XnnValue v, uint32_t i) {
    if (v.dq_datatype != Datatype::QInt8 || v.datatype != Datatype::Fp32 || !v.is_input) {
      return valueError(i, sy::str("dq_datatype ", datatypeName(v.dq_datatype), " on a ", datatypeName(v.datatype),
                                   v.is_input ? " input" : " value that is not an external input"));
    }
    XnnValue quantized = v;
    quantized.datatype = Datatype::QDInt8;
    quantized.is_input = false, quantized.external_id = kNoValue, quantized.dq_datatype = Datatype::Invalid;
    quantized.quant.kind = QuantParams::Kind::PerToken, quantized.quant.num_nonbatch_dims = 1;
    v.dq_datatype = Datatype::Invalid;
    v.id = kNoValue;  // reachable only through the Convert node
    ids_.add(quantized.id, i);
    out_.values.push_back(std::move(quantized));
    XnnNode convert;
    convert.kind = NodeKind::Convert;
    convert.outputs.push_back(i);
    convert.inputs.push_back(static_cast<uint32_t>(pending_float_inputs_.size()));  // patched in checkNodes
    pending_float_inputs_.push_back(std::move(v));
    legacy_converts_.push_back(std::move(convert));
    return absl::OkStatus();
  }

  absl::Status checkNodes();

  const fb::XNNGraph& g_;
  const BlobRegions& regions_;
  const NamedDataMap* named_;
  XnnGraph& out_;
  reader::IdResolver ids_;
  std::vector<bool> external_taken_;
  std::map<std::pair<const uint8_t*, size_t>, const uint8_t*> realigned_;  // each misaligned constant copied once
  std::vector<XnnNode> legacy_converts_;
  std::vector<XnnValue> pending_float_inputs_;
  uint64_t total_bytes_ = 0, scales_read_ = 0;
};

absl::Status GraphReader::checkNodes() {
  // The float inputs of legacy Convert nodes go after the blob's own values.
  for (size_t k = 0; k < pending_float_inputs_.size(); ++k) {
    legacy_converts_[k].inputs[0] = static_cast<uint32_t>(out_.values.size());
    out_.nodes[k].inputs[0] = static_cast<uint32_t>(out_.values.size());
    out_.inputs.push_back(static_cast<uint32_t>(out_.values.size()));
    out_.values.push_back(std::move(pending_float_inputs_[k]));
  }
  if (!pending_float_inputs_.empty()) {
    std::sort(out_.inputs.begin(), out_.inputs.end(),
              [&](uint32_t a, uint32_t b) { return out_.values[a].external_id < out_.values[b].external_id; });
  }
  std::vector<bool> available(out_.values.size(), false);
  for (size_t i = 0; i < out_.values.size(); ++i) available[i] = out_.values[i].isConstant() || out_.values[i].is_input;
  const size_t legacy = legacy_converts_.size();
  for (size_t k = 0; k < out_.nodes.size(); ++k) {
    const XnnNode& n = out_.nodes[k];
    const size_t shown = k < legacy ? k : k - legacy;  // the blob's own node numbers
    const std::string name = reader::nodeName(shown, n.kind);
    absl::InlinedVector<const Dims*, 5> dims;
    for (uint32_t v : n.inputs) {
      if (v == kNoValue) {
        dims.push_back(nullptr);
        continue;
      }
      if (!available[v]) return malformed(sy::str(name, " reads value ", out_.values[v].id, " before any node writes it"));
      dims.push_back(&out_.values[v].dims);
    }
    for (size_t o = 0; o < n.outputs.size(); ++o) {
      const XnnValue& v = out_.values[n.outputs[o]];
      if (available[n.outputs[o]]) {
        return malformed(sy::str(name, " writes value ", v.id, ", which is ",
                                 v.isConstant() ? "a constant" : v.is_input ? "an input" : "written by an earlier node"));
      }
      available[n.outputs[o]] = true;
    }
    absl::StatusOr<OutputDims> inferred = inferOutputDims(n, dims);
    if (!inferred.ok()) return malformed(sy::str(name, ": ", inferred.status().message()));
    for (size_t o = 0; o < n.outputs.size(); ++o) {
      const XnnValue& v = out_.values[n.outputs[o]];
      if ((*inferred)[o] != v.dims) {
        return malformed(sy::str(name, ": its output value ", v.id, " is ", dimsString(v.dims), ", but the node makes ",
                                 dimsString((*inferred)[o])));
      }
    }
  }
  for (uint32_t v : out_.outputs) {
    if (!available[v]) {
      return malformed(sy::str("external output value ", out_.values[v].id, " (argument ", out_.values[v].external_id,
                               ") is written by no node"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<XnnGraph> readXnnGraph(absl::Span<const uint8_t> bytes, const NamedDataMap* named_data, FreeableBuffer blob) {
  absl::StatusOr<BlobRegions> regions = splitBlob(bytes);
  if (!regions.ok()) return malformed(std::string(regions.status().message()));
  XnnGraph graph;
  absl::Span<const uint8_t> fb_bytes = regions->flatbuffer;
  if (reinterpret_cast<uintptr_t>(fb_bytes.data()) % 16 != 0) {
    // FlatBuffers reads fields in place; give it the alignment its verifier assumes.
    auto copy = std::make_unique<uint8_t[]>(fb_bytes.size());
    std::memcpy(copy.get(), fb_bytes.data(), fb_bytes.size());
    fb_bytes = absl::Span<const uint8_t>(copy.get(), fb_bytes.size());
    graph.owned.push_back(std::move(copy));
  }
  const char* identifier = flatbuffers::GetBufferIdentifier(fb_bytes.data());
  if (std::memcmp(identifier, "XN01", 4) != 0 && std::memcmp(identifier, "XN00", 4) != 0) {
    return malformed(sy::str("the FlatBuffers identifier is '", std::string(identifier, 4),
                             "', not XN00 or XN01: not an XNNPACK delegate blob"));
  }
  flatbuffers::Verifier::Options options;
  options.max_tables = static_cast<flatbuffers::uoffset_t>(std::min<size_t>(fb_bytes.size() / 4 + 64, 1u << 30));
  flatbuffers::Verifier verifier(fb_bytes.data(), fb_bytes.size(), options);
  if (!verifier.VerifyBuffer<fb::XNNGraph>(nullptr)) {
    return malformed(sy::str("the FlatBuffers buffer (", fb_bytes.size(), " bytes) does not verify: truncated or corrupt"));
  }
  if (!blob.freed()) graph.keep_alive.push_back(std::move(blob));
  GraphReader reader(*flatbuffers::GetRoot<fb::XNNGraph>(fb_bytes.data()), *regions, named_data, graph);
  if (absl::Status s = reader.read(); !s.ok()) return s;
  return graph;
}

}  // namespace sy::xnnpack
